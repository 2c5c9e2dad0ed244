"""Each command's --help starts with its own usage line, not the top-level usage of the TUI and COMMAND."""

from __future__ import annotations

import pytest

from tests.cli.helpers import cli
from wizard.commands import COMMANDS


@pytest.mark.parametrize("command", [*COMMANDS, "validate-config", "validate-dataset"])
def test_a_commands_help_names_that_command_alone(command: str) -> None:
    result = cli(command, "--help")
    assert result.returncode == 0, result.stderr
    first = result.stdout.splitlines()[0]
    assert first.startswith(f"usage: verl-wizard {command} [-h]"), first
    assert "COMMAND" not in result.stdout.split("\n\n")[0]


def test_the_top_level_help_keeps_its_two_usage_lines() -> None:
    lines = cli("--help").stdout.splitlines()
    assert lines[0].startswith("usage: verl-wizard [--preset P]")
    assert lines[1].strip() == "verl-wizard COMMAND ..."
