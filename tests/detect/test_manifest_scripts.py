"""`check` on job.sbatch and ray-job.sh: the wizard's own pass; edited or hand-written ones are judged by the same rules."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.helpers import ROOT, cli_json
from tests.emit.manifests_kit import render

# A hand-written multi-node script in the style many verl users start from: the host list quoted into one
# array element, fixed sleeps, and no Ray authentication setting anywhere.
HAND_WRITTEN = """#!/bin/bash
#SBATCH --job-name=verl-ppo
#SBATCH --nodes=2
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=8
#SBATCH --cpus-per-task=64
nodes=$(scontrol show hostnames "$SLURM_JOB_NODELIST")
nodes_array=("$nodes")
head_node=${nodes_array[0]}
head_node_ip=$(srun --nodes=1 --ntasks=1 -w "$head_node" hostname --ip-address)
port=6379
ip_head=$head_node_ip:$port
srun --nodes=1 --ntasks=1 -w "$head_node" ray start --head --node-ip-address="$head_node_ip" --port=$port \\
    --num-cpus "${SLURM_CPUS_PER_TASK}" --num-gpus "${SLURM_GPUS_PER_NODE}" --block &
sleep 10
for ((i = 1; i < SLURM_JOB_NUM_NODES; i++)); do
    node_i=${nodes_array[$i]}
    srun --nodes=1 --ntasks=1 -w "$node_i" ray start --address "$ip_head" \\
        --num-cpus "${SLURM_CPUS_PER_TASK}" --num-gpus "${SLURM_GPUS_PER_NODE}" --block &
    sleep 5
done
PYTHONUNBUFFERED=1 srun --overlap --nodes=1 --ntasks=1 -w "$head_node" \\
    python3 -m verl.trainer.main_ppo \\
    actor_rollout_ref.model.path=Qwen/Qwen2.5-7B-Instruct \\
    actor_rollout_ref.rollout.name=vllm \\
    algorithm.adv_estimator=grpo actor_rollout_ref.rollout.n=4 \\
    data.train_batch_size=256 actor_rollout_ref.actor.ppo_mini_batch_size=64 \\
    actor_rollout_ref.actor.use_dynamic_bsz=true \\
    trainer.n_gpus_per_node=8 trainer.nnodes=2
"""


def check(path: Path) -> tuple[int, dict]:
    proc, doc = cli_json("check", str(path), "--mode", "cluster")
    assert proc.returncode in (0, 1), proc.stderr
    return proc.returncode, doc


def by_id(doc: dict) -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for f in doc["findings"]:
        out.setdefault(f["id"], []).append(f["message"])
    return out


def test_a_hand_written_slurm_script_shows_its_two_multi_node_traps(tmp_path):
    path = tmp_path / "ray_on_slurm.sbatch"
    path.write_text(HAND_WRITTEN)
    code, doc = check(path)
    found = by_id(doc)
    assert code == 1 and doc["source"] == "Slurm batch script"
    assert any('nodes_array=("$nodes") puts every host name into one array element' in m for m in found["DEPLOY-004"])
    assert any("RAY_AUTH_MODE is set nowhere" in m for m in found["DEPLOY-012"])


def test_the_same_script_with_a_real_array_and_one_auth_setting_passes_those_checks(tmp_path):
    fixed = HAND_WRITTEN.replace('nodes_array=("$nodes")', "nodes_array=($nodes)").replace(
        "port=6379\n", "port=6379\nexport RAY_AUTH_MODE=disabled\n"
    )
    path = tmp_path / "ray_on_slurm.sbatch"
    path.write_text(fixed)
    _, doc = check(path)
    found = by_id(doc)
    assert "DEPLOY-004" not in found and "DEPLOY-012" not in found


def _sbatch(tmp_path: Path, **values) -> Path:
    files, findings = render("grpo-7b-2x8", "slurm", **values)
    assert files, [f.message for f in findings]
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    return tmp_path / "job.sbatch"


def test_the_wizards_job_sbatch_passes(tmp_path):
    code, doc = check(_sbatch(tmp_path, **{"deploy.nccl_socket_ifname": "ib0", "deploy.gloo_socket_ifname": "ib0"}))
    assert code == 0 and {f["id"] for f in doc["findings"] if f["severity"] != "info"} == set(), doc["findings"]
    assert doc["notes"][0].startswith("config from ")


EDITS = {
    "workers without the environment": (
        ('--nodelist="$node" --export=ALL', '--nodelist="$node" --export=NONE'),
        "DEPLOY-012",
        "ray start (workers)",
    ),
    "workers with another mode": (
        (
            '  srun --nodes=1 --ntasks=1 --nodelist="$node"',
            '  RAY_AUTH_MODE=disabled srun --nodes=1 --ntasks=1 --nodelist="$node"',
        ),
        "DEPLOY-012",
        "disabled",
    ),
    "visible devices exported": (
        ("export PYTHONUNBUFFERED=1", "export PYTHONUNBUFFERED=1\nexport CUDA_VISIBLE_DEVICES=0,1,2,3"),
        "DEPLOY-001",
        "CUDA_VISIBLE_DEVICES=0,1,2,3",
    ),
    "log dedup off": (
        ("export PYTHONUNBUFFERED=1", "export PYTHONUNBUFFERED=1\nexport RAY_DEDUP_LOGS=0"),
        "DEPLOY-003",
        "RAY_DEDUP_LOGS=0",
    ),
    "token written out": (
        ('  RAY_AUTH_TOKEN="$(python3', '  RAY_AUTH_TOKEN=abc123; : "$(python3'),
        "DEPLOY-006",
        "holds a secret",
    ),
    "workers with fewer GPUs": (
        (
            '--address="$HEAD_ADDRESS" --num-cpus="$RAY_CPUS"',
            '--address="$HEAD_ADDRESS" --num-cpus="$RAY_CPUS" --num-gpus=4',
        ),
        "DEPLOY-004",
        "gives 4 GPU(s)",
    ),
    "fewer CPUs": (("RAY_CPUS=38", "RAY_CPUS=16"), "DEPLOY-005", "16 CPUs for 8 GPU(s)"),
    "no CPUs for TransferQueue": (("RAY_CPUS=38", "RAY_CPUS=26"), "DEPLOY-005", "TransferQueue pins 4 of its 8"),
    "num_cpus in the command": (
        ("--config-name=config", "--config-name=config ray_kwargs.ray_init.num_cpus=32"),
        "DEPLOY-008",
        "num_cpus",
    ),
}


@pytest.mark.parametrize("edit", sorted(EDITS))
def test_an_edit_of_job_sbatch_is_caught(edit, tmp_path):
    (old, new), rule, words = EDITS[edit]
    path = _sbatch(tmp_path)
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))
    _, doc = check(path)
    assert any(words in m for m in by_id(doc).get(rule, [])), doc["findings"]
    assert all("abc123" not in f["message"] for f in doc["findings"])


def test_ray_job_sh_reads_back_and_a_gcs_address_is_caught(tmp_path):
    files, _ = render("grpo-8b-1x8", "ray-job", **{"deploy.env": ["NCCL_DEBUG=INFO"]})
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    path = tmp_path / "ray-job.sh"
    code, doc = check(path)
    assert code == 0 and doc["source"] == "launch script" and "read as a `ray job submit` script" in doc["notes"]
    path.write_text(
        files["ray-job.sh"]
        .replace("DEFAULT_ADDRESS=http://127.0.0.1:8265", "DEFAULT_ADDRESS=10.0.0.1:6379")
        .replace('"NCCL_DEBUG": "INFO"', '"CUDA_VISIBLE_DEVICES": "0"')
    )
    code, doc = check(path)
    found = by_id(doc)
    assert code == 1 and any("not a Jobs API address" in m for m in found["DEPLOY-002"]) and "DEPLOY-001" in found


def test_a_plain_ray_job_submit_script_still_reads_its_overrides():
    _code, doc = check(ROOT / "tests" / "fixtures" / "scripts" / "ray_job_submit.sh")
    assert doc["source"] == "launch script" and "DEPLOY-002" not in by_id(doc)


ONE_NODE = """#!/bin/bash
#SBATCH --nodes=1
#SBATCH --gpus-per-node=8
#SBATCH --cpus-per-task=64
srun python3 -m verl.trainer.main_ppo \\
    algorithm.adv_estimator=grpo data.train_batch_size=64 actor_rollout_ref.model.path=Qwen/Qwen3-8B \\
    data.train_files=/data/gsm8k/train.parquet data.val_files=/data/gsm8k/test.parquet \\
    actor_rollout_ref.actor.ppo_mini_batch_size=16 actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \\
    actor_rollout_ref.rollout.name=vllm actor_rollout_ref.rollout.n=4 \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=8 trainer.n_gpus_per_node=8 trainer.nnodes=1
"""


def test_a_one_node_slurm_script_without_ray_start_is_a_local_run(tmp_path):
    path = tmp_path / "one.sbatch"
    path.write_text(ONE_NODE)
    code, doc = check(path)
    assert code == 0 and doc["source"] == "Slurm batch script" and "DEPLOY-004" not in by_id(doc)
    # its GPUs are still compared with the config
    path.write_text(ONE_NODE.replace("--gpus-per-node=8", "--gpus-per-node=4"))
    code, doc = check(path)
    assert code == 1 and any("4 GPU(s) per node" in m for m in by_id(doc)["DEPLOY-004"])


def test_two_nodes_without_ray_start_still_need_a_head(tmp_path):
    path = tmp_path / "two.sbatch"
    path.write_text(ONE_NODE.replace("--nodes=1", "--nodes=2").replace("trainer.nnodes=1", "trainer.nnodes=2"))
    code, doc = check(path)
    assert code == 1 and any("no `ray start --head` step" in m for m in by_id(doc)["DEPLOY-004"])


def test_a_mask_in_the_jobs_runtime_env_is_an_error_in_check(tmp_path):
    # A mask in a runtime env reaches Ray's workers, where Ray sets the devices itself: refused, even for one GPU.
    files, _ = render("workshop-0.5b-1gpu", "ray-job", **{"deploy.env": ["NCCL_DEBUG=INFO"]})
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    path = tmp_path / "ray-job.sh"
    assert check(path)[0] == 0
    path.write_text(files["ray-job.sh"].replace('"NCCL_DEBUG": "INFO"', '"CUDA_VISIBLE_DEVICES": "0"'))
    code, doc = check(path)
    assert code == 1 and set(by_id(doc)) == {"DEPLOY-001"}
    assert by_id(doc)["DEPLOY-001"] == [
        "CUDA_VISIBLE_DEVICES=0 is set for the job (runtime_env); size the run with trainer.n_gpus_per_node and the "
        "GPU request, and let Ray assign devices"
    ]


def test_a_script_that_reads_the_gpus_slurm_gives_it_is_read_with_them(tmp_path):
    # `GPUS=${SLURM_GPUS_ON_NODE:-2}` under `#SBATCH --gres=gpu:4`: Slurm sets SLURM_GPUS_ON_NODE=4 in the job, so
    # the run has 4 GPUs a node (verl-recipe's langgraph examples); read as 2, check reported DEPLOY-004 and PLACE-012.
    script = ONE_NODE.replace("--gpus-per-node=8", "--gres=gpu:4").replace(
        "trainer.n_gpus_per_node=8", 'trainer.n_gpus_per_node="$GPUS"'
    )
    path = tmp_path / "gres.sbatch"
    path.write_text(script.replace("srun python3", "GPUS=${SLURM_GPUS_ON_NODE:-2}\nsrun python3", 1))
    code, doc = check(path)
    assert "DEPLOY-004" not in by_id(doc), by_id(doc)
    assert code == 0
    # the neighbour: a variable of the script's own is not Slurm's; its default (2) against 4 allocated is caught
    path.write_text(path.read_text().replace("SLURM_GPUS_ON_NODE", "MY_GPUS"))
    code, doc = check(path)
    assert code == 1 and any("4 GPU(s) per node" in m for m in by_id(doc)["DEPLOY-004"]), by_id(doc)


def test_a_job_that_runs_another_verl_program_has_nothing_judged(tmp_path):
    # verl-recipe's DAPO scripts submit `python3 -m recipe.dapo.main_dapo` with `ray job submit`: read as a manifest
    # with no main_ppo command, its config was verl's defaults and check reported BATCH-006 three times.
    path = tmp_path / "dapo_job.sh"
    path.write_text(
        'ray job submit --address=http://127.0.0.1:8265 --runtime-env-json=\'{"working_dir": "."}\' -- \\\n'
        "    python3 -m recipe.dapo.main_dapo data.train_batch_size=512 trainer.nnodes=4\n"
    )
    code, doc = check(path)
    assert (code, list(by_id(doc))) == (0, ["SCRIPT-017"]), by_id(doc)
    assert "recipe.dapo.main_dapo" in by_id(doc)["SCRIPT-017"][0]
