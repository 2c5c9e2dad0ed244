"""Every fix the rules offer, applied, removes its finding and adds no error of its family.

Over the agreement test's generator: each config is rendered and read back as `check` reads it, the
rules run with their fixes checked (`evaluate`, what the CLI and the TUI offer), and then every offered
fix is applied the way a user applies it: set on the answers (None removes the key), a new config.yaml
rendered and read back, the rules run again. The engine checks its fixes on the answers in memory; this
goes through the file, so a fix that only works before rendering fails here.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings

from tests.agreement.ours import findings_of, layered_for, read_back, render
from tests.agreement.strategies import configs
from tests.agreement.tiers import skip_unless_conformance
from wizard.core.findings import Severity
from wizard.core.rules import context_for, evaluate
from wizard.detect.facts import gather

DEFAULT_EXAMPLES = int(os.environ.get("FIX_EXAMPLES", "60"))
LARGE_EXAMPLES = int(os.environ.get("FIX_EXAMPLES_LARGE", "500"))
QUIET = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck))


def family(rule_id: str) -> str:
    return rule_id.split("-")[0]


def error_keys(findings, of_family: str) -> set:
    return {(f.id, f.paths) for f in findings if f.severity is Severity.ERROR and family(f.id) == of_family}


def broken_fixes(config) -> list[str]:
    """Each offered fix that leaves its finding or adds an error of the finding's family, described."""
    layered = read_back(render(layered_for(*config)))
    facts = gather(layered.answers, "cluster")
    ctx = context_for(layered.answers, layered.flat, mode="cluster", target_known=False, **facts)  # as findings_of
    findings = evaluate(ctx)
    problems = []
    for finding in findings:
        if finding.severity is Severity.INFO:
            continue
        before = error_keys(findings, family(finding.id))
        for fix in finding.fixes:
            after, _ = findings_of(read_back(render(layered.with_values(fix.set, "edited"))))
            if (finding.id, finding.paths) in {(f.id, f.paths) for f in after}:
                problems.append(f"{finding.id} ({finding.message}) stays after its fix {fix.set}")
            added = error_keys(after, family(finding.id)) - before
            if added:
                problems.append(f"the fix {fix.set} of {finding.id} ({finding.message}) adds {sorted(added)}")
    return problems


@settings(max_examples=DEFAULT_EXAMPLES, derandomize=True, **QUIET)
@given(configs())
def test_every_offered_fix_removes_its_finding_and_adds_no_error_of_its_family(config):
    problems = broken_fixes(config)
    assert not problems, f"{config}\n" + "\n".join(problems)


@pytest.mark.conformance
def test_fix_property_on_a_large_sample(request):
    skip_unless_conformance(request)

    @settings(max_examples=LARGE_EXAMPLES, **QUIET)
    @given(configs())
    def check(config):
        problems = broken_fixes(config)
        assert not problems, f"{config}\n" + "\n".join(problems)

    check()
