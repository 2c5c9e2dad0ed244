"""The answers of the Deployment step: the target and what each target reads (image, names, volumes, Slurm and
Kubernetes settings, environment and secrets). Each field's docstring is its help."""

from __future__ import annotations

import re
from typing import Annotated, Any

from pydantic import Field, field_validator

from wizard.core.answers.section import (
    K8S_JOB,
    KUBE,
    KUBERAY,
    LOCAL_SLURM,
    RAYJOB,
    REMOTE,
    SLURM,
    Section,
)
from wizard.core.choices import (
    AuthMode,
    Target,
)
from wizard.core.fields import (
    Spec,
)

ENV_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"
# NCCL_SOCKET_IFNAME syntax: an optional ^ (exclude) or = (exact), then interface names or prefixes.
IFNAME = r"^[\^=]?[A-Za-z0-9_.:@-]+(,[A-Za-z0-9_.:@-]+)*$"
SLURM_WORD = r"^[A-Za-z0-9_.,:+-]+$"
# A PersistentVolumeClaim's name (a DNS subdomain) or an absolute host folder.
DATA_VOLUME = r"^(/[^\x00\n]*|[a-z0-9]([-a-z0-9.]*[a-z0-9])?)$"
# A Kubernetes Secret's name (a DNS subdomain): a token given where the name belongs is refused.
SECRET_NAME = r"^[a-z0-9]([-a-z0-9.]*[a-z0-9])?$"


def _as_list(value: Any) -> Any:
    """A single string where a list is expected (the TUI's one-item list, --set A=1) becomes a list."""
    return [value] if isinstance(value, str) else value


class Deploy(Section):
    target: Annotated[str, Spec(step="deployment", row=1, choices=Target, title="Run on")] = Field(Target.LOCAL.value)
    """Where the run starts: local, ray-job, kuberay-job, kuberay-cluster, slurm or k8s-job."""
    name: Annotated[str | None, Spec(step="deployment", row=2, when=KUBE, title="Job name")] = Field(
        None, max_length=253
    )
    """Name of the Kubernetes objects and the Slurm job; unset: made from trainer.experiment_name as a DNS label."""
    namespace: Annotated[str | None, Spec(step="deployment", row=3, when=KUBE, title="Namespace")] = Field(
        None, max_length=253
    )
    """Kubernetes namespace of the objects; unset: the namespace of your kubectl context."""
    image: Annotated[str, Spec(step="deployment", row=4, when=KUBE, title="Container image")] = Field(
        "verlai/verl:vllm024.dev2", min_length=1, max_length=512
    )
    """Container image of every Ray pod (KubeRay) or of the Job. It must hold verl 0.9.1, its engine (vLLM or
    SGLang) and the Ray version below; the verlai/verl images hold the dependencies, add verl itself."""
    ray_version: Annotated[str, Spec(step="deployment", row=5, when=KUBERAY, title="Ray version")] = Field(
        "2.60.0", pattern=r"^\d+\.\d+(\.\d+)?$"
    )
    """Ray version inside the image (KubeRay's rayVersion); token authentication needs 2.52 or newer."""
    gpu_head: Annotated[bool, Spec(step="deployment", row=6, when=KUBERAY, title="GPUs on the head pod")] = True
    """The Ray head is a GPU node and counts as one of trainer.nnodes; false adds a CPU-only head."""
    cpus_per_gpu: Annotated[int, Spec(step="deployment", row=7, unit="CPUs", when=KUBE, title="CPUs per GPU")] = Field(
        4, ge=1, le=1024
    )
    """CPUs per GPU on every GPU node. verl reserves 3 CPUs per GPU and its driver task one more."""
    memory_per_gpu_gib: Annotated[
        int, Spec(step="deployment", row=8, unit="GiB", when=KUBE, title="Memory per GPU (GiB)")
    ] = Field(64, ge=1, le=1 << 16)
    """Memory (GiB) per GPU on every GPU node: model loading, offloading and data loaders live here."""
    head_cpus: Annotated[int, Spec(step="deployment", row=9, unit="CPUs", when=KUBERAY, title="Head CPUs")] = Field(
        8, ge=1, le=1 << 16
    )
    """CPUs of a CPU-only head (gpu_head false)."""
    head_memory_gib: Annotated[
        int, Spec(step="deployment", row=10, unit="GiB", when=KUBERAY, title="Head memory (GiB)")
    ] = Field(32, ge=1, le=1 << 16)
    """Memory (GiB) of a CPU-only head (gpu_head false)."""
    # KubeRay gives its Ray pods a /dev/shm volume itself: only a plain Job needs the answer.
    shm_gib: Annotated[int, Spec(step="deployment", row=11, unit="GiB", when=K8S_JOB, title="Shared memory (GiB)")] = (
        Field(64, ge=0, le=1 << 16)
    )
    """Size (GiB) of the /dev/shm memory volume of a plain Kubernetes Job; 0 leaves the 64 MiB default."""
    gpu_toleration: Annotated[bool, Spec(step="deployment", row=12, when=KUBE, title="GPU toleration")] = False
    """Add the toleration nvidia.com/gpu:NoSchedule that tainted GPU nodes need."""
    node_selector: Annotated[list[str], Spec(step="deployment", row=13, when=KUBE, title="Node selector")] = Field(
        default_factory=list, max_length=64
    )
    """Node labels a GPU pod must match, as key=value (nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3)."""
    ray_address: Annotated[str | None, Spec(step="deployment", row=14, when=RAYJOB, title="Ray address")] = Field(
        None, max_length=512
    )
    """ray-job: the cluster's Jobs API, http://HEAD:8265 (unset: http://127.0.0.1:8265)."""
    nccl_socket_ifname: Annotated[
        str | None, Spec(step="deployment", row=15, when=REMOTE, title="NCCL network interface")
    ] = Field(None, max_length=256, pattern=IFNAME)
    """NCCL_SOCKET_IFNAME on every node (eth0, =bond0, ^lo,docker): the interface between nodes."""
    gloo_socket_ifname: Annotated[
        str | None, Spec(step="deployment", row=16, when=REMOTE, title="Gloo network interface")
    ] = Field(None, max_length=256, pattern=IFNAME)
    """GLOO_SOCKET_IFNAME on every node: the interface torch's CPU collectives use between nodes."""
    env: Annotated[list[str], Spec(step="deployment", row=17, when=REMOTE, title="Environment variables")] = Field(
        default_factory=list, max_length=256
    )
    """Other environment variables for every node, as NAME=value (no secrets: see secret_env)."""
    secret_env: Annotated[list[str], Spec(step="deployment", row=18, when=REMOTE, title="Secret variables")] = Field(
        default_factory=list, max_length=64
    )
    """Names of secret environment variables (HF_TOKEN, ...); WANDB_API_KEY is added when logging to wandb.
    Kubernetes reads them from the Secret k8s_secret; the scripts take them from your environment."""
    k8s_secret: Annotated[str, Spec(step="deployment", row=19, when=KUBE, title="Kubernetes secret")] = Field(
        "verl-secrets", min_length=1, max_length=253
    )
    """The Kubernetes Secret that holds secret_env, one key per variable name."""
    auth_mode: Annotated[str, Spec(step="deployment", row=20, choices=AuthMode, when=REMOTE, title="Ray auth mode")] = (
        Field("token")
    )
    """Ray token authentication: token (one shared token for head, workers and driver) or disabled."""
    auth_secret: Annotated[str | None, Spec(step="deployment", row=21, when=KUBERAY, title="Ray auth secret")] = Field(
        None, max_length=253, pattern=SECRET_NAME
    )
    """KubeRay: a Secret of yours with the Ray token (key auth_token); unset: KubeRay makes one."""
    ttl_seconds: Annotated[
        int, Spec(step="deployment", row=22, unit="s", when=KUBERAY, title="Keep finished job (s)")
    ] = Field(3600, ge=0, le=1 << 30)
    """Seconds a finished RayJob's cluster or Job is kept for its logs before it is deleted."""
    excludes: Annotated[list[str], Spec(step="deployment", row=23, when=RAYJOB, title="Upload excludes")] = Field(
        default_factory=lambda: [".git", "__pycache__"], max_length=256
    )
    """ray-job: files of the working folder that are not uploaded to the cluster."""
    slurm_partition: Annotated[str | None, Spec(step="deployment", row=24, when=SLURM, title="Slurm partition")] = (
        Field(None, max_length=128, pattern=SLURM_WORD)
    )
    """Slurm partition (sbatch --partition); unset: the cluster's default."""
    slurm_account: Annotated[str | None, Spec(step="deployment", row=25, when=SLURM, title="Slurm account")] = Field(
        None, max_length=128, pattern=SLURM_WORD
    )
    """Slurm account (sbatch --account); unset: your default account."""
    slurm_time: Annotated[str, Spec(step="deployment", row=26, when=SLURM, title="Slurm time limit")] = Field(
        "24:00:00", pattern=r"^[0-9]+(-[0-9]+)?(:[0-9]+){0,2}$"
    )
    """Slurm time limit (sbatch --time), as D-HH:MM:SS or HH:MM:SS."""
    join_timeout_s: Annotated[
        int, Spec(step="deployment", row=27, unit="s", when=SLURM, title="Node join timeout (s)")
    ] = Field(600, ge=10, le=86400)
    """Slurm: seconds to wait for every node to join the Ray cluster before the job fails."""
    ray_port: Annotated[int, Spec(step="deployment", row=28, when=SLURM, title="Ray port")] = Field(
        6379, ge=1024, le=65535
    )
    """Port of the Ray head's GCS (ray start --port)."""
    ray_init_num_cpus: Annotated[
        int | None,
        Spec(
            "ray_kwargs.ray_init.num_cpus", step="deployment", row=29, unit="CPUs", when=LOCAL_SLURM, title="Ray CPUs"
        ),
    ] = Field(None, ge=1, le=1 << 20)
    """CPUs of the Ray instance verl starts itself (local runs, k8s-job). Must stay unset when joining a cluster."""
    # issue 19: where the pods find the data and the model cache
    data_volume: Annotated[str | None, Spec(step="deployment", row=30, when=KUBE, title="Data volume")] = Field(
        None, max_length=4096, pattern=DATA_VOLUME
    )
    """Kubernetes: the volume that holds your data and model files, mounted in every pod at data_mount: a
    PersistentVolumeClaim's name (verl-data), or an absolute folder on every GPU node (/mnt/verl, a hostPath).
    Unset: nothing is mounted and the pods see only the image."""
    data_mount: Annotated[str, Spec(step="deployment", row=31, when=KUBE, title="Data mount path")] = Field(
        "/data", max_length=4096, pattern=r"^/[^\x00\n]+$"
    )
    """Where the data volume is mounted in the pods. data.train_files, data.val_files and local model paths
    must lie under it."""
    hf_home: Annotated[str | None, Spec(step="deployment", row=32, title="Hugging Face cache")] = Field(
        None, max_length=4096, pattern=r"^/[^\x00\n]*$"
    )
    """HF_HOME on every node: where Hugging Face models and datasets (ids such as Qwen/Qwen3-8B) are downloaded
    and cached. Unset: <data_mount>/huggingface when a data volume is mounted (downloaded once, kept across
    pods), else each machine's own default (~/.cache/huggingface)."""

    _lists = field_validator("node_selector", "env", "secret_env", "excludes", mode="before")(_as_list)

    @field_validator("env", "node_selector")
    @classmethod
    def _pairs(cls, values: list[str]) -> list[str]:
        for item in values:
            key, sep, _ = item.partition("=")
            if not sep or not key:
                raise ValueError(f"{item!r} is not NAME=value")
        return values

    @field_validator("env")
    @classmethod
    def _env_names(cls, values: list[str]) -> list[str]:
        for item in values:
            if not re.match(ENV_NAME, item.partition("=")[0]):
                raise ValueError(f"{item.partition('=')[0]!r} is not an environment variable name")
        return values

    @field_validator("secret_env")
    @classmethod
    def _secret_names(cls, values: list[str]) -> list[str]:
        for item in values:
            if not re.match(ENV_NAME, item):
                raise ValueError(f"{item!r} is not an environment variable name")
        return values
