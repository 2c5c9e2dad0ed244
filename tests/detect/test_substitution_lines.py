"""Commands read inside a command substitution keep their line in the script (wizard.detect.script.bash.run):
before, the inner text was read as a script of its own and every command in `$(...)` said line 1."""

from __future__ import annotations

from wizard.detect.script.bash.values import known
from wizard.detect.script.reading import follow

SCRIPT = """#!/bin/bash
set -e
HOST=$(hostname -f)
PORTS=`seq 8000 8003 | head -n 2`
MULTI=$(
  cat /etc/hosts |
  grep -c node
)
python3 prepare.py --out /data
"""


def lines_of(text: str) -> dict[str, int]:
    steps, _, _ = follow(text, "run.sh", {}, None, lambda path: None)
    found: dict[str, int] = {}
    for step in steps:
        words = [known(f) or "" for f in step.fields]
        if words:
            found.setdefault(words[0], step.line)
    return found


def test_a_command_inside_a_substitution_has_its_line_in_the_script():
    lines = lines_of(SCRIPT)
    assert lines["hostname"] == 3
    assert lines["seq"] == 4 and lines["head"] == 4
    assert lines["cat"] == 6 and lines["grep"] == 7


def test_a_plain_command_keeps_its_line():
    assert lines_of(SCRIPT)["python3"] == 9
