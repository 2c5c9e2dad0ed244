"""run.sh is valid bash, quotes every user value, and runs exactly one python command."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.cli.helpers import cli

NASTY = "exp $(touch /tmp/pwned-{tag}) `touch /tmp/pwned2-{tag}` 'q\" ; rm -rf ~\nnext"


@pytest.fixture
def stub_python(tmp_path):
    """python3 that writes its argv to $ARGV_OUT, and nproc that says $NPROC (64 unless a test sets it)."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    stub = bin_dir / "python3"
    stub.write_text('#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done > "$ARGV_OUT"\n')
    stub.chmod(0o755)
    nproc = bin_dir / "nproc"
    nproc.write_text('#!/bin/sh\necho "${NPROC:-64}"\n')
    nproc.chmod(0o755)
    return bin_dir


def run_sh(script: Path, stub_dir: Path, argv_out: Path, *args: str, **env_vars: str):
    """bash run.sh ARGS with the stubs first on PATH; (completed process, the argv python3 got or None)."""
    env = dict(os.environ, PATH=f"{stub_dir}:{os.environ['PATH']}", ARGV_OUT=str(argv_out))
    for name in ("CUDA_VISIBLE_DEVICES", "RAY_ADDRESS", "WANDB_API_KEY"):
        env.pop(name, None)
    env.update(env_vars)
    argv_out.unlink(missing_ok=True)
    proc = subprocess.run(["bash", str(script), *args], env=env, capture_output=True, text=True)
    return proc, (argv_out.read_text().splitlines() if argv_out.exists() else None)


def test_run_sh_is_valid_bash_and_runs_only_the_trainer(tmp_path, stub_python):
    tag = tmp_path.name
    out = tmp_path / "out dir"
    name = NASTY.format(tag=tag)
    assert (
        cli(
            "new",
            "--preset",
            "workshop-0.5b-1gpu",
            "--set",
            f"trainer.experiment_name={name!r}",
            "--set",
            f"actor_rollout_ref.model.path='/models/a b $(touch /tmp/pwned3-{tag})'",
            "--out",
            str(out),
        ).returncode
        == 0
    )
    script = out / "run.sh"
    assert subprocess.run(["bash", "-n", str(script)]).returncode == 0
    env = dict(os.environ, PATH=f"{stub_python}:{os.environ['PATH']}", ARGV_OUT=str(tmp_path / "argv"))
    env.pop("CUDA_VISIBLE_DEVICES", None)
    env.pop("RAY_ADDRESS", None)
    proc = subprocess.run(["bash", str(script), "trainer.total_epochs=1"], env=env, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    argv = (tmp_path / "argv").read_text().splitlines()
    assert argv == [
        "-m",
        "verl.trainer.main_ppo",
        f"--config-path={out}",
        "--config-name=config",
        "trainer.total_epochs=1",
    ]
    for marker in ("pwned", "pwned2", "pwned3"):
        assert not Path(f"/tmp/{marker}-{tag}").exists()


@pytest.fixture(scope="module")
def workshop_and_eight(tmp_path_factory):
    """run.sh of a 1-GPU config (the workshop preset) and of an 8-GPU one."""
    base = tmp_path_factory.mktemp("runs")
    assert cli("new", "--preset", "workshop-0.5b-1gpu", "--out", str(base / "one")).returncode == 0
    eight = ["--set", "trainer.logger=console"]
    assert cli("new", "--preset", "grpo-8b-1x8", *eight, "--out", str(base / "eight")).returncode == 0
    return base / "one" / "run.sh", base / "eight" / "run.sh"


ENTRY = ["-m", "verl.trainer.main_ppo"]


def test_a_one_gpu_mask_runs_a_one_gpu_config(tmp_path, stub_python, workshop_and_eight):
    one, _ = workshop_and_eight
    proc, argv = run_sh(one, stub_python, tmp_path / "argv", CUDA_VISIBLE_DEVICES="0")
    assert proc.returncode == 0, proc.stderr
    assert argv[:2] == ENTRY and argv[-1] == "--config-name=config"
    proc, argv = run_sh(one, stub_python, tmp_path / "argv", CUDA_VISIBLE_DEVICES="GPU-5f3c")
    assert proc.returncode == 0 and argv[:2] == ENTRY, "a UUID is one GPU too"


@pytest.mark.parametrize(
    "mask,args,shown",
    [("0,1", (), 2), ("", (), 0), ("0,1,2,3,4,5,6", (), 7), ("0,1", ("trainer.n_gpus_per_node=4",), 2)],
)
def test_a_mask_of_another_size_is_refused_with_its_count(tmp_path, stub_python, workshop_and_eight, mask, args, shown):
    _, eight = workshop_and_eight
    proc, argv = run_sh(eight, stub_python, tmp_path / "argv", *args, CUDA_VISIBLE_DEVICES=mask)
    need = 4 if args else 8
    assert proc.returncode == 2 and argv is None
    assert f"CUDA_VISIBLE_DEVICES={mask} shows {shown} GPU(s) but the run needs {need}" in proc.stderr


def test_a_mask_that_fits_the_gpus_or_an_override_is_taken(tmp_path, stub_python, workshop_and_eight):
    _, eight = workshop_and_eight
    proc, argv = run_sh(eight, stub_python, tmp_path / "argv", CUDA_VISIBLE_DEVICES="0,1,2,3,4,5,6,7")
    assert proc.returncode == 0 and argv[:2] == ENTRY, proc.stderr
    proc, argv = run_sh(eight, stub_python, tmp_path / "argv", "trainer.n_gpus_per_node=2", CUDA_VISIBLE_DEVICES="4, 5")
    assert proc.returncode == 0 and argv[-1] == "trainer.n_gpus_per_node=2", proc.stderr
    # A driver joining a running cluster does not hand its mask to Ray's workers: not checked there.
    proc, argv = run_sh(eight, stub_python, tmp_path / "argv", CUDA_VISIBLE_DEVICES="0", RAY_ADDRESS="10.0.0.1:6379")
    assert proc.returncode == 0 and argv[:2] == ENTRY, proc.stderr


def test_the_mask_count_is_the_one_bash_and_the_rule_agree_on(tmp_path, stub_python, workshop_and_eight):
    from wizard.core.rules.deploy.node import visible_count

    _, eight = workshop_and_eight
    for mask in ("0", "0,1", "0,,1", " 0 , 1 ,2", "", ",", "a,b,c,d,e,f,g,h"):
        proc, _ = run_sh(eight, stub_python, tmp_path / "argv", CUDA_VISIBLE_DEVICES=mask)
        bash_count = 8 if proc.returncode == 0 else int(proc.stderr.split(" shows ")[1].split(" ")[0])
        assert bash_count == visible_count(mask), mask


def test_a_machine_with_few_cpus_gives_verls_ray_what_it_holds(tmp_path, stub_python, workshop_and_eight):
    one, _ = workshop_and_eight
    # 1 GPU: 3 CPUs for verl's bundle, 8 TransferQueue storage units, their controller and one free CPU.
    proc, argv = run_sh(one, stub_python, tmp_path / "argv", "trainer.total_epochs=1", NPROC="2")
    assert proc.returncode == 0, proc.stderr
    assert argv[-2:] == ["ray_kwargs.ray_init.num_cpus=13", "trainer.total_epochs=1"]
    assert "run.sh: 2 CPUs here; starting verl's Ray with ray_kwargs.ray_init.num_cpus=13" in proc.stderr
    mine = run_sh(one, stub_python, tmp_path / "argv", "ray_kwargs.ray_init.num_cpus=20", NPROC="2")[1]
    assert mine[-2:] == ["ray_kwargs.ray_init.num_cpus=13", "ray_kwargs.ray_init.num_cpus=20"], "yours comes last"
    proc, argv = run_sh(one, stub_python, tmp_path / "argv", NPROC="13")
    assert not any("num_cpus" in a for a in argv) and proc.stderr == ""
    joined = run_sh(one, stub_python, tmp_path / "argv", NPROC="2", RAY_ADDRESS="10.0.0.1:6379")[1]
    assert not any("num_cpus" in a for a in joined), "ray.init refuses num_cpus when it joins a cluster"


def test_wandb_logger_requires_the_key_from_the_environment(tmp_path, stub_python):
    assert cli("new", "--preset", "grpo-8b-1x8", "--out", str(tmp_path / "o")).returncode == 0
    env = dict(os.environ, PATH=f"{stub_python}:{os.environ['PATH']}", ARGV_OUT=str(tmp_path / "argv"))
    env.pop("WANDB_API_KEY", None)
    env.pop("CUDA_VISIBLE_DEVICES", None)
    proc = subprocess.run(["bash", str(tmp_path / "o" / "run.sh")], env=env, capture_output=True, text=True)
    assert proc.returncode != 0 and "WANDB_API_KEY" in proc.stderr
    env["WANDB_API_KEY"] = "dummy"
    assert subprocess.run(["bash", str(tmp_path / "o" / "run.sh")], env=env).returncode == 0


def test_bash_is_available():
    assert shutil.which("bash")
