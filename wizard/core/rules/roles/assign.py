"""Roles and models (ROLE-*): every role has a model, the right one, and a source of reward."""

from __future__ import annotations

import re
from collections.abc import Iterator

from wizard.core.findings import Finding, Fix, Severity
from wizard.core.paths import home_expanded, missing_here
from wizard.core.rule_context import RuleContext
from wizard.core.rules.declare import make_finding, rule
from wizard.i18n.text import msg

ACTOR_PATH = "actor_rollout_ref.model.path"
CRITIC_PATH = "critic.model.path"
RM_PATH = "reward.reward_model.model_path"
CUSTOM_REWARD = "reward.custom_reward_function.path"

# data_source values that verl 0.9.1's default_compute_score knows (exact names, then prefixes).
BUILTIN_SOURCES = {
    "openai/gsm8k",
    "lighteval/MATH",
    "DigitalLearningGmbH/MATH-lighteval",
    "HuggingFaceH4/MATH-500",
    "math",
    "math_dapo",
    "codecontests",
    "apps",
    "codeforces",
    "taco",
    "hiyouga/geometry3k",
}
BUILTIN_PREFIXES = ("aime", "numina_", "searchR1_")


def is_builtin_source(source: str) -> bool:
    return source in BUILTIN_SOURCES or source.startswith(BUILTIN_PREFIXES)


# What a model path that is not a local one may hold: Hugging Face repo ids are namespace/name of letters,
# digits, '_', '-' and '.'; a folder relative to where the run starts may have more segments. Anything else
# (a space, a quote, a '$', a ';', from a paste) is neither, and transformers stops verl at start-up with it.
MODEL_NAME = re.compile(r"[\w.\-]+(/[\w.\-]+)*")


def looks_local(path: str) -> bool:
    return path.startswith(("/", "./", "../"))


@rule(
    "ROLE-001",
    Severity.ERROR,
    title="No actor model path",
    why="verl falls back to its placeholder ~/models/deepseek-llm-7b-chat and fails to load it; the actor (and the reference, a copy of it) must come from a real checkpoint.",
)
def check_actor_path(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.answers.models.actor_path:
        yield make_finding("ROLE-001", [ACTOR_PATH], msg("role.no_actor"))


@rule(
    "ROLE-002",
    Severity.ERROR,
    title="A critic is needed and has no model path",
    why="GAE (or critic.enable) builds a value model; without critic.model.path verl loads its placeholder path and the run dies after the workers start.",
)
def check_critic_path(ctx: RuleContext) -> Iterator[Finding]:
    a = ctx.answers
    if ctx.plan.need_critic and not a.models.critic_path:
        reason = (
            msg("role.critic_reason.enable")
            if a.models.critic_enable
            else msg("role.critic_reason.estimator", estimator=a.algorithm.adv_estimator)
        )
        fixes = (
            [Fix({CRITIC_PATH: a.models.actor_path}, msg("role.fix.critic_from_actor_checkpoint"))]
            if a.models.actor_path
            else []
        )
        yield make_finding("ROLE-002", [CRITIC_PATH], msg("role.critic_without_path", reason=reason), fixes)


@rule(
    "ROLE-003",
    Severity.WARNING,
    title="Critic and reward model are the same checkpoint",
    why="Initialising the value model from the reward model couples value and reward estimates; the usual choice is the actor's checkpoint.",
)
def hint_critic_is_reward_model(ctx: RuleContext) -> Iterator[Finding]:
    m = ctx.answers.models
    if ctx.plan.need_critic and m.reward_model_enable and m.critic_path and m.critic_path == m.reward_model_path:
        fixes = [Fix({CRITIC_PATH: m.actor_path}, msg("role.fix.critic_from_actor"))] if m.actor_path else []
        yield make_finding(
            "ROLE-003", [CRITIC_PATH, RM_PATH], msg("role.critic_is_reward_model", path=m.critic_path), fixes
        )


@rule(
    "ROLE-005",
    Severity.ERROR,
    title="No source of reward",
    why="With no reward model and no custom reward function, verl's built-in scorer picks a function by data_source and raises NotImplementedError for sources it does not know.",
)
def check_reward_source(ctx: RuleContext) -> Iterator[Finding]:
    m = ctx.answers.models
    if m.reward_model_enable or m.custom_reward_path or m.reward_manager == "remote":
        return
    if m.data_source is not None and not is_builtin_source(m.data_source):
        yield make_finding("ROLE-005", [CUSTOM_REWARD], msg("role.no_scorer", source=m.data_source))


@rule(
    "ROLE-006",
    Severity.WARNING,
    title="A critic is built but the estimator does not use it",
    why="Only gae reads the critic's values; with another estimator the critic costs GPU memory and time for nothing.",
)
def hint_unused_critic(ctx: RuleContext) -> Iterator[Finding]:
    a = ctx.answers
    if a.models.critic_enable and a.algorithm.adv_estimator != "gae":
        yield make_finding(
            "ROLE-006",
            ["critic.enable"],
            msg("role.unused_critic", estimator=a.algorithm.adv_estimator),
            [Fix({"critic.enable": None}, msg("role.fix.no_critic"))],
        )


@rule(
    "ROLE-007",
    Severity.ERROR,
    title="A model path verl cannot open",
    why="verl does not expand ~ (it treats the path as a Hugging Face repo id) and a local path must exist on the machines that load it.",
)
def check_model_paths(ctx: RuleContext) -> Iterator[Finding]:
    m = ctx.answers.models
    roles = [
        (ACTOR_PATH, m.actor_path, True),
        (CRITIC_PATH, m.critic_path, ctx.plan.need_critic),
        (RM_PATH, m.reward_model_path, m.reward_model_enable),
        (CUSTOM_REWARD, m.custom_reward_path, True),
    ]
    for key, path, used in roles:
        if not used or not path:
            continue
        if path.startswith("~"):
            expanded = home_expanded(ctx, path)
            fixes = [Fix({key: expanded}, msg("fix.expand_home", path=expanded))] if expanded != path else []
            yield make_finding("ROLE-007", [key], msg("role.tilde_path", key=key, path=path), fixes)
        elif ctx.mode == "local" and looks_local(path) and missing_here(ctx, path):
            yield make_finding("ROLE-007", [key], msg("role.missing_path", key=key, path=path))
        elif key != CUSTOM_REWARD and not looks_local(path) and "${" not in path and not MODEL_NAME.fullmatch(path):
            # ${...}: an interpolation verl resolves at start-up (a script's unknown environment variable)
            yield make_finding("ROLE-007", [key], msg("role.not_a_model_name", key=key, path=path))


@rule(
    "ROLE-009",
    Severity.INFO,
    title="The reference model is a frozen copy of the actor's start",
    why="verl loads the reference from actor_rollout_ref.model.path as a separate frozen model (with LoRA: the base model with the adapter off); it costs memory but needs no path of its own.",
)
def info_reference(ctx: RuleContext) -> Iterator[Finding]:
    if not ctx.plan.need_ref:
        return
    if ctx.plan.ref_in_actor:
        message = msg("role.reference_lora")
    else:
        message = msg("role.reference_copy", model=ctx.answers.models.actor_path or msg("role.the_actor"))
    yield make_finding("ROLE-009", [ACTOR_PATH], message)


@rule(
    "ROLE-010",
    Severity.ERROR,
    title="DAPO group filtering with a colocated reward model",
    why="verl refuses algorithm.filter_groups with a reward model that shares the training GPUs: give the reward model its own pool.",
)
def check_filter_groups_reward_pool(ctx: RuleContext) -> Iterator[Finding]:
    a = ctx.answers
    if (
        a.extra.get("algorithm.filter_groups.enable")
        and a.models.reward_model_enable
        and not a.cluster.reward_pool_enable
    ):
        yield make_finding(
            "ROLE-010",
            ["algorithm.filter_groups.enable", "reward.reward_model.enable_resource_pool"],
            msg("role.filter_groups_shared_rm"),
            [
                Fix(
                    {
                        "reward.reward_model.enable_resource_pool": True,
                        "reward.reward_model.nnodes": 1,
                        "reward.reward_model.n_gpus_per_node": 1,
                    },
                    msg("role.fix.rm_own_pool"),
                )
            ],
        )
