"""Conformance tier (issue 31, class 8): what verl 0.9.1 itself does with a legacy `reward_model.enable=True`.

verl's start-up accepts the config (the legacy reward keys are composed from legacy_reward_impl.yaml), so a
start-up verdict alone cannot tell whether the run uses the reward model. The harness therefore records verl's own
answer, `verl.trainer.ppo.utils.need_reward_model(cfg)` (RayPPOTrainer's `use_rm`), beside what the legacy key
asked. These tests show verl saying False for the legacy switch (the run trains without the reward model: check's
KEY-008) and True for the key main_ppo reads, and the agreement script counting the first as agreement.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from tests.conformance.conftest import HERE, REPO_ROOT

pytestmark = [pytest.mark.conformance, pytest.mark.usefixtures("verl_python")]

# A small GRPO run of our own: one node of 4 GPUs, 32 prompts x 4 responses.
CONFIG = """hydra: {searchpath: [pkg://verl.trainer.config]}
defaults: [ppo_trainer, _self_]
algorithm: {adv_estimator: grpo}
data: {train_batch_size: 32, max_prompt_length: 256, max_response_length: 256}
actor_rollout_ref:
  model: {path: Qwen/Qwen2.5-0.5B-Instruct}
  actor: {ppo_mini_batch_size: 8, ppo_micro_batch_size_per_gpu: 2}
  rollout: {name: vllm, n: 4, log_prob_micro_batch_size_per_gpu: 4}
trainer: {n_gpus_per_node: 4, nnodes: 1}
"""


@pytest.fixture(scope="module")
def verdicts(tmp_path_factory, start_harness) -> dict[str, dict]:
    """verl's verdict on the same config with the reward model's switch at each key (and neither)."""
    runs = {}
    for name, overrides in {
        "legacy": ("reward_model.enable=True",),
        "current": (
            "reward.reward_model.enable=True",
            "reward.reward_model.model_path=/models/qwen-0.5b-reward",
            "reward.reward_model.rollout.name=vllm",
        ),
        "neither": (),
    }.items():
        folder = tmp_path_factory.mktemp(f"rm-{name}")
        (folder / "config.yaml").write_text(CONFIG)
        runs[name] = (folder, start_harness([folder], overrides))
    return {name: run.result()[str(folder)] for name, (folder, run) in runs.items()}


def test_verl_accepts_the_legacy_switch_and_uses_no_reward_model(verdicts):
    said = verdicts["legacy"]
    assert said["ok"] is True, said
    assert (said["legacy_reward_model_enable"], said["need_reward_model"]) == (True, False)


def test_the_switch_main_ppo_reads_gives_a_reward_model(verdicts):
    # The neighbour: reward.reward_model.enable=True is the one verl 0.9.1's main_ppo reads.
    said = verdicts["current"]
    assert said["ok"] is True, said
    assert said["need_reward_model"] is True and said["legacy_reward_model_enable"] is not True


def test_neither_switch_means_no_reward_model_and_no_legacy_ask(verdicts):
    # legacy_reward_impl.yaml leaves the legacy switch null: nothing asked there
    said = verdicts["neither"]
    assert (said["ok"], said["need_reward_model"], said["legacy_reward_model_enable"]) == (True, False, None)


SPEC = importlib.util.spec_from_file_location(
    "verl_examples_agreement", REPO_ROOT / "scripts" / "verl_examples_agreement.py"
)
agreement = importlib.util.module_from_spec(SPEC)
sys.modules[SPEC.name] = agreement  # its dataclass looks its module up there
SPEC.loader.exec_module(agreement)

# Launch scripts of our own, laid out as verl's examples/: the legacy switch, and the key main_ppo reads.
FIXTURES: Path = HERE / "reward_model" / "examples"


@pytest.fixture(scope="module")
def measured(verl_python):
    return {r.name.rpartition("/")[2]: r for r in agreement.measure(verl_python, FIXTURES)}


def test_the_agreement_script_counts_the_legacy_switch_as_verl_training_without_it(measured):
    legacy = measured["legacy_rm_switch.sh"]
    assert (legacy.verdict, legacy.errors, legacy.verl["ok"]) == ("fail", ["KEY-008"], True)
    assert legacy.without_reward_model and legacy.agrees
    assert "verl accepts and trains without the reward model it was asked for" in agreement.report([legacy])


def test_the_current_switch_is_no_such_case(measured):
    current = measured["current_rm_switch.sh"]
    assert current.verl["ok"] is True and current.verl["need_reward_model"] is True
    assert "KEY-008" not in current.errors and not current.without_reward_model
