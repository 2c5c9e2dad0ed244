"""The reader's reading is bounded (issue 28): hostile patterns, doubling arrays and long values end quickly.

Each script here once ran past a minute or took gigabytes (`verl-wizard check` on a 130-byte script).
Now a match is a linear NFA walk, `${X//b/c}` is linear, and arrays, values and the total work have caps:
past one, the value is unknown and the note says which limit it met, never a hang and never exit 2.
The budgets of each input in a subprocess are enforced by the fuzz tier (tests/fuzz/test_fuzz_scripts.py).
"""

from __future__ import annotations

import time

import pytest

from wizard.core.unknowns import LIMIT, Unknowns, notes
from wizard.detect.script.launch import keys_fed_by, parse_launch_script
from wizard.detect.script.reading import follow
from wizard.i18n.text import render

VERL = "python3 -m verl.trainer.main_ppo data.train_batch_size=8"
A30 = "a" * 30
DOUBLE_2000 = "X=aaaaaaaaaaaaaaaaaaaa; X=$X$X$X$X$X$X$X$X$X$X; X=$X$X$X$X$X$X$X$X$X$X\n"  # 2,000 characters


def read_r(script: str, limit_s: float = 2.0) -> str | None:
    started = time.process_time()
    _, _, _, history = follow(script, "t.sh", {}, [], lambda p: None, with_history=True)
    assert time.process_time() - started < limit_s
    values = history.get("R", [])
    return values[0] if len(values) == 1 else None  # both branches of an undecided test: unknown


@pytest.mark.parametrize(
    "script",
    [
        f"X={A30}\nif [[ $X =~ (a|a)*b ]]; then R=yes; else R=no; fi",
        DOUBLE_2000 + 'case "$X" in *a*a*a*a*a*a*a*a*b) R=yes;; *) R=no;; esac',
        f"shopt -s extglob\nX={A30}\nif [[ $X == *(*(a)|a)c ]]; then R=yes; else R=no; fi",
    ],
    ids=["regex-(a|a)*b", "case-*a*a*a*b", "extglob-*(*(a)|a)c"],
)
def test_backtracking_patterns_are_decided_in_linear_time(script):
    assert read_r(script) == "no"  # no b (no c) in the value: bash says no, after a long search


def test_a_doubling_array_becomes_unknown_with_its_limit():
    for grow in ('A=("${A[@]}" "${A[@]}")', 'A+=("${A[@]}")'):
        text = f"A=(x); for i in $(seq 1 40); do {grow}; done\n{VERL} trainer.total_epochs=${{#A[@]}}\n"
        started = time.process_time()
        script = parse_launch_script(text, "grow.sh")
        assert time.process_time() - started < 2
        [origin] = script.unknown_keys()["trainer.total_epochs"]
        assert (origin.kind, origin.via) == (LIMIT, "array")


def test_a_short_array_keeps_its_size():
    text = f'A=(x); for i in 1 2 3; do A+=("${{A[@]}}"); done\n{VERL} trainer.total_epochs=${{#A[@]}}\n'
    assert parse_launch_script(text).as_dotted()["trainer.total_epochs"] == 8


@pytest.mark.parametrize("doublings", [14, 15])  # 16,384 and 32,768 characters
def test_replacing_in_a_long_value_is_linear(doublings):
    loop = " ".join(str(k) for k in range(doublings))
    assert read_r(f"X=b; for i in {loop}; do X=$X$X; done\nR=${{X//b/c}}") == "c" * 2**doublings


def test_a_replacement_past_the_matching_budget_is_unknown_and_says_why():
    # each start runs to the end of the value looking for a b: quadratic, so the budget stops it
    text = f"X=a; for i in $(seq 1 15); do X=$X$X; done\n{VERL} trainer.project_name=${{X//a*b/c}}\n"
    started = time.process_time()
    script = parse_launch_script(text, "slow.sh")
    assert time.process_time() - started < 3
    [origin] = script.unknown_keys()["trainer.project_name"]
    assert (origin.kind, origin.via, origin.name) == (LIMIT, "match", "${X//a*b/c}")
    unknowns = Unknowns(keys=script.unknown_keys())
    [note] = notes(unknowns, keys_fed_by(script))
    english, chinese = render(note, "en"), render(note, "zh")
    assert "${X//a*b/c}" in english and "matching steps" in english and "trainer.project_name" in english
    assert "${X//a*b/c}" in chinese and "匹配步数" in chinese


def test_a_value_past_its_size_cap_is_unknown():
    text = f"X=b; for i in $(seq 1 17); do X=$X$X; done\n{VERL} trainer.project_name=$X\n"
    [origin] = parse_launch_script(text).unknown_keys()["trainer.project_name"]
    assert (origin.kind, origin.via) == (LIMIT, "size")


def test_an_unsupported_negated_extglob_is_unknown_not_wrong():
    script = "shopt -s extglob\nX=abc\nif [[ $X == !(abc) ]]; then R=yes; else R=no; fi"
    assert read_r(script) is None


@pytest.mark.parametrize(
    ("grow", "why"),
    [
        ("X=a; for i in $(seq 1 16); do X=$X$X; done; Y=${X//a/$X}", "size"),  # the length squared
        ("printf -v Y '%999999999d' 1", "size"),  # a gigabyte of blanks
        ("for i in $(seq 1 2000); do for j in $(seq 1 2000); do Y=$i$j; done; done", "work"),  # 4 million runs
        ("f() { Y=$Y.; f; f; }; f", "work"),  # 2**64 calls
    ],
    ids=["replace-squares", "printf-width", "nested-loops", "call-tree"],
)
def test_growth_past_a_cap_is_unknown_with_the_cap_named(grow, why):
    started = time.process_time()
    script = parse_launch_script(f"{grow}\n{VERL} trainer.project_name=$Y\n", "grow.sh")
    assert time.process_time() - started < 2
    origins = script.unknown_keys()["trainer.project_name"]
    assert (LIMIT, why) in {(o.kind, o.via) for o in origins}


def test_after_the_statement_budget_the_reading_goes_on_to_the_verl_command():
    # the loop stops at 20,000 statements, what it set is unknown, and the lines after it are read as usual
    text = "N=0\nwhile true; do for i in $(seq 1 100); do N=$((N+1)); done; done\nM=4\n"
    text += f"{VERL} trainer.total_epochs=$M trainer.save_freq=$N\n"
    script = parse_launch_script(text, "loop.sh")
    assert script.as_dotted()["trainer.total_epochs"] == 4
    assert (LIMIT, "work") in {(o.kind, o.via) for o in script.unknown_keys()["trainer.save_freq"]}
    assert [n[0] for n in script.reader_notes] == ["exhausted"]


def test_a_short_loop_and_printf_keep_bash_s_values():
    text = "N=0\nfor i in 1 2 3; do N=$((N+i)); done\nprintf -v P '%05d|%-3s|%x' 42 ab 255\n"
    dotted = parse_launch_script(text + f'{VERL} trainer.total_epochs=$N "trainer.project_name=$P"\n').as_dotted()
    assert dotted["trainer.total_epochs"] == 6 and dotted["trainer.project_name"] == "00042|ab |ff"


def test_a_loop_past_its_iterations_leaves_its_variables_unknown():
    # it used to stop after 2,000 rounds and keep N=2000, a value bash never reaches
    text = f"N=0\nwhile true; do N=$((N+1)); done\n{VERL} trainer.save_freq=$N\n"
    origins = parse_launch_script(text).unknown_keys()["trainer.save_freq"]
    assert (LIMIT, "work") in {(o.kind, o.via) for o in origins}


def test_a_brace_sequence_is_expanded_as_bash_does_up_to_its_cap():
    # {1..10000} was left as the literal word past 4,096 words: printf then printed one b, bash prints 10,000
    assert read_r('printf -v R "b%.0s" {1..10000}') == "b" * 10_000
    text = f'printf -v Y "b%.0s" {{1..20000}}\n{VERL} trainer.project_name=$Y\n'
    origins = parse_launch_script(text).unknown_keys()["trainer.project_name"]
    assert (LIMIT, "array") in {(o.kind, o.via) for o in origins}
