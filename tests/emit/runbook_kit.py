"""Running a RUN.md as its reader would: its ```bash blocks, in order, in one shell, in the run's folder.

`blocks(text)` reads the blocks with the section each is in. `run_blocks` types them into one bash (variables
that one block sets, JOBID or HEAD_ADDRESS, reach the next), with a marker between blocks so that each block's
output and status can be told apart; a block that stops the shell (an unset `${NAME:?}`) stops the rest, as it
stops a reader's pasted script. `make_stubs` puts recording stand-ins on PATH for the pieces a test does not
run for real: each appends its name and arguments to $STUB_LOG, and `calls` reads them back.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

MARK = "@@runbook-block"
SEP, END = "\x1f", "\x1e"

RECORD = f"""printf '%s{SEP}' "$(basename "$0")" "$@" >> "$STUB_LOG"; printf '{END}' >> "$STUB_LOG"\n"""

# name -> what the stand-in does after recording its arguments
STUBS = {
    "pip": "exit 0",
    "kubectl": 'case "$*" in *"get pod"*) echo "pod/stub-head-0" ;; esac; exit 0',
    "sbatch": 'case " $* " in *" --parsable "*) echo "4242" ;; *) echo "Submitted batch job 4242" ;; esac',
    "squeue": "exit 0",
    "scancel": "exit 0",
    "tail": "exit 0",
    "ray": 'case "$1 $2" in "job submit") echo "Job \'raysubmit_stub\' submitted successfully" ;; esac; exit 0',
    # verl itself is not reached: its start is recorded; every other python3 (ray-job.sh's -c) is the real one
    "python3": 'if [ "${1:-}" = -m ] && [ "${2:-}" = verl.trainer.main_ppo ]; then exit 0; fi\n'
    'exec "$REAL_PYTHON3" "$@"',
}
# A `ray` that runs the real one but records `ray stop` instead (it would stop every Ray of this machine).
RAY_BUT_STOP = 'if [ "${1:-}" = stop ]; then exit 0; fi\nexec "$REAL_RAY" "$@"'


@dataclass(frozen=True)
class Block:
    section: str  # the `## ` heading the block is under
    text: str


@dataclass(frozen=True)
class BlockRun:
    block: Block
    rc: int | None  # None: the shell stopped before or inside this block
    output: str


def blocks(text: str) -> list[Block]:
    """The ```bash blocks of a RUN.md, in order, each with its section."""
    out, section, lines, inside = [], "", [], False
    for line in text.splitlines():
        if not inside and line.startswith("## "):
            section = line[3:].strip()
        elif not inside and line.strip() == "```bash":
            inside, lines = True, []
        elif inside and line.strip() == "```":
            inside = False
            out.append(Block(section, "\n".join(lines) + "\n"))
        elif inside:
            lines.append(line)
    assert not inside, "a ```bash block is not closed"
    return out


def syntax_errors(block: Block) -> str:
    """bash -n's complaint about a block ("" when bash reads it)."""
    proc = subprocess.run(["bash", "-n"], input=block.text, capture_output=True, text=True, check=False)
    return proc.stderr if proc.returncode else ""


def make_stubs(folder: Path, names: tuple[str, ...] = tuple(STUBS), real_ray: bool = False) -> Path:
    """Recording stand-ins for `names` in folder/bin (put it first on PATH); with real_ray, `ray` runs the real
    one except for `ray stop`."""
    bin_dir = folder / "bin"
    bin_dir.mkdir(parents=True, exist_ok=True)
    for name in names:
        body = RAY_BUT_STOP if (name == "ray" and real_ray) else STUBS[name]
        path = bin_dir / name
        path.write_text(f"#!/usr/bin/env bash\n{RECORD}{body}\n")
        path.chmod(0o755)
    return bin_dir


def calls(log: Path) -> list[list[str]]:
    """What the stand-ins were called with, in order: [name, arg, ...] each."""
    if not log.exists():
        return []
    return [record.split(SEP)[:-1] for record in log.read_text().split(END) if record]


def stub_env(tmp: Path, bin_dir: Path, **extra: str) -> dict[str, str]:
    """An environment with the stand-ins first on PATH, a HOME of its own and no Ray, Slurm or secret of this
    machine's shell."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("RAY_", "SLURM_", "WANDB_", "HF_TOKEN"))}
    home = tmp / "home"
    home.mkdir(exist_ok=True)
    env.update(
        PATH=f"{bin_dir}:{env.get('PATH', '/usr/bin:/bin')}",
        HOME=str(home),
        STUB_LOG=str(tmp / "calls.log"),
        REAL_PYTHON3=shutil.which("python3") or "/usr/bin/python3",
    )
    env.update(extra)
    return env


def driver(items: list[Block], scratch: Path) -> str:
    """A bash script that types the blocks in order into one shell, a marker with each block's status after it
    (the blocks' files go in scratch, not in the run's folder)."""
    script = ["exec 2>&1", "set +e"]
    for index, block in enumerate(items):
        path = scratch / f"runbook-block-{index}.sh"
        path.write_text(block.text)
        script += [f"echo '{MARK} {index} start'", f"source {path}", f'echo "{MARK} {index} rc=$?"']
    return "\n".join(script)


def split_runs(items: list[Block], output: str) -> list[BlockRun]:
    """Each block's status and output from the driver's output (rc None: the shell stopped before its end)."""
    runs = []
    for index, block in enumerate(items):
        found = re.search(rf"^{MARK} {index} start\n(.*?)(?:^{MARK} {index} rc=(\d+)$|\Z)", output, re.S | re.M)
        rc = int(found.group(2)) if found and found.group(2) is not None else None
        runs.append(BlockRun(block, rc, found.group(1) if found else ""))
    return runs


def run_blocks(items: list[Block], cwd: Path, env: dict[str, str], timeout: float = 120) -> list[BlockRun]:
    """The blocks typed into one bash in cwd, in order; each block's status and output."""
    script = driver(items, cwd.parent)
    proc = subprocess.run(
        ["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False
    )
    return split_runs(items, proc.stdout)
