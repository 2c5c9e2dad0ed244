"""The wizard's 0.9.1 key verdicts held to another release's keys (wizard.core.rules.verl.tree.held_to_release):
which findings become VERL-007 notes, which say they are 0.9.1's, and which stay as they are."""

from __future__ import annotations

from wizard.core.findings import Finding, Severity
from wizard.core.rules.declare import why
from wizard.core.rules.verl.tree import held_to_release
from wizard.i18n.text import msg, render

SKIP = "actor_rollout_ref.rollout.skip.enable"
KEYS = frozenset({SKIP, "trainer.nnodes", "actor_rollout_ref.model.override_config"})
OPEN = frozenset({"actor_rollout_ref.model.override_config"})


def finding(rule_id: str, key: str, severity: Severity = Severity.ERROR) -> Finding:
    return Finding(rule_id, severity, (key,), msg("fix.remove", key=key), why(rule_id))


def test_a_key_the_release_has_is_a_note_carrying_what_0_9_1_made_of_it():
    [note] = held_to_release([finding("KEY-001", SKIP)], "0.8.0", KEYS, OPEN)
    assert (note.id, note.severity, note.paths) == ("VERL-007", Severity.INFO, (SKIP,))
    text = render(note.message, "en")
    assert text.startswith(f"{SKIP} is a key of verl 0.8.0's config tree") and text.endswith(f"remove {SKIP}")


def test_a_key_below_an_open_mapping_of_the_release_is_held_too():
    key = "actor_rollout_ref.model.override_config.rope_theta"
    assert [f.id for f in held_to_release([finding("SCRIPT-006", key)], "0.8.0", KEYS, OPEN)] == ["VERL-007"]


def test_a_key_the_release_lacks_stays_an_error_and_says_it_is_0_9_1_s_verdict():
    [kept] = held_to_release([finding("KEY-001", "trainer.no_such_key")], "0.8.0", KEYS, OPEN)
    assert (kept.id, kept.severity) == ("KEY-001", Severity.ERROR)
    assert render(kept.message, "en").endswith("(judged by verl 0.9.1's schema; the run uses verl 0.8.0)")
    assert render(kept.message, "zh").endswith("（按 verl 0.9.1 的 schema 判断；这次运行用的是 verl 0.8.0）")


def test_what_0_9_1_does_with_a_key_is_said_to_be_0_9_1_s_even_where_the_release_has_it():
    [kept] = held_to_release([finding("SCRIPT-005", "trainer.nnodes")], "0.8.0", KEYS, OPEN)
    assert kept.id == "SCRIPT-005" and "judged by verl 0.9.1's schema" in render(kept.message, "en")


def test_other_rules_are_left_as_they_are():
    batch = Finding("BATCH-002", Severity.ERROR, ("data.train_batch_size",), "as is", why("BATCH-002"))
    assert held_to_release([batch], "0.8.0", KEYS, OPEN) == [batch]
