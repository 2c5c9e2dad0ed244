"""The rule catalogue's entries for the environment and cluster (DEPLOY-*): each rule's id, severity, one-line title and the
reason it exists, in id order. wizard.core.rules.catalogue collects them into CATALOGUE.
"""

from __future__ import annotations

ENTRIES = [
    (
        "DEPLOY-001",
        "error",
        "CUDA_VISIBLE_DEVICES (or RAY_EXPERIMENTAL_NOSET_CUDA_VISIBLE_DEVICES) set by hand",
        "Ray fixes a node's GPUs at ray start and sets CUDA_VISIBLE_DEVICES per worker itself; a hand-set mask in a runtime env, a manifest or on a cluster's nodes changes nothing Ray schedules (verl then stops with 'Total available GPUs X is less than total desired GPUs Y'), and NOSET puts every worker on the same devices. Where verl starts its own Ray on one machine, that Ray takes its GPUs from the mask: there only its count has to be trainer.n_gpus_per_node.",
    ),
    (
        "DEPLOY-002",
        "error",
        "A Ray address of the wrong form for its use",
        "http://HEAD:8265 is the Jobs API (ray job submit only); ray.init and ray start need the GCS address HEAD:6379 (or auto), and ray.init fails on an http:// RAY_ADDRESS; ray:// is Ray Client, not a driver on the cluster.",
    ),
    (
        "DEPLOY-003",
        "warning",
        "RAY_DEDUP_LOGS=0 on a multi-node target",
        "With deduplication off every rank's identical lines reach the driver: a log storm that hides the one line that matters.",
    ),
    (
        "DEPLOY-004",
        "error",
        "Manifest GPUs or nodes differ from the config",
        "verl asks Ray for trainer.nnodes placement groups of trainer.n_gpus_per_node GPUs, each on one node; a manifest with other counts leaves GPUs idle or waits forever for GPUs that never come.",
    ),
    (
        "DEPLOY-005",
        "error",
        "Too few CPUs per GPU",
        "verl reserves {CPU: 3, GPU: 1} per GPU in placement groups packed onto one node; verl 0.9.1's V1 trainer first starts TransferQueue, whose controller and storage units (8, pinned round-robin to every Ray node) hold a CPU each for the whole run; and Ray places an actor without num_cpus (the TaskRunner, the rollout servers) only where a CPU is free. With fewer logical CPUs something never gets placed and training hangs without an error. Ray's logical CPUs are what ray start --num-cpus or ray_kwargs.ray_init.num_cpus gives, else the node's CPU count (or a container's cgroup quota): Slurm's --cpus-per-task does not set them.",
    ),
    (
        "DEPLOY-006",
        "error",
        "A secret value written inline",
        "Tokens and API keys written into a manifest, a script or the answers end up in version control, kubectl output and Ray's job table; read them from a Secret (secretKeyRef) or the launching environment.",
    ),
    (
        "DEPLOY-007",
        "error",
        "An invalid Kubernetes name",
        "The API server refuses names that are not DNS labels; KubeRay also refuses RayJob names over 47 characters and RayCluster names over 53 (it derives pod and service names from them).",
    ),
    (
        "DEPLOY-008",
        "error",
        "ray_kwargs.ray_init.num_cpus set while joining a cluster",
        "ray.init raises 'When connecting to an existing cluster, num_cpus and num_gpus must not be provided'; the setting only applies when verl starts its own Ray instance.",
    ),
    (
        "DEPLOY-009",
        "warning",
        "Multi-node without NCCL/GLOO interface settings",
        "On hosts with several network interfaces NCCL and Gloo may bind one the other nodes cannot reach: the first collective hangs until the watchdog timeout (30 minutes).",
    ),
    (
        "DEPLOY-010",
        "error",
        "A RayJob entrypoint that chains commands",
        "KubeRay splices the entrypoint unquoted into `ray job submit ... -- <entrypoint>` in the submitter pod, so the part after ;, && or | runs there, not on the cluster.",
    ),
    (
        "DEPLOY-011",
        "warning",
        "No shared memory volume (/dev/shm)",
        "A plain Pod or Job gets 64 MiB of /dev/shm; NCCL and data loaders need more and fail with 'No space left on device' (KubeRay adds the volume itself).",
    ),
    (
        "DEPLOY-012",
        "error",
        "Ray token authentication differs between head, workers and driver",
        "Ray 2.5x token authentication (on whenever a token exists where ray start --head runs) refuses every process whose RAY_AUTH_MODE or token differs from the head's; the driver or worker retries and fails after a long wait with only 'Failed to connect'.",
    ),
    (
        "DEPLOY-013",
        "error",
        "The Ray cluster does not answer at the address",
        "Nothing listens there, or it is not a Ray GCS: ray.init on such an address blocks for a long time and then fails.",
    ),
    (
        "DEPLOY-014",
        "warning",
        "An image reference Kubernetes cannot pull",
        "An image name with spaces, quotes or upper-case repository letters is refused by the kubelet (InvalidImageName) and the pods never start.",
    ),
    (
        "DEPLOY-015",
        "warning",
        "Local paths the pods cannot see",
        "A Kubernetes pod sees its image and its volumes only: a data file or model folder at a local path that no volume mounts does not exist there, and verl fails when it opens it, after the cluster has started.",
    ),
    (
        "DEPLOY-016",
        "warning",
        "Logging to wandb without WANDB_API_KEY set",
        "verl's wandb logger needs WANDB_API_KEY where the trainer starts; without it run.sh stops before the run (and a run that skips the check fails at start-up), so a first run that only needs to train should log to the console.",
        "machine",  # the key of the wizard's own environment; RUN.md says how to set it where the run starts
    ),
    (
        "DEPLOY-017",
        "warning",
        "More nodes than run.sh alone starts",
        "With target local, run.sh starts verl on this machine; without RAY_ADDRESS verl starts its own Ray there, of one node, asks it for trainer.nnodes x n_gpus_per_node GPUs and stops at start-up with 'Total available GPUs X is less than total desired GPUs Y'. The nodes must first form a Ray cluster (ray start on each, as RUN.md says) with run.sh started on its head, or a target must start them: Slurm and KubeRay start a cluster of that many nodes; ray-job submits to one that is running.",
    ),
]
