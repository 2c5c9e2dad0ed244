"""Chinese messages of the data rules: DATA-*, and BATCH-013 and ROLE-005 as they read the rows.
See wizard/i18n/zh_messages.py for the template syntax.

Most of a data message names the file and the rows; what is wrong with a chat column or a pair comes
from the rule's own tables (wizard.core.rules.data.CHAT_PROBLEMS, PAIR_PROBLEMS), said here by problem
name so that a new problem without a Chinese entry fails tests/test_i18n_messages.py.
"""

from __future__ import annotations

import re

# problem -> (what is wrong, what to do), in the order of wizard.core.rules.data.CHAT_PROBLEMS
CHAT_PROBLEMS_ZH = {
    "plain_string": (
        "是普通字符串，不是对话列表",
        (
            "verl 的对话模板会逐个字符地遍历它；请写成 [{'role': 'user', 'content': ...}]"
            "（`verl-wizard data convert` 可以完成转换）"
        ),
    ),
    "missing": ("为空（null）", "每一行都需要有消息"),
    "not_list": ("既不是对话列表也不是字符串", "请写成 [{'role': 'user', 'content': ...}]"),
    "empty_list": ("是空列表", "每一行至少需要一条 user 消息"),
    "bad_message": ("含有不是 {role, content} 消息的元素", "每条消息都需要 role 和 content"),
    "sharegpt": (
        "含有 ShareGPT 风格的 {from, value} 消息",
        "请改成 {role, content}（human -> user，gpt -> assistant）",
    ),
    "empty_content": ("有 content 为空的 user 或 assistant 消息", "请补全或删除这些行"),
    "no_user": ("没有 user 消息", "对话模板至少需要一轮 user 消息"),
    "no_assistant": ("没有 assistant 消息", "SFT 从 assistant 轮次中学习；没有 assistant 消息的行什么也学不到"),
}

# problem -> what a row lacks, as wizard.core.rules.data.PAIR_PROBLEMS
PAIR_PROBLEMS_ZH = {
    "no_prompt": "没有 prompt",
    "no_chosen": "没有 chosen 回复",
    "no_rejected": "没有 rejected 回复",
    "empty_prompt": "prompt 为空",
    "empty_chosen": "chosen 回复为空",
    "empty_rejected": "rejected 回复为空",
}

# Why a data file cannot be read (wizard.detect.data and its readers), said after "path:".
FILE_NOTES = [
    (
        r"(?P<n>.+) \(use --mode cluster if the file lives on the cluster\)",
        "{n|file_note}（如果文件在集群上，请用 --mode cluster）",
    ),
    (r"no such file on this machine", "本机上没有这个文件"),
    (
        r"is a folder; give the \.parquet/\.json/\.jsonl files themselves",
        "是一个文件夹；请给出 .parquet/.json/.jsonl 文件本身",
    ),
    (
        r"(?P<e>.+): not \.parquet, \.json or \.jsonl; verl picks its reader by the file name and refuses others",
        "{e|ending}：不是 .parquet、.json 或 .jsonl；verl 按文件名选择读取方式，其他格式一律拒绝",
    ),
    (
        r"not a \.parquet, \.json or \.jsonl file; verl picks its reader by the file name and refuses others",
        "不是 .parquet、.json 或 .jsonl 文件；verl 按文件名选择读取方式，其他格式一律拒绝",
    ),
    # issue 21: what the bounded reader refuses (wizard.detect.input_files, wizard.detect.data_json)
    (r"(?P<k>a named pipe|a character device|a socket), not a regular file", "{k|file_kind}，不是普通文件"),
    (
        r"(?P<w>the row starting at line \d+|a row near byte \d+) nests too deeply to read \(thousands of levels\); "
        r"no prompt is shaped like that",
        "{w|row_at}嵌套太深，无法读取（成千上万层）；没有哪个 prompt 是这种结构",
    ),
    (
        r"(?P<w>the row starting at line \d+|a row near byte \d+) holds a number too long to read "
        r"\(over 4,300 digits\); no prompt or answer field is like that",
        "{w|row_at}含有一个太长而无法读取的数字（超过 4300 位）；没有哪个 prompt 或答案字段是这样的",
    ),
    (r"cannot read \((?P<e>.+)\)", "无法读取（{e}）"),
    (r"could not be read \((?P<e>.+)\)", "无法读取（{e}）"),
    (r"read failed after (?P<n>\d+) rows \((?P<e>.+)\)", "读了 {n} 行之后读取失败（{e}）"),
    (r"reading parquet needs pyarrow: pip install pyarrow", "读取 parquet 需要 pyarrow：pip install pyarrow"),
    (
        r"not a readable parquet file, truncated or corrupt \((?P<e>.+)\)",
        "不是可读的 parquet 文件，可能被截断或已损坏（{e}）",
    ),
    (r"parquet data unreadable after (?P<n>\d+) rows \((?P<e>.+)\)", "读了 {n} 行之后 parquet 数据无法读取（{e}）"),
    (
        r"not UTF-8 text \(invalid byte at offset (?P<o>\d+)\); save it as UTF-8",
        "不是 UTF-8 文本（偏移 {o} 处有无效字节）；请另存为 UTF-8",
    ),
    (r"a row larger than (?P<m>\d+) MiB near line (?P<l>\d+)", "第 {l} 行附近有一行超过 {m} MiB"),
    (
        r"JSON syntax error in the row starting at line (?P<l>\d+): (?P<e>.+)",
        "从第 {l} 行开始的那一行有 JSON 语法错误：{e}",
    ),
    (r"JSON syntax error in the line at byte (?P<b>\d+): (?P<e>.+)", "从字节 {b} 开始的那一行有 JSON 语法错误：{e}"),
    (
        r"JSON syntax error at line (?P<l>\d+): expected ',' or '\]' after row (?P<r>\d+)",
        "第 {l} 行有 JSON 语法错误：第 {r} 行之后应为 ',' 或 ']'",
    ),
    (r"empty file; verl needs at least one row", "空文件；verl 至少需要一行数据"),
    (r"only blank space; verl needs at least one row", "只有空白字符；verl 至少需要一行数据"),
    (r"row (?P<i>\d+) is a JSON (?P<t>\S+), not an object of columns", "第 {i} 行是 JSON {t}，而不是由各列组成的对象"),
    (
        r"starts with (?P<c>.+): not JSON rows \(an array of objects or one object per line\)",
        "以 {c} 开头：不是 JSON 数据行（应为对象数组，或每行一个对象）",
    ),
    (
        r"JSON array not closed: the file ends after (?P<n>\d+) rows \(truncated\?\)",
        "JSON 数组没有闭合：文件在 {n} 行之后就结束了（被截断了？）",
    ),
    (
        r"a single JSON object, not rows(?P<hint>.*): write one object per line \(jsonl\) or an array of objects",
        "只有一个 JSON 对象，而不是数据行{hint|wrapped}：请每行写一个对象（jsonl），或写成对象数组",
    ),
    (
        r"line (?P<l>\d+): expected a JSON object per line, found (?P<c>.+)",
        "第 {l} 行：每行应为一个 JSON 对象，实际是 {c}",
    ),
]

_ROWS = r"(?P<scope>\d+ of .+?) \(first: (?P<first>.+?)\)"

PATTERNS: list[tuple[str, str, str]] = [
    ("DATA-001", r"(?P<k>\S+): (?P<p>.+?): (?P<note>.+)", "{k}：{p}：{note|file_note}"),
    (
        "DATA-002",
        r"(?P<p>.+?): no column (?P<c>.+?) \(data\.prompt_key\); its columns are (?P<cols>[^;]*)(?P<hint>(?:; .+)?)",
        "{p}：没有列 {c}（data.prompt_key）；它的列为 {cols|columns}{hint|prompt_hint}",
    ),
    (
        "DATA-003",
        r"(?P<p>.+?): (?P<c>'.*?'|\".*?\") (?P<what>.+?) in " + _ROWS + r"; (?P<advice>.+)",
        "{p}：{c} {what|chat_problem}（{scope|scope}，第一处：{first|row}）；{advice|chat_advice}",
    ),
    (
        "DATA-004",
        r"(?P<p>.+?): (?P<what>no reward_model column|no reward_model\.ground_truth) in "
        + _ROWS
        + r"; (?P<scorer>.+?) is called with reward_model\.ground_truth of every row and fails without it",
        (
            "{p}：{what|ground_truth}（{scope|scope}，第一处：{first|row}）；调用{scorer|scorer}时会传入每一行的 reward_model.ground_truth，"
            "缺少它就会失败"
        ),
    ),
    (
        "DATA-005",
        (
            r"(?P<p>.+?): (?P<counted>\d+ of \d+ prompts.*?) are longer than max_prompt_length (?P<L>\d+)"
            r"(?P<refused>(?: \(\d+ refused by the chat template: .*?\))?) \((?P<dist>p50 .+?|none measured); (?P<how>.+)\); "
            r"filter_overlong_prompts drops them(?P<left>.*)"
        ),
        (
            "{p}：{counted|counted}超过 max_prompt_length {L}{refused|refused}（{dist|dist}；{how|length_label}）；"
            "filter_overlong_prompts 会丢弃它们{left|left}"
        ),
    ),
    (
        "DATA-005",
        (
            r"(?P<p>.+?): (?P<counted>\d+ of \d+ prompts.*?) are longer than max_prompt_length (?P<L>\d+)"
            r"(?P<refused>(?: \(\d+ refused by the chat template: .*?\))?) \((?P<dist>p50 .+?|none measured); (?P<how>.+)\); "
            r"with filter_overlong_prompts=false verl (?P<v>\S+) truncates them \(truncation=(?P<t>\S+); its agent loop keeps the last "
            r"tokens with a warning\), so the model sees cut prompts"
        ),
        (
            "{p}：{counted|counted}超过 max_prompt_length {L}{refused|refused}（{dist|dist}；{how|length_label}）；"
            "filter_overlong_prompts=false 时 verl {v} 会截断它们（truncation={t}；它的 agent loop 会保留最后的 token 并给出警告），"
            "模型看到的是被截断的提示"
        ),
    ),
    (
        "DATA-006",
        r"(?P<p>.+?): reward-model pairs need prompt, chosen and rejected columns; missing (?P<m>.+) \(columns: (?P<cols>.*)\)",
        "{p}：奖励模型的偏好对数据需要 prompt、chosen 和 rejected 三列；缺少 {m}（现有的列：{cols|columns}）",
    ),
    (
        "DATA-006",
        r"(?P<p>.+?): chosen equals rejected in " + _ROWS + r": no preference to learn",
        "{p}：chosen 与 rejected 相同（{scope|scope}，第一处：{first|row}）：没有可以学习的偏好",
    ),
    (
        "DATA-006",
        r"(?P<p>.+?): (?P<what>.+?) in " + _ROWS,
        "{p}：{what|pair_problem}（{scope|scope}，第一处：{first|row}）",
    ),
    (
        "DATA-007",
        (
            r"(?P<p>.+?): SFT data needs a (?P<c>.+?) column with a chat list of user and assistant turns; its columns are "
            r"(?P<cols>[^;]*)(?P<hint>(?:; the closest column is .+)?)"
        ),
        "{p}：SFT 数据需要一个 {c} 列，内容是由 user 和 assistant 轮次组成的对话列表；它的列为 {cols|columns}{hint|closest}",
    ),
    (
        "DATA-007",
        r"(?P<p>.+?): (?P<c>'.*?'|\".*?\") (?P<what>.+?) in " + _ROWS + r"; (?P<advice>.+)",
        "{p}：{c} {what|chat_problem}（{scope|scope}，第一处：{first|row}）；{advice|chat_advice}",
    ),
    (
        "DATA-008",
        r"(?P<k>\S+): (?P<p>.+) starts with ~, which verl does not expand",
        "{k}：{p} 以 ~ 开头，而 verl 不会展开 ~",
    ),
    ("DATA-009", r"data files not checked here: (?P<listed>.+)", "这些数据文件没有在本机检查：{listed|not_checked}"),
    (
        "BATCH-013",
        (
            r"the training data has (?P<rows>\d+) (?P<how>.+?) but train_batch_size is (?P<B>\d+): "
            r"(?P<a>\d+) // (?P<b>\d+) = 0 training steps per epoch"
        ),
        "训练数据只有 {rows} {how|rows_how}，而 train_batch_size 为 {B}：{a} // {b} = 0，每个 epoch 的训练步数为 0",
    ),
    (
        "ROLE-005",
        (
            r"(?P<p>.+?): (?P<parts>.+?): no built-in scorer knows it, and there is no reward model or custom reward function "
            r"\(set reward\.custom_reward_function\.path\)"
        ),
        "{p}：{parts|sources}：没有内置的打分器认识它，也没有奖励模型或自定义奖励函数（请设置 reward.custom_reward_function.path）",
    ),
]


def _chat_tables() -> tuple[list, list]:
    from wizard.core.rules.data import CHAT_PROBLEMS

    what = [(re.escape(CHAT_PROBLEMS[k][0]), zh) for k, (zh, _) in CHAT_PROBLEMS_ZH.items()]
    advice = [(re.escape(CHAT_PROBLEMS[k][1]), zh) for k, (_, zh) in CHAT_PROBLEMS_ZH.items()]
    what.append((r"uses unknown role (?P<roles>.+)", "使用了未知的 role：{roles|roles}"))
    advice.append(
        (r"chat templates know system, user, assistant and tool", "对话模板只认识 system、user、assistant 和 tool")
    )
    return what, advice


def _pair_table() -> list:
    from wizard.core.rules.data import PAIR_PROBLEMS

    return [(re.escape(PAIR_PROBLEMS[k]), zh) for k, zh in PAIR_PROBLEMS_ZH.items()]


_WHAT, _ADVICE = _chat_tables()

FRAGMENTS: dict[str, object] = {
    "file_note": FILE_NOTES,
    "ending": [(r"no ending", "没有扩展名")],
    "file_kind": [(r"a named pipe", "命名管道"), (r"a character device", "字符设备"), (r"a socket", "套接字")],
    "row_at": [
        (r"the row starting at line (?P<n>\d+)", "从第 {n} 行开始的那一行"),
        (r"a row near byte (?P<b>\d+)", "第 {b} 字节附近的一行"),
    ],
    "wrapped": [
        (
            r" \(the rows seem to be under (?P<k>.+): write that list itself\)",
            "（数据行似乎在 {k} 之下：请直接写出那个列表）",
        )
    ],
    "columns": [(r"none", "（无）"), (r"", "（无）")],
    "prompt_hint": [
        (
            r"; the closest column (?P<c>.+?) is not a chat list \(convert it with `verl-wizard data convert`\)(?P<rest>.*)",
            "；最接近的列 {c} 不是对话列表（可以用 `verl-wizard data convert` 转换）{rest|prompt_hint}",
        ),
        (
            r"; this looks like SFT data \(a messages column\), which main_ppo does not read",
            "；这看起来是 SFT 数据（有 messages 列），main_ppo 不读取这种数据",
        ),
        (
            r"; this looks like reward-model pairs \(chosen/rejected\), which main_ppo does not read",
            "；这看起来是奖励模型的偏好对数据（chosen/rejected），main_ppo 不读取这种数据",
        ),
    ],
    "closest": [(r"; the closest column is (?P<c>.+)", "；最接近的列是 {c}")],
    "chat_problem": _WHAT,
    "chat_advice": _ADVICE,
    "roles": ("split", r", (?=['\"])", "、", "role"),
    "role": [(r"(?P<r>.+) \(did you mean (?P<s>.+)\?\)", "{r}（是不是想写 {s}？）")],
    "pair_problem": _pair_table(),
    "scope": [
        (r"(?P<n>\d+) of (?P<m>\d+) rows", "{m} 行中有 {n} 行"),
        (r"(?P<n>\d+) of (?P<m>\d+) rows sampled from (?P<t>\S+)", "从 {t} 行中抽样的 {m} 行里有 {n} 行"),
    ],
    "row": [(r"row (?P<i>\d+)", "第 {i} 行"), (r"a sampled row", "某个抽样行")],
    "ground_truth": [
        (r"no reward_model column", "没有 reward_model 列"),
        (r"no reward_model\.ground_truth", "没有 reward_model.ground_truth"),
    ],
    "scorer": [(r"the built-in scorer", "内置打分器"), (r"your custom reward function", "你的自定义奖励函数")],
    "counted": [
        (
            r"(?P<o>\d+) of (?P<m>\d+) prompts(?P<sampled>(?: \(sampled from \S+ rows\))?)(?P<stride>(?: \(every \d+th prompt measured\))?)",
            "{m} 条提示中有 {o} 条{sampled|sampled}{stride|stride}",
        )
    ],
    "sampled": [(r" \(sampled from (?P<t>\S+) rows\)", "（从 {t} 行中抽样）")],
    "stride": [(r" \(every (?P<k>\d+)th prompt measured\)", "（每 {k} 条测量一条）")],
    "refused": [(r" \((?P<n>\d+) refused by the chat template: (?P<e>.*)\)", "（其中 {n} 条被对话模板拒绝：{e}）")],
    "dist": [(r"none measured", "没有测量到长度")],
    "length_label": [
        (
            r"estimated, no tokenizer: ~4 characters or 1 CJK character per token, \+4 per message",
            "估算值，没有 tokenizer：约 4 个字符或 1 个中日韩字符算一个 token，每条消息另加 4 个",
        ),
        (r"tokenizer (?P<src>.+) \(chat template applied\)", "tokenizer {src}（已套用对话模板）"),
        (
            r"tokenizer (?P<src>.+) \(no chat template: contents joined \(verl would fail to apply one\)\)",
            "tokenizer {src}（没有对话模板：直接拼接内容（verl 套用模板时会失败））",
        ),
        (r"estimate", "估算值"),
    ],
    "left": [(r", about (?P<x>\d+) of (?P<t>\d+) rows in the file", "，约占文件中 {t} 行里的 {x} 行")],
    "not_checked": ("split", r"; (?=\S+ \()", "；", "not_checked_file"),
    "not_checked_file": [(r"(?P<p>.+?) \((?P<note>.+)\)", "{p}（{note|not_checked_note}）")],
    "not_checked_note": [
        (
            r"a remote path \((?P<s>\S+)\); verl copies it to local disk at start",
            "远程路径（{s}）；verl 启动时会把它复制到本地磁盘",
        ),
        (
            r"the path holds a variable that is expanded on the machine that runs verl",
            "路径中含有变量，它在运行 verl 的机器上才会展开",
        ),
        (r"--mode cluster \(paths are for the cluster's machines\)", "--mode cluster（路径指的是集群上的机器）"),
        (r"(?P<p>.+) does not exist either", "{p} 也不存在"),
    ],
    "rows_how": [
        (r"rows", "行"),
        (r"rows \(estimated from the bytes read\)", "行（根据已读取的字节估算）"),
        (r"rows left after filter_overlong_prompts", "行（filter_overlong_prompts 过滤之后剩下的）"),
        (
            r"rows left after filter_overlong_prompts \(projected from a sample\)",
            "行（filter_overlong_prompts 过滤之后剩下的，由抽样推算）",
        ),
    ],
    "sources": [
        (r"(?P<a>.+ in \d+ of .+?) and (?P<b>no \S+ in \d+ of .+)", "{a|source}；{b|source}"),
        (r"(?P<a>.+)", "{a|source}"),
    ],
    "source": [
        (r"no (?P<k>\S+) in (?P<scope>\d+ of .+)", "{scope|scope}没有 {k}"),
        (r"(?P<k>\S+) (?P<values>.+) in (?P<scope>\d+ of .+)", "{scope|scope}的 {k} 为 {values}"),
    ],
}
