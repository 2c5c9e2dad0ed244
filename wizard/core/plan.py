"""Derived numbers of a run: data-parallel sizes, the batch chain per role, replicas and GPU pools.

Pure arithmetic over Answers (no I/O). The same Plan feeds the rules, the emitters' comments and the
TUI's live chain. Formulas follow verl 0.9.1: N = nnodes × n_gpus_per_node; dp = N / sp (FSDP) or
N / (TP·PP·CP) (Megatron); the global mini-batch is m × n responses and each GPU takes m·n/dp of them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from wizard.core import verl_schema
from wizard.core.answers.model import Answers
from wizard.core.verl_roles import need_critic, need_ref


@dataclass(frozen=True)
class BatchChain:
    """One trained role's path from prompts to optimizer steps. Fractions mark uneven splits."""

    role: str
    prompts_per_step: int
    responses_per_step: int
    dp: Fraction
    mini_batch_prompts: int
    mini_batch_responses: int
    mini_batches_per_step: Fraction
    mini_batch_per_gpu: Fraction
    micro_batch_per_gpu: int | None
    micro_steps_per_mini_batch: Fraction | None
    epochs: int
    dynamic: bool
    token_budget_per_gpu: int | None
    sp: int

    @property
    def optimizer_steps_per_step(self) -> Fraction:
        return self.mini_batches_per_step * self.epochs


@dataclass(frozen=True)
class Pool:
    name: str
    nnodes: int
    gpus_per_node: int

    @property
    def gpus(self) -> int:
        return self.nnodes * self.gpus_per_node


@dataclass(frozen=True)
class Plan:
    engine: str  # "dp" (FSDP family) or "megatron"
    n_gpus: int
    nnodes: int
    gpus_per_node: int
    seq_len: int
    need_ref: bool
    need_critic: bool
    ref_in_actor: bool
    model_parallel: int  # Megatron TP·PP·CP of the actor; 1 for FSDP
    actor: BatchChain
    critic: BatchChain | None
    rollout_tp: int
    rollout_replicas: Fraction
    pools: tuple[Pool, ...]
    log_prob_dynamic: bool
    ref_dynamic: bool

    @property
    def total_gpus(self) -> int:
        return sum(p.gpus for p in self.pools)


def engine_of(answers: Answers) -> str:
    return "megatron" if answers.engine.strategy == "megatron" else "dp"


def extra_or_default(answers: Answers, key: str, engine: str) -> Any:
    if key in answers.extra:
        return answers.extra[key]
    return verl_schema.default(key, engine)


def _as_int(value: Any, fallback: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else fallback


def _chain(role, B, n, dp, m, mu, epochs, dynamic, budget, sp) -> BatchChain:
    return BatchChain(
        role=role,
        prompts_per_step=B,
        responses_per_step=B * n,
        dp=dp,
        mini_batch_prompts=m,
        mini_batch_responses=m * n,
        mini_batches_per_step=Fraction(B, m),
        mini_batch_per_gpu=Fraction(m * n) / dp,
        micro_batch_per_gpu=mu,
        micro_steps_per_mini_batch=(Fraction(m * n) / dp / mu) if mu and not dynamic else None,
        epochs=epochs,
        dynamic=dynamic,
        token_budget_per_gpu=budget if dynamic else None,
        sp=sp,
    )


def build_plan(answers: Answers) -> Plan:
    a = answers
    engine = engine_of(a)
    N = a.cluster.nnodes * a.cluster.n_gpus_per_node
    B, n = a.batch.train_batch_size, a.batch.rollout_n
    if engine == "megatron":
        mp = a.engine.megatron_tp * a.engine.megatron_pp * a.engine.megatron_cp
        sp = a.engine.megatron_cp
    else:
        mp, sp = 1, a.engine.ulysses_sp
    dp = Fraction(N, mp if engine == "megatron" else sp)
    dynamic = a.batch.use_dynamic_bsz
    actor = _chain(
        "actor",
        B,
        n,
        dp,
        a.batch.ppo_mini_batch_size,
        a.batch.ppo_micro_batch_size_per_gpu,
        a.batch.ppo_epochs,
        dynamic,
        a.batch.ppo_max_token_len_per_gpu,
        sp,
    )
    critic = None
    if need_critic(a):
        if engine == "megatron":
            cmp = 1
            for part in ("tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size"):
                cmp *= _as_int(extra_or_default(a, f"critic.megatron.{part}", engine), 1)
            csp = _as_int(extra_or_default(a, "critic.megatron.context_parallel_size", engine), 1)
            cdp = Fraction(N, cmp)
        else:
            csp = a.engine.critic_ulysses_sp
            cdp = Fraction(N, csp)
        cdyn = a.batch.critic_use_dynamic_bsz if a.batch.critic_use_dynamic_bsz is not None else dynamic
        critic = _chain(
            "critic",
            B,
            n,
            cdp,
            a.batch.critic_ppo_mini_batch_size or a.batch.ppo_mini_batch_size,
            a.batch.critic_ppo_micro_batch_size_per_gpu,
            a.batch.critic_ppo_epochs or a.batch.ppo_epochs,
            cdyn,
            a.batch.critic_ppo_max_token_len_per_gpu,
            csp,
        )
    pools = [Pool("trainer", a.cluster.nnodes, a.cluster.n_gpus_per_node)]
    if a.models.reward_model_enable and a.cluster.reward_pool_enable:
        pools.append(Pool("reward model", a.cluster.reward_pool_nnodes, a.cluster.reward_pool_n_gpus_per_node))
    if a.cluster.trainer_mode == "separate_async":
        per_node = a.cluster.rollout_n_gpus_per_node
        pools.append(
            Pool("rollout", a.cluster.rollout_nnodes, a.cluster.n_gpus_per_node if per_node is None else per_node)
        )
    rollout_gpus = pools[-1].gpus if a.cluster.trainer_mode == "separate_async" else N
    log_prob_dynamic = dynamic if a.batch.log_prob_use_dynamic_bsz is None else a.batch.log_prob_use_dynamic_bsz
    ref_dynamic = dynamic if a.batch.ref_log_prob_use_dynamic_bsz is None else a.batch.ref_log_prob_use_dynamic_bsz
    lora = a.models.lora_rank > 0 or bool(a.extra.get("actor_rollout_ref.model.lora_adapter_path"))
    return Plan(
        engine=engine,
        n_gpus=N,
        nnodes=a.cluster.nnodes,
        gpus_per_node=a.cluster.n_gpus_per_node,
        seq_len=a.data.max_prompt_length + a.data.max_response_length,
        need_ref=need_ref(a),
        need_critic=critic is not None,
        ref_in_actor=lora,
        model_parallel=mp,
        actor=actor,
        critic=critic,
        rollout_tp=a.rollout.tensor_parallel_size,
        rollout_replicas=Fraction(rollout_gpus, a.rollout.tensor_parallel_size),
        pools=tuple(pools),
        log_prob_dynamic=log_prob_dynamic,
        ref_dynamic=ref_dynamic,
    )
