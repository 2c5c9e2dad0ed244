"""Conformance tier (issue 31): `check` against verl 0.9.1's own verdict on verl's own example scripts.

The corpus is verl's examples/ at the commit of its release/v0.9.0 branch, restored outside the repository by
scripts/restore_verl_examples.sh (skipped when it is not there); scripts/verl_examples_agreement.py does the
measuring: `check --mode cluster --format json` on every script, and the harness's verdict on the overrides the
reader extracts. What is asserted: every JSON output parses, nothing exits 2 but the known scripts of another
entry point, and check fails exactly where verl refuses but for the known disagreements, each named with its
class. A new disagreement, or a known one that went away, fails the test (update the list with the fix).
"""

from __future__ import annotations

import importlib.util
import sys

import pytest

from tests.conformance.conftest import REPO_ROOT

pytestmark = [pytest.mark.conformance]

SPEC = importlib.util.spec_from_file_location(
    "verl_examples_agreement", REPO_ROOT / "scripts" / "verl_examples_agreement.py"
)
agreement = importlib.util.module_from_spec(SPEC)
sys.modules[SPEC.name] = agreement  # its dataclass looks its module up there
SPEC.loader.exec_module(agreement)

FIRST_STEP = (
    "BATCH-005: verl 0.9.1 starts the run, then its engine asserts at the first update that each GPU's share of a"
    " mini-batch (32 x 1 / 8 = 4) is a multiple of the micro-batch (8): check is right, verl's start-up cannot see it"
)
WIDE_TP = "PLACE-002 as an error: a rollout TP group wider than a node runs in verl 0.9.1"
OTHER_ENTRY = "runs another verl entry point than main_ppo: check has no verdict to give (exit 2)"
# script -> the class of its disagreement (or of its exit 2)
KNOWN: dict[str, str] = {
    **{
        f"examples/sft/{name}.sh": OTHER_ENTRY
        for name in (
            "gsm8k/run_deepseek_coder_6_7b_fsdp",
            "gsm8k/run_deepseek_v4_megatron_lite",
            "gsm8k/run_gemma_2b_fsdp",
            "gsm8k/run_gemma_7b_fsdp",
            "gsm8k/run_mimo_7b_mtp_megatron",
            "gsm8k/run_nemotron_nano_v3_megatron",
            "gsm8k/run_qwen2_5_0_5b_automodel",
            "gsm8k/run_qwen2_5_0_5b_fsdp",
            "gsm8k/run_qwen3_30b_automodel",
            "gsm8k/run_qwen3_5_397b_a17b_megatron",
            "gsm8k/run_qwen3_8b_fsdp",
            "gsm8k/run_qwen_megatron_fsdp",
            "gsm8k/run_seed_oss_36b_fsdp",
            "multiturn/run_qwen2_5_0_5b_fsdp",
            "vlm/run_qwen3_vl_2b_fsdp",
        )
    },
    "examples/rollout_correction/run_qwen2_5_7b_fsdp.sh": FIRST_STEP,
    "examples/rollout_correction/run_qwen2_5_7b_fsdp_multi_rs.sh": FIRST_STEP,
    "examples/tuning/scaling/run_qwen2_5_72b_fsdp.sh": WIDE_TP,
    "examples/generation/run_deepseek_llm_7b.sh": OTHER_ENTRY,
    "examples/grpo_trainer/run_deepseek_v4_megatron_lite.sh": OTHER_ENTRY,
    "examples/mtp_trainer/run_mimo_7b_mtp_fully_async_megatron_multinode.sh": OTHER_ENTRY,
    "examples/remax_trainer/run_qwen2.5_math_7b_sync_fsdp.sh": OTHER_ENTRY,
}


@pytest.fixture(scope="module")
def results(verl_python):
    if not agreement.EXAMPLES.is_dir():
        pytest.skip("verl's examples are not restored: run scripts/restore_verl_examples.sh")
    return agreement.measure(verl_python)


def test_every_json_output_parses(results):
    assert len(results) == 109
    unparsed = {r.name for r in results if not r.parsed}
    assert unparsed <= {r.name for r in results if r.rc == 2}, sorted(unparsed)


def test_nothing_exits_2_but_the_known(results):
    exit_2 = {r.name: KNOWN.get(r.name, r.why) for r in results if r.rc == 2}
    assert exit_2 == {name: why for name, why in KNOWN.items() if why == OTHER_ENTRY}


def test_check_fails_exactly_where_verl_refuses(results):
    judged = [r for r in results if r.agrees is not None]
    assert len(judged) == len(results) - len([w for w in KNOWN.values() if w == OTHER_ENTRY])
    disagree = {r.name: KNOWN.get(r.name, agreement.report([r])) for r in judged if not r.agrees}
    assert disagree == {name: why for name, why in KNOWN.items() if why != OTHER_ENTRY}
