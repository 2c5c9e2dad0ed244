"""Conformance tier: what verl 0.9.1 itself does with the overrides the reader extracts from corpus scripts.

For scripts `check` passes without an error, verl's own start-up validation accepts the overrides as bash
passes them (open mappings such as `+...fsdp_config.mixed_precision.param_dtype`, the model_engine choice,
arithmetic, quoted values); for scripts where `check` reports a Hydra-level error, verl refuses them at compose.
"""

from __future__ import annotations

import json

import pytest
import yaml

from tests.conformance.conftest import REPO_ROOT
from wizard.detect.bash.values import Spread, is_known, known
from wizard.detect.launch_script import parse_launch_script
from wizard.detect.script_input import read_beside

pytestmark = [pytest.mark.conformance, pytest.mark.usefixtures("verl_python")]

CORPUS = REPO_ROOT / "tests" / "fixtures" / "launch_corpus"
CASES = yaml.safe_load((CORPUS / "cases.yaml").read_text())
BASE = "hydra: {searchpath: [pkg://verl.trainer.config]}\ndefaults: [ppo_trainer, _self_]\n"
ACCEPTED = [
    "01_arrays_grpo_fsdp.sh",
    "02_arrays_megatron_choice.sh",
    "05_arith_lengths.sh",
    "13_param_forms.sh",
    "26_open_mappings.sh",
    "33_quoted_values.sh",
    "44_dapo_style_recipe.sh",
]
# script -> what Hydra says (the rule that reports it: SCRIPT-005 for bash's brace split, SCRIPT-010 for a sweep)
REFUSED = {
    "40_brace_expansion_trap.sh": "Could not append to config",
    "41_mistakes_in_arrays.sh": "Ambiguous value for argument 'trainer.logger=console,wandb'",
}


def overrides(name: str) -> tuple[str, ...]:
    """The arguments bash passes to verl for the script with its case's environment and arguments."""
    case = CASES[name] or {}
    env = {k: str(v) for k, v in {**(case.get("env") or {}), **(case.get("pin") or {})}.items()}
    path = CORPUS / name
    script = parse_launch_script(
        path.read_text(), str(path), env=env, args=[str(a) for a in case.get("args") or []], read_file=read_beside
    )
    assert all(not isinstance(f, Spread) and is_known(f) for f in script.arguments), name
    return tuple(known(f) for f in script.arguments)


@pytest.fixture(scope="module")
def verdicts(start_harness, tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    runs = {}
    for name in [*ACCEPTED, *REFUSED]:
        folder = root / name.replace(".", "_")
        folder.mkdir()
        (folder / "config.yaml").write_text(BASE)
        runs[name] = (folder, start_harness([folder], overrides=overrides(name)))
    return {name: run.result()[str(folder)] for name, (folder, run) in runs.items()}


@pytest.mark.parametrize("name", ACCEPTED)
def test_verl_accepts_what_check_passes(verdicts, name):
    assert verdicts[name]["ok"] is True, json.dumps(verdicts[name])


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_verl_refuses_what_check_reports(verdicts, name):
    verdict = verdicts[name]
    assert (verdict["ok"], verdict["stage"]) == (False, "compose"), json.dumps(verdict)
    assert REFUSED[name] in verdict["error"], json.dumps(verdict)
