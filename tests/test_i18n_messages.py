"""Chinese finding messages: the common rules' messages are re-said in Chinese with the same numbers."""

from __future__ import annotations

import pytest

from tests.conftest import findings_for
from tests.core.test_verl_checks import CASES
from wizard.i18n.zh_messages import zh_message

# Rules whose every message must have a Chinese form (the ones students meet first).
COVERED = {"BATCH-001", "BATCH-002", "BATCH-004", "BATCH-005", "BATCH-006", "BATCH-007", "BATCH-008", "BATCH-012", "BATCH-014",
           "PLACE-001", "PLACE-002", "PLACE-004", "PLACE-006", "PLACE-012", "KEY-002", "KEY-004", "KEY-005", "ROLE-002"}


def has_cjk(text: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in text)


@pytest.mark.parametrize("check, base, overrides, rule_id", CASES, ids=[c[0] for c in CASES])
def test_common_messages_have_a_chinese_form_with_the_same_numbers(check, base, overrides, rule_id):
    for finding in findings_for(overrides, base=base):
        if finding.id not in COVERED:
            continue
        zh = zh_message(finding.id, finding.message)
        assert zh is not None and has_cjk(zh), f"{finding.id}: no Chinese form for {finding.message!r}"
        numbers = [w for w in finding.message.replace("(", " ").replace(")", " ").split() if w.isdigit()]
        assert all(n in zh for n in numbers), (finding.message, zh)


def test_an_unknown_message_is_left_to_english():
    assert zh_message("BATCH-001", "something new") is None
