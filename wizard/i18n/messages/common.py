"""Messages shared by every family: counts, and the fix labels that only name a key and a value."""

EN: dict[str, str] = {
    "count.errors": "{n} {n:plural(error|errors)}",
    "count.warnings": "{n} {n:plural(warning|warnings)}",
    "count.notes": "{n} {n:plural(note|notes)}",
    "fix.set": "{key} {value}",
    "fix.remove": "remove {key}",
    "fix.use": "use {value}",
    # the TUI's saved answers (wizard/tui/exit_report.py): typed texts that are not values stay out of the file
    "save.kept_out": "not in the answers file, not valid values: {items:comma} (it keeps their earlier values)",
}

ZH: dict[str, str] = {
    "count.errors": "{n} 个错误",
    "count.warnings": "{n} 个警告",
    "count.notes": "{n} 条提示",
    "fix.set": "{key} {value}",
    "fix.remove": "删除 {key}",
    "fix.use": "使用 {value}",
    "save.kept_out": "未写入答案文件（不是有效的值）：{items:comma}（文件中保留它们之前的值）",
}
