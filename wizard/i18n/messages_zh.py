"""Chinese templates of the message keys of messages_en.py (the same keys and parameters)."""

MESSAGES: dict[str, str] = {
    "count.errors": "{n} 个错误",
    "count.warnings": "{n} 个警告",
    "count.notes": "{n} 条提示",
    # issue 19: what a node offers the run (DEPLOY-001, DEPLOY-005, DEPLOY-015)
    "deploy.visible_count": (
        "{setting} 只露出 {count} 个 GPU，而这次运行在本机需要 {need} 个（trainer.n_gpus_per_node）："
        "verl 自己启动的 Ray 实例按这个掩码取 GPU，会在它的 GPU 检查处停下"
    ),
    "deploy.visible_fix": "使用掩码中的 {count} 个 GPU",
    "deploy.cpus_tq_node": (
        "{where} 有 {cpus} 个 CPU：verl 的 bundle 占用 {bundles} 个，verl {version} 的 TransferQueue 还把它 "
        "{units} 个存储单元中的 {share} 个固定在这里（每个 1 个 CPU，轮流分配到 {nodes} 个 Ray 节点）；"
        "放不下的会一直等待，训练永远不会开始"
    ),
    "deploy.cpus_tq_total": (
        "verl 每个 GPU {per} 个 CPU 的 bundle 之外只剩 {spare} 个 CPU；verl {version} 的 TransferQueue 要占用 {held} 个"
        "（{units} 个存储单元和一个控制器），还需要再空出 {free} 个来放置 TaskRunner 和 rollout 服务：运行会一直等下去"
    ),
    "deploy.cpus_local": (
        "{setting}={cpus}：verl {version} 自己启动的 Ray 实例为 {gpus} 个 GPU 需要 {need} 个 CPU"
        "（每个 GPU {per} 个、TransferQueue 的 {units} 个存储单元及其控制器，再加 1 个空闲的用来放置 actor）；"
        "少于这个数时它会在训练开始前一直等待"
    ),
    "deploy.cpus_local_fix": "给 verl 的 Ray 实例 {need} 个 CPU",
    "deploy.pod_paths_unmounted": (
        "{paths:list} 是本地路径，而 pod 中没有挂载任何卷（deploy.data_volume 未设置）：verl 在那里打不开它们"
    ),
    "deploy.pod_paths_outside": "{paths:list} 不在 pod 挂载的目录（{mounts:list}）之下：verl 在那里打不开它们",
    "deploy.pod_paths_fix_mount": "把数据卷挂载到 {mount}",
    "deploy.pod_paths_fix_pvc": "把 PersistentVolumeClaim verl-data 挂载到 {mount}（请先创建它）",
}
