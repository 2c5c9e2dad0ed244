"""Chinese rule titles and reasons (by rule id) and Chinese field labels and help (by field name).

`RULES[id] = (title, why)` mirrors `wizard.core.rules.catalogue.CATALOGUE`; `FIELDS[name] = (label, help)`
mirrors `wizard.core.keymap.all_fields()` and `field_help()`. Technical terms (GPU, TP, FSDP, Megatron,
vLLM, Ray, LoRA, actor, critic, rollout, mini-batch, ...) and verl keys stay in English, as ML engineers in
mainland China write them. `tests/test_i18n_terms.py` fails when a rule id or a field has no entry here.
"""

from __future__ import annotations

import hashlib

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
        "GRPO 类估计器比较同一提示的多条回复；n = 1 时所有优势都为零，模型什么也学不到。",
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
    # Placement
    "PLACE-001": (
        "GPU 数不能被 rollout 张量并行度整除",
        "每个推理副本占用 TP 个 GPU；verl 断言 rollout 的 world size 是 TP 的整数倍。",
    ),
    "PLACE-002": (
        "rollout 张量并行组超出单个节点",
        "跨节点的 TP 组每一层都要经过网络做 all-reduce：生成速度会慢一个数量级。",
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
        "verl 在打包到单个节点上的 placement group 中为每个 GPU 预留 {CPU: 3, GPU: 1}；verl 0.9.1 的 V1 trainer 会先启动 TransferQueue，它的控制器和存储单元（8 个，轮流固定到每个 Ray 节点上）在整个运行期间各占 1 个 CPU；而没有设置 num_cpus 的 actor（TaskRunner、rollout 服务）只会被放到有空闲 CPU 的地方。逻辑 CPU 更少时总有东西放不下，训练会在没有任何报错的情况下挂起。",
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
        "verl 0.9 的 schema 中仍保留旧的顶层 reward_model.*、custom_reward_function.* 和 sandbox_fusion.*，但已不再读取：该设置不会生效。",
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
}

FIELDS: dict[str, tuple[str, str]] = {
    # algorithm
    "algorithm.adv_estimator": (
        "优势估计器",
        "优势的计算方式：gae（带 critic 的 PPO）、grpo、rloo、reinforce_plus_plus、remax 等。\n"
        "分组估计器（grpo、rloo 等）比较同一提示的 n 条回复，需要 rollout n > 1。",
    ),
    "algorithm.use_kl_in_reward": ("奖励内 KL", "从奖励中减去相对参考模型的 KL 惩罚（PPO 做法）。需要参考模型。"),
    "algorithm.kl_coef": ("奖励 KL 系数", "奖励内 KL 惩罚的权重。"),
    "algorithm.use_kl_loss": ("KL 损失", "在 actor 损失中加入相对参考模型的 KL 项（GRPO 做法）。需要参考模型。"),
    "algorithm.kl_loss_coef": ("KL 损失系数", "KL 损失项的权重。"),
    "algorithm.kl_loss_type": (
        "KL 损失类型",
        "损失项使用的 KL 估计方式：kl（k1）、abs、mse（k2）、low_var_kl（k3）或 full。",
    ),
    "algorithm.loss_agg_mode": (
        "损失聚合方式",
        "逐 token 损失的平均方式：token-mean、token-sum、seq-mean-token-sum、seq-mean-token-mean、\n"
        "seq-mean-token-sum-norm。",
    ),
    "algorithm.entropy_coeff": ("熵系数", "熵奖励的权重；0 表示关闭。"),
    "algorithm.lr": ("学习率", "actor 的学习率。"),
    "algorithm.critic_lr": ("critic 学习率", "critic 的学习率（仅在有 critic 时使用）。"),
    # models
    "models.actor_path": (
        "actor 模型",
        "要训练的策略模型：Hugging Face id（Qwen/Qwen3-8B）或本地的绝对路径目录。参考模型是从同一路径加载的冻结副本。",
    ),
    "models.critic_enable": ("启用 critic", "强制开启或关闭 critic；不设置表示：当且仅当估计器为 gae 时开启。"),
    "models.critic_path": (
        "critic 模型",
        "价值模型的初始 checkpoint（通常就是 actor 的）。verl 会为它新加一个价值头（value head）。",
    ),
    "models.reward_model_enable": ("启用奖励模型", "用 vLLM/SGLang 部署的奖励模型给回复打分。"),
    "models.reward_model_path": (
        "奖励模型",
        "奖励模型：单标签的序列分类模型（判别式奖励模型，DisRM），或生成式奖励模型（generative RM）。",
    ),
    "models.custom_reward_path": (
        "自定义奖励文件",
        "包含你的奖励函数的 Python 文件（参数为 data_source、solution_str、ground_truth、extra_info）。",
    ),
    "models.custom_reward_name": ("奖励函数名", "该文件中奖励函数的名称。"),
    "models.reward_manager": (
        "奖励管理器",
        "按批计算奖励的方式：naive、dapo（超长惩罚）、gdpo、remote、rate_limited。",
    ),
    "models.data_source": (
        "数据来源",
        "训练数据行中的 data_source 值（openai/gsm8k、lighteval/MATH 等）。既没有奖励模型也没有自定义函数时，verl 内置的打分器必须认识它。",
    ),
    "models.lora_rank": ("LoRA 秩", "LoRA 的秩；0 表示训练全部权重。使用 LoRA 时，参考模型是关闭适配器的基座模型。"),
    "models.lora_alpha": ("LoRA 缩放系数", "LoRA 的 alpha（缩放系数）。"),
    "models.use_remove_padding": ("去除填充", "把序列无填充地打包在一起。Ulysses 序列并行必须开启。"),
    "models.enable_gradient_checkpointing": (
        "梯度检查点",
        "在反向传播中重新计算激活：显存大幅减少，计算量增加约三分之一。",
    ),
    "models.trust_remote_code": ("信任远程代码", "允许运行 checkpoint 自带的模型代码（部分自定义架构需要）。"),
    # data
    "data.train_files": ("训练文件", "训练提示：parquet、json 或 jsonl 文件（绝对路径或 hdfs://）。"),
    "data.val_files": ("验证文件", "验证提示，格式相同。"),
    "data.prompt_key": ("提示列名", "存放提示的列，每条提示是由 {role, content} 组成的对话列表。"),
    "data.max_prompt_length": ("最大提示长度", "提示的最大 token 数（套用对话模板之后）。"),
    "data.max_response_length": ("最大回复长度", "rollout 可以生成的最长回复，以 token 计。"),
    "data.filter_overlong_prompts": ("过滤超长提示", "加载数据时丢弃长度超过 max_prompt_length 的提示。"),
    "data.truncation": ("截断方式", "对没有被过滤掉的超长提示如何处理：error、left、right 或 middle。"),
    # batch
    "batch.train_batch_size": ("训练批大小", "每个训练步的提示数。每步回复数 = 该值 × rollout n。"),
    "batch.rollout_n": ("每提示回复数", "每个提示采样的回复数。GRPO 类估计器需要大于 1。"),
    "batch.ppo_mini_batch_size": (
        "mini-batch 大小",
        "每次优化器更新的提示数（对应回复数：× n）。train_batch_size / 该值 = 每个 epoch 的更新次数。",
    ),
    "batch.ppo_micro_batch_size_per_gpu": (
        "每卡 micro-batch",
        "单个 GPU 上每次前向/反向传播处理的回复数（梯度累积会把 mini-batch 切分开）。",
    ),
    "batch.ppo_micro_batch_size": (
        "全局 micro-batch",
        "已弃用的全局 micro-batch 大小；verl 0.9 的 worker 需要改用每卡形式。",
    ),
    "batch.use_dynamic_bsz": ("动态批大小", "按 token 预算而不是固定条数来打包 micro-batch（长度参差不齐时更快）。"),
    "batch.ppo_max_token_len_per_gpu": (
        "每卡 token 预算",
        "动态打包时每个 GPU 每个 micro-batch 的 token 预算；× sp 之后必须能容纳一条完整序列。",
    ),
    "batch.ppo_epochs": ("PPO 轮数", "actor 在每批回复上训练的遍数。"),
    "batch.log_prob_micro_batch_size_per_gpu": ("log-prob 每卡批", "重新计算旧 log-prob 时每个 GPU 每次处理的回复数。"),
    "batch.log_prob_micro_batch_size": ("log-prob 全局批", "log-prob micro-batch 大小的已弃用全局形式。"),
    "batch.log_prob_use_dynamic_bsz": (
        "log-prob 动态批",
        "旧 log-prob 按 token 预算打包；不设置则跟随 actor（而且必须与 actor 一致）。",
    ),
    "batch.log_prob_max_token_len_per_gpu": ("log-prob token 预算", "旧 log-prob 的 token 预算；不设置则跟随 actor。"),
    "batch.ref_log_prob_micro_batch_size_per_gpu": ("参考模型每卡批", "参考模型每次前向时每个 GPU 处理的回复数。"),
    "batch.ref_log_prob_micro_batch_size": ("参考模型全局批", "参考模型 micro-batch 大小的已弃用全局形式。"),
    "batch.ref_log_prob_use_dynamic_bsz": ("参考模型动态批", "参考模型按 token 预算打包；不设置则跟随 actor。"),
    "batch.ref_log_prob_max_token_len_per_gpu": ("参考模型 token 预算", "参考模型的 token 预算；不设置则跟随 actor。"),
    "batch.critic_ppo_mini_batch_size": (
        "critic mini-batch 大小",
        "critic 每次优化器更新的提示数；不设置则跟随 actor。",
    ),
    "batch.critic_ppo_micro_batch_size_per_gpu": (
        "critic 每卡 micro-batch",
        "critic 在单个 GPU 上每次前向/反向传播处理的回复数。",
    ),
    "batch.critic_ppo_micro_batch_size": ("critic 全局 micro-batch", "critic micro-batch 大小的已弃用全局形式。"),
    "batch.critic_use_dynamic_bsz": ("critic 动态批", "critic 按 token 预算打包；不设置则跟随 actor。"),
    "batch.critic_ppo_max_token_len_per_gpu": ("critic token 预算", "动态打包时 critic 每个 GPU 的 token 预算。"),
    "batch.critic_forward_max_token_len_per_gpu": (
        "critic 推理 token 预算",
        "critic 做价值推理时的 token 预算；不设置则跟随它的训练预算。",
    ),
    "batch.critic_ppo_epochs": ("critic 训练轮数", "critic 在每批数据上训练的遍数；不设置则跟随 actor。"),
    # engine
    "engine.strategy": ("训练引擎", "训练引擎：fsdp、fsdp2 或 megatron。"),
    "engine.ulysses_sp": ("Ulysses 序列并行", "actor（及参考模型）的 Ulysses 序列并行度：共同处理一条序列的 GPU 数。"),
    "engine.critic_ulysses_sp": ("critic 序列并行", "critic 的 Ulysses 序列并行度。"),
    "engine.param_offload": ("参数卸载", "两次使用之间把 actor 参数放在 CPU 内存里（FSDP）。"),
    "engine.optimizer_offload": ("优化器卸载", "把 actor 的优化器状态放在 CPU 内存里（FSDP）。"),
    "engine.ref_param_offload": ("参考模型卸载", "把参考模型放在 CPU 内存里（它只做前向计算）。"),
    "engine.critic_param_offload": ("critic 参数卸载", "把 critic 参数放在 CPU 内存里（FSDP）。"),
    "engine.critic_optimizer_offload": ("critic 优化器卸载", "把 critic 的优化器状态放在 CPU 内存里（FSDP）。"),
    "engine.megatron_tp": ("Megatron 张量并行", "actor 的 Megatron 张量并行度（参考模型与之相同）。"),
    "engine.megatron_pp": ("Megatron 流水线并行", "actor 的 Megatron 流水线并行度。"),
    "engine.megatron_cp": ("Megatron 上下文并行", "actor 的 Megatron 上下文并行度。"),
    # rollout
    "rollout.name": ("推理引擎", "生成回复的推理引擎：vllm、sglang 或 trtllm。verl 0.9 没有默认值。"),
    "rollout.mode": ("rollout 模式", "rollout 模式；verl 0.9 中只有 async。"),
    "rollout.tensor_parallel_size": (
        "rollout 张量并行",
        "每个推理副本占用的 GPU 数。必须能整除 GPU 总数，并且不能跨节点。",
    ),
    "rollout.gpu_memory_utilization": ("显存占用比例", "推理引擎可以占用的每个 GPU 显存的比例（权重 + KV cache）。"),
    "rollout.temperature": ("采样温度", "训练 rollout 的采样温度。"),
    "rollout.val_do_sample": ("验证时采样", "验证时进行采样（而不是贪心解码）。"),
    "rollout.load_format": (
        "权重加载格式",
        "推理引擎获取初始权重的方式：dummy（由训练端同步）或 safetensors（LoRA）。",
    ),
    "rollout.layered_summon": ("逐层同步", "逐层同步 LoRA 权重（峰值显存更低）。"),
    # cluster
    "cluster.nnodes": ("节点数", "训练资源池中的机器数。"),
    "cluster.n_gpus_per_node": ("每节点 GPU 数", "每台机器上使用的 GPU 数（所有节点必须相同）。"),
    "cluster.trainer_mode": (
        "训练模式",
        "sync（共置，默认）、colocate_async 或 separate_async（独立的 rollout 资源池）。",
    ),
    "cluster.hybrid_engine": ("混合引擎", "actor 与 rollout 共用 GPU。只有 separate_async 才能设为 false。"),
    "cluster.rollout_nnodes": ("rollout 节点数", "独立 rollout 资源池的机器数（仅 separate_async）。"),
    "cluster.rollout_n_gpus_per_node": (
        "rollout 每节点 GPU",
        "独立 rollout 资源池每台机器的 GPU 数；不设置则跟随 n_gpus_per_node。",
    ),
    "cluster.parameter_sync_step": (
        "参数同步间隔",
        "两次向 rollout 资源池同步权重之间的 mini-batch 数（separate_async）。",
    ),
    "cluster.checkpoint_backend": (
        "权重同步后端",
        "权重从训练端传到 rollout 的方式：naive（共置）、nccl、nixl、mooncake。",
    ),
    "cluster.reward_pool_enable": ("独立奖励资源池", "给奖励模型分配独立的 GPU，而不是与训练资源池共用。"),
    "cluster.reward_pool_nnodes": ("奖励池节点数", "奖励模型独立资源池的机器数。"),
    "cluster.reward_pool_n_gpus_per_node": ("奖励池每节点 GPU", "奖励模型独立资源池每台机器的 GPU 数。"),
    # trainer
    "trainer.project_name": ("项目名称", "实验跟踪的项目名称。"),
    "trainer.experiment_name": ("实验名称", "实验跟踪中本次运行的名称；也用来命名 checkpoint 目录和 Kubernetes 对象。"),
    "trainer.total_epochs": ("训练轮数", "遍历训练数据的次数。"),
    "trainer.total_training_steps": ("总训练步数", "训练到这么多步后停止（优先于 total_epochs）。"),
    "trainer.save_freq": ("保存频率", "每隔多少步保存一次 checkpoint；-1 表示从不保存。"),
    "trainer.test_freq": ("验证频率", "每隔多少步验证一次；-1 表示从不验证。"),
    "trainer.logger": ("日志后端", "实验跟踪后端；wandb 需要环境变量中有 WANDB_API_KEY。"),
    "trainer.val_before_train": ("训练前验证", "在第一步之前先运行一次验证。"),
    "trainer.critic_warmup": ("critic 预热步数", "开始阶段只更新 critic 的步数。"),
    # deploy
    "deploy.target": ("部署目标", "训练在哪里启动：local、ray-job、kuberay-job、kuberay-cluster、slurm 或 k8s-job。"),
    "deploy.name": (
        "部署名称",
        "Kubernetes 对象和 Slurm 作业的名称；不设置时：由 trainer.experiment_name 生成一个 DNS 标签。",
    ),
    "deploy.namespace": (
        "命名空间",
        "这些 Kubernetes 对象所在的命名空间（namespace）；不设置时：使用当前 kubectl 上下文的命名空间。",
    ),
    "deploy.image": (
        "容器镜像",
        "每个 Ray pod（KubeRay）或该 Job 使用的容器镜像。镜像中必须包含 verl 0.9.1、它的推理引擎（vLLM 或\n"
        "SGLang）以及下面填写的 Ray 版本；verlai/verl 镜像已包含这些依赖，verl 本身需要另外加入。",
    ),
    "deploy.ray_version": ("Ray 版本", "镜像中的 Ray 版本（KubeRay 的 rayVersion）；令牌认证需要 2.52 或更新的版本。"),
    "deploy.gpu_head": (
        "head 使用 GPU",
        "Ray head 是一个 GPU 节点，计入 trainer.nnodes；设为 false 则另加一个只有 CPU 的 head。",
    ),
    "deploy.cpus_per_gpu": (
        "每 GPU CPU 数",
        "每个 GPU 节点上每个 GPU 配的 CPU 数。verl 为每个 GPU 预留 3 个 CPU，它的 driver 任务再占 1 个。",
    ),
    "deploy.memory_per_gpu_gib": (
        "每 GPU 内存",
        "每个 GPU 节点上每个 GPU 配的内存（GiB）：模型加载、offload 和数据加载器都用这部分内存。",
    ),
    "deploy.head_cpus": ("head CPU 数", "纯 CPU head（gpu_head 为 false）的 CPU 数。"),
    "deploy.head_memory_gib": ("head 内存", "纯 CPU head（gpu_head 为 false）的内存（GiB）。"),
    "deploy.shm_gib": ("共享内存大小", "普通 Kubernetes Job 的 /dev/shm 内存卷大小（GiB）；0 表示保留默认的 64 MiB。"),
    "deploy.gpu_toleration": (
        "GPU 容忍",
        "添加带污点（taint）的 GPU 节点所需的容忍（toleration）nvidia.com/gpu:NoSchedule。",
    ),
    "deploy.node_selector": (
        "节点选择器",
        "GPU pod 必须匹配的节点标签，格式为 key=value（nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3）。",
    ),
    "deploy.ray_address": (
        "Ray 地址",
        "ray-job：集群的 Jobs API 地址 http://HEAD:8265（不设置时：http://127.0.0.1:8265）。",
    ),
    "deploy.nccl_socket_ifname": (
        "NCCL 网络接口",
        "每个节点上的 NCCL_SOCKET_IFNAME（eth0、=bond0、^lo,docker）：节点之间通信所用的网络接口。",
    ),
    "deploy.gloo_socket_ifname": (
        "GLOO 网络接口",
        "每个节点上的 GLOO_SOCKET_IFNAME：torch 的 CPU 集合通信在节点之间所用的网络接口。",
    ),
    "deploy.env": ("环境变量", "为每个节点设置的其他环境变量，格式为 NAME=value（不要放密钥：见 secret_env）。"),
    "deploy.secret_env": (
        "密钥环境变量",
        "密钥类环境变量的名称（HF_TOKEN 等）；用 wandb 记录日志时会自动加入 WANDB_API_KEY。\n"
        "Kubernetes 从名为 k8s_secret 的 Secret 中读取它们；脚本则从你的环境中获取。",
    ),
    "deploy.k8s_secret": ("密钥 Secret", "存放 secret_env 的 Kubernetes Secret，每个变量名对应一个键。"),
    "deploy.auth_mode": ("Ray 认证方式", "Ray 令牌认证：token（head、worker 和 driver 共用一个令牌）或 disabled。"),
    "deploy.auth_secret": (
        "Ray 令牌 Secret",
        "KubeRay：你自己提供的、存有 Ray 令牌的 Secret（键名 auth_token）；不设置时：由 KubeRay 自动生成。",
    ),
    "deploy.ttl_seconds": ("保留时长", "已结束的 RayJob 的集群或 Job 为保留日志而保留的秒数，之后即被删除。"),
    "deploy.excludes": ("上传排除项", "ray-job：工作目录中不上传到集群的文件。"),
    "deploy.slurm_partition": ("Slurm 分区", "Slurm 分区（sbatch --partition）；不设置时：使用集群的默认分区。"),
    "deploy.slurm_account": ("Slurm 账户", "Slurm 账户（sbatch --account）；不设置时：使用你的默认账户。"),
    "deploy.slurm_time": ("Slurm 时限", "Slurm 作业的时间上限（sbatch --time），格式为 D-HH:MM:SS 或 HH:MM:SS。"),
    "deploy.join_timeout_s": ("入群超时", "Slurm：等待所有节点加入 Ray 集群的秒数，超时则作业失败。"),
    "deploy.ray_port": ("Ray 端口", "Ray head 上 GCS 的端口（ray start --port）。"),
    "deploy.ray_init_num_cpus": (
        "Ray CPU 数",
        "verl 自己启动的 Ray 实例的 CPU 数（本地运行、k8s-job）。加入已有集群时必须保持不设置。",
    ),
    # issue 19
    "deploy.data_volume": (
        "数据卷",
        "Kubernetes：存放数据和模型文件的卷，挂载到每个 pod 的 data_mount：可以是 PersistentVolumeClaim 的名称（verl-data），也可以是每个 GPU 节点上的绝对路径目录（/mnt/verl，即 hostPath）。不设置时：什么都不挂载，pod 只能看到镜像。",
    ),
    "deploy.data_mount": (
        "数据卷挂载点",
        "数据卷在 pod 中的挂载位置。data.train_files、data.val_files 和本地模型路径都必须位于它之下。",
    ),
    "deploy.hf_home": (
        "模型缓存目录（HF_HOME）",
        "每个节点上的 HF_HOME：Hugging Face 模型和数据集（例如 Qwen/Qwen3-8B 这样的 id）的下载和缓存位置。不设置时：挂载了数据卷就用 <data_mount>/huggingface（只下载一次，pod 之间共用），否则用各机器自己的默认位置（~/.cache/huggingface）。",
    ),
}


def fingerprint(english: str) -> str:
    """Short hash of the English a translation was made from (a rule: "title\nwhy"; a field: its help)."""
    return hashlib.sha1(english.encode("utf-8")).hexdigest()[:8]


# The fingerprint of the English text each entry above was translated from. When the English of a rule or
# a field changes, tests/test_i18n_terms.py names it: re-translate the entry, then update its fingerprint here.
TRANSLATED_FROM: dict[str, str] = {
    "ROLE-001": "5286ffae",
    "ROLE-002": "8d35f0f5",
    "ROLE-003": "cd929dc8",
    "ROLE-004": "49c1db2b",
    "ROLE-005": "c1a2d345",
    "ROLE-006": "6b06378c",
    "ROLE-007": "4af4ec10",
    "ROLE-008": "c5bd5139",
    "ROLE-009": "b0ff7cb9",
    "ROLE-010": "442e368a",
    "ROLE-011": "a0718c7f",
    "BATCH-001": "9ae8e771",
    "BATCH-002": "4543aa18",
    "BATCH-003": "f74e5656",
    "BATCH-004": "cc7fa99e",
    "BATCH-005": "6e1ebab8",
    "BATCH-006": "58aacfae",
    "BATCH-007": "587225ff",
    "BATCH-008": "74c07f95",
    "BATCH-009": "2fd5378c",
    "BATCH-010": "5436fd14",
    "BATCH-011": "c06dd9e7",
    "BATCH-012": "708a33c8",
    "BATCH-013": "3187bfc3",
    "BATCH-014": "6f15a986",
    "PLACE-001": "2426e8d4",
    "PLACE-002": "a53f3b42",
    "PLACE-003": "a00b9efa",
    "PLACE-004": "af305f1a",
    "PLACE-005": "43bd0ed8",
    "PLACE-006": "40c0937f",
    "PLACE-007": "adaf39dc",
    "PLACE-008": "8bd39630",
    "PLACE-009": "813bd4eb",
    "PLACE-010": "7527c1ae",
    "PLACE-011": "37cb76f7",
    "PLACE-012": "c9d84b5b",
    "PLACE-013": "a5fe866d",
    "DATA-001": "221016d9",
    "DATA-002": "28800a85",
    "DATA-003": "7927402a",
    "DATA-004": "e8ffa918",
    "DATA-005": "d8f266f9",
    "DATA-006": "8a2ea40d",
    "DATA-007": "2ab0e6cb",
    "DATA-008": "b55fdb58",
    "DATA-009": "0478e3f1",
    "DEPLOY-001": "a45a0be0",
    "DEPLOY-002": "883f46fc",
    "DEPLOY-003": "67383e54",
    "DEPLOY-004": "d17d8ef3",
    "DEPLOY-005": "2078106c",
    "DEPLOY-006": "fb6876b7",
    "DEPLOY-007": "8a332498",
    "DEPLOY-008": "92e20ea2",
    "DEPLOY-009": "7f8b8060",
    "DEPLOY-010": "49821cc4",
    "DEPLOY-011": "58c7d1b5",
    "DEPLOY-012": "0c855fa3",
    "DEPLOY-013": "d0a4248d",
    "DEPLOY-014": "7756d438",
    "DEPLOY-015": "18b70e10",
    "KEY-001": "4405b845",
    "KEY-002": "6e3f6ce5",
    "KEY-003": "a0df194c",
    "KEY-004": "02b2a564",
    "KEY-005": "b58ffd39",
    "DATA-010": "1eeaa8ae",
    "DEPLOY-016": "a4dfb9a7",
    "KEY-006": "e7027c4a",
    "KEY-007": "1e30202e",
    "SCRIPT-001": "114aee04",
    "SCRIPT-002": "1161dbc7",
    "SCRIPT-003": "c7790842",
    "SCRIPT-004": "aad1ce9a",
    "SCRIPT-005": "118212ce",
    "SCRIPT-006": "9e134d98",
    "SCRIPT-007": "7e1a505d",
    "SCRIPT-008": "f70d6c9a",
    "SCRIPT-009": "e6130461",
    "SCRIPT-010": "7f0dec00",
    "SCRIPT-011": "e0ee22d5",
    "SCRIPT-012": "89b5f225",
    "SCRIPT-013": "ea49681e",
    "algorithm.adv_estimator": "e6ac5cc5",
    "algorithm.use_kl_in_reward": "e2dcaf33",
    "algorithm.kl_coef": "c53dc657",
    "algorithm.use_kl_loss": "46954c72",
    "algorithm.kl_loss_coef": "cc943188",
    "algorithm.kl_loss_type": "897387ac",
    "algorithm.loss_agg_mode": "539e36a9",
    "algorithm.entropy_coeff": "d2a9d8c4",
    "algorithm.lr": "af9a1a04",
    "algorithm.critic_lr": "9ab30555",
    "models.actor_path": "faa7e599",
    "models.critic_enable": "cd8a1592",
    "models.critic_path": "46b7cf62",
    "models.reward_model_enable": "1a7781f3",
    "models.reward_model_path": "8788d334",
    "models.custom_reward_path": "0b0e5860",
    "models.custom_reward_name": "eaff33f0",
    "models.reward_manager": "8cf325f3",
    "models.data_source": "708684dc",
    "models.lora_rank": "e294b7e1",
    "models.lora_alpha": "86c8676d",
    "models.use_remove_padding": "d039de5c",
    "models.enable_gradient_checkpointing": "538026f2",
    "models.trust_remote_code": "89eacd62",
    "data.train_files": "4198f11d",
    "data.val_files": "c9884949",
    "data.prompt_key": "f7088657",
    "data.max_prompt_length": "eb0630c0",
    "data.max_response_length": "ff9472d9",
    "data.filter_overlong_prompts": "7e96e5b2",
    "data.truncation": "4aacf646",
    "batch.train_batch_size": "94ff7148",
    "batch.rollout_n": "ed55c622",
    "batch.ppo_mini_batch_size": "d84c3eab",
    "batch.ppo_micro_batch_size_per_gpu": "49e07f57",
    "batch.ppo_micro_batch_size": "fe2bdf25",
    "batch.use_dynamic_bsz": "042e1842",
    "batch.ppo_max_token_len_per_gpu": "d8e8d4cb",
    "batch.ppo_epochs": "9e65faba",
    "batch.log_prob_micro_batch_size_per_gpu": "a71a55c4",
    "batch.log_prob_micro_batch_size": "42e36f1d",
    "batch.log_prob_use_dynamic_bsz": "d2fa9082",
    "batch.log_prob_max_token_len_per_gpu": "f2e63719",
    "batch.ref_log_prob_micro_batch_size_per_gpu": "6d10f92b",
    "batch.ref_log_prob_micro_batch_size": "f728c396",
    "batch.ref_log_prob_use_dynamic_bsz": "92d490d9",
    "batch.ref_log_prob_max_token_len_per_gpu": "b806e7d2",
    "batch.critic_ppo_mini_batch_size": "e412b503",
    "batch.critic_ppo_micro_batch_size_per_gpu": "7e6f4cda",
    "batch.critic_ppo_micro_batch_size": "1d19435b",
    "batch.critic_use_dynamic_bsz": "a4e566d1",
    "batch.critic_ppo_max_token_len_per_gpu": "228a43e1",
    "batch.critic_forward_max_token_len_per_gpu": "18347266",
    "batch.critic_ppo_epochs": "96539bd1",
    "engine.strategy": "d2c9cc38",
    "engine.ulysses_sp": "b297c8c5",
    "engine.critic_ulysses_sp": "d1b88873",
    "engine.param_offload": "5a3de31d",
    "engine.optimizer_offload": "87ea0713",
    "engine.ref_param_offload": "c6e5b65d",
    "engine.critic_param_offload": "d2fe9877",
    "engine.critic_optimizer_offload": "031ecfb8",
    "engine.megatron_tp": "8317ef7d",
    "engine.megatron_pp": "264eb992",
    "engine.megatron_cp": "79c0804b",
    "rollout.name": "83c1d4e9",
    "rollout.mode": "09d1c9be",
    "rollout.tensor_parallel_size": "10ff64f8",
    "rollout.gpu_memory_utilization": "54cdc2a4",
    "rollout.temperature": "6abc3967",
    "rollout.val_do_sample": "4a2cb919",
    "rollout.load_format": "26cc9c2a",
    "rollout.layered_summon": "c63f035d",
    "cluster.nnodes": "04b38731",
    "cluster.n_gpus_per_node": "bc53135d",
    "cluster.trainer_mode": "017fcb5e",
    "cluster.hybrid_engine": "7d35efb7",
    "cluster.rollout_nnodes": "215cd53c",
    "cluster.rollout_n_gpus_per_node": "16e6034a",
    "cluster.parameter_sync_step": "155db182",
    "cluster.checkpoint_backend": "861dd8b5",
    "cluster.reward_pool_enable": "5034d96c",
    "cluster.reward_pool_nnodes": "22a0fef9",
    "cluster.reward_pool_n_gpus_per_node": "cc04c40f",
    "trainer.project_name": "0844d67e",
    "trainer.experiment_name": "a6a18187",
    "trainer.total_epochs": "37db579a",
    "trainer.total_training_steps": "9cd3978a",
    "trainer.save_freq": "62b52de5",
    "trainer.test_freq": "c1b7b43b",
    "trainer.logger": "f4a9c1c4",
    "trainer.val_before_train": "b45a9700",
    "trainer.critic_warmup": "42730da6",
    "deploy.target": "996147e8",
    "deploy.name": "4e2bbc56",
    "deploy.namespace": "80952380",
    "deploy.image": "7222aa65",
    "deploy.ray_version": "fb06c993",
    "deploy.gpu_head": "ce8b8efd",
    "deploy.cpus_per_gpu": "600e373c",
    "deploy.memory_per_gpu_gib": "f991baf7",
    "deploy.head_cpus": "d0bb4ea5",
    "deploy.head_memory_gib": "6361460a",
    "deploy.shm_gib": "631c52d8",
    "deploy.gpu_toleration": "02642102",
    "deploy.node_selector": "7430da4f",
    "deploy.ray_address": "37f03f35",
    "deploy.nccl_socket_ifname": "afd3ad29",
    "deploy.gloo_socket_ifname": "7c938a5d",
    "deploy.env": "2024d7d3",
    "deploy.secret_env": "9d46be7c",
    "deploy.k8s_secret": "898fae61",
    "deploy.auth_mode": "a540b138",
    "deploy.auth_secret": "14ac98cd",
    "deploy.ttl_seconds": "e0de4c37",
    "deploy.excludes": "6791df4b",
    "deploy.slurm_partition": "b07e50d1",
    "deploy.slurm_account": "e02cb745",
    "deploy.slurm_time": "240e9a6e",
    "deploy.join_timeout_s": "d7999996",
    "deploy.ray_port": "79a265df",
    "deploy.ray_init_num_cpus": "551a14c7",
    "deploy.data_volume": "56365eee",
    "deploy.data_mount": "692489c9",
    "deploy.hf_home": "4c49e0d6",
}


def as_strings() -> dict[str, str]:
    """The terms as catalogue keys: `rule.ID.title`, `rule.ID.why`, `field.NAME` and `field.NAME.help`."""
    out: dict[str, str] = {}
    for rule_id, (title, why) in RULES.items():
        out[f"rule.{rule_id}.title"] = title
        out[f"rule.{rule_id}.why"] = why
    for name, (label, help_text) in FIELDS.items():
        out[f"field.{name}"] = label
        out[f"field.{name}.help"] = help_text
    return out
