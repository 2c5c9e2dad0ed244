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


def test_a_plus_of_a_key_the_release_lacks_is_right_there_and_becomes_a_note():
    """`+trainer.val_before_train=true` is SCRIPT-005 for 0.9.1 (the key is there): under a release without the key
    the + is what Hydra needs, so the error becomes VERL-007; the neighbour above keeps it where the release has it."""
    [note] = held_to_release([finding("SCRIPT-005", "trainer.val_before_train")], "0.2.0", KEYS, OPEN)
    assert (note.id, note.severity) == ("VERL-007", Severity.INFO)
    text = render(note.message, "en")
    assert text.startswith("trainer.val_before_train is not in verl 0.2.0's config tree, so the + adds it there")
    assert "trainer.val_before_train 不在 verl 0.2.0 的配置树里" in render(note.message, "zh")


def global_micro_only(role: str = "actor") -> Finding:
    global_key, per_gpu_key = f"{role}.ppo_micro_batch_size", f"{role}.ppo_micro_batch_size_per_gpu"
    text = msg("batch.micro_deprecated", role=role, global_key=global_key, per_gpu_key=per_gpu_key)
    return Finding("BATCH-006", Severity.ERROR, (per_gpu_key,), text, why("BATCH-006"))


def test_a_global_micro_batch_size_alone_is_no_error_under_a_release_whose_workers_divide_it():
    for version in ("0.2.0", "0.3.0.post1", "0.4.1", "0.7.1"):
        [note] = held_to_release([global_micro_only()], version, KEYS, OPEN)
        assert (note.id, note.severity) == ("VERL-007", Severity.INFO), version
        assert render(note.message, "en").startswith(f"verl {version}'s workers divide the global actor.ppo_micro")


def test_from_0_8_the_global_micro_batch_size_alone_stays_an_error_said_to_be_0_9_1_s():
    for version in ("0.8.0", "0.9.0", "0.10.0rc1"):
        [kept] = held_to_release([global_micro_only()], version, KEYS, OPEN)
        assert (kept.id, kept.severity) == ("BATCH-006", Severity.ERROR), version
        assert render(kept.message, "en").endswith(f"(judged by verl 0.9.1's schema; the run uses verl {version})")


def test_release_numbers_compare_releases_by_their_leading_numbers():
    from wizard.core.rules.verl.tree import release_numbers

    assert release_numbers("0.3.0.post1") == (0, 3, 0)
    assert release_numbers("0.10.0rc1") == (0, 10, 0)
    assert release_numbers("0.7.1") < (0, 8) <= release_numbers("0.8.0")
