"""Chinese templates of the message keys of messages_en.py (the same keys and parameters)."""

MESSAGES: dict[str, str] = {
    "count.errors": "{n} 个错误",
    "count.warnings": "{n} 个警告",
    "count.notes": "{n} 条提示",
    # issue 21: hostile input and secrets
    "deploy.no_token.nowhere": (
        "RAY_AUTH_MODE=token 但找不到令牌：Ray 依次查找 RAY_AUTH_TOKEN、RAY_AUTH_TOKEN_PATH 指向的文件和 {default}，"
        "都没有令牌；请 export RAY_AUTH_TOKEN=<head 的令牌>（在 head 上运行 `ray get-auth-token`），或把令牌写入该文件"
    ),
    "deploy.no_token.path_empty": (
        "RAY_AUTH_MODE=token 但找不到令牌：RAY_AUTH_TOKEN 未设置，RAY_AUTH_TOKEN_PATH={path} 是空文件；"
        "请把 head 的令牌写进去（在 head 上运行 `ray get-auth-token`）"
    ),
    "deploy.no_token.path_unusable": (
        "RAY_AUTH_MODE=token 但找不到令牌：RAY_AUTH_TOKEN 未设置，RAY_AUTH_TOKEN_PATH={path} 无法使用（{problem}）；"
        "请让它指向存有 head 令牌的文件（在 head 上运行 `ray get-auth-token`）"
    ),
    "write.removed": "已删除 {name}：它是之前写入的，这一组文件用不到它",
    "write.kept": "保留了 {name}：它不属于这一组文件（写入后被改过，或不是 verl-wizard 写的）；这里没有文件用到它",
    "write.out_empty": "--out ''：为空；请给出要写入的文件夹",
    "write.out_bad": "--out {out}：{problem}；请换一个 --out",
    "write.not_folder": "--out {out}：已存在且不是文件夹；请换一个 --out",
    "write.locked": "--out {out}：另一个 verl-wizard 已在那里写了 {seconds} 秒；请等它完成后再试",
    "write.cannot": "--out {out}：无法在那里写入（{reason}）；请换一个 --out",
    "write.folder_in_the_way": "--out {out}：{names:list} 是文件夹，而那里应是文件；请把它移走（--force 从不删除文件夹）",
    "write.would_replace": "--out {out}：{names:list} 会被替换或删除（内容不同，或属于之前的一组文件）；用 --force 替换整组文件",
    "write.nothing_changed": "--out {out}：无法写入文件（{reason}）；什么都没有改动",
    "write.cannot_replace": "--out {out}：无法替换 {name}（{reason}）；什么都没有改动",
}
