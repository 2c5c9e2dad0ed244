"""The findings panel's text renders each finding through the catalogue in the language of the interface."""

from __future__ import annotations

from tests.conftest import findings_for
from wizard.i18n import set_language
from wizard.tui.widgets.findings_panel import finding_text


def _batch_002():
    return next(f for f in findings_for({"actor_rollout_ref.actor.ppo_mini_batch_size": 128}) if f.id == "BATCH-002")


def test_a_finding_reads_in_chinese_with_its_numbers():
    set_language("zh")
    text = finding_text(_batch_002()).plain
    assert "ppo_mini_batch_size 128 大于 train_batch_size 64" in text


def test_the_same_finding_reads_in_english():
    text = finding_text(_batch_002()).plain
    assert "ppo_mini_batch_size 128 is larger than train_batch_size 64" in text and "大于" not in text
