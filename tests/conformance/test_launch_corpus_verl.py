"""Conformance tier: what verl 0.9.1 itself does with the overrides the reader extracts from corpus scripts.

For scripts `check` passes without an error, verl's own start-up validation accepts the overrides as bash
passes them (open mappings such as `+...fsdp_config.mixed_precision.param_dtype`, the model_engine choice,
arithmetic, quoted values); for scripts where `check` reports a Hydra-level error, verl refuses them at compose.
"""

from __future__ import annotations

import json
import subprocess

import pytest
import yaml

from tests.conformance.conftest import REPO_ROOT
from wizard.detect.script.bash.values import Spread, is_known, known
from wizard.detect.script.check_input import read_beside
from wizard.detect.script.launch import parse_launch_script

pytestmark = [pytest.mark.conformance, pytest.mark.usefixtures("verl_python")]

CORPUS = REPO_ROOT / "tests" / "fixtures" / "launch_corpus"
CASES = yaml.safe_load((CORPUS / "cases.yaml").read_text())
BASE = "hydra: {{searchpath: [pkg://verl.trainer.config]}}\ndefaults: [{primary}, _self_]\n"
ACCEPTED = [
    "01_arrays_grpo_fsdp.sh",
    "02_arrays_megatron_choice.sh",
    "05_arith_lengths.sh",
    "13_param_forms.sh",
    "26_open_mappings.sh",
    "33_quoted_values.sh",
    "44_dapo_style_recipe.sh",
    "60_rloo_one_sample.sh",
    "61_rollout_tp_two_nodes.sh",
    "48_megatron_config_yaml_suffix.sh",  # --config-name='ppo_megatron_trainer.yaml': its megatron keys are verl's
    "49_plus_keys_of_older_verl.sh",  # +keys 0.9.1 no longer has: composed and ignored (check: KEY-003 warnings)
    "52_legacy_reward_model_enable.sh",  # accepted, but without the reward model (see the test below; KEY-008)
]
# script -> (the stage, what verl says). SCRIPT-005 for bash's brace split and SCRIPT-010 for a sweep (Hydra at
# compose); SCRIPT-016 for a placeholder or an empty value where verl needs a number (validate_config's arithmetic).
REFUSED = {
    "40_brace_expansion_trap.sh": ("compose", "Could not append to config"),
    "41_mistakes_in_arrays.sh": ("compose", "Ambiguous value for argument 'trainer.logger=console,wandb'"),
    "50_placeholder_left_in.sh": ("validate", "TypeError: unsupported operand type(s)"),
    "51_empty_gpu_count.sh": ("validate", "TypeError: unsupported operand type(s)"),
}


def read(name: str):
    """The script as bash runs it with its case's environment and arguments."""
    case = CASES[name] or {}
    env = {k: str(v) for k, v in {**(case.get("env") or {}), **(case.get("pin") or {})}.items()}
    path = CORPUS / name
    script = parse_launch_script(
        path.read_text(), str(path), env=env, args=[str(a) for a in case.get("args") or []], read_file=read_beside
    )
    assert all(not isinstance(f, Spread) and is_known(f) for f in script.arguments), name
    return script


def overrides(name: str) -> tuple[str, ...]:
    """The arguments bash passes to verl for the script with its case's environment and arguments."""
    return tuple(known(f) for f in read(name).arguments if not known(f).startswith("--config-name"))


def base(name: str) -> str:
    """The config.yaml standing for verl's own config folder, with the primary config the script names."""
    return BASE.format(primary=read(name).config_name or "ppo_trainer")


@pytest.fixture(scope="module")
def verdicts(start_harness, tmp_path_factory):
    root = tmp_path_factory.mktemp("corpus")
    runs = {}
    for name in [*ACCEPTED, *REFUSED]:
        folder = root / name.replace(".", "_")
        folder.mkdir()
        (folder / "config.yaml").write_text(base(name))
        runs[name] = (folder, start_harness([folder], overrides=overrides(name)))
    return {name: run.result()[str(folder)] for name, (folder, run) in runs.items()}


@pytest.mark.parametrize("name", ACCEPTED)
def test_verl_accepts_what_check_passes(verdicts, name):
    assert verdicts[name]["ok"] is True, json.dumps(verdicts[name])


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_verl_refuses_what_check_reports(verdicts, name):
    verdict = verdicts[name]
    stage, said = REFUSED[name]
    assert (verdict["ok"], verdict["stage"]) == (False, stage), json.dumps(verdict)
    assert said in verdict["error"], json.dumps(verdict)


# What main_ppo decides from the composed config: verl.trainer.ppo.utils.need_reward_model.
NEEDS_RM = """
import sys
from hydra import compose, initialize_config_dir
from verl.trainer.ppo.utils import need_reward_model
with initialize_config_dir(config_dir=sys.argv[1], version_base=None):
    print(need_reward_model(compose(config_name="config", overrides=sys.argv[2:])))
"""


def test_verl_trains_without_the_reward_model_that_legacy_reward_model_enable_asks_for(verl_python, tmp_path):
    """KEY-008's verdict is verl's: main_ppo leaves the reward model off; the 0.9 key turns it on."""
    name = "52_legacy_reward_model_enable.sh"
    (tmp_path / "config.yaml").write_text(base(name))
    legacy = overrides(name)
    assert "reward_model.enable=True" in legacy
    modern = (*legacy, "reward.reward_model.enable=True", "reward.reward_model.rollout.name=vllm")
    said = []
    for args in (legacy, modern):
        proc = subprocess.run(
            [verl_python, "-c", NEEDS_RM, str(tmp_path), *args], capture_output=True, text=True, timeout=300
        )
        assert proc.returncode == 0, proc.stderr[-3000:]
        said.append(proc.stdout.split()[-1])
    assert said == ["False", "True"]
