"""User-facing strings in English and Chinese, from one catalogue per language.

`t("key", **params)` formats the string of the current language, falling back to English. Rule titles and
reasons are translated by rule id (`rule.BATCH-001.title`, `rule.BATCH-001.why`), field labels by field
name (`field.batch.train_batch_size`). Finding messages, notes and fix labels are messages with parameters
(`wizard.i18n.text.msg`), rendered from the catalogues messages_en.py / messages_zh.py.
"""

from __future__ import annotations

from wizard.i18n import en, zh, zh_presets

CATALOGUES = {"en": en.STRINGS, "zh": zh.STRINGS}
LANGUAGES = tuple(CATALOGUES)
_current = "en"


def set_language(lang: str) -> None:
    global _current
    if lang not in CATALOGUES:
        raise ValueError(f"--lang {lang}: choose one of {', '.join(LANGUAGES)}")
    _current = lang


def language() -> str:
    return _current


def has(key: str) -> bool:
    return key in CATALOGUES[_current] or key in en.STRINGS


def t(key: str, **params) -> str:
    text = CATALOGUES[_current].get(key) or en.STRINGS.get(key) or key
    return text.format(**params) if params else text


def term(key: str, english: str) -> str:
    """A field's label or help by its catalogue key (its Spec's label_key / help_key) in the current language.

    English is the field's own declaration (its name, its docstring), given as `english`; another language
    reads its catalogue and its terms (wizard/i18n/zh_terms.py), and falls back to `english` where it has none.
    """
    if _current == "en":
        return english
    return CATALOGUES[_current].get(key) or _terms(_current).get(key) or english


def preset_description(name: str, english: str) -> str:
    """A shipped preset's description in the current language (`english`: the preset file's own)."""
    if _current == "zh":
        return zh_presets.DESCRIPTIONS.get(name) or english
    return english


def _terms(lang: str) -> dict[str, str]:
    if lang not in _TERMS:
        _TERMS[lang] = _zh_terms().as_strings() if lang == "zh" else {}
    return _TERMS[lang]


def _zh_terms():
    # deferred: the Chinese terms and rule texts (~3.5 ms) load when Chinese is first asked for, not at start
    from wizard.i18n import zh_terms

    return zh_terms


_TERMS: dict[str, dict[str, str]] = {}


def rule_text(rule_id: str, title: str, why: str) -> tuple[str, str]:
    """A rule's title and reason in the current language (English when no translation exists)."""
    if _current == "zh":
        return _zh_terms().RULES.get(rule_id, (title, why))
    return title, why
