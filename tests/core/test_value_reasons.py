"""A value the answers' schema refuses is explained in the user's language (issue 18: pydantic's English
reason showed under --lang zh), in English exactly as before."""

from __future__ import annotations

import pytest

from wizard.core.layers import build
from wizard.core.value_reasons import _KEYS, reason_of
from wizard.errors import UsageError
from wizard.i18n import messages_en, messages_zh
from wizard.i18n.text import Msg, template_fields


def _refusal(address, value) -> Msg:
    with pytest.raises(UsageError) as err:
        build([("x", {address: value})])
    return err.value.args[0]


@pytest.mark.parametrize(
    "address, value, english, chinese",
    [
        ("data.train_batch_size", 0, "greater than or equal to 1 (got 0)", "应大于或等于 1（输入的是 0）"),
        ("data.train_batch_size", -5, "greater than or equal to 1 (got -5)", "应大于或等于 1"),
        ("data.train_batch_size", "many", "should be a valid integer", "应为整数"),
        ("data.train_batch_size", 1.5, "fractional part", "小数部分"),
        ("data.train_batch_size", True, "not a boolean", "布尔值"),
        ("actor_rollout_ref.actor.optim.lr", 0, "greater than 0 (got 0)", "应大于 0"),
        ("actor_rollout_ref.actor.optim.lr", "fast", "valid number", "应为数字"),
        ("deploy.target", "kubernetes", "'kuberay-job'", "应为以下之一：'local'、"),
    ],
)
def test_a_refused_value_reads_in_both_languages(address, value, english, chinese):
    reason = _refusal(address, value)
    assert isinstance(reason, Msg)
    en, zh = reason.render("en"), reason.render("zh")
    assert en.startswith(address + ":") and english in en, en
    assert zh.startswith(address + "：") and chinese in zh, zh
    assert "input should" not in zh and "Input should" not in zh, zh


def test_a_refusal_with_no_key_keeps_pydantics_words():
    err = {"type": "url_parsing", "msg": "Input should be a valid URL", "ctx": {}}
    assert reason_of(err) == "input should be a valid URL"


@pytest.mark.parametrize("key, param", sorted(set(_KEYS.values()), key=str))
def test_every_reason_key_has_both_templates_naming_its_parameter(key, param):
    for catalogue in (messages_en.MESSAGES, messages_zh.MESSAGES):
        assert key in catalogue, key
        assert template_fields(catalogue[key]) == ({"limit"} if param else set()), key
