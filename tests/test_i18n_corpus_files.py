"""Corpus cases over models and machines: model folders, the model catalogue, topologies, the memory estimate
(see tests/test_i18n_corpus.py).

Each case is (name, rule id it must trigger, builder); a builder gets its own empty folder and returns the
findings of the real rules engine over what it wrote there, read the way `check` reads it.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

from tests.conftest import BASE, findings_for
from tests.core.test_rules_topology import INTERLEAVED
from tests.core.test_verl_checks import GAE, MEGATRON
from tests.model_dirs import write_model
from wizard.core.layers import build
from wizard.core.presets import load_preset
from wizard.core.rules import context_for, evaluate
from wizard.detect.hardware.fake import fake_topology
from wizard.detect.hardware.smi import parse_topo_matrix
from wizard.detect.models import inspect_models

TP = "actor_rollout_ref.rollout.tensor_model_parallel_size"
SP = "actor_rollout_ref.actor.ulysses_sequence_parallel_size"
MEG_TP = "actor_rollout_ref.actor.megatron.tensor_model_parallel_size"
RM_ON = {"reward.reward_model.enable": True, "reward.reward_model.rollout.name": "vllm"}
DYN = {"actor_rollout_ref.actor.use_dynamic_bsz": True}


def _far_nic_matrix() -> str:
    """INTERLEAVED with one RDMA NIC that every GPU reaches only across the CPU link."""
    rows = INTERLEAVED.splitlines()
    head = rows[0].replace("\tCPU Affinity", "\tNIC0\tCPU Affinity")
    gpus = ["\t".join(r.split("\t")[:5] + ["SYS"] + r.split("\t")[5:]) for r in rows[1:5]]
    nic = "NIC0\tSYS\tSYS\tSYS\tSYS\t X "
    return "\n".join([head, *gpus, nic, *rows[5:], "", "NIC Legend:", "", "  NIC0: mlx5_0", ""])


def models_case(overrides: dict, topology=None, base: dict | None = None, mode: str = "local"):
    """Findings with the models read the way `check` reads them (local folders, cache, catalogue)."""

    def run(tmp: Path):
        values = {**(BASE if base is None else base), **overrides}
        answers = build([("t", values)]).answers
        return findings_for(overrides, base=base, topology=topology, **inspect_models(answers, mode))

    return run


def with_models(make):
    """A models case whose overrides name folders written under the case's folder: make(tmp) -> (overrides, base)."""

    def run(tmp: Path):
        overrides, base = make(tmp)
        return models_case(overrides, base=base)(tmp)

    return run


def preset_case(name: str, topology: str, **over):
    def run(tmp: Path):
        layered = build([("preset", {**load_preset(name).values, **over})])
        ctx = context_for(
            layered.answers,
            layered.flat,
            mode="cluster",
            topology=fake_topology(topology),
            **inspect_models(layered.answers, "cluster"),
        )
        return evaluate(ctx)

    return run


MODEL_CASES = [
    (
        "reward model is a causal lm",
        "ROLE-004",
        with_models(
            lambda t: (
                {**RM_ON, "reward.reward_model.model_path": write_model(t / "rm", arch="Qwen2ForCausalLM")},
                None,
            )
        ),
    ),
    (
        "reward model with two labels",
        "ROLE-004",
        with_models(
            lambda t: (
                {
                    **RM_ON,
                    "reward.reward_model.model_path": write_model(
                        t / "rm", arch="LlamaForSequenceClassification", id2label={"0": "bad", "1": "good"}
                    ),
                },
                None,
            )
        ),
    ),
    (
        "critic vocabulary differs",
        "ROLE-008",
        with_models(
            lambda t: (
                {
                    "actor_rollout_ref.model.path": write_model(t / "actor", words=["the", "cat", "sat"]),
                    "critic.model.path": write_model(t / "critic", words=["der", "hund", "lief", "weg"]),
                },
                GAE,
            )
        ),
    ),
    (
        "critic family differs",
        "ROLE-008",
        models_case(
            {"actor_rollout_ref.model.path": "Qwen/Qwen3-8B", "critic.model.path": "meta-llama/Llama-3.1-8B-Instruct"},
            base=GAE,
        ),
    ),
    (
        "reward model without tokenizer",
        "ROLE-008",
        with_models(
            lambda t: (
                {
                    **RM_ON,
                    "reward.reward_model.model_path": write_model(
                        t / "rm", arch="Qwen2ForSequenceClassification", num_labels=1, tokenizer=False
                    ),
                },
                None,
            )
        ),
    ),
    (
        "reward model without tokenizer, other vocabulary",
        "ROLE-008",
        with_models(
            lambda t: (
                {
                    **RM_ON,
                    "actor_rollout_ref.model.path": write_model(t / "actor", words=["a", "b", "c", "d", "e"]),
                    "reward.reward_model.model_path": write_model(
                        t / "rm", arch="Qwen2ForSequenceClassification", num_labels=1, tokenizer=False, vocab_size=3
                    ),
                },
                None,
            )
        ),
    ),
    (
        "critic vocabulary smaller than the actor's ids",
        "ROLE-008",
        with_models(
            lambda t: (
                {
                    "actor_rollout_ref.model.path": write_model(t / "actor", words=["a", "b", "c", "d", "e"]),
                    "critic.model.path": write_model(t / "critic", tokenizer=False, vocab_size=3),
                },
                GAE,
            )
        ),
    ),
    (
        "critic from a reward model",
        "ROLE-011",
        with_models(
            lambda t: (
                {"critic.model.path": write_model(t / "some-rm", arch="LlamaForSequenceClassification", num_labels=1)},
                GAE,
            )
        ),
    ),
    (
        "heads over rollout tp",
        "PLACE-005",
        with_models(
            lambda t: (
                {
                    "actor_rollout_ref.model.path": write_model(
                        t / "actor", num_attention_heads=28, num_key_value_heads=4, hidden_size=3584
                    ),
                    TP: 8,
                },
                None,
            )
        ),
    ),
    (
        "catalogue heads over rollout tp",
        "PLACE-005",
        models_case({"actor_rollout_ref.model.path": "Qwen/Qwen2.5-7B-Instruct", TP: 8}),
    ),
    (
        "kv heads over sp",
        "PLACE-005",
        with_models(
            lambda t: (
                {
                    **DYN,
                    "actor_rollout_ref.model.path": write_model(
                        t / "c", num_attention_heads=24, num_key_value_heads=6, hidden_size=3072
                    ),
                    SP: 4,
                },
                None,
            )
        ),
    ),
    (
        "heads over megatron tp",
        "PLACE-005",
        with_models(
            lambda t: (
                {
                    "actor_rollout_ref.model.path": write_model(
                        t / "a", num_attention_heads=28, num_key_value_heads=4, hidden_size=3584
                    ),
                    MEG_TP: 8,
                },
                MEGATRON,
            )
        ),
    ),
    (
        "megatron kv groups",
        "PLACE-005",
        with_models(
            lambda t: (
                {
                    "actor_rollout_ref.model.path": write_model(
                        t / "a", num_attention_heads=32, num_key_value_heads=2, hidden_size=4096
                    ),
                    MEG_TP: 4,
                },
                MEGATRON,
            )
        ),
    ),
    (
        "reward model tp",
        "PLACE-005",
        with_models(
            lambda t: (
                {
                    **RM_ON,
                    "reward.reward_model.model_path": write_model(
                        t / "rm", arch="Qwen2ForSequenceClassification", num_labels=1
                    ),
                    "reward.reward_model.rollout.tensor_model_parallel_size": 4,
                },
                None,
            )
        ),
    ),
    (
        "critic sp heads",
        "PLACE-005",
        with_models(
            lambda t: (
                {
                    "critic.model.path": write_model(t / "critic", num_attention_heads=14, num_key_value_heads=2),
                    "critic.ulysses_sequence_parallel_size": 4,
                    "critic.model.use_remove_padding": True,
                    "trainer.use_v1": False,
                },
                GAE,
            )
        ),
    ),
    ("memory on 24 GB cards", "PLACE-008", preset_case("grpo-8b-1x8", "8x4090-pcie")),
    ("memory of the critic", "PLACE-008", preset_case("ppo-critic-8b-1x8", "8x4090-pcie")),
    ("memory megatron", "PLACE-008", preset_case("grpo-megatron-tp2pp2-1x8", "8x4090-pcie")),
    (
        "kv cache too small",
        "PLACE-008",
        preset_case(
            "grpo-8b-1x8",
            "8x4090-pcie",
            **{
                "actor_rollout_ref.rollout.gpu_memory_utilization": 0.34,
                "actor_rollout_ref.actor.fsdp_config.optimizer_offload": True,
            },
        ),
    ),
    (
        "memory of the reward model",
        "PLACE-008",
        preset_case("grpo-8b-1x8", "8x4090-pcie", **{**RM_ON, "reward.reward_model.model_path": "Qwen/Qwen3-8B"}),
    ),
    (
        "memory of the gradient reduction",
        "PLACE-008",
        preset_case(
            "grpo-8b-1x8",
            "8x4090-pcie",
            **{
                "actor_rollout_ref.actor.ppo_max_token_len_per_gpu": 1024,
                "data.max_prompt_length": 256,
                "data.max_response_length": 512,
            },
        ),
    ),
    (
        "memory of the optimizer step",
        "PLACE-008",
        preset_case(
            "grpo-8b-1x8",
            "1xH100",
            **{
                "trainer.n_gpus_per_node": 1,
                "data.train_batch_size": 16,
                "actor_rollout_ref.actor.ppo_mini_batch_size": 4,
                TP: 1,
                "actor_rollout_ref.actor.ppo_max_token_len_per_gpu": 1024,
                "data.max_prompt_length": 256,
                "data.max_response_length": 512,
            },
        ),
    ),
    (
        "memory near the limit",
        "PLACE-008",
        preset_case("workshop-0.5b-1gpu", "1xL4", **{"actor_rollout_ref.rollout.gpu_memory_utilization": 0.85}),
    ),
]

TOPOLOGY_CASES = [
    (
        "weak tp links",
        "PLACE-003",
        lambda t: findings_for(base={**BASE, "trainer.n_gpus_per_node": 4}, topology=parse_topo_matrix(INTERLEAVED)),
    ),
    (
        "weak megatron tp links",
        "PLACE-003",
        lambda t: findings_for(
            {MEG_TP: 2, TP: 1}, base={**MEGATRON, "trainer.n_gpus_per_node": 4}, topology=parse_topo_matrix(INTERLEAVED)
        ),
    ),
    (
        "named cluster too small",
        "PLACE-007",
        lambda t: findings_for({"trainer.nnodes": 2}, topology=fake_topology("8xH100")),
    ),
    (
        "split pools too big",
        "PLACE-007",
        lambda t: findings_for(
            {
                "trainer.v1.trainer_mode": "separate_async",
                "actor_rollout_ref.rollout.nnodes": 1,
                "trainer.v1.separate_async.parameter_sync_step": 4,
                "actor_rollout_ref.rollout.checkpoint_engine.backend": "nccl",
            },
            topology=fake_topology("8xH100"),
        ),
    ),
    (
        "reward model pool too big",
        "PLACE-007",
        lambda t: findings_for(
            {
                **RM_ON,
                "reward.reward_model.model_path": "/rm",
                "reward.reward_model.enable_resource_pool": True,
                "reward.reward_model.nnodes": 1,
                "reward.reward_model.n_gpus_per_node": 4,
            },
            topology=fake_topology("8xH100"),
        ),
    ),
    ("gpu count of a named topology", "PLACE-010", lambda t: findings_for(topology=fake_topology("4xA100-nvlink"))),
    (
        "gpu count of an unlabelled named topology",
        "PLACE-010",
        lambda t: findings_for(topology=dataclasses.replace(fake_topology("4xA100-nvlink"), label="")),
    ),
    (
        "gpu count of a topology from elsewhere",
        "PLACE-010",
        lambda t: findings_for(topology=dataclasses.replace(fake_topology("4xA100-nvlink"), source="other")),
    ),
    ("gpu count of a pasted topology", "PLACE-010", lambda t: findings_for(topology=parse_topo_matrix(INTERLEAVED))),
    (
        "gpu count of this machine",
        "PLACE-010",
        lambda t: findings_for(topology=dataclasses.replace(fake_topology("4xA100-nvlink"), source="nvml")),
    ),
    ("no rdma", "PLACE-011", lambda t: findings_for({"trainer.nnodes": 2}, topology=fake_topology("2x8x4090-pcie"))),
    (
        "far rdma",
        "PLACE-011",
        lambda t: findings_for(
            {"trainer.nnodes": 2, "trainer.n_gpus_per_node": 4}, topology=parse_topo_matrix(_far_nic_matrix())
        ),
    ),
]

FILE_CASES = MODEL_CASES + TOPOLOGY_CASES
