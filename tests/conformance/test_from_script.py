"""Conformance tier: launch scripts written for older verl releases or for forks, before and after import.

- verl 0.9.1 refuses the original scripts' overrides (Hydra stops at the first key it does not have,
  or at `+` on a key it has): the problem the import solves is real.
- ``wizard new --from-script OLD.sh`` turns every script in tests/fixtures/old_scripts into a config
  that verl 0.9.1's own start-up validation accepts (compose, validate_config, dataclass conversions).
"""

from __future__ import annotations

import json

import pytest

from tests.conformance.conftest import REPO_ROOT

pytestmark = [pytest.mark.conformance, pytest.mark.usefixtures("verl_python")]

OLD = REPO_ROOT / "tests" / "fixtures" / "old_scripts"
SCRIPTS = sorted(p.stem for p in OLD.glob("*.sh"))

BASE = """hydra: {searchpath: [pkg://verl.trainer.config]}
defaults: [ppo_trainer, _self_]
algorithm: {adv_estimator: grpo}
data: {train_batch_size: 64, max_prompt_length: 512, max_response_length: 512}
actor_rollout_ref:
  model: {path: Qwen/Qwen2.5-0.5B-Instruct}
  actor: {ppo_mini_batch_size: 16, ppo_micro_batch_size_per_gpu: 2}
  rollout: {name: vllm, n: 4, log_prob_micro_batch_size_per_gpu: 4}
trainer: {n_gpus_per_node: 8, nnodes: 1}
"""

# script -> the first thing verl 0.9.1 says when given the script's overrides as they are (one script per
# way Hydra refuses: a key it does not have, and `+` on a key it has; each costs a harness start)
REFUSED = {
    "removed_keys_v02_gsm8k": "Could not override 'actor_rollout_ref.actor.fsdp_config.grad_offload'",
    "plus_on_existing_keys": "An item is already at 'actor_rollout_ref.actor.fsdp_config.model_dtype'",
}


def describe(verdict: dict) -> str:
    return json.dumps(verdict, sort_keys=True)


def script_overrides(name: str) -> tuple[str, ...]:
    """The overrides bash passes to verl for the script, prefixes and all."""
    from wizard.detect.script.launch import parse_launch_script

    script = parse_launch_script((OLD / f"{name}.sh").read_text(), name)
    return tuple(f"{o.prefix}{o.key}={o.raw_value}" for o in script.overrides if o.prefix != "~")


@pytest.fixture(scope="module")
def verdicts(run_wizard, start_harness, tmp_path_factory):
    """verl's verdicts on every imported script and on the original overrides, from overlapping harness runs."""
    root = tmp_path_factory.mktemp("from-script")
    originals = {}
    for name in REFUSED:
        base = root / "original" / name
        base.mkdir(parents=True)
        (base / "config.yaml").write_text(BASE)
        originals[name] = (base, start_harness([base], overrides=script_overrides(name)))
    imported, problems = {}, []
    for name in SCRIPTS:
        out = root / "imported" / name
        made = run_wizard("new", "--from-script", str(OLD / f"{name}.sh"), "--out", str(out))
        if made.returncode != 0 or not (out / "config.yaml").is_file():
            problems.append(
                f"{name}: wizard new --from-script exited {made.returncode}:\n{made.stdout[-3000:]}{made.stderr[-2000:]}"
            )
        else:
            imported[name] = out
    results = start_harness(list(imported.values())).result() if imported else {}
    return {
        "imported": {name: results[str(out)] for name, out in imported.items()},
        "problems": problems,
        "original": {name: run.result()[str(base)] for name, (base, run) in originals.items()},
    }


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_verl_refuses_the_original_overrides(verdicts, name):
    verdict = verdicts["original"][name]
    assert (verdict["ok"], verdict["stage"]) == (False, "compose"), describe(verdict)
    assert REFUSED[name] in verdict["error"], describe(verdict)


@pytest.mark.parametrize("name", SCRIPTS)
def test_imported_script_is_accepted_by_verl(verdicts, name):
    assert not [p for p in verdicts["problems"] if p.startswith(f"{name}:")], "\n".join(verdicts["problems"])
    verdict = verdicts["imported"][name]
    assert verdict["ok"] is True, describe(verdict)
