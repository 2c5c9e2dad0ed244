"""Shared helpers: build answers from verl keys on top of a known-good base and run the rules; the collector's
thresholds of the test processes; the fuzz tally's summary line, from one process or from every pytest-xdist worker."""

from __future__ import annotations

import gc

import pytest

from tests.fuzz import tally
from wizard.core.layers import build
from wizard.core.rules import context_for, evaluate
from wizard.detect.paths import inspect_paths

# GRPO on 1 node x 8 GPUs with fixed micro-batches: every rule passes on it.
BASE = {
    "algorithm.adv_estimator": "grpo",
    "actor_rollout_ref.model.path": "Qwen/Qwen3-8B",
    "actor_rollout_ref.rollout.name": "vllm",
    "data.train_files": "/data/gsm8k/train.parquet",
    "data.val_files": "/data/gsm8k/test.parquet",
    "data.train_batch_size": 64,
    "actor_rollout_ref.rollout.n": 4,
    "actor_rollout_ref.actor.ppo_mini_batch_size": 16,
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 4,
    "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu": 8,
    "trainer.n_gpus_per_node": 8,
    "trainer.nnodes": 1,
}


def findings_for(overrides: dict | None = None, base: dict | None = None, **ctx_kwargs):
    values = dict(BASE if base is None else base)
    for key, value in (overrides or {}).items():
        if value is None:
            values.pop(key, None)
        else:
            values[key] = value
    layered = build([("test", values)])
    ctx_kwargs.setdefault("mode", "cluster")
    # What this machine says about the paths (exists, ~), as every door gathers it (wizard.detect.facts).
    ctx_kwargs.setdefault("paths", inspect_paths(layered.answers, ctx_kwargs["mode"])["paths"])
    return evaluate(context_for(layered.answers, layered.flat, **ctx_kwargs))


def ids(overrides: dict | None = None, base: dict | None = None, **kw) -> set[str]:
    return {f.id for f in findings_for(overrides, base, **kw) if f.severity.value in ("error", "warning")}


@pytest.fixture
def rule_ids():
    return ids


def pytest_configure(config):
    # The wizard itself runs with these thresholds once it has painted (wizard/tui/app.py); with Python's default
    # (700, 10, 10) the collector walked Textual's widget heap again and again: half of a Pilot test's CPU time.
    gc.set_threshold(10_000, 50, 100)


def pytest_sessionfinish(session):
    workeroutput = getattr(session.config, "workeroutput", None)
    if workeroutput is not None:  # a pytest-xdist worker: the controller prints the summary
        workeroutput["fuzz_tally"] = (dict(tally.COUNTS), list(tally.SLOWEST))


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """pytest-xdist's controller: a worker has finished; add its fuzz tally."""
    counts, slowest = getattr(node, "workeroutput", {}).get("fuzz_tally", ({}, [0.0, ""]))
    tally.merge(counts, slowest)


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if tally.COUNTS:
        total = sum(tally.COUNTS.values())
        parts = ", ".join(f"{name} {count}" for name, count in sorted(tally.COUNTS.items()))
        terminalreporter.write_line(
            f"fuzz: {total} inputs ({parts}); slowest {tally.SLOWEST[0]:.2f} s ({tally.SLOWEST[1]})"
        )
