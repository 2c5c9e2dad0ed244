"""`check --verl PYTHON|auto` and `new --verl`: the installed verl's own verdict, asked of a fake verl package.

The fake (tests/cli/verl_fakes.py) refuses train_batch_size that does not divide by the GPU count with its own
planted message; the findings must quote that text and name the fake's release. Tests that compose need
hydra-core in the asked interpreter (`hydra_python`); the bad-input and deadline cases need none. The real
verl 0.9.1 is asked in tests/conformance/test_check_verl.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.cli.helpers import cli, cli_subprocess
from tests.cli.verl_fakes import find_hydra_python, make_fake_verl

LAUNCH = "python3 -m verl.trainer.main_ppo {args}\n"


def script(tmp_path: Path, args: str, name: str = "run.sh") -> Path:
    path = tmp_path / name
    path.write_text(LAUNCH.format(args=args), encoding="utf-8")
    return path


@pytest.fixture(scope="session")
def hydra_python() -> str:
    return find_hydra_python()


@pytest.fixture
def fake(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = make_fake_verl(tmp_path / "fake")
    monkeypatch.setenv("PYTHONPATH", str(folder))
    return folder


def verl_findings(out: str) -> list[dict]:
    return [f for f in json.loads(out)["findings"] if f["id"].startswith("VERL-")]


def test_verl_refuses_with_its_own_words_and_release(tmp_path, fake, hydra_python):
    run = script(tmp_path, "data.train_batch_size=12 trainer.n_gpus_per_node=8")
    result = cli("check", str(run), "--verl", hydra_python, "--format", "json")
    assert result.returncode == 1, result.stderr
    doc = json.loads(result.stdout)
    found = verl_findings(result.stdout)
    assert [f["id"] for f in found] == ["VERL-002"]
    assert "planted: train_batch_size (12) must be divisible by 8 GPUs" in found[0]["message"]
    assert "0.0.0+fake" in found[0]["message"] and "validate_config" in found[0]["message"]
    assert doc["verl"]["stage"] == "validate_config" and doc["verl"]["version"] == "0.0.0+fake"
    assert doc["verl"]["overrides"] == ["data.train_batch_size=12", "trainer.n_gpus_per_node=8"]
    # the wizard's own rules ran beside it: its BATCH-001 says the same thing in its own words
    assert "BATCH-001" in [f["id"] for f in doc["findings"]]


def test_verl_accepts_the_neighbour(tmp_path, fake, hydra_python):
    run = script(tmp_path, "data.train_batch_size=16 trainer.n_gpus_per_node=8")
    result = cli("check", str(run), "--verl", hydra_python, "--format", "json")
    doc = json.loads(result.stdout)
    assert verl_findings(result.stdout) == []
    assert doc["verl"]["stage"] is None
    assert doc["verl"]["checks"] == ["compose", "auto_set_device", "validate_config", "resolve"]
    assert any("0.0.0+fake" in note and "accepts" in note for note in doc["notes"])


def test_a_key_that_verl_lacks_quotes_hydra(tmp_path, fake, hydra_python):
    run = script(tmp_path, "data.train_batch_size=16 trainer.no_such_key=1")
    result = cli("check", str(run), "--verl", hydra_python, "--format", "json")
    found = verl_findings(result.stdout)
    assert [f["id"] for f in found] == ["VERL-001"]
    assert "Could not override 'trainer.no_such_key'" in found[0]["message"]
    assert result.returncode == 1


def test_an_unknown_value_is_left_out_and_named(tmp_path, fake, hydra_python):
    run = script(tmp_path, "data.train_batch_size=16 trainer.nnodes=$NODES")
    doc = json.loads(cli("check", str(run), "--verl", hydra_python, "--format", "json").stdout)
    partial = [f for f in doc["findings"] if f["id"] == "VERL-004"]
    assert len(partial) == 1 and "trainer.nnodes=$NODES" in partial[0]["message"]
    assert doc["verl"]["left_out"] == ["trainer.nnodes=$NODES"]
    # given with --env, it is passed on and nothing is left out
    given = json.loads(cli("check", str(run), "--verl", hydra_python, "--env", "NODES=2", "--format", "json").stdout)
    assert given["verl"]["left_out"] == [] and "trainer.nnodes=2" in given["verl"]["overrides"]
    assert [f["id"] for f in given["findings"] if f["id"].startswith("VERL")] == []


def test_the_scripts_own_config_folder_is_composed(tmp_path, fake, hydra_python):
    conf = tmp_path / "conf"
    conf.mkdir()
    (conf / "mine.yaml").write_text(
        "hydra:\n  searchpath: [pkg://verl.trainer.config]\ndefaults: [ppo_trainer, _self_]\ndata:\n  train_batch_size: 12\n",
        encoding="utf-8",
    )
    run = script(tmp_path, f"--config-path={conf} --config-name=mine trainer.n_gpus_per_node=8")
    doc = json.loads(cli("check", str(run), "--verl", hydra_python, "--format", "json").stdout)
    assert doc["verl"]["config_dir"] == str(conf) and doc["verl"]["config_name"] == "mine"
    assert [f["id"] for f in verl_findings(json.dumps(doc))] == ["VERL-002"]
    missing = script(tmp_path, "--config-path=/nowhere/conf --config-name=mine", name="gone.sh")
    gone = json.loads(cli("check", str(missing), "--verl", hydra_python, "--format", "json").stdout)
    assert [(f["id"], f["severity"]) for f in verl_findings(json.dumps(gone))] == [("VERL-004", "warning")]


def test_a_config_file_composes_from_its_folder(tmp_path, fake, hydra_python):
    folder = tmp_path / "out"
    folder.mkdir()
    (folder / "config.yaml").write_text(
        "hydra:\n  searchpath: [pkg://verl.trainer.config]\ndefaults: [ppo_trainer, _self_]\n"
        "data:\n  train_batch_size: 20\ntrainer:\n  n_gpus_per_node: 8\n",
        encoding="utf-8",
    )
    result = cli("check", str(folder / "config.yaml"), "--verl", hydra_python, "--format", "json")
    found = verl_findings(result.stdout)
    assert [f["id"] for f in found] == ["VERL-002"] and "(20) must be divisible by 8" in found[0]["message"]


def test_a_checkout_is_named_by_its_git_describe(tmp_path, monkeypatch, hydra_python):
    repo = tmp_path / "verl-fork"
    make_fake_verl(repo, version="0.5.0.dev")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git[:3], "init", "-q"], check=True)
    subprocess.run([*git, "add", "."], check=True)
    subprocess.run([*git, "commit", "-qm", "fork"], check=True)
    subprocess.run([*git, "tag", "v0.5.0-fork"], check=True)
    monkeypatch.setenv("PYTHONPATH", str(repo))
    run = script(tmp_path, "data.train_batch_size=12 trainer.n_gpus_per_node=8")
    result = cli("check", str(run), "--verl", hydra_python)
    line = next(line for line in result.stdout.splitlines() if "VERL-002" in line)
    assert f"verl 0.5.0.dev at {repo / 'verl'} (git v0.5.0-fork)" in line
    assert "planted: train_batch_size (12)" in line


def test_new_takes_verl_and_writes_nothing_when_verl_refuses(tmp_path, monkeypatch, fake, hydra_python):
    args = ("new", "--preset", "workshop-grpo-0.5b-1gpu", "--verl", hydra_python, "--format", "json")
    ok = cli(*args, "--out", str(tmp_path / "ok"))
    doc = json.loads(ok.stdout)
    assert ok.returncode == 0, ok.stdout
    assert doc["verl"]["stage"] is None and "config.yaml" in doc["written"]
    assert not [f for f in doc["findings"] if f["severity"] == "error"]
    # a verl with a rule the wizard does not have: the same answers are refused by verl alone, and nothing is written
    monkeypatch.setenv("PYTHONPATH", str(make_fake_verl(tmp_path / "strict", strict=1000)))
    refused = tmp_path / "refused"
    bad = cli(*args, "--out", str(refused))
    found = verl_findings(bad.stdout)
    assert bad.returncode == 1 and json.loads(bad.stdout)["written"] == []
    assert [f["id"] for f in json.loads(bad.stdout)["findings"] if f["severity"] == "error"] == ["VERL-002"]
    assert "must be divisible by 1000 GPUs" in found[0]["message"]
    assert not (refused / "config.yaml").exists()


def test_new_from_script_takes_verl_and_its_findings_join(tmp_path, monkeypatch, fake, hydra_python):
    old = script(tmp_path, "data.train_batch_size=32 actor_rollout_ref.rollout.n=4", name="old.sh")
    args = ("new", "--preset", "workshop-grpo-0.5b-1gpu", "--from-script", str(old), "--verl", hydra_python)
    ok = json.loads(cli(*args, "--out", str(tmp_path / "ok"), "--format", "json").stdout)
    assert ok["verl"]["stage"] is None and "config.yaml" in ok["written"]
    monkeypatch.setenv("PYTHONPATH", str(make_fake_verl(tmp_path / "strict", strict=1000)))
    bad = json.loads(cli(*args, "--out", str(tmp_path / "bad"), "--format", "json").stdout)
    assert (
        bad["written"] == [] and "(32) must be divisible by 1000 GPUs" in verl_findings(json.dumps(bad))[0]["message"]
    )


def test_an_answers_file_is_asked_as_the_config_new_writes(tmp_path, monkeypatch, fake, hydra_python):
    out = tmp_path / "out"
    assert cli("new", "--preset", "workshop-grpo-0.5b-1gpu", "--out", str(out)).returncode == 0
    args = ("check", str(out / "answers.yaml"), "--mode", "cluster", "--verl", hydra_python, "--format", "json")
    doc = json.loads(cli(*args).stdout)
    assert doc["source"] == "answers file" and doc["verl"]["config_name"] == "config"
    assert doc["verl"]["stage"] is None and verl_findings(json.dumps(doc)) == []
    monkeypatch.setenv("PYTHONPATH", str(make_fake_verl(tmp_path / "strict", strict=1000)))
    refused = json.loads(cli(*args).stdout)
    assert [f["id"] for f in verl_findings(json.dumps(refused))] == ["VERL-002"]


def test_a_python_without_verl_is_one_line_exit_2(tmp_path, monkeypatch):
    monkeypatch.delenv("PYTHONPATH", raising=False)
    run = script(tmp_path, "data.train_batch_size=16")
    result = cli("check", str(run), "--verl", sys.executable)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and "verl is not installed for this interpreter" in result.stderr


@pytest.mark.parametrize("given", ["/no/such/python", "no-such-python-here", ""])
def test_a_python_that_is_not_there_is_one_line_exit_2(tmp_path, given):
    result = cli("check", str(script(tmp_path, "data.train_batch_size=16")), "--verl", given)
    assert result.returncode == 2 and result.stderr.count("\n") == 1 and "--verl" in result.stderr


def test_a_verl_that_hangs_is_stopped_at_the_deadline(tmp_path, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", str(make_fake_verl(tmp_path / "hang", hang=True)))
    run = script(tmp_path, "data.train_batch_size=16")
    started = time.monotonic()
    result = cli("check", str(run), "--verl", sys.executable, "--timeout", "2", "--format", "json")
    assert time.monotonic() - started < 15
    found = verl_findings(result.stdout)
    assert [(f["id"], f["severity"]) for f in found] == [("VERL-003", "error")]
    assert "within 2 s" in found[0]["message"] and result.returncode == 1


def test_an_unusable_input_stops_the_started_verl_at_once(tmp_path, monkeypatch):
    """verl starts before the input is read; a bad input is still exit 2 at once, and the child does not linger."""
    monkeypatch.setenv("PYTHONPATH", str(make_fake_verl(tmp_path / "hang", hang=True)))
    started = time.monotonic()
    result = cli("check", str(tmp_path / "missing.sh"), "--verl", sys.executable, "--timeout", "60")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert time.monotonic() - started < 10
    alive = subprocess.run(["pgrep", "-f", "VERL_WIZARD_VERL"], capture_output=True, text=True, check=False)
    # the child's command line holds the script's mark: none of those is still a child of this process
    assert not [pid for pid in alive.stdout.split() if _parent(pid) == os.getpid()]


def _parent(pid: str) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError, IndexError):
        return None


def test_auto_finds_the_venv_with_verl_and_refuses_when_none_has_it(tmp_path, monkeypatch, fake, hydra_python):
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").symlink_to(hydra_python)
    monkeypatch.setenv("VIRTUAL_ENV", str(venv))
    run = script(tmp_path, "data.train_batch_size=16")
    doc = json.loads(cli("check", str(run), "--verl", "auto", "--format", "json").stdout)
    assert doc["verl"]["python"] == str(venv / "bin" / "python") and doc["verl"]["version"] == "0.0.0+fake"
    monkeypatch.delenv("PYTHONPATH")
    bare = tmp_path / "bare"
    bare.mkdir()
    (bare / "python3").symlink_to(sys.executable)
    monkeypatch.delenv("VIRTUAL_ENV")
    monkeypatch.setenv("PATH", str(bare))
    result = cli("check", str(run), "--verl", "auto")
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert "--verl auto: no interpreter with verl found" in result.stderr and str(bare / "python3") in result.stderr


def test_without_verl_flag_no_child_and_no_verl_key(tmp_path):
    doc = json.loads(cli("check", str(script(tmp_path, "data.train_batch_size=16")), "--format", "json").stdout)
    assert "verl" not in doc and not [f for f in doc["findings"] if f["id"].startswith("VERL")]


def test_the_subprocess_cli_prints_json(tmp_path, fake, hydra_python):
    """The installed console script, as a user runs it: a fresh process whose JSON parses."""
    run = script(tmp_path, "data.train_batch_size=12 trainer.n_gpus_per_node=8")
    exe = Path(sys.executable).with_name("verl-wizard")
    done = cli_subprocess(
        "check", str(run), "--verl", hydra_python, "--format", "json", program=[str(exe)], env=os.environ, timeout=120
    )
    assert done.returncode == 1, done.stderr
    assert [f["id"] for f in verl_findings(done.stdout)] == ["VERL-002"]
