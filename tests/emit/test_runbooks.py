"""RUN.md as a runbook, for every preset x target: its ```bash blocks parse (bash -n), and typed in order into
one shell in the run's folder, with recording stand-ins for pip, kubectl, Slurm, ray and verl's python3, they
do what RUN.md says: the secrets made from the shell's environment by reference before the launch, the launch
with the target's own file, the watch and stop commands on what the launch started. No real Ray, Slurm or
Kubernetes here (tests/conformance/test_runbooks.py runs the real pieces)."""

from __future__ import annotations

import re
import secrets
from pathlib import Path

import pytest

from tests.emit.runbook_kit import Block, blocks, calls, make_stubs, run_blocks, stub_env, syntax_errors
from tests.emit.test_run_md import CASES
from wizard.core.layers import build
from wizard.core.presets import load_preset
from wizard.core.rules import context_for, evaluate
from wizard.emit.artifacts import render_artifacts
from wizard.emit.writer import is_executable

CJK = re.compile(r"[\u4e00-\u9fff]")
MANIFEST = {"kuberay-job": "rayjob.yaml", "kuberay-cluster": "raycluster.yaml", "k8s-job": "k8s-job.yaml"}


def write_run(folder: Path, preset: str, target: str, lang: str = "en", **values) -> dict[str, str]:
    """The run's files, written as `new` writes them (scripts executable); RUN.md in `lang`."""
    layered = build([("preset", load_preset(preset).values), ("--set", {"deploy.target": target, **values})])
    ctx = context_for(layered.answers, layered.flat, mode="cluster")
    findings = evaluate(ctx)
    assert not [f for f in findings if f.severity.value == "error"], [f.id for f in findings]
    files = render_artifacts(layered, ctx.plan, findings, lang=lang)
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text)
        if is_executable(name):
            (folder / name).chmod(0o755)
    return files


def follow(tmp_path: Path, preset: str, target: str, lang: str = "en", env_extra=None, **values):
    """Write the run, type RUN.md's blocks with the stand-ins; (files, block runs, calls, env)."""
    folder = tmp_path / "run"
    files = write_run(folder, preset, target, lang, **values)
    env = stub_env(tmp_path, make_stubs(tmp_path), **(env_extra or {}))
    runs = run_blocks(blocks(files["RUN.md"]), folder, env, timeout=60)
    return files, runs, calls(tmp_path / "calls.log"), env


def user_env() -> dict[str, str]:
    # what the reader exports before following RUN.md (SUBMISSION_ID: the id the stand-in ray prints)
    return {
        "WANDB_API_KEY": "wk-" + secrets.token_hex(8),
        "RAY_AUTH_TOKEN": secrets.token_hex(16),
        "SUBMISSION_ID": "raysubmit_stub",
    }


def index_of(recorded: list[list[str]], *head: str) -> int:
    found = [i for i, call in enumerate(recorded) if call[: len(head)] == list(head)]
    assert found, (head, recorded)
    return found[0]


@pytest.mark.parametrize("preset,target", CASES)
def test_every_runbook_block_parses_and_does_what_run_md_says(preset, target, tmp_path):
    env_extra = user_env()
    files, runs, recorded, _ = follow(tmp_path, preset, target, env_extra=env_extra)
    text = files["RUN.md"]
    # one bash -n over the blocks one after another (each is whole: an unclosed quote would reach the next)
    assert syntax_errors(Block("all", "".join(run.block.text for run in runs))) == ""
    assert all(run.rc is not None for run in runs), [(r.block.text, r.output) for r in runs if r.rc is None]
    key = env_extra["WANDB_API_KEY"]
    assert key not in text and env_extra["RAY_AUTH_TOKEN"] not in text, "no secret value is written"
    uses_wandb = "WANDB_API_KEY" in text
    assert index_of(recorded, "pip", "install") == 0
    if target in MANIFEST:
        apply = index_of(recorded, "kubectl", "apply", "-f", MANIFEST[target])
        assert (tmp_path / "run" / MANIFEST[target]).is_file()
        if uses_wandb:
            create = index_of(recorded, "kubectl", "create", "secret", "generic", "verl-secrets")
            assert f"--from-literal=WANDB_API_KEY={key}" in recorded[create][5:], "the shell expanded the reference"
            assert create < apply, "the Secret the pods read exists before they start"
    elif target == "slurm":
        submit = index_of(recorded, "sbatch", "--parsable", "job.sbatch")
        name = recorded[index_of(recorded, "squeue")][2].removeprefix("--name=")
        assert index_of(recorded, "tail", "-f", f"{name}-4242.out") > submit
        assert index_of(recorded, "scancel", "4242") > submit
    elif target == "ray-job":
        submit = recorded[index_of(recorded, "ray", "job", "submit")]
        assert submit[submit.index("--working-dir") + 1] == str(tmp_path / "run")
        runtime_env = submit[submit.index("--runtime-env-json") + 1]
        assert (f'"WANDB_API_KEY": "{key}"' in runtime_env) == uses_wandb, runtime_env
        assert index_of(recorded, "ray", "job", "stop") > index_of(recorded, "ray", "job", "submit")
        assert recorded[index_of(recorded, "ray", "job", "stop")][-1] == "raysubmit_stub"
    if target == "local":
        verl = recorded[index_of(recorded, "python3", "-m", "verl.trainer.main_ppo")]
        assert f"--config-path={tmp_path / 'run'}" in verl


def test_a_kubernetes_runbook_without_the_key_in_the_shell_stops_before_the_secret_and_the_apply(tmp_path):
    env_extra = {k: v for k, v in user_env().items() if k != "WANDB_API_KEY"}
    _, runs, recorded, _ = follow(tmp_path, "grpo-7b-2x8", "kuberay-job", env_extra=env_extra)
    assert not [c for c in recorded if c[:2] in (["kubectl", "create"], ["kubectl", "apply"])], recorded
    stopped = next(run for run in runs if "create secret" in run.block.text)
    assert "WANDB_API_KEY: export WANDB_API_KEY first" in stopped.output


def test_kuberay_with_a_token_secret_of_its_own_creates_it_from_ray_auth_token(tmp_path):
    env_extra = user_env()
    _, _, recorded, _ = follow(
        tmp_path, "grpo-7b-2x8", "kuberay-cluster", env_extra=env_extra, **{"deploy.auth_secret": "my-ray-token"}
    )
    create = index_of(recorded, "kubectl", "create", "secret", "generic", "my-ray-token")
    assert recorded[create][5:] == [f"--from-literal=auth_token={env_extra['RAY_AUTH_TOKEN']}"]
    assert create < index_of(recorded, "kubectl", "apply", "-f", "raycluster.yaml")
    wait = index_of(recorded, "kubectl", "wait", "raycluster/qwen2-5-7b-grpo-2x8")
    execute = recorded[index_of(recorded, "kubectl", "exec", "-it", "pod/stub-head-0")]
    assert wait < recorded.index(execute)
    assert execute[-6:] == [
        "--",
        "python3",
        "-m",
        "verl.trainer.main_ppo",
        "--config-path=/verl-wizard/config",
        "--config-name=config",
    ]


def test_a_multi_node_local_run_starts_a_cluster_and_joins_its_driver_to_the_head(tmp_path):
    env_extra = user_env()
    _, runs, recorded, _ = follow(tmp_path, "grpo-7b-2x8", "local", env_extra=env_extra)
    head = recorded[index_of(recorded, "ray", "start", "--head")]
    port = next(a for a in head if a.startswith("--port=")).removeprefix("--port=")
    worker = recorded[
        index_of(recorded, "ray", "start", "--address=" + head[3].removeprefix("--node-ip-address=") + f":{port}")
    ]
    assert recorded.index(head) < recorded.index(worker) < index_of(recorded, "python3", "-m", "verl.trainer.main_ppo")
    launch = next(run for run in runs if "./run.sh" in run.block.text)
    assert launch.block.text.startswith('export RAY_ADDRESS="${HEAD_ADDRESS:?')
    assert index_of(recorded, "ray", "stop") > recorded.index(worker)


def test_a_one_node_local_run_just_runs_run_sh(tmp_path):
    files, runs, recorded, _ = follow(tmp_path, "grpo-8b-1x8", "local", env_extra=user_env())
    assert not [c for c in recorded if c[:2] == ["ray", "start"]] and "RAY_ADDRESS" not in files["RUN.md"]
    assert [run.block.text for run in runs if "./run.sh" in run.block.text] == ["./run.sh\n"]


@pytest.mark.parametrize("preset,target", CASES)
def test_chinese_run_md_has_the_same_commands_and_chinese_prose(preset, target, tmp_path):
    en = write_run(tmp_path / "en", preset, target)["RUN.md"]
    zh = write_run(tmp_path / "zh", preset, target, "zh")["RUN.md"]
    assert [b.text for b in blocks(zh)] == [b.text for b in blocks(en)], "commands stay commands"
    headings = [line for line in zh.splitlines() if line.startswith("#")]
    assert "## 安装" in headings and "## 启动" in headings and "## Launch" not in zh
    assert all(CJK.search(line) for line in headings), headings
    said = [line for line in zh.split("```")[0::2] for line in line.splitlines() if line and not line.startswith("- ")]
    assert all(CJK.search(line) for line in said), [line for line in said if not CJK.search(line)]


@pytest.mark.parametrize("target", ["kuberay-job", "k8s-job"])
def test_every_secret_the_pods_read_is_created_in_their_namespace_by_reference(target, tmp_path):
    env_extra = {**user_env(), "HF_TOKEN": "hf_" + secrets.token_hex(8)}
    values = {"deploy.secret_env": ["HF_TOKEN"], "deploy.namespace": "team-a"}
    files, _, recorded, _ = follow(tmp_path, "workshop-0.5b-1gpu", target, env_extra=env_extra, **values)
    manifest = files[MANIFEST[target]]
    assert "secretKeyRef" in manifest and "name: HF_TOKEN" in manifest, "the pods read HF_TOKEN from the Secret"
    create = index_of(recorded, "kubectl", "create", "secret", "generic", "-n", "team-a", "verl-secrets")
    assert recorded[create][7:] == [f"--from-literal=HF_TOKEN={env_extra['HF_TOKEN']}"]
    assert create < index_of(recorded, "kubectl", "apply", "-n", "team-a", "-f", MANIFEST[target])
    assert env_extra["HF_TOKEN"] not in "".join(files.values())


def test_a_run_that_reads_no_secret_has_no_secrets_section(tmp_path):
    files, _, recorded, _ = follow(tmp_path, "workshop-0.5b-1gpu", "k8s-job", env_extra=user_env())
    assert "## Secrets" not in files["RUN.md"] and not [c for c in recorded if c[1:3] == ["create", "secret"]]


def test_the_syntax_check_fails_on_a_block_bash_cannot_read():
    assert "unexpected" in syntax_errors(Block("x", 'echo "a"\nif then fi\n'))
    assert syntax_errors(Block("x", 'echo "a"\n')) == ""


@pytest.mark.parametrize("target", ["local", "ray-job", "kuberay-cluster", "slurm"])
def test_with_token_authentication_off_no_block_asks_for_a_token(target, tmp_path):
    env_extra = {k: v for k, v in user_env().items() if k != "RAY_AUTH_TOKEN"}
    _, runs, recorded, _ = follow(
        tmp_path, "grpo-7b-2x8", target, env_extra=env_extra, **{"deploy.auth_mode": "disabled"}
    )
    assert all(run.rc is not None for run in runs), [(r.block.text, r.output) for r in runs if r.rc is None]
    typed = "".join(run.block.text for run in runs)
    assert "RAY_AUTH_TOKEN" not in typed and ("RAY_AUTH_MODE=disabled" in typed) == (target in ("local", "ray-job"))
    if target == "ray-job":
        assert index_of(recorded, "ray", "job", "submit") < index_of(recorded, "ray", "job", "stop")
