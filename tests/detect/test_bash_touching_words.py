"""`$A/$B/c` is one word, as bash reads it (wizard.detect.script.bash.tree.touching).

tree-sitter-bash 0.25 splits an expansion, a literal and a second expansion followed by more text into two nodes
that touch (`$A/$` and `B/c`), and `X=$A/$B/c` into an assignment and a command. The reader read
`data.train_files=$DATA/$NAME/train.parquet` as two arguments, `data.train_files=/data/$` and `NAME/train.parquet`
(SCRIPT-010 on a script verl runs), and `CKPT=$ROOT/$RUN/ckpt` as a command named `RUN/ckpt`. Bash is the judge: each
script's verl arguments are compared with what bash itself passes."""

from __future__ import annotations

import shutil
import subprocess

import pytest

from wizard.detect.script.bash.values import known
from wizard.detect.script.launch import parse_launch_script

SETUP = "DATA=/data\nNAME=gsm8k\nRUN=grpo-1\nLIST=(a b)\n"
TRAIN = "python3 -m verl.trainer.main_ppo"
CASES = {
    "an argument": f"{TRAIN} data.train_files=$DATA/$NAME/train.parquet trainer.nnodes=1",
    "three expansions": f"{TRAIN} trainer.default_local_dir=$DATA/$NAME/$RUN trainer.nnodes=1",
    "a dot and a dash": f"{TRAIN} trainer.experiment_name=$NAME-$RUN.v2 data.val_files=$DATA/$NAME.parquet",
    "an assignment": f"CKPT=$DATA/$RUN/ckpt\n{TRAIN} trainer.default_local_dir=$CKPT",
    "an assignment before the command": f"CKPT=$DATA/$RUN/ckpt {TRAIN} trainer.default_local_dir=x",
    "an array": f'ARGS=(data.train_files=$DATA/$NAME/train.parquet trainer.nnodes=1)\n{TRAIN} "${{ARGS[@]}}"',
    "a for list": f"for f in $DATA/$NAME/train.parquet; do {TRAIN} data.train_files=$f; done",
    "neighbours: braces and quotes": f'{TRAIN} data.train_files=${{DATA}}/${{NAME}}/t.parquet "x=$DATA/$NAME/v"',
    "neighbours: two words": f"{TRAIN} a=$DATA/ b=$NAME/c",
}


def _bash_args(text: str) -> list[str]:
    """The arguments bash passes after the module, printed one per line in place of python3."""
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash here")
    printed = text.replace(TRAIN, "printf '%s\\n' ")
    done = subprocess.run([bash, "-c", SETUP + printed], capture_output=True, text=True, timeout=10, check=True)
    return done.stdout.splitlines()


@pytest.mark.parametrize("name", list(CASES))
def test_the_verl_command_gets_the_words_bash_gives_it(name):
    text = CASES[name]
    script = parse_launch_script(SETUP + text + "\n", "run.sh")
    ours = [known(f) for f in script.arguments]
    assert ours == _bash_args(text)
    assert not [p for p in script.problems if p.kind in ("not-an-override", "bad-value")]


def test_an_assignment_before_the_command_reaches_its_environment():
    script = parse_launch_script(SETUP + CASES["an assignment before the command"] + "\n", "run.sh")
    assert known(script.env["CKPT"]) == "/data/grpo-1/ckpt"
