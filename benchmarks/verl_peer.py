"""The peer of `check`: verl 0.9.1's own start-up validation of a config dir, and nothing else.

Runs under the Python of the conformance environment (.ci/conformance-env.sh), never the project's:

    VERL_PYTHON benchmarks/verl_peer.py CONFIG_DIR --models-dir DIR [--repeat N] [--config-name NAME] [--override K=V ...]

It uses the conformance harness (tests/conformance/verl_validate.py) for exactly two of its stages:
Hydra compose of CONFIG_DIR/config.yaml the way `python -m verl.trainer.main_ppo --config-path=...`
does, then main_ppo's checks (auto_set_device + validate_config with need_reference_policy /
need_critic). A launch script's question is verl's own tree (CONFIG_DIR verl/trainer/config, --config-name
ppo_trainer) with its overrides, as its `python -m verl.trainer.main_ppo K=V ...` composes. Model paths point at the harness's tiny local models, so nothing is downloaded. The
dataclass conversions the workers do later are left out: the peer is the least verl does at start-up.

Prints one JSON line: {"ok": bool, "error": str|None, "note": str|None, "first_ms": CPU ms of the first compose+validate
(with verl's lazy imports), "warm_ms": [CPU ms of each further compose+validate in the same process]}.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "conformance"))

import verl_validate as harness


def compose(config_dir: Path, config_name: str, overrides: list[str]):
    """Hydra's compose of CONFIG_DIR/NAME.yaml with the overrides, as main_ppo's command line gives them."""
    if config_name == "config":
        return harness.compose(config_dir, overrides)
    from hydra import compose as hydra_compose
    from hydra import initialize_config_dir

    with initialize_config_dir(config_dir=str(config_dir.resolve()), version_base=None):
        return hydra_compose(config_name=config_name, overrides=list(overrides))


def compose_and_validate(
    config_dir: Path, models: dict[str, str], config_name: str = "config", overrides: list[str] | None = None
) -> tuple[str | None, str | None]:
    """(None when verl accepts the config else its error in one line, a note on a check that could not run)."""
    try:
        cfg = compose(config_dir, config_name, overrides or [])
        harness.point_models_at(cfg, models)
        harness.run_validate(cfg)
    except Exception as exc:  # noqa: BLE001 - any failure is verl's verdict
        # As the harness does: validate_config's last statement, the vLLM LoRA rank check, needs vllm.
        if harness.in_vllm_lora_check(exc) and harness.missing_engine(exc) == "vllm":
            return None, "vLLM LoRA rank check skipped (needs vllm)"
        return harness.first_line(exc), None
    return None, None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("config_dir", type=Path)
    parser.add_argument("--models-dir", type=Path, required=True)
    parser.add_argument("--repeat", type=int, default=1, help="compose+validate this many times in this process")
    parser.add_argument("--config-name", default="config", help="the config's name in CONFIG_DIR (default: config)")
    parser.add_argument("--override", action="append", default=[], help="a Hydra override K=V (repeatable)")
    args = parser.parse_args()
    # verl prints progress on stdout; keep the real stdout for the JSON line.
    out = os.fdopen(os.dup(sys.stdout.fileno()), "w")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    args.models_dir.mkdir(parents=True, exist_ok=True)
    models = harness.build_models(args.models_dir)
    times, error, note = [], None, None
    for _ in range(max(1, args.repeat)):
        start = time.process_time()
        error, note = compose_and_validate(args.config_dir, models, args.config_name, args.override)
        times.append((time.process_time() - start) * 1000)
    out.write(
        json.dumps({"ok": error is None, "error": error, "note": note, "first_ms": times[0], "warm_ms": times[1:]})
        + "\n"
    )
    out.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
