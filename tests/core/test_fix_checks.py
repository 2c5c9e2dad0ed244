"""Fix checks kept across evaluations (the TUI's session) give the findings and fixes a fresh evaluation
gives, run a check again only for answers not checked before, and start afresh in another context."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.conftest import BASE
from wizard.core.layers import build
from wizard.core.rules import context_for, evaluate
from wizard.core.rules import fix_checks as engine
from wizard.core.rules.fix_checks import KeptFixChecks
from wizard.detect.hardware.fake import fake_topology

MINI = "actor_rollout_ref.actor.ppo_mini_batch_size"


def ctx_with(mini: int, topology=None):
    layered = build([("test", {**BASE, MINI: mini})])
    return context_for(layered.answers, layered.flat, mode="cluster", topology=topology)


@pytest.fixture
def family_runs(monkeypatch) -> list[tuple]:
    """The rule runs fix checks make (a run for one family), as (family, the answers checked)."""
    runs: list[tuple] = []
    original = engine.run_rules

    def counted(ctx, family=None):
        if family is not None:
            runs.append((family, tuple(sorted((k, repr(v)) for k, v in ctx.flat.items()))))
        return original(ctx, family)

    monkeypatch.setattr(engine, "run_rules", counted)
    return runs


def test_kept_checks_give_what_a_fresh_evaluation_gives_over_a_run_of_edits():
    kept = KeptFixChecks()
    topology = fake_topology("8xH100")
    for mini in [16, 15, 150, 15, 151, 16, 7, 64, 65, 3]:  # errors with fixes, back to valid, new values
        ctx = ctx_with(mini, topology)
        assert evaluate(ctx, kept) == evaluate(ctx), mini


def test_a_fix_giving_answers_checked_before_is_not_checked_again(family_runs):
    kept = KeptFixChecks()
    topology = fake_topology("8xH100")
    evaluate(ctx_with(15, topology), kept)
    checked_first = set(family_runs)
    family_runs.clear()
    second = evaluate(ctx_with(13, topology), kept)
    assert family_runs  # 13 has fixes of its own (other answers): checked
    assert not set(family_runs) & checked_first  # but none of the answers checked for 15 again
    family_runs.clear()
    assert evaluate(ctx_with(13, topology)) == second  # the neighbour: a fresh evaluation, the same result...
    assert set(family_runs) & checked_first  # ...for which fixes giving the answers checked for 15 ran again


def test_another_context_starts_afresh(family_runs):
    kept = KeptFixChecks()
    ctx = ctx_with(15, fake_topology("8xH100"))
    evaluate(ctx, kept)
    family_runs.clear()
    evaluate(ctx_with(15, fake_topology("8xH100")), kept)  # an equal context made again: nothing to check
    assert not family_runs
    evaluate(replace(ctx, topology=fake_topology("2x8xH100")), kept)
    assert family_runs  # another topology: checked again
    family_runs.clear()
    evaluate(replace(ctx, mode="local"), kept)
    assert family_runs  # another mode: checked again
    family_runs.clear()
    evaluate(replace(ctx, mode="local"), kept)
    assert not family_runs  # the same context and answers: nothing to check
