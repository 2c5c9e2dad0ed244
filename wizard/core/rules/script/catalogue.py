"""The rule catalogue's entries for launch scripts (SCRIPT-*): each rule's id, severity, one-line title and the
reason it exists, in id order. wizard.core.rules.catalogue collects them into CATALOGUE.
"""

from __future__ import annotations

ENTRIES = [
    (
        "SCRIPT-001",
        "error",
        "A broken line continuation",
        "bash ends the command at a backslash followed by a space or a # comment, or at a comment or empty line inside it: verl starts without the overrides after it (bash runs them as commands of their own), and text after the backslash reaches Hydra as a bad override.",
    ),
    (
        "SCRIPT-002",
        "error",
        "A missing backslash cuts the override list",
        "Without the trailing backslash the command ends at that line: verl starts with only the overrides above it, and bash tries to run the rest as commands.",
    ),
    (
        "SCRIPT-003",
        "warning",
        "An override with an empty value",
        "key= passes the empty string, usually from an unset shell variable: verl then gets '' where it expects a path, a number or a name.",
    ),
    (
        "SCRIPT-004",
        "warning",
        "The same key given twice with different values",
        "Hydra applies overrides in order and keeps the last: the earlier value, often the one that was edited, is silently lost.",
    ),
    (
        "SCRIPT-005",
        "error",
        "+ on a key verl already has",
        "+key=value adds a new key; for a key verl's config has, Hydra stops with 'Could not append to config. An item is already at ...' before anything runs. Write key=value, or ++key=value to add or override.",
    ),
    (
        "SCRIPT-006",
        "error",
        "A key verl does not have, written without +",
        "Hydra only overrides keys that exist and stops with 'Could not override ...' at the first other one. A fork's or the script's own key, and a new entry under a mapping verl leaves open (override_config, engine_kwargs), need +key=value.",
    ),
    (
        "SCRIPT-007",
        "error",
        "+ adds a key that verl's config class refuses",
        "Hydra adds the key, but verl builds that section into a config dataclass and stops at start-up with 'unexpected keyword argument'.",
    ),
    (
        "SCRIPT-008",
        "info",
        "+ adds a key verl does not read",
        "Hydra adds the key and verl ignores it; only the script's own code or a fork reads it.",
    ),
    (
        "SCRIPT-009",
        "warning",
        "The script composes its own primary config",
        "--config-name names a config that is not verl's: the keys it defines are unknown to the wizard, so only overrides that name verl keys are checked, and the script runs only where that config exists.",
    ),
    (
        "SCRIPT-010",
        "error",
        "An argument Hydra rejects",
        "Hydra parses every override before anything runs; a value its grammar rejects (an unquoted comma, an open bracket) or a word that is not key=value stops the launch.",
    ),
    (
        "SCRIPT-011",
        "error",
        "A quote that is never closed",
        "bash stops with a syntax error at the end of the file and runs nothing from the open quote on.",
    ),
    (
        "SCRIPT-012",
        "warning",
        "More than one verl command",
        "Only the first verl command is read and checked; the others run after it (or instead of it) unchecked.",
    ),
    (
        "SCRIPT-013",
        "error",
        "A config-group option verl does not have",
        "A Hydra config-group choice on the command line (model_engine=..., actor@actor_rollout_ref.actor=...) must name a file of that group; Hydra stops with 'Could not find' before anything runs.",
    ),
    (
        "SCRIPT-014",
        "error",
        "Overrides after a pipe go to the next command",
        "A pipe ends verl's command: the overrides written after a pipe into `tee train.log` are arguments of tee (which creates a file of each name), so verl starts without them and nothing says so.",
    ),
    (
        "SCRIPT-015",
        "error",
        "Bash cannot parse the script",
        "bash reads a script command by command and stops at a syntax error (what `bash -n` reports): the command that holds it, and everything after it, never runs, so verl may never start. The wizard asks bash itself, which runs nothing with -n.",
    ),
    (
        "SCRIPT-016",
        "error",
        "A value verl cannot take, left in the script",
        "A placeholder (trainer.nnodes=TO_BE_FILLED) or an empty variable (trainer.n_gpus_per_node=$GPUS with GPUS unset) where verl needs a number: Hydra composes it as text and verl stops at start-up (a TypeError in its config checks) or later. The rest of the script is still checked; the rules that need that key are skipped, as for an unknown value.",
    ),
    (
        "SCRIPT-017",
        "info",
        "Not a main_ppo run: nothing to check",
        "check judges the overrides a script passes to python -m verl.trainer.main_ppo. A script that starts another verl program (SFT, generation, the fully-async trainer) or stops before it starts anything gives its rules nothing to judge: it is reported, and passes.",
    ),
]
