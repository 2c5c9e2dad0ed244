"""The test tiers: the README's command (the fast tier, pyproject's addopts), then .ci/run's terminal and browser
tier, then its conformance tier. Every test runs in exactly one of them, and a test module that drives a real
terminal, a terminal emulator or a browser carries the marker that keeps it out of the fast tier.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest
from _pytest.mark.expression import Expression

from tests.agreement.tiers import large_run_selected

ROOT = Path(__file__).resolve().parents[1]
TIER_MARKS = ("conformance", "terminal", "browser")
# what a module uses -> the marker it needs
NEEDS = {
    "terminal": re.compile(
        r"^\s*(import pyte\b|from tests\.(tui\.tmux_server|serve\.terminal|tui\.test_partial_frames) )", re.M
    ),
    "browser": re.compile(r"^\s*from tests\.serve\.browser |need_browser\(|browser_available", re.M),
}


@pytest.fixture
def default_expression(pytestconfig) -> str:
    """The -m of pyproject's addopts: what the README's command runs."""
    addopts = pytestconfig.getini("addopts")
    return addopts[addopts.index("-m") + 1]


def ci_expressions() -> list[str]:
    """The -m expressions of .ci/run's pytest runs after the README's command."""
    return re.findall(r'python -m pytest [^\n]*?-m "([^"]+)"', (ROOT / ".ci" / "run").read_text())


def tiers_of(marks: set[str], expressions: list[str]) -> list[str]:
    return [e for e in expressions if Expression.compile(e).evaluate(lambda name, **_: name in marks)]


def test_every_combination_of_tier_markers_runs_in_exactly_one_tier(default_expression):
    expressions = [default_expression, *ci_expressions()]
    assert len(expressions) == 3, expressions
    for n in range(len(TIER_MARKS) + 1):
        for marks in itertools.combinations(TIER_MARKS, n):
            assert len(tiers_of(set(marks), expressions)) == 1, (marks, tiers_of(set(marks), expressions))
    assert tiers_of(set(), expressions) == [default_expression]  # an unmarked test is in the README's command


def test_the_check_sees_a_test_left_out_or_run_twice():
    assert tiers_of({"terminal"}, ["not (conformance or terminal)", "browser"]) == []
    assert len(tiers_of({"browser"}, ["not conformance", "browser"])) == 2


def test_the_readme_command_runs_none_of_the_slow_tiers(default_expression):
    for mark in TIER_MARKS:
        assert tiers_of({mark}, [default_expression]) == [], mark


class _Options:
    def __init__(self, markexpr: str) -> None:
        self.markexpr = markexpr

    def getoption(self, name: str, default=None):
        return self.markexpr if name == "markexpr" else default


@pytest.mark.parametrize(
    ("markexpr", "large"),
    [
        ("conformance", True),
        ("conformance and not terminal", True),
        ("", False),
        # the fast tier's own expression names the tier: a substring test took it for the large run
        ("not (conformance or terminal or browser)", False),
        ("(terminal or browser) and not conformance", False),
    ],
)
def test_the_large_runs_belong_to_the_conformance_tier_alone(markexpr, large):
    assert large_run_selected(_Options(markexpr)) is large


def modules():
    """Every test module but this one (whose patterns name what they look for)."""
    return sorted(p for p in (ROOT / "tests").rglob("test_*.py") if p != Path(__file__).resolve())


@pytest.mark.parametrize("mark", sorted(NEEDS))
def test_a_module_that_drives_a_terminal_or_a_browser_is_marked(mark):
    unmarked = [
        str(path.relative_to(ROOT))
        for path in modules()
        if NEEDS[mark].search(text := path.read_text(encoding="utf-8")) and f"pytest.mark.{mark}" not in text
    ]
    assert not unmarked, f"mark these pytest.mark.{mark} (pytestmark): {unmarked}"


def test_the_module_scan_finds_the_known_users():
    found = {mark: {p.name for p in modules() if NEEDS[mark].search(p.read_text(encoding="utf-8"))} for mark in NEEDS}
    assert {"test_tmux.py", "test_key_bursts_terminal.py", "test_partial_frames.py"} <= found["terminal"]
    assert {"test_browser.py"} <= found["browser"]
    assert "test_doors.py" not in found["terminal"] | found["browser"]
