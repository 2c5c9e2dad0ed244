"""Corpus cases over launch scripts, manifests and a live cluster (see tests/test_i18n_corpus.py).

Scripts are read by the real launch-script reader, manifests are rendered by the wizard, edited the way a
user would, written to disk and read back, and `preflight`'s probe runs with its network calls replaced
(the messages are the probe's own; only the answers of the socket and the child process are made up).
"""

from __future__ import annotations

import os
import socket
from pathlib import Path
from unittest import mock

import yaml

from tests.conftest import BASE
from tests.detect.test_manifest_scripts import HAND_WRITTEN
from tests.detect.test_manifests_read import token_in_pods_only
from tests.emit.manifests_kit import render
from wizard.core.layers import build
from wizard.core.rules import context_for, evaluate
from wizard.detect.config.files import read_launch_script
from wizard.detect.deploy import ray as ray_probe
from wizard.detect.deploy.manifests import read_if_manifest
from wizard.emit.manifests import FILES


def script_case(lines: list[str], flags: str = ""):
    """Findings for a script running main_ppo with `lines` as overrides on top of a good base."""
    body = " \\\n".join([f"python3 -m verl.trainer.main_ppo{flags}", *lines]) + "\n"
    return script_text_case("#!/bin/bash\nset -x\n" + body)


VERL_EPOCHS = "python3 -m verl.trainer.main_ppo trainer.total_epochs=1"


def script_text_case(body: str):
    def run(tmp: Path):
        source = read_launch_script(Path("run.sh"), body)
        layered = build([("base", BASE), ("launch script", source.flat)])
        return evaluate(context_for(layered.answers, layered.flat, mode="cluster", script=source.script))

    return run


def check_file(path: Path):
    """Findings for a file read the way `verl-wizard check --mode cluster` reads a manifest."""
    source = read_if_manifest(path)
    assert source is not None, f"{path} was not read as a manifest"
    layered = build([(source.kind, source.flat)])
    return evaluate(
        context_for(layered.answers, layered.flat, mode="cluster", script=source.script, deploy=source.deploy)
    )


def manifest_case(target: str, change, preset: str = "grpo-7b-2x8", **values):
    """Render a preset for target, apply change(docs) to its YAML documents, read it back."""

    def run(tmp: Path):
        files, findings = render(preset, target, **values)
        assert files, [f.message for f in findings]
        for name, text in files.items():
            (tmp / name).write_text(text)
        path = tmp / FILES[target]
        docs = list(yaml.safe_load_all(path.read_text()))
        change(docs)
        path.write_text(yaml.safe_dump_all(docs, sort_keys=False))
        return check_file(path)

    return run


def text_manifest_case(name: str, text: str):
    def run(tmp: Path):
        path = tmp / name
        path.write_text(text)
        return check_file(path)

    return run


def rendered_case(preset: str, target: str, name: str, edits: list[tuple[str, str]], **values):
    """Render a preset for target, replace text in the file `name` (each edit must apply), read it back."""

    def run(tmp: Path):
        files, findings = render(preset, target, **values)
        assert files, [f.message for f in findings]
        for file, text in files.items():
            (tmp / file).write_text(text)
        text = files[name]
        for old, new in edits:
            assert old in text, f"{old!r} is not in {name}"
            text = text.replace(old, new)
        (tmp / name).write_text(text)
        return check_file(tmp / name)

    return run


def _worker(docs):
    return docs[0]["spec"]["rayClusterSpec"]["workerGroupSpecs"][0]


def _worker_env(docs, *env):
    _worker(docs)["template"]["spec"]["containers"][0].setdefault("env", []).extend(env)


def _worker_gpus(docs, n):
    for kind in ("limits", "requests"):
        _worker(docs)["template"]["spec"]["containers"][0]["resources"][kind]["nvidia.com/gpu"] = str(n)


def _submitter_without_token(docs):
    token_in_pods_only(docs)
    docs[0]["spec"]["submitterPodTemplate"] = {
        "spec": {
            "restartPolicy": "Never",
            "containers": [
                {
                    "name": "submitter",
                    "image": "verlai/verl:vllm024.dev2",
                    "env": [{"name": "RAY_AUTH_MODE", "value": "token"}],
                }
            ],
        }
    }


def _drop_shm(docs):
    pod = docs[0]["spec"]["template"]["spec"]
    pod["volumes"] = [v for v in pod["volumes"] if v["name"] != "dshm"]
    pod["containers"][0]["volumeMounts"] = [m for m in pod["containers"][0]["volumeMounts"] if m["name"] != "dshm"]


def preflight_case(refused=None, probe=None, local="10.0.0.9:6379", address="10.0.0.9:6379"):
    """`preflight`'s findings when the cluster cannot be reached: the real probe, with the TCP connection failing with
    `refused` (an exception) or accepted, and the answer of its child process made up."""

    def run(tmp: Path):
        from wizard.commands.preflight import _unreachable

        with (
            mock.patch.object(
                ray_probe.socket, "create_connection", side_effect=refused or (lambda *a, **k: mock.MagicMock())
            ),
            mock.patch.object(ray_probe, "_run_probe", return_value=probe),
            mock.patch.object(ray_probe, "local_cluster_address", return_value=local),
        ):
            result = ray_probe.probe(address, timeout=5)
        assert not result.ok
        return _unreachable(result)

    return run


def cluster_case(nodes: list[tuple[float, float]], env: dict | None = None, **config):
    """`preflight --config`'s findings for a live cluster of (GPUs, CPUs) nodes and this shell's variables."""

    def run(tmp: Path):
        from wizard.commands.preflight import _compare

        result = ray_probe.ProbeResult(
            "10.0.0.9:6379",
            True,
            ray_version="2.60.0",
            nodes=[ray_probe.RayNode(f"10.0.0.{i}", g, c, i == 0) for i, (g, c) in enumerate(nodes)],
        )
        with mock.patch.dict(os.environ, env or {}, clear=False):
            return _compare(build([("config", {**BASE, **config})]), result)

    return run


WORKER_SRUN = 'srun --nodes=1 --ntasks=1 --nodelist="$node" --export=ALL'
SLURM_NO_HEAD = HAND_WRITTEN.replace(" ray start --head", " echo start --head")

SCRIPT_CASES = [
    (
        "comment after backslash",
        "SCRIPT-001",
        script_text_case(
            "python3 -m verl.trainer.main_ppo \\\n  trainer.total_epochs=3 \\ # three epochs\n  trainer.save_freq=10 \\\n  trainer.test_freq=5\n"
        ),
    ),
    (
        "space after backslash",
        "SCRIPT-001",
        script_text_case("python3 -m verl.trainer.main_ppo \\\n  trainer.total_epochs=3 \\ \n  trainer.save_freq=10\n"),
    ),
    (
        "crlf after backslash",
        "SCRIPT-001",
        script_text_case("python3 -m verl.trainer.main_ppo \\\r\n  trainer.total_epochs=3\r\n"),
    ),
    (
        "comment swallows backslash",
        "SCRIPT-001",
        script_text_case(
            "python3 -m verl.trainer.main_ppo \\\n  trainer.total_epochs=3 # three \\\n  trainer.save_freq=10\n"
        ),
    ),
    (
        "comment line inside",
        "SCRIPT-001",
        script_text_case(
            "python3 -m verl.trainer.main_ppo \\\n  trainer.total_epochs=3 \\\n# the rest\n  trainer.save_freq=10 \\\n  trainer.test_freq=5 \\\n"
            "  trainer.val_before_train=false \\\n  trainer.logger=console \\\n  trainer.project_name=p \\\n  trainer.experiment_name=e\n"
        ),
    ),
    (
        "blank line inside",
        "SCRIPT-001",
        script_text_case(
            "python3 -m verl.trainer.main_ppo \\\n  trainer.total_epochs=3 \\\n\n  trainer.save_freq=10\n"
        ),
    ),
    (
        "missing backslash",
        "SCRIPT-002",
        script_text_case(
            "python3 -m verl.trainer.main_ppo \\\n  trainer.total_epochs=3\n  trainer.save_freq=10 \\\n  trainer.test_freq=5\n"
        ),
    ),
    ("empty value", "SCRIPT-003", script_case(["trainer.default_local_dir="])),
    ("same key twice", "SCRIPT-004", script_case(["trainer.save_freq=10", "trainer.save_freq=20"])),
    ("plus on a verl key", "SCRIPT-005", script_case(["+trainer.val_before_train=False"])),
    (
        "open mapping without plus",
        "SCRIPT-006",
        script_case(["actor_rollout_ref.rollout.engine_kwargs.vllm.swap_space=8"]),
    ),
    ("fork key without plus", "SCRIPT-006", script_case(["algorithm.curriculum.enable=True"])),
    ("plus under a config class", "SCRIPT-007", script_case(["+actor_rollout_ref.actor.my_flag=1"])),
    ("plus under a plain section", "SCRIPT-008", script_case(["+trainer.my_flag=1"])),
    (
        "own primary config",
        "SCRIPT-009",
        script_case(
            [
                "retriever.url=http://127.0.0.1:8000",
                "retriever.topk=3",
                "agent.max_turns=4",
                "agent.a=1",
                "agent.b=2",
                "agent.c=3",
            ],
            flags=" --config-path=./config --config-name=search_grpo",
        ),
    ),
    (
        "own primary config, verl keys only",
        "SCRIPT-009",
        script_case(["trainer.total_epochs=1"], flags=" --config-name=my_run"),
    ),
    ("not an override", "SCRIPT-010", script_case(["trainer.total_epochs=1", "VERBOSE"])),
    ("quote never closed", "SCRIPT-011", script_case(["trainer.project_name='math rl"])),
    ("config-group option verl lacks", "SCRIPT-013", script_case(["model_engine=megatorn", "trainer.total_epochs=1"])),
    (
        "overrides after the pipe to tee",
        "SCRIPT-014",
        script_case(["trainer.total_epochs=1 2>&1 | tee train.log", "trainer.resume_mode=disable"]),
    ),
    ("double quote never closed", "SCRIPT-011", script_case(['trainer.project_name="math rl'])),
    ("bash refuses a stray parenthesis", "SCRIPT-015", script_text_case(f"{VERL_EPOCHS}\necho a )\n")),
    ("bash ends inside $(", "SCRIPT-015", script_text_case(f"STAMP=$(date\n{VERL_EPOCHS}\n")),
    ("bash ends inside an if", "SCRIPT-015", script_text_case(f"{VERL_EPOCHS}\nif true; then\n  echo\n")),
    (
        "second verl command",
        "SCRIPT-012",
        script_text_case(
            "python3 -m verl.trainer.main_ppo trainer.total_epochs=1\npython3 -m verl.trainer.main_ppo trainer.total_epochs=2\n"
        ),
    ),
    ("script key moved", "KEY-001", script_case(["ray_init.num_cpus=64"])),
    ("placeholder left in the script", "SCRIPT-016", script_case(["trainer.nnodes=TO_BE_FILLED"])),
    (
        "relative config path",
        "SCRIPT-018",
        script_case(["trainer.total_epochs=1"], flags=" --config-path=my_configs --config-name=ppo_trainer"),
    ),
    ("+ adds a key an older verl had", "KEY-003", script_case(["+trainer.profile_steps=[1,2]"])),
] + [
    (f"hydra rejects {what}", "SCRIPT-010", script_case([f"'trainer.rollout_data_dir={value}'"]))
    for what, value in [
        ("a sweep", "console,wandb"),
        ("an open bracket", "[console"),
        ("a stray token", "[a]]"),
        ("a bad cast", "bool(maybe)"),
        ("a sweep function", "range(1,3)"),
        ("an unknown function", "twice(3)"),
        ("a two-value cast", "int(1,2)"),
        ("an empty cast", "int()"),
        ("a null string", "str(null)"),
        ("a failed cast", "int(abc)"),
        ("a keyword then a value", "int(value=1,2)"),
        ("an odd character", 'a"b'),
        ("a missing colon", "{a}"),
        ("a missing paren", "int(3"),
        ("an odd argument", "int(x=1)"),
        ("a missing comma", "int(1=2)"),
        ("deep nesting", "[" * 201 + "]" * 201),
        ("a huge value", "x" * 100_001),
    ]
]

MANIFEST_CASES = [
    (
        "manifest more replicas",
        "DEPLOY-004",
        manifest_case("kuberay-job", lambda d: _worker(d).update(replicas=3, minReplicas=3, maxReplicas=3)),
    ),
    (
        "manifest split pools",
        "DEPLOY-004",
        manifest_case(
            "kuberay-job",
            lambda d: _worker(d).update(replicas=3, minReplicas=3, maxReplicas=3),
            **{
                "reward.reward_model.enable": True,
                "reward.reward_model.model_path": "/rm",
                "reward.reward_model.rollout.name": "vllm",
                "reward.reward_model.enable_resource_pool": True,
                "reward.reward_model.nnodes": 1,
                "reward.reward_model.n_gpus_per_node": 8,
            },
        ),
    ),
    ("manifest fewer gpus", "DEPLOY-004", manifest_case("kuberay-job", lambda d: _worker_gpus(d, 4))),
    (
        "manifest visible devices",
        "DEPLOY-001",
        manifest_case("kuberay-job", lambda d: _worker_env(d, {"name": "CUDA_VISIBLE_DEVICES", "value": "0"})),
    ),
    (
        "manifest inline key",
        "DEPLOY-006",
        manifest_case("kuberay-job", lambda d: _worker_env(d, {"name": "HF_TOKEN", "value": "hf_x"})),
    ),
    (
        "manifest secret with data",
        "DEPLOY-006",
        manifest_case(
            "kuberay-job",
            lambda d: d.append(
                {
                    "apiVersion": "v1",
                    "kind": "Secret",
                    "metadata": {"name": "verl-secrets"},
                    "stringData": {"WANDB_API_KEY": "abc"},
                }
            ),
        ),
    ),
    (
        "manifest auth mismatch",
        "DEPLOY-012",
        manifest_case("kuberay-job", lambda d: _worker_env(d, {"name": "RAY_AUTH_MODE", "value": "disabled"})),
    ),
    ("manifest submitter without token", "DEPLOY-012", manifest_case("kuberay-job", token_in_pods_only)),
    (
        "manifest chained entrypoint",
        "DEPLOY-010",
        manifest_case(
            "kuberay-job", lambda d: d[0]["spec"].update(entrypoint=d[0]["spec"]["entrypoint"] + " && echo done")
        ),
    ),
    (
        "manifest bad name",
        "DEPLOY-007",
        manifest_case("kuberay-job", lambda d: d[0]["metadata"].update(name="Qwen_Run")),
    ),
    (
        "manifest http address",
        "DEPLOY-002",
        manifest_case("kuberay-job", lambda d: _worker_env(d, {"name": "RAY_ADDRESS", "value": "http://head:8265"})),
    ),
    ("manifest no shm", "DEPLOY-011", manifest_case("k8s-job", _drop_shm, preset="workshop-0.5b-1gpu")),
    (
        "manifest bad image",
        "DEPLOY-014",
        manifest_case(
            "kuberay-job",
            lambda d: _worker(d)["template"]["spec"]["containers"][0].update(image="Registry/My Image:latest"),
        ),
    ),
    ("slurm one-element array", "DEPLOY-004", text_manifest_case("ray_on_slurm.sbatch", HAND_WRITTEN)),
    ("slurm without a head", "DEPLOY-004", text_manifest_case("ray_on_slurm.sbatch", SLURM_NO_HEAD)),
    (
        "slurm token written out",
        "DEPLOY-006",
        text_manifest_case(
            "ray_on_slurm.sbatch",
            HAND_WRITTEN.replace(
                "port=6379\n", "port=6379\nexport RAY_AUTH_MODE=token\nexport RAY_AUTH_TOKEN=abc123\n"
            ),
        ),
    ),
    (
        "ray-job gcs address",
        "DEPLOY-002",
        rendered_case(
            "grpo-8b-1x8",
            "ray-job",
            "ray-job.sh",
            [
                ("DEFAULT_ADDRESS=http://127.0.0.1:8265", "DEFAULT_ADDRESS=10.0.0.1:6379"),
                ('"NCCL_DEBUG": "INFO"', '"CUDA_VISIBLE_DEVICES": "0"'),
            ],
            **{"deploy.env": ["NCCL_DEBUG=INFO"]},
        ),
    ),
    (
        "sbatch visible devices",
        "DEPLOY-001",
        rendered_case(
            "grpo-7b-2x8",
            "slurm",
            "job.sbatch",
            [("export PYTHONUNBUFFERED=1", "export PYTHONUNBUFFERED=1\nexport CUDA_VISIBLE_DEVICES=0,1,2,3")],
        ),
    ),
    (
        "sbatch worker token written out",
        "DEPLOY-012",
        rendered_case(
            "grpo-7b-2x8",
            "slurm",
            "job.sbatch",
            [(WORKER_SRUN, "RAY_AUTH_TOKEN=abc123 " + WORKER_SRUN)],
            **{"deploy.auth_mode": "token"},
        ),
    ),
    (
        "sbatch workers without the token",
        "DEPLOY-012",
        rendered_case(
            "grpo-7b-2x8",
            "slurm",
            "job.sbatch",
            [(WORKER_SRUN, "RAY_AUTH_MODE=token " + WORKER_SRUN.replace("--export=ALL", "--export=NONE"))],
            **{"deploy.auth_mode": "token"},
        ),
    ),
    (
        "manifest submitter with a mode and no token",
        "DEPLOY-012",
        manifest_case("kuberay-job", _submitter_without_token),
    ),
    (
        "raycluster visible devices",
        "DEPLOY-001",
        manifest_case(
            "kuberay-cluster",
            lambda d: (
                d[0]["spec"]["headGroupSpec"]["template"]["spec"]["containers"][0]
                .setdefault("env", [])
                .append({"name": "CUDA_VISIBLE_DEVICES", "value": "0"})
            ),
        ),
    ),
    (
        "manifest token written in a worker",
        "DEPLOY-012",
        manifest_case(
            "kuberay-job",
            lambda d: _worker_env(d, {"name": "RAY_AUTH_TOKEN", "value": "abc123"}),
            **{"deploy.auth_mode": "token"},
        ),
    ),
    (
        "manifest token file beside a named secret",
        "DEPLOY-012",
        manifest_case(
            "kuberay-job",
            lambda d: _worker_env(d, {"name": "RAY_AUTH_TOKEN_PATH", "value": "/etc/ray/token"}),
            **{"deploy.auth_mode": "token", "deploy.auth_secret": "ray-token"},
        ),
    ),
    (
        "manifest token file in a worker",
        "DEPLOY-012",
        manifest_case(
            "kuberay-job",
            lambda d: _worker_env(d, {"name": "RAY_AUTH_TOKEN_PATH", "value": "/etc/ray/token"}),
            **{"deploy.auth_mode": "token"},
        ),
    ),
]

PREFLIGHT_CASES = [
    ("preflight nothing answers", "DEPLOY-013", preflight_case(refused=ConnectionRefusedError())),
    ("preflight unknown host", "DEPLOY-013", preflight_case(refused=socket.gaierror(), address="no-such-head:6379")),
    ("preflight silent host", "DEPLOY-013", preflight_case(refused=TimeoutError())),
    ("preflight network down", "DEPLOY-013", preflight_case(refused=OSError(101, "Network is unreachable"))),
    ("preflight no local cluster", "DEPLOY-013", preflight_case(local=None, address="auto")),
    ("preflight no gcs", "DEPLOY-013", preflight_case(probe=(None, "Traceback\nTimeoutError: no answer"))),
    ("preflight no gcs, silent", "DEPLOY-013", preflight_case(probe=(None, ""))),
    (
        "preflight no ray",
        "DEPLOY-013",
        preflight_case(
            probe=({"ok": False, "kind": "no-ray", "error": "ModuleNotFoundError: No module named 'ray'"}, "")
        ),
    ),
    (
        "preflight error",
        "DEPLOY-013",
        preflight_case(probe=({"ok": False, "kind": "error", "error": "RpcError: GCS is down"}, "")),
    ),
    (
        "preflight auth off here",
        "DEPLOY-012",
        preflight_case(probe=({"ok": False, "kind": "auth", "auth_mode": None}, "")),
    ),
    (
        "preflight wrong token",
        "DEPLOY-012",
        preflight_case(probe=({"ok": False, "kind": "auth", "auth_mode": "token"}, "")),
    ),
    ("preflight jobs api", "DEPLOY-002", preflight_case(address="http://10.0.0.9:8265")),
    ("preflight ray client", "DEPLOY-002", preflight_case(address="ray://10.0.0.9:10001")),
    ("preflight not host:port", "DEPLOY-002", preflight_case(address="head node")),
    ("preflight small nodes", "DEPLOY-004", cluster_case([(4, 64), (4, 64)])),
    ("preflight few cpus", "DEPLOY-005", cluster_case([(8, 16)])),
    ("preflight no free cpu beside transfer queue", "DEPLOY-005", cluster_case([(8, 33)])),
    (
        "preflight shell variables",
        "DEPLOY-001",
        cluster_case([(8, 64)], {"CUDA_VISIBLE_DEVICES": "0,1", "RAY_ADDRESS": "http://10.0.0.9:8265"}),
    ),
]


def wandb_case(run_tmp):
    """BASE logging to wandb in a TUI whose environment facts say WANDB_API_KEY is not set."""
    layered = build([("test", {**BASE, "trainer.logger": ["console", "wandb"]})])
    return evaluate(context_for(layered.answers, layered.flat, mode="cluster", env=frozenset()))


ENV_CASES = [("wandb without its key", "DEPLOY-016", wandb_case)]

DEPLOY_CASES = SCRIPT_CASES + MANIFEST_CASES + PREFLIGHT_CASES + ENV_CASES
