"""Hostile launch scripts for the fuzz tier (issue 28): short scripts whose reading would not end by itself.

`hostile_scripts()` draws a script of a few lines that builds a long value (doubling loops), then uses it
where a reader that backtracks or copies without limits would hang or fill the memory: a regular
expression or glob with nested repetition (`(a|a)*b`, `*a*a*a*b`, `*(*(a)|a)c`) in `=~`, `case`,
`[[ == ]]` or `${X#...}`, a replacement that squares the length (`${X//a/$X}`), arrays and argument
lists that double (`A=("${A[@]}" "${A[@]}")`, `set -- "$@" "$@"`), nested loops, wide printf fields,
and statements the tree-sitter grammar mis-parses. `REPRODUCTIONS` are the issue's own scripts.
`run_bounded` runs `verl-wizard check` on one in a fresh process under an address-space limit and a CPU
time limit (RLIMIT_CPU: the kernel stops it; CPU seconds, not wall seconds, so two busy CPUs shared with
other work do not fail a good input), with a wall-clock timeout behind it for a process that sleeps, so an
overrun fails the test instead of exhausting the machine.
"""

from __future__ import annotations

import resource
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from hypothesis import strategies as st

TIME_LIMIT_S = 2  # CPU seconds per input, start-up included
WALL_LIMIT_S = 30
MEMORY_LIMIT = 512 << 20  # bytes of address space
VERL = "python3 -m verl.trainer.main_ppo data.train_batch_size=8 trainer.project_name=$Y"


def _doubled(name: str, seed: str, times: int) -> str:
    return f"{name}={seed}; for i in $(seq 1 {times}); do {name}=${name}${name}; done"


REPRODUCTIONS = {
    "regex-(a|a)*b": f"{_doubled('X', 'a', 5)}\n[[ $X =~ (a|a)*b ]] && Y=1\n{VERL}\n",
    "case-*a*a*a*b": f'{_doubled("X", "aa", 10)}\ncase "$X" in *a*a*a*a*a*a*a*a*b) Y=1;; esac\n{VERL}\n',
    "extglob": f"shopt -s extglob\n{_doubled('X', 'a', 5)}\n[[ $X == *(*(a)|a)c ]] && Y=1\n{VERL}\n",
    "array-doubling": f'A=(x); for i in $(seq 1 40); do A=("${{A[@]}}" "${{A[@]}}"); done\nY=${{#A[@]}}\n{VERL}\n',
    "array-append": f'A=(x); for i in $(seq 1 40); do A+=("${{A[@]}}"); done\nY=${{#A[@]}}\n{VERL}\n',
    "replace-10k": f"{_doubled('X', 'bbbbbbbbbb', 10)}\nY=${{X//b/c}}\n{VERL}\n",
    "replace-20k": f"{_doubled('X', 'bbbbbbbbbbbbbbbbbbbb', 10)}\nY=${{X//b/c}}\n{VERL}\n",
    "unclosed-subst": f"Y=$(abc\n{VERL}\n",
    "unclosed-brace": f"Y=${{abc\n{VERL}\n",
    "arith-brace": f"Y=$(( {{a ))\n{VERL}\n",
    "function-name": f"f{{ab() {{ :; }}\n{VERL}\n",
    "last-line-brace": f"{VERL}\n{{a",
}

_REGEXES = ["(a|a)*b", "(a*)*b", "^(a+)+$", "(a|aa)*c", "(a?){30}a{30}", "((a*)*)*b", "(.*a){12}"]
_GLOBS = ["*a*a*a*a*a*a*a*a*b", "*(*(a)|a)c", "+(a|aa)b", "@(*a)*(a)*b", "*?*?*?*?*?*?b", "[a]*[a]*[a]*[!a]"]
_USES = [
    "[[ $X =~ {re} ]] && Y=1",
    'case "$X" in {glob}) Y=1;; esac',
    "[[ $X == {glob} ]] && Y=1",
    "Y=${{X#{glob}}}",
    "Y=${{X##{glob}}}",
    "Y=${{X%{glob}}}",
    "Y=${{X%%{glob}}}",
    "Y=${{X//{glob}/c}}",
    "Y=${{X/{glob}/c}}",
]
_GROWTH = [
    "Y=${{X//a/$X}}",
    'A=(x); for i in $(seq 1 {k}); do A=("${{A[@]}}" "${{A[@]}}"); done; Y=${{#A[@]}}',
    'A=(x); for i in $(seq 1 {k}); do A+=("${{A[@]}}" x); done; Y=${{A[*]}}',
    'set -- x; for i in $(seq 1 {k}); do set -- "$@" "$@"; done; Y=$#',
    "for i in $(seq 1 2000); do for j in $(seq 1 2000); do Y=$i$j; done; done",
    "Y=$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X$X",
    "printf -v Y '%999999999d' 1",
    "Y=$(printf '%s' {{1..4000}})",
    "f() {{ Y=$Y$X; f; }}; f",
    "while :; do Y=$Y$X; done",
]
_BROKEN = ["", "Z=$(( {{a ))", "f{{ab() {{ :; }}", "X=$(abc", "case $X in @(a|b)) ;; esac", "{{a"]


@st.composite
def hostile_scripts(draw) -> str:
    """One hostile script: a long value, then a pattern use or a growth, maybe a mis-parsed line, then verl."""
    seed = draw(st.sampled_from(["a", "ab", "aaaaaaaaaa", "b"]))
    k = draw(st.integers(3, 17))
    lines = [draw(st.sampled_from(["", "shopt -s extglob"])), _doubled("X", seed, k)]
    for _ in range(draw(st.integers(1, 3))):
        if draw(st.booleans()):
            use = draw(st.sampled_from(_USES))
            lines.append(use.format(re=draw(st.sampled_from(_REGEXES)), glob=draw(st.sampled_from(_GLOBS))))
        else:
            lines.append(draw(st.sampled_from(_GROWTH)).format(k=draw(st.integers(10, 40))))
    lines.append(draw(st.sampled_from(_BROKEN)).format())
    lines.append(VERL)
    return "\n".join(line for line in lines if line) + "\n"


@dataclass
class Bounded:
    """How one bounded run of `check` ended."""

    code: int | None
    seconds: float
    stderr: str

    def problems(self) -> list[str]:
        out = []
        if self.code is None:
            out.append(f"still running after {WALL_LIMIT_S} s of wall time")
        elif self.code in (-signal.SIGXCPU, -signal.SIGKILL):
            out.append(f"ran past its {TIME_LIMIT_S} CPU seconds (signal {-self.code})")
        elif self.code not in (0, 1, 2):
            out.append(f"exit code {self.code} (killed, or out of its {MEMORY_LIMIT >> 20} MiB?)")
        if "Traceback" in self.stderr:
            past = " (MemoryError: past the memory limit)" if "MemoryError" in self.stderr else ""
            out.append(f"a traceback{past}:\n" + self.stderr[-2000:])
        if self.code == 2 and len([line for line in self.stderr.splitlines() if line.strip()]) != 1:
            out.append("exit 2 without a one-line error:\n" + self.stderr[-2000:])
        return out


def _limits() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CPU, (TIME_LIMIT_S, TIME_LIMIT_S + 1))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run_bounded(script: str, folder: Path) -> Bounded:
    """`verl-wizard check` on the script in a fresh process: MEMORY_LIMIT of address space, TIME_LIMIT_S of CPU."""
    path = folder / "hostile.sh"
    path.write_text(script)
    command = [sys.executable, "-c", "import sys; from wizard.cli import main; sys.exit(main())", "check", str(path)]
    started = time.monotonic()
    try:
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=WALL_LIMIT_S, preexec_fn=_limits, cwd=folder, check=False
        )
    except subprocess.TimeoutExpired:
        return Bounded(None, time.monotonic() - started, "")
    return Bounded(done.returncode, time.monotonic() - started, done.stderr)
