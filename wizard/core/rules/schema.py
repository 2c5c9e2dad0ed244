"""Schema rules (KEY-*): keys verl does not have, mandatory values, ignored legacy keys, bad values."""

from __future__ import annotations

from functools import lru_cache

from wizard.core import verl_schema
from wizard.core.findings import Fix, error, warning
from wizard.core.keymap import field_to_verl
from wizard.core.rules.catalogue import why
from wizard.i18n.text import msg

VLLM_MAX_LORA_RANK = 512


def check_unknown_keys(ctx):
    """KEY-001 for every key verl 0.9.1 refuses, saying what became of it across verl's releases."""
    from wizard.core import migrations
    from wizard.core.rules.script import keys_for_script_rules

    engine = verl_schema.key_tree(ctx)
    left_to_script = keys_for_script_rules(ctx) | verl_schema.keys_chosen(ctx)
    for key, value in ctx.answers.extra.items():
        if verl_schema.key_exists(key, engine) or key in left_to_script or key in migrations.sections(engine):
            continue
        fate = migrations.fate(key, engine)
        fixes = []
        if fate.kind in ("moved", "renamed", "typo") and fate.target:
            label = msg("key.fix.rename_to" if fate.kind == "typo" else "key.fix.move_to", target=fate.target)
            fixes.append(Fix({key: None, fate.target: value}, label))
        fixes.append(Fix({key: None}, msg("fix.remove", key=key)))
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


def hint_legacy_keys(ctx):
    from wizard.core import migrations

    for key, value in ctx.answers.extra.items():
        if not verl_schema.is_legacy(key) or value is None or not verl_schema.key_exists(key, ctx.plan.engine):
            continue
        modern = migrations.fate(key, ctx.plan.engine).target
        fixes = [Fix({key: None}, msg("fix.remove", key=key))]
        if modern and verl_schema.key_exists(modern):
            move = {key: None, modern: value}
            if (
                modern == "reward.reward_model.enable"
                and value
                and not ctx.answers.extra.get("reward.reward_model.rollout.name")
            ):
                # 0.9's reward model is served by a rollout engine that has no default (KEY-002)
                move["reward.reward_model.rollout.name"] = ctx.answers.rollout.name or "vllm"
            fixes.insert(0, Fix(move, msg("key.fix.move_to", target=modern)))
        yield warning(
            "KEY-003",
            [key],
            msg("key.legacy", key=key, value=repr(value)),
            why("KEY-003"),
            fixes,
        )


@lru_cache(maxsize=1)
def _fields_with_allowed_values() -> tuple[tuple[str, str, str], ...]:
    """(section, attribute, verl key) of the answer fields whose verl key has a closed set of values."""
    return tuple(
        (*name.partition(".")[::2], key)
        for name, key in field_to_verl().items()
        if verl_schema.allowed_values(key) is not None
    )


def _values_to_check(ctx):
    """(verl key, value) of every answer whose key has allowed values: typed fields, then extra keys."""
    a = ctx.answers
    for section, attr, key in _fields_with_allowed_values():
        yield key, getattr(getattr(a, section), attr)
    typed = _typed_keys()
    for key, value in a.extra.items():
        if key not in typed:
            yield key, value


@lru_cache(maxsize=1)
def _typed_keys() -> frozenset[str]:
    return frozenset(field_to_verl().values())


def check_allowed_values(ctx):
    for key, value in _values_to_check(ctx):
        allowed = verl_schema.allowed_values(key)
        if allowed is None or value is None:
            continue
        values = value if isinstance(value, list) else [value]
        bad = [v for v in values if v not in allowed]
        if key == "actor_rollout_ref.actor.strategy" and value == "megatron" and ctx.plan.engine == "megatron":
            bad = []
        if not bad:
            continue
        import difflib

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
    a = ctx.answers
    if a.models.lora_rank > VLLM_MAX_LORA_RANK and a.rollout.name == "vllm":
        yield error(
            "KEY-004",
            ["actor_rollout_ref.model.lora_rank"],
            msg("key.lora_rank_over_vllm", rank=a.models.lora_rank, limit=VLLM_MAX_LORA_RANK),
            why("KEY-004"),
            [Fix({"actor_rollout_ref.model.lora_rank": 256}, msg("key.fix.lora_rank", rank=256))],
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
RULES = [check_unknown_keys, check_mandatory, hint_legacy_keys, check_allowed_values, check_validation_sampling]
