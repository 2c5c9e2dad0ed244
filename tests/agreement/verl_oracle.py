"""verl 0.9.1's verdict on wizard config dirs, served over stdin/stdout to the agreement test.

Runs under the verl environment's python (``VERL_PYTHON``), never the project's. It reuses the
conformance harness (``tests/conformance/verl_validate.py``: compose, validate_config, the dataclass
conversions) and adds, for each config, the config-only checks verl runs later on GPU machines
(``verl_model.worker_checks`` over verl's own composed and resolved config).

Protocol: one JSON request per stdin line, ``{"dir": DIR, "heads": [heads, kv_heads] | null,
"verify_compose": bool}``; one JSON answer per stdout line, in order::

    {"dir": DIR, "startup": {"ok": bool, "stage": ..., "error": ..., "skipped": [...]},
     "worker": [[check, message], ...] | null, "model_startup": [[check, message], ...] | null,
     "compose_equal": bool | null}

``worker`` and ``model_startup`` are computed over verl's composed config (null when it does not
compose); ``model_startup`` lets the test check its model of verl's start-up checks against verl itself.

Composition is the slow part of a harness run (Hydra rescans verl's config tree every time), so each
engine's defaults are composed once and a config.yaml's own values are merged on top, which is what
Hydra does with ``_self_`` last. ``verify_compose`` composes the full Hydra way as well and reports
whether both agree; files whose defaults list is not one of the wizard's two forms always take the full
way.
"""

from __future__ import annotations

import copy
import json
import os
import sys
import tempfile
import traceback
import warnings
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE), str(HERE.parent / "conformance")]

import verl_model  # noqa: E402
import verl_validate as harness  # noqa: E402

FULL = harness.compose  # Hydra's own composition, kept before judge() swaps in the fast one

HEADER = "hydra: {searchpath: [pkg://verl.trainer.config]}\n"
WIZARD_DEFAULTS = {
    "dp": ["ppo_trainer", "_self_"],
    "megatron": ["ppo_trainer", {"override model_engine": "megatron"}, "_self_"],
}


class FastCompose:
    """Hydra composition of verl's defaults once per engine, then the file's values merged on top."""

    def __init__(self, scratch: Path):
        self.scratch = scratch
        self.bases: dict = {}
        self.last = None  # (cfg, model paths) of the latest composition

    def base(self, engine: str):
        if engine not in self.bases:
            from omegaconf import OmegaConf

            folder = self.scratch / f"base-{engine}"
            folder.mkdir(parents=True, exist_ok=True)
            (folder / "config.yaml").write_text(HEADER + "defaults: " + json.dumps(WIZARD_DEFAULTS[engine]) + "\n")
            self.bases[engine] = FULL(folder, [])
            OmegaConf.set_readonly(self.bases[engine], True)
        return self.bases[engine]

    def __call__(self, config_dir: Path, overrides: list[str]):
        """Compose like Hydra; remember the result and its model paths as written (see `last`)."""
        cfg = self._compose(config_dir, overrides)
        self.last = (cfg, {"actor": cfg.actor_rollout_ref.model.get("path"), "critic": cfg.critic.model.get("path")})
        return cfg

    def _compose(self, config_dir: Path, overrides: list[str]):
        from omegaconf import OmegaConf

        doc = OmegaConf.to_container(OmegaConf.load(config_dir / "config.yaml"), resolve=False)
        engine = next(
            (e for e, d in WIZARD_DEFAULTS.items() if isinstance(doc, dict) and doc.get("defaults") == d), None
        )
        if overrides or engine is None:
            return FULL(config_dir, overrides)
        body = {k: v for k, v in doc.items() if k not in ("hydra", "defaults")}
        cfg = copy.deepcopy(self.base(engine))
        OmegaConf.set_readonly(cfg, False)
        OmegaConf.set_struct(cfg, False)
        cfg.merge_with(OmegaConf.create(body))
        OmegaConf.set_struct(cfg, True)
        return cfg


def config_of(cfg) -> verl_model.Config:
    """verl's composed config as the checks read it: each key selected (and resolved) by OmegaConf."""
    from omegaconf import OmegaConf

    def lookup(key):
        try:
            return OmegaConf.select(cfg, key, default=verl_model.MISSING, throw_on_missing=False)
        except Exception:
            return verl_model.MISSING

    return verl_model.Config({}, lookup)


def judge(request: dict, fast: FastCompose, models: dict) -> dict:
    """The answer for one request (see the module docstring)."""
    from omegaconf import OmegaConf

    config_dir = Path(request["dir"])
    answer: dict = {"dir": request["dir"], "worker": None, "model_startup": None, "compose_equal": None}
    harness.compose = fast
    fast.last = None
    answer["startup"] = {k: v for k, v in harness.check_dir(config_dir, [], models).items() if k != "config"}
    if fast.last is None:
        return answer  # no composition: the harness reported why
    # check_dir only swapped the model paths (kept as written in `paths`) and validated copies.
    cfg, paths = fast.last
    if request.get("verify_compose"):
        full = FULL(config_dir, [])
        harness.point_models_at(full, models)
        answer["compose_equal"] = OmegaConf.to_container(full, resolve=False) == OmegaConf.to_container(
            cfg, resolve=False
        )
    config = config_of(cfg)
    heads = tuple(request["heads"]) if request.get("heads") else None
    for key, run in (
        ("model_startup", lambda: verl_model.startup_checks(config)),
        ("worker", lambda: verl_model.worker_checks(config, heads, paths)),
    ):
        try:
            answer[key] = [list(item) for item in run()]
        except Exception as exc:
            answer[key] = [["model-error", f"{type(exc).__name__}: {exc}"]]
    return answer


def memoize_interpolation_parsing() -> None:
    """Parse each distinct ``${...}`` string once per process instead of once per config.

    OmegaConf re-parses every interpolation (an ANTLR parse) each time a config is resolved, and verl's
    config has ~130 of them, the same in every config: about a quarter of a verdict's time. The parse
    is a pure function of its arguments and its trees are only read by visitors, so the verdicts do not
    change (the oracle's answers with and without this were compared on the agreement corpus).
    """
    import functools

    from omegaconf import _utils, base, grammar_parser

    cached = functools.lru_cache(maxsize=4096)(grammar_parser.parse)
    base.parse = _utils.parse = cached


def main() -> int:
    """Serve requests until stdin closes."""
    json_out = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
    sys.stdout.flush()
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    warnings.simplefilter("ignore")
    if os.environ.get("ORACLE_PARSE_CACHE", "1") == "1":
        memoize_interpolation_parsing()
    models_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp(prefix="verl-models-"))
    models_dir.mkdir(parents=True, exist_ok=True)
    models = harness.build_models(models_dir)
    with tempfile.TemporaryDirectory(prefix="verl-oracle-") as scratch:
        fast = FastCompose(Path(scratch))
        json_out.write(json.dumps({"ready": True}) + "\n")
        for line in sys.stdin:
            if not line.strip():
                continue
            try:
                request = json.loads(line)
                answer = judge(request, fast, models)
            except Exception:
                answer = {"dir": None, "fatal": traceback.format_exc()[-2000:]}
            json_out.write(json.dumps(answer) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
