"""Chinese messages of the launch-script rules (SCRIPT-005..009: the `+` prefix rules and a foreign primary
config) and the reasons Hydra rejects a value (wizard.detect.hydra_values), which the reader's SCRIPT-010
message carries. The shell-level problems the reader finds are catalogue keys (messages_zh_reader.py).
See wizard/i18n/zh_messages.py for the template syntax.
"""

from __future__ import annotations

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

PATTERNS: list[tuple[str, str, str]] = [
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
]

FRAGMENTS: dict[str, object] = {
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
