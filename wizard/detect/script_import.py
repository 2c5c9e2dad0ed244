"""Import an old or forked launch script as answers for verl 0.9.1 (`new --from-script`, the TUI's import).

The script is read the way bash runs it, except that a broken line continuation or a missing
backslash is repaired first (the import keeps what the author meant; `check` reports what bash
does). Its overrides are then carried over to verl 0.9.1 by `wizard.core.migrations`: moved and
renamed keys go to their new home, keys 0.9.1 has no place for are dropped, each with a line saying
why. Shell variables the script does not set become `${oc.env:VAR}` interpolations, read when verl
starts.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

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
    notes: list[str] = field(default_factory=list)

    def all_notes(self) -> list[str]:
        """Every line for the user: repairs and notes, then changes, then dropped keys."""
        return (
            [*self.notes]
            + [f"changed: {line}" for line in self.changed]
            + [f"dropped: {line}" for line in self.dropped]
        )

    def run_md(self) -> dict[str, Any]:
        """The "Migrated from" section's content for emit.run_md."""
        return {"source": self.source, "changed": self.changed, "dropped": self.dropped, "notes": self.notes}


def migrate_script(path: str | Path) -> tuple[dict[str, Any], list[str]]:
    """(flat verl 0.9.1 overrides, notes) for a launch script: the TUI's "import a launch script"."""
    imported = import_script(path)
    return imported.flat, imported.all_notes()


def import_script(path: str | Path) -> ImportedScript:
    """Read, repair and migrate a launch script; UsageError when it is not one."""
    from wizard.core.layers import ENGINE_GROUP
    from wizard.core.migrations import migrate_flat
    from wizard.core.rules.script import foreign_config
    from wizard.detect.config_files import read_text
    from wizard.detect.launch_script import parse_launch_script

    path = Path(path)
    text, notes = repair_continuations(read_text(path), str(path))
    script = parse_launch_script(text, source=str(path))
    flat = script.as_dotted()
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
    flat, var_notes = _environment_values(flat, script.unresolved_vars)
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
    return ImportedScript(str(path), migration.flat, migration.changed, migration.dropped, notes)


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

    from wizard.core.secrets import is_secret_name
    from wizard.i18n.text import msg

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


def repair_continuations(text: str, source: str = "<script>") -> tuple[str, list[str]]:
    """The script with broken line continuations and missing backslashes mended, and a note for each."""
    from wizard.detect.launch_script import parse_launch_script

    notes = []
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


def _environment_values(flat: dict[str, Any], unresolved: list[str]) -> tuple[dict[str, Any], list[str]]:
    """Unset shell variables in values -> OmegaConf env interpolations, or the default the script gave."""
    from wizard.core.layers import answers_from_flat
    from wizard.detect.hydra_values import parse_override_value
    from wizard.errors import UsageError

    if not unresolved:
        return flat, []
    notes, out, used = [], {}, set()
    for key, value in flat.items():
        if not isinstance(value, str) or "$" not in value:
            out[key] = value
            continue
        whole = _VAR.fullmatch(value)
        if whole and whole.group(2) is not None:
            try:
                out[key] = parse_override_value(whole.group(2))
            except ValueError:
                out[key] = whole.group(2)
            notes.append(
                f"{key}: ${whole.group(1)} is not set in the script; its default {whole.group(2)!r} is written"
            )
            continue
        names = [m.group(1) or m.group(3) for m in _VAR.finditer(value)]
        converted = _VAR.sub(
            lambda m: (
                "${oc.env:" + (m.group(1) or m.group(3)) + ("," + m.group(2) if m.group(2) is not None else "") + "}"
            ),
            value,
        )
        try:
            answers_from_flat({key: converted})
        except UsageError:
            notes.append(
                f"{key}={value} depends on shell variables the script does not set and needs a typed value; "
                f"it is left out: give it with --set {key}=..."
            )
            continue
        out[key] = converted
        used.update(names)
        if "$(" in value:
            notes.append(f"{key}: the command substitution in {value!r} is kept as text; bash ran it, verl will not")
    if used:
        notes.append(
            "read from the environment when verl starts (the script did not set them): " + ", ".join(sorted(used))
        )
    return out, notes
