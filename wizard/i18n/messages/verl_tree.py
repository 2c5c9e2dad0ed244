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
    "verl_tree.added_in_release": "{key} is not in verl {version}'s config tree, so the + adds it there as it should; verl {target} has the key",
    "verl_tree.global_micro_in_release": "verl {version}'s workers divide the global {key} by the GPUs and use it per GPU (up to verl 0.7)",
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
    "verl_tree.added_in_release": "{key} 不在 verl {version} 的配置树里，所以用 + 添加它在那里是对的；verl {target} 有这个键",
    "verl_tree.global_micro_in_release": "verl {version} 的 worker 会把全局的 {key} 除以 GPU 数，当作每个 GPU 的大小使用（verl 0.7 及以前）",
    "verl_tree.then": "{text}：{was}",
    "verl_tree.as_of_target": "{was}（按 verl {target} 的 schema 判断；这次运行用的是 verl {version}）",
    "verl_tree.accepts": "{tree}：可以组合这份配置",
}
