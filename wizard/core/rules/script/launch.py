"""Launch-script rules (SCRIPT-*): what bash and Hydra do with the script that its author did not mean.

They read `ctx.script` (the reader's LaunchScript: overrides with their `+`/`++`/`~` prefix and line,
and the shell-level problems it found) and stay silent for configs. Shell-level problems are fixed in
the script's text, so those findings say the edit in their message; the prefix rules offer a key
fix where removing the key is the fix. `keys_for_script_rules` tells KEY-001 which unknown keys
these rules explain instead (a fork's or the script's own keys), so each key is reported once.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from wizard.core import verl_schema
from wizard.core.findings import Finding, Fix, Severity
from wizard.core.migrations import fate, sections
from wizard.core.rule_context import RuleContext
from wizard.core.rules.declare import declare, emits, make_finding, rule, rule_for
from wizard.core.rules.each_key import ABSENT, each_key
from wizard.i18n.text import msg

# `check` (wizard.commands.check) reports a script that starts no main_ppo run with this id.
declare(
    "SCRIPT-017",
    Severity.INFO,
    title="Not a main_ppo run: nothing to check",
    why="check judges the overrides a script passes to python -m verl.trainer.main_ppo. A script that starts another verl program (SFT, generation, the fully-async trainer), hands the run to another script (`bash x.sh`: the one to check is named), runs only programs that are not verl (data preparation, installs: named, so a wrong file shows at once), or stops before it starts anything gives its rules nothing to judge: it is reported, and passes.",
)

VERL_CONFIG_NAMES = frozenset({"ppo_trainer", "ppo_megatron_trainer"})

# The ids of the reader's problems (check_shell_problems emits them, by _PROBLEM_RULES below).
declare(
    "SCRIPT-001",
    Severity.ERROR,
    title="A broken line continuation",
    why="bash ends the command at a backslash followed by a space or a # comment, or at a comment or empty line inside it: verl starts without the overrides after it (bash runs them as commands of their own), and text after the backslash reaches Hydra as a bad override.",
)
declare(
    "SCRIPT-002",
    Severity.ERROR,
    title="A missing backslash cuts the override list",
    why="Without the trailing backslash the command ends at that line: verl starts with only the overrides above it, and bash tries to run the rest as commands.",
)
declare(
    "SCRIPT-003",
    Severity.WARNING,
    title="An override with an empty value",
    why="key= passes the empty string, usually from an unset shell variable: verl then gets '' where it expects a path, a number or a name.",
)
declare(
    "SCRIPT-004",
    Severity.WARNING,
    title="The same key given twice with different values",
    why="Hydra applies overrides in order and keeps the last: the earlier value, often the one that was edited, is silently lost.",
)
declare(
    "SCRIPT-010",
    Severity.ERROR,
    title="An argument Hydra rejects",
    why="Hydra parses every override before anything runs; a value its grammar rejects (an unquoted comma, an open bracket) or a word that is not key=value stops the launch.",
)
declare(
    "SCRIPT-011",
    Severity.ERROR,
    title="A quote that is never closed",
    why="bash stops with a syntax error at the end of the file and runs nothing from the open quote on.",
)
declare(
    "SCRIPT-012",
    Severity.WARNING,
    title="More than one verl command",
    why="Only the first verl command is read and checked; the others run after it (or instead of it) unchecked.",
)
declare(
    "SCRIPT-014",
    Severity.ERROR,
    title="Overrides after a pipe go to the next command",
    why="A pipe ends verl's command: the overrides written after a pipe into `tee train.log` are arguments of tee (which creates a file of each name), so verl starts without them and nothing says so.",
)
declare(
    "SCRIPT-015",
    Severity.ERROR,
    title="Bash cannot parse the script",
    why="bash reads a script command by command and stops at a syntax error (what `bash -n` reports): the command that holds it, and everything after it, never runs, so verl may never start. The wizard asks bash itself, which runs nothing with -n.",
)
declare(
    "SCRIPT-016",
    Severity.ERROR,
    title="A value verl cannot take, left in the script",
    why="A placeholder (trainer.nnodes=TO_BE_FILLED) or an empty variable (trainer.n_gpus_per_node=$GPUS with GPUS unset) where verl needs a number: Hydra composes it as text and verl stops at start-up (a TypeError in its config checks) or later. A number out of its range (trainer.nnodes=0) or a value of another shape (a list where verl needs text) fails the same way. The rest of the script is still checked; the rules that need that key are skipped, as for an unknown value.",
)

# The reader's problem kinds -> rule ids.
_PROBLEM_RULES = {
    "broken-continuation": "SCRIPT-001",
    "missing-backslash": "SCRIPT-002",
    "empty-value": "SCRIPT-003",
    "duplicate-key": "SCRIPT-004",
    "bad-value": "SCRIPT-010",
    "not-an-override": "SCRIPT-010",
    "unterminated-quote": "SCRIPT-011",
    "multiple-commands": "SCRIPT-012",
    "piped-away": "SCRIPT-014",
    "syntax-error": "SCRIPT-015",
    "refused-value": "SCRIPT-016",
}


def foreign_config(script) -> str | None:
    """The script's own primary config name when it is not one of verl's and was not read, else None."""
    if getattr(script, "config_dir", None):
        return None  # the config folder was read: its keys are checked like any config's
    name = (getattr(script, "config_name", None) or "").strip("'\"")
    name = name.removesuffix(".yaml")
    return name if name and name not in VERL_CONFIG_NAMES else None


def _unknown_everywhere(key: str, engine: str, chosen: frozenset = frozenset()) -> bool:
    return key not in chosen and not verl_schema.key_exists(key, engine) and fate(key, engine).kind == "unknown"


def keys_for_script_rules(ctx) -> set[str]:
    """Keys of the script that no released verl has: SCRIPT-006..009 explain them, not KEY-001."""
    script = ctx.script
    if script is None:
        return set()
    engine, chosen = verl_schema.key_tree(ctx), verl_schema.keys_chosen(ctx)
    return {o.key for o in script.overrides if o.prefix != "~" and _unknown_everywhere(o.key, engine, chosen)}


HISTORY_KINDS = frozenset({"moved", "renamed", "retired", "removed"})


def keys_added_unread(ctx) -> dict[str, tuple[int, str]]:
    """{key: (line, override as written)} for the keys the script adds with + or ++ that an older verl had and
    verl 0.9.1 has not, outside every section verl builds into a config class: Hydra adds them and verl never
    reads them (KEY-003 says so, not KEY-001). The last such override of a key is the one named."""
    script = ctx.script
    if script is None or foreign_config(script):
        return {}
    engine, chosen = verl_schema.key_tree(ctx), verl_schema.keys_chosen(ctx)
    out: dict[str, tuple[int, str]] = {}
    for o in script.overrides:
        if o.prefix not in ("+", "++"):
            out.pop(o.key, None)  # a later plain override or removal decides instead
            continue
        if o.key in chosen or verl_schema.key_exists(o.key, engine) or _config_class_section(o.key, engine):
            continue
        if fate(o.key, engine).kind in HISTORY_KINDS:
            out[o.key] = (o.line, f"{o.prefix}{o.key}={o.raw_value}")
    return out


@rule_for(*dict.fromkeys(_PROBLEM_RULES.values()))
def check_shell_problems(ctx: RuleContext) -> Iterator[Finding]:
    """SCRIPT-001..004, 010..012 and 014..016: the shell-level problems the reader found, one finding each."""
    script = ctx.script
    if script is None:
        return
    refused = {p.key for p in script.problems if p.kind == "refused-value"}
    for problem in script.problems:
        rule_id = _PROBLEM_RULES.get(problem.kind)
        if rule_id is None:
            continue
        on_line = [o for o in script.overrides if o.line == problem.line]
        paths = [problem.key] if problem.key else list(dict.fromkeys(o.key for o in on_line))
        fixes = []
        if problem.kind == "empty-value":
            # an empty value verl cannot take is SCRIPT-016's (its key is unknown to the rules: not read here)
            on_line = [o for o in on_line if o.key not in refused]
            empty = [o.key for o in on_line if o.raw_value == "" and ctx.flat.get(o.key) == ""]
            if not empty:
                continue  # the value was set since (a fix or a later layer)
            paths = empty
            fixes = [Fix({key: None}, msg("fix.leave_default", key=key)) for key in empty]
        yield make_finding(rule_id, paths, problem.message, fixes)


def _config_class_section(key: str, engine: str) -> str | None:
    """The deepest section above `key` that verl builds into a config dataclass (it has a _target_)."""
    parts = key.split(".")
    defaults = verl_schema.defaults(engine)
    for cut in range(len(parts) - 1, 0, -1):
        section = ".".join(parts[:cut])
        if f"{section}._target_" in defaults:
            return section
        if section in sections(engine):
            return None
    return None


def _prefixes_setup(ctx):
    """The key tree, the keys the script's group choices add, and verl's defaults; None for a foreign config."""
    script = ctx.script
    if script is None or foreign_config(script):
        return None
    engine = verl_schema.key_tree(ctx)
    return engine, verl_schema.keys_chosen(ctx), verl_schema.defaults(engine)


def _overrides(ctx, shared):
    """Each override but removals, once per key and prefix, as (key, override, the key's value or ABSENT)."""
    if shared is None:
        return
    seen: set[tuple[str, str]] = set()
    refused = {p.key for p in ctx.script.problems if p.kind == "refused-value"}
    for o in ctx.script.overrides:
        if o.prefix == "~" or (o.key, o.prefix) in seen:
            continue
        seen.add((o.key, o.prefix))
        # an override whose value is unknown is judged without reading it (wizard.core.unknowns); one verl
        # cannot take (SCRIPT-016) is given, as written
        if not o.known:
            yield o.key, o, ABSENT
        else:
            yield o.key, o, o.raw_value if o.key in refused else ctx.flat.get(o.key, ABSENT)


def _hydra_appends(key: str, value: Any, defaults: Mapping[str, Any]) -> bool:
    """Whether Hydra takes `+key=value` for a key the config has: it refuses only a key whose value is set (not null,
    not ???) and a value that is not a mapping or a list (hydra 1.3's ConfigLoaderImpl._apply_overrides_to_config
    merges those). verl's `data.gen_batch_size: null` takes `+data.gen_batch_size=96`."""
    if isinstance(value, (dict, list)):
        return True
    return key in defaults and defaults[key] in (None, "???")


@rule(
    "SCRIPT-005",
    Severity.ERROR,
    title="+ on a key verl already has",
    why="+key=value adds a new key; for a key verl's config has, Hydra stops with 'Could not append to config. An item is already at ...' before anything runs. Write key=value, or ++key=value to add or override.",
)
@rule(
    "SCRIPT-006",
    Severity.ERROR,
    title="A key verl does not have, written without +",
    why="Hydra only overrides keys that exist and stops with 'Could not override ...' at the first other one. A fork's or the script's own key, and a new entry under a mapping verl leaves open (override_config, engine_kwargs), need +key=value.",
)
@rule_for("SCRIPT-007", "SCRIPT-008")
@each_key(_prefixes_setup, _overrides, gone_when_unset=False)
def check_plus_prefixes(shared, o, value):
    """SCRIPT-005..008: `+` on a key verl has, a new key without `+`, and what verl does with `+` keys
    (SCRIPT-005, SCRIPT-006, SCRIPT-007, SCRIPT-008)."""
    engine, chosen, defaults = shared
    written = f"{o.prefix}{o.key}={o.raw_value}"
    has_key = o.key in defaults or o.key in sections(engine) or o.key in chosen
    if o.prefix == "+" and has_key and not _hydra_appends(o.key, value, defaults):
        yield make_finding(
            "SCRIPT-005",
            [o.key],
            msg(
                "script.plus_on_existing",
                line=o.line,
                written=written,
                version=verl_schema.TARGET_VERSION,
                key=o.key,
                value=o.raw_value,
            ),
        )
    elif o.prefix == "" and not has_key and verl_schema.key_exists(o.key, engine):
        yield make_finding(
            "SCRIPT-006",
            [o.key],
            msg("script.open_entry_without_plus", line=o.line, key=o.key, value=o.raw_value),
        )
    elif (value is not ABSENT if o.known else True) and _unknown_everywhere(o.key, engine, chosen):
        # an unknown value is still given: its key is judged without reading the value
        yield from _fork_key(o, written, engine)


@emits(
    "SCRIPT-007",
    Severity.ERROR,
    title="+ adds a key that verl's config class refuses",
    why="Hydra adds the key, but verl builds that section into a config dataclass and stops at start-up with 'unexpected keyword argument'.",
)
@emits(
    "SCRIPT-008",
    Severity.INFO,
    title="+ adds a key verl does not read",
    why="Hydra adds the key and verl ignores it; only the script's own code or a fork reads it.",
)
def _fork_key(o, written: str, engine: str):
    remove = [Fix({o.key: None}, msg("fix.remove", key=o.key))]
    if o.prefix == "":
        yield make_finding(
            "SCRIPT-006",
            [o.key],
            msg("script.fork_key_without_plus", line=o.line, key=o.key, value=o.raw_value),
            remove,
        )
        return
    section = _config_class_section(o.key, engine)
    if section:
        yield make_finding(
            "SCRIPT-007",
            [o.key],
            msg(
                "script.plus_under_config_class",
                line=o.line,
                written=written,
                section=section,
                name=o.key.rpartition(".")[2],
            ),
            remove,
        )
    else:
        yield make_finding(
            "SCRIPT-008",
            [o.key],
            msg("script.plus_unread", line=o.line, written=written),
        )


@rule(
    "SCRIPT-009",
    Severity.WARNING,
    title="The script composes its own primary config",
    why="--config-name names a config that is not verl's: the keys it defines are unknown to the wizard, so only overrides that name verl keys are checked, and the script runs only where that config exists.",
)
def check_foreign_config(ctx: RuleContext) -> Iterator[Finding]:
    """SCRIPT-009: the script names its own primary config; its keys are that config's, not verl's."""
    script = ctx.script
    name = foreign_config(script) if script is not None else None
    if name is None or script is None:
        return
    engine = ctx.plan.engine
    own = list(dict.fromkeys(o.key for o in script.overrides if o.prefix != "~" and _unknown_everywhere(o.key, engine)))
    path = getattr(script, "config_path", None)
    where = msg("script.config_from", path=path) if path else ""
    shown = [*own[:5], msg("script.and_more", n=len(own) - 5)] if len(own) > 5 else own
    keys = msg("script.own_config_keys", n=len(own), keys=shown) if own else ""
    yield make_finding(
        "SCRIPT-009",
        own,
        msg("script.own_primary_config", name=name, where=where, keys=keys, version=verl_schema.TARGET_VERSION),
    )


@rule(
    "SCRIPT-013",
    Severity.ERROR,
    title="A config-group option verl does not have",
    why="A Hydra config-group choice on the command line (model_engine=..., actor@actor_rollout_ref.actor=...) must name a file of that group; Hydra stops with 'Could not find' before anything runs.",
)
def check_group_choices(ctx: RuleContext) -> Iterator[Finding]:
    """SCRIPT-013: a config-group choice (`model_engine=megatorn`) that names no option of the group."""
    script = ctx.script
    if script is None:
        return
    groups = verl_schema.config_groups()
    for choice in getattr(script, "choices", ()):
        options = sorted(groups.get(choice.group, {}).get("options", {}))
        if choice.unknown or not options or choice.option in options:
            continue
        yield make_finding(
            "SCRIPT-013",
            [choice.group],
            msg(
                "script.group_option_unknown",
                line=choice.line,
                group=choice.group,
                option=choice.option,
                version=verl_schema.TARGET_VERSION,
                options=options,
            ),
        )
