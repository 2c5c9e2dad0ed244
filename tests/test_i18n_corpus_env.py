"""Corpus cases over environment reports (see tests/test_i18n_corpus.py): doctor's judgement of recorded probe
reports (tests/core/test_env_rules.py) and preflight's comparison of two nodes, one case per ENV rule."""

from __future__ import annotations

from tests.core.test_env_rules import report, workshop
from wizard.core.rules.env.machine import judge_environment
from wizard.core.rules.env.nodes import node_differences
from wizard.detect.env.doctor import probe_problem
from wizard.detect.env.probe import ProbeOutcome

GIB = 1024**3


def env_case(run_changes: dict, **report_changes):
    def run(tmp):
        return judge_environment(workshop(**run_changes), report(**report_changes))

    return run


def probe_case(problem: str, detail: str):
    return lambda tmp: probe_problem(ProbeOutcome("/opt/venv/bin/python", problem=problem, detail=detail))


ENV_CASES = [
    ("env probe hangs", "ENV-001", probe_case("timeout", "20")),
    (
        "env verl missing",
        "ENV-002",
        env_case({}, verl={"version": None, "location": None, "requires": None, "git": None}),
    ),
    ("env verl other release", "ENV-002", env_case({}, verl__version="0.8.0", packages__verl="0.8.0")),
    ("env torch cpu build", "ENV-003", env_case({}, torch__cuda=None, torch__version="2.13.0+cpu")),
    ("env too few gpus", "ENV-004", env_case({"trainer.n_gpus_per_node": 4})),
    ("env old driver", "ENV-005", env_case({}, nvml__cuda_driver=12080)),
    ("env engine out of range", "ENV-006", env_case({}, packages__vllm="0.11.0")),
    ("env transformers too new", "ENV-007", env_case({}, packages__transformers="5.11.0")),
    ("env flash-attn missing", "ENV-008", env_case({}, **{"packages__flash-attn": None})),
    ("env small shm", "ENV-009", env_case({}, shm_bytes=64 * 1024**2)),
    ("env open files", "ENV-010", env_case({}, open_files=[1024, 4096])),
    ("env disk short", "ENV-011", env_case({}, disk={"path": "/scratch", "free_bytes": 2 * GIB})),
    (
        "env offline download",
        "ENV-012",
        env_case({}, hf__cached={"Qwen/Qwen2.5-0.5B-Instruct": False}, env={"HF_HUB_OFFLINE": "1"}),
    ),
    ("env gpu mask", "ENV-013", env_case({}, env={"CUDA_VISIBLE_DEVICES": "0,1,2"})),
    ("env ray address", "ENV-014", env_case({}, env={"RAY_ADDRESS": "http://10.0.0.1:8265"})),
    ("env nccl interface", "ENV-015", env_case({}, env={"NCCL_SOCKET_IFNAME": "ib7", "NCCL_IB_DISABLE": "1"})),
    (
        "env nodes differ",
        "ENV-016",
        lambda tmp: list(node_differences({"10.0.0.1": report(), "10.0.0.2": report(packages__vllm="0.11.0")})),
    ),
]
