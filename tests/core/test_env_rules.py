"""ENV-*: doctor's judgement of an environment report against a run, on recorded reports (pure, no subprocess).

The reports have the probe's shape (wizard/detect/env/env_probe_script.py). The GPU host's NVML facts are those an
NVIDIA H200 host answered (driver 580.159.04, CUDA 13.0, 150,754,820,096 bytes), recorded by hand here; the CPU
laptop is what the conformance environment's probe reports (verl 0.9.1, torch 2.13.0+cpu, no engine).
Each check has a failing case and its passing neighbour.
"""

from __future__ import annotations

import copy

import pytest

from wizard.core.layers import build
from wizard.core.presets import load_preset
from wizard.core.rules.env.machine import judge_environment
from wizard.core.rules.env.nodes import node_differences
from wizard.core.rules.env.packages import Run
from wizard.i18n.text import render

VERL_REQUIRES = [
    "ray[default]>=2.41.0",
    "tensordict!=0.9.0,<=0.10.0,>=0.8.0",
    "transformers!=5.6.0,<5.11,>=5.5.3",
    "numpy>=2.0.0",
    'vllm==0.24.0; extra == "vllm"',
    'torch==2.11.0; extra == "vllm"',
    'transformers==5.9.0; extra == "vllm"',
    'sglang==0.5.12; extra == "sglang"',
]
INSTALL = 'pip install "verl[vllm,fsdp]==0.9.1"'
GIB = 1024**3

H200_HOST = {
    "schema": 1,
    "host": "gpu-01",
    "python": {"executable": "/opt/venv/bin/python", "version": "3.12.3"},
    "packages": {
        "verl": "0.9.1",
        "torch": "2.11.0",
        "vllm": "0.24.0",
        "transformers": "5.9.0",
        "ray": "2.60.0",
        "tensordict": "0.10.0",
        "numpy": "2.2.6",
        "flash-attn": "2.8.3",
    },
    "verl": {"version": "0.9.1", "location": "/opt/venv/lib/python3.12/site-packages/verl", "requires": VERL_REQUIRES},
    "torch": {"version": "2.11.0", "cuda": "13.0", "hip": None},
    "nvml": {
        "ok": True,
        "driver": "580.159.04",
        "cuda_driver": 13000,
        "gpus": [{"name": "NVIDIA H200", "memory_bytes": 150754820096}],
    },
    "shm_bytes": 200 * GIB,
    "memory_bytes": 600 * GIB,
    "open_files": [1048576, 1048576],
    "disk": {"path": "/scratch", "free_bytes": 5000 * GIB},
    "hf": {"home": "/root/.cache/huggingface", "writable": True, "cached": {}},
    "env": {},
    "interfaces": ["eth0", "ib0", "lo"],
}


def workshop(**changes) -> Run:
    flat = {**load_preset("workshop-grpo-0.5b-1gpu").values, **changes}
    layered = build([("preset", flat)])
    return Run(layered.answers, layered.flat, INSTALL, str(layered.answers.deploy.target))


def report(**changes) -> dict:
    out = copy.deepcopy(H200_HOST)
    for dotted, value in changes.items():
        node = out
        *parents, last = dotted.split("__")
        for name in parents:
            node = node[name]
        node[last] = value
    return out


def ids(run: Run, rep: dict) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for f in judge_environment(run, rep):
        found.setdefault(f.id, []).append(f"{f.severity.value}: {render(f.message)}")
    return found


def test_a_complete_gpu_host_passes():
    assert ids(workshop(), report()) == {}


def test_a_cpu_build_of_torch_is_an_error_and_a_cuda_build_is_not():
    found = ids(workshop(), report(torch__cuda=None, torch__version="2.13.0+cpu"))
    assert found["ENV-003"] == [
        "error: torch 2.13.0+cpu is a CPU build (no CUDA): every worker fails at its first .cuda()"
    ]


def test_a_driver_older_than_torchs_cuda_major_is_an_error_a_minor_a_warning():
    assert ids(workshop(), report(nvml__cuda_driver=12080))["ENV-005"][0].startswith(
        "error: torch was built for CUDA 13.0 but the driver (580.159.04) supports CUDA 12.8"
    )
    minor = ids(workshop(), report(torch__cuda="12.8", nvml__cuda_driver=12040))["ENV-005"]
    assert minor[0].startswith("warning: torch was built for CUDA 12.8")
    assert "ENV-005" not in ids(workshop(), report(torch__cuda="12.8"))  # a 13.0 driver runs a 12.8 build


def test_no_driver_or_too_few_gpus_is_an_error():
    no_driver = report(nvml={"ok": False, "error": "libnvidia-ml.so.1: cannot open shared object file"})
    assert "no NVIDIA driver answers here" in ids(workshop(), no_driver)["ENV-004"][0]
    two = workshop(**{"trainer.n_gpus_per_node": 2})
    assert ids(two, report())["ENV-004"] == [
        "error: NVML sees 1 GPU(s) here and the run asks for 2 per node (trainer.n_gpus_per_node)"
    ]


def test_the_engine_missing_or_outside_verls_pin_names_the_range_and_the_install_line():
    missing = judge_environment(workshop(), report(packages__vllm=None))
    engine = [f for f in missing if f.id == "ENV-006"]
    assert engine and render(engine[0].fixes[0].label) == f"run: {INSTALL}"
    old = ids(workshop(), report(packages__vllm="0.1.0"))["ENV-006"]
    assert old == ["error: vllm 0.1.0 is installed; verl 0.9.1 declares vllm==0.24.0"]
    assert "ENV-006" not in ids(workshop(), report(packages__vllm="0.24.0"))
    sglang = workshop(**{"actor_rollout_ref.rollout.name": "sglang"})
    assert "sglang is not installed" not in str(ids(sglang, report(packages__sglang="0.5.12")))
    assert "the rollout engine sglang" in ids(sglang, report())["ENV-006"][0]


def test_without_verl_the_engine_range_comes_from_the_snapshot_of_091():
    no_verl = report(verl={"version": None, "location": None, "requires": None, "git": None}, packages__vllm="0.9.0")
    found = ids(workshop(), no_verl)
    assert found["ENV-006"] == ["error: vllm 0.9.0 is installed; verl 0.9.1 declares vllm==0.24.0"]
    assert found["ENV-002"][0].startswith("error: verl is not installed for /opt/venv/bin/python")


def test_a_requirement_outside_verls_range_is_an_error_and_an_extra_pin_a_warning():
    newer = ids(workshop(), report(packages__transformers="5.11.0"))["ENV-007"]
    assert "error: transformers 5.11.0 is installed; verl requires transformers!=5.6.0,<5.11,>=5.5.3" in newer
    pinned = ids(workshop(), report(packages__transformers="5.10.4"))["ENV-007"]
    assert pinned == ["warning: transformers 5.10.4 is installed; verl's vllm extra is tested with transformers==5.9.0"]
    assert "ENV-007" not in ids(workshop(), report())
    assert ids(workshop(), report(packages__ray=None))["ENV-007"][0].startswith("error: ray is not installed")


def test_flash_attn_is_needed_for_the_default_attention_and_not_for_sdpa():
    found = judge_environment(workshop(), report(**{"packages__flash-attn": None}))
    flash = [f for f in found if f.id == "ENV-008"]
    assert flash and flash[0].fixes[0].set == {"actor_rollout_ref.model.override_config.attn_implementation": "sdpa"}
    sdpa = workshop(**{"actor_rollout_ref.model.override_config.attn_implementation": "sdpa"})
    assert "ENV-008" not in ids(sdpa, report(**{"packages__flash-attn": None}))
    liger = workshop(**{"actor_rollout_ref.model.use_liger": True})
    assert "liger-kernel is not installed" in ids(liger, report())["ENV-008"][0]


def test_shared_memory_too_small_for_nccl_is_an_error_and_for_the_object_store_a_warning():
    eight = workshop(**{"trainer.n_gpus_per_node": 8})
    eight_gpus = report(nvml__gpus=[{"name": "NVIDIA H200", "memory_bytes": 150754820096}] * 8)
    assert ids(eight, report(shm_bytes=64 * 1024**2, **{"nvml__gpus": eight_gpus["nvml"]["gpus"]}))["ENV-009"][
        0
    ].startswith("error: /dev/shm has 0.1 GiB free")
    one_gpu = ids(workshop(), report(shm_bytes=64 * 1024**2))["ENV-009"]
    assert one_gpu[0].startswith("warning: /dev/shm has 0.1 GiB free, less than Ray's object store (180.0 GiB)")
    assert "ENV-009" not in ids(workshop(), report(shm_bytes=190 * GIB))


def test_a_low_open_files_limit_gets_the_fix_that_works():
    soft = judge_environment(workshop(), report(open_files=[1024, 1048576]))
    assert render(next(f for f in soft if f.id == "ENV-010").fixes[0].label) == "run: ulimit -n 65536"
    hard = judge_environment(workshop(), report(open_files=[1024, 4096]))
    assert "raise the hard limit to 65536" in render(next(f for f in hard if f.id == "ENV-010").fixes[0].label)
    assert "ENV-010" not in ids(workshop(), report(open_files=[65536, 65536]))


def test_disk_for_a_checkpoint_of_a_known_model():
    short = ids(workshop(), report(disk={"path": "/scratch", "free_bytes": 2 * GIB}))["ENV-011"][0]
    assert short.startswith("error: 2.0 GiB free under /scratch; one checkpoint of Qwen/Qwen2.5-0.5B-Instruct takes")
    assert "ENV-011" not in ids(workshop(), report(disk={"path": "/scratch", "free_bytes": 20 * GIB}))


def test_a_model_that_must_be_downloaded_offline_or_into_a_read_only_cache():
    model = "Qwen/Qwen2.5-0.5B-Instruct"
    offline = report(hf__cached={model: False}, env={"HF_HUB_OFFLINE": "1"})
    assert ids(workshop(), offline)["ENV-012"] == [
        f"error: {model} is not in the Hugging Face cache and HF_HUB_OFFLINE forbid(s) downloading it"
    ]
    assert "ENV-012" not in ids(workshop(), report(hf__cached={model: True}, env={"HF_HUB_OFFLINE": "1"}))
    assert "ENV-012" not in ids(workshop(), report(hf__cached={model: False}))
    read_only = report(hf__cached={model: False}, hf__writable=False)
    assert "is not writable" in ids(workshop(), read_only)["ENV-012"][0]


def test_a_gpu_mask_that_does_not_fit_a_local_run():
    found = judge_environment(workshop(), report(env={"CUDA_VISIBLE_DEVICES": "0,1"}))
    mask = [f for f in found if f.id == "ENV-013"]
    assert mask and mask[0].fixes[0].set == {"trainer.n_gpus_per_node": 2}
    assert "ENV-013" not in ids(workshop(), report(env={"CUDA_VISIBLE_DEVICES": "3"}))
    slurm = workshop(**{"deploy.target": "slurm"})
    assert "ENV-013" not in ids(slurm, report(env={"CUDA_VISIBLE_DEVICES": "0,1"}))
    noset = report(env={"RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES": "1"})
    assert ids(workshop(), noset)["ENV-013"] == [
        "error: RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES is set: Ray stops giving each worker its own GPU"
    ]


def test_ray_address_in_the_shell_of_a_local_run():
    jobs = ids(workshop(), report(env={"RAY_ADDRESS": "http://10.0.0.1:8265"}))["ENV-014"][0]
    assert jobs.startswith("error: RAY_ADDRESS=http://10.0.0.1:8265 is the Jobs API address")
    assert ids(workshop(), report(env={"RAY_ADDRESS": "10.0.0.1:6379"}))["ENV-014"][0].startswith("warning:")
    assert "ENV-014" not in ids(workshop(), report())


@pytest.mark.parametrize(
    ("value", "fails"),
    [("ib1", True), ("ib", False), ("eth0,ib0", False), ("=eth", True), ("=eth0", False), ("^docker", False)],
)
def test_nccl_socket_ifname_is_matched_as_nccl_matches_it(value, fails):
    found = ids(workshop(), report(env={"NCCL_SOCKET_IFNAME": value}))
    assert ("ENV-015" in found) is fails


def test_nccl_slow_paths_are_warnings():
    assert ids(workshop(), report(env={"NCCL_P2P_DISABLE": "1"}))["ENV-015"] == [
        "warning: NCCL_P2P_DISABLE=1 forces a slower transport"
    ]
    assert "ENV-015" not in ids(workshop(), report(env={"NCCL_P2P_DISABLE": "0"}))


def test_another_target_says_where_doctor_must_run():
    slurm = ids(workshop(**{"deploy.target": "slurm"}), report())
    assert slurm == {
        "ENV-004": [
            "info: Slurm: the job runs on the compute nodes; run doctor there (srun --gres=gpu:1 verl-wizard doctor config.yaml)"
        ]
    }


def test_what_differs_between_nodes():
    same = {"a": report(), "b": report()}
    assert list(node_differences(same)) == []
    planted = {"10.0.0.1 (aa)": report(), "10.0.0.2 (bb)": report(packages__vllm=None)}
    found = list(node_differences(planted))
    assert [render(f.message) for f in found] == [
        "vllm differs between nodes: - on 10.0.0.2 (bb); 0.24.0 on 10.0.0.1 (aa)"
    ]
    assert found[0].severity.value == "error"
    driver = list(node_differences({"a": report(), "b": report(nvml__driver="570.86.15")}))
    assert [f.severity.value for f in driver] == ["warning"]
