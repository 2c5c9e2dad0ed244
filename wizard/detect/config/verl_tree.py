"""`--verl-version X`: verl X's own config tree (verl/trainer/config/**), taken from its published wheel, composed by
Hydra itself in the wizard's interpreter (verl is neither installed nor imported).

The tree comes from `python -m pip download verl==X --no-deps` (this interpreter's pip, quiet, with a deadline; with
VERL_WIZARD_WHEEL_DIR set, from that folder of wheels only) and is kept in
`${VERL_WIZARD_CACHE:-${XDG_CACHE_HOME:-~/.cache}/verl-wizard}/verl-config/X/verl/trainer/config/`, written to a
temporary folder and renamed into place, so that a reader never sees half a tree; a cached tree is used without the
network. pip's answer tells the two failures apart: an index that lists releases without X is bad input (exit 2);
no index at all (offline) leaves no tree, and `check` falls back to the embedded 0.9.1 snapshot and says so.

The composition is the shared compose step of verl_verdict_compose.py over the same question `--verl` asks
(wizard.detect.env.verl_verdict.Question): verl's own tree when the run names no --config-path, else the script's
folder, whose `hydra.searchpath` entry for verl's tree is pointed at the cached one (verl's `pkg://` needs verl).
Plain value overrides over verl's own tree take the fast path of verl_tree_base.py. A verdict that depends on the
tree, the question and a config folder's YAML files (their sizes and times) is kept beside the tree (`verdicts/`):
checking the same script or config again composes nothing.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import sys
import tempfile
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from packaging.version import InvalidVersion, Version

from wizard.detect.child_process import run_with_deadline
from wizard.detect.config import verl_tree_base
from wizard.detect.env.verl_verdict import Question
from wizard.detect.env.verl_verdict_compose import compose_config, quote
from wizard.errors import UsageError

FLAG = "--verl-version"
CACHE_ENV, WHEEL_DIR_ENV = "VERL_WIZARD_CACHE", "VERL_WIZARD_WHEEL_DIR"
DOWNLOAD_DEADLINE_S = 120.0
PREFIX = "verl/trainer/config/"
# pip's "(from versions: a, b)": the index answered; "none" is also what pip says when it reached no index
_FROM_VERSIONS = re.compile(r"\(from versions: ([^)]*)\)")


@dataclass(frozen=True)
class Tree:
    """Release `version`'s config folder (None: none here and none to be had: offline), where it came from
    ("cache" or "wheel"), and pip's last words when there is none."""

    version: str
    folder: Path | None
    source: str | None = None
    detail: str = ""


def cache_root() -> Path:
    """Where the wizard keeps what it downloads: VERL_WIZARD_CACHE, else $XDG_CACHE_HOME/verl-wizard, else
    ~/.cache/verl-wizard."""
    if os.environ.get(CACHE_ENV):
        return Path(os.environ[CACHE_ENV]).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base).expanduser() / "verl-wizard"


def release(value: str) -> str:
    """--verl-version's value as a release number (`0.8.0`, `v0.8.0`); UsageError for anything else."""
    text = value.strip().removeprefix("v")
    try:
        Version(text)
    except InvalidVersion:
        raise UsageError(f"{FLAG} {value!r}: not a release number; give one such as 0.9.1") from None
    return text


def obtain(version: str) -> Tree:
    """verl `version`'s config tree: the cached one, else taken from its wheel now; folder None when offline."""
    home = cache_root() / "verl-config" / version
    config = home / PREFIX
    if config.is_dir():
        return Tree(version, config, "cache")
    with tempfile.TemporaryDirectory(prefix="verl-wizard-wheel-") as tmp:
        wheel, detail = _download(version, Path(tmp))
        if wheel is None:
            return Tree(version, None, detail=detail)
        _unpack(wheel, version, home)
    return Tree(version, config, "wheel")


def _download(version: str, into: Path) -> tuple[Path | None, str]:
    """(verl `version`'s wheel in `into`, "") or (None, why there is none here); UsageError when the index has
    no such release."""
    argv = [sys.executable, "-m", "pip", "download", f"verl=={version}", "--no-deps", "--only-binary=:all:"]
    argv += ["-d", str(into), "-q", "--disable-pip-version-check", "--no-input", "--retries", "1", "--timeout", "15"]
    if os.environ.get(WHEEL_DIR_ENV):
        argv += ["--no-index", "--find-links", os.environ[WHEEL_DIR_ENV]]
    try:
        done = run_with_deadline(argv, DOWNLOAD_DEADLINE_S)
    except OSError as exc:
        return None, f"pip could not run: {exc.strerror or exc}"
    if done is None:
        return None, f"pip download took more than {DOWNLOAD_DEADLINE_S:g} s"
    wheels = sorted(into.glob("verl-*.whl"))
    if done.returncode == 0 and wheels:
        return wheels[0], ""
    found = _FROM_VERSIONS.search(done.stderr)
    listed = [v.strip() for v in found.group(1).split(",")] if found else []
    if listed and listed != ["none"]:
        shown = ", ".join(listed[-8:])
        raise UsageError(f"{FLAG} {version}: verl has no release {version} on the package index (its last: {shown})")
    lines = [line.strip() for line in done.stderr.splitlines() if line.strip() and "is ignored" not in line]
    return None, (lines[-1] if lines else f"pip exited {done.returncode}")[:300]


def _unpack(wheel: Path, version: str, home: Path) -> None:
    """The wheel's verl/trainer/config/ members into `home`, atomically: a temporary sibling renamed into place."""
    home.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{version}-", dir=home.parent))
    try:
        with zipfile.ZipFile(wheel) as archive:
            members = [m for m in archive.infolist() if m.filename.startswith(PREFIX) and not m.is_dir()]
            if not any(m.filename.endswith((".yaml", ".yml")) for m in members):
                raise UsageError(f"{FLAG} {version}: verl {version}'s wheel holds no {PREFIX} tree to compose")
            for member in members:
                parts = Path(member.filename).parts
                if ".." in parts or member.filename.startswith("/"):
                    continue  # a member that would land outside the tree
                target = staging.joinpath(*parts)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(archive.read(member))
        try:
            staging.rename(home)
        except OSError:
            if not (home / PREFIX).is_dir():  # not another process's tree that got there first
                raise
    except zipfile.BadZipFile:
        raise UsageError(f"{FLAG} {version}: the downloaded wheel {wheel.name} is not a zip file") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def compose(tree: Tree, question: Question) -> dict[str, Any]:
    """Hydra's verdict on `question` over the tree: the facts `check` judges (wizard.core.rules.verl.tree) and
    `--format json` shows as `verl_tree`. `stage` "compose" with Hydra's own words when it refuses."""
    facts: dict[str, Any] = {
        "version": tree.version,
        "composed": False,
        "source": tree.source or "snapshot",
        "stage": None,
        "error": None,
        "detail": tree.detail,
        "config_dir": question.config_dir if question.config_text is None else None,
        "config_name": question.config_name,
        "overrides": list(question.overrides),
        "left_out": list(question.left_out),
    }
    if tree.folder is None or question.not_asked is not None:
        return facts
    facts["composed"] = True
    memo = _memo_path(tree.folder, question)
    known = _recall(memo)
    if known is None:
        known = _verdict(tree.folder, question)
        _keep(memo, known)
    facts.update(stage=known[0], error=known[1])
    return facts


def _verdict(tree: Path, question: Question) -> tuple[str | None, str | None]:
    """(None, None) when Hydra composes the question over the tree, else ("compose", its words quoted)."""
    own_tree = question.config_dir is None and question.config_text is None
    if own_tree and verl_tree_base.accepts(tree, question.config_name, list(question.overrides)):
        return None, None
    with tempfile.TemporaryDirectory(prefix="verl-wizard-compose-") as tmp:
        config_dir = question.config_dir or str(tree)
        if question.config_text is not None:
            Path(tmp, "config.yaml").write_text(question.config_text, encoding="utf-8")
            config_dir = tmp
        overrides = [*_searchpath(Path(config_dir), question.config_name, tree), *question.overrides]
        try:
            compose_config(config_dir, question.config_name, overrides)
        except Exception as exc:  # noqa: BLE001 - whatever Hydra or OmegaConf raise is the verdict, quoted
            return "compose", quote(exc)
    return None, None


def _memo_path(tree: Path, question: Question) -> Path | None:
    """Where the verdict on `question` is kept beside the release's tree. It is a function of the tree and of the
    question, and of a config folder's YAML files (Hydra reads the primary config and the groups it names there):
    their paths, sizes and modification times are part of the key. None for a folder too large to list cheaply."""
    files: list[tuple[str, int, int]] = []
    if question.config_dir is not None:
        listed = _yaml_files(Path(question.config_dir))
        if listed is None:
            return None
        files = listed
    asked = json.dumps([question.config_name, list(question.overrides), question.config_text, files])
    return tree.parents[2] / "verdicts" / (hashlib.sha256(asked.encode()).hexdigest()[:32] + ".json")


def _yaml_files(folder: Path, limit: int = 2000) -> list[tuple[str, int, int]] | None:
    """(path, size, mtime_ns) of every YAML file under `folder`; None when the folder holds more than `limit`
    entries (a home folder given as --config-path: compose it each time rather than walk it)."""
    found: list[tuple[str, int, int]] = []
    seen = 0
    for root, dirs, names in os.walk(folder):
        seen += len(dirs) + len(names)
        if seen > limit:
            return None
        for name in names:
            if name.endswith((".yaml", ".yml")):
                with contextlib.suppress(OSError):
                    stat = os.stat(os.path.join(root, name))
                    found.append((os.path.join(root, name), stat.st_size, stat.st_mtime_ns))
    return sorted(found)


def _recall(memo: Path | None) -> tuple[str | None, str | None] | None:
    if memo is None:
        return None
    try:
        kept = json.loads(memo.read_text(encoding="utf-8"))
        return kept["stage"], kept["error"]
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _keep(memo: Path | None, verdict: tuple[str | None, str | None]) -> None:
    if memo is None:
        return
    with contextlib.suppress(OSError):  # a read-only cache composes again next time
        memo.parent.mkdir(exist_ok=True)
        staged = memo.with_name(f".{memo.name}.{os.getpid()}")
        staged.write_text(json.dumps({"stage": verdict[0], "error": verdict[1]}), encoding="utf-8")
        os.replace(staged, memo)


def tree_keys(tree: Tree, config_name: str) -> tuple[frozenset[str], frozenset[str]]:
    """(every key of the release's `config_name` composed with no override, the keys whose value is an empty
    mapping that takes any key below it): what `--verl-version` holds the wizard's 0.9.1 key rules to."""
    from omegaconf import OmegaConf  # deferred: start-up cost (only with --verl-version X other than 0.9.1)

    assert tree.folder is not None
    name = config_name if (tree.folder / f"{config_name}.yaml").is_file() else "ppo_trainer"
    base = verl_tree_base.composed(tree.folder, name)
    keys: set[str] = set()
    open_keys: set[str] = set()
    stack: list[tuple[str, Any]] = [("", OmegaConf.to_container(base, resolve=False) if base is not None else {})]
    while stack:
        prefix, node = stack.pop()
        for key, value in node.items():
            dotted = f"{prefix}.{key}" if prefix else str(key)
            keys.add(dotted)
            if isinstance(value, dict):
                if value:
                    stack.append((dotted, value))
                else:
                    open_keys.add(dotted)
    return frozenset(keys), frozenset(open_keys)


def _searchpath(folder: Path, config_name: str, tree: Path) -> list[str]:
    """The override that points the primary config's `hydra.searchpath` entry for verl's own tree (pkg:// needs
    verl imported; file://…/verl/trainer/config is a checkout's) at the cached tree; [] when it names none."""
    try:
        primary = yaml.safe_load((folder / f"{config_name}.yaml").read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError, UnicodeDecodeError):
        return []  # Hydra reads it itself and says what is wrong
    paths = ((primary or {}).get("hydra") or {}).get("searchpath") if isinstance(primary, dict) else None
    if not isinstance(paths, list):
        return []
    ours = f"file://{tree}"
    changed = [ours if _is_verl_tree(str(p)) else str(p) for p in paths]
    if changed == [str(p) for p in paths]:
        return []
    quoted = ",".join("'" + p.replace("\\", "\\\\").replace("'", "\\'") + "'" for p in changed)
    return [f"hydra.searchpath=[{quoted}]"]


def _is_verl_tree(entry: str) -> bool:
    path = entry.split("://", 1)[-1].replace(".", "/").rstrip("/")
    return path == "verl/trainer/config" or path.endswith("/verl/trainer/config")
