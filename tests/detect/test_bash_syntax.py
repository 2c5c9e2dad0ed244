"""Syntax first (issue 28): a script bash refuses is SCRIPT-015 at bash's line; one bash accepts is read on.

`bash -n` is the oracle (wizard/detect/script/bash/syntax.py says why); each case is compared with bash itself.
tree-sitter-bash mis-parses some valid bash; the reader then reads on past the broken statement.
"""

from __future__ import annotations

import re
import shutil
import subprocess

import pytest

from wizard.detect.script.bash import syntax
from wizard.detect.script.launch import parse_launch_script
from wizard.errors import UsageError
from wizard.i18n.text import render

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="needs bash")
VERL = "python3 -m verl.trainer.main_ppo data.train_batch_size=8"


def bash_line(text: str, *options: str) -> int | None:
    """The line `bash -n` stops at, or None when it parses the script."""
    done = subprocess.run(
        [BASH, *options, "-n"], input=text, capture_output=True, text=True, env={"LC_ALL": "C"}, check=False
    )
    if done.returncode == 0:
        return None
    return int(re.search(r"line (\d+):", done.stderr).group(1))


REFUSED = [
    f"X=$(abc\n{VERL}\n",
    f"X=${{abc\n{VERL}\n",
    f"{VERL}\necho a )\n",
    f"{VERL}\nif true; then\n  echo\n",
    f"{VERL}\ndone\n",
    f"{VERL}\ncase x in a) ;;\n",
]


@pytest.mark.parametrize("text", REFUSED)
def test_a_script_bash_refuses_is_a_syntax_finding_at_bash_s_line(text):
    line = bash_line(text)
    assert line is not None
    script = parse_launch_script(text, "bad.sh")
    [problem] = [p for p in script.problems if p.kind == "syntax-error"]
    assert problem.line == line
    english, chinese = render(problem.message, "en"), render(problem.message, "zh")
    assert f"line {line}, column " in english or f"line {line}:" in english
    assert f"第 {line} 行" in chinese


def test_the_column_points_at_the_unexpected_token():
    script = parse_launch_script(f"{VERL}\necho a )\n", "bad.sh")
    [problem] = [p for p in script.problems if p.kind == "syntax-error"]
    assert "line 2, column 8" in render(problem.message, "en")


OK_FOR_BASH = [
    f"X=$(( {{a ))\n{VERL}\n",
    f"f{{ab() {{ :; }}\n{VERL}\n",
    f"{VERL}\n{{a",
    f"{VERL} \\\n  trainer.total_epochs=2\n",
    # bash -n does not run shopt; bash running the script has extglob on by the time it reads line 2
    f"shopt -s extglob\ncase $X in @(a|b)) echo;; esac\n{VERL}\n",
]


@pytest.mark.parametrize("text", OK_FOR_BASH)
def test_a_script_bash_accepts_is_never_refused_and_its_verl_command_is_found(text):
    assert bash_line(text, *(("-O", "extglob") if "extglob" in text else ())) is None
    script = parse_launch_script(text, "ok.sh")
    assert not [p for p in script.problems if p.kind == "syntax-error"]
    assert script.as_dotted()["data.train_batch_size"] == 8 and script.certain


def test_a_refused_script_without_a_verl_command_says_both():
    with pytest.raises(UsageError, match=r"bad.sh: bash refuses the script \(line 2, column"):
        parse_launch_script("echo hi\necho a )\n", "bad.sh")


@pytest.mark.parametrize("text", [f"{VERL} trainer.project_name='math\n", f"{VERL}\necho `a\n"])
def test_an_unclosed_quote_stays_one_finding(text):
    line = bash_line(text)
    problems = parse_launch_script(text).problems
    assert [(p.kind, p.line) for p in problems if p.kind in ("unterminated-quote", "syntax-error")] == [
        ("unterminated-quote", line)
    ]


def test_a_quote_the_grammar_thinks_unclosed_is_no_finding_when_bash_parses_the_script():
    # tree-sitter-bash loses its way after `$(( {a ))` and reports the quote on line 3 as never closed
    text = f'X=$(( {{a ))\n[[ $X =~ ^a(b|c)$ ]] && echo\nX="a $Y"\n{VERL}\n'
    assert bash_line(text) is None
    assert not parse_launch_script(text).problems


def test_without_bash_no_syntax_verdict_is_given(monkeypatch):
    monkeypatch.setattr(syntax.shutil, "which", lambda name: None)
    assert syntax.bash_refuses("echo a )\n") is None


def test_bash_n_runs_nothing(tmp_path):
    marker = tmp_path / "ran"
    assert syntax.bash_refuses(f"touch {marker}\necho a )\n") is not None
    assert syntax.bash_refuses(f"touch {marker}\n") is None
    assert not marker.exists()


def test_reading_on_past_many_mis_parsed_statements_stays_cheap():
    import time

    text = "f{ab() { :; }\n" * 3000 + VERL + "\n"
    assert bash_line(text) is None
    started = time.process_time()
    script = parse_launch_script(text, "many.sh")
    assert time.process_time() - started < 2
    assert script.as_dotted()["data.train_batch_size"] == 8


_FRAGMENTS = [
    "X=$(( {a ))",
    "f{ab() { :; }",
    "if true; then echo; fi",
    "for i in 1 2; do :; done",
    "case $X in a|b) echo;; esac",
    "echo a )",
    "done",
    "fi",
    "X=$(abc",
    "X=${abc",
    "{ echo; }",
    "while :; do",
    "echo ${X:-$(date)}",
    "A=(a b",
    "[[ $X =~ ^a(b|c)$ ]] && echo",
    "X='a b'",
    'X="a $Y"',
]


def test_drawn_scripts_are_refused_exactly_when_bash_refuses_them():
    import random

    rng = random.Random(28)
    for _ in range(40):
        lines = rng.sample(_FRAGMENTS, rng.randint(1, 3))
        text = "\n".join([*lines, VERL]) + "\n" if rng.random() < 0.5 else "\n".join([VERL, *lines]) + "\n"
        line = bash_line(text)
        try:
            problems = parse_launch_script(text, "drawn.sh").problems
        except UsageError as exc:
            assert line is not None and "bash refuses the script" in str(exc), text  # no verl command bash reaches
            continue
        found = [p.line for p in problems if p.kind in ("syntax-error", "unterminated-quote")]
        assert found == ([] if line is None else [line]), text
