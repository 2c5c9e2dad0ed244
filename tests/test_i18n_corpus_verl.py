"""Corpus cases of verl's own verdict (see tests/test_i18n_corpus.py): `check --verl` verdicts as the child reports
them (wizard/detect/env/verl_verdict_script.py), judged by wizard.core.rules.verl.verdict, one or more per VERL rule."""

from __future__ import annotations

from wizard.core.rules.verl.verdict import judge_verl
from wizard.i18n.text import msg

PYTHON = "/opt/venv/bin/python"
SITE = "/opt/venv/lib/python3.11/site-packages/verl"


def facts(**changes):
    base = {
        "python": PYTHON,
        "version": "0.9.1",
        "location": SITE,
        "checkout": False,
        "describe": None,
        "stage": None,
        "error": None,
        "checks": ["compose", "auto_set_device", "validate_config", "resolve"],
        "missing": [],
        "skipped": [],
        "problem": None,
        "detail": "",
        "left_out": [],
    }
    return {**base, **changes}


def verl_case(not_asked=None, **changes):
    return lambda tmp: judge_verl(facts(**changes), not_asked)


COMPOSE = (
    "ConfigCompositionException: Could not override 'trainer.no_such_key'. To append to your config use "
    "+trainer.no_such_key=1 (ConfigKeyError: Key 'no_such_key' is not in struct full_key: trainer.no_such_key)"
)
SPLIT = "AssertionError: real_train_batch_size (12) must be divisible by minimal possible batch size (8)"

VERDICT_CASES = [
    ("verl refuses to compose", "VERL-001", verl_case(stage="compose", error=COMPOSE, checks=[])),
    (
        "verl checkout refuses to compose",
        "VERL-001",
        verl_case(
            stage="compose",
            error=COMPOSE,
            checks=[],
            location="/src/verl/verl",
            checkout=True,
            describe="v0.5.0-12-gabc",
        ),
    ),
    ("verl refuses the split", "VERL-002", verl_case(stage="validate_config", error=SPLIT, checks=["compose"])),
    (
        "verl folder refuses the split",
        "VERL-002",
        verl_case(stage="validate_config", error=SPLIT, checks=["compose"], location="/src/verl", checkout=True),
    ),
    ("verl hangs", "VERL-003", verl_case(problem="timeout", detail="60", version=None, location=None)),
    ("verl crashes", "VERL-003", verl_case(problem="failed", detail="Segmentation fault", version=None, location=None)),
    ("verl prints nothing", "VERL-003", verl_case(problem="no_report", detail="hello", version=None, location=None)),
    (
        "verl garbles",
        "VERL-003",
        verl_case(problem="garbled", detail="VERL_WIZARD_VERL {", version=None, location=None),
    ),
    (
        "verl import fails",
        "VERL-003",
        verl_case(
            stage="import", error="ImportError: cannot import name 'x' from 'torch'", version=None, location=None
        ),
    ),
    (
        "verl lora check needs vllm",
        "VERL-004",
        verl_case(skipped=[["validate_config", "ModuleNotFoundError: No module named 'vllm'"]]),
    ),
    ("verl asked without an argument", "VERL-004", verl_case(left_out=["trainer.nnodes=$NNODES", '"$@"'])),
    ("verl without validate_config", "VERL-004", verl_case(missing=["validate_config"])),
    (
        "verl config folder not here",
        "VERL-004",
        verl_case(msg("verl.not_asked.no_folder", path="conf"), problem="not_asked"),
    ),
    (
        "verl config folder unknown",
        "VERL-004",
        verl_case(msg("verl.not_asked.config_path_unknown", path="$CONF", names=["$CONF"]), problem="not_asked"),
    ),
    (
        "verl asked of a manifest without a command",
        "VERL-004",
        verl_case(msg("verl.not_asked.no_command", path="rayjob.yaml"), problem="not_asked"),
    ),
]
