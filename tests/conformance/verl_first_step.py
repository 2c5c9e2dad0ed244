"""verl 0.9.1's own micro-batch split of one GPU's share, the assertion its first training step makes.

Runs under the python of the conformance environment (verl installed), never the project's own::

    python verl_first_step.py '[[ROWS, MICRO], ...]'

For each pair it gives verl's `prepare_micro_batches` (verl/workers/engine/utils.py, what every engine's
forward_backward_batch calls first) a batch of ROWS rows with `micro_batch_size_per_gpu` MICRO and no dynamic
batching, as the actor's update hands it one GPU's share of a mini-batch. Prints one JSON list: per pair
{"ok": true, "micro_batches": [sizes]} or {"ok": false, "error": verl's assertion text}.
"""

from __future__ import annotations

import json
import sys

import torch
import verl.utils.tensordict_utils as tu
from tensordict import TensorDict
from verl.workers.engine.utils import prepare_micro_batches


def split(rows: int, micro: int) -> dict:
    """verl's split of `rows` rows into micro-batches of `micro`, or its assertion."""
    batch = TensorDict({"input_ids": torch.zeros(rows, 1)}, batch_size=[rows])
    tu.assign_non_tensor(batch, use_dynamic_bsz=False, micro_batch_size_per_gpu=micro)
    try:
        micro_batches, _ = prepare_micro_batches(batch)
    except AssertionError as exc:
        return {"ok": False, "error": str(exc)}
    return {"ok": True, "micro_batches": [len(part) for part in micro_batches]}


if __name__ == "__main__":
    print(json.dumps([split(rows, micro) for rows, micro in json.loads(sys.argv[1])]))
