"""Import an old or forked launch script as answers for verl 0.9.1 (`new --from-script`, the TUI's import).

The script is read the way bash runs it, except that a broken line continuation or a missing
backslash is repaired first (the import keeps what the author meant; `check` reports what bash
does). Its overrides are then carried over to verl 0.9.1 by `wizard.core.migrations`: moved and
renamed keys go to their new home, keys 0.9.1 has no place for are dropped, each with a line saying
why. `env` (`--env NAME=VALUE`) and `args` (`-- ARG...`) give the script's environment and arguments;
a value that still depends on an environment variable the script does not set becomes a
`${oc.env:VAR}` interpolation, read when verl starts; one that depends on the script's arguments or a
command's output is left out, with a note saying how to give it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wizard.core.layers import ENGINE_GROUP, answers_from_flat
from wizard.core.migrations import migrate_flat
from wizard.core.rules.script.launch import foreign_config
from wizard.core.secrets import is_secret_name
from wizard.core.unknowns import ENV, LIMIT
from wizard.detect.config.compose import config_file, read_primary
from wizard.detect.config.files import read_text
from wizard.detect.script.bash.values import Unknown
from wizard.detect.script.check_input import config_folder, read_beside
from wizard.detect.script.launch import parse_launch_script
from wizard.errors import UsageError
from wizard.i18n.text import Msg, msg, render

__all__ = ["ImportedScript", "import_script", "migrate_script"]

LAYER = "launch script"
_CONTINUATION_KINDS = ("broken-continuation", "missing-backslash")
_VAR = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::?-([^}]*))?\}|\$([A-Za-z_][A-Za-z0-9_]*)")


@dataclass
class ImportedScript:
    """A launch script carried over to verl 0.9.1: the flat overrides and every change made on the way."""

    source: str
    flat: dict[str, Any]
    changed: list[str] = field(default_factory=list)
    dropped: list[str] = field(default_factory=list)
    notes: list[str | Msg] = field(default_factory=list)  # a script problem's note is a message
    # Keys left out because their value depends on what the script does not say, and where each comes from
    # (core.unknowns.Origin): the rules that read them are skipped and the doors say how to give them.
    unknown: dict[str, frozenset] = field(default_factory=dict)

    def all_notes(self) -> list[str | Msg]:
        """Every line for the user: repairs and notes, then changes, then dropped keys."""
        return (
            [*self.notes]
            + [f"changed: {line}" for line in self.changed]
            + [f"dropped: {line}" for line in self.dropped]
        )

    def run_md(self) -> dict[str, Any]:
        """The "Migrated from" section's content for emit.run_md and answers.yaml: plain English text, so that
        the files are the same bytes whatever the language of the door that wrote them."""

        def english(lines):
            return [render(line, "en") for line in lines]

        return {
            "source": self.source,
            "changed": english(self.changed),
            "dropped": english(self.dropped),
            "notes": english(self.notes),
        }


def migrate_script(spec: str | Path) -> tuple[dict[str, Any], list[str | Msg]]:
    """(flat verl 0.9.1 overrides, notes) for a launch script: the TUI's "import a launch script".

    `spec` is the script's path, optionally followed by `--env NAME=VALUE`... and `-- ARG...` (as on the
    command line), so that the TUI's import can give the script's environment and arguments too.
    """
    path, env, args = parse_import_spec(str(spec))
    imported = import_script(path, env, args)
    return imported.flat, imported.all_notes()


def parse_import_spec(spec: str) -> tuple[str, dict[str, str], list[str] | None]:
    """`PATH [--env NAME=VALUE]... [-- ARG...]` -> (path, env, args); a path that exists is taken whole."""
    import shlex

    if Path(spec).exists() or "--" not in spec:
        return spec, {}, None
    try:
        words = shlex.split(spec)
    except ValueError as exc:
        raise UsageError(f"{spec}: {exc}") from None
    path, env, args, k = (words[0] if words else ""), {}, None, 1
    while k < len(words):
        word = words[k]
        if word == "--":
            args = words[k + 1 :]
            break
        if word == "--env" and k + 1 < len(words):
            name, sep, value = words[k + 1].partition("=")
            if not sep or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                raise UsageError(f"--env {words[k + 1]}: expected NAME=VALUE, e.g. --env WORLD_SIZE=2")
            env[name] = value
            k += 2
            continue
        raise UsageError(f"{spec}: expected PATH [--env NAME=VALUE]... [-- ARG...], got {word!r}")
    return path, env, args


def import_script(path: str | Path, env: dict[str, str] | None = None, args: list[str] | None = None) -> ImportedScript:
    """Read, repair and migrate a launch script; UsageError when it is not one."""
    path = Path(path)
    text, notes = repair_continuations(read_text(path), str(path))
    script = parse_launch_script(text, source=str(path), env=env, args=args, read_file=read_beside)
    flat = {**_primary_config(script, path, env or {}, notes), **script.as_dotted()}
    for choice in script.choices:
        if choice.group == ENGINE_GROUP and not choice.unknown:
            flat[ENGINE_GROUP] = choice.option
    engine = (
        "megatron" if script.config_name == "ppo_megatron_trainer" or flat.get(ENGINE_GROUP) == "megatron" else "dp"
    )
    if engine == "megatron":
        flat[ENGINE_GROUP] = "megatron"
    own = foreign_config(script)
    if own:
        notes.append(
            f"the script composed its own primary config {own!r}"
            f"{' from ' + script.config_path if script.config_path else ''}; the run is rebuilt on verl's "
            "ppo_trainer from the script's overrides, so settings that lived only in that file are not carried over"
        )
    removed = [o.key for o in script.overrides if o.prefix == "~"]
    if removed:
        notes.append("the script deleted " + ", ".join(removed) + " with ~; config.yaml keeps verl's defaults there")
    for problem in script.problems:
        if problem.kind == "empty-value":
            for o in script.overrides:
                if o.line == problem.line and o.raw_value == "" and flat.get(o.key) == "":
                    del flat[o.key]
                    notes.append(f"{o.key} was given an empty value (line {o.line}); it is left at verl's default")
        elif problem.kind not in _CONTINUATION_KINDS:
            notes.append(problem.message)
    flat, var_notes, unknown = _unknown_values(flat, script)
    notes.extend(var_notes)
    flat, secret_names, secret_notes = secret_references(text, flat)
    notes.extend(secret_notes)
    migration = migrate_flat(flat, engine)
    if migration.releases:
        span = (
            migration.releases[0]
            if len(migration.releases) == 1
            else f"{migration.releases[0]} to {migration.releases[-1]}"
        )
        best = "" if migration.fits_all else " best (no release has all of them)"
        notes.append(f"its keys fit verl {span}{best}")
        notes.extend(f"default changed: {line}" for line in migration.defaults)
    if secret_names:
        migration.flat["deploy.secret_env"] = secret_names
    return ImportedScript(str(path), migration.flat, migration.changed, migration.dropped, notes, unknown)


_ASSIGNMENT = re.compile(r"^\s*(?P<export>export\s+)?(?P<name>[A-Za-z_][A-Za-z0-9_]*)=(?P<value>\S.*)$", re.M)


def secret_references(text: str, flat: dict[str, Any]) -> tuple[dict[str, Any], list[str], list[str]]:
    """The secrets a script sets, kept out of the imported answers: (flat, secret variables to read, notes).

    bash hands `hf_token=$HF_TOKEN` to verl with the token the script exported; imported as is, the token
    would be written into config.yaml and every manifest. Each literal value the script assigns to a
    secret-named variable is replaced, wherever an override holds it, by `${oc.env:NAME}` (a read of the
    variable when verl starts, which DEPLOY-006 then judges), and each exported one becomes a secret the
    run takes from its environment (deploy.secret_env): the value is never copied.
    """
    import shlex

    values: dict[str, str] = {}
    exported: list[str] = []
    for m in _ASSIGNMENT.finditer(text):
        if not is_secret_name(m.group("name")):
            continue
        try:
            words = shlex.split(m.group("value"), comments=True)
        except ValueError:
            continue
        if words and len(words[0]) >= 4 and "$" not in m.group("value"):
            values[m.group("name")] = words[0]
        if m.group("export") and m.group("name") not in exported:
            exported.append(m.group("name"))
    if not values and not exported:
        return flat, [], []
    notes: list[str] = []

    def scrub(key: str, value: Any) -> Any:
        if isinstance(value, str):
            for name, secret in values.items():
                if secret in value:
                    value = value.replace(secret, "${oc.env:" + name + "}")
                    notes.append(str(msg("import.secret_not_copied", address=key, name=name)))
            return value
        if isinstance(value, list):
            return [scrub(key, v) for v in value]
        if isinstance(value, dict):
            return {k: scrub(key, v) for k, v in value.items()}
        return value

    out = {key: scrub(key, value) for key, value in flat.items()}
    if exported:
        notes.append(str(msg("import.secret_exported", names=exported)))
    return out, exported, notes


def _primary_config(script, path: Path, env: dict, notes: list) -> dict[str, Any]:
    """The keys of the primary config `--config-path/--config-name` names, when that folder is here (the
    wizard's own run.sh and config.yaml, a project's config folder): the import starts from them."""
    folder = config_folder(script, path, env)
    if not script.config_name or folder is None or not config_file(folder, script.config_name).is_file():
        return {}
    flat, base_notes = read_primary(folder, script.config_name)
    script.config_dir = str(folder)  # read: not a foreign config any more
    notes.append(msg("script.config_read", path=str(config_file(folder, script.config_name))))
    notes.extend(base_notes)
    return flat


def repair_continuations(text: str, source: str = "<script>") -> tuple[str, list[str | Msg]]:
    """The script with broken line continuations and missing backslashes mended, and a note for each (the list
    import_script goes on adding its own notes to, messages among them)."""
    notes: list[str | Msg] = []
    if "\r\n" in text:
        text = text.replace("\r\n", "\n")
        notes.append("converted Windows line endings (bash reads the CR after a backslash as text)")
    lines = text.split("\n")
    original = list(range(1, len(lines) + 1))
    for _ in range(64):
        problems = [p for p in parse_launch_script("\n".join(lines), source).problems if p.kind in _CONTINUATION_KINDS]
        if not problems:
            break
        done = _repair(lines, original, problems[0])
        if done is None:
            notes.append(f"could not mend: {problems[0].message}")
            break
        notes.append(done)
    return "\n".join(lines), notes


def _repair(lines: list[str], original: list[int], problem) -> str | None:
    index = problem.line - 1
    line, where = lines[index], f"line {original[index]}"
    if problem.kind == "missing-backslash":
        lines[index] = line.rstrip() + " \\"
        return f"{where}: added the missing line-continuation backslash"
    if not line.strip() or line.lstrip().startswith("#"):
        del lines[index]
        del original[index]
        return f"{where}: left out the {'comment' if line.strip() else 'empty'} line that cut the command"
    m = re.search(r"\\[ \t\r]+(?:#.*)?$", line)
    if m:
        lines[index] = line[: m.start()] + "\\"
        return f"{where}: removed what followed the line-continuation backslash"
    m = re.search(r"[ \t]+#.*$", line)
    if m:
        lines[index] = line[: m.start()] + " \\"
        return f"{where}: moved the line-continuation backslash out of the # comment"
    return None


def _unknown_values(flat: dict[str, Any], script) -> tuple[dict[str, Any], list, dict[str, frozenset]]:
    """Keys whose value the script leaves unknown: an unset environment variable becomes `${oc.env:VAR}`
    (verl reads it when it starts); the script's arguments or a command's output cannot be carried over, nor
    a typed key (a number) whose text holds a variable: those are left out, returned with their origins."""
    unknown = script.unknown_keys()
    if not unknown:
        return flat, [], {}
    last = {o.key: o for o in script.overrides if o.key in unknown}
    used: set[str] = set()
    notes, out, left_out = [], dict(flat), {}
    for key, override in last.items():
        pieces = override.pieces
        if not all(isinstance(p, str) or _single_env(p) for p in pieces):
            origins = sorted(override.unknown)
            hints = [
                ("-- ARG..." if o.kind == "args" else f"--env {o.via or o.name}=...")
                for o in origins
                if o.kind not in (ENV, LIMIT)
            ]
            notes.append(
                msg("import.unknown_left_out", name=key, shown=override.raw_value, hints=list(dict.fromkeys(hints)))
            )
            left_out[key] = unknown[key]
            continue
        converted = "".join(p if isinstance(p, str) else "${oc.env:" + next(iter(p.origins)).name + "}" for p in pieces)
        try:
            answers_from_flat({key: converted})
        except UsageError:
            notes.append(msg("import.unknown_typed", name=key, shown=override.raw_value))
            left_out[key] = unknown[key]
            continue
        out[key] = converted
        used.update(next(iter(p.origins)).name for p in pieces if isinstance(p, Unknown))
    if used:
        notes.append(msg("import.read_from_environment", names=sorted(used)))
    return out, notes, left_out


def _single_env(piece) -> bool:
    return len(piece.origins) == 1 and next(iter(piece.origins)).kind == ENV
