"""Schema rules (KEY-*): keys verl does not have, mandatory values, ignored legacy keys (KEY-008 when one asks
for a feature that then stays off), bad values."""

from __future__ import annotations

import difflib
from functools import lru_cache

from wizard.core import verl_schema
from wizard.core.field_keys import field_to_verl
from wizard.core.findings import Fix, error, warning
from wizard.core.rules.catalogue import why
from wizard.core.rules.each_key import each_key, extra_keys
from wizard.i18n.text import msg

VLLM_MAX_LORA_RANK = 512


def _unknown_keys_setup(ctx):
    from wizard.core import migrations
    from wizard.core.rules.script.launch import keys_added_unread, keys_for_script_rules

    engine = verl_schema.key_tree(ctx)
    left_alone = keys_for_script_rules(ctx) | verl_schema.keys_chosen(ctx) | migrations.sections(engine)
    return engine, left_alone, keys_added_unread(ctx)


@each_key(_unknown_keys_setup, extra_keys, gone_when_unset=True)
def check_unknown_keys(shared, key, value):
    """KEY-001 for every key verl 0.9.1 refuses, saying what became of it across verl's releases."""
    from wizard.core import migrations

    engine, left_alone, added_unread = shared
    if verl_schema.key_exists(key, engine) or key in left_alone:
        return
    fate = migrations.fate(key, engine)
    fixes = []
    if fate.kind in ("moved", "renamed", "typo") and fate.target:
        label = msg("key.fix.rename_to" if fate.kind == "typo" else "key.fix.move_to", target=fate.target)
        fixes.append(Fix({key: None, fate.target: value}, label))
    fixes.append(Fix({key: None}, msg("fix.remove", key=key)))
    if key in added_unread:
        # `+key=value` of a key an older verl had: Hydra adds it, verl 0.9.1 never reads it (no start-up error)
        line, written = added_unread[key]
        message = msg(
            "key.added_unread", line=line, written=written, version=verl_schema.TARGET_VERSION, fate=fate.describe()
        )
        yield warning("KEY-003", [key], message, why("KEY-003"), fixes)
        return
    yield error("KEY-001", [key], fate.describe(), why("KEY-001"), fixes)


def check_mandatory(ctx):
    a = ctx.answers
    if not a.rollout.name:
        yield error(
            "KEY-002",
            ["actor_rollout_ref.rollout.name"],
            msg("key.rollout_name_unset", key="actor_rollout_ref.rollout.name"),
            why("KEY-002"),
            [
                Fix({"actor_rollout_ref.rollout.name": "vllm"}, msg("fix.use", value="vLLM")),
                Fix({"actor_rollout_ref.rollout.name": "sglang"}, msg("fix.use", value="SGLang")),
            ],
        )
    rm_name_key = "reward.reward_model.rollout.name"
    if a.models.reward_model_enable and a.extra.get(rm_name_key) in (None, "???"):
        yield error(
            "KEY-002",
            [rm_name_key],
            msg("key.rm_rollout_name_unset", key=rm_name_key),
            why("KEY-002"),
            [Fix({rm_name_key: a.rollout.name or "vllm"}, msg("key.fix.serve_with", engine=a.rollout.name or "vllm"))],
        )


RM_ENABLE, RM_ROLLOUT_NAME = "reward.reward_model.enable", "reward.reward_model.rollout.name"


@lru_cache(maxsize=4)
def _legacy_keys_moving_to(target: str, engine: str) -> tuple[str, ...]:
    from wizard.core import migrations

    keys = [*verl_schema.defaults(engine), *sorted(verl_schema.class_only_keys(engine))]
    return tuple(k for k in keys if verl_schema.is_legacy(k) and migrations.fate(k, engine).target == target)


def _legacy_setup(ctx):
    """The engine, and the reward model's serving engine when a legacy key enabling it moves (else None)."""
    engine, extra = ctx.plan.engine, ctx.answers.extra
    # read only when needed: a rule reading a key the script leaves unknown is skipped (wizard.core.unknowns)
    if any(extra.get(k) for k in _legacy_keys_moving_to(RM_ENABLE, engine)):
        return engine, (extra.get(RM_ROLLOUT_NAME), ctx.answers.rollout.name)
    return engine, None


@each_key(_legacy_setup, extra_keys, gone_when_unset=True)
def hint_legacy_keys(shared, key, value):
    """KEY-003 for a key of verl's legacy workers that 0.9.1 still takes, with its move to the modern key."""
    from wizard.core import migrations

    engine, serving = shared
    if not verl_schema.is_legacy(key) or value is None or not verl_schema.key_exists(key, engine):
        return
    modern = migrations.fate(key, engine).target
    fixes = [Fix({key: None}, msg("fix.remove", key=key))]
    if modern and verl_schema.key_exists(modern):
        move = {key: None, modern: value}
        if modern == RM_ENABLE and value and serving is not None and not serving[0]:
            # 0.9's reward model is served by a rollout engine that has no default (KEY-002)
            move[RM_ROLLOUT_NAME] = serving[1] or "vllm"
        fixes.insert(0, Fix(move, msg("key.fix.move_to", target=modern)))
    if _switches_on(modern, value, engine):
        # main_ppo reads only the modern key (verl's migrate_legacy_reward_impl runs in the fully-async entry
        # point alone): the feature this asks for stays off
        yield error(
            "KEY-008",
            [key],
            msg("key.legacy_switch", key=key, value=repr(value), target=modern, version=verl_schema.TARGET_VERSION),
            why("KEY-008"),
            fixes,
        )
        return
    yield warning(
        "KEY-003",
        [key],
        msg("key.legacy", key=key, value=repr(value)),
        why("KEY-003"),
        fixes,
    )


def _switches_on(modern: str | None, value, engine: str) -> bool:
    """True when a legacy key turns on a feature (its modern key is an `enable` switch, off by default) that
    verl 0.9.1 therefore leaves off; False when it restates the default."""
    if not modern or modern.rpartition(".")[2] != "enable" or not value:
        return False
    return not verl_schema.defaults(engine).get(modern)


@lru_cache(maxsize=1)
def _fields_with_allowed_values() -> tuple[tuple[str, str, str], ...]:
    """(section, attribute, verl key) of the answer fields whose verl key has a closed set of values."""
    return tuple(
        (*name.partition(".")[::2], key)
        for name, key in field_to_verl().items()
        if verl_schema.allowed_values(key) is not None
    )


@lru_cache(maxsize=1)
def _typed_keys() -> frozenset[str]:
    return frozenset(field_to_verl().values())


def check_allowed_values(ctx):
    """KEY-004 for an answer field whose verl key takes a closed set of values and holds another."""
    a = ctx.answers
    for section, attr, key in _fields_with_allowed_values():
        value = getattr(getattr(a, section), attr)
        if key == "actor_rollout_ref.actor.strategy" and value == "megatron" and ctx.plan.engine == "megatron":
            continue
        yield from _not_allowed(key, value)


def _extra_setup(ctx):
    return None


@each_key(_extra_setup, extra_keys, gone_when_unset=True)
def check_allowed_extra_values(shared, key, value):
    """KEY-004 for an extra key (no answer field) with a closed set of values holding another."""
    if key not in _typed_keys():
        yield from _not_allowed(key, value)


def check_lora_rank(ctx):
    """KEY-004: vLLM serves LoRA adapters up to rank 512."""
    a = ctx.answers
    if a.models.lora_rank > VLLM_MAX_LORA_RANK and a.rollout.name == "vllm":
        yield error(
            "KEY-004",
            ["actor_rollout_ref.model.lora_rank"],
            msg("key.lora_rank_over_vllm", rank=a.models.lora_rank, limit=VLLM_MAX_LORA_RANK),
            why("KEY-004"),
            [Fix({"actor_rollout_ref.model.lora_rank": 256}, msg("key.fix.lora_rank", rank=256))],
        )


def _not_allowed(key: str, value):
    allowed = verl_schema.allowed_values(key)
    if allowed is None or value is None:
        return
    values = value if isinstance(value, list) else [value]
    bad = [v for v in values if v not in allowed]
    if not bad:
        return
    close = difflib.get_close_matches(str(bad[0]), [str(v) for v in allowed], n=2, cutoff=0.5)
    fixes = [
        Fix(
            {key: c if not isinstance(value, list) else [c if v == bad[0] else v for v in values]},
            msg("fix.use", value=c),
        )
        for c in close
    ]
    yield error(
        "KEY-004",
        [key],
        msg("key.not_allowed", key=key, value=repr(bad[0]), allowed=[str(v) for v in allowed]),
        why("KEY-004"),
        fixes,
    )


def check_validation_sampling(ctx):
    r = ctx.answers.rollout
    if r.val_do_sample and r.temperature <= 0:
        yield error(
            "KEY-005",
            ["actor_rollout_ref.rollout.val_kwargs.do_sample", "actor_rollout_ref.rollout.temperature"],
            msg("key.val_sampling_temperature", temperature=r.temperature),
            why("KEY-005"),
            [
                Fix({"actor_rollout_ref.rollout.temperature": 1.0}, msg("key.fix.temperature", temperature=1.0)),
                Fix({"actor_rollout_ref.rollout.val_kwargs.do_sample": False}, msg("key.fix.greedy_validation")),
            ],
        )


FAMILIES = ("KEY",)  # the id prefixes these rules emit (fix checks run only a family's modules)
RULES = [
    check_unknown_keys,
    check_mandatory,
    hint_legacy_keys,
    check_allowed_values,
    check_allowed_extra_values,
    check_lora_rank,
    check_validation_sampling,
]
