"""Schema rules (KEY-*): keys verl does not have, mandatory values, ignored legacy keys (KEY-008 when one asks
for a feature that then stays off), bad values."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from functools import lru_cache

from wizard.core import migrations, verl_schema
from wizard.core.field_keys import field_to_verl
from wizard.core.findings import Finding, Fix, Severity
from wizard.core.rule_context import RuleContext
from wizard.core.rules.declare import declare, make_finding, rule, rule_for
from wizard.core.rules.each_key import each_key, extra_keys
from wizard.core.rules.script.launch import keys_added_unread, keys_for_script_rules
from wizard.i18n.text import msg

declare(
    "KEY-006",
    Severity.ERROR,
    title="A value typed into a field that is not valid for it",
    why="The wizard writes what its fields show: a value it cannot take (text in a number field, a batch size of 0) is not written, and the old value is not written in its place either; the files wait until the field holds a valid value.",
)
declare(
    "KEY-007",
    Severity.ERROR,
    title="A field verl needs was emptied",
    why="An emptied field is shown empty, and the wizard does not quietly write the preset's value instead; verl needs this value (the actor model, the train batch size), so the files wait until it is set again.",
)

VLLM_MAX_LORA_RANK = 512


def _unknown_keys_setup(ctx):
    engine = verl_schema.key_tree(ctx)
    left_alone = keys_for_script_rules(ctx) | verl_schema.keys_chosen(ctx) | migrations.sections(engine)
    return engine, left_alone, keys_added_unread(ctx)


@rule(
    "KEY-001",
    Severity.ERROR,
    title="A key verl does not have",
    why="Hydra accepts unknown keys inside a config file without a word, so a typo silently leaves verl's default in force.",
)
@rule(
    "KEY-003",
    Severity.WARNING,
    title="A key verl parses but ignores",
    why="verl 0.9 keeps the old top-level reward_model.*, custom_reward_function.* and sandbox_fusion.* in its schema but no longer reads them, and a key an older verl had that a launch script adds with + (outside the sections verl builds into config classes) is composed and never read: the setting has no effect.",
)
@each_key(_unknown_keys_setup, extra_keys, gone_when_unset=True)
def check_unknown_keys(shared, key, value):
    """KEY-001 for every key verl 0.9.1 refuses, saying what became of it across verl's releases."""
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
        yield make_finding("KEY-003", [key], message, fixes)
        return
    yield make_finding("KEY-001", [key], fate.describe(), fixes)


@rule(
    "KEY-002",
    Severity.ERROR,
    title="A mandatory value is missing",
    why="verl 0.9 has no default for actor_rollout_ref.rollout.name (and for the reward model's rollout name when it is on) and stops with MissingMandatoryValue.",
)
def check_mandatory(ctx: RuleContext) -> Iterator[Finding]:
    a = ctx.answers
    if not a.rollout.name:
        yield make_finding(
            "KEY-002",
            ["actor_rollout_ref.rollout.name"],
            msg("key.rollout_name_unset", key="actor_rollout_ref.rollout.name"),
            [
                Fix({"actor_rollout_ref.rollout.name": "vllm"}, msg("fix.use", value="vLLM")),
                Fix({"actor_rollout_ref.rollout.name": "sglang"}, msg("fix.use", value="SGLang")),
            ],
        )
    rm_name_key = "reward.reward_model.rollout.name"
    if a.models.reward_model_enable and a.extra.get(rm_name_key) in (None, "???"):
        yield make_finding(
            "KEY-002",
            [rm_name_key],
            msg("key.rm_rollout_name_unset", key=rm_name_key),
            [Fix({rm_name_key: a.rollout.name or "vllm"}, msg("key.fix.serve_with", engine=a.rollout.name or "vllm"))],
        )


RM_ENABLE, RM_ROLLOUT_NAME = "reward.reward_model.enable", "reward.reward_model.rollout.name"


@lru_cache(maxsize=4)
def _legacy_keys_moving_to(target: str, engine: str) -> tuple[str, ...]:
    keys = [*verl_schema.defaults(engine), *sorted(verl_schema.class_only_keys(engine))]
    return tuple(k for k in keys if verl_schema.is_legacy(k) and migrations.fate(k, engine).target == target)


def _legacy_setup(ctx):
    """The engine, and the reward model's serving engine when a legacy key enabling it moves (else None)."""
    engine, extra = ctx.plan.engine, ctx.answers.extra
    # read only when needed: a rule reading a key the script leaves unknown is skipped (wizard.core.unknowns)
    if any(extra.get(k) for k in _legacy_keys_moving_to(RM_ENABLE, engine)):
        return engine, (extra.get(RM_ROLLOUT_NAME), ctx.answers.rollout.name)
    return engine, None


@rule(
    "KEY-008",
    Severity.ERROR,
    title="A legacy key asks for a feature verl leaves off",
    why="verl 0.9.1's main_ppo reads the reward model's switch only at reward.reward_model.enable; the top-level reward_model.enable=True is composed and ignored (only the fully-async entry point moves legacy reward keys), so the run trains without the reward model it asks for.",
)
@rule_for("KEY-003")
@each_key(_legacy_setup, extra_keys, gone_when_unset=True)
def hint_legacy_keys(shared, key, value):
    """KEY-003 for a key of verl's legacy workers that 0.9.1 still takes, with its move to the modern key."""
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
        yield make_finding(
            "KEY-008",
            [key],
            msg("key.legacy_switch", key=key, value=repr(value), target=modern, version=verl_schema.TARGET_VERSION),
            fixes,
        )
        return
    yield make_finding("KEY-003", [key], msg("key.legacy", key=key, value=repr(value)), fixes)


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


@rule_for("KEY-004")
def check_allowed_values(ctx: RuleContext) -> Iterator[Finding]:
    """KEY-004 for an answer field whose verl key takes a closed set of values and holds another."""
    a = ctx.answers
    for section, attr, key in _fields_with_allowed_values():
        value = getattr(getattr(a, section), attr)
        if key == "actor_rollout_ref.actor.strategy" and value == "megatron" and ctx.plan.engine == "megatron":
            continue
        yield from _not_allowed(key, value)


def _extra_setup(ctx):
    return None


@rule_for("KEY-004")
@each_key(_extra_setup, extra_keys, gone_when_unset=True)
def check_allowed_extra_values(shared, key, value):
    """KEY-004 for an extra key (no answer field) with a closed set of values holding another."""
    if key not in _typed_keys():
        yield from _not_allowed(key, value)


@rule(
    "KEY-004",
    Severity.ERROR,
    title="A value outside the allowed set",
    why="verl looks these names up in registries or validates them in its config dataclasses and stops at start-up (or at the first worker) when they are unknown.",
)
def check_lora_rank(ctx: RuleContext) -> Iterator[Finding]:
    """KEY-004: vLLM serves LoRA adapters up to rank 512."""
    a = ctx.answers
    if a.models.lora_rank > VLLM_MAX_LORA_RANK and a.rollout.name == "vllm":
        yield make_finding(
            "KEY-004",
            ["actor_rollout_ref.model.lora_rank"],
            msg("key.lora_rank_over_vllm", rank=a.models.lora_rank, limit=VLLM_MAX_LORA_RANK),
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
    yield make_finding(
        "KEY-004", [key], msg("key.not_allowed", key=key, value=repr(bad[0]), allowed=[str(v) for v in allowed]), fixes
    )


@rule(
    "KEY-005",
    Severity.ERROR,
    title="A combination of values verl rejects at start-up",
    why="verl's start-up validation refuses sampling-based validation with a rollout temperature of 0.",
)
def check_validation_sampling(ctx: RuleContext) -> Iterator[Finding]:
    r = ctx.answers.rollout
    if r.val_do_sample and r.temperature <= 0:
        yield make_finding(
            "KEY-005",
            ["actor_rollout_ref.rollout.val_kwargs.do_sample", "actor_rollout_ref.rollout.temperature"],
            msg("key.val_sampling_temperature", temperature=r.temperature),
            [
                Fix({"actor_rollout_ref.rollout.temperature": 1.0}, msg("key.fix.temperature", temperature=1.0)),
                Fix({"actor_rollout_ref.rollout.val_kwargs.do_sample": False}, msg("key.fix.greedy_validation")),
            ],
        )
