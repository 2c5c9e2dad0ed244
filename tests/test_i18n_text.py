"""Messages as keys: rendering (plural, lists, nested messages, fallback) and the two catalogues agreeing."""

import pytest

from wizard.i18n import messages_en, messages_zh, set_language
from wizard.i18n.text import Msg, msg, render, spans, template_fields


@pytest.fixture(autouse=True)
def _english_after():
    yield
    set_language("en")


def test_plural_word_follows_the_count():
    assert render(msg("count.errors", n=1), "en") == "1 error"
    assert render(msg("count.errors", n=2), "en") == "2 errors"
    assert render(msg("count.errors", n=0), "en") == "0 errors"
    assert render(msg("count.errors", n=2), "zh") == "2 个错误"


def test_current_language_is_the_default(monkeypatch):
    set_language("zh")
    assert str(msg("count.warnings", n=3)) == "3 个警告"
    set_language("en")
    assert str(msg("count.warnings", n=3)) == "3 warnings"


def test_lists_and_nested_messages_render_in_the_same_language(monkeypatch):
    monkeypatch.setitem(messages_en.MESSAGES, "t.outer", "left: {parts:list}; total {inner}")
    monkeypatch.setitem(messages_zh.MESSAGES, "t.outer", "剩下：{parts:list}；共 {inner}")
    m = msg("t.outer", parts=["a", "b", msg("count.notes", n=1)], inner=msg("count.errors", n=2))
    assert render(m, "en") == "left: a, b and 1 note; total 2 errors"
    assert render(m, "zh") == "剩下：a、b 和 1 条提示；共 2 个错误"
    one = msg("t.outer", parts=["x"], inner="y")
    assert render(one, "en") == "left: x; total y"


def test_missing_translation_falls_back_to_english_and_unknown_key_shows_itself(monkeypatch):
    monkeypatch.setitem(messages_en.MESSAGES, "t.only_en", "only {x}")
    assert render(msg("t.only_en", x=1), "zh") == "only 1"
    assert render(msg("t.nowhere"), "en") == "t.nowhere"


def test_messages_are_hashable_values():
    assert msg("count.errors", n=1) == msg("count.errors", n=1)
    assert len({msg("k", items=[1, 2]), msg("k", items=[1, 2])}) == 1
    assert isinstance(msg("k"), Msg)
    assert render("plain text", "zh") == "plain text"


def test_every_key_exists_in_both_languages_with_the_same_parameters():
    assert set(messages_en.MESSAGES) == set(messages_zh.MESSAGES)
    for key, english in messages_en.MESSAGES.items():
        assert template_fields(messages_zh.MESSAGES[key]) <= template_fields(english), key


def test_template_fields_reads_names_with_specs():
    assert template_fields("{n} {n:plural(a|b)} {x.y} {items:list}") == {"n", "x", "items"}


def test_spans_keep_each_languages_word_order(monkeypatch):
    monkeypatch.setitem(messages_en.MESSAGES, "t.count", "mini-batches {n} of {size}")
    monkeypatch.setitem(messages_zh.MESSAGES, "t.count", "{n} 个 mini-batch，每个 {size} 条")
    m = msg("t.count", n=4, size=256)
    assert spans(m, "en") == [("mini-batches ", None), ("4", "n"), (" of ", None), ("256", "size")]
    assert spans(m, "zh") == [("4", "n"), (" 个 mini-batch，每个 ", None), ("256", "size"), (" 条", None)]
    assert "".join(text for text, _ in spans(m, "zh")) == render(m, "zh")
    assert spans("plain", "zh") == [("plain", None)]


def test_format_specs_conversions_and_joins(monkeypatch):
    monkeypatch.setitem(messages_en.MESSAGES, "t.spec", "{path!r}: {share:.0%}, {inner!r}; {items:semi}")
    monkeypatch.setitem(messages_zh.MESSAGES, "t.spec", "{path!r}：{share:.0%}，{inner!r}；{items:semi}")
    m = msg("t.spec", path="/d", share=0.5, inner=msg("count.notes", n=2), items=["a", "b"])
    assert render(m, "en") == "'/d': 50%, '2 notes'; a; b"
    assert render(m, "zh") == "'/d'：50%，'2 条提示'；a；b"
    assert f"{msg('count.errors', n=1):>9}" == "  1 error"  # a Msg formats as its text


def test_a_template_that_cannot_be_filled_falls_back_unless_strict(monkeypatch):
    monkeypatch.setitem(messages_en.MESSAGES, "t.fill", "needs {x}")
    monkeypatch.setitem(messages_zh.MESSAGES, "t.fill", "需要 {x} 和 {y}")
    m = msg("t.fill", x=1)
    assert render(m, "zh") == "needs 1"  # the zh template names y, which the call does not give
    with pytest.raises(KeyError):
        render(m, "zh", strict=True)
    assert render(msg("t.fill"), "en") == "t.fill"
    monkeypatch.delitem(messages_zh.MESSAGES, "t.fill")
    with pytest.raises(KeyError):
        render(m, "zh", strict=True)  # strict: no English fallback


def test_msg_takes_a_parameter_named_key():
    assert msg("fix.remove", key="trainer.x").args == {"key": "trainer.x"}


def test_values_from_the_input_are_shown_as_they_are_whatever_they_hold():
    path = "/data/模型 {v2}/rm: {n:plural(a|b)} (copy)"
    assert render(msg("role.critic_is_reward_model", path=path), "zh") == f"critic 与奖励模型都是 {path}"
    assert render(msg("role.critic_is_reward_model", path=path), "en") == f"critic and reward model are both {path}"
