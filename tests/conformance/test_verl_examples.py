"""Conformance tier (issue 31): `check` against verl 0.9.1's own verdict on verl's own example scripts.

The corpus is verl's examples/ at the commit of its release/v0.9.0 branch, restored outside the repository by
scripts/restore_verl_examples.sh (skipped when it is not there); scripts/verl_examples_agreement.py does the
measuring: `check --mode cluster --format json` on every script, and the harness's verdict on the overrides the
reader extracts. What is asserted: every JSON output parses, nothing exits 2 (the scripts of another verl
program are one SCRIPT-017 note), and check fails exactly where verl refuses, with no disagreement left.

"Where verl refuses" is its start-up (compose, validate_config, the workers' config dataclasses: the harness) and,
for the errors in the agreement script's FIRST_STEP (BATCH-004, BATCH-005), its first training step. verl 0.9.1's
start-up accepts a micro-batch larger than one GPU's share of a mini-batch (rollout_correction's two RLOO scripts:
32 prompts x 1 response / 8 GPUs = 4, micro-batch 8); the first update then stops in prepare_micro_batches
(verl/workers/engine/utils.py): "data size must be divisible by force_group_size * micro_batch_size_per_gpu".
The harness cannot run that step honestly: the size that assertion sees is a batch the trainer and its 8 workers
make at run time (the trainer's mini-batch x n, split by each engine's data-parallel size, on GPUs), and restating
that arithmetic in the harness would make it agree with check's BATCH-005 by construction. check is right (the run
fails, after loading the model and a first rollout); the class is counted as verl refusing at its first step, by
rule id, never by script name, and the fixture pair below shows verl's own assertion refusing its numbers.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys

import pytest

from tests.conformance.conftest import HERE, REPO_ROOT

pytestmark = [pytest.mark.conformance]

SPEC = importlib.util.spec_from_file_location(
    "verl_examples_agreement", REPO_ROOT / "scripts" / "verl_examples_agreement.py"
)
agreement = importlib.util.module_from_spec(SPEC)
sys.modules[SPEC.name] = agreement  # its dataclass looks its module up there
SPEC.loader.exec_module(agreement)

# Scripts in our own words, laid out as verl's examples/: a micro-batch over one GPU's share, and its neighbour.
FIXTURES = HERE / "first_step" / "examples"


@pytest.fixture(scope="module")
def results(verl_python):
    if not agreement.EXAMPLES.is_dir():
        pytest.skip("verl's examples are not restored: run scripts/restore_verl_examples.sh")
    return agreement.measure(verl_python)


@pytest.fixture(scope="module")
def fixtures(verl_python):
    return {r.name.rpartition("/")[2]: r for r in agreement.measure(verl_python, FIXTURES)}


def verl_split(verl_python: str, pairs: list[list[int]]) -> list[dict]:
    """verl's own prepare_micro_batches on (rows, micro) pairs (tests/conformance/verl_first_step.py)."""
    done = subprocess.run(
        [verl_python, str(HERE / "verl_first_step.py"), json.dumps(pairs)],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(done.stdout.strip().splitlines()[-1])


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
    assert {r.name: agreement.report([r]) for r in judged if not r.agrees} == {}
    # the runs verl refuses only at its first step are few and each is one of that class's rules
    first_step = [r for r in judged if r.first_step]
    assert 0 < len(first_step) <= 2
    assert {e for r in first_step for e in r.errors} <= agreement.FIRST_STEP.keys()


def test_a_micro_batch_over_a_gpus_share_is_refused_at_verls_first_step(fixtures, verl_python):
    over = fixtures["micro_over_share.sh"]
    assert over.verl["ok"] is True, over.verl  # verl's start-up accepts it
    assert (over.verdict, over.errors) == ("fail", ["BATCH-005"])
    assert over.first_step and over.agrees
    share = 16 * 2 // 8  # the script's mini-batch x n over its 8 GPUs; its micro-batch is 8
    said = verl_split(verl_python, [[share, 8]])
    assert said == [
        {"ok": False, "error": "data size must be divisible by force_group_size * micro_batch_size_per_gpu"}
    ]


def test_the_neighbour_whose_micro_batch_tiles_the_share_passes_both(fixtures, verl_python):
    tiles = fixtures["micro_tiles_share.sh"]
    assert tiles.verl["ok"] is True and tiles.verdict == "pass" and tiles.errors == []
    assert not tiles.first_step and tiles.agrees
    assert verl_split(verl_python, [[16 * 2 // 8, 4]]) == [{"ok": True, "micro_batches": [4]}]
