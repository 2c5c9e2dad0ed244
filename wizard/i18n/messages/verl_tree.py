"""VERL-005..007 (wizard/core/rules/verl/tree.py): `--verl-version X`, verl X's config tree composed by Hydra."""

EN: dict[str, str] = {
    "verl_tree.who": "verl {version}'s config tree (wheel), composed by Hydra, verl not imported",
    # VERL-005: Hydra's and OmegaConf's own words
    "verl_tree.refuses": "{tree}: refuses to compose the config: {error}",
    # VERL-006
    "verl_tree.offline": "no config tree of verl {version} here and none could be downloaded ({detail}): the keys are judged against the embedded verl {target} snapshot instead (run once online, or give VERL_WIZARD_WHEEL_DIR a folder with verl's wheel)",
    # VERL-004 under --verl-version
    "verl_tree.left_out": "{tree}: composed without {arguments:list}: unknown here (give them with --env NAME=VALUE or -- ARGS), so the tree's own values stood in",
    # VERL-007, and the wizard's key findings under another release
    "verl_tree.key_in_release": "{key} is a key of verl {version}'s config tree; the wizard's key rules know verl {target}",
    "verl_tree.then": "{text}: {was}",
    "verl_tree.as_of_target": "{was} (judged by verl {target}'s schema; the run uses verl {version})",
    # the note of a tree that composed the config
    "verl_tree.accepts": "{tree}: composes the config",
}

ZH: dict[str, str] = {
    "verl_tree.who": "verl {version} 的配置树（wheel），由 Hydra 组合，未导入 verl",
    "verl_tree.refuses": "{tree}：拒绝组合这份配置：{error}",
    "verl_tree.offline": "这里没有 verl {version} 的配置树，也无法下载（{detail}）：改为按内置的 verl {target} 快照判断这些键（联网运行一次，或用 VERL_WIZARD_WHEEL_DIR 给出放有 verl wheel 的文件夹）",
    "verl_tree.left_out": "{tree}：组合时没有带上 {arguments:list}：它们的值在这里未知（用 --env NAME=VALUE 或 -- ARGS 给出），所以用了配置树自己的值",
    "verl_tree.key_in_release": "{key} 是 verl {version} 配置树里的键；向导的键规则只认识 verl {target}",
    "verl_tree.then": "{text}：{was}",
    "verl_tree.as_of_target": "{was}（按 verl {target} 的 schema 判断；这次运行用的是 verl {version}）",
    "verl_tree.accepts": "{tree}：可以组合这份配置",
}
