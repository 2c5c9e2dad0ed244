"""Comparing the wizard's verdict with verl's, and the explicit list of findings beyond verl.

verl's verdict on a config is its start-up validation (the real one from verl 0.9.1, or
``verl_model.startup_checks`` where verl is not installed) plus ``verl_model.worker_checks``.
The two sides agree when:

1. verl rejects => we report an error, and for every check verl fails, an error of a rule that covers
   that check (``COVERS``), not only findings beyond verl;
2. verl accepts => every error we report is on ``BEYOND_VERL``: a deliberate, named strictness whose
   condition says exactly when verl lets the config through.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from tests.agreement import verl_model
from wizard.core.findings import Finding

# verl's check -> the rule ids that flag the same mistake (any one of them counts).
COVERS: dict[str, frozenset[str]] = {
    k: frozenset(v)
    for k, v in {
        "B1": {"PLACE-004"},
        "B2": {"BATCH-001", "BATCH-006"},  # Megatron with no per-GPU micro size fails B2 with a TypeError
        "B3": {"BATCH-006"},
        "B3-ref": {"BATCH-006"},
        "B4": {"KEY-004"},
        "B6": {"BATCH-002"},
        "B7": {"BATCH-006"},
        "B8": {"PLACE-006"},
        "B10": {"BATCH-006"},
        "B12": {"BATCH-006", "BATCH-010"},
        "B13": {"ROLE-002", "ROLE-007"},
        "B13-actor": {"ROLE-001", "ROLE-007"},
        "B15": {"KEY-005"},
        "B16": {"KEY-004"},
        "C1": {"KEY-002", "KEY-004"},
        "C8": {"PLACE-001"},
        "C9": {"BATCH-014", "BATCH-006"},
        "C10": {"PLACE-002", "PLACE-001"},
        "C11": {"PLACE-001", "PLACE-002"},
        "C12": {"BATCH-004", "BATCH-010"},
        "C12-mesh": {"PLACE-012", "PLACE-004"},
        "C13": {"BATCH-005", "BATCH-006", "BATCH-010"},
        "C14": {"BATCH-007"},
        "C19": {"PLACE-005"},
        "C19-rp": {"PLACE-006"},
        "C20": {"PLACE-005"},
    }.items()
}


@dataclass(frozen=True)
class VerlSide:
    """What verl says about one config (its composed form is `config`, for the beyond-verl conditions)."""

    startup: list  # [(check, message)]: empty when verl's start-up accepts it
    worker: list  # [(check, message)]
    config: verl_model.Config
    source: str  # "verl 0.9.1" or "model"

    @property
    def failed(self) -> list:
        return list(self.startup) + list(self.worker)

    @property
    def rejects(self) -> bool:
        return bool(self.failed)


@dataclass(frozen=True)
class Beyond:
    """A rule that is deliberately stricter than verl 0.9.1, and exactly where."""

    rule: str
    name: str
    why: str
    applies: Callable[[Finding, verl_model.Facts], bool]
    example: dict = field(default_factory=dict)  # answers over tests/conftest.py's BASE that show it


def _paths(f: Finding, *keys: str) -> bool:
    return any(k in f.paths for k in keys)


A = "actor_rollout_ref."
BEYOND_VERL: tuple[Beyond, ...] = (
    Beyond(
        "BATCH-015",
        "grpo_passk with rollout.n = 1",
        "verl starts it, and its pass@k estimator raises ValueError at the first step on a group of one response",
        lambda f, v: True,
        {"algorithm.adv_estimator": "grpo_passk", A + "rollout.n": 1, A + "actor.ppo_micro_batch_size_per_gpu": 2},
    ),
    Beyond(
        "BATCH-002",
        "mini-batch larger than the train batch under dynamic batching",
        "verl checks B >= m only without dynamic batching; with it the step pads to one short mini-batch",
        lambda f, v: v.dynamic,
        {A + "actor.use_dynamic_bsz": True, A + "actor.ppo_mini_batch_size": 128},
    ),
    Beyond(
        "BATCH-010",
        "critic micro-batch size not dividing the critic's share (V1 trainer)",
        "verl 0.9.1's V1 trainer packs the critic's micro-batches by tokens whatever critic.use_dynamic_bsz says; "
        "the legacy trainer (trainer.use_v1=false) splits by this size and fails",
        lambda f, v: v.v1 and _paths(f, "critic.ppo_micro_batch_size_per_gpu"),
        {
            "algorithm.adv_estimator": "gae",
            A + "rollout.n": 1,
            "critic.model.path": "Qwen/Qwen3-8B",
            A + "actor.ppo_micro_batch_size_per_gpu": 2,
            "critic.ppo_micro_batch_size_per_gpu": 3,
        },
    ),
    Beyond(
        "BATCH-010",
        "critic mini-batch larger than the train batch under dynamic batching",
        "verl checks B >= critic mini-batch only without dynamic batching for the critic",
        lambda f, v: v.critic_dynamic and f.message.key == "batch.critic_mini_over_train",
        {
            "algorithm.adv_estimator": "gae",
            A + "rollout.n": 1,
            "critic.model.path": "Qwen/Qwen3-8B",
            A + "actor.use_dynamic_bsz": True,
            "critic.ppo_mini_batch_size": 128,
        },
    ),
    Beyond(
        "BATCH-007",
        "critic token budget below one sequence (V1 trainer)",
        "verl 0.9.1's V1 critic packs by its own fixed 32768 tokens per GPU and never reads "
        "critic.ppo_max_token_len_per_gpu or forward_max_token_len_per_gpu; the legacy trainer does",
        lambda f, v: v.v1 and _paths(f, "critic.ppo_max_token_len_per_gpu", "critic.forward_max_token_len_per_gpu"),
        {
            "algorithm.adv_estimator": "gae",
            A + "rollout.n": 1,
            "critic.model.path": "Qwen/Qwen3-8B",
            A + "actor.use_dynamic_bsz": True,
            "critic.ppo_max_token_len_per_gpu": 1000,
        },
    ),
    Beyond(
        "PLACE-006",
        "critic.ulysses_sequence_parallel_size > 1 without remove-padding (V1 trainer)",
        "verl 0.9.1's V1 critic never reads critic.ulysses_sequence_parallel_size (its engine takes "
        "critic.fsdp.ulysses_sequence_parallel_size); the legacy trainer does and needs remove-padding",
        lambda f, v: v.v1 and _paths(f, "critic.ulysses_sequence_parallel_size"),
        {
            "algorithm.adv_estimator": "gae",
            A + "rollout.n": 1,
            "critic.model.path": "Qwen/Qwen3-8B",
            A + "actor.ppo_micro_batch_size_per_gpu": 2,
            "critic.ppo_micro_batch_size_per_gpu": 2,
            "critic.ulysses_sequence_parallel_size": 2,
            "critic.model.use_remove_padding": False,
        },
    ),
    Beyond(
        "PLACE-012",
        "critic.ulysses_sequence_parallel_size not dividing the GPUs (V1 trainer)",
        "verl 0.9.1's V1 critic never reads critic.ulysses_sequence_parallel_size; the legacy trainer builds "
        "its device mesh from it and fails",
        lambda f, v: v.v1 and _paths(f, "critic.ulysses_sequence_parallel_size"),
        {
            "algorithm.adv_estimator": "gae",
            A + "rollout.n": 1,
            A + "model.path": "/models/in-house-7b",
            "critic.model.path": "/models/in-house-7b",
            A + "actor.ppo_micro_batch_size_per_gpu": 2,
            "critic.ppo_micro_batch_size_per_gpu": 2,
            "critic.ulysses_sequence_parallel_size": 3,
        },
    ),
    Beyond(
        "PLACE-005",
        "critic.ulysses_sequence_parallel_size not splitting the critic's heads (V1 trainer)",
        "verl 0.9.1's V1 critic never reads critic.ulysses_sequence_parallel_size; the legacy trainer splits "
        "the heads by it and fails",
        lambda f, v: v.v1 and _paths(f, "critic.ulysses_sequence_parallel_size"),
        {
            "algorithm.adv_estimator": "gae",
            A + "rollout.n": 1,
            A + "model.path": "Qwen/Qwen2.5-0.5B-Instruct",
            "critic.model.path": "Qwen/Qwen2.5-0.5B-Instruct",
            A + "actor.ppo_micro_batch_size_per_gpu": 2,
            "critic.ppo_micro_batch_size_per_gpu": 2,
            "critic.ulysses_sequence_parallel_size": 4,
        },
    ),
    Beyond(
        "PLACE-004",
        "Megatron TP larger than a node",
        "verl and Megatron accept it; tensor parallelism over the inter-node network is slow",
        lambda f, v: v.megatron and v.N % v.mp == 0 and v.tp > v.g,
        {
            "actor_rollout_ref.actor.strategy": "megatron",
            "trainer.nnodes": 2,
            "trainer.n_gpus_per_node": 4,
            A + "actor.megatron.tensor_model_parallel_size": 8,
        },
    ),
)


def beyond_entry(f: Finding, facts: verl_model.Facts) -> Beyond | None:
    """The BEYOND_VERL entry that covers this error, if any."""
    return next((b for b in BEYOND_VERL if b.rule == f.id and b.applies(f, facts)), None)


def disagreements(errors: list[Finding], verl: VerlSide) -> list[str]:
    """Why our errors and verl's verdict disagree on one config; empty when they agree."""
    facts = verl_model.Facts(verl.config)
    shared = [f for f in errors if beyond_entry(f, facts) is None]
    ids = {f.id for f in errors}
    out = []
    if not verl.rejects:
        out += [
            f"we reject with {f.id} ({f.message}), {verl.source} accepts, and BEYOND_VERL does not name it"
            for f in shared
        ]
        return out
    failed = "; ".join(f"{check}: {message}" for check, message in verl.failed)
    if not errors:
        return [f"we accept, {verl.source} rejects ({failed})"]
    if not shared:
        out.append(f"{verl.source} rejects ({failed}); our only errors are beyond verl: {sorted(ids)}")
    for check, message in verl.failed:
        covering = COVERS.get(check, frozenset())
        if not covering & ids:
            out.append(
                f"{verl.source} fails {check} ({message}) and none of {sorted(covering)} is among our errors {sorted(ids)}"
            )
    return out
