"""Hardware comes before the numbers that depend on it (issue 32): every answer the data-parallel size is made of
(wizard.core.plan: N = nnodes x GPUs per node, divided by sp or by Megatron's tp x pp x cp) is asked on a step
before Batch, whose numbers are divided by it. Before, Batch came first and a 1-GPU newcomer read "dp 8"
(verl's 8 GPUs by default) until step 5."""

from __future__ import annotations

from wizard.core.field_keys import spec_of
from wizard.core.step_names import FIELD_STEPS, STEPS

DP_FROM = [
    "cluster.nnodes",
    "cluster.n_gpus_per_node",
    "engine.strategy",
    "engine.ulysses_sp",
    "engine.megatron_tp",
    "engine.megatron_pp",
    "engine.megatron_cp",
]


def test_every_answer_dp_is_made_of_is_asked_before_batch():
    for name in DP_FROM:
        spec = spec_of(name)
        assert spec is not None and spec.step is not None, name
        assert STEPS.index(spec.step) < STEPS.index("batch"), (name, spec.step, STEPS)


def test_the_batch_numbers_themselves_are_asked_on_batch():
    # the neighbour: the numbers divided by dp are not moved before the GPUs they are divided over
    for name in ["batch.train_batch_size", "batch.ppo_mini_batch_size", "batch.rollout_n"]:
        spec = spec_of(name)
        assert spec is not None and spec.step == "batch", name
    assert set(FIELD_STEPS) == {"models", "data", "hardware", "batch", "deployment"}
