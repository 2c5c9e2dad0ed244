"""RUN.md per preset x target: the install line from verl's own extras, staging, the launch and watch commands."""

from __future__ import annotations

import json
import re
import shlex

import pytest

from tests.cli.helpers import cli
from tests.emit.manifests_kit import docs_of, render
from tests.emit.runbook_kit import blocks
from wizard.core import verl_schema
from wizard.core.layers import build
from wizard.core.plan import build_plan
from wizard.core.presets import load_preset, preset_names
from wizard.emit.install import install_for
from wizard.emit.launch import launch_for
from wizard.emit.run_md import render_run_md

TARGETS = ("local", "ray-job", "kuberay-job", "kuberay-cluster", "slurm", "k8s-job")
SNAPSHOT = verl_schema.DATA_DIR / f"verl-{verl_schema.TARGET_VERSION}.json"
# What each target's launch starts with, written out here (not taken from wizard.emit.launch).
FIRST_COMMAND = {
    "local": "./run.sh",
    "ray-job": "./ray-job.sh",
    "kuberay-job": "kubectl apply -f rayjob.yaml",
    "kuberay-cluster": "kubectl apply -f raycluster.yaml",
    "slurm": "sbatch job.sbatch",
    "k8s-job": "kubectl apply -f k8s-job.yaml",
}
# Where RUN.md's launch differs from `new`'s one line: sbatch gives the job's number to the commands after it.
RUN_MD_LAUNCH = {**FIRST_COMMAND, "slurm": 'JOBID="$(sbatch --parsable job.sbatch)"'}
WATCH_WORD = {
    "local": "ray status",
    "ray-job": "ray job logs --follow",
    "kuberay-job": "kubectl logs --follow job/",
    "kuberay-cluster": "kubectl get raycluster",
    "slurm": "squeue --me",
    "k8s-job": "kubectl logs --follow job/",
}


def answers_of(preset: str, **values):
    return build([("preset", load_preset(preset).values), ("--set", values)]).answers


def _fits(preset: str, target: str) -> bool:
    return not (target == "k8s-job" and load_preset(preset).values.get("trainer.nnodes", 1) > 1)


CASES = [(p, t) for p in preset_names() for t in TARGETS if _fits(p, t)]


def install_line_extras(text: str) -> list[str]:
    m = re.search(r'pip install "verl\[([^\]]+)\]==(\S+)"', text)
    assert m, text
    assert m.group(2) == verl_schema.TARGET_VERSION
    return m.group(1).split(",")


@pytest.mark.parametrize("preset,target", CASES)
def test_run_md_names_verls_extras_and_the_targets_launch(preset, target):
    files, findings = render(preset, target)
    assert files, [str(f.message) for f in findings]
    text = files["RUN.md"]
    values = load_preset(preset).values
    extras = install_line_extras(text)
    engine = "megatron" if values.get("actor_rollout_ref.actor.strategy") == "megatron" else "fsdp"
    assert extras == [values["actor_rollout_ref.rollout.name"], engine]
    declared = json.loads(SNAPSHOT.read_text())["extras"]
    assert set(extras) <= set(declared), "every extra of the install line exists in verl's metadata snapshot"
    launch = text.split("## Launch", 1)[1].split("## Watch", 1)[0]
    assert RUN_MD_LAUNCH[target] in launch
    assert WATCH_WORD[target] in text.split("## Watch", 1)[1]
    if target != "local":
        assert "./run.sh" not in launch, "a cluster target is not launched with run.sh"


@pytest.mark.parametrize("target", TARGETS)
def test_new_prints_the_launch_command_of_the_target(target, tmp_path):
    out = tmp_path / "my run"
    proc = cli("new", "--preset", "workshop-0.5b-1gpu", "--target", target, "--out", str(out))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert f"launch: cd {shlex.quote(str(out))} && {FIRST_COMMAND[target]}" in proc.stdout.splitlines()


def test_the_extras_follow_the_rollout_and_the_engine():
    assert install_for(answers_of("grpo-8b-1x8")).line == 'pip install "verl[vllm,fsdp]==0.9.1"'
    sglang = answers_of("grpo-8b-1x8", **{"actor_rollout_ref.rollout.name": "sglang"})
    assert install_for(sglang).line == 'pip install "verl[sglang,fsdp]==0.9.1"'
    assert install_for(answers_of("grpo-megatron-tp2pp2-1x8")).line == 'pip install "verl[vllm,megatron]==0.9.1"'
    fsdp2 = answers_of("grpo-8b-1x8", **{"actor_rollout_ref.actor.strategy": "fsdp2"})
    assert install_for(fsdp2).extras == ("vllm", "fsdp")


def test_the_pins_are_the_snapshots_and_follow_nested_extras():
    declared = json.loads(SNAPSHOT.read_text())["extras"]
    install = install_for(answers_of("grpo-8b-1x8"))
    assert "vllm==0.24.0" in declared["vllm"] and "vllm==0.24.0" in install.pins
    # fsdp pulls in verl[flash-attn-cu130torch211]: its flash-attn pin is the nested extra's.
    (flash,) = [req for req in declared["flash-attn-cu130torch211"] if req.startswith("flash-attn==")]
    assert flash in install.pins and not any(pin.startswith("sglang") for pin in install.pins)
    megatron = install_for(answers_of("grpo-megatron-tp2pp2-1x8"))
    assert "megatron-bridge==0.5.2" in megatron.pins and "megatron-bridge==0.5.2" not in install.pins


def test_a_rollout_verl_declares_no_extra_for_is_named_not_invented(monkeypatch):
    trtllm = answers_of("grpo-8b-1x8", **{"actor_rollout_ref.rollout.name": "trtllm"})
    install = install_for(trtllm)
    assert install.line == 'pip install "verl[fsdp]==0.9.1"' and install.undeclared == ("trtllm",)
    files, _ = render("grpo-8b-1x8", "local", **{"actor_rollout_ref.rollout.name": "trtllm"})
    assert "verl 0.9.1 declares no extra for `trtllm`" in files["RUN.md"]
    # A snapshot without extras (an older verl): the bare package, nothing made up.
    monkeypatch.setattr(verl_schema, "extras", lambda version=None: {})
    assert install_for(trtllm).line == 'pip install "verl==0.9.1"'
    monkeypatch.setattr(verl_schema, "extras", lambda version=None: {"verl-core": ["pyzmq"]})
    assert install_for(trtllm).line == 'pip install "verl[verl-core]==0.9.1"'


def test_manifests_headers_carry_the_same_commands_as_run_md():
    for target, name in (("kuberay-job", "rayjob.yaml"), ("slurm", "job.sbatch"), ("ray-job", "ray-job.sh")):
        files, _ = render("grpo-7b-2x8", target)
        launch = launch_for(answers_of("grpo-7b-2x8", **{"deploy.target": target}))
        typed = {line for block in blocks(files["RUN.md"]) for line in block.text.splitlines()}
        for command, _ in launch.watch:
            assert command in files[name]
            assert (
                command in typed
                or command.replace("JOBID", '"$JOBID"').replace("SUBMISSION_ID", '"$SUBMISSION_ID"') in typed
            )


def test_kubernetes_staging_mounts_the_data_volume_and_says_so():
    pvc = {"deploy.data_volume": "verl-data"}
    files, findings = render("grpo-7b-2x8", "kuberay-job", **pvc)
    assert "DEPLOY-015" not in {f.id for f in findings}, "the preset's /data paths lie under the default mount"
    job = docs_of(files["rayjob.yaml"])[0]
    cluster = job["spec"]["rayClusterSpec"]
    for pod in [cluster["headGroupSpec"]["template"]] + [g["template"] for g in cluster["workerGroupSpecs"]]:
        spec = pod["spec"]
        assert {"name": "verl-data", "persistentVolumeClaim": {"claimName": "verl-data"}} in spec["volumes"]
        container = spec["containers"][0]
        assert {"name": "verl-data", "mountPath": "/data"} in container["volumeMounts"]
        assert {"name": "HF_HOME", "value": "/data/huggingface"} in container["env"]
    assert "Every pod mounts the PersistentVolumeClaim `verl-data` at `/data`" in files["RUN.md"]
    host, _ = render(
        "workshop-0.5b-1gpu", "k8s-job", **{"deploy.data_volume": "/mnt/verl", "deploy.data_mount": "/data"}
    )
    pod = docs_of(host["k8s-job.yaml"])[0]["spec"]["template"]["spec"]
    assert {"name": "verl-data", "hostPath": {"path": "/mnt/verl", "type": "Directory"}} in pod["volumes"]
    bare, findings = render("grpo-7b-2x8", "kuberay-job")
    assert "verl-data" not in bare["rayjob.yaml"] and "HF_HOME" not in bare["rayjob.yaml"]
    assert "Nothing is mounted in the pods" in bare["RUN.md"] and "DEPLOY-015" in bare["RUN.md"]


def test_hf_home_reaches_every_target_that_sets_it():
    home = {"deploy.hf_home": "/shared/hf"}
    assert "export HF_HOME=/shared/hf" in render("workshop-0.5b-1gpu", "slurm", **home)[0]["job.sbatch"]
    assert '"HF_HOME": "/shared/hf"' in render("workshop-0.5b-1gpu", "ray-job", **home)[0]["ray-job.sh"]
    assert "export HF_HOME=/shared/hf" in render("workshop-0.5b-1gpu", "local", **home)[0]["run.sh"]
    assert "HF_HOME is `/shared/hf` on every node" in render("workshop-0.5b-1gpu", "local", **home)[0]["RUN.md"]
    assert "HF_HOME" not in render("workshop-0.5b-1gpu", "slurm")[0]["job.sbatch"]


def run_md_of(preset: str, target: str, **values) -> str:
    """RUN.md whatever the rules say of these values (a rule may block writing them; RUN.md's words are tested)."""
    answers = answers_of(preset, **{"deploy.target": target, **values})
    return render_run_md(answers, build_plan(answers), [], ["config.yaml"])


def _path_lines(text: str) -> dict[str, str]:
    return {line.split("`")[3]: line for line in text.splitlines() if line.startswith("- `") and line.count("`") >= 4}


def test_a_relative_data_file_is_relative_to_where_verl_runs_never_a_hugging_face_id():
    paths = {"data.train_files": "data/train.parquet", "data.val_files": "C:\\\\Users\\\\me\\\\test.parquet"}
    for target, base in (
        ("local", "the folder you start ./run.sh in"),
        ("slurm", "the folder you submit from"),
        ("ray-job", "uploaded by ./ray-job.sh"),
        ("kuberay-job", "not this machine: give a path under /data instead"),
    ):
        lines = _path_lines(run_md_of("workshop-0.5b-1gpu", target, **paths))
        train = lines["data/train.parquet"]
        assert "Hugging Face" not in train and "a relative path: verl opens it from" in train and base in train
        windows = next(line for value, line in lines.items() if value.startswith("C:"))
        assert "a Windows path: verl runs on Linux and cannot open it" in windows
        # neighbours: the model id is still one, an absolute data file needs no word
        assert "(a Hugging Face id: downloaded into HF_HOME on first use)" in lines["Qwen/Qwen2.5-0.5B-Instruct"]
    text = run_md_of("workshop-0.5b-1gpu", "local", **{"data.train_files": "/srv/train.parquet"})
    assert _path_lines(text)["/srv/train.parquet"] == "- `data.train_files`: `/srv/train.parquet`"


def test_new_lang_zh_writes_run_md_in_chinese_with_the_same_commands(tmp_path):
    for lang in ("en", "zh"):
        args = ("new", "--preset", "grpo-7b-2x8", "--target", "kuberay-job", "--out", str(tmp_path / lang))
        proc = cli(*args, "--lang", lang)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    en, zh = ((tmp_path / lang / "RUN.md").read_text() for lang in ("en", "zh"))
    assert [b.text for b in blocks(zh)] == [b.text for b in blocks(en)]
    assert "## 密钥" in zh and "## Secrets" in en and "## Secrets" not in zh
    assert "pod 从 Kubernetes Secret `verl-secrets` 读取 `WANDB_API_KEY`" in zh
    assert "**DEPLOY-009** (警告)" in zh and "**DEPLOY-009** (warning)" in en
    assert (tmp_path / "zh" / "config.yaml").read_bytes() == (tmp_path / "en" / "config.yaml").read_bytes()
