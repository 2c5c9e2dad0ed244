"""User YAML with alias cycles or alias bombs is refused in one line; ordinary aliases still load."""

from __future__ import annotations

import pytest

from wizard.cli import main
from wizard.detect.config import yaml_input

CYCLE = "trainer: &t {project_name: p, again: *t}\n"
BOMB = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
    f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 8)
)
SHARED = "base: &b {lr: 1.0e-6}\nactor: *b\ncritic: *b\n"


def test_a_self_referencing_alias_is_refused():
    with pytest.raises(yaml_input.YAMLShapeError, match="cycle"):
        yaml_input.load_one(CYCLE)


def test_an_alias_bomb_is_refused_before_it_is_expanded():
    with pytest.raises(yaml_input.YAMLShapeError, match="million"):
        yaml_input.load_one(BOMB)


def test_shared_aliases_without_a_cycle_load():
    doc = yaml_input.load_one(SHARED)
    assert doc["actor"] == doc["critic"] == {"lr": 1.0e-6}


def test_the_largest_acceptable_fan_out_loads():
    # four levels of ten: 10**4 leaves, far inside the limit (the bomb above has 10**8)
    text = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 10)}]\n" for i in range(1, 5)
    )
    assert len(yaml_input.load_one(text)["a4"]) == 10


@pytest.mark.parametrize("text", [CYCLE, BOMB])
@pytest.mark.parametrize("command", ["check", "answers"])
def test_the_cli_says_so_in_one_line(tmp_path, capsys, text, command):
    path = tmp_path / "in.yaml"
    path.write_text(text)
    argv = ["check", str(path)] if command == "check" else ["new", "--answers", str(path), "--out", str(tmp_path / "o")]
    assert main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("verl-wizard: error: ") and str(path) in err[0]
    assert not (tmp_path / "o").exists()
