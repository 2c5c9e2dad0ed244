"""`check` does work linear in the number of keys (issue 28): a thousand unknown keys in a config, or a
thousand unknown overrides in a launch script, no longer run every rule again for each finding's fix.

The work is counted, not timed: rule runs (a rule going over all the answers) and key judgements (a rule
that judges keys one at a time judging one key). Before the fix each KEY-001/SCRIPT-006 removal was checked
by running the family's rules again, so rule runs grew with the keys. The fixes offered stay the ones that
really clear their finding: the same as when every fix is checked by running the family again, including
where another rule reads the removed key or goes through every key.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
import yaml

from tests.cli.helpers import check_json
from tests.conftest import BASE
from wizard.core.findings import error
from wizard.core.layers import build
from wizard.core.rules import context_for, evaluate
from wizard.core.rules import fix_checks as fix_checks_module
from wizard.core.rules import running as engine

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "fixtures" / "check" / "grpo_8gpu_ok.sh"


class Work:
    """Counts rule runs and key judgements of the registered rules (a seam around the registry)."""

    def __init__(self) -> None:
        self.rule_runs = 0
        self.judgements = 0

    def wrap(self, rule):
        def counted(ctx):
            self.rule_runs += 1
            return rule(ctx)

        counted.__name__ = rule.__name__
        parts = getattr(rule, "each_key", None)
        if parts is not None:

            def judge(shared, item, value):
                self.judgements += 1
                return parts.judge(shared, item, value)

            counted.each_key = replace(parts, judge=judge)
        return counted


@pytest.fixture
def work(monkeypatch) -> Work:
    counter = Work()
    monkeypatch.setattr(engine, "_RULES", [(counter.wrap(rule), fams) for rule, fams in engine.registered()])
    return counter


def config_with_unknown_keys(folder: Path, n: int) -> Path:
    nested: dict = {}
    for address, value in BASE.items():
        *sections, leaf = address.split(".")
        node = nested
        for section in sections:
            node = node.setdefault(section, {})
        node[leaf] = value
    nested["foo"] = {f"bar_{i}": i for i in range(n)}
    path = folder / f"config_{n}.yaml"
    path.write_text(yaml.safe_dump(nested), encoding="utf-8")
    return path


def script_with_unknown_overrides(folder: Path, n: int) -> Path:
    lines = "".join(f"    foo.bar_{i}={i} \\\n" for i in range(n))
    text = SCRIPT.read_text(encoding="utf-8").replace(
        "    trainer.total_epochs=15", lines + "    trainer.total_epochs=15"
    )
    path = folder / f"run_{n}.sh"
    path.write_text(text, encoding="utf-8")
    return path


def check(path: Path) -> dict:
    proc, report = check_json(path, "--mode", "cluster")
    assert proc.returncode == 1
    return report


def removals(report: dict, rule_id: str) -> dict[str, list]:
    """path -> the fixes offered, for each finding of the rule."""
    return {f["paths"][0]: [fix["set"] for fix in f["fixes"]] for f in report["findings"] if f["id"] == rule_id}


@pytest.mark.parametrize(
    ("door", "rule_id"),
    [(config_with_unknown_keys, "KEY-001"), (script_with_unknown_overrides, "SCRIPT-006")],
    ids=["config.yaml", "launch script"],
)
def test_rule_runs_do_not_grow_with_the_unknown_keys_and_judgements_grow_linearly(tmp_path, work, door, rule_id):
    counts = {}
    for n in (30, 300):
        work.rule_runs = work.judgements = 0
        report = check(door(tmp_path, n))
        found = removals(report, rule_id)
        assert len(found) == n  # every unknown key reported, each with its removal
        assert all(fixes == [{key: None}] for key, fixes in found.items())
        counts[n] = (work.rule_runs, work.judgements)
    assert counts[300][0] == counts[30][0]  # before: one run of the family per key, 10x as many
    assert counts[300][1] <= 11 * counts[30][1]  # a key judged a fixed number of times


def test_the_fixes_offered_are_those_a_run_of_the_family_per_fix_offers(monkeypatch):
    values = {
        **BASE,
        **{f"foo.bar_{i}": i for i in range(40)},
        "actor_rollout_ref.actor.ppo_mini_batch_sise": 16,  # a typo: renamed or removed
        "reward_model.enable": True,  # legacy (KEY-003, a warning with a removal)
        "reward_model.strategy": "fsdp",
        "actor_rollout_ref.rollout.mode": "nonsense",  # KEY-004 on a key without an answer field
    }
    layered = build([("test", values)])
    ctx = context_for(layered.answers, layered.flat, mode="cluster")
    key_local = evaluate(ctx)
    monkeypatch.setattr(fix_checks_module, "removes_extra_keys", lambda ctx, fix_set: False)
    per_fix = evaluate(ctx)
    assert key_local == per_fix
    assert sum(bool(f.fixes) for f in key_local) >= 42


def _ctx_with_keys(n: int):
    layered = build([("test", {**BASE, **{f"foo.bar_{i}": i for i in range(n)}})])
    return context_for(layered.answers, layered.flat, mode="cluster")


def _with_rule(monkeypatch, rule) -> None:
    monkeypatch.setattr(engine, "_RULES", [*engine.registered(), (rule, ("KEY",))])


def _remove_fixes(findings) -> dict[str, bool]:
    return {f.paths[0]: any(fix.set == {f.paths[0]: None} for fix in f.fixes) for f in findings if f.id == "KEY-001"}


def test_a_removal_that_another_rule_reads_by_name_is_checked_by_running_the_family(monkeypatch):
    def needs_bar_1(ctx):
        if ctx.answers.extra.get("foo.bar_1") is None:
            yield error("KEY-004", ["foo.needs_bar_1"], "foo.bar_1 is needed", "test")

    _with_rule(monkeypatch, needs_bar_1)
    offered = _remove_fixes(evaluate(_ctx_with_keys(5)))
    assert offered == {"foo.bar_0": True, "foo.bar_1": False, "foo.bar_2": True, "foo.bar_3": True, "foo.bar_4": True}


def test_a_removal_under_a_rule_that_counts_every_key_is_checked_by_running_the_family(monkeypatch):
    def at_least_five(ctx):
        if len([k for k in ctx.answers.extra if k.startswith("foo.")]) < 5:
            yield error("KEY-004", ["foo"], "five foo keys are needed", "test")

    _with_rule(monkeypatch, at_least_five)
    assert set(_remove_fixes(evaluate(_ctx_with_keys(5))).values()) == {False}  # any removal leaves four
    assert set(_remove_fixes(evaluate(_ctx_with_keys(6))).values()) == {True}  # the neighbour: five stay
