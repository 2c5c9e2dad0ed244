"""User-facing strings in English and Chinese, from one catalogue per language.

`t("key", **params)` formats the string of the current language, falling back to English. Rule titles and
reasons are translated by rule id (`rule.BATCH-001.title`, `rule.BATCH-001.why`), field labels by field
name (`field.batch.train_batch_size`).
"""

from __future__ import annotations

from wizard.i18n import en, zh

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


def zh_terms_label(field: str) -> str | None:
    """The Chinese label of an answer field, when the terms catalogue has one."""
    try:
        from wizard.i18n.zh_terms import FIELDS
    except ImportError:
        return None
    entry = FIELDS.get(field)
    return entry[0] if entry else None


def rule_text(rule_id: str, title: str, why: str) -> tuple[str, str]:
    """A rule's title and reason in the current language (English when no translation exists)."""
    if _current == "zh":
        try:
            from wizard.i18n.zh_terms import RULES
        except ImportError:
            return title, why
        return RULES.get(rule_id, (title, why))
    return title, why


def field_help_text(field: str, english: str) -> str:
    if _current == "zh":
        try:
            from wizard.i18n.zh_terms import FIELDS
        except ImportError:
            return english
        entry = FIELDS.get(field)
        return entry[1] if entry else english
    return english


def finding_message(rule_id: str, message) -> str:
    """A finding's message in the current language (English where no translation pattern matches)."""
    from wizard.i18n.text import Msg

    if isinstance(message, Msg):
        return message.render(_current)
    if _current == "zh":
        from wizard.i18n.zh_messages import zh_message

        return zh_message(rule_id, message) or message
    return message
