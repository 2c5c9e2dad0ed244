"""The rule catalogue's entries for the environment a run starts in (ENV-*): `verl-wizard doctor` and `preflight`.

Each entry: id, severity, one-line title, the reason it exists. wizard.core.rules.catalogue collects them.
"""

from __future__ import annotations

ENTRIES = [
    (
        "ENV-001",
        "error",
        "The interpreter that runs verl could not be inspected",
        "doctor asks the interpreter itself, in a child process with a deadline; one that hangs, crashes or answers garbage at a few lines of standard library will not start verl either.",
    ),
    (
        "ENV-002",
        "error",
        "verl is not installed, or is another release than the config's",
        "python -m verl.trainer.main_ppo needs verl in the interpreter that runs it; the wizard writes and checks keys of verl 0.9.1, and another release renames or drops some of them (a fork or a checkout is named with its git describe).",
    ),
    (
        "ENV-003",
        "error",
        "torch is missing, or built without CUDA",
        "verl's workers put the models on GPUs through torch; a CPU build (torch's version ends in +cpu, torch.version.cuda is None) makes every worker fail at its first .cuda() after Ray has started them.",
    ),
    (
        "ENV-004",
        "error",
        "No NVIDIA driver or fewer GPUs than the run asks for on this machine",
        "verl asks Ray for trainer.n_gpus_per_node GPUs per node; where NVML finds no driver or fewer GPUs, Ray has none to give and verl stops with 'Total available GPUs 0 is less than total desired GPUs'.",
    ),
    (
        "ENV-005",
        "error",
        "The driver supports an older CUDA than torch was built for",
        "A CUDA build of torch needs a driver whose CUDA version is at least the build's major version (minor-version compatibility covers a newer minor at best with warnings); with an older driver torch.cuda.is_available() is False and the workers fail as on a machine without GPUs.",
    ),
    (
        "ENV-006",
        "error",
        "The rollout engine is missing or outside the range verl declares",
        "verl imports the engine actor_rollout_ref.rollout.name names (vllm, sglang) in its rollout workers, after the models have loaded; verl's own package metadata pins the engine release it was tested with, and another release breaks its server and weight-sync calls.",
    ),
    (
        "ENV-007",
        "error",
        "A package verl requires is missing or outside verl's declared range",
        "verl's metadata states the releases it works with (transformers, ray, tensordict, numpy, ...); a package installed later over it (a newer transformers for another model) breaks imports or model loading after the workers start. The pins of the engine's extra (torch, transformers) are the tested set: outside them is a warning.",
    ),
    (
        "ENV-008",
        "error",
        "An attention or kernel package the config uses is missing",
        "verl's FSDP workers load the model with attn_implementation flash_attention_2 unless override_config says otherwise, which needs flash-attn; use_liger needs liger-kernel; both fail when the model is built, after the Ray workers start.",
    ),
    (
        "ENV-009",
        "warning",
        "/dev/shm is too small",
        "Ray puts its object store in /dev/shm and falls back to slow disk when it is smaller than the store (30% of memory); NCCL uses it for transfers between GPUs of one node, and a container's default 64 MB makes multi-GPU collectives fail.",
    ),
    (
        "ENV-010",
        "warning",
        "The open-files limit is low",
        "Ray and verl's workers hold many sockets and files per process; under a soft limit of 65536 a larger run fails with 'Too many open files' part way.",
    ),
    (
        "ENV-011",
        "error",
        "Too little free disk for a checkpoint under trainer.default_local_dir",
        "verl saves the model, optimizer and extra state every trainer.save_freq steps; a checkpoint that does not fit kills the run at its first save, after the training time it took to get there.",
    ),
    (
        "ENV-012",
        "error",
        "A model that must be downloaded cannot be",
        "A Hugging Face id not in the cache is downloaded into HF_HOME at start; with HF_HUB_OFFLINE or TRANSFORMERS_OFFLINE set, or HF_HOME not writable, the load fails on every worker.",
    ),
    (
        "ENV-013",
        "error",
        "A GPU mask in this shell that does not fit the run",
        "Where verl starts its own Ray, that Ray takes its GPUs from CUDA_VISIBLE_DEVICES: a mask with another count than trainer.n_gpus_per_node leaves verl short of GPUs or GPUs idle; RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES puts every worker on the same devices.",
    ),
    (
        "ENV-014",
        "warning",
        "RAY_ADDRESS in this shell changes where the run starts",
        "With RAY_ADDRESS set, verl's ray.init joins that cluster instead of starting its own on this machine; an http:// (Jobs API) address there makes ray.init fail.",
    ),
    (
        "ENV-015",
        "error",
        "An NCCL or Gloo setting that does not fit this machine",
        "NCCL_SOCKET_IFNAME or GLOO_SOCKET_IFNAME naming no interface here makes the first collective hang or fail; NCCL_P2P_DISABLE, NCCL_SHM_DISABLE or NCCL_IB_DISABLE force slow paths that cost a large share of the step time.",
    ),
    (
        "ENV-016",
        "error",
        "The nodes of the cluster differ",
        "Ray runs verl's workers with each node's own interpreter and driver; a package release that differs between nodes (verl, torch, the engine, ray) or a node without the engine fails only on the workers placed there, often late in start-up.",
    ),
]
