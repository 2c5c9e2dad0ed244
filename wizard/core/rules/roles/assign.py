"""Roles and models (ROLE-*): every role has a model, the right one, and a source of reward."""

from __future__ import annotations

import re

from wizard.core.findings import Fix, error, info, warning
from wizard.core.paths import home_expanded, missing_here
from wizard.core.rules.catalogue import why
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


def check_actor_path(ctx):
    if not ctx.answers.models.actor_path:
        yield error(
            "ROLE-001",
            [ACTOR_PATH],
            msg("role.no_actor"),
            why("ROLE-001"),
        )


def check_critic_path(ctx):
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
        yield error("ROLE-002", [CRITIC_PATH], msg("role.critic_without_path", reason=reason), why("ROLE-002"), fixes)


def hint_critic_is_reward_model(ctx):
    m = ctx.answers.models
    if ctx.plan.need_critic and m.reward_model_enable and m.critic_path and m.critic_path == m.reward_model_path:
        fixes = [Fix({CRITIC_PATH: m.actor_path}, msg("role.fix.critic_from_actor"))] if m.actor_path else []
        yield warning(
            "ROLE-003",
            [CRITIC_PATH, RM_PATH],
            msg("role.critic_is_reward_model", path=m.critic_path),
            why("ROLE-003"),
            fixes,
        )


def check_reward_source(ctx):
    m = ctx.answers.models
    if m.reward_model_enable or m.custom_reward_path or m.reward_manager == "remote":
        return
    if m.data_source is not None and not is_builtin_source(m.data_source):
        yield error(
            "ROLE-005",
            [CUSTOM_REWARD],
            msg("role.no_scorer", source=m.data_source),
            why("ROLE-005"),
        )


def hint_unused_critic(ctx):
    a = ctx.answers
    if a.models.critic_enable and a.algorithm.adv_estimator != "gae":
        yield warning(
            "ROLE-006",
            ["critic.enable"],
            msg("role.unused_critic", estimator=a.algorithm.adv_estimator),
            why("ROLE-006"),
            [Fix({"critic.enable": None}, msg("role.fix.no_critic"))],
        )


def check_model_paths(ctx):
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
            yield error("ROLE-007", [key], msg("role.tilde_path", key=key, path=path), why("ROLE-007"), fixes)
        elif ctx.mode == "local" and looks_local(path) and missing_here(ctx, path):
            yield error(
                "ROLE-007",
                [key],
                msg("role.missing_path", key=key, path=path),
                why("ROLE-007"),
            )
        elif key != CUSTOM_REWARD and not looks_local(path) and "${" not in path and not MODEL_NAME.fullmatch(path):
            # ${...}: an interpolation verl resolves at start-up (a script's unknown environment variable)
            yield error("ROLE-007", [key], msg("role.not_a_model_name", key=key, path=path), why("ROLE-007"))


def info_reference(ctx):
    if not ctx.plan.need_ref:
        return
    if ctx.plan.ref_in_actor:
        message = msg("role.reference_lora")
    else:
        message = msg("role.reference_copy", model=ctx.answers.models.actor_path or msg("role.the_actor"))
    yield info("ROLE-009", [ACTOR_PATH], message, why("ROLE-009"))


def check_filter_groups_reward_pool(ctx):
    a = ctx.answers
    if (
        a.extra.get("algorithm.filter_groups.enable")
        and a.models.reward_model_enable
        and not a.cluster.reward_pool_enable
    ):
        yield error(
            "ROLE-010",
            ["algorithm.filter_groups.enable", "reward.reward_model.enable_resource_pool"],
            msg("role.filter_groups_shared_rm"),
            why("ROLE-010"),
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


FAMILIES = ("ROLE",)  # the id prefixes these rules emit (fix checks run only a family's modules)
RULES = [
    check_actor_path,
    check_critic_path,
    hint_critic_is_reward_model,
    check_reward_source,
    hint_unused_critic,
    check_model_paths,
    info_reference,
    check_filter_groups_reward_pool,
]
