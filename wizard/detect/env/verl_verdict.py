"""`check --verl PYTHON|auto` (and `new --verl`): ask the verl installed for that interpreter for its own verdict.

The wizard never imports verl: its interpreter runs `PYTHON -c BOOT` (wizard.detect.env.verl_head_start: import
verl, then the program sent on standard input, verl_verdict_script.py, and its question) in its own session, killed
with its children at the deadline (wizard.detect.child_process, as doctor's probe), and answers with one marked
JSON line. What verl is asked (a `Question`) is what the run gives it: the primary config (the checked config.yaml's
folder and name; a launch script's own --config-path/--config-name, else verl's own config tree; for an answers
file or `new`, the config.yaml the wizard writes) and the Hydra overrides bash passes after the module. An
argument whose value is unknown here is left out and named. A verl that is a checkout (not under site-packages)
is named by its folder and `git describe`. wizard.cli starts it before the commands load (a named interpreter), else
`ask` before the wizard reads its input, so verl's import runs while the wizard loads, reads and judges.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wizard.core.hydra_config_path import names_verls_own
from wizard.detect.child_process import collect, kill, last_marked, last_words, run_with_deadline, spawn
from wizard.detect.env import verl_head_start
from wizard.detect.env.probe import resolve_python
from wizard.detect.script.bash.values import Spread, origins_of, shown
from wizard.errors import UsageError
from wizard.i18n.text import Msg, msg

SCRIPT = Path(__file__).with_name("verl_verdict_script.py")
COMPOSE = Path(__file__).with_name("verl_verdict_compose.py")
MARK = "VERL_WIZARD_VERL "
DEFAULT_DEADLINE_S = 60.0
FLAG = "--verl"
VERL_PRIMARY = "ppo_trainer"  # main_ppo's @hydra.main(config_name=...)
_CONFIG_FLAGS = frozenset({"--config-path", "-cp", "--config-name", "-cn", "--config-dir", "-cd"})
_VALUE_FLAGS = frozenset({"--cfg", "-c", "--package", "-p", "--experimental-rerun"})
_HAS_VERL = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('verl') else 1)"


@dataclass(frozen=True)
class Question:
    """What verl is asked: the primary config and the overrides, or why it cannot be asked here (`not_asked`).

    `config_dir` None is verl's own config tree (main_ppo's); `config_text` is a config.yaml to compose from a
    fresh folder (an answers file's or `new`'s). `left_out`: the arguments whose value is unknown here.
    """

    config_dir: str | None
    config_name: str = VERL_PRIMARY
    overrides: tuple[str, ...] = ()
    left_out: tuple[str, ...] = ()
    config_text: str | None = None
    not_asked: Msg | None = None


@dataclass(frozen=True)
class Verdict:
    """verl's answer (the script's report), or why there is none (`problem`: timeout, failed, no_report, garbled,
    not_asked), with the checkout's `git describe` when verl is one."""

    python: str
    question: Question
    report: dict[str, Any] = field(default_factory=dict)
    problem: str | None = None
    detail: str = ""
    describe: str | None = None
    seconds: float = DEFAULT_DEADLINE_S

    def facts(self) -> dict[str, Any]:
        """The verdict as plain data: what wizard.core.rules.verl.verdict judges and `--format json` shows as `verl`."""
        verl = self.report.get("verl") or {}
        return {
            "python": self.python,
            "version": verl.get("version"),
            "location": verl.get("location"),
            "checkout": bool(verl.get("location")) and not _installed(verl["location"]),
            "describe": self.describe,
            "stage": self.report.get("stage"),
            "error": self.report.get("error"),
            "checks": list(self.report.get("checks", [])),
            "missing": list(self.report.get("missing", [])),
            "skipped": [list(s) for s in self.report.get("skipped", [])],
            "problem": self.problem,
            "detail": self.detail,
            "seconds": self.seconds,
            "config_dir": self.question.config_dir if self.question.config_text is None else None,
            "config_name": self.question.config_name,
            "overrides": list(self.question.overrides),
            "left_out": list(self.question.left_out),
        }


def find_python(value: str) -> str:
    """--verl PYTHON (a path or a name on PATH) or `auto`: the active venv's python, else the first python3 or
    python on PATH that has verl. UsageError (exit 2) when there is none."""
    if value != "auto":
        return resolve_python(value, flag=FLAG)
    candidates = []
    if os.environ.get("VIRTUAL_ENV"):
        candidates.append(str(Path(os.environ["VIRTUAL_ENV"]) / "bin" / "python"))
    candidates += [found for name in ("python3", "python") if (found := shutil.which(name))]
    tried = list(dict.fromkeys(c for c in candidates if Path(c).is_file()))
    for python in tried:
        try:
            done = run_with_deadline([python, "-c", _HAS_VERL], 20)
        except OSError:
            continue
        if done is not None and done.returncode == 0:
            return python
    where = ", ".join(tried) or "no python on PATH"
    raise UsageError(f"--verl auto: no interpreter with verl found (tried {where}); give --verl /path/to/python")


def require_verl(python: str) -> str:
    """`python` when verl is installed for it (found without importing it); the no-verl UsageError otherwise.

    The TUI checks this at start (`tui --verl`), since it asks verl only when Review's button is pressed.
    """
    try:
        done = run_with_deadline([python, "-c", _HAS_VERL], 20)
    except OSError as exc:
        raise UsageError(
            f"{FLAG} {python}: cannot run it ({exc.strerror or exc}); give the python that runs verl"
        ) from None
    if done is None or done.returncode != 0:
        raise _no_verl(python)
    return python


def for_config(path: Path) -> Question:
    """A config file run as `--config-path=<its folder> --config-name=<its name>`."""
    name = path.stem if path.suffix in (".yaml", ".yml") else path.name
    return Question(str(path.resolve().parent), name)


def for_config_text(text: str) -> Question:
    """The config.yaml the wizard writes (for an answers file, or `new`), composed from a fresh folder."""
    return Question(None, "config", config_text=text)


def for_script(script, folder: Path | None) -> Question:
    """A launch script: its --config-path folder (`folder`: where it is here, None when it is not here) and
    --config-name, and every argument bash passes after the module, in order."""
    name = (script.config_name or VERL_PRIMARY).strip("'\"")
    name = name[: -len(".yaml")] if name.endswith(".yaml") else name
    overrides, left_out = _arguments(script.arguments)
    if script.config_path is not None and script.config_path_unknown:
        names = sorted({o.shown() for o in script.config_path_unknown})
        not_asked = msg("verl.not_asked.config_path_unknown", path=script.config_path, names=names)
        return Question(None, name, overrides, left_out, not_asked=not_asked)
    if script.config_path is not None and folder is None and not names_verls_own(script):
        not_asked = msg("verl.not_asked.no_folder", path=script.config_path)
        return Question(None, name, overrides, left_out, not_asked=not_asked)
    return Question(str(folder) if folder is not None else None, name, overrides, left_out)


def _arguments(arguments: list) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the overrides to give verl, the arguments left out as unknown here); Hydra's own flags are not overrides."""
    overrides: list[str] = []
    left_out: list[str] = []
    index = 0
    while index < len(arguments):
        value = arguments[index]
        index += 1
        if isinstance(value, Spread):
            left_out.append(value.shown)
            continue
        text = shown(value)
        flag, eq, _ = text.partition("=")
        if flag in _CONFIG_FLAGS:
            index += not eq
            continue
        if text.startswith("-"):
            index += text in _VALUE_FLAGS
            continue
        (left_out if origins_of(value) else overrides).append(text)
    return tuple(overrides), tuple(left_out)


def source() -> str:
    """The program verl's interpreter runs: the shared compose step (stdlib + Hydra), then the script."""
    return COMPOSE.read_text(encoding="utf-8") + "\n\n" + SCRIPT.read_text(encoding="utf-8")


def _installed(location: str) -> bool:
    return any(part in ("site-packages", "dist-packages") for part in Path(location).parts)


def _describe(location: str) -> str | None:
    """`git describe` of the checkout verl is imported from (None for an installed verl or no git)."""
    if _installed(location) or not shutil.which("git"):
        return None
    try:
        done = run_with_deadline(["git", "-C", location, "describe", "--tags", "--always", "--dirty"], 10)
    except OSError:
        return None
    if done is None or done.returncode != 0:
        return None
    return done.stdout.strip()[:120] or None


def _spawn(python: str) -> tuple:
    """(verl's child for `python`, when it started): the one wizard.cli started ahead (verl_head_start), else a
    new one. Either runs BOOT: verl's import first, then the program it is sent with its question."""
    ahead = verl_head_start.take(python)
    if ahead is not None:
        return ahead
    try:
        return spawn([python, "-c", verl_head_start.BOOT], stdin=True), time.monotonic()
    except OSError as exc:
        raise UsageError(
            f"{FLAG} {python}: cannot run it ({exc.strerror or exc}); give the python that runs verl"
        ) from None


def _verdict(python: str, question: Question, done, deadline_s: float) -> Verdict:
    """The child's output -> verl's Verdict, or why there is none; UsageError when the interpreter has no verl."""
    if done is None:
        return Verdict(python, question, problem="timeout", detail=f"{deadline_s:g}", seconds=deadline_s)
    marked = last_marked(done.stdout, MARK)
    if marked is None:
        problem = "no_report" if done.returncode == 0 else "failed"
        detail = last_words(done.stdout, done.stderr)
        return Verdict(python, question, problem=problem, detail=detail, seconds=deadline_s)
    line, report = marked
    if report is None:
        return Verdict(python, question, problem="garbled", detail=line[:120], seconds=deadline_s)
    if report.get("stage") == "no_verl":
        raise _no_verl(python)
    location = (report.get("verl") or {}).get("location")
    return Verdict(python, question, report, describe=_describe(location) if location else None, seconds=deadline_s)


def _no_verl(python: str) -> UsageError:
    return UsageError(
        f"{FLAG} {python}: verl is not installed for this interpreter; give the python of the environment that "
        f"runs verl, or {FLAG} auto"
    )


class Asking:
    """verl being asked beside the wizard's own work.

    The child starts at once (`ask`), so that verl's import, the slow part, runs while the wizard reads the input
    and runs its rules; `send(question)` gives it the question on its standard input, `result()` waits for the
    Verdict, `stop()` kills a child that was never sent one (the input turned out unusable). The deadline counts
    from the start.
    """

    def __init__(self, python: str, deadline_s: float) -> None:
        self.python, self.deadline_s = python, deadline_s
        self._proc, self._started = _spawn(python)
        self._question: list[Question | None] = []
        self._given = threading.Event()
        self._out: list = []
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def send(self, question: Question) -> None:
        self._question.append(question)
        self._given.set()

    def stop(self) -> None:
        if not self._given.is_set():
            self._question.append(None)
            self._given.set()
        self._thread.join()

    def result(self) -> Verdict:
        self._thread.join()
        out = self._out[0]
        if isinstance(out, BaseException):
            raise out
        return out

    def _run(self) -> None:
        try:
            self._out.append(self._answer())
        except BaseException as exc:  # noqa: BLE001 - handed to the caller's thread by result()
            self._out.append(exc)

    def _answer(self) -> Verdict | None:
        self._given.wait()  # the command sends its question or stops (wizard.commands.verl_ask.asking)
        question = self._question[0]
        if question is None or question.not_asked is not None:
            kill(self._proc)
            return (
                None
                if question is None
                else Verdict(self.python, question, problem="not_asked", seconds=self.deadline_s)
            )
        with tempfile.TemporaryDirectory(prefix="verl-wizard-verl-") as folder:
            config_dir = question.config_dir
            if question.config_text is not None:
                Path(folder, "config.yaml").write_text(question.config_text, encoding="utf-8")
                config_dir = folder
            request = {
                "config_dir": config_dir,
                "config_name": question.config_name,
                "overrides": list(question.overrides),
            }
            left = self.deadline_s - (time.monotonic() - self._started)
            done = collect(self._proc, left, verl_head_start.framed(source(), json.dumps(request) + "\n"))
        return _verdict(self.python, question, done, self.deadline_s)


def ask(python: str, deadline_s: float = DEFAULT_DEADLINE_S) -> Asking:
    """Start the interpreter now (UsageError when it cannot run); `.send(question)` once the question is known."""
    return Asking(python, deadline_s)


__all__ = [
    "DEFAULT_DEADLINE_S",
    "Asking",
    "Question",
    "Verdict",
    "ask",
    "find_python",
    "for_config",
    "for_config_text",
    "for_script",
    "require_verl",
]
