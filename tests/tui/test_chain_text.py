"""The batch chain's words around its numbers, in each language: Chinese puts the count before its measure word."""

from __future__ import annotations

from tests.conftest import BASE
from wizard.core.layers import build
from wizard.core.plan import build_plan
from wizard.i18n import set_language
from wizard.tui.widgets.chain_view import chain_line


def chain(lang: str, **overrides):
    answers = build([("test", {**BASE, **overrides})]).answers
    set_language(lang)
    return chain_line(build_plan(answers).actor, answers.batch.rollout_n)


def test_chinese_chain_reads_count_then_measure_word():
    text = chain("zh").plain
    assert text == (
        " actor  64 条提示 ×4 → 256 条回复 → 4 个 mini-batch，每个 64 条 / dp 8 → 每 GPU 8 条"
        " → 2 个 micro-step，每个 4 条 → 4 次优化器更新"
    )


def test_uneven_mini_batches_in_chinese_keep_the_number_with_its_word_and_in_red():
    line = chain("zh", **{"actor_rollout_ref.actor.ppo_mini_batch_size": 12})
    assert "256 条回复 → 5.33 个 mini-batch，每个 48 条" in line.plain
    assert "个 mini-batch 5.33" not in line.plain  # the old order: the number after its measure word
    start = line.plain.index("5.33")
    assert any(span.start <= start < span.end and "red" in str(span.style) for span in line.spans)


def test_english_chain_keeps_its_order():
    line = chain("en", **{"actor_rollout_ref.actor.ppo_mini_batch_size": 12})
    assert "responses 256 → mini-batches 5.33 of 48 / dp 8 → per GPU 6 → micro-steps 1.50 of 4" in line.plain
    assert "5.33 个" not in line.plain
