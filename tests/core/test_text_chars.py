"""Characters no answer may hold (wizard.core.text_chars): refused at their field by the answers model, the
one gate of every door (the TUI's edits included, through Workspace.set), named in both languages."""

from __future__ import annotations

import pytest

from wizard.core.text_chars import char_name, unholdable
from wizard.core.value_reasons import bare_reason
from wizard.core.workspace import Workspace
from wizard.errors import UsageError

REFUSED = [*range(0x00, 0x09), *range(0x0A, 0x20), 0x7F, *range(0x80, 0xA0), 0x2028, 0x2029]  # all but TAB


def test_every_control_and_separator_is_named_and_nothing_else_is():
    assert all(char_name(code) for code in REFUSED)
    assert [char_name(c) for c in (0x00, 0x0A, 0x1B, 0x7F, 0x85, 0x9B)] == [
        "NUL",
        "LF",
        "ESC",
        "DEL",
        "NEL",
        "CSI",
    ]
    allowed = [code for code in range(0x2100) if code not in REFUSED]
    assert [code for code in allowed if char_name(code)] == []


def test_unholdable_finds_the_first_one_in_nested_values():
    assert unholdable("plain ascii and 实验 and \u00a0 and a\ttab") is None
    assert unholdable(["A=1", {"k": "v\u2028w"}]) == "U+2028 (LINE SEPARATOR)"
    assert unholdable({"key\x00": "value"}) == "U+0000 (NUL)"  # a mapping's keys are text that is written too
    assert unholdable(3) is None and unholdable(None) is None


def test_a_tui_edit_with_a_control_character_is_refused_in_both_languages():
    workspace = Workspace()
    with pytest.raises(UsageError) as caught:
        workspace.set("trainer.experiment_name", "run\x1b[31m")
    refusal = caught.value.args[0]
    assert refusal.render("en").startswith(
        "trainer.experiment_name: contains U+001B (ESC), which a shell script or manifest cannot hold; remove it"
    )
    zh = refusal.render("zh")
    assert zh.startswith("trainer.experiment_name：含有 U+001B (ESC)") and "请删除" in zh, zh
    # the TUI shows the reason alone under the field (KEY-006)
    assert bare_reason(refusal).render("en").startswith("contains U+001B (ESC)")


def test_a_pasted_model_path_with_its_newline_is_refused_at_its_field():
    # It was ROLE-007 ("neither a repo id nor a path"); the answers model now refuses it where it is typed.
    with pytest.raises(UsageError) as caught:
        Workspace().set("actor_rollout_ref.model.path", "meta-llama/Llama-3.1-8B\n")
    assert caught.value.args[0].render("en").startswith("actor_rollout_ref.model.path: contains U+000A (LF)")


def test_a_tui_edit_of_a_plain_name_is_taken():
    workspace = Workspace()
    workspace.set("trainer.experiment_name", "run-2024-01-01 实验")
    assert workspace.value("trainer.experiment_name") == "run-2024-01-01 实验"
