"""Every rule and every answer field has Chinese text, and the two UI catalogues mirror each other."""

from __future__ import annotations

import re
import string

import pytest

from wizard.core.field_keys import all_fields, field_help
from wizard.core.rules.catalogue import CATALOGUE
from wizard.i18n import en, zh
from wizard.i18n.zh_rule_terms import RULES
from wizard.i18n.zh_terms import FIELDS, TRANSLATED_FROM, as_strings, fingerprint

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
# Code identifiers and verl keys that a translation must carry over unchanged:
# dotted keys (critic.model.path, ray.init, reward_model.*) and snake_case names (train_batch_size).
IDENTIFIER = re.compile(r"[A-Za-z_][\w-]*(?:\.(?:[A-Za-z_][\w-]*|\*))+|\b[A-Za-z]\w*_\w+\b")


def has_cjk(text: str) -> bool:
    return bool(CJK.search(text))


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def identifiers(text: str) -> set[str]:
    return {m.rstrip(".") for m in IDENTIFIER.findall(text)}


# -- rules --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("rule_id", sorted(CATALOGUE))
def test_every_rule_has_a_chinese_title_and_reason(rule_id):
    assert rule_id in RULES, f"{rule_id} has no Chinese title/reason in wizard/i18n/zh_rule_terms.py"
    title, why = RULES[rule_id]
    assert title.strip() and why.strip()
    assert has_cjk(title), f"{rule_id} title has no Chinese: {title!r}"
    assert has_cjk(why), f"{rule_id} reason has no Chinese: {why!r}"


@pytest.mark.parametrize("rule_id", sorted(CATALOGUE))
def test_rule_translations_keep_keys_and_identifiers(rule_id):
    doc = CATALOGUE[rule_id]
    title, why = RULES[rule_id]
    for english, chinese in ((doc.title, title), (doc.why, why)):
        missing = {name for name in identifiers(english) if name not in chinese}
        assert not missing, f"{rule_id}: {sorted(missing)} missing from {chinese!r}"


def test_no_rule_translation_without_a_rule():
    assert set(RULES) - set(CATALOGUE) == set()


# -- fields -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", all_fields())
def test_every_field_has_a_chinese_label_and_help(name):
    assert name in FIELDS, f"{name} has no Chinese label/help in wizard/i18n/zh_field_terms.py"
    label, help_text = FIELDS[name]
    assert label.strip() and help_text.strip()
    assert has_cjk(label), f"{name} label has no Chinese: {label!r}"
    assert has_cjk(help_text), f"{name} help has no Chinese: {help_text!r}"
    assert "\n" not in label and len(label) <= 24, f"{name} label is not short: {label!r}"


@pytest.mark.parametrize("name", all_fields())
def test_field_help_translations_keep_keys_and_identifiers(name):
    english = field_help(name)
    chinese = FIELDS[name][1]
    missing = {ident for ident in identifiers(english) if ident not in chinese}
    assert not missing, f"{name}: {sorted(missing)} missing from {chinese!r}"


@pytest.mark.parametrize("name", all_fields())
def test_field_translation_is_not_stale(name):
    now = fingerprint(field_help(name))
    assert TRANSLATED_FROM.get(name) == now, (
        f"the help of {name} changed since it was translated: update FIELDS[{name!r}] in "
        f"wizard/i18n/zh_field_terms.py, then set TRANSLATED_FROM[{name!r}] = {now!r}"
    )


def test_no_field_translation_without_a_field():
    assert set(FIELDS) - set(all_fields()) == set()


def test_no_fingerprint_without_a_field_translation():
    # Rule translations are keyed by rule id only: an id's English lives beside its rule, its Chinese here.
    assert set(TRANSLATED_FROM) == set(FIELDS)


def test_as_strings_uses_the_catalogue_key_scheme():
    strings = as_strings()
    assert len(strings) == 2 * len(RULES) + 2 * len(FIELDS)
    rule_id = next(iter(RULES))
    assert strings[f"rule.{rule_id}.title"] == RULES[rule_id][0]
    assert strings[f"rule.{rule_id}.why"] == RULES[rule_id][1]
    name = next(iter(FIELDS))
    assert strings[f"field.{name}"] == FIELDS[name][0]
    assert strings[f"field.{name}.help"] == FIELDS[name][1]


# -- UI catalogues ------------------------------------------------------------------------------------


def test_en_and_zh_catalogues_have_the_same_keys():
    assert set(en.STRINGS) - set(zh.STRINGS) == set(), "keys missing from zh.py"
    assert set(zh.STRINGS) - set(en.STRINGS) == set(), "keys in zh.py that en.py does not have"


@pytest.mark.parametrize("key", sorted(en.STRINGS))
def test_zh_keeps_every_placeholder_of_en(key):
    assert key in zh.STRINGS
    assert placeholders(en.STRINGS[key]) <= placeholders(zh.STRINGS[key]), (en.STRINGS[key], zh.STRINGS[key])
    assert placeholders(zh.STRINGS[key]) <= placeholders(en.STRINGS[key]), "zh uses a placeholder en never passes"


def test_the_placeholder_check_can_fail():
    assert placeholders("Wrote {n} file(s) to {out}") - placeholders("已写出文件到 {out}") == {"n"}
    assert identifiers(
        "budget × sp must be at least max_prompt_length + max_response_length; see critic.model.path"
    ) == {"max_prompt_length", "max_response_length", "critic.model.path"}
