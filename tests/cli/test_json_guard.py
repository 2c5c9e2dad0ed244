"""Invalid JSON from a `--format json` command can never pass a test (issue 31).

tests/cli/helpers.py parses the stdout of every run whose arguments ask for `--format json` (cli, cli_subprocess,
require_json; the fuzz runner reports json_problem): here a fake command that prints broken JSON fails the test with
the command and the start of its output, valid JSON and text output pass. The scan at the end keeps every test file
that runs a `--format json` command on those helpers.
"""

from __future__ import annotations

import ast
import itertools
import json
import re
import sys
from pathlib import Path

import pytest

from tests.cli import helpers
from tests.cli.helpers import ROOT, asks_for_json, cli, cli_json, cli_subprocess, require_json
from tests.fuzz.runner import Outcome

BROKEN = '{"a": "b}'  # a closing quote swallowed, as masking over serialised text once did


@pytest.fixture
def prints(monkeypatch):
    """Make the in-process main() print the given text and exit 0."""

    def use(text: str) -> None:
        def fake_main(argv):
            print(text, end="")
            return 0

        monkeypatch.setattr(helpers, "main", fake_main)

    return use


@pytest.mark.parametrize(
    "fmt", [("--format", "json"), ("--format=json",), ("--form", "json"), ("--format", "text", "--format", "json")]
)
def test_cli_fails_the_test_on_output_that_is_not_json(prints, fmt):
    prints(BROKEN)
    with pytest.raises(pytest.fail.Exception) as failed:
        cli("check", "run.sh", *fmt)
    message = str(failed.value)
    assert f"`verl-wizard check run.sh {' '.join(fmt)}` printed invalid JSON" in message
    assert repr(BROKEN) in message


def test_the_message_quotes_the_first_300_characters_of_stdout(prints):
    text = '{"a": "' + "".join(chr(ord("a") + i % 26) for i in range(1000))
    prints(text)
    with pytest.raises(pytest.fail.Exception) as failed:
        cli("presets", "--format", "json")
    assert repr(text[:300]) in str(failed.value) and text[:301] not in str(failed.value)


def test_cli_passes_valid_json_and_returns_the_output(prints):
    prints('{"a": "b"}\n')
    proc, doc = cli_json("check", "run.sh")
    assert proc.returncode == 0 and doc == {"a": "b"} and proc.stdout == '{"a": "b"}\n'


@pytest.mark.parametrize(
    "args",
    [
        ("check", "run.sh"),
        ("check", "run.sh", "--format", "text"),
        ("check", "run.sh", "--format", "json", "--format", "text"),
        ("check", "run.sh", "--", "--format", "json"),  # the script's own arguments
    ],
)
def test_text_output_is_not_parsed(prints, args):
    prints(BROKEN)
    assert cli(*args).stdout == BROKEN and not asks_for_json(args)


def test_nothing_printed_is_not_json_to_parse(prints):
    prints("")
    assert (
        require_json(["check", "x", "--format", "json"], "") is None and cli("check", "x", "--format=json").stdout == ""
    )


def test_the_real_cli_passes_with_both_spellings():
    assert [p["name"] for p in json.loads(cli("presets", "--format=json").stdout)] == [
        p["name"] for p in json.loads(cli("presets", "--format", "json").stdout)
    ]


def test_cli_subprocess_fails_on_a_child_that_prints_invalid_json():
    program = [sys.executable, "-c", "import sys; print(sys.argv[1])"]
    with pytest.raises(pytest.fail.Exception, match="printed invalid JSON"):
        cli_subprocess(BROKEN, "--format", "json", program=program)
    assert cli_subprocess('{"a": "b"}', "--format", "json", program=program).stdout == '{"a": "b"}\n'
    assert cli_subprocess(BROKEN, "--format", "text", program=program).stdout == BROKEN + "\n"


def test_the_fuzz_runner_counts_invalid_json_as_a_broken_promise():
    argv = ["check", "config.yaml", "--format", "json"]
    assert any("printed invalid JSON" in p for p in Outcome(argv, code=1, stdout=BROKEN).problems())
    assert Outcome(argv, code=1, stdout='{"a": "b"}').problems() == []
    assert Outcome(["check", "config.yaml"], code=1, stdout=BROKEN).problems() == []


# A test file that runs a `--format json` command: the two spellings, or the format given by a variable.
ASKS_FOR_JSON = re.compile(r"""--format(?:=json\b|\s+json\b|["']\s*,\s*(?:["']json["']|[A-Za-z_]\w*))""")
# file -> (the module its runs go through, which must use the helpers, or None; why it needs no import of its own)
ALLOWED: dict[str, tuple[str | None, str]] = {
    "tests/conformance/test_workshop_flow.py": (
        "tests/conformance/conftest.py",
        "runs through conftest's run_wizard fixture, which is cli_subprocess",
    ),
    "tests/conformance/test_verl_accepts.py": (
        "tests/conformance/conftest.py",
        "runs through conftest's run_wizard fixture, which is cli_subprocess",
    ),
    "tests/fuzz/test_fuzz_cli.py": (
        "tests/fuzz/runner.py",
        "runs through runner.run_cli, whose Outcome.problems() reports json_problem",
    ),
    "tests/conformance/test_verl_examples.py": (
        None,
        "the runs are scripts/verl_examples_agreement.py's, which json.loads all of stdout; the test asserts that"
        " every output parsed",
    ),
}
RUNNERS = {"run", "Popen", "check_output", "call", "main"}


def imports_the_helpers(path: Path) -> bool:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return any(
        (isinstance(node, ast.ImportFrom) and node.module == "tests.cli.helpers")
        or (
            isinstance(node, ast.ImportFrom)
            and node.module == "tests.cli"
            and "helpers" in {a.name for a in node.names}
        )
        for node in ast.walk(tree)
    )


def asking_files() -> list[str]:
    files = sorted(p for p in (ROOT / "tests").rglob("*.py") if p.name != "helpers.py" or p.parent.name != "cli")
    return [str(p.relative_to(ROOT)) for p in files if ASKS_FOR_JSON.search(p.read_text(encoding="utf-8"))]


def test_every_test_file_that_asks_for_json_uses_the_helpers():
    found = asking_files()
    skipping = [f for f in found if f not in ALLOWED and not imports_the_helpers(ROOT / f)]
    assert skipping == [], "route these through tests/cli/helpers.py (cli, cli_subprocess, require_json)"
    assert [f for f in ALLOWED if f not in found] == [], "stale ALLOWED entries"
    assert [via for via, _ in ALLOWED.values() if via and not imports_the_helpers(ROOT / via)] == []


def direct_json_runs(tree: ast.AST) -> list[int]:
    """Lines of calls like subprocess.run([... "--format", "json"]) or main([...]): runs that skip the helpers."""
    lines = []
    for call in (n for n in ast.walk(tree) if isinstance(n, ast.Call)):
        name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
        if name not in RUNNERS:
            continue
        for seq in (n for arg in call.args for n in ast.walk(arg) if isinstance(n, (ast.List, ast.Tuple))):
            words = [e.value if isinstance(e, ast.Constant) else None for e in seq.elts]
            if "--format=json" in words or any(a == "--format" and b == "json" for a, b in itertools.pairwise(words)):
                lines.append(call.lineno)
    return lines


def test_no_test_runs_a_json_command_around_the_helpers():
    found = {f: direct_json_runs(ast.parse((ROOT / f).read_text(encoding="utf-8"))) for f in asking_files()}
    assert {f: lines for f, lines in found.items() if lines} == {}


def test_the_scan_sees_each_way_of_asking_and_each_direct_run():
    asks = [
        'cli("check", p, "--format", "json")',
        "argv = ['--format',\n 'json']",
        '"x --format=json"',
        '"--format", fmt',
    ]
    assert all(ASKS_FOR_JSON.search(text) for text in asks)
    assert not ASKS_FOR_JSON.search('cli("check", p, "--format", "text")')
    tree = ast.parse(
        'subprocess.run([exe, "check", "--format", "json"])\nmain(["topo", "--format=json"])\ncli("--format", "json")'
    )
    assert direct_json_runs(tree) == [1, 2]
