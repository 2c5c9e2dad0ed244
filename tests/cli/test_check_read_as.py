"""check's first line names what it read with the right article (issue 32 item 10): "read as an answers
file", not "read as a answers file"; a launch script stays "read as a launch script"."""

from __future__ import annotations

from tests.cli.helpers import cli
from tests.cli.test_import_unknowns import SCRIPT


def test_an_answers_file_is_read_as_an_answers_file(tmp_path):
    assert cli("new", "--preset", "grpo-8b-1x8", "--out", str(tmp_path / "o")).returncode == 0
    answers = tmp_path / "o" / "answers.yaml"
    first = cli("check", str(answers), "--mode", "cluster").stdout.splitlines()[0]
    assert first == f"{answers}: read as an answers file"


def test_a_launch_script_is_read_as_a_launch_script(tmp_path):
    script = tmp_path / "old.sh"
    script.write_text(SCRIPT)
    first = cli("check", str(script), "--mode", "cluster").stdout.splitlines()[0]
    assert first == f"{script}: read as a launch script"
