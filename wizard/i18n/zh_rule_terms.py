"""Chinese rule titles and reasons, by rule id: `RULES[id] = (title, why)`, one entry per id of
`wizard.core.rules.catalogue.CATALOGUE` (each declared in English beside its rule, wizard.core.rules.declare;
wizard.i18n.zh_terms says how the terms are written and checked)."""

from __future__ import annotations

RULES: dict[str, tuple[str, str]] = {
    # Roles and models
    "ROLE-001": (
        "未设置 actor 模型路径",
        "verl 会退回到占位路径 ~/models/deepseek-llm-7b-chat 并加载失败；actor（以及作为其副本的参考模型）必须来自真实的 checkpoint。",
    ),
    "ROLE-002": (
        "需要 critic，但未设置其模型路径",
        "GAE（或 critic.enable）会构建价值模型；没有 critic.model.path 时 verl 会加载占位路径，训练在 worker 启动之后才失败。",
    ),
    "ROLE-003": (
        "critic 与奖励模型是同一个 checkpoint",
        "用奖励模型初始化价值模型会让价值估计与奖励估计相互耦合；通常的做法是用 actor 的 checkpoint。",
    ),
    "ROLE-004": (
        "奖励模型不是单标签的序列分类模型",
        "没有自定义奖励函数时，verl 把奖励模型当作判别式模型来打分，对每条序列读取一个标量；因果语言模型（causal LM）或多标签分类头给出的奖励没有意义（判断依据读自它的 config.json，或内置的模型目录）。",
    ),
    "ROLE-005": (
        "没有奖励来源",
        "既没有奖励模型也没有自定义奖励函数时，verl 内置的打分器按 data_source 选择打分函数，遇到不认识的数据来源会抛出 NotImplementedError。",
    ),
    "ROLE-006": (
        "构建了 critic，但优势估计器用不到它",
        "只有 gae 会读取 critic 的价值；换成其他估计器时，critic 白白占用 GPU 显存和时间。",
    ),
    "ROLE-007": (
        "verl 无法打开的模型路径",
        "verl 不会展开 ~（会把这个路径当作 Hugging Face 仓库 id），本地路径必须在加载它的每台机器上都存在。",
    ),
    "ROLE-008": (
        "actor 与 critic 的 tokenizer 不一致，或奖励模型没有 tokenizer",
        "critic 读取的是 actor 的 token id，换一个词表后这些 id 对应的是别的 token（甚至超出 embedding 的范围）；verl 0.9 会用奖励模型自己的 tokenizer 为它重新分词，所以奖励模型的目录里必须带有 tokenizer。",
    ),
    "ROLE-009": (
        "参考模型是 actor 初始权重的冻结副本",
        "verl 从 actor_rollout_ref.model.path 单独加载一个冻结的参考模型（使用 LoRA 时：关闭适配器的基座模型）；它会占用显存，但不需要单独设置路径。",
    ),
    "ROLE-010": (
        "DAPO 分组过滤与共置的奖励模型同时使用",
        "奖励模型与训练共用 GPU 时，verl 拒绝启用 algorithm.filter_groups：请给奖励模型分配独立的资源池。",
    ),
    "ROLE-011": (
        "critic 从奖励模型的 checkpoint 初始化",
        "verl 把 critic 当作 token 分类模型加载，于是奖励模型的打分头成了初始的价值头：价值估计与奖励估计从一开始就相互耦合（这是 ROLE-003 的姊妹规则，针对的是并非当前所配置的奖励模型）；通常的做法是从 actor 的 checkpoint 开始。",
    ),
    # Batch arithmetic
    "BATCH-001": (
        "每步的回复数无法在 GPU 间均分",
        "verl 在启动时断言 train_batch_size × rollout.n 能被最小批整除（FSDP 下为 GPU 数，Megatron 下为 dp × micro）。",
    ),
    "BATCH-002": (
        "mini-batch 大于训练批",
        "一次优化器更新取用的提示数不能多于一个训练步产生的提示数；未开启动态批大小时 verl 直接拒绝，开启时则静默填充。",
    ),
    "BATCH-003": (
        "训练批不是 mini-batch 的整数倍",
        "verl 会用虚拟行把批填充到 mini-batch 的整数倍：算力浪费在填充上，rollout 与更新的步调也会错开。",
    ),
    "BATCH-004": (
        "mini-batch 的回复数无法在数据并行 rank 间均分",
        "每次更新都会断言 ppo_mini_batch_size × n 能被数据并行规模整除；它会在第一步、也就是模型加载完之后才失败。",
    ),
    "BATCH-005": (
        "每卡 mini-batch 不是 micro-batch 的整数倍",
        "micro-batch 必须恰好铺满每个 GPU 分到的那份 mini-batch（以及 log-prob 批）；verl 在第一步时对此做断言。",
    ),
    "BATCH-006": (
        "micro-batch 大小设置了两次，或者没有设置",
        "不使用动态批大小时，verl 要求每个角色恰好设置一个 micro-batch 大小，而且 0.9 版的 worker 需要每卡（per-GPU）形式。",
    ),
    "BATCH-007": (
        "token 预算小于一条序列",
        "使用动态批大小时，一个 micro-batch 必须能装下最长的序列：预算 × sp 至少要等于 max_prompt_length + max_response_length。",
    ),
    "BATCH-008": (
        "分组估计器下每个提示只有一条回复",
        "GRPO 类估计器比较同一提示的多条回复；n = 1 时 verl 把每组的均值取为 0（标准差取为 1），优势就是原始奖励，没有基线：更新的噪声比该估计器应有的大（不使用任务奖励的蒸馏训练不受影响）。",
    ),
    "BATCH-009": (
        "GAE 下每个提示采样多条回复",
        "带 critic 的 PPO 通常每个提示只采样一条回复；n > 1 会成倍增加 rollout 开销，却用不上这份开销换来的分组基线。",
    ),
    "BATCH-010": (
        "critic 的批次链条无法整除",
        "critic 在同一批回复上用自己的 mini/micro 大小做更新，同样的整除要求也适用于它的数据并行 rank。",
    ),
    "BATCH-011": (
        "每次 rollout 的优化器步数不在 1..16 之间",
        "在同一批 rollout 上更新太多次会让策略过时（off-policy）；mini-batch 过大则浪费 rollout。",
    ),
    "BATCH-012": (
        "separate_async：训练批 != parameter_sync_step × mini-batch",
        "separate-async 训练器每隔 parameter_sync_step 个 mini-batch 同步一次权重，并断言它们加起来正好是一个训练批。",
    ),
    "BATCH-013": (
        "数据行数少于一个训练批",
        "verl 的 dataloader 会丢弃最后一个不完整的批，因此每个 epoch 的步数 = 行数 // train_batch_size：行数（经 filter_overlong_prompts 过滤之后）更少时不会训练任何一步。",
    ),
    "BATCH-014": (
        "rollout 的 log-prob 分批方式与 actor 不一致",
        "verl 的 worker 会断言 rollout.log_prob_use_dynamic_bsz 等于 actor.use_dynamic_bsz。",
    ),
    "BATCH-015": (
        "Pass@k 估计器下每个提示只有一条回复",
        "grpo_passk 把每个提示组内最好回复的优势设为 r_max - r_second_max；组内回复少于 2 条时，verl 在第一步就抛出 ValueError。",
    ),
    # Placement
    "PLACE-001": (
        "GPU 数不能被 rollout 张量并行度整除",
        "每个推理副本占用 TP 个 GPU；verl 断言 rollout 的 world size 是 TP 的整数倍。",
    ),
    "PLACE-002": (
        "rollout 张量并行组超出单个节点，且不由整节点组成",
        "verl 的 rollout 副本在启动时断言：比一个节点大的副本必须由整节点组成（其 world size 是 n_gpus_per_node 的整数倍）。",
    ),
    "PLACE-003": ("张量并行组跨越了弱链路", "经 NODE/SYS 路径传输的 TP 流量比经 NVLink 或同一个 PCIe 交换机慢好几倍。"),
    "PLACE-004": (
        "Megatron 并行规模与 GPU 不匹配",
        "verl 断言 GPU 数能被 TP·PP·CP 整除；Megatron 的 TP 组还必须位于单个节点之内。",
    ),
    "PLACE-005": (
        "注意力头数不能被 TP 或 SP 整除",
        "vLLM/SGLang 把注意力头切分到 rollout 的 TP 上，无法均分时拒绝启动；KV 头数必须能整除 TP，或能被 TP 整除。verl 的 Ulysses 对 sp 做同样的断言（sp 是 KV 头数的倍数时会复制 KV 头），Megatron 对它的 TP 也是如此。",
    ),
    "PLACE-006": (
        "启用了序列并行却没有开启 remove-padding",
        "verl 的 Ulysses 实现基于打包（packed）序列，没有设置 use_remove_padding 时拒绝 sp > 1。",
    ),
    "PLACE-007": (
        "方案需要的 GPU 多于目标环境拥有的 GPU",
        "verl 会检查 Ray 集群能否满足所有资源池之和，不够时报错 'Total available GPUs X is less than total desired GPUs Y' 并停止。",
    ),
    "PLACE-008": (
        "估算的单卡显存超出 GPU 容量（超过 90% 时警告）",
        "训练会在排队和模型加载之后因 CUDA out of memory 而停止（或者 vLLM 拒绝启动）；各阶段的各部分显存根据模型的各项数值估算，再与拓扑中的 GPU 做比较。",
    ),
    "PLACE-009": (
        "verl 不接受的资源池拆分方式",
        "独立的 rollout 资源池和奖励资源池大小必须为正，separate_async 需要非 naive 的权重同步方式，而 hybrid_engine=false 只能与 separate_async 一起使用。",
    ),
    "PLACE-010": (
        "n_gpus_per_node 与检测到的 GPU 数不一致",
        "按与本机不同的 GPU 数做规划，要么让部分 GPU 闲置，要么申请并不存在的 GPU。",
    ),
    "PLACE-011": (
        "多节点方案中 GPU 附近没有 RDMA 网卡",
        "这样节点之间的数据并行梯度只能走普通 TCP，每步耗时将以通信为主。",
    ),
    "PLACE-012": (
        "Ulysses 序列并行度不能整除 GPU 数",
        "数据并行规模为 GPU 数 / sp；无法整除时不存在合法的设备网格（device mesh）。",
    ),
    "PLACE-013": (
        "verl 不接受的 rollout 并行布局",
        "EP > 1 时 verl 断言 rollout 的专家并行度 = TP × DP，而 rollout 流水线并行尚未实现。",
    ),
    "PLACE-014": (
        "rollout 张量并行组跨越多个整节点",
        "verl 可以让一个 rollout 副本跨越多个整节点运行，但跨节点的 TP 组每一层都要经过网络做 all-reduce：生成比节点内 TP 慢得多。",
    ),
    # Data
    "DATA-001": (
        "数据文件缺失、无法读取，或不是 parquet/json/jsonl",
        "verl 按文件扩展名（.parquet、.json、.jsonl）选择读取器，其他格式会报错 'Unsupported file format' 并停止；缺失、被截断或不是 UTF-8 编码的文件会在构建数据集时失败，而那时 worker 已经启动。",
    ),
    "DATA-002": (
        "缺少提示列（data.prompt_key）",
        "verl 从 data.prompt_key 指定的列读取每条提示，数据行中没有这一列时以 KeyError 停止。",
    ),
    "DATA-003": (
        "提示不是由 {role, content} 组成的对话列表",
        "提示必须是由 {role, content} 消息组成的列表。verl 不会拒绝普通字符串：对话模板会逐个字符地遍历它，模型就在乱码上训练；错误的 role、缺少 user 消息或 content 为空，都会让模板出错或产生误导。",
    ),
    "DATA-004": (
        "基于规则的奖励缺少 reward_model.ground_truth",
        "奖励管理器会把每一行的 reward_model.ground_truth 传给打分函数；缺少该字段的行会在训练中途以 KeyError 失败。",
    ),
    "DATA-005": (
        "提示长度超过 max_prompt_length",
        "开启 filter_overlong_prompts 时，verl 在加载数据时丢弃过长的提示（行数变少，甚至一行不剩）；不开启时 verl 0.9 会把它们截断到 max_prompt_length 个 token，模型看到的提示就缺了一部分内容。",
    ),
    "DATA-006": (
        "奖励模型的成对数据中 prompt、chosen、rejected 不齐全",
        "成对的奖励模型数据每一行都需要一个 prompt、一条 chosen 回复和一条 rejected 回复；缺少任何一方或为空，要么报错，要么什么也学不到。",
    ),
    "DATA-007": (
        "SFT 数据缺少由 user 和 assistant 轮次组成的 messages 列表",
        "verl 的多轮 SFT 数据集从 messages 列读取对话列表，并在 assistant 轮次上训练；没有它就没有可学的内容，或者训练直接停止。",
    ),
    "DATA-008": ("以 ~ 开头的数据路径", "verl 不会展开 ~：路径会相对于工作目录解析，结果找不到文件。"),
    "DATA-009": (
        "未在本机检查的数据文件",
        "远程路径（hdfs://、s3:// 等）和含有 shell 变量的路径会在运行 verl 的机器上读取；请在文件所在的机器上运行 `verl-wizard data` 来检查它们。",
    ),
    # Deployment
    "DEPLOY-001": (
        "手动设置了 CUDA_VISIBLE_DEVICES（或 RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES）",
        "Ray 在 ray start 时就确定了节点的 GPU，并自行为每个 worker 设置 CUDA_VISIBLE_DEVICES；在 runtime env、manifest 或集群节点上手动设置的掩码改变不了 Ray 的任何调度（verl 随后报错 'Total available GPUs X is less than total desired GPUs Y' 并停止），而 NOSET 会让所有 worker 挤在同一组设备上。如果是 verl 在单台机器上自己启动 Ray，这个 Ray 会按掩码取 GPU：这时只需要掩码中的 GPU 数等于 trainer.n_gpus_per_node。",
    ),
    "DEPLOY-002": (
        "Ray 地址的格式与用途不符",
        "http://HEAD:8265 是 Jobs API（仅用于 ray job submit）；ray.init 和 ray start 需要 GCS 地址 HEAD:6379（或 auto），RAY_ADDRESS 为 http:// 形式时 ray.init 会失败；ray:// 是 Ray Client，而不是集群上的 driver。",
    ),
    "DEPLOY-003": (
        "多节点目标上设置了 RAY_DEDUP_LOGS=0",
        "关闭去重后，每个 rank 输出的相同日志行都会汇集到 driver：日志风暴会淹没真正要紧的那一行。",
    ),
    "DEPLOY-004": (
        "manifest 中的 GPU 或节点数与配置不一致",
        "verl 向 Ray 申请 trainer.nnodes 个 placement group，每个包含 trainer.n_gpus_per_node 个 GPU 且位于同一节点；manifest 中的数量不同时，要么 GPU 闲置，要么永远在等不会到来的 GPU。",
    ),
    "DEPLOY-005": (
        "每个 GPU 配的 CPU 太少",
        "verl 在打包到单个节点上的 placement group 中为每个 GPU 预留 {CPU: 3, GPU: 1}；verl 0.9.1 的 V1 trainer 会先启动 TransferQueue，它的控制器和存储单元（8 个，轮流固定到每个 Ray 节点上）在整个运行期间各占 1 个 CPU；而没有设置 num_cpus 的 actor（TaskRunner、rollout 服务）只会被放到有空闲 CPU 的地方。逻辑 CPU 更少时总有东西放不下，训练会在没有任何报错的情况下挂起。Ray 的逻辑 CPU 数由 ray start --num-cpus 或 ray_kwargs.ray_init.num_cpus 给出，否则就是节点的 CPU 数（或容器 cgroup 的配额）：Slurm 的 --cpus-per-task 不会设置它。",
    ),
    "DEPLOY-006": (
        "以明文写入的密钥",
        "写进 manifest、脚本或答案文件的令牌和 API 密钥会进入版本控制、kubectl 的输出和 Ray 的作业表；请从 Secret（secretKeyRef）或启动时的环境中读取。",
    ),
    "DEPLOY-007": (
        "无效的 Kubernetes 名称",
        "API server 拒绝不是 DNS 标签的名称；KubeRay 还会拒绝超过 47 个字符的 RayJob 名称和超过 53 个字符的 RayCluster 名称（它会由此派生 pod 和 service 的名称）。",
    ),
    "DEPLOY-008": (
        "加入已有集群时设置了 ray_kwargs.ray_init.num_cpus",
        "ray.init 会报错 'When connecting to an existing cluster, num_cpus and num_gpus must not be provided'；该设置只在 verl 自己启动 Ray 实例时才有用。",
    ),
    "DEPLOY-009": (
        "多节点却没有设置 NCCL/GLOO 网络接口",
        "在有多个网络接口的主机上，NCCL 和 Gloo 可能绑定到其他节点访问不到的接口：第一次集合通信会一直挂起，直到 watchdog 超时（30 分钟）。",
    ),
    "DEPLOY-010": (
        "RayJob 的 entrypoint 串联了多条命令",
        "KubeRay 会把 entrypoint 不加引号地拼进 submitter pod 中的 `ray job submit ... -- <entrypoint>`，因此 ;、&& 或 | 之后的部分会在 submitter pod 里运行，而不是在集群上。",
    ),
    "DEPLOY-011": (
        "没有共享内存卷（/dev/shm）",
        "普通的 Pod 或 Job 只有 64 MiB 的 /dev/shm；NCCL 和数据加载器需要更多，否则会报错 'No space left on device' 而失败（KubeRay 会自行添加这个卷）。",
    ),
    "DEPLOY-012": (
        "head、worker 与 driver 的 Ray 令牌认证不一致",
        "Ray 2.5x 的令牌认证（只要运行 ray start --head 的地方有令牌就会开启）会拒绝 RAY_AUTH_MODE 或令牌与 head 不同的所有进程；driver 或 worker 会反复重试，等很久之后只报一句 'Failed to connect' 而失败。",
    ),
    "DEPLOY-013": (
        "该地址上的 Ray 集群没有响应",
        "该地址上没有服务在监听，或者监听的不是 Ray GCS：对这样的地址调用 ray.init 会阻塞很长时间，然后失败。",
    ),
    "DEPLOY-014": (
        "Kubernetes 无法拉取的镜像引用",
        "含有空格、引号或仓库名中有大写字母的镜像名会被 kubelet 拒绝（InvalidImageName），pod 永远无法启动。",
    ),
    "DEPLOY-015": (
        "pod 看不到的本地路径",
        "Kubernetes 的 pod 只能看到自己的镜像和挂载的卷：位于没有任何卷挂载的本地路径上的数据文件或模型目录在 pod 里并不存在，verl 会在集群启动之后、打开它时失败。",
    ),
    "DATA-010": (
        "没有设置训练数据（data.train_files 为空或仍是 verl 的占位路径）",
        "没有 data.train_files 时，verl 会去读它自己的占位文件 ~/data/rlhf/gsm8k/train.parquet：那不是你的数据，通常也不存在，于是运行会在 worker 启动之后、构建数据集时停下。",
    ),
    "DEPLOY-016": (
        "用 wandb 记录日志，但没有设置 WANDB_API_KEY",
        "verl 的 wandb 日志需要在 trainer 启动的地方有 WANDB_API_KEY；没有它，run.sh 会在运行之前停下（跳过这项检查的运行会在启动时失败），所以只想先训练起来的第一次运行应该只记录到控制台（console）。",
    ),
    "DEPLOY-017": (
        "节点数超过了单独运行 run.sh 所能启动的数量",
        "目标为 local 时，run.sh 在本机启动 verl；没有 RAY_ADDRESS 时，verl 在本机启动它自己的只有一个节点的 Ray，向它申请 trainer.nnodes x n_gpus_per_node 个 GPU，并在启动时报 'Total available GPUs X is less than total desired GPUs Y' 而停止。这些节点必须先组成 Ray 集群（在每个节点上 ray start，见 RUN.md），再在其 head 上启动 run.sh；或者由目标来启动它们：Slurm 和 KubeRay 会启动这么多节点的集群；ray-job 则提交到一个已在运行的集群。",
    ),
    "DATA-011": (
        "没有设置验证数据（data.val_files 为空或仍是 verl 的占位路径）",
        "无论 trainer.test_freq 和 val_before_train 怎么设，verl 0.9.1 都会在启动时构建验证数据集；没有 data.val_files 时它会去读占位文件 ~/data/rlhf/gsm8k/test.parquet，这个文件并不存在（verl 不会展开 ~），于是运行会在 worker 启动之后、构建数据集时停下。",
    ),
    "DATA-012": (
        "相对路径的数据文件",
        "verl 把数据文件当作 parquet/json 路径打开（不会按名称下载数据集），相对于读取它的进程的工作目录，而每种目标设置的工作目录各不相同：启动 run.sh 时所在的目录、Ray 作业上传的 working_dir、运行 sbatch 时所在的目录、pod 镜像的 WORKDIR。在这里能找到的路径，在那里可能什么也不是。",
    ),
    "DATA-013": (
        "Windows 形式的数据路径",
        "verl 运行在 Linux 上，在那里 C:\\data\\x.parquet、D:/x.parquet 或 \\\\server\\share\\x.parquet 只是一个含有冒号或反斜杠的相对文件名：构建数据集时（worker 启动之后）会找不到文件。",
    ),
    # Schema
    "KEY-001": (
        "verl 中不存在的键",
        "Hydra 会一声不响地接受配置文件里的未知键，因此一个拼写错误就会让 verl 的默认值悄悄生效。",
    ),
    "KEY-002": (
        "缺少必填值",
        "verl 0.9 的 actor_rollout_ref.rollout.name（以及启用奖励模型时其 rollout 名称）没有默认值，缺失时会以 MissingMandatoryValue 停止。",
    ),
    "KEY-003": (
        "verl 会解析但忽略的键",
        "verl 0.9 的 schema 中仍保留旧的顶层 reward_model.*、custom_reward_function.* 和 sandbox_fusion.*，但已不再读取；启动脚本用 + 添加的、旧版 verl 有过的键（不在 verl 构建成配置类的那些节之下）会被组合进配置，但从不被读取：该设置不会生效。",
    ),
    "KEY-004": (
        "取值不在允许范围内",
        "verl 会在注册表中查找这些名称，或在其配置 dataclass 中校验它们，遇到未知值时在启动阶段（或第一个 worker 启动时）停止。",
    ),
    "KEY-005": ("verl 在启动时拒绝的取值组合", "verl 的启动校验不允许在 rollout 温度为 0 时做基于采样的验证。"),
    "KEY-006": (
        "字段里输入的值对它无效",
        "向导写出的就是字段显示的值：它不能接受的值（数字字段里的文字、为 0 的 batch size）不会被写出，旧值也不会被悄悄写出来代替它；在字段有一个有效值之前，文件不会写出。",
    ),
    "KEY-007": (
        "verl 需要的字段被清空了",
        "被清空的字段就显示为空，向导不会悄悄写出预设里的值来代替；verl 需要这个值（actor 模型、train batch size），所以在重新设置它之前，文件不会写出。",
    ),
    "KEY-008": (
        "旧键想打开的功能在 verl 中仍是关闭的",
        "verl 0.9.1 的 main_ppo 只在 reward.reward_model.enable 读取奖励模型的开关；顶层的 reward_model.enable=True 会被组合进配置但被忽略（只有 fully-async 入口会迁移旧的 reward 键），所以训练时不会用到它要求的奖励模型。",
    ),
    # Launch scripts
    "SCRIPT-001": (
        "续行被打断",
        "反斜杠后面跟着空格或 # 注释、或者命令中间夹着注释行或空行时，bash 会在此处结束命令：verl 启动时不带其后的 override（bash 会把它们当作独立的命令运行），而反斜杠之后的文字会作为错误的 override 传给 Hydra。",
    ),
    "SCRIPT-002": (
        "缺少反斜杠，override 列表被截断",
        "没有行尾反斜杠时命令就在该行结束：verl 启动时只带着它上方的 override，而 bash 会尝试把其余部分当作命令来运行。",
    ),
    "SCRIPT-003": (
        "值为空的 override",
        "key= 传入的是空字符串，通常来自未设置的 shell 变量：verl 在期望路径、数字或名称的地方得到的是 ''。",
    ),
    "SCRIPT-004": (
        "同一个键以不同的值给出了两次",
        "Hydra 按顺序应用 override 并保留最后一个：前面的值（往往正是修改过的那个）会被悄悄丢掉。",
    ),
    "SCRIPT-005": (
        "对 verl 已有的键使用了 +",
        "+key=value 用于新增键；对于 verl 配置中已有的键，Hydra 会在一切开始之前报错 'Could not append to config. An item is already at ...' 并停止。请写成 key=value，或者用 ++key=value 来新增或覆盖。",
    ),
    "SCRIPT-006": (
        "verl 中不存在的键，却没有加 +",
        "Hydra 只覆盖已存在的键，遇到第一个不存在的键就报错 'Could not override ...' 并停止。fork 版本或脚本自己的键，以及 verl 保持开放的映射（override_config、engine_kwargs）下的新条目，都需要写成 +key=value。",
    ),
    "SCRIPT-007": (
        "+ 新增了 verl 配置类不接受的键",
        "Hydra 会加上这个键，但 verl 会把这一部分构建成配置 dataclass，并在启动时以 'unexpected keyword argument' 停止。",
    ),
    "SCRIPT-008": (
        "+ 新增了 verl 不读取的键",
        "Hydra 会加上这个键，而 verl 会忽略它；只有脚本自己的代码或 fork 版本会读取它。",
    ),
    "SCRIPT-009": (
        "脚本组合了自己的主配置",
        "--config-name 指定的不是 verl 的配置：它定义的键对本向导来说是未知的，因此只检查指向 verl 键的 override，而且这个脚本只能在存在那份配置的地方运行。",
    ),
    "SCRIPT-010": (
        "Hydra 拒绝的参数",
        "Hydra 会在一切开始之前解析所有 override；它的语法不接受的值（未加引号的逗号、未闭合的方括号）或不是 key=value 形式的词都会中止启动。",
    ),
    "SCRIPT-011": ("引号没有闭合", "bash 会在文件末尾报语法错误并停止，从未闭合的引号处起什么也不会运行。"),
    "SCRIPT-012": (
        "不止一条 verl 命令",
        "只有第一条 verl 命令会被读取和检查；其余命令会在它之后（或代替它）运行，且未经检查。",
    ),
    "SCRIPT-013": (
        "verl 没有的配置组选项",
        "命令行上的 Hydra 配置组选择（model_engine=...、actor@actor_rollout_ref.actor=...）必须指向该组里的一个文件；否则 Hydra 会在一切开始之前报 'Could not find' 并停止。",
    ),
    "SCRIPT-014": (
        "管道符之后的覆盖项交给了下一条命令",
        "管道符结束了 verl 的命令：写在管道 `tee train.log` 之后的覆盖项成了 tee 的参数（tee 会按每个名字创建一个文件），所以 verl 启动时没有它们，也没有任何提示。",
    ),
    "SCRIPT-015": (
        "bash 无法解析这个脚本",
        "bash 逐条读取并执行脚本里的命令，遇到语法错误（即 `bash -n` 报告的错误）就停止：包含错误的命令及其后的一切都不会运行，verl 可能根本不会启动。向导直接询问 bash 本身，bash 在 -n 下不运行任何东西。",
    ),
    "SCRIPT-016": (
        "脚本里留下了 verl 无法接受的值",
        "在 verl 需要数字的地方留下了占位符（trainer.nnodes=TO_BE_FILLED）或空变量（GPUS 未设置时的 trainer.n_gpus_per_node=$GPUS）：Hydra 会把它当作文本组合进配置，verl 在启动时（配置检查中的 TypeError）或之后停止。超出范围的数字（trainer.nnodes=0）或形状不对的值（verl 需要文本的地方写了列表）也会这样失败。脚本的其余部分照常检查；需要这个键的规则会被跳过，就像值未知时一样。",
    ),
    "SCRIPT-018": (
        "相对的 --config-path",
        "Hydra 把相对的 --config-path 当作相对于 verl 入口的路径（python -m verl.trainer.main_ppo 时为 pkg://verl.trainer/<路径>），而不是相对于脚本运行的目录：除了 verl 自己的 `config`，其他目录在那里都找不到，verl 会在任何东西运行之前以 'Primary config directory not found' 停止。",
    ),
    "SCRIPT-017": (
        "不是 main_ppo 的运行：没有可检查的内容",
        "check 判断的是脚本传给 python -m verl.trainer.main_ppo 的覆盖项。启动其他 verl 程序（SFT、生成、fully-async trainer）、把运行交给另一个脚本（`bash x.sh`：会指出该检查的那个脚本）、只运行非 verl 程序（数据准备、安装：会列出它们，给错文件时一眼可见），或在启动任何命令之前就结束的脚本，没有可供规则判断的内容：只报告这一点，并判为通过。",
    ),
    # Environment (doctor, preflight)
    "ENV-001": (
        "无法检查运行 verl 的解释器",
        "doctor 在带截止时间的子进程里询问解释器本身；一个在几行标准库代码上就卡住、崩溃或输出乱码的解释器，也启动不了 verl。",
    ),
    "ENV-002": (
        "没有安装 verl，或安装的版本与配置不同",
        "python -m verl.trainer.main_ppo 需要运行它的解释器里有 verl；本向导按 verl 0.9.1 编写和检查键，其他版本会重命名或删除其中一些键（fork 或源码 checkout 会给出它的 git describe）。",
    ),
    "ENV-003": (
        "没有 torch，或 torch 不带 CUDA",
        "verl 的 worker 通过 torch 把模型放到 GPU 上；CPU 版本（版本号以 +cpu 结尾，torch.version.cuda 为 None）会让每个 worker 在 Ray 启动它们之后、第一次 .cuda() 时失败。",
    ),
    "ENV-004": (
        "这台机器上没有 NVIDIA 驱动，或 GPU 少于运行所需",
        "verl 向 Ray 申请每个节点 trainer.n_gpus_per_node 张 GPU；NVML 找不到驱动或 GPU 不够时，Ray 无卡可分，verl 以 'Total available GPUs 0 is less than total desired GPUs' 停止。",
    ),
    "ENV-005": (
        "驱动支持的 CUDA 比 torch 构建时用的旧",
        "CUDA 版本的 torch 需要驱动的 CUDA 版本至少达到构建时的主版本（次版本兼容最多只能带着警告覆盖更新的次版本）；驱动更旧时 torch.cuda.is_available() 为 False，worker 会像在没有 GPU 的机器上一样失败。",
    ),
    "ENV-006": (
        "rollout 引擎缺失，或不在 verl 声明的版本范围内",
        "verl 在 rollout worker 里导入 actor_rollout_ref.rollout.name 指定的引擎（vllm、sglang），此时模型已经加载完毕；verl 自己的包元数据固定了测试过的引擎版本，换成别的版本会破坏它的服务与权重同步调用。",
    ),
    "ENV-007": (
        "verl 依赖的包缺失，或不在 verl 声明的版本范围内",
        "verl 的元数据写明了它适配的版本（transformers、ray、tensordict、numpy 等）；之后覆盖安装的包（为别的模型装了更新的 transformers）会在 worker 启动之后破坏导入或模型加载。引擎 extra 的固定版本（torch、transformers）是测试过的组合：不在其中只给出警告。",
    ),
    "ENV-008": (
        "缺少配置用到的 attention 或 kernel 包",
        "除非 override_config 另有指定，verl 的 FSDP worker 以 attn_implementation flash_attention_2 加载模型，这需要 flash-attn；use_liger 需要 liger-kernel；二者都会在 Ray worker 启动之后、构建模型时失败。",
    ),
    "ENV-009": (
        "/dev/shm 太小",
        "Ray 把 object store 放在 /dev/shm 里，比 object store（内存的 30%）小时会退回到慢速磁盘；NCCL 在同一节点的 GPU 之间用它传输，容器默认的 64 MB 会让多卡集合通信失败。",
    ),
    "ENV-010": (
        "打开文件数上限偏低",
        "Ray 和 verl 的 worker 每个进程都持有很多 socket 和文件；软上限低于 65536 时，规模较大的运行会中途以 'Too many open files' 失败。",
    ),
    "ENV-011": (
        "trainer.default_local_dir 下的空闲磁盘放不下一个 checkpoint",
        "verl 每 trainer.save_freq 步保存模型、优化器和额外状态；放不下的 checkpoint 会在第一次保存时终止运行，之前的训练时间白白浪费。",
    ),
    "ENV-012": (
        "需要下载的模型无法下载",
        "不在缓存中的 Hugging Face id 会在启动时下载到 HF_HOME；设置了 HF_HUB_OFFLINE 或 TRANSFORMERS_OFFLINE，或 HF_HOME 不可写时，每个 worker 的加载都会失败。",
    ),
    "ENV-013": (
        "这个 shell 里的 GPU 掩码与运行不符",
        "verl 自己启动 Ray 时，Ray 从 CUDA_VISIBLE_DEVICES 取得 GPU：数量与 trainer.n_gpus_per_node 不同的掩码会让 verl 缺卡或让 GPU 闲置；RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES 会让所有 worker 用同一组设备。",
    ),
    "ENV-014": (
        "这个 shell 里的 RAY_ADDRESS 改变了运行启动的位置",
        "设置了 RAY_ADDRESS 时，verl 的 ray.init 会加入那个集群，而不是在本机启动自己的 Ray；那里若是 http://（Jobs API）地址，ray.init 会失败。",
    ),
    "ENV-015": (
        "与这台机器不符的 NCCL 或 Gloo 设置",
        "NCCL_SOCKET_IFNAME 或 GLOO_SOCKET_IFNAME 指向这里不存在的网卡时，第一次集合通信就会卡住或失败；NCCL_P2P_DISABLE、NCCL_SHM_DISABLE 或 NCCL_IB_DISABLE 会强制走慢速路径，占去每步时间的很大一部分。",
    ),
    "ENV-016": (
        "集群各节点不一致",
        "Ray 用每个节点自己的解释器和驱动运行 verl 的 worker；各节点间不同的包版本（verl、torch、引擎、ray）或某个节点缺少引擎，只会让放在那里的 worker 失败，而且往往在启动的后期。",
    ),
    # verl's own verdict (check --verl)
    "VERL-001": (
        "运行所用的 verl 拒绝组合这份配置",
        "--verl 让该解释器里安装的 verl（任何版本、fork 或源码 checkout）用它自己的 Hydra 配置树组合这份配置，与 python -m verl.trainer.main_ppo 的做法相同；该版本没有的键或配置组，或 Hydra 无法合并的值，会在一切开始之前让运行停止。该结果原样引用 verl 自己的错误，并指明版本。",
    ),
    "VERL-002": (
        "运行所用的 verl 在启动检查中拒绝这份配置",
        "在 Ray 启动之前，main_ppo 会运行 validate_config（批大小在各 GPU 上的划分、micro batch 设置、critic 的批大小链），其 TaskRunner 会解析每个插值；它们抛出的错误会在任何 worker 启动之前让运行停止。该结果原样引用 verl 自己的消息，并指明版本。",
    ),
    "VERL-003": (
        "运行所用的 verl 没有给出结论",
        "向导在该解释器的子进程里询问 verl，并设有截止时间（--timeout）；卡住、导入失败或输出乱码的 verl 给不出结论，也启动不了这次运行。",
    ),
    "VERL-004": (
        "verl 的结论不完整",
        "询问 verl 时缺少运行会给它的某些东西：在这里值未知的参数（verl 会改用它自己的值）、不在本机上的 --config-path 文件夹，或需要本机未安装的引擎才能运行的检查（LoRA rank 检查需要 vLLM）；其余部分仍由向导自己的规则判断。",
    ),
    # verl X's config tree composed by Hydra (check --verl-version X)
    "VERL-005": (
        "--verl-version 指定的 verl 版本的配置树拒绝组合这份配置",
        "--verl-version X 从该版本的 wheel 中取出 verl X 自己的配置树（verl/trainer/config），由 Hydra 本身组合这份配置，与 python -m verl.trainer.main_ppo 的做法相同，不安装也不导入 verl；该版本没有的键或配置组，或 Hydra 无法合并的值，会在一切开始之前让该版本的运行停止。该结果原样引用 Hydra 和 OmegaConf 自己的话。",
    ),
    "VERL-006": (
        "这里没有 --verl-version 指定版本的配置树：改按内置的 0.9.1 快照判断",
        "某个版本的配置树只下载一次（pip download 它的 wheel），保存在向导的缓存里；离线且没有缓存时无从组合，向导就像不带该选项时一样，按内置的 verl 0.9.1 快照判断这些键，并说明这一点。",
    ),
    "VERL-007": (
        "向导按 verl 0.9.1 规则得出、但 --verl-version 指定的版本并不如此的结论",
        "向导的键规则只认识 verl 0.9.1 的 schema；0.9.1 删除或改名、但这次运行所用版本仍然有的键，对那个版本来说不是错误；用 +key 添加那个版本没有的键（0.9.1 有）也不是错误；在 worker 仍会把全局 micro-batch 大小除以 GPU 数的版本（0.7 及以前）里，只设置全局大小也不是错误。该结果说明 0.9.1 把它变成了什么（来自向导的键历史），供运行迁移到 0.9.1 时参考。",
    ),
}
