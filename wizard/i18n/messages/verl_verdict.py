"""VERL-* (wizard/core/rules/verl/verdict.py): the verdict of the verl installed for an interpreter, `check --verl`."""

EN: dict[str, str] = {
    "verl.who.installed": "verl {version} of {python}",
    "verl.who.checkout": "verl {version} at {location} (git {describe})",
    "verl.who.folder": "verl {version} at {location}",
    # VERL-001, VERL-002: verl's own words
    "verl.refuses_compose": "{verl} refuses to compose the config: {error}",
    "verl.refuses_check": "{verl} refuses the config in {check}: {error}",
    # VERL-003
    "verl.timeout": "{python} gave no verdict within {seconds} s (importing verl and composing the config); it was stopped",
    "verl.failed": "{python} stopped before verl gave a verdict: {detail}",
    "verl.no_report": "{python} ran but printed no verdict (is it a Python interpreter?): {detail}",
    "verl.garbled": "{python} printed a verdict that is not the wizard's JSON: {detail}",
    "verl.import_failed": "verl cannot be imported by {python}: {error}",
    # VERL-004
    "verl.skipped": "{verl} could not run {check} here: {error} (the run's machine may have it)",
    "verl.left_out": "{verl} was asked without {arguments:list}: unknown here (give them with --env NAME=VALUE or -- ARGS), so verl composed its own values instead",
    "verl.missing": "{verl} has no {checks:list}; it does not run them before its workers start",
    "verl.not_asked.no_folder": "verl was not asked: the script's --config-path {path} is not a folder here (give the folder or check the config.yaml in it)",
    "verl.not_asked.config_path_unknown": "verl was not asked: the script's --config-path {path} depends on {names:list} (give them with --env or -- ARGS)",
    "verl.not_asked.no_command": "verl was not asked: {path} holds no python -m verl.trainer.main_ppo command the wizard could read",
    # the note of a verl that accepts the config
    "verl.accepts": "{verl} accepts it ({checks:comma})",
}

ZH: dict[str, str] = {
    "verl.who.installed": "{python} 的 verl {version}",
    "verl.who.checkout": "{location} 处的 verl {version}（git {describe}）",
    "verl.who.folder": "{location} 处的 verl {version}",
    "verl.refuses_compose": "{verl} 拒绝组合这份配置：{error}",
    "verl.refuses_check": "{verl} 在 {check} 中拒绝这份配置：{error}",
    "verl.timeout": "{python} 在 {seconds} 秒内没有给出结论（导入 verl 并组合配置）；已被终止",
    "verl.failed": "{python} 在 verl 给出结论之前就停止了：{detail}",
    "verl.no_report": "{python} 运行了但没有输出结论（它是 Python 解释器吗？）：{detail}",
    "verl.garbled": "{python} 输出的结论不是向导的 JSON：{detail}",
    "verl.import_failed": "{python} 无法导入 verl：{error}",
    "verl.skipped": "{verl} 无法在这里运行 {check}：{error}（运行所在的机器上可能有它）",
    "verl.left_out": "询问 {verl} 时没有带上 {arguments:list}：它们的值在这里未知（用 --env NAME=VALUE 或 -- ARGS 给出），所以 verl 用了它自己的值",
    "verl.missing": "{verl} 没有 {checks:list}；它在启动 worker 之前不运行这些检查",
    "verl.not_asked.no_folder": "没有询问 verl：脚本的 --config-path {path} 在这里不是一个文件夹（请给出该文件夹，或检查其中的 config.yaml）",
    "verl.not_asked.config_path_unknown": "没有询问 verl：脚本的 --config-path {path} 取决于 {names:list}（用 --env 或 -- ARGS 给出）",
    "verl.not_asked.no_command": "没有询问 verl：{path} 里没有向导能读出的 python -m verl.trainer.main_ppo 命令",
    "verl.accepts": "{verl} 接受这份配置（{checks:comma}）",
}
