"""Tokens one GPU holds in one micro-batch of each phase of the memory estimate (the actor update, the
log-prob passes, the reference, the critic), and the verl key that sets them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Budget:
    """Tokens one GPU holds in one micro-batch of a phase, and the key that sets them."""

    tokens: int
    key: str


def _micro_tokens(
    dynamic: bool, budget: int | None, budget_key: str, micro: int | None, micro_key: str, seq_len: int, sp: int
) -> Budget:
    if dynamic:
        return Budget(int(budget or 16384), budget_key)
    return Budget(max(1, int(micro or 1) * seq_len // max(1, sp)), micro_key)


def token_budgets(answers, plan) -> dict[str, Budget]:
    """Tokens per GPU per micro-batch of the actor update, the log-prob passes, the reference and the critic."""
    b, L, sp = answers.batch, plan.seq_len, plan.actor.sp
    A = "actor_rollout_ref."
    out = {
        "update": _micro_tokens(
            plan.actor.dynamic,
            b.ppo_max_token_len_per_gpu,
            A + "actor.ppo_max_token_len_per_gpu",
            b.ppo_micro_batch_size_per_gpu,
            A + "actor.ppo_micro_batch_size_per_gpu",
            L,
            sp,
        )
    }
    lp_budget = b.log_prob_max_token_len_per_gpu or b.ppo_max_token_len_per_gpu
    out["log-prob"] = _micro_tokens(
        plan.log_prob_dynamic,
        lp_budget,
        A + "rollout.log_prob_max_token_len_per_gpu",
        b.log_prob_micro_batch_size_per_gpu,
        A + "rollout.log_prob_micro_batch_size_per_gpu",
        L,
        sp,
    )
    ref_budget = b.ref_log_prob_max_token_len_per_gpu or b.ppo_max_token_len_per_gpu
    out["ref"] = _micro_tokens(
        plan.ref_dynamic,
        ref_budget,
        A + "ref.log_prob_max_token_len_per_gpu",
        b.ref_log_prob_micro_batch_size_per_gpu or b.log_prob_micro_batch_size_per_gpu,
        A + "ref.log_prob_micro_batch_size_per_gpu",
        L,
        sp,
    )
    if plan.critic is not None:
        out["critic"] = _micro_tokens(
            plan.critic.dynamic,
            b.critic_ppo_max_token_len_per_gpu,
            "critic.ppo_max_token_len_per_gpu",
            b.critic_ppo_micro_batch_size_per_gpu,
            "critic.ppo_micro_batch_size_per_gpu",
            L,
            plan.critic.sp,
        )
    return out
