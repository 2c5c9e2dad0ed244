"""Chinese templates of the message keys of messages_en.py (the same keys and parameters)."""

MESSAGES: dict[str, str] = {
    "count.errors": "{n} 个错误",
    "count.warnings": "{n} 个警告",
    "count.notes": "{n} 条提示",
}
