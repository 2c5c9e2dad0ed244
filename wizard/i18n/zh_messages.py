"""Chinese finding messages: each English message a rule writes, matched by pattern, re-said in Chinese
with the same numbers and keys. A message no pattern matches is shown in English (never dropped).
"""

from __future__ import annotations

import re

# (rule id, pattern over the English message, Chinese template using the pattern's named groups)
PATTERNS: list[tuple[str, str, str]] = [
    ("BATCH-001", r"train_batch_size (?P<B>\d+) × n (?P<n>\d+) = (?P<t>\d+) responses do not divide by (?P<by>.+)",
     "train_batch_size {B} × n {n} = {t} 条回复无法被 {by} 整除"),
    ("BATCH-002", r"ppo_mini_batch_size (?P<m>\d+) is larger than train_batch_size (?P<B>\d+)",
     "ppo_mini_batch_size {m} 大于 train_batch_size {B}"),
    ("BATCH-003", r"train_batch_size (?P<B>\d+) is not a multiple of ppo_mini_batch_size (?P<m>\d+); verl pads (?P<p>\d+) dummy prompts each step",
     "train_batch_size {B} 不是 ppo_mini_batch_size {m} 的整数倍；verl 每步会补 {p} 个空提示"),
    ("BATCH-004", r"(?P<role>\w+) mini-batch (?P<m>\d+) × n (?P<n>\d+) = (?P<t>\d+) responses do not split over (?P<dp>\d+) data-parallel ranks",
     "{role} 的 mini-batch {m} × n {n} = {t} 条回复无法平均分到 {dp} 个数据并行进程"),
    ("BATCH-005", r"(?P<role>\w+): each GPU gets (?P<expr>.+) = (?P<s>\d+) responses per mini-batch, not a multiple of micro-batch (?P<mu>\d+)",
     "{role}：每个 GPU 每个 mini-batch 分到 {expr} = {s} 条回复，不是 micro-batch {mu} 的整数倍"),
    ("BATCH-005", r"each GPU recomputes log-probs for (?P<s>\d+) responses per step, not a multiple of (?P<k>\S+) (?P<mu>\d+)",
     "每个 GPU 每步为 {s} 条回复重算 log-prob，不是 {k} {mu} 的整数倍"),
    ("BATCH-006", r"(?P<role>[\w -]+): no micro-batch size: set (?P<k>\S+) or turn on dynamic batching",
     "{role}：没有 micro-batch 大小：请设置 {k}，或开启动态批处理"),
    ("BATCH-006", r"(?P<role>[\w -]+): both (?P<g>\S+) \((?P<gv>\d+)\) and (?P<p>\S+) \((?P<pv>\d+)\) are set",
     "{role}：同时设置了 {g}（{gv}）和 {p}（{pv}）"),
    ("BATCH-006", r"(?P<role>[\w -]+): only the deprecated global (?P<g>\S+) is set; verl 0.9 workers need (?P<p>\S+)",
     "{role}：只设置了已弃用的全局 {g}；verl 0.9 的 worker 需要 {p}"),
    ("BATCH-007", r"(?P<k>\S+) (?P<b>\d+) × sp (?P<sp>\d+) = (?P<t>\d+) tokens cannot hold one sequence of up to (?P<L>\d+) tokens",
     "{k} {b} × sp {sp} = {t} 个 token，装不下一条最长 {L} 个 token 的序列"),
    ("BATCH-008", r"adv_estimator=(?P<e>\S+) with rollout.n = 1: every advantage is zero",
     "adv_estimator={e} 而 rollout.n = 1：所有优势值都为零"),
    ("BATCH-009", r"gae with rollout.n = (?P<n>\d+)", "gae 搭配 rollout.n = {n}"),
    ("BATCH-010", r"critic mini-batch (?P<m>\d+) is larger than train_batch_size (?P<B>\d+)",
     "critic 的 mini-batch {m} 大于 train_batch_size {B}"),
    ("BATCH-011", r"(?P<s>[\d.]+) optimizer steps per rollout \((?P<expr>.+) epochs\)",
     "每次 rollout 做 {s} 次优化器更新（{expr} 个 epoch）"),
    ("BATCH-012", r"separate_async needs train_batch_size = parameter_sync_step × ppo_mini_batch_size: (?P<rest>.+)",
     "separate_async 要求 train_batch_size = parameter_sync_step × ppo_mini_batch_size：{rest}"),
    ("BATCH-014", r"rollout.log_prob_use_dynamic_bsz=(?P<a>\S+) but actor.use_dynamic_bsz=(?P<b>\S+)",
     "rollout.log_prob_use_dynamic_bsz={a}，但 actor.use_dynamic_bsz={b}"),
    ("PLACE-001", r"(?P<g>\d+) rollout GPUs are not divisible by rollout tensor_model_parallel_size (?P<tp>\d+)",
     "{g} 个 rollout GPU 无法被 rollout tensor_model_parallel_size {tp} 整除"),
    ("PLACE-002", r"rollout TP (?P<tp>\d+) is larger than the (?P<g>\d+) GPUs of a node: each replica would span nodes",
     "rollout TP {tp} 大于单节点的 {g} 个 GPU：每个副本都会跨节点"),
    ("PLACE-004", r"(?P<g>\d+) GPUs are not divisible by TP (?P<tp>\d+) × PP (?P<pp>\d+) × CP (?P<cp>\d+) = (?P<t>\d+)",
     "{g} 个 GPU 无法被 TP {tp} × PP {pp} × CP {cp} = {t} 整除"),
    ("PLACE-004", r"Megatron TP (?P<tp>\d+) is larger than the (?P<g>\d+) GPUs of a node",
     "Megatron TP {tp} 大于单节点的 {g} 个 GPU"),
    ("PLACE-006", r"(?P<who>.*)ulysses_sequence_parallel_size (?P<sp>\d+) needs (?P<k>\S+)=true",
     "{who}ulysses_sequence_parallel_size {sp} 需要 {k}=true"),
    ("PLACE-007", r"the plan needs (?P<n>\d+) GPUs \((?P<parts>.+)\) and the target has (?P<h>\d+)",
     "方案需要 {n} 个 GPU（{parts}），目标只有 {h} 个"),
    ("PLACE-010", r"trainer.n_gpus_per_node is (?P<n>\d+) but (?P<where>.+) has (?P<h>\d+) GPU\(s\) per node",
     "trainer.n_gpus_per_node 为 {n}，但 {where} 每节点有 {h} 个 GPU"),
    ("PLACE-012", r"(?P<g>\d+) GPUs are not divisible by sequence parallel size (?P<sp>\d+)",
     "{g} 个 GPU 无法被序列并行大小 {sp} 整除"),
    ("KEY-001", r"(?P<k>\S+) is not a key of verl (?P<v>[\d.]+); did you mean (?P<c>\S+)\?",
     "{k} 不是 verl {v} 的配置键；是不是想写 {c}？"),
    ("KEY-001", r"(?P<k>\S+) is not a key of verl (?P<v>[\d.]+)$", "{k} 不是 verl {v} 的配置键"),
    ("KEY-002", r"(?P<k>\S+) is not set; (?P<rest>.+)", "{k} 未设置；{rest}"),
    ("KEY-003", r"(?P<k>\S+) is read by verl 0.9 no more; its value (?P<v>.+) has no effect",
     "verl 0.9 不再读取 {k}；它的值 {v} 不起作用"),
    ("KEY-004", r"(?P<k>\S+)=(?P<v>.+) is not one of: (?P<allowed>.+)", "{k}={v} 不在允许的取值中：{allowed}"),
    ("KEY-004", r"lora_rank (?P<r>\d+) is above vLLM's maximum of (?P<m>\d+)", "lora_rank {r} 超过了 vLLM 的上限 {m}"),
    ("KEY-005", r"validation samples \(val_kwargs.do_sample=true\) but rollout.temperature is (?P<t>\S+); verl requires > 0",
     "验证时采样（val_kwargs.do_sample=true），但 rollout.temperature 为 {t}；verl 要求大于 0"),
    ("ROLE-001", r"no actor model: .*", "没有 actor 模型：请把 actor_rollout_ref.model.path 设为 Hugging Face 模型名或绝对路径"),
    ("ROLE-002", r"(?P<why>.+) but critic.model.path is not set", "{why}，但没有设置 critic.model.path"),
    ("ROLE-009", r"the reference is a frozen copy of (?P<m>.+), loaded by verl as a separate model",
     "参考模型是 {m} 的冻结副本，由 verl 单独加载"),
    ("ROLE-009", r"the reference is the actor's base model with the LoRA adapter switched off \(no extra copy\)",
     "参考模型是关闭 LoRA 适配器的 actor 基座模型（不额外占用显存）"),
]

_COMPILED = [(rid, re.compile(p), template) for rid, p, template in PATTERNS]


def zh_message(rule_id: str, message: str) -> str | None:
    """The Chinese message for an English one, or None when no pattern of that rule matches."""
    for rid, pattern, template in _COMPILED:
        if rid == rule_id:
            match = pattern.fullmatch(message)
            if match:
                return template.format(**match.groupdict())
    return None
