"""Hostile answers (spaces, quotes, $(...), backticks, newlines) run nothing extra and make valid names.

The scripts are executed with stub programs (srun, scontrol, ray, python3, hostname) that record what they
were asked to run; the YAML manifests are parsed back and must hold the values exactly.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
import yaml

from tests.cli.helpers import cli
from tests.emit.manifests_kit import DNS_1035, DNS_LABEL, docs_of, pod_templates

NASTY = "exp $(touch /tmp/pwned-{tag}) `touch /tmp/pwned2-{tag}` 'q\" ; rm -rf ~\nnext"
MODEL = "/models/a b $(touch /tmp/pwned3-{tag}) `touch /tmp/pwned4-{tag}`'\""
IMAGE = "reg.example/verl:1 $(touch /tmp/pwned5-{tag}) `touch /tmp/pwned6-{tag}` \"'"

STUBS = {
    "srun": '#!/bin/sh\necho "srun $* MODE=$RAY_AUTH_MODE TOKEN=$RAY_AUTH_TOKEN" >> "$STUB_LOG"\n'
    'while [ $# -gt 0 ]; do case "$1" in --*) shift ;; *) break ;; esac; done\nexec "$@"\n',
    "scontrol": '#!/bin/sh\nprintf "node-a\\nnode-b\\n"\n',
    "hostname": "#!/bin/sh\necho 10.1.2.3\n",
    "ray": '#!/bin/sh\necho "ray $*" >> "$STUB_LOG"\nfor a in "$@"; do printf "%s\\n" "$a"; done > "$ARGV_OUT.ray"\n',
    "python3": '#!/bin/sh\nif [ "$1" = "-" ]; then cat >/dev/null; echo "wait $2 $3" >> "$STUB_LOG"; exit 0; fi\n'
    'if [ "$1" = "-c" ]; then echo stubtoken0123456789; exit 0; fi\n'
    'for a in "$@"; do printf "%s\\n" "$a"; done > "$ARGV_OUT"\n',
}


def _hostile_new(tmp_path: Path, target: str, preset: str = "grpo-7b-2x8") -> tuple[Path, str]:
    """`new` with hostile experiment name, model path and image; returns (out folder, tag of the marker files)."""
    tag = tmp_path.name
    out = tmp_path / "out dir $(x)"
    args = [
        "new",
        "--preset",
        preset,
        "--target",
        target,
        "--out",
        str(out),
        "--set",
        f"trainer.experiment_name={NASTY.format(tag=tag)!r}",
        "--set",
        f"actor_rollout_ref.model.path={MODEL.format(tag=tag)!r}",
        "--set",
        f"deploy.image={IMAGE.format(tag=tag)!r}",
    ]
    proc = cli(*args)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    if target in ("kuberay-job", "kuberay-cluster", "k8s-job"):
        assert "DEPLOY-014" in proc.stdout, "a hostile image is written (quoted) but flagged"
    return out, tag


def _stub_env(tmp_path: Path, only: tuple[str, ...]) -> dict[str, str]:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    for name in only:
        (bin_dir / name).write_text(STUBS[name])
        (bin_dir / name).chmod(0o755)
    env = dict(
        os.environ,
        PATH=f"{bin_dir}:{os.environ['PATH']}",
        STUB_LOG=str(tmp_path / "log"),
        ARGV_OUT=str(tmp_path / "argv"),
    )
    for name in ("RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH", "RAY_API_SERVER_ADDRESS", "CUDA_VISIBLE_DEVICES"):
        env.pop(name, None)
    return env


def _log_with(path: Path, prefix: str, count: int, seconds: float = 10) -> list[str]:
    import time

    deadline = time.monotonic() + seconds
    while True:
        lines = path.read_text().splitlines()
        if sum(line.startswith(prefix) for line in lines) >= count or time.monotonic() > deadline:
            return lines
        time.sleep(0.1)


def _no_side_effects(tag: str) -> None:
    for marker in range(1, 7):
        name = f"/tmp/pwned{'' if marker == 1 else marker}-{tag}"
        assert not Path(name).exists(), name


def test_job_sbatch_runs_the_cluster_and_one_driver_and_nothing_else(tmp_path):
    import subprocess

    out, tag = _hostile_new(tmp_path, "slurm")
    script = out / "job.sbatch"
    env = _stub_env(tmp_path, ("srun", "scontrol", "hostname", "ray", "python3"))
    env.update(
        SLURM_JOB_NODELIST="node-[a-b]", SLURM_JOB_NUM_NODES="2", SLURM_SUBMIT_DIR=str(out), WANDB_API_KEY="dummy"
    )
    proc = subprocess.run(
        ["bash", str(script), "trainer.total_epochs=1"], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    argv = (tmp_path / "argv").read_text().splitlines()
    assert argv == [
        "-m",
        "verl.trainer.main_ppo",
        f"--config-path={out}",
        "--config-name=config",
        "trainer.total_epochs=1",
    ]
    log = _log_with(tmp_path / "log", "ray start", 2)  # the start steps run in the background: wait for both lines
    starts = sorted((line for line in log if line.startswith("ray start")), key=lambda line: "--head" not in line)
    assert len(starts) == 2 and "--head" in starts[0] and "--address=10.1.2.3:6379" in starts[1]
    # 8 GPUs x 4 CPUs = 32 per node, plus verl 0.9.1's TransferQueue: 8 units over 2 nodes (4), its controller and a
    # free CPU; no --num-gpus: Ray counts the GPUs the step has.
    assert all("--num-cpus=38" in s and "--num-gpus" not in s for s in starts)
    assert any(line.startswith("wait 10.1.2.3:6379 2") for line in log), "waits for both nodes by count"
    sruns = [line for line in log if line.startswith("srun")]
    assert {line.split("TOKEN=")[1] for line in sruns} == {"stubtoken0123456789"}, "one token reaches every step"
    assert all("MODE=token" in line for line in sruns)
    drivers = [line for line in sruns if "--overlap" in line]
    assert len(drivers) == 1 and "--nodelist=node-a" in drivers[0] and "verl.trainer.main_ppo" in drivers[0]
    _no_side_effects(tag)
    job_name = next(line for line in script.read_text().splitlines() if line.startswith("#SBATCH --job-name="))
    assert DNS_LABEL.match(job_name.split("=", 1)[1])


def test_job_sbatch_fails_clearly_when_nodes_do_not_join(tmp_path):
    import subprocess

    out, _ = _hostile_new(tmp_path, "slurm")
    env = _stub_env(tmp_path, ("srun", "scontrol", "hostname", "ray"))
    (tmp_path / "bin" / "python3").write_text(
        '#!/bin/sh\nif [ "$1" = "-" ]; then cat >/dev/null; exit 1; fi\necho tok\n'
    )
    (tmp_path / "bin" / "python3").chmod(0o755)
    env.update(
        SLURM_JOB_NODELIST="node-[a-b]", SLURM_JOB_NUM_NODES="2", SLURM_SUBMIT_DIR=str(out), WANDB_API_KEY="dummy"
    )
    proc = subprocess.run(["bash", str(out / "job.sbatch")], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "not every node joined the Ray cluster within 600s" in proc.stderr
    env["SLURM_JOB_NUM_NODES"] = "3"
    proc = subprocess.run(["bash", str(out / "job.sbatch")], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 1 and "the job has 3 nodes but config.yaml needs 2" in proc.stderr


def test_ray_job_sh_submits_one_plain_command(tmp_path):
    import subprocess

    out, tag = _hostile_new(tmp_path, "ray-job")
    env = _stub_env(tmp_path, ("ray",))
    env.update(WANDB_API_KEY="dummy-key", RAY_AUTH_TOKEN="t0ken")
    proc = subprocess.run(
        ["bash", str(out / "ray-job.sh"), "trainer.total_epochs=1"], env=env, capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0, proc.stderr
    argv = Path(str(tmp_path / "argv") + ".ray").read_text().splitlines()
    assert argv[:4] == ["job", "submit", "--address", "http://127.0.0.1:8265"]
    assert argv[4:6] == ["--working-dir", str(out)] and argv[6] == "--runtime-env-json"
    assert json.loads(argv[7]) == {"excludes": [".git", "__pycache__"], "env_vars": {"WANDB_API_KEY": "dummy-key"}}
    assert argv[8:] == [
        "--",
        "python3",
        "-m",
        "verl.trainer.main_ppo",
        "--config-dir=.",
        "--config-name=config",
        "trainer.total_epochs=1",
    ]
    assert "dummy-key" not in (out / "ray-job.sh").read_text()
    _no_side_effects(tag)


def test_ray_job_sh_refuses_without_a_token_or_with_a_gcs_address(tmp_path):
    import subprocess

    out, _ = _hostile_new(tmp_path, "ray-job")
    env = _stub_env(tmp_path, ("ray",))
    env.update(WANDB_API_KEY="k", HOME=str(tmp_path))
    proc = subprocess.run(["bash", str(out / "ray-job.sh")], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "token authentication" in proc.stderr and "ray get-auth-token" in proc.stderr
    env.update(RAY_AUTH_TOKEN="t", RAY_API_SERVER_ADDRESS="10.0.0.1:6379")
    proc = subprocess.run(["bash", str(out / "ray-job.sh")], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "not a Jobs API address" in proc.stderr
    assert not Path(str(tmp_path / "argv") + ".ray").exists()


@pytest.mark.parametrize(
    "target,file", [("kuberay-job", "rayjob.yaml"), ("kuberay-cluster", "raycluster.yaml"), ("k8s-job", "k8s-job.yaml")]
)
def test_yaml_manifests_hold_hostile_values_exactly_and_valid_names(tmp_path, target, file):
    preset = "workshop-0.5b-1gpu" if target == "k8s-job" else "grpo-7b-2x8"
    out, tag = _hostile_new(tmp_path, target, preset)
    docs = docs_of((out / file).read_text())
    main, config_map = docs[0], docs[-1]
    limit = {"RayJob": 47, "RayCluster": 53, "Job": 63}[main["kind"]]
    assert DNS_1035.match(main["metadata"]["name"]) and len(main["metadata"]["name"]) <= limit
    assert DNS_LABEL.match(config_map["metadata"]["name"])
    for _, tpl in pod_templates(main):
        assert tpl["spec"]["containers"][0]["image"] == IMAGE.format(tag=tag)
    assert config_map["data"]["config.yaml"] == (out / "config.yaml").read_text()
    config = yaml.safe_load(config_map["data"]["config.yaml"])
    assert config["trainer"]["experiment_name"].startswith(
        f"exp $(touch /tmp/pwned-{tag}) `touch /tmp/pwned2-{tag}` 'q\" ; rm"
    )
    assert config["actor_rollout_ref"]["model"]["path"] == MODEL.format(tag=tag)
    _no_side_effects(tag)
