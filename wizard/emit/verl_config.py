"""config.yaml: a Hydra primary config that composes verl's own defaults and holds only what differs.

Run with `python -m verl.trainer.main_ppo --config-path=<abs dir> --config-name=config`. Every key comes
from the answers through wizard.core.field_keys, so nothing here can invent a key verl does not have.
"""

from __future__ import annotations

import re
from typing import Any

from wizard import __version__
from wizard.core import verl_schema
from wizard.core.answers.model import Answers
from wizard.core.field_keys import field_to_verl
from wizard.core.layers import LayeredAnswers
from wizard.core.plan import Plan
from wizard.emit.yaml_text import nest, render

SECTION_ORDER = ("algorithm", "data", "actor_rollout_ref", "critic", "reward", "trainer")


def _is_interpolation(value: Any) -> bool:
    return isinstance(value, str) and value.startswith("${")


_INTERPOLATION_START = re.compile(r"(\\*)\$\{")
_ENV_READ = re.compile(r"\$\{oc\.env:[A-Za-z_][A-Za-z0-9_]*(?:,[^${}]*)?\}")


def omegaconf_literal(value: Any) -> Any:
    """A value as config.yaml must write it so that OmegaConf reads back exactly that value.

    OmegaConf treats `${...}` in any string as an interpolation (`${oc.env:WANDB_API_KEY}` in an experiment
    name would read a secret at run time; an unclosed `${` stops verl at start). Each `${` a user wrote is
    escaped (`\\${`, with the backslashes before it doubled), except an environment read `${oc.env:NAME}` or
    `${oc.env:NAME,default}`: the launch-script import writes those on purpose for variables the script
    did not set, and DEPLOY-006 refuses one that reads a secret.
    """
    if isinstance(value, str):
        if "${" not in value:
            return value
        kept = {m.start() for m in _ENV_READ.finditer(value)}
        return _INTERPOLATION_START.sub(
            lambda m: m.group(0) if m.end() - 2 in kept and not m.group(1) else m.group(1) * 2 + "\\${", value
        )
    if isinstance(value, list):
        return [omegaconf_literal(v) for v in value]
    if isinstance(value, dict):
        return {k: omegaconf_literal(v) for k, v in value.items()}
    return value


def verl_overrides(answers: Answers, plan: Plan) -> dict[str, Any]:
    """verl key -> value for every answer that differs from verl's default, plus keys the engine implies."""
    engine = plan.engine
    out: dict[str, Any] = {}
    for field_name, key in field_to_verl().items():
        section, _, attr = field_name.partition(".")
        value = getattr(getattr(answers, section), attr)
        if value is None:
            continue
        if key == "actor_rollout_ref.actor.strategy" and engine == "megatron":
            continue
        default = verl_schema.default(key, engine)
        if not _is_interpolation(default) and value == default and key in verl_schema.defaults(engine):
            continue
        if not verl_schema.key_exists(key, engine):
            continue  # e.g. FSDP-only offload keys under Megatron, left at their defaults
        out[key] = value
    if answers.engine.strategy in ("fsdp2", "fsdp_turbo") and plan.need_critic:
        out.setdefault("critic.strategy", answers.engine.strategy)
    for key, value in answers.extra.items():
        if value is not None:
            out[key] = value
    return out


def defaults_list(plan: Plan) -> list:
    if plan.engine == "megatron":
        return ["ppo_trainer", {"override model_engine": "megatron"}, "_self_"]
    return ["ppo_trainer", "_self_"]


def comments_for(layered: LayeredAnswers, plan: Plan) -> dict[str, str]:
    """One short line above chosen keys: the batch chain and the TP plan (where values came from: answers.yaml)."""
    a = layered.answers
    chain = plan.actor
    notes = {
        "data.train_batch_size": f"{chain.prompts_per_step} prompts x n {a.batch.rollout_n} = {chain.responses_per_step} responses per step on {plan.n_gpus} GPUs (dp {chain.dp})",
        "actor_rollout_ref.actor.ppo_mini_batch_size": f"{float(chain.mini_batches_per_step):g} optimizer steps per step x {chain.epochs} epoch(s); {chain.mini_batch_responses} responses per mini-batch, {float(chain.mini_batch_per_gpu):g} per GPU",
        "actor_rollout_ref.rollout.tensor_model_parallel_size": f"{float(plan.rollout_replicas):g} inference replicas of {plan.rollout_tp} GPU(s)",
    }
    if chain.micro_steps_per_mini_batch is not None:
        notes["actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu"] = (
            f"{float(chain.micro_steps_per_mini_batch):g} micro-steps (gradient accumulation) per mini-batch on each GPU"
        )
    if chain.dynamic:
        notes["actor_rollout_ref.actor.ppo_max_token_len_per_gpu"] = (
            f"token budget x sp {chain.sp} >= prompt+response {plan.seq_len}"
        )
    return notes


def chain_summary(answers: Answers, plan: Plan) -> list[str]:
    """The batch chain and the parallel layout in a few plain lines (config header, RUN.md, TUI)."""
    c = plan.actor
    lines = [
        f"Batch chain: {c.prompts_per_step} prompts x n {answers.batch.rollout_n} = {c.responses_per_step} responses per step"
        f" -> {float(c.mini_batches_per_step):g} mini-batches of {c.mini_batch_responses} -> {float(c.mini_batch_per_gpu):g} per GPU (dp {c.dp})"
        + (
            f" -> {float(c.micro_steps_per_mini_batch):g} micro-steps of {c.micro_batch_per_gpu}"
            if c.micro_steps_per_mini_batch is not None
            else ""
        )
        + (f" -> packed by {c.token_budget_per_gpu} tokens per GPU" if c.dynamic else "")
        + f"; {float(c.optimizer_steps_per_step):g} optimizer steps per step.",
        f"GPUs: {plan.nnodes} node(s) x {plan.gpus_per_node} = {plan.n_gpus}; rollout: {float(plan.rollout_replicas):g} replica(s) of TP {plan.rollout_tp}"
        + (f"; Megatron TP*PP*CP = {plan.model_parallel}" if plan.engine == "megatron" else "")
        + (f"; total with split pools: {plan.total_gpus}" if len(plan.pools) > 1 else "")
        + ".",
    ]
    if plan.critic is not None:
        k = plan.critic
        lines.append(
            f"Critic chain: {k.mini_batch_responses} responses per mini-batch -> {float(k.mini_batch_per_gpu):g} per GPU (dp {k.dp})"
            + (
                f" -> {float(k.micro_steps_per_mini_batch):g} micro-steps of {k.micro_batch_per_gpu}"
                if k.micro_steps_per_mini_batch is not None
                else ""
            )
            + "."
        )
    return lines


def render_config(layered: LayeredAnswers, plan: Plan) -> str:
    overrides = {k: omegaconf_literal(v) for k, v in verl_overrides(layered.answers, plan).items()}
    ordered = sorted(overrides.items(), key=lambda kv: _section_rank(kv[0]))
    tree = {
        "hydra": {"searchpath": ["pkg://verl.trainer.config"]},
        "defaults": defaults_list(plan),
        **nest(dict(ordered)),
    }
    header = [
        f"# Written by verl-wizard {__version__} for verl {verl_schema.TARGET_VERSION}. Only values that differ from verl's defaults are here.",
        '# Run: python3 -m verl.trainer.main_ppo --config-path="$PWD" --config-name=config   (from this folder; see RUN.md)',
        *[f"# {line}" for line in chain_summary(layered.answers, plan)],
    ]
    return "\n".join(header + render(tree, comments_for(layered, plan))) + "\n"


def _section_rank(key: str) -> int:
    top = key.split(".")[0]
    return SECTION_ORDER.index(top) if top in SECTION_ORDER else len(SECTION_ORDER)
