"""Chinese messages of the deployment rules (DEPLOY-*), including `preflight`'s findings about a live cluster.
See wizard/i18n/zh_messages.py for the template syntax.
"""

from __future__ import annotations

_AUTH_NOWHERE = (
    r"RAY_AUTH_MODE is set nowhere: ray start --head turns token authentication on when a token file exists on the head "
    r"\(~/\.ray/auth_token, left by any earlier local ray\.init\), while workers joining by address never do, and then cannot join; "
    r"export RAY_AUTH_MODE \(and one RAY_AUTH_TOKEN\) before the first srun"
)

PATTERNS: list[tuple[str, str, str]] = [
    (
        "DEPLOY-001",
        (
            r"(?P<s>\w+=.*?) is set for (?P<w>.+); size the run with trainer\.n_gpus_per_node and the GPU request, "
            r"and let Ray assign devices"
        ),
        "{s} 设置在了 {w|places} 上；请用 trainer.n_gpus_per_node 和 GPU 请求量决定规模，让 Ray 自己分配设备",
    ),
    # the address forms, as the rules and `preflight` say them
    (
        "DEPLOY-002",
        r"(?P<v>.+) is not a Jobs API address; ray job submit needs http://HEAD:8265 \(the dashboard port\)",
        "{v} 不是 Jobs API 地址；ray job submit 需要 http://HEAD:8265（dashboard 端口）",
    ),
    (
        "DEPLOY-002",
        (
            r"(?P<v>.+) is the Jobs API \(dashboard\) address; ray\.init and ray start need the GCS address HEAD:6379 "
            r"\(ray\.init fails on http://\)"
        ),
        "{v} 是 Jobs API（dashboard）地址；ray.init 和 ray start 需要 GCS 地址 HEAD:6379（ray.init 遇到 http:// 会失败）",
    ),
    (
        "DEPLOY-002",
        (
            r"(?P<v>.+) is the Jobs API \(dashboard\) address; preflight, ray\.init and ray start need the GCS address HEAD:6379 "
            r"\(ray job submit is the one that takes http://HEAD:8265\)"
        ),
        "{v} 是 Jobs API（dashboard）地址；preflight、ray.init 和 ray start 需要 GCS 地址 HEAD:6379（接受 http://HEAD:8265 的是 ray job submit）",
    ),
    (
        "DEPLOY-002",
        r"(?P<v>.+) is a Ray Client address; verl's driver must run on a cluster node and use the GCS address HEAD:6379",
        "{v} 是 Ray Client 地址；verl 的 driver 必须运行在集群节点上，并使用 GCS 地址 HEAD:6379",
    ),
    (
        "DEPLOY-002",
        r"(?P<v>.+) is a Ray Client address; give the GCS address HEAD:6379 instead",
        "{v} 是 Ray Client 地址；请改为给出 GCS 地址 HEAD:6379",
    ),
    (
        "DEPLOY-002",
        r"(?P<v>.+) is not HOST:PORT \(the GCS address, e\.g\. 10\.0\.0\.1:6379\)",
        "{v} 不是 HOST:PORT 形式（应为 GCS 地址，例如 10.0.0.1:6379）",
    ),
    (
        "DEPLOY-002",
        r"(?P<v>.+) is not HOST:PORT; give the head's GCS address, e\.g\. 10\.0\.0\.1:6379, or auto for a cluster on this machine",
        "{v} 不是 HOST:PORT 形式；请给出 head 的 GCS 地址（例如 10.0.0.1:6379），本机上的集群可以用 auto",
    ),
    (
        "DEPLOY-003",
        r"RAY_DEDUP_LOGS=0 on (?P<n>\d+) nodes \((?P<w>.+)\): every rank's log lines reach the driver",
        "{n} 个节点上设置了 RAY_DEDUP_LOGS=0（{w|places}）：每个 rank 的日志行都会发到 driver",
    ),
    (
        "DEPLOY-004",
        r"k8s-job runs one Pod on one node but the plan needs (?P<n>\d+) nodes x (?P<g>\d+) GPUs; use a KubeRay target for several nodes",
        "k8s-job 只在一个节点上运行一个 Pod，但方案需要 {n} 个节点 x {g} 个 GPU；多节点请使用 KubeRay 目标",
    ),
    (
        "DEPLOY-004",
        (
            r"verl places (?P<n>\d+) group\(s\) of (?P<g>\d+) GPUs, each on one node, and (?P<big>\d+) of the cluster's nodes have "
            r"that many \(GPUs per node: (?P<shape>.+)\)"
        ),
        "verl 要放置 {n} 组、每组 {g} 个 GPU，每组必须在同一个节点上，而集群中只有 {big} 个节点有这么多 GPU（各节点的 GPU 数：{shape}）",
    ),
    (
        "DEPLOY-004",
        r"(?P<src>.+?): (?P<w>.+) gives (?P<g>\d+) GPU\(s\) per node but trainer\.n_gpus_per_node is (?P<n>\d+)",
        "{src}：{w|place} 每个节点提供 {g} 个 GPU，但 trainer.n_gpus_per_node 为 {n}",
    ),
    (
        "DEPLOY-004",
        (
            r"(?P<src>.+?): (?P<have>\d+) GPU node\(s\) but the config needs (?P<need>\d+) \(trainer\.nnodes (?P<nn>\d+) x (?P<g>\d+) GPUs"
            r"(?P<split>(?:, \d+ GPUs with split pools)?)\)"
        ),
        "{src}：有 {have} 个 GPU 节点，但配置需要 {need} 个（trainer.nnodes {nn} x {g} 个 GPU{split|split_pools}）",
    ),
    (
        "DEPLOY-004",
        (
            r"line (?P<l>\d+): (?P<expr>\S+) puts every host name into one array element \(verl issue (?P<i>\d+)\): "
            r"the head step gets them all and no worker starts; write (?P<fix>\S+) or use mapfile"
        ),
        (
            "第 {l} 行：{expr} 会把所有主机名放进数组的同一个元素（verl issue {i}）：head 步骤拿到全部主机名，没有任何 worker 启动；"
            "请写成 {fix}，或者使用 mapfile"
        ),
    ),
    (
        "DEPLOY-004",
        r"no `ray start --head` step: nothing starts the Ray head",
        "没有 `ray start --head` 步骤：没有任何命令启动 Ray head",
    ),
    (
        "DEPLOY-005",
        (
            r"(?P<w>.+) has (?P<c>\S+) CPUs for (?P<g>\d+) GPU\(s\); verl reserves (?P<per>\d+) per GPU \((?P<need>\d+)\) "
            r"and its placement groups never become ready"
        ),
        "{w|place} 有 {c} 个 CPU、{g} 个 GPU；verl 每个 GPU 要预留 {per} 个 CPU（共 {need} 个），它的 placement group 永远无法就绪",
    ),
    (
        "DEPLOY-005",
        (
            r"every CPU is taken by verl's (?P<per>\d+)-CPU-per-GPU bundles; its TaskRunner needs (?P<n>\d+) more somewhere "
            r"and the run waits forever"
        ),
        "所有 CPU 都被 verl 每个 GPU {per} 个 CPU 的 bundle 占满了；它的 TaskRunner 还需要另外 {n} 个 CPU，训练会一直等下去",
    ),
    (
        "DEPLOY-006",
        r"(?P<name>\S+) is written out in (?P<w>.+) \(value not shown\); read it from a Secret or the environment",
        "{name} 的值直接写在了 {w} 中（这里不显示值）；请从 Secret 或环境变量中读取",
    ),
    (
        "DEPLOY-006",
        (
            r"(?P<w>.+) holds a secret value in (?P<src>.+) \(value not shown\); create the Secret with kubectl from your environment "
            r"and keep only its name here"
        ),
        "{w|place} 在 {src} 中含有密钥的值（这里不显示值）；请用 kubectl 从你的环境创建 Secret，这里只保留它的名字",
    ),
    (
        "DEPLOY-007",
        r"(?P<kind>\S+) name (?P<name>.+?): (?P<problem>an? \S+ name must .+)",
        "{kind} 名称 {name}：{problem|name_rule}",
    ),
    (
        "DEPLOY-008",
        (
            r"(?P<k>\S+?)=(?P<v>.+) while the driver joins the (?P<t>\S+) cluster: ray\.init raises "
            r"'When connecting to an existing cluster, num_cpus and num_gpus must not be provided'"
        ),
        "{k}={v}，而 driver 要加入 {t} 集群：ray.init 会报错 'When connecting to an existing cluster, num_cpus and num_gpus must not be provided'",
    ),
    (
        "DEPLOY-009",
        (
            r"(?P<n>\d+) nodes and no NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME: on hosts with several interfaces NCCL and Gloo "
            r"may pick one the other nodes cannot reach"
        ),
        "{n} 个节点，却没有设置 NCCL_SOCKET_IFNAME / GLOO_SOCKET_IFNAME：在有多块网卡的主机上，NCCL 和 Gloo 可能选中其他节点访问不到的那块",
    ),
    (
        "DEPLOY-010",
        (
            r"the entrypoint (?P<e>.+) chains commands; KubeRay splices it unquoted after `ray job submit --`, so what follows ;, && "
            r"or \| runs in the submitter pod, not on the cluster"
        ),
        (
            "entrypoint {e} 串联了多条命令；KubeRay 会把它不加引号地拼接在 `ray job submit --` 之后，"
            "所以 ;、&& 或 | 之后的部分会在提交器 pod 中运行，而不是在集群上"
        ),
    ),
    (
        "DEPLOY-011",
        r"(?P<w>.+) has no memory volume at /dev/shm \(a container gets 64 MiB\): NCCL fails with 'No space left on device'",
        "{w|place} 没有挂载在 /dev/shm 的内存卷（容器默认只有 64 MiB）：NCCL 会报错 'No space left on device' 而失败",
    ),
    (
        "DEPLOY-012",
        (
            r"(?P<names>.+) set in deploy\.env: it reaches what that env reaches, not the way each target starts its head, workers "
            r"and driver; use deploy\.auth_mode \((?P<m>\S+)\)"
        ),
        (
            "{names} 设置在了 deploy.env 中：它只作用于这个 env 到达的地方，而不是按每种目标启动 head、worker 和 driver 的方式生效；"
            "请使用 deploy.auth_mode（{m}）"
        ),
    ),
    (
        "DEPLOY-012",
        r"KubeRay configures token authentication for Ray 2\.52 and newer; Ray (?P<v>\S+) ignores it",
        "KubeRay 只为 Ray 2.52 及更新的版本配置 token 认证；Ray {v} 会忽略它",
    ),
    (
        "DEPLOY-012",
        _AUTH_NOWHERE,
        (
            "任何地方都没有设置 RAY_AUTH_MODE：head 上存在 token 文件时（~/.ray/auth_token，之前任何一次本地 ray.init 都会留下它），"
            "ray start --head 会开启 token 认证，而按地址加入的 worker 永远不会开启，于是无法加入；"
            "请在第一次 srun 之前 export RAY_AUTH_MODE（以及同一个 RAY_AUTH_TOKEN）"
        ),
    ),
    (
        "DEPLOY-012",
        (
            r"RAY_AUTH_MODE differs \((?P<shown>.+)\); a process whose mode or token differs from the head's cannot join and fails "
            r"after a long wait with only 'Failed to connect'"
        ),
        "RAY_AUTH_MODE 不一致（{shown|modes}）；模式或 token 与 head 不同的进程无法加入，长时间等待之后只报 'Failed to connect' 而失败",
    ),
    (
        "DEPLOY-012",
        r"token authentication is on and no token reaches (?P<w>.+)",
        "token 认证已开启，但 {w|places} 拿不到 token",
    ),
    (
        "DEPLOY-012",
        r"token authentication is on and the token comes from different places: (?P<shown>.+)",
        "token 认证已开启，但 token 来自不同的地方：{shown|token_sources}",
    ),
    (
        "DEPLOY-012",
        (
            r"the cluster at (?P<a>\S+) uses token authentication and this driver does not \(RAY_AUTH_MODE is (?P<m>\S+)\): "
            r"export RAY_AUTH_MODE=token and RAY_AUTH_TOKEN=<the head's token> \(`ray get-auth-token` on the head\), "
            r"the same way on every node and for verl's driver"
        ),
        (
            "{a} 上的集群使用 token 认证，而这个 driver 没有（RAY_AUTH_MODE：{m|mode}）：请 export RAY_AUTH_MODE=token 和 "
            "RAY_AUTH_TOKEN=<head 的 token>（在 head 上运行 `ray get-auth-token`），每个节点和 verl 的 driver 都要同样设置"
        ),
    ),
    (
        "DEPLOY-012",
        (
            r"the cluster at (?P<a>\S+) refused this driver's token: RAY_AUTH_TOKEN \(or RAY_AUTH_TOKEN_PATH, ~/\.ray/auth_token\) "
            r"differs from the head's; use the head's token \(`ray get-auth-token` on the head\)"
        ),
        (
            "{a} 上的集群拒绝了这个 driver 的 token：RAY_AUTH_TOKEN（或 RAY_AUTH_TOKEN_PATH、~/.ray/auth_token）与 head 的不同；"
            "请使用 head 的 token（在 head 上运行 `ray get-auth-token`）"
        ),
    ),
    (
        "DEPLOY-013",
        r"no Ray cluster runs on this machine \(auto found no (?P<f>\S+)\); start one with `ray start --head` or pass --address HEAD:6379",
        "本机上没有运行中的 Ray 集群（auto 没有找到 {f}）；请用 `ray start --head` 启动一个，或者传入 --address HEAD:6379",
    ),
    (
        "DEPLOY-013",
        (
            r"nothing answers at (?P<a>\S+) \((?P<why>.+)\); start the head with `ray start --head --port=(?P<p>\d+)` or pass "
            r"--address HEAD:PORT of a running cluster's GCS"
        ),
        "{a} 没有任何应答（{why|no_answer}）；请用 `ray start --head --port={p}` 启动 head，或者用 --address HEAD:PORT 指定运行中集群的 GCS",
    ),
    (
        "DEPLOY-013",
        (
            r"something accepts connections at (?P<a>\S+) but no Ray GCS answered within (?P<t>\S+) s \(is it the dashboard port 8265\? "
            r"preflight needs the GCS port, usually 6379\)(?P<tail>(?:; last output: .*)?)"
        ),
        "{a} 接受了连接，但 {t} 秒内没有 Ray GCS 应答（是不是 dashboard 端口 8265？preflight 需要 GCS 端口，通常是 6379）{tail|last_output}",
    ),
    (
        "DEPLOY-013",
        r"Ray is not installed in this Python \((?P<e>.+)\); pip install 'verl-wizard\[ray\]' \(the same Ray version as the cluster\)",
        "当前 Python 中没有安装 Ray（{e}）；请 pip install 'verl-wizard[ray]'（与集群相同的 Ray 版本）",
    ),
    ("DEPLOY-013", r"Ray at (?P<a>\S+) answered with an error: (?P<e>.*)", "{a} 上的 Ray 返回了错误：{e}"),
    (
        "DEPLOY-014",
        r"image (?P<i>.+) is not a valid image reference \(registry/name:tag, no spaces or quotes\)",
        "镜像 {i} 不是有效的镜像引用（应为 registry/name:tag，不能有空格或引号）",
    ),
]

FRAGMENTS: dict[str, object] = {
    # where a setting is, as wizard.core.rules.deploy_facts and the manifest readers name the Ray processes
    "places": ("split", r", ", "、", "place"),
    "place": [
        (r"this shell \(the driver\)", "当前 shell（driver）"),
        (r"submitter pod \(ray job submit\)", "提交器 pod（ray job submit）"),
        (r"driver \(kubectl exec on the head\)", "driver（在 head 上 kubectl exec）"),
        (r"driver step \(python -m verl\.\.\.\)", "driver 步骤（python -m verl...）"),
        (r"the job \(runtime_env\)", "作业（runtime_env）"),
        (r"ray start \(workers\)(?P<line>(?: \(line \d+\))?)", "ray start（worker）{line|line}"),
        (r"ray start --head(?P<line>(?: \(line \d+\))?)", "ray start --head{line|line}"),
        (r"node (?P<ip>\S+)", "节点 {ip}"),
        (r"(?P<kind>\S+) container(?P<name>(?: .+)?)", "{kind} 容器{name}"),
    ],
    "line": [(r" \(line (?P<n>\d+)\)", "（第 {n} 行）")],
    "split_pools": [(r", (?P<t>\d+) GPUs with split pools", "，加上拆分的资源池共 {t} 个 GPU")],
    "name_rule": [
        (
            r"an? (?P<k>\S+) name must be lowercase letters, digits and '-', start with a letter, at most (?P<n>\d+) characters",
            "{k} 名称只能包含小写字母、数字和 '-'，必须以字母开头，最多 {n} 个字符",
        ),
        (
            r"an? (?P<k>\S+) name must be a DNS subdomain \(lowercase letters, digits, '-' and '\.'\)",
            "{k} 名称必须是 DNS 子域名（小写字母、数字、'-' 和 '.'）",
        ),
        (
            r"an? (?P<k>\S+) name must be a DNS label: lowercase letters, digits and '-', at most (?P<n>\d+) characters",
            "{k} 名称必须是 DNS label：只能包含小写字母、数字和 '-'，最多 {n} 个字符",
        ),
    ],
    "modes": ("split", r"; ", "；", "party_mode"),
    "party_mode": [(r"(?P<w>.+): (?P<m>\S+)", "{w|place}：{m|mode}")],
    "mode": [(r"unset", "未设置")],
    "token_sources": ("split", r"; ", "；", "party_token"),
    "party_token": [(r"(?P<w>.+?): (?P<s>.+)", "{w|place}：{s|token_source}")],
    "token_source": [
        (r"job environment", "作业环境"),
        (
            r"the submitting shell \(RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/\.ray/auth_token\)",
            "提交作业的 shell（RAY_AUTH_TOKEN、RAY_AUTH_TOKEN_PATH 或 ~/.ray/auth_token）",
        ),
        (r"made by the local Ray instance", "由本地 Ray 实例生成"),
        (r"written in the manifest", "直接写在 manifest 中"),
        (r"written in the script", "直接写在脚本中"),
        (r"secret:\(made by KubeRay\)", "secret:（由 KubeRay 生成）"),
        (r"file:(?P<p>.+)", "文件 {p}"),
        (r"~/\.ray/auth_token of each node", "每个节点上的 ~/.ray/auth_token"),
    ],
    "no_answer": [
        (r"the host name (?P<h>\S+) does not resolve", "主机名 {h} 无法解析"),
        (r"no answer within (?P<t>\S+) s", "{t} 秒内没有应答"),
        (r"connection refused", "连接被拒绝"),
    ],
    "last_output": [(r"; last output: (?P<o>.*)", "；最后的输出：{o}")],
}
