"""Conformance tier (issue 31): `check` against verl 0.9.1's own verdict on verl's own example scripts.

The corpus is verl's examples/ at the commit of its release/v0.9.0 branch, restored outside the repository by
scripts/restore_verl_examples.sh (skipped when it is not there); scripts/verl_examples_agreement.py does the
measuring: `check --mode cluster --format json` on every script, and the harness's verdict on the overrides the
reader extracts. What is asserted: every JSON output parses, nothing exits 2 (the scripts of another verl
program are one SCRIPT-017 note), and check fails exactly where verl refuses but for the known disagreements,
each named with its class. A new disagreement, or a known one that went away, fails the test (update the list with the fix).
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
# script -> the class of its disagreement
KNOWN: dict[str, str] = {
    "examples/rollout_correction/run_qwen2_5_7b_fsdp.sh": FIRST_STEP,
    "examples/rollout_correction/run_qwen2_5_7b_fsdp_multi_rs.sh": FIRST_STEP,
}


@pytest.fixture(scope="module")
def results(verl_python):
    if not agreement.EXAMPLES.is_dir():
        pytest.skip("verl's examples are not restored: run scripts/restore_verl_examples.sh")
    return agreement.measure(verl_python)


def test_every_json_output_parses_and_nothing_exits_2(results):
    assert len(results) == 109
    assert [(r.name, r.rc, r.why) for r in results if r.rc == 2 or not r.parsed] == []


def test_the_scripts_of_other_verl_programs_are_reported(results):
    # SFT, generation, the fully-async and sync trainers, and a script that only says where its recipe moved:
    # no main_ppo verdict to compare; check says so (SCRIPT-017) and passes.
    unjudged = [(r.rc, r.verdict, tuple(r.ids)) for r in results if r.agrees is None]
    assert len(unjudged) == 19
    assert set(unjudged) == {(0, "pass", ("SCRIPT-017",))}


def test_check_fails_exactly_where_verl_refuses(results):
    judged = [r for r in results if r.agrees is not None]
    assert len(judged) == 90
    disagree = {r.name: KNOWN.get(r.name, agreement.report([r])) for r in judged if not r.agrees}
    assert disagree == KNOWN
