"""Tiny stand-ins for verl's published wheels: a zip named as pip names a wheel, with the metadata pip reads and a
verl/trainer/config tree written here (a handful of keys, one config group), for `--verl-version` tests that must
not touch the network. `wheel_dir` writes one per release into a folder that VERL_WIZARD_WHEEL_DIR points pip at.
"""

from __future__ import annotations

import atexit
import functools
import os
import shutil
import tempfile
import zipfile
from pathlib import Path

# The primary config, in the shape of verl's: a group picked in the defaults list, then the config's own keys.
PRIMARY = """\
defaults:
  - worker@actor_rollout_ref.actor: fsdp_worker
  - _self_
algorithm:
  adv_estimator: gae
data:
  train_files: ~/data/train.parquet
  val_files: ~/data/test.parquet
  train_batch_size: 64
  max_prompt_length: 256
actor_rollout_ref:
  model:
    path: ~/models/placeholder
    override_config: {}
  ref:
    log_prob_micro_batch_size_per_gpu: null
  rollout:
    name: ???
    n: 1
    log_prob_micro_batch_size_per_gpu: null
{extra}trainer:
  nnodes: 1
  n_gpus_per_node: 8
"""
WORKER = """\
strategy: fsdp
ppo_mini_batch_size: 16
ppo_micro_batch_size_per_gpu: null
"""
# What release 0.8.0 of the stand-in has and its 0.9.1 has not (verl 0.9.0 removed rollout.skip the same way).
OLD_ONLY = """\
    skip:
      enable: false
      dump_dir: /tmp/skip
"""


def tree_files(version: str) -> dict[str, str]:
    """The stand-in's verl/trainer/config files of `version` (0.8.x has rollout.skip; later releases do not)."""
    extra = OLD_ONLY if version.startswith(("0.7", "0.8")) else ""
    return {"ppo_trainer.yaml": PRIMARY.replace("{extra}", extra), "worker/fsdp_worker.yaml": WORKER}


def make_wheel(folder: Path, version: str, files: dict[str, str] | None = None) -> Path:
    """verl-VERSION-py3-none-any.whl in `folder`, holding `files` (default tree_files) under verl/trainer/config/."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"verl-{version}-py3-none-any.whl"
    info = f"verl-{version}.dist-info"
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("verl/__init__.py", f"__version__ = {version!r}\n")
        for name, text in (files if files is not None else tree_files(version)).items():
            archive.writestr(f"verl/trainer/config/{name}", text)
        archive.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: verl\nVersion: {version}\n")
        archive.writestr(
            f"{info}/WHEEL", "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n"
        )
        archive.writestr(f"{info}/RECORD", "")
    return path


def wheel_dir(folder: Path, *versions: str) -> Path:
    """A folder of stand-in wheels, one per release."""
    for version in versions:
        make_wheel(folder, version)
    return folder


@functools.lru_cache(maxsize=1)
def shared_trees() -> tuple[Path, Path, dict]:
    """(a folder of stand-in wheels of 0.8.0 and 0.9.1, a cache holding both trees, the Trees as first taken):
    pip runs once per release per test process; tests point VERL_WIZARD_WHEEL_DIR and VERL_WIZARD_CACHE at them."""
    from wizard.detect.config import verl_tree

    root = Path(tempfile.mkdtemp(prefix="verl-wizard-test-wheels-"))
    atexit.register(shutil.rmtree, root, True)
    wheels, cache = wheel_dir(root / "wheels", "0.8.0", "0.9.1"), root / "cache"
    saved = {name: os.environ.get(name) for name in (verl_tree.WHEEL_DIR_ENV, verl_tree.CACHE_ENV)}
    os.environ.update({verl_tree.WHEEL_DIR_ENV: str(wheels), verl_tree.CACHE_ENV: str(cache)})
    try:
        trees = {version: verl_tree.obtain(version) for version in ("0.8.0", "0.9.1")}
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    return wheels, cache, trees
