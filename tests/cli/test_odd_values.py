"""Odd but real values through the real CLI (issue 28): a Ray address with a bad [host], a YAML key written
twice, a date-like name, characters no script or manifest can hold, --out at a system folder, empty paths.

Each case was a traceback, a silent pass or a refusal of a good value before; each has a neighbour that still
works (a normal address, value, folder or path).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.cli.helpers import cli, cli_json
from wizard.detect.config import yaml_input

PRESET = ["--preset", "grpo-8b-1x8"]
BLOCKED = ["--set", "algorithm.adv_estimator=gae"]  # ROLE-002 (no critic): nothing is ever written


def one_line(proc, code: int = 2) -> str:
    """The single stderr line of a run that exited with ``code`` and no traceback."""
    assert proc.returncode == code, (proc.returncode, proc.stdout[-2000:], proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    return lines[0]


def answers(tmp_path: Path, text: str, name: str = "answers.yaml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def written_config(tmp_path: Path) -> Path:
    """A config.yaml `new` writes (the base the YAML cases edit)."""
    out = tmp_path / "base"
    assert cli("new", *PRESET, "--out", str(out)).returncode == 0
    return out / "config.yaml"


# -- deploy.ray_address ----------------------------------------------------------------------------------------


def deploy_002(doc) -> list[dict]:
    return [f for f in doc["findings"] if f["id"] == "DEPLOY-002"]


@pytest.mark.parametrize("address", ["[a]", "http://[a]:8265", "[not-v6]:6379"])
@pytest.mark.parametrize("command", ["new", "check"])
def test_a_bracketed_host_that_is_not_ipv6_is_a_finding_at_the_field(tmp_path, address, command):
    path = answers(tmp_path, f"deploy:\n  target: ray-job\n  ray_address: {json.dumps(address)}\n")
    args = ["new", *PRESET, "--answers", path, "--out", str(tmp_path / "o")] if command == "new" else ["check", path]
    proc, doc = cli_json(*args)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr, proc.stderr
    (finding,) = deploy_002(doc)
    assert finding["paths"] == ["deploy.ray_address"]
    assert "square brackets hold an IPv6 address" in finding["message"]
    assert finding["fixes"] == []  # no guessed host: a fix to http://[a]:8265 would be refused the same way
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    "address, fix",
    [
        ("http://10.0.0.1:8265", None),
        ("http://[fd00::1]:8265", None),
        ("10.0.0.1:6379", "http://10.0.0.1:8265"),
        ("[fd00::1]:6379", "http://[fd00::1]:8265"),
        ("ray://[fd00::1]:10001", "http://[fd00::1]:8265"),  # urlsplit's hostname drops the brackets: kept
    ],
)
def test_normal_addresses_still_pass_or_get_their_fix(tmp_path, address, fix):
    path = answers(tmp_path, f"deploy:\n  target: ray-job\n  ray_address: {json.dumps(address)}\n")
    proc, doc = cli_json("new", *PRESET, "--answers", path, "--out", str(tmp_path / "o"))
    assert "Traceback" not in proc.stderr
    found = deploy_002(doc)
    if fix is None:
        assert proc.returncode == 0 and found == []
    else:
        assert [f["fixes"][0]["set"] for f in found] == [{"deploy.ray_address": fix}]


def test_a_launch_script_with_such_a_ray_address_is_a_finding_too(tmp_path):
    out = tmp_path / "o"
    assert cli("new", *PRESET, "--target", "ray-job", "--out", str(out)).returncode == 0
    script = (out / "ray-job.sh").read_text().replace("http://127.0.0.1:8265", "http://[a]:8265")
    (out / "ray-job.sh").write_text(script)
    proc, doc = cli_json("check", str(out / "ray-job.sh"))
    assert "Traceback" not in proc.stderr and proc.returncode == 1, proc.stderr
    assert any("http://[a]:8265" in f["message"] for f in deploy_002(doc))


# -- YAML as OmegaConf reads it ----------------------------------------------------------------------------------


def test_check_refuses_a_config_with_a_key_written_twice(tmp_path):
    config = written_config(tmp_path)
    text = config.read_text()
    line = text.splitlines().index("  max_prompt_length: 1024") + 1
    config.write_text(
        text.replace("  max_prompt_length: 1024\n", "  max_prompt_length: 1024\n  max_prompt_length: 2048\n")
    )
    err = one_line(cli("check", str(config)))
    assert f"the key max_prompt_length is written twice (line {line} and line {line + 1})" in err
    assert "OmegaConf refuses" in err


def test_check_reads_the_same_config_without_the_repeat(tmp_path):
    proc = cli("check", str(written_config(tmp_path)))
    assert proc.returncode in (0, 1) and proc.stderr == "", proc.stderr


def test_an_answers_file_with_a_key_written_twice_is_refused(tmp_path):
    path = answers(tmp_path, "trainer:\n  experiment_name: a\n  experiment_name: b\n")
    err = one_line(cli("new", *PRESET, "--answers", path, "--out", str(tmp_path / "o")))
    assert "the key experiment_name is written twice (line 2 and line 3)" in err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("name", ["2024-01-01", "2001-12-14t21:59:43.10-05:00"])
def test_a_date_like_experiment_name_is_text_as_omegaconf_reads_it(tmp_path, name):
    path = answers(tmp_path, f"trainer:\n  experiment_name: {name}\n")
    out = tmp_path / "o"
    proc = cli("new", *PRESET, "--answers", path, "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    assert f"experiment_name: '{name}'" in (out / "config.yaml").read_text()
    # and `check` reads the config it wrote back with the same text
    config = tmp_path / "config.yaml"
    config.write_text((out / "config.yaml").read_text().replace(f"'{name}'", name))
    assert cli("check", str(config)).stderr == ""


def test_a_number_written_3e_6_is_a_number(tmp_path):
    # A neighbour of the date case: PyYAML read `3e-6` as text (the writer then made it a number by verl's type);
    # OmegaConf's reading gives the number itself.
    path = answers(tmp_path, "extra:\n  actor_rollout_ref.actor.optim.lr: 3e-6\n")
    out = tmp_path / "o"
    assert cli("new", *PRESET, "--answers", path, "--out", str(out)).returncode == 0
    assert "    lr: 3.0e-06\n" in (out / "config.yaml").read_text()


# -- characters no script or manifest can hold ---------------------------------------------------------------

# YAML double-quoted escapes -> the character's name in the error
CHARS = {
    "\\0": "U+0000 (NUL)",
    "\\a": "U+0007 (BEL)",
    "\\n": "U+000A (LF)",
    "\\e": "U+001B (ESC)",
    "\\x7f": "U+007F (DEL)",
    "\\N": "U+0085 (NEL)",
    "\\x9b": "U+009B (CSI)",
    "\\L": "U+2028 (LINE SEPARATOR)",
    "\\P": "U+2029 (PARAGRAPH SEPARATOR)",
}


@pytest.mark.parametrize("escape", list(CHARS))
def test_an_answers_file_name_with_a_control_character_is_refused_at_its_field(tmp_path, escape):
    path = answers(tmp_path, f'trainer:\n  experiment_name: "run{escape}1"\n')
    err = one_line(cli("new", *PRESET, "--answers", path, "--out", str(tmp_path / "o")))
    assert err.startswith(f"verl-wizard: error: trainer.experiment_name: contains {CHARS[escape]}, "), err
    assert "a shell script or manifest cannot hold; remove it" in err
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("escape", ["\\N", "\\0"])
def test_a_deploy_env_item_with_nel_or_nul_is_refused(tmp_path, escape):
    path = answers(tmp_path, f'deploy:\n  target: ray-job\n  env: ["MY_FLAG=a{escape}b"]\n')
    err = one_line(cli("new", *PRESET, "--answers", path, "--out", str(tmp_path / "o")))
    assert f"deploy.env: contains {CHARS[escape]}" in err


def test_the_set_flag_and_a_config_and_a_script_refuse_them_too(tmp_path):
    out = str(tmp_path / "o")
    assert "trainer.experiment_name: contains U+0007 (BEL)" in one_line(
        cli("new", *PRESET, "--set", "trainer.experiment_name='a\x07b'", "--out", out)
    )
    assert "deploy.env: contains U+0085 (NEL)" in one_line(
        cli("new", *PRESET, "--target", "ray-job", "--set", "deploy.env=A=x\x85y", "--out", out)
    )
    config = written_config(tmp_path)
    config.write_text(config.read_text().replace("experiment_name: qwen3-8b-grpo-fsdp", 'experiment_name: "a\\eb"'))
    assert "trainer.experiment_name: contains U+001B (ESC)" in one_line(cli("check", str(config)))
    script = tmp_path / "run.sh"
    script.write_text(
        "python3 -m verl.trainer.main_ppo algorithm.adv_estimator=grpo trainer.experiment_name=$'a\\eb' "
        "actor_rollout_ref.model.path=Qwen/Qwen3-8B\n"
    )
    assert "trainer.experiment_name: contains U+001B (ESC)" in one_line(cli("check", str(script)))
    assert "trainer.experiment_name: contains U+001B (ESC)" in one_line(
        cli("new", "--from-script", str(script), "--out", out)
    )
    assert not (tmp_path / "o").exists()


def test_names_with_other_unicode_still_work_and_replay(tmp_path):
    # The neighbour: letters of any script, an accent, a no-break space (U+00A0, just past the C1 controls) and a
    # tab (bash quotes it, YAML writes it as \t, verl takes it: the launch corpus's 33_quoted_values.sh has one).
    name = "实验-é\u00a01\t2"
    path = answers(tmp_path, f'trainer:\n  experiment_name: "{name}"\ndeploy:\n  target: ray-job\n  env: ["A=é"]\n')
    out = tmp_path / "o"
    assert cli("new", *PRESET, "--answers", path, "--out", str(out)).returncode == 0
    replay = cli("new", "--answers", str(out / "answers.yaml"), "--out", str(out))
    assert replay.returncode == 0, replay.stderr
    for written in ("answers.yaml", "config.yaml"):
        doc = yaml_input.load_config((out / written).read_text())
        assert doc["trainer"]["experiment_name"] == name, written
    assert "é" in (out / "ray-job.sh").read_text()
    for written in ("config.yaml", "ray-job.sh"):
        assert cli("check", str(out / written)).returncode in (0, 1), written


# -- --out at a system folder ------------------------------------------------------------------------------------


@pytest.mark.parametrize("out", ["/", "/etc", "/usr/bin", "/var/lib/verl-wizard-test", "/proc/self", "~"])
def test_out_at_a_system_folder_is_refused(tmp_path, out):
    before = set(os.listdir("/etc"))
    err = one_line(cli("new", *PRESET, *BLOCKED, "--out", os.path.expanduser(out)))
    assert "--out " in err and ("is a system folder" in err or "your home folder itself" in err), err
    assert set(os.listdir("/etc")) == before
    assert not Path("/var/lib/verl-wizard-test").exists()


def test_out_as_the_current_folder_at_the_root_is_refused():
    err = one_line(cli("new", *PRESET, *BLOCKED, "--out", ".", cwd=Path("/")))
    assert "--out .: / is a system folder" in err


def test_out_in_a_folder_of_ones_own_still_works(tmp_path):
    out = tmp_path / "runs" / "grpo"
    assert cli("new", *PRESET, "--out", str(out)).returncode == 0
    assert (out / "config.yaml").is_file()


# -- empty paths -------------------------------------------------------------------------------------------------

EMPTY = {
    "check PATH": (["check", ""], "path ''"),
    "validate-config --config": (["validate-config", "--config", ""], "--config ''"),
    "check --topology": (["check", "x.yaml", "--topology", ""], "--topology ''"),
    "preflight --config": (["preflight", "--config", ""], "--config ''"),
    "topo --from": (["topo", "--from", ""], "--from ''"),
    "data PATH": (["data", ""], "path ''"),
    "data more PATH": (["data", "a.jsonl", ""], "PATH ''"),
    "data --tokenizer": (["data", "a.jsonl", "--tokenizer", ""], "--tokenizer ''"),
    "data convert --out": (["data", "convert", "a.jsonl", "--out", ""], "--out ''"),
    "validate-dataset --dataset_path": (["validate-dataset", "--dataset_path", ""], "--dataset_path ''"),
    "validate-dataset --tokenizer_name": (
        ["validate-dataset", "--dataset_path", "a", "--tokenizer_name", ""],
        "--tokenizer_name ''",
    ),
    "new --answers": (["new", "--answers", "", "--out", "o"], "--answers ''"),
    "new --from-script": (["new", "--from-script", "", "--out", "o"], "--from-script ''"),
    "new --out": (["new", *PRESET, "--out", ""], "--out ''"),
    "serve --answers": (["serve", "--answers", ""], "--answers ''"),
    "serve --topology": (["serve", "--topology", ""], "--topology ''"),
    "tui --answers": (["tui", "--answers", ""], "--answers ''"),
    "tui --out": (["--out", ""], "--out ''"),
}


@pytest.mark.parametrize("case", list(EMPTY))
def test_an_empty_path_is_refused_naming_its_flag(tmp_path, case):
    argv, words = EMPTY[case]
    err = one_line(cli(*argv, cwd=tmp_path))
    assert words in err and "empty" in err, err
    assert os.listdir(tmp_path) == []


def test_topo_from_a_real_file_still_reads_it(tmp_path):
    topo = tmp_path / "topo.txt"
    topo.write_text("\tGPU0\tGPU1\nGPU0\t X \tNV12\nGPU1\tNV12\t X \n")
    proc, doc = cli_json("topo", "--from", str(topo))
    assert proc.returncode == 0 and doc["source"] == "file" and len(doc["gpus"]) == 2
