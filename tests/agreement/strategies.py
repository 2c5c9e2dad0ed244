"""Hypothesis strategies: random wizard answers around the presets, biased to where verl's checks bite.

`configs()` draws a preset, then a layer of answers (verl keys -> values) over it in two steps:

1. a consistent core: GPUs, engine and its split (Ulysses sp or Megatron TP·PP·CP), rollout TP,
   estimator, critic, KL, LoRA, lengths, and batch sizes drawn as multiples of the units that make
   verl's invariants hold ((B·n) % N, (m·n) % dp, (m·n/dp) % mu, the log-prob micro sizes over the
   padded batch, token budget × sp >= prompt + response, heads split by sp and TP);
2. zero to two faults, each pushing one of those numbers just across its boundary (one off, one unit
   past, unset, or the neighbouring value that does not divide).

Faults come first-is-simplest, so hypothesis shrinks a failing config toward no faults and the
smallest numbers.
"""

from __future__ import annotations

import math
from typing import Any

from hypothesis import strategies as st

from tests.agreement.ours import MODEL_HEADS
from wizard.core.presets import preset_names

A = "actor_rollout_ref."
GROUP = ["grpo", "rloo", "reinforce_plus_plus", "remax", "grpo_passk", "opo"]
FAULTS = [
    "B+1",
    "B-1",
    "m+1",
    "m>B",
    "mu+1",
    "mu-none",
    "mu-global",
    "lp-mu+1",
    "lp-mu-none",
    "ref-mu+1",
    "ref-mu-none",
    "budget-low",
    "lp-budget-low",
    "ref-budget-low",
    "lp-dyn-flip",
    "tp-not-dividing",
    "tp-over-node",
    "sp-not-dividing",
    "sp-heads",
    "no-remove-padding",
    "mp-not-dividing",
    "mp-over-node",
    "group-n1",
    "critic-path",
    "critic-mini+1",
    "critic-micro+1",
    "critic-micro-none",
    "critic-sp",
    "critic-budget",
    "long",
    "lora-rank",
    "no-rollout-name",
    "critic-dyn-flip",
    "m-not-dividing-B",
    "critic-fsdp-sp",
    "critic-no-remove-padding",
]


def divisors(n: int) -> list[int]:
    return [d for d in range(1, n + 1) if n % d == 0]


def splits_heads(heads, size: int) -> bool:
    if heads is None:
        return True
    h, kv = heads
    return h % size == 0 and (kv % size == 0 or size % kv == 0)


@st.composite
def configs(draw) -> tuple[str, dict[str, Any]]:
    """(preset name, answers layer): one random config around a preset."""
    preset = draw(st.sampled_from(preset_names()))
    faults = set(draw(st.lists(st.sampled_from(FAULTS), max_size=2)) if draw(st.integers(0, 2)) else [])
    v: dict[str, Any] = {}
    g = draw(st.sampled_from([8, 4, 2, 1, 6]))
    nnodes = draw(st.sampled_from([1, 2, 4, 3]))
    N = g * nnodes
    v["trainer.n_gpus_per_node"], v["trainer.nnodes"] = g, nnodes
    path = draw(st.sampled_from(sorted(MODEL_HEADS)))
    heads = MODEL_HEADS[path]
    v[A + "model.path"] = path

    megatron = draw(st.sampled_from([False, False, False, True]))
    if megatron:
        tp = draw(st.sampled_from([d for d in divisors(g) if splits_heads(heads, d)]))
        pp = draw(st.sampled_from([d for d in divisors(N // tp) if d <= 4]))
        cp = draw(st.sampled_from([d for d in divisors(N // (tp * pp)) if d <= 2]))
        if "mp-not-dividing" in faults:
            tp = next(t for t in (3, 5, 6, 7) if N % (t * pp * cp))
        if "mp-over-node" in faults and N % (2 * g) == 0:
            tp, pp, cp = 2 * g, 1, 1
        v[A + "actor.strategy"] = "megatron"
        v[A + "actor.megatron.tensor_model_parallel_size"] = tp
        v[A + "actor.megatron.pipeline_model_parallel_size"] = pp
        v[A + "actor.megatron.context_parallel_size"] = cp
        mp, sp = tp * pp * cp, cp
    else:
        v[A + "actor.strategy"] = draw(st.sampled_from(["fsdp", "fsdp2"]))
        sp = draw(st.sampled_from([d for d in divisors(N) if d <= 8 and splits_heads(heads, d)]))
        if "sp-not-dividing" in faults:
            sp = next(s for s in (3, 5, 6, 7, 16) if N % s)
        if "sp-heads" in faults and heads:
            sp = next((s for s in divisors(N) if not splits_heads(heads, s)), sp)
        v[A + "actor.ulysses_sequence_parallel_size"] = sp
        v[A + "model.use_remove_padding"] = "no-remove-padding" not in faults
        mp = sp
    dp = max(1, N // mp)

    estimator = draw(st.sampled_from(["gae", *GROUP]))
    n = draw(st.sampled_from([1, 1, 2]) if estimator == "gae" else st.sampled_from([2, 4, 5, 8, 16, 3]))
    if "group-n1" in faults and estimator != "gae":
        n = 1
    v["algorithm.adv_estimator"], v[A + "rollout.n"] = estimator, n
    critic_enable = draw(st.sampled_from([None, None, None, True, False]))
    critic = critic_enable if critic_enable is not None else estimator == "gae"
    v["critic.enable"] = critic_enable
    v["critic.model.path"] = path if critic and "critic-path" not in faults else None
    use_ref = draw(st.booleans())
    v[A + "actor.use_kl_loss"] = use_ref
    v["algorithm.use_kl_in_reward"] = draw(st.sampled_from([False, False, True]))
    v[A + "model.lora_rank"] = 1024 if "lora-rank" in faults else draw(st.sampled_from([0, 0, 0, 8, 64, 512]))

    prompt = draw(st.sampled_from([128, 256, 512, 1024, 2048, 4096]))
    response = draw(st.sampled_from([256, 512, 1024, 2048, 4096, 8192]))
    if "long" in faults:
        response = draw(st.sampled_from([30000, 40000, 65536]))
    v["data.max_prompt_length"], v["data.max_response_length"] = prompt, response
    L = prompt + response
    need = -(-L // sp)

    def budget(low: bool) -> int:
        return max(1, need - 1) if low else draw(st.sampled_from([need, 2 * need, 3 * need, max(need, 16384)]))

    # Batch sizes: B so that B·n divides over the GPUs, m so that m·n divides over dp, m dividing B.
    unit = N // math.gcd(N, n)
    m_unit = dp // math.gcd(dp, n)
    m = m_unit * draw(st.integers(1, max(1, 64 // m_unit)))
    B = math.lcm(unit, m) * draw(st.integers(1, max(1, 256 // math.lcm(unit, m))))
    if "m+1" in faults:
        m += 1
    if "m-not-dividing-B" in faults and m_unit < B:
        m = max((k for k in range(m_unit, B, m_unit) if B % k), default=m)
    if "m>B" in faults:
        m = B + m_unit
    if "B+1" in faults:
        B += 1
    if "B-1" in faults and B > 1:
        B -= 1
    v["data.train_batch_size"], v[A + "actor.ppo_mini_batch_size"] = B, m

    dynamic = draw(st.sampled_from([False, False, True]))
    v[A + "actor.use_dynamic_bsz"] = dynamic
    v[A + "actor.ppo_max_token_len_per_gpu"] = budget("budget-low" in faults)
    if dynamic and ("lp-budget-low" in faults or draw(st.integers(1, 4)) == 1):
        v[A + "rollout.log_prob_max_token_len_per_gpu"] = budget("lp-budget-low" in faults)
    if dynamic and ("ref-budget-low" in faults or draw(st.integers(1, 4)) == 1):
        v[A + "ref.log_prob_max_token_len_per_gpu"] = budget("ref-budget-low" in faults)
    if "lp-dyn-flip" in faults:
        v[A + "rollout.log_prob_use_dynamic_bsz"] = not dynamic

    share = max(1, (m * n) // dp)
    mu = draw(st.sampled_from(divisors(share)[:8]))
    v[A + "actor.ppo_micro_batch_size_per_gpu"] = None if "mu-none" in faults else mu + ("mu+1" in faults)
    if "mu-global" in faults:
        v[A + "actor.ppo_micro_batch_size"] = draw(st.sampled_from(divisors(m)))
    critic_m = m
    if critic:
        c_sp = 2 if "critic-sp" in faults and not megatron else 1
        v["critic.ulysses_sequence_parallel_size"] = c_sp
        if not megatron and draw(st.integers(1, 4)) == 1:
            # The key verl 0.9.1's V1 critic really reads (the one above is deprecated there).
            fsdp_sp = draw(st.sampled_from([d for d in divisors(N) if d <= 8 and splits_heads(heads, d)]))
            if "critic-fsdp-sp" in faults:
                fsdp_sp = next(s for s in (3, 5, 6, 7, 16) if N % s)
            v["critic.fsdp.ulysses_sequence_parallel_size"] = fsdp_sp
            v["critic.model.use_remove_padding"] = "critic-no-remove-padding" not in faults
            c_sp = fsdp_sp if fsdp_sp > 1 else c_sp
        critic_m = m + ("critic-mini+1" in faults)
        v["critic.ppo_mini_batch_size"] = critic_m if critic_m != m or draw(st.booleans()) else None
        c_share = max(1, (critic_m * n) // N)
        c_mu = draw(st.sampled_from(divisors(c_share)[:8]))
        v["critic.ppo_micro_batch_size_per_gpu"] = (
            None if "critic-micro-none" in faults else c_mu + ("critic-micro+1" in faults)
        )
        if "critic-dyn-flip" in faults:
            v["critic.use_dynamic_bsz"] = not dynamic
        if "critic-budget" in faults:
            v["critic.ppo_max_token_len_per_gpu"] = max(1, -(-L // c_sp) - 1)
    padded = math.lcm(dp, m * n, *([critic_m * n] if critic else []))
    step_share = -(-(B * n) // padded) * padded // dp
    lp = draw(st.sampled_from(divisors(step_share)[:8]))
    v[A + "rollout.log_prob_micro_batch_size_per_gpu"] = None if "lp-mu-none" in faults else lp + ("lp-mu+1" in faults)
    ref = draw(st.sampled_from(divisors(step_share)[:8]))
    v[A + "ref.log_prob_micro_batch_size_per_gpu"] = None if "ref-mu-none" in faults else ref + ("ref-mu+1" in faults)
    v[A + "actor.ppo_epochs"] = draw(st.sampled_from([1, 1, 2, 4]))

    tps = [d for d in divisors(N) if d <= g and splits_heads(heads, d) and (heads is None or heads[0] % d == 0)]
    tp_r = draw(st.sampled_from(tps))
    if "tp-not-dividing" in faults:
        tp_r = next(t for t in (3, 5, 6, 7, 16, 32) if N % t)
    if "tp-over-node" in faults and g < N:
        tp_r = next((t for t in divisors(N) if t > g), tp_r)
    v[A + "rollout.tensor_model_parallel_size"] = tp_r
    v[A + "rollout.name"] = None if "no-rollout-name" in faults else draw(st.sampled_from(["vllm", "vllm", "sglang"]))
    return preset, v
