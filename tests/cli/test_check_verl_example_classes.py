"""Classes of disagreement with verl 0.9.1 found on verl's own example scripts (issue 31), each on a fixture of
the launch corpus written for it: `check` gives the verdict verl gives.
"""

from __future__ import annotations

import json

from tests.cli.helpers import ROOT, cli

CORPUS = ROOT / "tests" / "fixtures" / "launch_corpus"


def check(name: str, *script_args: str) -> tuple[int, dict]:
    result = cli("check", "--mode", "cluster", "--format", "json", str(CORPUS / name), "--", *script_args)
    return result.returncode, json.loads(result.stdout)


def test_a_group_estimator_with_one_response_passes_with_a_warning():
    # verl 0.9.1 trains it (a one-response group's mean is taken as 0): a warning, not a refusal.
    code, doc = check("60_rloo_one_sample.sh")
    assert (code, doc["verdict"]) == (0, "pass")
    assert [(f["id"], f["severity"]) for f in doc["findings"]] == [("BATCH-008", "warning")]
    assert "no baseline" in doc["findings"][0]["message"]


def test_pass_at_k_with_one_response_is_still_refused():
    # The neighbour: grpo_passk raises in verl on a group of one, so check fails it (BATCH-015).
    code, doc = check("60_rloo_one_sample.sh", "algorithm.adv_estimator=grpo_passk")
    assert (code, doc["verdict"]) == (1, "fail")
    found = [(f["id"], f["severity"]) for f in doc["findings"]]
    assert ("BATCH-015", "error") in found and "BATCH-008" not in {i for i, _ in found}
