"""English templates of the messages rules, notes and fix labels give as keys (see wizard/i18n/text.py).

Every key here has a Chinese template in messages_zh.py; tests/test_i18n_text.py fails when one is missing or
when the two name different parameters.
"""

MESSAGES: dict[str, str] = {
    "count.errors": "{n} {n:plural(error|errors)}",
    "count.warnings": "{n} {n:plural(warning|warnings)}",
    "count.notes": "{n} {n:plural(note|notes)}",
}

# issue 16: the launch-script reader's messages live in their own module (merged here).
from wizard.i18n.messages_en_reader import MESSAGES as _READER_MESSAGES  # noqa: E402

MESSAGES.update(_READER_MESSAGES)
