"""The launch-script corpus (tests/fixtures/launch_corpus): each script read by the wizard and run by bash.

Every script is run by bash itself in an empty folder, with every command it starts replaced by a stub that
records its arguments (python, python3, srun, ray, uv, torchrun, nohup, tee by name; any other command
through bash's command_not_found_handle; only dirname, basename, realpath, readlink and seq, which compute
a path or a number, are the real ones). What bash passed to `-m verl.trainer.main_ppo` must be what the
reader extracts: equal where the reader knows the value, and matched by the reader's unknown parts (a
command's output) elsewhere. Then `check` runs on the script with the case's environment and arguments
(the findings listed in cases.yaml), and once more without them: no case exits 2, the notes name exactly
the unknown origins listed, and the findings are the ones listed for that reading.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from tests.cli.helpers import ROOT, cli
from wizard.detect.script.bash.values import Spread, Unknown
from wizard.detect.script.check_input import read_beside
from wizard.detect.script.launch import ENTRY_MODULES, parse_launch_script

CORPUS = ROOT / "tests" / "fixtures" / "launch_corpus"
CASES: dict = yaml.safe_load((CORPUS / "cases.yaml").read_text())
BASH = shutil.which("bash")
STUBS = ("python", "python3", "srun", "ray", "uv", "torchrun", "nohup", "tee", "sbatch", "accelerate", "deepspeed")
REAL = ("dirname", "basename", "realpath", "readlink", "seq")
# One printf per command (one write), so that the commands of a pipe cannot interleave their records.
RECORDER = 'printf "%s\\0" "${0##*/}" "$@" $\'\\036\' >> "$RECORD"'
UNKNOWN_NOTE = re.compile(r"\b(is|are) unknown(, so | \(no rule)")
HANDLER = 'command_not_found_handle() { printf "%s\\0" "$@" $\'\\036\' >> "$RECORD"; return 0; }'


def install(name: str, tmp: Path) -> Path:
    """The case's script (with the folder it lives in, for cases that are folders) copied under tmp."""
    case_dir = CORPUS / name.split("/")[0]
    work = tmp / "work"
    if case_dir.is_dir():
        shutil.copytree(case_dir, work / case_dir.name)
    else:
        work.mkdir()
        shutil.copy(case_dir, work / case_dir.name)
    return work / name


def run_bash(script: Path, env: dict, args: list, tmp: Path) -> list[list[str]]:
    """Run the script under bash with stubs; every command it started, as its argv."""
    stubs, record, here = tmp / "bin", tmp / "argv", tmp / "run"
    stubs.mkdir()
    here.mkdir()
    for name in STUBS:
        (stubs / name).write_text(f"#!{BASH}\n{RECORDER}\n")
        (stubs / name).chmod(0o755)
    for name in REAL:
        (stubs / name).symlink_to(shutil.which(name))
    # waits for commands the script left in the background (nohup ... &) before the shell exits
    (tmp / "bash_env").write_text(HANDLER + "\ntrap wait EXIT\n")
    full_env = {**env, "PATH": str(stubs), "RECORD": str(record), "BASH_ENV": str(tmp / "bash_env")}
    subprocess.run([BASH, str(script), *args], cwd=here, env=full_env, capture_output=True, timeout=60, check=False)
    if not record.exists():
        return []
    return [r.split(b"\0")[:-1] for r in record.read_bytes().split(b"\x1e\0") if r]


def verl_arguments(commands: list[list[bytes]]) -> list[str] | None:
    for argv in commands:
        words = [w.decode() for w in argv]
        for k, word in enumerate(words):
            if word == "-m" and k + 1 < len(words) and words[k + 1] in ENTRY_MODULES:
                return words[k + 2 :]
    return None


def pattern_of(field) -> str | None:
    """A regular expression for one field the reader extracted (None for a Spread: any number of fields)."""
    if isinstance(field, Spread):
        return None
    return "".join(re.escape(p) if isinstance(p, str) else ".*" for p in field)


def matches(ours: list, theirs: list[str]) -> bool:
    if not ours:
        return not theirs
    head = pattern_of(ours[0])
    if head is None:
        return any(matches(ours[1:], theirs[k:]) for k in range(len(theirs) + 1))
    return bool(theirs) and re.fullmatch(head, theirs[0], re.DOTALL) is not None and matches(ours[1:], theirs[1:])


def read(name: str, script: Path, env: dict, args: list | None):
    return parse_launch_script(script.read_text(), str(script), env=env, args=args, read_file=read_beside)


def case_env(case: dict, run_dir: Path) -> dict:
    return {**{k: str(v) for k, v in (case.get("env") or {}).items()}, "PWD": str(run_dir)}


def check_json(script: Path, case: dict, given: bool):
    """`check --format json` of the script (with the case's --env and -- ARGS when given)."""
    argv = ["check", str(script), "--mode", "cluster", "--format", "json"]
    if given:
        for name, value in {**(case.get("env") or {}), **(case.get("pin") or {})}.items():
            argv += ["--env", f"{name}={value}"]
        argv += ["--", *[str(a) for a in case.get("args") or []]]
    proc = cli(*argv)
    return proc, json.loads(proc.stdout) if proc.stdout.strip() else None


def test_the_corpus_is_large_and_covers_every_form():
    assert len(CASES) >= 40
    text = "\n".join((CORPUS / name).read_text() for name in CASES)
    for form in [
        r"\w+=\(",  # an array
        r"\+=\(",  # appended to
        r'"\$\{\w+\[@\]\}"',  # passed on whole
        r"\$\{\w+\[\*\]\}",
        r"\$\{#\w+\[@\]\}",
        r"\$\(\(",  # arithmetic
        r"\(\(",
        r"\$\{\w+:-",
        r"\$\{\w+:=",
        r"\$\{\w+:\?",
        r"\$\{\w+:\+",
        r"\$\{#\w+\}",
        r"\$\{\w+%",
        r"\$\{\w+#",
        r"\$\{\w+/",
        r"\$\{\w+\^\^\}",
        r"\$\{\w+,,\}",
        r"\bwhile\b",
        r"\bcase\b",
        r"\bshift\b",
        r"\bgetopts\b",
        r"\bfor\b",
        r"\belif\b",
        r"^\s*\w+\s*\(\)\s*\{",  # a function
        r"\blocal\b",
        r"\bdeclare\b",
        r"\breadonly\b",
        r"\bexport\b",
        r"<<-?\s*'?\w+",  # a here-document
        r"^\s*(source|\.) ",
        r"set -\w*x",
        r"ray job submit",
        r"\bsrun\b",
        r"uv run",
        r"torchrun",
        r"nohup",
        r"\| tee",
        r"^\s*(?:[A-Z_0-9]+=\S+ +)+python3? -m",
        r"model_engine=megatron",
        r"mixed_precision",
        r"--config-path",
        r"#SBATCH --nodes=1\b",
        r"#SBATCH --nodes=[2-9]",
    ]:
        assert re.search(form, text, re.M), f"no corpus script uses {form}"


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize("name", sorted(CASES))
def test_the_reader_passes_what_bash_passes(name, tmp_path):
    case = CASES[name] or {}
    script = install(name, tmp_path)
    args = [str(a) for a in case.get("args") or []]
    env = case_env(case, tmp_path / "run")
    theirs = verl_arguments(run_bash(script, {k: v for k, v in env.items() if k != "PWD"}, args, tmp_path))
    assert theirs is not None, f"{name}: bash never started verl's trainer"
    ours = read(name, script, env, args)
    assert matches(ours.arguments, theirs), f"{name}:\nbash: {theirs}\nours: {[pattern_of(f) for f in ours.arguments]}"
    # each override the reader made out of them is that argument, taken apart and put back together
    spread_before = [isinstance(f, Spread) for f in ours.arguments]
    for o in ours.overrides:
        if o.known and not any(spread_before[: o.position]):
            rebuilt = o.prefix + o.key + ("" if o.prefix == "~" and not o.raw_value else "=" + o.raw_value)
            assert theirs[o.position] == rebuilt, (name, o)


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_findings_with_the_cases_environment_and_arguments(name, tmp_path):
    case = CASES[name] or {}
    script = install(name, tmp_path)
    proc, doc = check_json(script, case, given=True)
    assert proc.returncode in (0, 1), proc.stderr
    got = sorted({f["id"] for f in doc["findings"]})
    assert got == sorted(case.get("findings") or []), f"{name}: {got}\n" + "\n".join(
        f"{f['id']}: {f['message']}" for f in doc["findings"]
    )
    assert not [n for n in doc.get("notes", []) if UNKNOWN_NOTE.search(n)], (name, doc["notes"])


@pytest.mark.parametrize("name", sorted(CASES))
def test_without_them_unknowns_are_noted_and_never_exit_2(name, tmp_path):
    case = CASES[name] or {}
    script = install(name, tmp_path)
    proc, doc = check_json(script, case, given=False)
    assert proc.returncode in (0, 1), proc.stderr
    expected = case.get("bare", {}) if "bare" in case else {"findings": case.get("findings") or [], "unknown": []}
    got = sorted({f["id"] for f in doc["findings"]})
    assert got == sorted(expected.get("findings") or []), f"{name}: {got}\n" + "\n".join(
        f"{f['id']}: {f['message']}" for f in doc["findings"]
    )
    noted = sorted(n for n in doc.get("notes", []) if UNKNOWN_NOTE.search(n))
    assert len(noted) == len(expected.get("unknown") or []), (name, noted)
    for origin, note in zip(sorted(expected.get("unknown") or []), noted, strict=True):
        assert origin in note, (name, origin, note)


@pytest.mark.skipif(BASH is None, reason="needs bash")
def test_the_comparison_with_bash_catches_a_difference(tmp_path):
    """The same script read with another environment than bash ran it with does not match; unknowns match anything."""
    name = "04_world_size_from_env.sh"
    script = install(name, tmp_path)
    theirs = verl_arguments(run_bash(script, {"WORLD_SIZE": "3", "ROLLOUT_TP_SIZE": "2"}, [], tmp_path))
    same = read(name, script, {"WORLD_SIZE": "3", "ROLLOUT_TP_SIZE": "2"}, [])
    other = read(name, script, {"WORLD_SIZE": "4", "ROLLOUT_TP_SIZE": "2"}, [])
    unknown = read(name, script, {}, [])
    assert "trainer.nnodes=3" in theirs
    assert matches(same.arguments, theirs)
    assert not matches(other.arguments, theirs)
    assert any(isinstance(p, Unknown) for f in unknown.arguments for p in f) and matches(unknown.arguments, theirs)
    assert not matches(same.arguments, theirs[:-1]) and not matches(same.arguments, [*theirs, "trainer.nnodes=1"])
