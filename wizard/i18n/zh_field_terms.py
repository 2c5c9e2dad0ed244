"""Chinese field labels and help, by field name: `FIELDS[name] = (label, help)` mirrors
`wizard.core.field_keys.all_fields()` and `field_help()` (wizard.i18n.zh_terms says how the terms are written and checked)."""

from __future__ import annotations

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
