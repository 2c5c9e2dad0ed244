"""Chinese messages of the rules over the config itself: KEY-*, ROLE-*, BATCH-* and PLACE-* (with the models,
the topology and the memory estimate). See wizard/i18n/zh_messages.py for the template syntax.
"""

from __future__ import annotations

import re

# The hand-written reasons of verl_data/renames.yaml, said in Chinese (KEY-001 quotes them).
RENAME_REASONS = {
    "validation sampling settings moved under rollout.val_kwargs; the old key lived on verl's main branch between releases": "验证采样的设置移到了 rollout.val_kwargs 下；旧键只在两个发布版本之间的 verl main 分支上存在过",
    "validation samples are logged to every configured logger, not only wandb": "验证样本会记录到所有已配置的 logger，而不只是 wandb",
    "split into save_contents and load_contents; load_contents follows save_contents by default": "拆分成了 save_contents 和 load_contents；load_contents 默认跟随 save_contents",
    "split into max_assistant_turns and max_user_turns": "拆分成了 max_assistant_turns 和 max_user_turns",
    "profiler settings were gathered under the top-level global_profiler section": "profiler 的设置归到了顶层的 global_profiler 一节",
    "the reward model became a served model under reward.reward_model, addressed by model_path": "奖励模型改为 reward.reward_model 下的服务化模型，用 model_path 指定",
    "reward settings moved under the top-level reward section; the manager is chosen by name": "奖励相关的设置移到了顶层的 reward 一节；manager 按名字选择",
    "the on/off switch became algorithm.rollout_correction.rollout_is, which takes the level (token or sequence) instead of true/false": "开关变成了 algorithm.rollout_correction.rollout_is，它的取值是级别（token 或 sequence），而不是 true/false",
    "the level is now the value of algorithm.rollout_correction.rollout_is (token or sequence); set it only if rollout_is was on": "级别现在是 algorithm.rollout_correction.rollout_is 的值（token 或 sequence）；只有原来开启了 rollout_is 时才需要设置",
}

# Parts of the memory estimate (wizard.core.memory), as PLACE-008 lists them.
MEMORY_PARTS = [
    (
        r"(?P<who>actor |)weights \((?P<how>fp32|bf16), (?P<split>sharded|TP·PP)\)",
        "{who}权重（{how}，{split|sharded}）",
    ),
    (r"gradients \((?P<how>fp32|bf16), (?P<split>sharded|TP·PP)\)", "梯度（{how}，{split|sharded}）"),
    (r"optimizer \(AdamW, sharded\)", "优化器状态（AdamW，分片）"),
    (r"optimizer \(distributed\)", "优化器状态（分布式）"),
    (r"gathered bf16 weights", "聚合后的 bf16 权重"),
    (r"logits \((?P<how>.+)\)", "logits（{how}）"),
    (r"activations", "激活值"),
    (r"gradient reduction", "梯度归约"),
    (r"optimizer step scratch", "优化器 step 的临时空间"),
    (r"allocator reserve", "显存分配器预留"),
    (r"(?P<who>\S+) weights \(resident\)", "{who} 权重（常驻）"),
    (r"(?P<who>\S+) optimizer \(resident\)", "{who} 优化器状态（常驻）"),
    (r"engine weights \(bf16 / TP\)", "推理引擎权重（bf16 / TP）"),
    (r"engine activations and graphs", "推理引擎激活值与 CUDA graph"),
    (r"KV cache", "KV cache"),
    (r"CUDA context and NCCL", "CUDA 上下文与 NCCL"),
    (r"largest tensor gathered whole", "整体聚合的最大张量"),
]

PATTERNS: list[tuple[str, str, str]] = [
    # ---------------------------------------------------------------- KEY
    (
        "KEY-001",
        r"(?P<k>\S+) moved to (?P<t>\S+) in verl (?P<v>\S+)(?P<why>(?: \(.+\))?)(?P<had>; it was in .+|; no release had it)",
        "{k} 已在 verl {v} 中移到 {t}{why|reason}{had|had}",
    ),
    (
        "KEY-001",
        r"(?P<k>\S+) was renamed to (?P<t>\S+) in verl (?P<v>\S+)(?P<why>(?: \(.+\))?)(?P<had>; it was in .+|; no release had it)",
        "{k} 已在 verl {v} 中改名为 {t}{why|reason}{had|had}",
    ),
    (
        "KEY-001",
        r"(?P<k>\S+) was removed in verl (?P<v>\S+) with no (?P<t>\S+) equivalent(?P<why>(?: \(.+\))?)(?P<had>; it was in .+|; no release had it)",
        "{k} 已在 verl {v} 中移除，{t} 中没有对应的键{why|reason}{had|had}",
    ),
    (
        "KEY-001",
        r"(?P<k>\S+) is not a key of any released verl; did you mean (?P<t>\S+)\?",
        "{k} 不是任何已发布 verl 版本的配置键；是不是想写 {t}？",
    ),
    (
        "KEY-001",
        r"(?P<k>\S+) is unknown to every released verl \((?P<a>\S+) to (?P<b>\S+)\): it belongs to a fork or to the script's own code",
        "{k} 不属于任何已发布的 verl 版本（{a} 到 {b}）：它来自某个 fork，或者是脚本自己代码里的键",
    ),
    (
        "KEY-001",
        r"(?P<k>\S+) exists only with the (?P<e>\S+) engine, not with this one",
        "{k} 只在 {e} 引擎下存在，当前引擎没有这个键",
    ),
    (
        "KEY-002",
        r"(?P<k>\S+) is not set; verl (?P<v>\S+) has no default \(vllm, sglang or trtllm\)",
        "{k} 未设置；verl {v} 没有默认值（可选 vllm、sglang 或 trtllm）",
    ),
    (
        "KEY-002",
        r"(?P<k>\S+) is not set; the reward model is served by vllm or sglang",
        "{k} 未设置；奖励模型需要由 vllm 或 sglang 提供服务",
    ),
    (
        "KEY-003",
        r"(?P<k>\S+) is read by verl (?P<ver>\S+) no more; its value (?P<v>.+) has no effect",
        "verl {ver} 不再读取 {k}；它的值 {v} 不起作用",
    ),
    ("KEY-004", r"(?P<k>\S+?)=(?P<v>.+) is not one of: (?P<allowed>.+)", "{k}={v} 不在允许的取值中：{allowed}"),
    ("KEY-004", r"lora_rank (?P<r>\d+) is above vLLM's maximum of (?P<m>\d+)", "lora_rank {r} 超过了 vLLM 的上限 {m}"),
    (
        "KEY-005",
        r"validation samples \(val_kwargs.do_sample=true\) but rollout.temperature is (?P<t>\S+); verl requires > 0",
        "验证时采样（val_kwargs.do_sample=true），但 rollout.temperature 为 {t}；verl 要求大于 0",
    ),
    # ---------------------------------------------------------------- ROLE
    (
        "ROLE-001",
        r"no actor model: set actor_rollout_ref.model.path to a Hugging Face id or an absolute folder",
        "没有 actor 模型：请把 actor_rollout_ref.model.path 设为 Hugging Face 模型 id 或绝对路径的文件夹",
    ),
    ("ROLE-002", r"(?P<why>.+) but critic.model.path is not set", "{why|critic_reason}，但没有设置 critic.model.path"),
    ("ROLE-003", r"critic and reward model are both (?P<p>.+)", "critic 与奖励模型都是 {p}"),
    (
        "ROLE-004",
        (
            r"reward model (?P<p>.+) is (?P<what>an? \S+(?: with num_labels=\d+)?) \((?P<where>.+)\); without a custom reward function "
            r"verl scores with it as a discriminative reward model, which needs a \*ForSequenceClassification head with num_labels=1"
        ),
        (
            "奖励模型 {p} 是 {what|model_kind}（{where|model_where}）；没有自定义奖励函数时，verl 把它当作判别式奖励模型来打分，"
            "这需要 num_labels=1 的 *ForSequenceClassification 头"
        ),
    ),
    (
        "ROLE-005",
        r"data_source (?P<s>.+) has no built-in scorer, and there is no reward model or custom reward function",
        "data_source {s} 没有内置的打分器，也没有奖励模型或自定义奖励函数",
    ),
    (
        "ROLE-006",
        r"critic.enable=true with adv_estimator=(?P<e>\S+): the critic is trained but its values are never used",
        "critic.enable=true 而 adv_estimator={e}：critic 会被训练，但它给出的价值从来不会被用到",
    ),
    (
        "ROLE-007",
        r"(?P<k>\S+?)=(?P<p>.+) starts with ~, which verl does not expand",
        "{k}={p} 以 ~ 开头，而 verl 不会展开 ~",
    ),
    (
        "ROLE-007",
        r"(?P<k>\S+?)=(?P<p>.+) does not exist on this machine \(use --mode cluster to skip local paths\)",
        "{k}={p} 在本机上不存在（用 --mode cluster 可以跳过本地路径的检查）",
    ),
    (
        "ROLE-008",
        (
            r"the critic (?P<c>.+) and the actor (?P<a>.+) differ in (?P<what>.+?) \((?P<y>.+) vs (?P<x>.+)\): "
            r"the critic reads the actor's token ids"
        ),
        "critic {c} 与 actor {a} 的{what|tokenizer_what}不同（{y} 对 {x}）：critic 读取的是 actor 的 token id",
    ),
    (
        "ROLE-008",
        (
            r"reward model (?P<p>.+) has no tokenizer files \((?P<where>.+?)\), and verl re-tokenizes every \(prompt, response\) "
            r"with the reward model's own tokenizer(?P<extra>(?:; its vocabulary .+)?)"
        ),
        (
            "奖励模型 {p} 没有 tokenizer 文件（{where|model_where}），而 verl 会用奖励模型自己的 tokenizer 为每个 (prompt, response) "
            "重新分词{extra|vocabulary}"
        ),
    ),
    (
        "ROLE-009",
        r"the reference is a frozen copy of (?P<m>.+), loaded by verl as a separate model",
        "参考模型是 {m|the_actor} 的冻结副本，由 verl 作为单独的模型加载",
    ),
    (
        "ROLE-009",
        r"the reference is the actor's base model with the LoRA adapter switched off \(no extra copy\)",
        "参考模型是关闭了 LoRA 适配器的 actor 基座模型（不额外加载副本）",
    ),
    (
        "ROLE-010",
        r"DAPO group filtering is on and the reward model shares the training GPUs",
        "DAPO 的分组过滤已开启，而奖励模型与训练共用 GPU",
    ),
    (
        "ROLE-011",
        r"the critic starts from (?P<p>.+), a reward model \((?P<k>[^,]+), (?P<where>.+)\)",
        "critic 从 {p} 初始化，而它是一个奖励模型（{k}，{where|model_where}）",
    ),
    # ---------------------------------------------------------------- BATCH
    (
        "BATCH-001",
        r"train_batch_size (?P<B>\d+) × n (?P<n>\d+) = (?P<t>\d+) responses do not divide by (?P<by>.+)",
        "train_batch_size {B} × n {n} = {t} 条回复无法被 {by|gpus} 整除",
    ),
    (
        "BATCH-002",
        r"ppo_mini_batch_size (?P<m>\d+) is larger than train_batch_size (?P<B>\d+)",
        "ppo_mini_batch_size {m} 大于 train_batch_size {B}",
    ),
    (
        "BATCH-003",
        r"train_batch_size (?P<B>\d+) is not a multiple of ppo_mini_batch_size (?P<m>\d+); verl pads (?P<p>\d+) dummy prompts each step",
        "train_batch_size {B} 不是 ppo_mini_batch_size {m} 的整数倍；verl 每步会补 {p} 个空提示",
    ),
    (
        "BATCH-004",
        r"(?P<role>\w+) mini-batch (?P<m>\d+) × n (?P<n>\d+) = (?P<t>\d+) responses do not split over (?P<dp>\d+) data-parallel ranks",
        "{role} 的 mini-batch {m} × n {n} = {t} 条回复无法平均分到 {dp} 个数据并行 rank 上",
    ),
    (
        "BATCH-005",
        r"(?P<role>\w+): each GPU gets (?P<expr>.+) = (?P<s>\d+) responses per mini-batch, not a multiple of micro-batch (?P<mu>\d+)",
        "{role}：每个 GPU 每个 mini-batch 分到 {expr} = {s} 条回复，不是 micro-batch {mu} 的整数倍",
    ),
    (
        "BATCH-005",
        r"each GPU recomputes log-probs for (?P<s>\d+) responses per step, not a multiple of (?P<k>\S+) (?P<mu>\d+)",
        "每个 GPU 每步要为 {s} 条回复重算 log-prob，不是 {k} {mu} 的整数倍",
    ),
    (
        "BATCH-006",
        r"(?P<role>[\w -]+): no micro-batch size: set (?P<k>\S+) or turn on dynamic batching",
        "{role|micro_role}：没有 micro-batch 大小：请设置 {k}，或开启动态批处理",
    ),
    (
        "BATCH-006",
        r"(?P<role>[\w -]+): both (?P<g>\S+) \((?P<gv>\d+)\) and (?P<p>\S+) \((?P<pv>\d+)\) are set",
        "{role|micro_role}：同时设置了 {g}（{gv}）和 {p}（{pv}）",
    ),
    (
        "BATCH-006",
        r"(?P<role>[\w -]+): only the deprecated global (?P<g>\S+) is set; verl (?P<v>\S+) workers need (?P<p>\S+)",
        "{role|micro_role}：只设置了已弃用的全局 {g}；verl {v} 的 worker 需要 {p}",
    ),
    (
        "BATCH-007",
        r"(?P<k>\S+) (?P<b>\d+) × sp (?P<sp>\d+) = (?P<t>\d+) tokens cannot hold one sequence of up to (?P<L>\d+) tokens",
        "{k} {b} × sp {sp} = {t} 个 token，装不下一条最长 {L} 个 token 的序列",
    ),
    (
        "BATCH-007",
        (
            r"the critic packs (?P<b>\d+) tokens per GPU × sp (?P<sp>\d+) = (?P<t>\d+) in verl's V1 trainer "
            r"\(critic.ppo_max_token_len_per_gpu is not read there\), less than one sequence of up to (?P<L>\d+) tokens"
        ),
        (
            "在 verl 的 V1 trainer 中，critic 每个 GPU 按 {b} 个 token × sp {sp} = {t} 打包（那里不读取 critic.ppo_max_token_len_per_gpu），"
            "装不下一条最长 {L} 个 token 的序列"
        ),
    ),
    (
        "BATCH-008",
        r"adv_estimator=(?P<e>\S+) with rollout.n = 1: every advantage is zero",
        "adv_estimator={e} 而 rollout.n = 1：所有优势值都为零",
    ),
    ("BATCH-009", r"gae with rollout.n = (?P<n>\d+)", "gae 搭配 rollout.n = {n}"),
    (
        "BATCH-010",
        r"critic mini-batch (?P<m>\d+) is larger than train_batch_size (?P<B>\d+)",
        "critic 的 mini-batch {m} 大于 train_batch_size {B}",
    ),
    (
        "BATCH-010",
        r"(?P<role>\w+) mini-batch (?P<m>\d+) × n (?P<n>\d+) = (?P<t>\d+) responses do not split over (?P<dp>\d+) data-parallel ranks",
        "{role} 的 mini-batch {m} × n {n} = {t} 条回复无法平均分到 {dp} 个数据并行 rank 上",
    ),
    (
        "BATCH-010",
        r"(?P<role>\w+): each GPU gets (?P<expr>.+) = (?P<s>\d+) responses per mini-batch, not a multiple of micro-batch (?P<mu>\d+)",
        "{role}：每个 GPU 每个 mini-batch 分到 {expr} = {s} 条回复，不是 micro-batch {mu} 的整数倍",
    ),
    (
        "BATCH-011",
        r"(?P<s>\S+) optimizer steps per rollout \((?P<expr>.+) epochs\)",
        "每次 rollout 之后做 {s} 次优化器更新（{expr} 个 epoch）",
    ),
    (
        "BATCH-012",
        r"separate_async needs train_batch_size = parameter_sync_step × ppo_mini_batch_size: (?P<rest>.+)",
        "separate_async 要求 train_batch_size = parameter_sync_step × ppo_mini_batch_size：{rest}",
    ),
    (
        "BATCH-014",
        r"rollout.log_prob_use_dynamic_bsz=(?P<a>\S+) but actor.use_dynamic_bsz=(?P<b>\S+)",
        "rollout.log_prob_use_dynamic_bsz={a}，但 actor.use_dynamic_bsz={b}",
    ),
    # ---------------------------------------------------------------- PLACE
    (
        "PLACE-001",
        r"(?P<g>\d+) rollout GPUs are not divisible by rollout tensor_model_parallel_size (?P<tp>\d+)",
        "{g} 个 rollout GPU 无法被 rollout tensor_model_parallel_size {tp} 整除",
    ),
    (
        "PLACE-002",
        r"rollout TP (?P<tp>\d+) is larger than the (?P<g>\d+) GPUs of a node: each replica would span nodes",
        "rollout TP {tp} 大于单个节点的 {g} 个 GPU：每个副本都会跨节点",
    ),
    (
        "PLACE-003",
        (
            r"(?P<role>\S+) TP (?P<tp>\d+) takes consecutive GPUs (?P<weak>.+?) across (?P<sym>\S+) links; better groups on this machine: "
            r"(?P<better>.+?) \(order the GPUs with CUDA_VISIBLE_DEVICES before `ray start` on each node, or change TP\)"
        ),
        (
            "{role} TP {tp} 使用连续编号的 GPU {weak}，组内要经过 {sym} 链路；这台机器上更好的分组是：{better}"
            "（在每个节点上 `ray start` 之前用 CUDA_VISIBLE_DEVICES 调整 GPU 顺序，或者改变 TP）"
        ),
    ),
    (
        "PLACE-004",
        r"(?P<g>\d+) GPUs are not divisible by TP (?P<tp>\d+) × PP (?P<pp>\d+) × CP (?P<cp>\d+) = (?P<t>\d+)",
        "{g} 个 GPU 无法被 TP {tp} × PP {pp} × CP {cp} = {t} 整除",
    ),
    (
        "PLACE-004",
        r"Megatron TP (?P<tp>\d+) is larger than the (?P<g>\d+) GPUs of a node",
        "Megatron TP {tp} 大于单个节点的 {g} 个 GPU",
    ),
    (
        "PLACE-005",
        (
            r"Megatron TP (?P<tp>\d+) cannot split the (?P<kv>\d+) KV heads of (?P<p>.+): Megatron divides the query groups by TP "
            r"and, unlike vLLM, does not replicate them"
        ),
        "Megatron TP {tp} 无法切分 {p} 的 {kv} 个 KV 头：Megatron 按 TP 划分 query group，而且不像 vLLM 那样复制 KV 头",
    ),
    (
        "PLACE-005",
        r"(?P<name>.+?) (?P<size>\d+) cannot split (?P<p>.+) \((?P<where>from the catalogue|read from .+?)\): (?P<problem>\d+ .+)",
        "{name|split_name} {size} 无法切分 {p}（{where|model_where}）：{problem|heads}",
    ),
    (
        "PLACE-006",
        r"(?P<who>.*)ulysses_sequence_parallel_size (?P<sp>\d+) needs (?P<k>\S+)=true",
        "{who}ulysses_sequence_parallel_size {sp} 需要 {k}=true",
    ),
    (
        "PLACE-007",
        r"the plan needs (?P<n>\d+) GPUs \((?P<parts>.+)\) and the target has (?P<h>\d+)",
        "方案需要 {n} 个 GPU（{parts}），而目标只有 {h} 个",
    ),
    (
        "PLACE-008",
        (
            r"(?P<phase>.+?) needs about (?P<t>\S+) GiB per GPU, (?P<share>\S+) of the GPU's (?P<g>\S+) GiB(?P<over>(?: \(over \S+\))?): "
            r"(?P<parts>.+) \(GiB\)"
        ),
        "{phase|phase}阶段每个 GPU 约需 {t} GiB，占 GPU {g} GiB 的 {share}{over|over}：{parts|memory_parts}（单位 GiB）",
    ),
    (
        "PLACE-008",
        r"(?P<phase>.+?): the engine's KV cache gets (?P<kv>\S+) GiB, less than one (?P<L>\d+)-token sequence needs \((?P<need>\S+) GiB\)",
        "{phase|phase}阶段：推理引擎的 KV cache 只有 {kv} GiB，少于一条 {L} token 的序列所需的 {need} GiB",
    ),
    (
        "PLACE-009",
        r"separate_async needs a standalone rollout pool; it has (?P<n>\d+) nodes × (?P<g>\d+) GPUs",
        "separate_async 需要独立的 rollout 资源池；现在是 {n} 个节点 × {g} 个 GPU",
    ),
    (
        "PLACE-009",
        r"separate_async cannot sync weights with the naive \(colocated\) checkpoint engine",
        "separate_async 无法用 naive（共置）checkpoint engine 同步权重",
    ),
    (
        "PLACE-009",
        r"separate_async with a reward model needs the reward model in its own pool",
        "separate_async 搭配奖励模型时，奖励模型需要单独的资源池",
    ),
    (
        "PLACE-009",
        r"hybrid_engine=false only works with trainer_mode separate_async \(it is (?P<m>\S+)\)",
        "hybrid_engine=false 只能与 trainer_mode separate_async 一起使用（现在是 {m}）",
    ),
    (
        "PLACE-009",
        r"the reward model's own pool has (?P<n>\d+) nodes × (?P<g>\d+) GPUs; both must be > 0",
        "奖励模型的单独资源池为 {n} 个节点 × {g} 个 GPU；两者都必须大于 0",
    ),
    (
        "PLACE-010",
        r"trainer.n_gpus_per_node is (?P<n>\d+) but (?P<where>.+) has (?P<h>\d+) GPU\(s\) per node",
        "trainer.n_gpus_per_node 为 {n}，但{where|topology}每个节点有 {h} 个 GPU",
    ),
    (
        "PLACE-011",
        r"(?P<n>\d+) nodes, and the topology shows no RDMA NIC at all",
        "{n} 个节点，而拓扑中完全没有 RDMA 网卡",
    ),
    (
        "PLACE-011",
        r"(?P<n>\d+) nodes, and every NIC \((?P<names>.+)\) is only reachable from the GPUs over NODE/SYS links",
        "{n} 个节点，而每块网卡（{names}）与 GPU 之间都只有 NODE/SYS 链路",
    ),
    (
        "PLACE-012",
        r"(?P<g>\d+) GPUs are not divisible by sequence parallel size (?P<sp>\d+)",
        "{g} 个 GPU 无法被序列并行大小 {sp} 整除",
    ),
    (
        "PLACE-013",
        r"rollout expert_parallel_size (?P<ep>\d+) must equal TP (?P<tp>\d+) × DP (?P<dp>\d+)",
        "rollout expert_parallel_size {ep} 必须等于 TP {tp} × DP {dp}",
    ),
    (
        "PLACE-013",
        r"rollout pipeline_model_parallel_size (?P<pp>\d+) is not implemented",
        "rollout pipeline_model_parallel_size {pp} 尚未实现",
    ),
]

FRAGMENTS: dict[str, object] = {
    "reason": [(r" \((?P<r>.+)\)", "（{r|rename_reason}）")],
    "rename_reason": [(re.escape(en), zh) for en, zh in RENAME_REASONS.items()],
    "had": [
        (r"; it was in verl (?P<a>\S+) to (?P<b>\S+)", "；verl {a} 到 {b} 中有这个键"),
        (r"; it was in verl (?P<a>\S+)", "；verl {a} 中有这个键"),
        (r"; no release had it", "；没有哪个发布版本有过这个键"),
    ],
    "critic_reason": [
        (r"critic.enable is true", "critic.enable 为 true"),
        (r"adv_estimator=(?P<e>\S+) trains a critic", "adv_estimator={e} 需要训练 critic"),
    ],
    "model_kind": [(r"an? (?P<k>\S+) with num_labels=(?P<n>\d+)", "num_labels={n} 的 {k}"), (r"an? (?P<k>\S+)", "{k}")],
    "model_where": [(r"from the catalogue", "来自内置模型目录"), (r"read from (?P<loc>.+)", "读自 {loc}")],
    # said between 的 and 不同: Latin words get a space on each side, Chinese ones none
    "tokenizer_what": [
        (r"tokenizer", " tokenizer "),
        (r"tokenizer family", " tokenizer 家族"),
        (r"tokenizer size", " tokenizer 大小"),
        (r"vocabulary size", "词表大小"),
    ],
    "vocabulary": [
        (
            r"; its vocabulary \((?P<y>.+)\) also differs from the actor's \((?P<x>.+)\)",
            "；它的词表（{y}）也与 actor 的（{x}）不同",
        )
    ],
    "the_actor": [(r"the actor", "actor")],
    "gpus": [(r"(?P<n>\d+) GPUs", "{n} 个 GPU")],
    "micro_role": [(r"reference", "参考模型"), (r"rollout log-prob", "rollout 的 log-prob 计算")],
    "split_name": [(r"reward model (?P<k>.+)", "奖励模型的 {k}")],
    "heads": [
        (r"(?P<h>\d+) attention heads are not divisible by (?P<s>\d+)", "{h} 个注意力头无法被 {s} 整除"),
        (
            r"(?P<kv>\d+) KV heads are neither divisible by (?P<s>\d+) nor divide it",
            "{kv} 个 KV 头既不能被 {s} 整除，也不能整除 {s}",
        ),
    ],
    "phase": [
        (r"actor update", "actor 更新"),
        (r"actor log-prob", "actor 计算 log-prob"),
        (r"ref log-prob", "参考模型计算 log-prob"),
        (r"rollout generate", "rollout 生成"),
        (r"rollout weight sync", "rollout 权重同步"),
        (r"critic update", "critic 更新"),
        (r"reward model score", "奖励模型打分"),
    ],
    "over": [(r" \(over (?P<p>\S+)\)", "（超过 {p}）")],
    "memory_parts": ("split", r"(?<=\d\.\d), ", "，", "memory_part"),
    "memory_part": [(r"(?P<label>.+) (?P<gib>\d+\.\d)", "{label|memory_label} {gib}")],
    "memory_label": MEMORY_PARTS,
    "sharded": [(r"sharded", "分片")],
    "topology": [
        (r"this machine", "本机"),
        (r"the pasted topology", "粘贴的拓扑"),
        (r"the named topology (?P<n>.+)", "指定的拓扑 {n} "),
        (r"the named topology", "指定的拓扑"),
        (r"the topology", "拓扑"),
    ],
}
