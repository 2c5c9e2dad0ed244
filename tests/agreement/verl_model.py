"""verl 0.9.1's config checks, re-derived from its source as plain Python over a flat config.

This module is imported by the project's tests and by ``verl_oracle.py`` under the verl environment's
python, so it imports nothing but the standard library. A config is a flat mapping of dotted verl keys
(``actor_rollout_ref.rollout.n``) to values; interpolations (``${oc.select:a.b,1}``, ``${.x}``) are
resolved on read, so the same checks run over verl's real composed config (already resolved) and over
the defaults snapshot with a config.yaml laid on top (see ``compose_model.py``).

Two groups, numbered as in the project's research notes on verl's checks:

- ``startup_checks``: what ``main_ppo`` runs before Ray (B1-B8, B10, B12, C1's mandatory name) plus
  the dataclass conversions the TaskRunner does (the ref and critic configs). The conformance tier
  compares this model with verl's own verdict on every generated config, so it cannot drift.
- ``worker_checks``: what verl only checks later, on GPU machines, from the config alone, written from
  verl's formulas because a CPU cannot run them: C8-C14, C19 (Ulysses sp and Megatron TP against the
  heads, and the critic engine's remove-padding requirement) and vLLM's split of heads and KV heads over rollout TP (C20) where the model's heads
  are known, B13 (model paths: the harness replaces them by tiny local models), and B16 (the vLLM LoRA
  rank limit: vllm is not installed where the harness runs).

Each check yields ``(check_id, message)``.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from typing import Any

MISSING = object()
_INTERP = re.compile(r"^\$\{(.*)\}$")
VLLM_MAX_LORA_RANK = 512  # vLLM's MaxLoRARanks: 1, 8, 16, 32, 64, 128, 256, 320, 512
CRITIC_V1_TOKEN_BUDGET = 32768  # CriticConfig.ppo_infer_max_token_len_per_gpu, not in verl's yaml
LOSS_AGG_MODES = ("token-mean", "token-sum", "seq-mean-token-sum", "seq-mean-token-mean", "seq-mean-token-sum-norm")
ROLLOUT_NAMES = ("vllm", "sglang", "trtllm")


def _scalar(text: str) -> Any:
    """An oc.select default as OmegaConf reads it (null, true/false, ints, floats, else the string)."""
    low = text.strip()
    if low in ("null", "None", "~"):
        return None
    if low.lower() in ("true", "false"):
        return low.lower() == "true"
    for cast in (int, float):
        try:
            return cast(low)
        except ValueError:
            pass
    return low


class Config:
    """A flat dotted config whose ``${...}`` values are resolved when read.

    ``lookup``, when given, replaces the flat mapping: a function key -> value (or MISSING) that
    resolves by itself, such as OmegaConf.select over verl's real composed config.
    """

    def __init__(self, flat: dict[str, Any], lookup=None):
        self.flat = flat
        self.lookup = lookup

    def get(self, key: str, default: Any = None) -> Any:
        value = self.lookup(key) if self.lookup is not None else self._resolve(key, 0)
        return default if value is MISSING else value

    def _resolve(self, key: str, depth: int) -> Any:
        if depth > 20:
            raise ValueError(f"interpolation loop at {key}")
        value = self.flat.get(key, MISSING)
        if not isinstance(value, str):
            return value
        match = _INTERP.match(value.strip())
        if not match:
            return None if value == "???" else value
        body = match.group(1).strip()
        parent = key.rpartition(".")[0]
        if body.startswith("oc.select:"):
            path, _, fallback = body[len("oc.select:") :].partition(",")
            found = self._resolve(self._absolute(path.strip(), parent), depth + 1)
            return _scalar(fallback) if found is MISSING else found
        if body.startswith("oc."):
            return value  # a resolver the checks never read
        return self._resolve(self._absolute(body, parent), depth + 1)

    @staticmethod
    def _absolute(path: str, parent: str) -> str:
        if not path.startswith("."):
            return path
        dots = len(path) - len(path.lstrip("."))
        base = parent
        for _ in range(dots - 1):
            base = base.rpartition(".")[0]
        return f"{base}.{path[dots:]}" if base else path[dots:]


def _pos_int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


class Facts:
    """The numbers every check needs, read once from a config the way verl's code reads them."""

    def __init__(self, c: Config):
        a = "actor_rollout_ref."
        self.c = c
        self.megatron = c.get(a + "actor.strategy") == "megatron"
        self.g = c.get("trainer.n_gpus_per_node")
        self.N = self.g * c.get("trainer.nnodes")
        self.B = c.get("data.train_batch_size")
        self.n = c.get(a + "rollout.n")
        self.m = c.get(a + "actor.ppo_mini_batch_size")
        self.L = c.get("data.max_prompt_length") + c.get("data.max_response_length")
        self.dynamic = bool(c.get(a + "actor.use_dynamic_bsz"))
        lora = c.get(a + "model.lora.rank", 0) or 0
        if lora <= 0:
            lora = c.get(a + "model.lora_rank", 0) or 0
        self.lora_rank = 0 if c.get(a + "model.lora.merge", False) else lora
        self.ref_in_actor = lora > 0 or c.get(a + "model.lora_adapter_path") is not None
        self.need_ref = bool(c.get("algorithm.use_kl_in_reward", False)) or bool(c.get(a + "actor.use_kl_loss"))
        enable = c.get("critic.enable")
        self.need_critic = enable if enable is not None else c.get("algorithm.adv_estimator") == "gae"
        if self.megatron:
            meg = a + "actor.megatron."
            self.tp, self.pp, self.cp = (
                c.get(meg + k, 1) or 1
                for k in ("tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size")
            )
            self.mp = self.tp * self.pp * self.cp
            self.sp = self.cp
        else:
            legacy = c.get(a + "actor.ulysses_sequence_parallel_size", 1) or 1
            self.sp = legacy if legacy > 1 else (c.get(a + "actor.fsdp_config.ulysses_sequence_parallel_size", 1) or 1)
            self.mp = self.sp
        if self.megatron:
            cm = "critic.megatron."
            ctp, cpp, ccp = (
                c.get(cm + k, 1) or 1
                for k in ("tensor_model_parallel_size", "pipeline_model_parallel_size", "context_parallel_size")
            )
            self.critic_mp, self.critic_sp = ctp * cpp * ccp, ccp
        else:
            # verl 0.9.1's V1 critic builds its engine from critic.fsdp; critic.ulysses_sequence_parallel_size
            # is never copied there (only the actor's deprecated key is).
            self.critic_sp = c.get("critic.fsdp.ulysses_sequence_parallel_size", 1) or 1
            self.critic_mp = self.critic_sp
        self.critic_m = c.get("critic.ppo_mini_batch_size")
        self.critic_dynamic = bool(c.get("critic.use_dynamic_bsz"))
        self.v1 = c.get("trainer.use_v1", True) is not False


def as_config(config: Any) -> Config:
    return config if isinstance(config, Config) else Config(config)


def startup_checks(config: Any) -> list[tuple[str, str]]:
    """main_ppo's checks before Ray, then the TaskRunner's dataclass conversions; the first one fails.

    ``config`` is a flat dotted mapping or a Config.
    """
    for found in _startup(as_config(config)):
        return [found]
    return []


def _startup(c: Config) -> Iterator[tuple[str, str]]:
    a = "actor_rollout_ref."
    name = c.get(a + "rollout.name")
    if name is None:
        yield "C1", "Missing mandatory value: actor_rollout_ref.rollout.name"
        return
    f = Facts(c)
    if not f.dynamic:
        if f.megatron:
            if f.N % f.mp:
                yield (
                    "B1",
                    f"n_gpus ({f.N}) must be divisible by model_parallel_size times context_parallel_size ({f.mp})",
                )
                return
            mu = c.get(a + "actor.ppo_micro_batch_size_per_gpu")
            if mu is None:
                yield "B2", "TypeError: unsupported operand type(s) for *: 'int' and 'NoneType'"
                return
            minimal = (f.N // f.mp) * mu
        else:
            minimal = f.N
        if (f.B * f.n) % minimal:
            yield (
                "B2",
                f"real_train_batch_size ({f.B * f.n}) must be divisible by minimal possible batch size ({minimal})",
            )
            return
    yield from _actor_dataclass(c, f)
    if not f.dynamic:
        if f.need_ref:
            yield from _exclusive(c, a + "ref.log_prob_micro_batch_size", "B10")
        yield from _exclusive(c, a + "rollout.log_prob_micro_batch_size", "B10")
    if f.need_critic:
        yield from _critic_dataclass(c, f)
    if c.get(a + "rollout.val_kwargs.do_sample") and not (c.get(a + "rollout.temperature") or 0) > 0:
        yield "B15", "validation gen temperature should be greater than 0 when enabling do_sample"
    if name not in ROLLOUT_NAMES:
        yield "C1", f"unknown rollout name {name}"
    if c.get(a + "rollout.mode") == "sync":
        yield "C1", "Rollout mode 'sync' has been removed"
    # The TaskRunner/worker converts the ref config with the log-prob keys renamed (harness step "ref").
    if f.need_ref and not c.get(a + "ref.log_prob_use_dynamic_bsz"):
        glob, per_gpu = (
            c.get(a + "ref.log_prob_micro_batch_size"),
            c.get(a + "ref.log_prob_micro_batch_size_per_gpu"),
        )
        if glob is not None and per_gpu is not None:
            yield "B3-ref", "[actor] You have set both ppo_micro_batch_size and _per_gpu (ref)"
        elif glob is None and per_gpu is None:
            yield "B3-ref", "[actor] Please set at least one of ppo_micro_batch_size or _per_gpu (ref)"


def _actor_dataclass(c: Config, f: Facts) -> Iterator[tuple[str, str]]:
    a = "actor_rollout_ref.actor."
    glob, per_gpu = c.get(a + "ppo_micro_batch_size"), c.get(a + "ppo_micro_batch_size_per_gpu")
    if not f.dynamic:
        if glob is not None and per_gpu is not None:
            yield (
                "B3",
                "[actor] You have set both 'actor.ppo_micro_batch_size' AND 'actor.ppo_micro_batch_size_per_gpu'",
            )
            return
        if glob is None and per_gpu is None:
            yield (
                "B3",
                "[actor] Please set at least one of 'actor.ppo_micro_batch_size' or 'actor.ppo_micro_batch_size_per_gpu'",
            )
            return
    if c.get(a + "loss_agg_mode") not in LOSS_AGG_MODES:
        yield "B4", f"Invalid loss_agg_mode: {c.get(a + 'loss_agg_mode')}"
        return
    if not f.dynamic:
        if f.m > f.B:
            yield "B6", f"train_batch_size ({f.B}) must be >= actor.ppo_mini_batch_size ({f.m})"
            return
        if glob is not None:
            sp = 1 if f.megatron else (c.get(a + "ulysses_sequence_parallel_size", 1) or 1)
            if f.m % glob:
                yield "B7", f"ppo_mini_batch_size ({f.m}) must be divisible by ppo_micro_batch_size ({glob})"
                return
            if glob * sp < f.N:
                yield (
                    "B7",
                    f"ppo_micro_batch_size ({glob}) * ulysses_sequence_parallel_size ({sp}) must be >= n_gpus ({f.N})",
                )
                return
    if (
        not f.megatron
        and (c.get(a + "ulysses_sequence_parallel_size", 1) or 1) > 1
        and not c.get("actor_rollout_ref.model.use_remove_padding", False)
    ):
        yield "B8", "When using sequence parallelism for actor/ref policy, you must enable `use_remove_padding`."


def _exclusive(c: Config, key: str, check: str) -> Iterator[tuple[str, str]]:
    glob, per_gpu = c.get(key), c.get(key + "_per_gpu")
    if glob is None and per_gpu is None:
        yield check, f"Please set at least one of '{key}' or '{key}_per_gpu'."
    elif glob is not None and per_gpu is not None:
        yield check, f"You have set both '{key}' AND '{key}_per_gpu'."


def _critic_dataclass(c: Config, f: Facts) -> Iterator[tuple[str, str]]:
    dynamic = bool(c.get("critic.use_dynamic_bsz"))
    glob, per_gpu = c.get("critic.ppo_micro_batch_size"), c.get("critic.ppo_micro_batch_size_per_gpu")
    if not dynamic:
        if glob is None and per_gpu is None:
            yield (
                "B12",
                "[critic] Please set at least one of 'critic.micro_batch_size' or 'critic.micro_batch_size_per_gpu'.",
            )
            return
        if glob is not None and per_gpu is not None:
            yield "B12", "[critic] You have set both 'critic.micro_batch_size' AND 'critic.micro_batch_size_per_gpu'."
            return
        if glob is not None and f.critic_m % glob:
            yield (
                "B12",
                f"[critic] ppo_mini_batch_size ({f.critic_m}) must be divisible by ppo_micro_batch_size ({glob})",
            )
            return
        if f.critic_m > f.B:
            yield "B12", f"train_batch_size ({f.B}) must be >= critic.ppo_mini_batch_size ({f.critic_m})"
            return
        if glob is not None and not f.megatron:
            sp = c.get("critic.ulysses_sequence_parallel_size", 1) or 1
            if glob * sp < f.N:
                yield (
                    "B12",
                    f"critic.ppo_micro_batch_size ({glob}) * ulysses_sequence_parallel_size ({sp}) must be >= n_gpus ({f.N})",
                )


def worker_checks(
    config: Any, heads: tuple[int, int] | None = None, model_paths: dict[str, Any] | None = None
) -> list[tuple[str, str]]:
    """Every config-only check verl runs on the GPU machines (or that the harness cannot run), all of them.

    ``heads`` is (num_attention_heads, num_key_value_heads) of the actor model when known (C19, C20);
    ``model_paths`` maps "actor"/"critic" to the model path as written, before any harness rewrite (B13).
    """
    c = as_config(config)
    f = Facts(c)
    found: list[tuple[str, str]] = []
    found += _model_paths(f, model_paths or {})
    found += _rollout_layout(c, f)
    mesh_ok = _mesh(f, found)
    actor_mesh, critic_mesh = f.N % f.mp == 0, not f.need_critic or f.N % f.critic_mp == 0
    found += _dynamic_consistency(c, f)
    if mesh_ok:
        found += _batch_chain(c, f)
    found += _token_budgets(c, f)
    if f.need_critic and not f.megatron and f.critic_sp > 1 and not c.get("critic.model.use_remove_padding", False):
        found.append(
            (
                "C19-rp",
                "When using sequence parallelism (ulysses_sequence_parallel_size > 1), use_remove_padding must be on (critic engine)",
            )
        )
    if heads:
        # The engines build their meshes before they split the model: no head check past a failed mesh.
        found += _heads(c, f, heads, actor_mesh, critic_mesh)
    if f.lora_rank > VLLM_MAX_LORA_RANK and c.get("actor_rollout_ref.rollout.name") == "vllm":
        found.append(("B16", f"lora_rank must be less than or equal to {VLLM_MAX_LORA_RANK}, but got {f.lora_rank}"))
    return found


def _model_paths(f: Facts, paths: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    roles = [("actor", "B13-actor")] + ([("critic", "B13")] if f.need_critic else [])
    for role, check in roles:
        path = paths.get(role)
        # An unset path is verl's yaml default, itself a "~/models/..." placeholder.
        if not isinstance(path, str) or not path or path.startswith("~"):
            out.append((check, f"{role} model path {path!r} cannot be read (OSError: Repo id must be in the form ...)"))
    return out


def _rollout_layout(c: Config, f: Facts) -> list[tuple[str, str]]:
    r = "actor_rollout_ref.rollout."
    tp, dp, pp = (
        c.get(r + k, 1) or 1
        for k in ("tensor_model_parallel_size", "data_parallel_size", "pipeline_model_parallel_size")
    )
    world = tp * dp * pp
    out = []
    if f.N % world:
        out.append(("C8", f"rollout world_size: {f.N} is not divisible by infer_world_size: {world}"))
    if world % min(f.g, world):
        out.append(("C10", f"world_size {world} must be divisible by gpus_per_node {min(f.g, world)}"))
    if c.get(r + "name") == "vllm" and dp > 1 and f.g % tp:
        out.append(("C11", "gpus_per_node should be divisible by tensor_model_parallel_size"))
    return out


def _mesh(f: Facts, out: list) -> bool:
    """The device meshes of the actor and critic engines exist (world size divisible by the model split)."""
    ok = True
    if f.N % f.mp:
        out.append(("C12-mesh", f"{f.N} GPUs cannot form an actor mesh of model-parallel size {f.mp}"))
        ok = False
    if f.need_critic and f.N % f.critic_mp:
        out.append(("C12-mesh", f"{f.N} GPUs cannot form a critic mesh of model-parallel size {f.critic_mp}"))
        ok = False
    return ok


def _dynamic_consistency(c: Config, f: Facts) -> list[tuple[str, str]]:
    a = "actor_rollout_ref."
    out = []
    if f.dynamic != bool(c.get(a + "rollout.log_prob_use_dynamic_bsz")):
        out.append(("C9", "actor.use_dynamic_bsz != rollout.log_prob_use_dynamic_bsz"))
    elif f.dynamic:
        if (
            c.get(a + "rollout.log_prob_max_token_len_per_gpu") is None
            or c.get(a + "actor.ppo_max_token_len_per_gpu") is None
        ):
            out.append(("C9", "dynamic batching without a token budget"))
    elif (
        c.get(a + "rollout.log_prob_micro_batch_size_per_gpu") is None
        or c.get(a + "actor.ppo_micro_batch_size_per_gpu") is None
    ):
        out.append(("C9", "no per-GPU micro-batch size for the actor or the rollout log-prob pass"))
    if (
        f.need_ref
        and not f.ref_in_actor
        and not c.get(a + "ref.log_prob_use_dynamic_bsz")
        and c.get(a + "ref.log_prob_micro_batch_size_per_gpu") is None
    ):
        out.append(("C13", "ref infer micro_batch_size_per_gpu is None (TypeError in prepare_micro_batches)"))
    return out


def _batch_chain(c: Config, f: Facts) -> list[tuple[str, str]]:
    a = "actor_rollout_ref."
    out = []
    dp = f.N // f.mp
    mini = f.m * f.n
    if mini % dp:
        out.append(("C12", f"actor: Got mini_batch_size={mini} and data_parallel_size={dp}"))
    critic_dp = f.N // f.critic_mp
    if f.need_critic and (f.critic_m * f.n) % critic_dp:
        out.append(("C12", f"critic: Got mini_batch_size={f.critic_m * f.n} and data_parallel_size={critic_dp}"))
    if mini % dp:
        return out
    mu = _pos_int(c.get(a + "actor.ppo_micro_batch_size_per_gpu"))
    if not f.dynamic and mu and (mini // dp) % mu:
        out.append(("C13", f"actor: {mini // dp} responses per GPU per mini-batch, not divisible by micro {mu}"))
    # verl pads each step's batch to a multiple of lcm(dp, m·n, critic m·n) before the log-prob passes.
    unit = math.lcm(dp, mini, *([f.critic_m * f.n] if f.need_critic else []))
    per_gpu = -(-(f.B * f.n) // unit) * unit // dp
    # The old log-probs run on the actor's engine (packed as the actor packs); the reference on its own.
    passes = [] if f.dynamic else [("rollout", c.get(a + "rollout.log_prob_micro_batch_size_per_gpu"))]
    if f.need_ref and not f.ref_in_actor and not c.get(a + "ref.log_prob_use_dynamic_bsz"):
        passes.append(("ref", c.get(a + "ref.log_prob_micro_batch_size_per_gpu")))
    for role, micro in passes:
        micro = _pos_int(micro)
        if micro and per_gpu % micro:
            out.append(("C13", f"{role} log-prob: {per_gpu} responses per GPU, not divisible by micro {micro}"))
    return out


def _token_budgets(c: Config, f: Facts) -> list[tuple[str, str]]:
    a = "actor_rollout_ref."
    budgets = []
    if f.dynamic:
        budgets += [
            ("actor", c.get(a + "actor.ppo_max_token_len_per_gpu"), f.sp),
            ("rollout log-prob", c.get(a + "rollout.log_prob_max_token_len_per_gpu"), f.sp),
        ]
    if f.need_ref and not f.ref_in_actor and c.get(a + "ref.log_prob_use_dynamic_bsz"):
        ref_sp = f.sp if f.megatron else (c.get(a + "ref.ulysses_sequence_parallel_size", 1) or 1)
        budgets.append(("ref", c.get(a + "ref.log_prob_max_token_len_per_gpu"), ref_sp))
    if f.need_critic and f.v1:
        # The V1 trainer's critic engine always packs by tokens, with ppo_infer_max_token_len_per_gpu.
        budget = c.get("critic.ppo_infer_max_token_len_per_gpu", CRITIC_V1_TOKEN_BUDGET)
        budgets.append(("critic", budget, f.critic_sp))
    out = []
    for role, budget, sp in budgets:
        if isinstance(budget, int) and budget * sp < f.L:
            out.append(("C14", f"{role}: max_token_len {budget} x sp {sp} < max sequence length {f.L}"))
    return out


def _heads(c: Config, f: Facts, heads: tuple[int, int], actor_mesh: bool, critic_mesh: bool) -> list[tuple[str, str]]:
    num_heads, kv_heads = heads
    out = []
    sps = [] if f.megatron or not actor_mesh else [("actor", f.sp)]
    if f.need_critic and not f.megatron and critic_mesh:
        sps.append(("critic", f.critic_sp))
    if f.megatron and actor_mesh and f.tp > 1 and (num_heads % f.tp or kv_heads % f.tp):
        # megatron-core: divide(num_attention_heads, tp) and divide(num_query_groups, tp); no KV replication.
        out.append(("C19", f"Megatron TP {f.tp} does not divide {num_heads} heads and {kv_heads} query groups"))
    for role, sp in sps:
        if sp > 1 and (num_heads % sp or (kv_heads % sp and sp % kv_heads)):
            out.append(("C19", f"{role}: {num_heads} heads / {kv_heads} KV heads do not split over ulysses sp {sp}"))
    tp = c.get("actor_rollout_ref.rollout.tensor_model_parallel_size", 1) or 1
    if num_heads % tp:
        out.append(
            ("C20", f"Total number of attention heads ({num_heads}) must be divisible by tensor parallel size ({tp})")
        )
    elif kv_heads % tp if kv_heads >= tp else tp % kv_heads:
        # vLLM splits KV heads over TP, or replicates them when TP is a multiple of their count.
        out.append(("C20", f"{kv_heads} KV heads cannot be split or replicated over tensor parallel size {tp}"))
    return out
