"""A launch script read for `check`: its overrides on top of the config it names, and what is unknown.

`read_script_input(path, text, env, args)` follows the script (wizard.detect.script.launch), reads the
primary config of `--config-path/--config-name` when it is a folder beside the script (else says once
that it was not read), turns config-group choices into the key tree they select, and keeps every key
whose value is unknown out of the flat values, carried in `unknowns` with where it comes from.
"""

from __future__ import annotations

import posixpath
from collections.abc import Mapping
from pathlib import Path

from wizard.core import verl_schema
from wizard.core.hydra_config_path import bare, names_verls_own
from wizard.core.layers import ENGINE_GROUP, answers_from_flat, canonical_address
from wizard.core.unknowns import REFUSED, Origin, Unknowns, notes
from wizard.core.value_reasons import bare_reason
from wizard.detect.config.basics import CheckInput, read_text
from wizard.detect.config.compose import config_file, read_primary
from wizard.detect.script.launch import keys_fed_by, parse_launch_script
from wizard.detect.script.problems import ScriptProblem
from wizard.errors import UsageError
from wizard.i18n.text import Msg, msg

ENGINE_FIELD = "actor_rollout_ref.actor.strategy"
MAX_SOURCED_BYTES = 512 * 1024


def read_beside(path: str) -> str | None:
    """A file the script sources, when it is a readable text file here (None otherwise)."""
    p = Path(path)
    try:
        if not p.is_file() or p.stat().st_size > MAX_SOURCED_BYTES:
            return None
        return read_text(p)
    except (OSError, UsageError):
        return None


def read_script_input(
    path: Path, text: str, env: Mapping[str, str] | None = None, args: list[str] | None = None
) -> CheckInput:
    script = parse_launch_script(text, source=str(path), env=env, args=args, read_file=read_beside)
    flat: dict = {}
    notes: list = []
    folder = config_folder(script, path, env or {})
    if script.config_name and folder is not None and config_file(folder, script.config_name).is_file():
        base, base_notes = read_primary(folder, script.config_name)
        flat.update(base)
        notes.append(msg("script.config_read", path=str(config_file(folder, script.config_name))))
        notes.extend(base_notes)
        script.config_dir = str(folder)
    elif script.config_path_unknown:
        names = sorted({o.shown() for o in script.config_path_unknown})
        notes.append(msg("unknown.config_path", shown=script.config_path, names=names))
    if script.config_name == "ppo_megatron_trainer":
        flat[ENGINE_GROUP] = "megatron"
    groups = verl_schema.config_groups()
    unknown_keys = {canonical_address(k): v for k, v in script.unknown_keys().items()}
    for choice in script.choices:
        if choice.group != ENGINE_GROUP:
            continue
        if choice.unknown:
            unknown_keys[ENGINE_GROUP] = choice.unknown
            unknown_keys[ENGINE_FIELD] = choice.unknown
            flat.pop(ENGINE_GROUP, None)
        elif choice.option in groups.get(ENGINE_GROUP, {}).get("options", {}):
            flat[ENGINE_GROUP] = choice.option
            unknown_keys.pop(ENGINE_GROUP, None)
            unknown_keys.pop(ENGINE_FIELD, None)
    flat.update(script.as_dotted())
    for key in unknown_keys:
        flat.pop(key, None)
    fed = keys_fed_by(script)
    for key, origin in refuse_values(script, flat).items():
        unknown_keys[key] = frozenset({origin})
        fed.setdefault(origin, []).append(key)
    notes.extend(_reader_notes(script))
    source = CheckInput("launch script", flat, notes, script)
    source.unknowns = Unknowns(unknown_keys)
    source.fed = fed
    return source


def refuse_values(script, flat: dict) -> dict[str, Origin]:
    """Take out of `flat` each value of the script's overrides that the answers' schema refuses (a placeholder
    such as TO_BE_FILLED, or an empty variable, where verl needs a number; a list where it needs text; a number
    out of its range): the script is readable, so that is a finding at the key (SCRIPT-016, a problem of the
    script), and the rules that need the key are skipped as for an unknown value. {key: its REFUSED origin}.
    A character no file can hold stays exit 2, as does a value of the script's config folder (its one-line
    error is the folder's)."""
    last = {canonical_address(o.key): o for o in script.overrides if o.known and o.prefix != "~"}
    out: dict[str, Origin] = {}
    for _ in range(len(last)):
        try:
            answers_from_flat(flat)
            break
        except UsageError as exc:
            refusal = exc.args[0] if exc.args else None
            field = getattr(refusal, "args", {}).get("field") if isinstance(refusal, Msg) else None
            o = last.get(canonical_address(field)) if isinstance(field, str) else None
            reason = bare_reason(refusal) if refusal is not None else None
            if o is None or o.key not in flat or getattr(reason, "key", None) == "value.unholdable":
                break  # not a value of one of the script's overrides, or one no file can hold: the input's error
            value = flat.pop(o.key)
            shown = f"{o.key}={o.raw_value}"
            if isinstance(value, str) or value is None:  # text where a number goes: a placeholder, an empty variable
                message = msg("script.refused_value", line=o.line, written=shown, reason=reason)
            else:
                message = msg("script.refused_shape", line=o.line, written=shown, reason=reason)
            script.problems.append(ScriptProblem("refused-value", o.line, message, o.key))
            out[o.key] = Origin(REFUSED, shown, str(o.line))
    return out


def config_folder(script, path: Path, env: Mapping[str, str]) -> Path | None:
    """The folder --config-path (or --config-dir) names, when it is known and there (relative: to the folder the
    script runs in, given as PWD, else the script's own). None for verl's own config folder (a relative `config`:
    wizard.core.hydra_config_path), which the embedded snapshot or the verl asked stands for."""
    if script.config_path is None or script.config_path_unknown or names_verls_own(script):
        return None
    target = bare(script.config_path)
    if not posixpath.isabs(target):
        base = env.get("PWD") or str(path.resolve().parent)
        target = posixpath.join(base, target)
    folder = Path(target)
    return folder if folder.is_dir() else None


def _reader_notes(script) -> list:
    notes: list = []
    if script.sourced:
        notes.append(msg("script.sourced", files=list(dict.fromkeys(script.sourced))))
    for kind, line, where in script.reader_notes:
        if kind == "exit":
            notes.append(msg("script.exits_early", line=line, status=where))
            continue
        if kind == "skipped":
            notes.append(msg("script.skipped_lines", first=line, last=where))
            continue
        if kind == "exhausted":
            notes.append(msg("script.exhausted", line=line, limit=int(where)))
            continue
        notes.append(
            msg("script.source_missing" if kind == "source-missing" else "script.source_unknown", line=line, path=where)
        )
    if any(o.kind == "args" for o in script.passed_on):
        notes.append(msg("unknown.passed_on", shown='"$@"'))
    for origin in sorted(o for o in script.passed_on if o.kind != "args"):
        how = origin.via if origin.kind == "command" else (origin.name if origin.kind == "env" else "")
        words = msg("unknown.words", shown=origin.shown())
        notes.append(msg("unknown.words_how", words=words, name=how) if how else words)
    if not script.certain and script.because:
        notes.append(msg("unknown.branch", names=sorted({o.shown() for o in script.because})))
    return notes


def finish_notes(source, ctx) -> list:
    """The notes of a launch script once the rules ran: one per unknown origin, with the rules it skipped."""
    unknowns = getattr(source, "unknowns", None)
    fed = getattr(source, "fed", None)
    if not unknowns or not fed:
        return []
    return notes(ctx.unknowns or unknowns, fed)
