"""A corpus of real findings for the Chinese message tests: the rules engine run over inputs that trigger each rule.

Every case names the rule it is meant to trigger and builds its input the way the project's own tests do
(answers on top of a known-good base, presets, model folders, data files, launch scripts, manifests read
back from disk, a live cluster probed with its network calls replaced, and two data files read on a machine
made different: no read permission, no pyarrow). `corpus(tmp)` returns every finding
of every case, so a case also contributes the other findings its input happens to raise.
`test_each_case_triggers_its_rule` keeps the corpus honest: a case that stops triggering its rule fails there.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import BASE, findings_for
from tests.core.test_verl_checks import CASES as VERL_CASES
from tests.core.test_verl_checks import GAE, MEGATRON
from tests.test_i18n_corpus_data import DATA_CASES
from tests.test_i18n_corpus_deploy import DEPLOY_CASES
from tests.test_i18n_corpus_env import ENV_CASES
from tests.test_i18n_corpus_files import FILE_CASES
from tests.test_i18n_corpus_verl import VERDICT_CASES
from tests.test_i18n_corpus_verl_tree import TREE_CASES
from wizard.core.migrations import renames

TP = "actor_rollout_ref.rollout.tensor_model_parallel_size"
SP = "actor_rollout_ref.actor.ulysses_sequence_parallel_size"
RM_ON = {
    "reward.reward_model.enable": True,
    "reward.reward_model.model_path": "/rm",
    "reward.reward_model.rollout.name": "vllm",
}
TWO_NODES = {**BASE, "trainer.nnodes": 2, "deploy.nccl_socket_ifname": "eth0"}
SEPARATE = {
    "trainer.v1.trainer_mode": "separate_async",
    "actor_rollout_ref.rollout.nnodes": 1,
    "actor_rollout_ref.rollout.checkpoint_engine.backend": "nccl",
    "trainer.v1.separate_async.parameter_sync_step": 4,
}


def cfg(overrides: dict, base: dict | None = None, **ctx):
    """A case over answers only: the overrides on top of a base, in cluster mode unless told."""
    return lambda tmp: findings_for(overrides, base=base, **ctx)


# (case name, the rule it must trigger, input builder (tmp folder -> findings))
CONFIG_CASES = [(f"verl {name}", rule, cfg(overrides, base)) for name, base, overrides, rule in VERL_CASES] + [
    # KEY-*: what became of a key, mandatory values, legacy keys
    ("key typo", "KEY-001", cfg({"trainer.total_epoch": 3})),
    ("key of a fork", "KEY-001", cfg({"trainer.my_key": 1})),
    ("key renamed", "KEY-001", cfg({"actor_rollout_ref.rollout.val_temperature": 0.5})),
    ("key renamed in a release", "KEY-001", cfg({"trainer.val_generations_to_log_to_wandb": 5})),
    ("key moved", "KEY-001", cfg({"actor_rollout_ref.rollout.update_weights_bucket_megabytes": 512})),
    ("key of megatron", "KEY-001", cfg({"actor_rollout_ref.actor.megatron.dist_checkpointing_path": "/ckpt"})),
    ("key of fsdp", "KEY-001", cfg({"actor_rollout_ref.actor.entropy_checkpointing": True}, MEGATRON)),
    ("every hand-written rename", "KEY-001", cfg({key: 1 for key in renames()})),
    ("key removed", "KEY-001", cfg({"actor_rollout_ref.actor.fsdp_config.grad_offload": True})),
    (
        "reward model rollout name",
        "KEY-002",
        cfg({"reward.reward_model.enable": True, "reward.reward_model.model_path": "/rm"}),
    ),
    ("legacy reward key", "KEY-003", cfg({"reward_model.enable": False})),
    ("legacy reward switch", "KEY-008", cfg({"reward_model.enable": True})),
    # ROLE-*
    ("no actor", "ROLE-001", cfg({"actor_rollout_ref.model.path": None})),
    ("critic.enable without path", "ROLE-002", cfg({"critic.enable": True})),
    ("critic is the reward model", "ROLE-003", cfg({**RM_ON, "critic.model.path": "/rm"}, GAE)),
    ("critic unused", "ROLE-006", cfg({"critic.enable": True, "critic.model.path": "Qwen/Qwen3-8B"})),
    ("actor ~ path", "ROLE-007", cfg({"actor_rollout_ref.model.path": "~/models/qwen"})),
    ("actor missing locally", "ROLE-007", cfg({"actor_rollout_ref.model.path": "/no/such/model"}, mode="local")),
    ("actor path pasted with a shell tail", "ROLE-007", cfg({"actor_rollout_ref.model.path": "Qwen/Qwen3-8B; echo"})),
    (
        "reference copy",
        "ROLE-009",
        cfg(
            {"actor_rollout_ref.actor.use_kl_loss": True, "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu": 8}
        ),
    ),
    (
        "reference under LoRA",
        "ROLE-009",
        cfg({"actor_rollout_ref.actor.use_kl_loss": True, "actor_rollout_ref.model.lora_rank": 32}),
    ),
    (
        "reference of no actor",
        "ROLE-009",
        cfg(
            {
                "actor_rollout_ref.actor.use_kl_loss": True,
                "actor_rollout_ref.model.path": None,
                "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu": 8,
            }
        ),
    ),
    # BATCH-*
    ("train not a multiple of mini", "BATCH-003", cfg({"actor_rollout_ref.actor.ppo_mini_batch_size": 24})),
    ("group estimator with one response", "BATCH-008", cfg({"actor_rollout_ref.rollout.n": 1})),
    (
        "rollout TP over whole nodes",
        "PLACE-014",
        cfg(
            {
                "trainer.nnodes": 2,
                "trainer.n_gpus_per_node": 4,
                "actor_rollout_ref.rollout.tensor_model_parallel_size": 8,
            }
        ),
    ),
    (
        "pass@k estimator with one response",
        "BATCH-015",
        cfg({"actor_rollout_ref.rollout.n": 1, "algorithm.adv_estimator": "grpo_passk"}),
    ),
    ("gae with n", "BATCH-009", cfg({"actor_rollout_ref.rollout.n": 4}, GAE)),
    ("critic chain split", "BATCH-010", cfg({"critic.ppo_mini_batch_size": 3}, GAE)),
    ("critic chain micro", "BATCH-010", cfg({"critic.ppo_micro_batch_size_per_gpu": 3}, GAE)),
    (
        "many optimizer steps",
        "BATCH-011",
        cfg(
            {
                "actor_rollout_ref.actor.ppo_mini_batch_size": 2,
                "actor_rollout_ref.actor.ppo_epochs": 10,
                "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 1,
                "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu": 1,
            }
        ),
    ),
    ("critic V1 budget", "BATCH-007", cfg({"data.max_prompt_length": 8192, "data.max_response_length": 32768}, GAE)),
    (
        "critic V1 budget megatron",
        "BATCH-007",
        cfg(
            {
                "data.max_prompt_length": 8192,
                "data.max_response_length": 32768,
                "critic.ppo_micro_batch_size_per_gpu": 2,
            },
            {**GAE, "model_engine": "megatron"},
        ),
    ),
    ("critic micro both", "BATCH-006", cfg({"critic.ppo_micro_batch_size": 16}, GAE)),
    (
        "ref micro deprecated",
        "BATCH-006",
        cfg({"actor_rollout_ref.actor.use_kl_loss": True, "actor_rollout_ref.ref.log_prob_micro_batch_size": 64}),
    ),
    # PLACE-*
    (
        "megatron tp over a node",
        "PLACE-004",
        cfg(
            {
                "trainer.nnodes": 2,
                "trainer.n_gpus_per_node": 4,
                "actor_rollout_ref.actor.megatron.tensor_model_parallel_size": 8,
            },
            MEGATRON,
        ),
    ),
    (
        "critic sp without remove padding",
        "PLACE-006",
        cfg(
            {
                "critic.ulysses_sequence_parallel_size": 2,
                "critic.model.use_remove_padding": False,
                "trainer.use_v1": False,
            },
            GAE,
        ),
    ),
    (
        "critic engine sp without remove padding",
        "PLACE-006",
        cfg({"critic.fsdp.ulysses_sequence_parallel_size": 2, "critic.model.use_remove_padding": False}, GAE),
    ),
    ("sp does not divide", "PLACE-012", cfg({SP: 3, "actor_rollout_ref.model.use_remove_padding": True})),
    (
        "separate_async without rollout nodes",
        "PLACE-009",
        cfg(
            {
                **SEPARATE,
                "actor_rollout_ref.rollout.nnodes": 0,
                "data.train_batch_size": 64,
                "actor_rollout_ref.actor.ppo_mini_batch_size": 16,
            }
        ),
    ),
    ("separate_async with a colocated reward model", "PLACE-009", cfg({**SEPARATE, **RM_ON})),
    ("hybrid engine off", "PLACE-009", cfg({"actor_rollout_ref.hybrid_engine": False})),
    ("rollout pipeline", "PLACE-013", cfg({"actor_rollout_ref.rollout.pipeline_model_parallel_size": 2})),
    # DEPLOY-* over the answers (what the wizard would render)
    ("visible devices", "DEPLOY-001", cfg({"deploy.target": "slurm", "deploy.env": ["CUDA_VISIBLE_DEVICES=0,1"]})),
    (
        "visible devices on slurm workers",
        "DEPLOY-001",
        cfg({"deploy.target": "slurm", "deploy.env": ["CUDA_VISIBLE_DEVICES=0,1"]}, TWO_NODES),
    ),
    (
        "gcs address for the jobs api",
        "DEPLOY-002",
        cfg({"deploy.target": "ray-job", "deploy.ray_address": "10.0.0.5:6379"}),
    ),
    (
        "a bracketed host that is not IPv6",
        "DEPLOY-002",
        cfg({"deploy.target": "ray-job", "deploy.ray_address": "http://[head]:8265"}),
    ),
    (
        "jobs api for ray.init",
        "DEPLOY-002",
        cfg({"deploy.target": "slurm", "deploy.env": ["RAY_ADDRESS=http://10.0.0.5:8265"]}),
    ),
    (
        "ray client address",
        "DEPLOY-002",
        cfg({"deploy.target": "slurm", "deploy.env": ["RAY_ADDRESS=ray://10.0.0.5:10001"]}),
    ),
    ("not host:port", "DEPLOY-002", cfg({"deploy.target": "slurm", "deploy.env": ["RAY_ADDRESS=head-node"]})),
    ("dedup off", "DEPLOY-003", cfg({"deploy.target": "kuberay-job", "deploy.env": ["RAY_DEDUP_LOGS=0"]}, TWO_NODES)),
    ("one pod for two nodes", "DEPLOY-004", cfg({"deploy.target": "k8s-job"}, TWO_NODES)),
    ("few cpus", "DEPLOY-005", cfg({"deploy.target": "kuberay-job", "deploy.cpus_per_gpu": 2})),
    # The legacy trainer starts no TransferQueue: only verl's bundles and a free CPU count.
    (
        "no cpu for the task runner",
        "DEPLOY-005",
        cfg({"deploy.target": "slurm", "deploy.cpus_per_gpu": 3, "trainer.use_v1": False}),
    ),
    # issue 19: verl's own Ray instance with too few CPUs for its TransferQueue (a catalogue-key message).
    ("few cpus for verl's ray", "DEPLOY-005", cfg({"deploy.target": "local", "ray_kwargs.ray_init.num_cpus": 16})),
    (
        "local mask of another size",
        "DEPLOY-001",
        cfg({"deploy.target": "local", "deploy.env": ["CUDA_VISIBLE_DEVICES=0,1"]}),
    ),
    (
        "paths the pods cannot see",
        "DEPLOY-015",
        cfg({"deploy.target": "kuberay-job", "data.train_files": "/d/t.parquet"}),
    ),
    (
        "paths outside the mount",
        "DEPLOY-015",
        cfg(
            {
                "deploy.target": "k8s-job",
                "deploy.data_volume": "verl-data",
                "deploy.data_mount": "/mnt/data",
                "data.train_files": ["/d/a.parquet", "/d/b.parquet"],
                "data.val_files": "/d/v.parquet",
            }
        ),
    ),
    ("inline secret", "DEPLOY-006", cfg({"deploy.target": "kuberay-job", "deploy.env": ["WANDB_API_KEY=s3cr3t"]})),
    ("secret as a $reference", "DEPLOY-006", cfg({"deploy.target": "slurm", "deploy.env": ["WANDB_API_KEY=$X"]})),
    (
        "secret both inline and by name",
        "DEPLOY-006",
        cfg(
            {
                "deploy.target": "kuberay-job",
                "deploy.env": ["HF_HOME_X=1", "DB_USER=me"],
                "deploy.secret_env": ["DB_USER"],
            }
        ),
    ),
    (
        "password inside a url",
        "DEPLOY-006",
        cfg({"deploy.target": "slurm", "deploy.env": ["PIP_INDEX_URL=https://me:pa55word@pypi.example.com/simple"]}),
    ),
    (
        "account key inside a value",
        "DEPLOY-006",
        cfg({"deploy.target": "slurm", "deploy.env": ["STORE=DefaultEndpointsProtocol=https;AccountKey=c2VjcmV0"]}),
    ),
    (
        "token format in a value",
        "DEPLOY-006",
        cfg({"models.actor_path": "/models/hf_abcdefghijklmnopqrstuvwxyzABCDEF"}),
    ),
    (
        "token under an engine key",
        "DEPLOY-006",
        cfg({"actor_rollout_ref.rollout.engine_kwargs.vllm.hf_token": "hf_abcdefghijklmnopqrstuvwxyzABCDEF"}),
    ),
    ("secret read into a name", "DEPLOY-006", cfg({"trainer.experiment_name": "${oc.env:WANDB_API_KEY}"})),
    (
        "token where a name belongs",
        "DEPLOY-006",
        cfg({"deploy.target": "slurm", "deploy.secret_env": ["hf_abcdefghijklmnopqrstuvwxyzABCDEF"]}),
    ),
    ("bad rayjob name", "DEPLOY-007", cfg({"deploy.target": "kuberay-job", "deploy.name": "Qwen_Run"})),
    ("bad namespace", "DEPLOY-007", cfg({"deploy.target": "kuberay-job", "deploy.namespace": "ML_team"})),
    (
        "bad secret name",
        "DEPLOY-007",
        cfg({"deploy.target": "kuberay-job", "deploy.k8s_secret": "My_Secrets", "deploy.secret_env": ["HF_TOKEN"]}),
    ),
    (
        "num_cpus joining a cluster",
        "DEPLOY-008",
        cfg({"deploy.target": "kuberay-job", "ray_kwargs.ray_init.num_cpus": 32}),
    ),
    ("no interface names", "DEPLOY-009", cfg({"deploy.target": "slurm", "trainer.nnodes": 2})),
    ("no shm", "DEPLOY-011", cfg({"deploy.target": "k8s-job", "deploy.shm_gib": 0})),
    ("auth vars in env", "DEPLOY-012", cfg({"deploy.target": "slurm", "deploy.env": ["RAY_AUTH_MODE=token"]})),
    (
        "token auth on an old ray",
        "DEPLOY-012",
        cfg({"deploy.target": "kuberay-job", "deploy.auth_mode": "token", "deploy.ray_version": "2.46.0"}),
    ),
    ("bad image", "DEPLOY-014", cfg({"deploy.target": "kuberay-job", "deploy.image": "My Image:latest"})),
]


def edit_case(address: str, text: str, reason):
    """A TUI workspace holding text typed at a field that was not taken (reason None: a required field emptied)."""

    def run(tmp):
        from wizard.core.presets import load_preset
        from wizard.core.workspace import Workspace

        ws = Workspace()
        ws.use_preset("grpo-8b-1x8", load_preset("grpo-8b-1x8").values)
        ws.reject(address, text, reason)
        return ws.findings

    return run


EDIT_CASES = [
    ("typed value not taken", "KEY-006", edit_case("batch.train_batch_size", "-5", "must be at least 1")),
    ("required field emptied", "KEY-007", edit_case("models.actor_path", "", None)),
]

ALL_CASES = CONFIG_CASES + FILE_CASES + DATA_CASES + DEPLOY_CASES + EDIT_CASES + ENV_CASES
ALL_CASES += VERDICT_CASES
ALL_CASES += TREE_CASES


@pytest.fixture(scope="session")
def corpus_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("i18n_corpus")


_FOUND: dict[str, list] = {}  # case name -> findings: each case runs once per session, whichever test asks first


def run_case(name: str, build, tmp: Path) -> list:
    if name not in _FOUND:
        folder = tmp / "".join(c if c.isalnum() else "_" for c in name)
        folder.mkdir(parents=True, exist_ok=True)
        _FOUND[name] = list(build(folder))
    return _FOUND[name]


def corpus(tmp: Path) -> list[tuple[str, object]]:
    """(case name, finding) for every finding of every case."""
    return [(name, finding) for name, _, build in ALL_CASES for finding in run_case(name, build, tmp)]


@pytest.mark.parametrize("name, rule_id, build", ALL_CASES, ids=[c[0] for c in ALL_CASES])
def test_each_case_triggers_its_rule(name, rule_id, build, corpus_dir):
    found = run_case(name, build, corpus_dir)
    assert rule_id in {f.id for f in found}, f"{name}: expected {rule_id}, got {[(f.id, f.message) for f in found]}"


def test_case_names_are_unique():
    names = [name for name, _, _ in ALL_CASES]
    assert len(names) == len(set(names)), "two corpus cases share a name (the session cache and folders go by name)"
