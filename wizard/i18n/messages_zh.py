"""Chinese templates of the message keys of messages_en.py (the same keys and parameters)."""

MESSAGES: dict[str, str] = {
    "count.errors": "{n} 个错误",
    "count.warnings": "{n} 个警告",
    "count.notes": "{n} 条提示",
}

# issue 16: the launch-script reader's messages live in their own module (merged here).
from wizard.i18n.messages_zh_reader import MESSAGES as _READER_MESSAGES  # noqa: E402

MESSAGES.update(_READER_MESSAGES)
