"""Chinese messages of the launch-script rules (SCRIPT-*): the shell-level problems the script reader finds
(wizard.detect.launch_script), the reasons Hydra rejects a value (wizard.detect.hydra_values), and the
`+` prefix rules. See wizard/i18n/zh_messages.py for the template syntax.
"""

from __future__ import annotations

# What cuts a continued command short (wizard.detect.launch_script), said before "让命令在这里结束".
CUT_CAUSES = [
    (r"whitespace after the line-continuation backslash", "续行反斜杠后面的空白字符"),
    (
        r"a Windows line ending \(CRLF\) after the line-continuation backslash",
        "续行反斜杠后面的 Windows 换行符（CRLF）",
    ),
    (r"a # comment after the line-continuation backslash", "续行反斜杠后面的 # 注释"),
    (r"a # comment that swallows the line-continuation backslash", "吞掉了续行反斜杠的 # 注释"),
    (r"a comment line inside the continued command", "续行命令中间的注释行"),
    (r"an empty line inside the continued command", "续行命令中间的空行"),
]

# Why Hydra rejects an override's value (wizard.detect.hydra_values), in the order they are tried.
HYDRA_REASONS = [
    (
        r"a,b is a Hydra sweep, rejected on a single run: write \[a,b\] for a list or quote it",
        "a,b 是 Hydra 的 sweep 写法，单次运行不接受：列表请写成 [a,b]，或者给值加上引号",
    ),
    (
        r"(?P<f>\w+)\(\.\.\.\) is a Hydra sweep, rejected on a single run",
        "{f}(...) 是 Hydra 的 sweep 写法，单次运行不接受",
    ),
    (
        r"(?P<f>\w+)\(a,b,\.\.\.\) is a Hydra sweep, rejected on a single run",
        "{f}(a,b,...) 是 Hydra 的 sweep 写法，单次运行不接受",
    ),
    (r"(?P<f>\w+)\(\.\.\.\) takes one value", "{f}(...) 只接受一个值"),
    (r"(?P<f>\w+)\(\) needs a value", "{f}() 需要一个值"),
    (r"(?P<f>\w+)\(\.\.\.\): (?P<e>.+)", "{f}(...)：{e|hydra_reason}"),
    (r"unknown Hydra function (?P<f>.+)", "未知的 Hydra 函数 {f}"),
    (r"cannot cast null to str", "无法把 null 转换为 str"),
    (r"cannot cast (?P<v>.+) to bool", "无法把 {v} 转换为 bool"),
    (r"positional argument follows keyword argument", "位置参数出现在关键字参数之后"),
    (r"unbalanced brackets: missing (?P<s>.+)", "括号不配对：缺少 {s}"),
    (r"expected (?P<what>.+), found (?P<f>.+)", "这里应为 {what|expected}，实际是 {f}"),
    (r"unexpected (?P<t>.+)", "意外的 {t}"),
    (r"value nested too deeply", "值的嵌套太深"),
    (r"value too long \((?P<n>\d+) characters\)", "值太长（{n} 个字符）"),
    (r"Hydra cannot read the character (?P<c>.+) at position (?P<p>\d+)", "Hydra 无法读取第 {p} 个位置上的字符 {c}"),
]

# The first words of every reason above: where "key=value: reason" splits when the value holds ": " too.
_REASON_START = (
    r"(?:a,b is|\w+\((?:\.\.\.|a,b,\.\.\.)?\)|unknown Hydra|cannot cast|positional|unbalanced|expected|unexpected|"
    r"value nested|value too long|Hydra cannot)"
)

PATTERNS: list[tuple[str, str, str]] = [
    (
        "SCRIPT-001",
        (
            r"line (?P<l>\d+): (?P<cause>.+?) ends the command here"
            r"(?P<stray>(?: and passes the text after the backslash to Hydra, which rejects it)?)(?P<lost>(?:; bash runs lines .+)?)"
        ),
        "第 {l} 行：{cause|cut_cause}让命令在这里结束{stray|stray}{lost|lost}",
    ),
    (
        "SCRIPT-002",
        r"line (?P<l>\d+) does not end with a backslash, so the command ends there(?P<lost>(?:; bash runs lines .+)?)",
        "第 {l} 行末尾没有反斜杠，命令在那里就结束了{lost|lost}",
    ),
    (
        "SCRIPT-003",
        r"line (?P<l>\d+): (?P<w>.+?=) has an empty value, which Hydra reads as the empty string \(an unset variable\?\)",
        "第 {l} 行：{w} 的值为空，Hydra 会把它读成空字符串（是不是变量没有设置？）",
    ),
    (
        "SCRIPT-004",
        r"(?P<k>\S+) is set twice: (?P<a>.*) on line (?P<la>\d+) and (?P<b>.*) on line (?P<lb>\d+); Hydra keeps the last one",
        "{k} 被设置了两次：第 {la} 行是 {a}，第 {lb} 行是 {b}；Hydra 保留最后一个",
    ),
    (
        "SCRIPT-005",
        (
            r"line (?P<l>\d+): (?P<w>.+?) adds a key verl (?P<v>\S+) already has, and Hydra stops with 'Could not append to config'; "
            r"write (?P<plain>.+) \(or (?P<pp>\S+) to add or override\)"
        ),
        (
            "第 {l} 行：{w} 添加的是 verl {v} 已有的键，Hydra 会报错 'Could not append to config' 并停止；"
            "请写成 {plain}（或者用 {pp} 来添加或覆盖）"
        ),
    ),
    (
        "SCRIPT-006",
        (
            r"line (?P<l>\d+): (?P<k>\S+) is a new entry under a mapping verl leaves open, and Hydra refuses to override a key that "
            r"is not there \('Could not override'\); write (?P<w>.+)"
        ),
        "第 {l} 行：{k} 是 verl 开放映射下的新条目，而 Hydra 拒绝覆盖不存在的键（'Could not override'）；请写成 {w}",
    ),
    (
        "SCRIPT-006",
        (
            r"line (?P<l>\d+): (?P<k>\S+) is unknown to every released verl, so it belongs to a fork or to the script's own code, "
            r"and Hydra stops at it \('Could not override'\); if the script's own code reads it, write (?P<w>.+), otherwise remove it"
        ),
        (
            "第 {l} 行：{k} 不属于任何已发布的 verl 版本，所以它来自某个 fork 或脚本自己的代码，Hydra 会在这里停止（'Could not override'）；"
            "如果脚本自己的代码读取它，请写成 {w}，否则删除它"
        ),
    ),
    (
        "SCRIPT-007",
        (
            r"line (?P<l>\d+): (?P<w>.+?) adds a key no released verl has under (?P<s>\S+), which verl builds into its config class; "
            r"it stops at start-up with \"unexpected keyword argument (?P<a>\S+)\" \(a fork's key: run that fork, or remove it\)"
        ),
        (
            "第 {l} 行：{w} 在 {s} 下添加了任何已发布 verl 版本都没有的键，而 verl 会把这一节构建成配置类；"
            '启动时会报错 "unexpected keyword argument {a}" 并停止（这是某个 fork 的键：请运行那个 fork，或者删除它）'
        ),
    ),
    (
        "SCRIPT-008",
        r"line (?P<l>\d+): (?P<w>.+?) adds a key no released verl reads; only the script's own code \(or a fork\) can use it",
        "第 {l} 行：{w} 添加了任何已发布 verl 版本都不读取的键；只有脚本自己的代码（或某个 fork）能用到它",
    ),
    (
        "SCRIPT-009",
        (
            r"the script composes its own primary config (?P<n>.+?)(?P<where>(?: from .+?)?) instead of verl's ppo_trainer"
            r"(?P<keys>(?:; \d+ of its overrides .+?)?); the wizard checked the overrides that name verl keys against verl (?P<v>\S+) "
            r"\(`verl-wizard new --from-script` rebuilds the run on verl's own config\)"
        ),
        (
            "脚本使用的是它自己的主配置 {n}{where|config_from}，而不是 verl 的 ppo_trainer{keys|own_keys}；"
            "向导只按 verl {v} 检查了指向 verl 键的覆盖项（`verl-wizard new --from-script` 会基于 verl 自己的配置重建这次训练）"
        ),
    ),
    (
        "SCRIPT-010",
        r"line (?P<l>\d+): Hydra rejects the value of (?P<kv>.+?): (?P<why>" + _REASON_START + r".*)",
        "第 {l} 行：Hydra 拒绝了 {kv} 的值：{why|hydra_reason}",
    ),
    (
        "SCRIPT-010",
        r"line (?P<l>\d+): (?P<t>.+) is not a key=value override; Hydra rejects it",
        "第 {l} 行：{t} 不是 key=value 形式的覆盖项，Hydra 会拒绝它",
    ),
    (
        "SCRIPT-011",
        r"line (?P<l>\d+): the (?P<q>.) quote opened here is never closed; bash stops with a syntax error and runs nothing from here on",
        "第 {l} 行：这里开始的 {q} 引号一直没有闭合；bash 会报语法错误并停止，从这里开始什么都不会运行",
    ),
    (
        "SCRIPT-012",
        r"line (?P<l>\d+): another verl command; only the first one is read",
        "第 {l} 行：又一条 verl 命令；只会读取第一条",
    ),
]

FRAGMENTS: dict[str, object] = {
    "cut_cause": CUT_CAUSES,
    "stray": [
        (
            r" and passes the text after the backslash to Hydra, which rejects it",
            "，并把反斜杠后面的文本传给了 Hydra，而 Hydra 会拒绝它",
        )
    ],
    "lost": [
        (
            r"; bash runs lines (?P<a>\d+)-(?P<b>\d+) as separate commands, so verl never gets (?P<keys>.+)",
            "；bash 会把第 {a}-{b} 行当作单独的命令运行，所以 verl 拿不到 {keys|and_more}",
        )
    ],
    "and_more": [(r"(?P<shown>.+) and (?P<n>\d+) more", "{shown} 等（另有 {n} 个）")],
    "config_from": [(r" from (?P<p>.+)", "（来自 {p}）")],
    "own_keys": [
        (
            r"; (?P<n>\d+) of its overrides name keys of that config, not of any released verl \((?P<shown>.+)\)",
            "；其中 {n} 个覆盖项指向那个配置的键，而不是任何已发布 verl 版本的键（{shown|and_more}）",
        )
    ],
    "hydra_reason": HYDRA_REASONS,
    # what the parser expected where it can be wrong (it peeks before taking a name, so never "a function name")
    "expected": [(r"':' in a dict", "字典中的 ':'"), (r"',' between arguments", "参数之间的 ','")],
}
