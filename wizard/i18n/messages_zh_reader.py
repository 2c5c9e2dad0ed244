"""Chinese templates of issue 16's messages (the keys and parameters of messages_en_reader.py)."""

MESSAGES: dict[str, str] = {
    # issue 16: the script as a file
    "script.not_utf8": "{source} 不是 shell 脚本：它不是 UTF-8 文本",
    "script.too_large": "{source} 作为启动脚本太大了（{chars} 个字符，上限是 {limit}）",
    "script.binary": "{source} 不是 shell 脚本：里面是二进制数据",
    "script.expands_too_much": "{source}：它的变量展开后超过 4194304 个字符；这不是向导能读的启动脚本",
    "script.too_complex": "{source}：脚本执行的语句比启动脚本多得多（死循环或递归太深？）；向导无法跟踪它",
    "script.no_verl_command": "{source}：没有找到 `python -m verl.trainer.main_ppo` 命令；请给出启动训练的脚本或它的 config.yaml",
    # issue 16: shell-level problems of the verl command
    "script.another_command": "第 {line} 行：又一条 verl 命令；只会读取第一条",
    "script.not_an_override": "第 {line} 行：{text!r} 不是 key=value 形式的覆盖项，Hydra 会拒绝它",
    "script.override_unknown": "第 {line} 行：{text} 的键名来自向导无法知道的值；这个覆盖项没有检查",
    "script.bad_value": "第 {line} 行：Hydra 拒绝了 {name}={value} 的值：{reason}",
    "script.reason": "{zh}",
    "script.empty_value": "第 {line} 行：{name}= 的值为空，Hydra 会把它读成空字符串（是不是变量没有设置？）",
    "script.unclosed_quote": "第 {line} 行：这里开始的 {quote} 引号一直没有闭合；bash 会报语法错误并停止，从这里开始什么都不会运行",
    "script.duplicate_key": "{name} 被设置了两次：第 {old_line} 行是 {old!r}，第 {new_line} 行是 {new!r}；Hydra 保留最后一个",
    "script.broken_continuation": "第 {line} 行：{cause}让命令在这里结束{stray}{lost}",
    "script.missing_backslash": "第 {line} 行末尾没有反斜杠，命令在那里就结束了{lost}",
    "script.cut.space": "续行反斜杠后面的空白字符",
    "script.cut.crlf": "续行反斜杠后面的 Windows 换行符（CRLF）",
    "script.cut.comment": "续行反斜杠后面的 # 注释",
    "script.cut.comment_backslash": "吞掉了续行反斜杠的 # 注释",
    "script.cut.comment_line": "续行命令中间的注释行",
    "script.cut.blank_line": "续行命令中间的空行",
    "script.cut.stray": "，并把反斜杠后面的文本传给了 Hydra，而 Hydra 会拒绝它",
    "script.lost": "；bash 会把第 {first}-{last} 行当作单独的命令运行，所以 verl 拿不到 {keys:comma}{more}",
    "script.lost_more": " 等（另有 {n} 个）",
    # issue 16: unknown values
    "unknown.env": "脚本里没有设置 ${name}：{keys:list} 的值未知{skipped}；请用 --env {name}=VALUE 给出",
    "unknown.args": "没有给出脚本的参数（{names:comma}）：{keys:list} 的值未知{skipped}；请在 -- 之后给出参数（verl-wizard check SCRIPT -- ARG...）",
    "unknown.command": "{shown} 是向导不会运行的命令的输出：{keys:list} 的值未知{skipped}；请用 --env {via}=VALUE 给出",
    "unknown.command_no_var": "{shown} 是向导不会运行的命令的输出：{keys:list} 的值未知{skipped}",
    "unknown.skipped": "，所以跳过了读取它们的规则（{ids:comma}）",
    "unknown.none_skipped": "（没有规则读取它们）",
    "unknown.passed_on": "脚本把自己的参数原样传给了 verl（{shown}）；这次没有给出参数，所以只检查了脚本里写的覆盖项（在 -- 之后给出参数即可一并检查）",
    "unknown.branch": "verl 命令位于向导无法判断的分支里（取决于 {names:comma}）；按这个分支会执行来检查",
    "unknown.config_path": "--config-path 是 {shown}，向导无法知道它的值；没有读取它指向的配置（请用 --env 给出 {names:comma}）",
    # issue 16: files the script reads
    "script.sourced": "读取了 {files:comma}（由脚本 source）",
    "script.source_missing": "第 {line} 行：脚本 source 了 {path}，但这个文件不存在；它本来会设置的变量都是未知的",
    "script.source_unknown": "第 {line} 行：脚本 source 了 {path}，向导无法知道这个路径；它本来会设置的变量都是未知的",
    "script.exits_early": "第 {line} 行：按读取时的这些值，脚本会在这里停止（exit {status}）；后面的内容是按它继续执行来读的",
    "script.own_config": "脚本使用它自己的主配置 {name!r}；只检查了它在命令行上的覆盖项",
    "script.config_read": "配置来自 {path}",
    "script.config_absent": "--config-path {path} --config-name {name}：那里没有 {name}.yaml；只检查了脚本命令行上的覆盖项",
    "script.config_default_not_read": "{path}：它的 defaults 列表里有 {entry}，向导不读取它；它会添加的键没有检查",
    # issue 16: new --from-script
    "import.unknown_left_out": "{name}={shown} 取决于脚本里没有写明的内容；没有导入：请用 {hints:comma} 给出（或者 --set {name}=...）",
    "import.unknown_typed": "{name}={shown} 取决于脚本没有设置的 shell 变量，而它需要有类型的值；没有导入：请用 --env 或 --set {name}=... 给出",
    "import.read_from_environment": "verl 启动时从环境变量读取（脚本没有设置它们）：{names:comma}",
    # issue 16: Hydra config groups
    "script.group_option_unknown": "第 {line} 行：{group}={option} 不是 verl {version} 中配置组 {group} 的选项（{options:comma}）；Hydra 会报 'Could not find' 并停止",
    "script.group_not_checked": "{group}={option}：向导检查 dp 和 megatron 两种键树；没有检查 {option} 引擎的键",
    # issue 16: topology
    "topology.subset": "{total} 块 GPU 中的 {used} 块组成最好的 TP{tp} 分组（{groups}）；GPU {idle:comma} 会闲置：在这部分 GPU 上运行，请设置 CUDA_VISIBLE_DEVICES={visible} 和 trainer.n_gpus_per_node={used}",
}
