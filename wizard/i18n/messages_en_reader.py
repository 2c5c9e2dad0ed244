"""English templates of issue 16's messages: the launch-script reader, unknown values and config groups.

Merged into messages_en.MESSAGES; messages_zh_reader.py holds the Chinese ones (same keys and parameters).
"""

MESSAGES: dict[str, str] = {
    # issue 16: the script as a file
    "script.not_utf8": "{source} is not a shell script: it is not UTF-8 text",
    "script.too_large": "{source} is too large for a launch script ({chars} characters, the limit is {limit})",
    "script.binary": "{source} is not a shell script: it holds binary data",
    "script.expands_too_much": "{source}: its variables expand to more than 4194304 characters; this is not a launch script the wizard can read",
    "script.too_complex": "{source}: the script runs more statements than a launch script does (an endless loop or deep recursion?); the wizard cannot follow it",
    "script.no_verl_command": "{source}: no `python -m verl.trainer.main_ppo` command was found; give the script that launches training, or its config.yaml",
    # issue 16: shell-level problems of the verl command
    "script.another_command": "line {line}: another verl command; only the first one is read",
    "script.not_an_override": "line {line}: {text!r} is not a key=value override; Hydra rejects it",
    "script.override_unknown": "line {line}: {text} names its key with a value the wizard cannot know; that override was not checked",
    "script.bad_value": "line {line}: Hydra rejects the value of {name}={value}: {reason}",
    "script.reason": "{en}{zh:.0}",
    "script.empty_value": "line {line}: {name}= has an empty value, which Hydra reads as the empty string (an unset variable?)",
    "script.unclosed_quote": "line {line}: the {quote} quote opened here is never closed; bash stops with a syntax error and runs nothing from here on",
    "script.duplicate_key": "{name} is set twice: {old!r} on line {old_line} and {new!r} on line {new_line}; Hydra keeps the last one",
    "script.broken_continuation": "line {line}: {cause} ends the command here{stray}{lost}",
    "script.missing_backslash": "line {line} does not end with a backslash, so the command ends there{lost}",
    "script.cut.space": "whitespace after the line-continuation backslash",
    "script.cut.crlf": "a Windows line ending (CRLF) after the line-continuation backslash",
    "script.cut.comment": "a # comment after the line-continuation backslash",
    "script.cut.comment_backslash": "a # comment that swallows the line-continuation backslash",
    "script.cut.comment_line": "a comment line inside the continued command",
    "script.cut.blank_line": "an empty line inside the continued command",
    "script.cut.stray": " and passes the text after the backslash to Hydra, which rejects it",
    "script.lost": "; bash runs lines {first}-{last} as separate commands, so verl never gets {keys:comma}{more}",
    "script.lost_more": " and {n} more",
    # issue 16: unknown values
    "unknown.env": "${name} is not set in the script: {keys:list} {n:plural(is|are)} unknown{skipped}; give it with --env {name}=VALUE",
    "unknown.args": "the script's arguments ({names:comma}) are not given: {keys:list} {n:plural(is|are)} unknown{skipped}; give them after -- (verl-wizard check SCRIPT -- ARG...)",
    "unknown.command": "{shown} is the output of a command the wizard does not run: {keys:list} {n:plural(is|are)} unknown{skipped}; give it with --env {via}=VALUE",
    "unknown.command_no_var": "{shown} is the output of a command the wizard does not run: {keys:list} {n:plural(is|are)} unknown{skipped}",
    "unknown.skipped": ", so the rules that read {n:plural(it|them)} were skipped ({ids:comma})",
    "unknown.none_skipped": " (no rule reads {n:plural(it|them)})",
    "unknown.passed_on": "the script passes its own arguments on to verl ({shown}); none were given, so only the overrides it writes were checked (add them after -- to check them too)",
    "unknown.words": "the verl command takes the words of {shown}, which the wizard cannot know: they may add overrides it did not check",
    "unknown.words_how": "{words}; give them with --env {name}=...",
    "unknown.branch": "the verl command is inside a branch the wizard cannot decide (it depends on {names:comma}); it was checked as if that branch runs",
    "unknown.config_path": "--config-path is {shown}, which the wizard cannot know; the config it names was not read (give {names:comma} with --env)",
    # issue 16: files the script reads
    "script.sourced": "read {files:comma} (sourced by the script)",
    "script.source_missing": "line {line}: the script sources {path}, which is not there; the variables it would set are unknown",
    "script.source_unknown": "line {line}: the script sources {path}, a path the wizard cannot know; the variables it would set are unknown",
    "script.exits_early": "line {line}: with the values it was read with, the script stops here (exit {status}); what follows was read as if it went on",
    "script.own_config": "the script uses its own primary config {name!r}; only its command-line overrides were checked",
    "script.config_read": "config from {path}",
    "script.config_absent": "--config-path {path} --config-name {name}: no {name}.yaml there; only the script's command-line overrides were checked",
    "script.config_default_not_read": "{path}: its defaults list names {entry}, which the wizard does not read; the keys it would add are not checked",
    # issue 16: new --from-script
    "import.unknown_left_out": "{name}={shown} depends on what the script does not say; it is left out: give it with {hints:comma} (or --set {name}=...)",
    "import.unknown_typed": "{name}={shown} depends on shell variables the script does not set and needs a typed value; it is left out: give it with --env or --set {name}=...",
    "import.read_from_environment": "read from the environment when verl starts (the script did not set them): {names:comma}",
    # issue 16: Hydra config groups
    "script.group_option_unknown": "line {line}: {group}={option} is not an option of the config group {group} in verl {version} ({options:comma}); Hydra stops with 'Could not find'",
    "script.group_not_checked": "{group}={option}: the wizard checks the dp and megatron key trees; the keys of the {option} engine were not checked",
    # issue 16: topology
    "topology.no_groups": "none: with {n} GPU per node there is no TP group (TP stays 1)",
    "topology.subset": "{used} of the {total} GPUs make the best TP{tp} groups ({groups}); {n_idle:plural(GPU|GPUs)} {idle:list} would stay idle: run on that subset with CUDA_VISIBLE_DEVICES={visible} and trainer.n_gpus_per_node={used}",
}
