"""The rule catalogue's entries for device mapping (PLACE-*): each rule's id, severity, one-line title and the
reason it exists, in id order. wizard.core.rules.catalogue collects them into CATALOGUE.
"""

from __future__ import annotations

ENTRIES = [
    (
        "PLACE-001",
        "error",
        "GPU count not divisible by rollout tensor parallelism",
        "Each inference replica takes TP GPUs; verl asserts the rollout world size is a multiple of TP.",
    ),
    (
        "PLACE-002",
        "error",
        "Rollout tensor-parallel group larger than a node, not of whole nodes",
        "verl's rollout replica asserts at start-up that a replica wider than a node is made of whole nodes (its world size a multiple of n_gpus_per_node).",
    ),
    (
        "PLACE-003",
        "warning",
        "A tensor-parallel group crosses a weak link",
        "TP traffic over NODE/SYS paths is several times slower than over NVLink or one PCIe switch.",
    ),
    (
        "PLACE-004",
        "error",
        "Megatron parallel sizes do not fit the GPUs",
        "verl asserts that the GPU count is divisible by TP·PP·CP; a Megatron TP group must also stay inside a node.",
    ),
    (
        "PLACE-005",
        "error",
        "Attention heads not divisible by TP or SP",
        "vLLM/SGLang split the attention heads over rollout TP and refuse an uneven split; KV heads must divide TP or be divisible by it. verl's Ulysses asserts the same for sp (KV heads are repeated when sp is a multiple of them), and Megatron for its TP.",
    ),
    (
        "PLACE-006",
        "error",
        "Sequence parallelism without remove-padding",
        "verl's Ulysses implementation works on packed sequences and refuses sp > 1 without use_remove_padding.",
    ),
    (
        "PLACE-007",
        "error",
        "The plan needs more GPUs than the target has",
        "verl checks the Ray cluster for the sum of all pools and stops with 'Total available GPUs X is less than total desired GPUs Y'.",
    ),
    (
        "PLACE-008",
        "error",
        "Estimated memory per GPU exceeds the GPU (warning over 90%)",
        "The run would stop with CUDA out of memory (or vLLM would refuse to start) after the queue and the model loading; each phase's parts are estimated from the model's numbers and compared with the GPU from the topology.",
    ),
    (
        "PLACE-009",
        "error",
        "Split pools that verl refuses",
        "Standalone rollout and reward pools need positive sizes, separate_async needs a non-naive weight sync, and hybrid_engine=false only works with separate_async.",
    ),
    (
        "PLACE-010",
        "warning",
        "n_gpus_per_node differs from the detected GPUs",
        "Planning for another GPU count than the machine has leaves GPUs idle or asks for GPUs that are not there.",
    ),
    (
        "PLACE-011",
        "warning",
        "Multi-node plan without an RDMA NIC near the GPUs",
        "Data-parallel gradients between nodes then travel over plain TCP and the step time is dominated by communication.",
    ),
    (
        "PLACE-012",
        "error",
        "Ulysses sequence parallelism does not divide the GPU count",
        "The data-parallel size is GPUs / sp; an uneven split leaves no valid device mesh.",
    ),
    (
        "PLACE-013",
        "error",
        "A rollout parallel layout verl refuses",
        "verl asserts rollout expert parallelism = TP × DP when EP > 1, and rollout pipeline parallelism is not implemented.",
    ),
    (
        "PLACE-014",
        "warning",
        "Rollout tensor-parallel group across whole nodes",
        "verl runs a rollout replica over several whole nodes, but a TP group that spans nodes all-reduces every layer over the network: generation is much slower than with TP inside a node.",
    ),
]
