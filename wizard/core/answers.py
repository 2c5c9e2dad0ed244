"""The typed answers model: everything the wizard asks, one field per question.

Each field's docstring is its user-facing help (read by wizard.core.keymap.field_help from this file's
source, so that start-up does not pay for pydantic's docstring extraction). Fields that map onto a verl key carry it as
`json_schema_extra={"verl": "<dotted key>"}`; their defaults are verl 0.9.1's, and `None` means "not set:
verl's own default or interpolation applies". Fields without a verl key are the wizard's own (the
deployment target, the data_source of the rows). Any other verl key goes in `extra` and is passed through.

Who reads it: wizard.core.keymap (verl key <-> field), wizard.core.layers (building answers from presets,
files and flags), wizard.core.plan and the rules, the emitters, the TUI.
"""

from __future__ import annotations

import re
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, field_validator

MAX_SIZE = 1 << 24  # no real run has more prompts, tokens or GPUs than this per step
PositiveSize = dict(ge=1, le=MAX_SIZE)


def V(default: Any, key: str, **constraints: Any) -> Any:
    """A field that maps onto the verl key `key`."""
    return Field(default, json_schema_extra={"verl": key}, **constraints)


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)


class Algorithm(Section):
    adv_estimator: str = V("gae", "algorithm.adv_estimator")
    """How advantages are computed: gae (PPO with a critic), grpo, rloo, reinforce_plus_plus, remax, ...
    Group estimators (grpo, rloo, ...) compare the n responses to one prompt and need rollout n > 1."""
    use_kl_in_reward: bool = V(False, "algorithm.use_kl_in_reward")
    """Subtract a KL penalty to the reference from the reward (PPO style). Needs the reference model."""
    kl_coef: float = V(0.001, "algorithm.kl_ctrl.kl_coef", ge=0)
    """Weight of the in-reward KL penalty."""
    use_kl_loss: bool = V(False, "actor_rollout_ref.actor.use_kl_loss")
    """Add a KL term to the reference inside the actor loss (GRPO style). Needs the reference model."""
    kl_loss_coef: float = V(0.001, "actor_rollout_ref.actor.kl_loss_coef", ge=0)
    """Weight of the KL loss term."""
    kl_loss_type: str = V("low_var_kl", "actor_rollout_ref.actor.kl_loss_type")
    """KL estimator of the loss term: kl (k1), abs, mse (k2), low_var_kl (k3) or full."""
    loss_agg_mode: str = V("token-mean", "actor_rollout_ref.actor.loss_agg_mode")
    """How per-token losses are averaged: token-mean, token-sum, seq-mean-token-sum, seq-mean-token-mean,
    seq-mean-token-sum-norm."""
    entropy_coeff: float = V(0.0, "actor_rollout_ref.actor.entropy_coeff")
    """Weight of the entropy bonus; 0 turns it off."""
    lr: float = V(1e-6, "actor_rollout_ref.actor.optim.lr", gt=0, le=1)
    """Actor learning rate."""
    critic_lr: float = V(1e-5, "critic.optim.lr", gt=0, le=1)
    """Critic learning rate (only used when there is a critic)."""


class Models(Section):
    actor_path: str | None = V(None, "actor_rollout_ref.model.path")
    """The policy to train: a Hugging Face id (Qwen/Qwen3-8B) or an absolute local folder. The reference
    model is a frozen copy loaded from the same path."""
    critic_enable: bool | None = V(None, "critic.enable")
    """Force the critic on or off; unset means: on exactly when the estimator is gae."""
    critic_path: str | None = V(None, "critic.model.path")
    """The value model's starting checkpoint (usually the actor's). verl adds a fresh value head."""
    reward_model_enable: bool = V(False, "reward.reward_model.enable")
    """Score responses with a reward model served by vLLM/SGLang."""
    reward_model_path: str | None = V(None, "reward.reward_model.model_path")
    """The reward model: a sequence classifier with one label (a DisRM), or a generative RM."""
    custom_reward_path: str | None = V(None, "reward.custom_reward_function.path")
    """A Python file with your reward function (data_source, solution_str, ground_truth, extra_info)."""
    custom_reward_name: str = V("compute_score", "reward.custom_reward_function.name")
    """The function's name inside that file."""
    reward_manager: str = V("naive", "reward.reward_manager.name")
    """How rewards are computed per batch: naive, dapo (overlong penalty), gdpo, remote, rate_limited."""
    data_source: str | None = None
    """The data_source value of your training rows (openai/gsm8k, lighteval/MATH, ...). With no reward
    model and no custom function, verl's built-in scorer must know it."""
    lora_rank: int = V(0, "actor_rollout_ref.model.lora_rank", ge=0, le=4096)
    """LoRA rank; 0 trains all weights. With LoRA the reference is the base model with the adapter off."""
    lora_alpha: int = V(16, "actor_rollout_ref.model.lora_alpha", ge=0, le=1 << 16)
    """LoRA alpha (scaling)."""
    use_remove_padding: bool = V(True, "actor_rollout_ref.model.use_remove_padding")
    """Pack sequences without padding. Required for Ulysses sequence parallelism."""
    enable_gradient_checkpointing: bool = V(True, "actor_rollout_ref.model.enable_gradient_checkpointing")
    """Recompute activations in the backward pass: much less memory, about a third more compute."""
    trust_remote_code: bool = V(False, "actor_rollout_ref.model.trust_remote_code")
    """Allow model code from the checkpoint (needed by some custom architectures)."""


class Data(Section):
    train_files: str | list[str] | None = V(None, "data.train_files")
    """Training prompts: parquet, json or jsonl files (absolute paths or hdfs://)."""
    val_files: str | list[str] | None = V(None, "data.val_files")
    """Validation prompts, same formats."""
    prompt_key: str = V("prompt", "data.prompt_key")
    """The column that holds each prompt as a chat list of {role, content}."""
    max_prompt_length: int = V(512, "data.max_prompt_length", **PositiveSize)
    """Longest prompt in tokens (chat template applied)."""
    max_response_length: int = V(512, "data.max_response_length", **PositiveSize)
    """Longest response the rollout may generate, in tokens."""
    filter_overlong_prompts: bool = V(False, "data.filter_overlong_prompts")
    """Drop prompts longer than max_prompt_length when loading the data."""
    truncation: str = V("error", "data.truncation")
    """What to do with an over-long prompt that was not filtered: error, left, right or middle."""


class Batch(Section):
    train_batch_size: int = V(1024, "data.train_batch_size", **PositiveSize)
    """Prompts per training step. Responses per step = this × rollout n."""
    rollout_n: int = V(1, "actor_rollout_ref.rollout.n", **PositiveSize)
    """Responses sampled per prompt. GRPO-style estimators need more than 1."""
    ppo_mini_batch_size: int = V(256, "actor_rollout_ref.actor.ppo_mini_batch_size", **PositiveSize)
    """Prompts per optimizer step (its responses: × n). train_batch_size / this = updates per epoch."""
    ppo_micro_batch_size_per_gpu: int | None = V(
        None, "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu", **PositiveSize
    )
    """Responses per forward/backward pass on one GPU (gradient accumulation splits the mini-batch)."""
    ppo_micro_batch_size: int | None = V(None, "actor_rollout_ref.actor.ppo_micro_batch_size", **PositiveSize)
    """Deprecated global micro-batch size; verl 0.9 workers need the per-GPU form instead."""
    use_dynamic_bsz: bool = V(False, "actor_rollout_ref.actor.use_dynamic_bsz")
    """Pack micro-batches by a token budget instead of a fixed count (faster with varied lengths)."""
    ppo_max_token_len_per_gpu: int = V(16384, "actor_rollout_ref.actor.ppo_max_token_len_per_gpu", **PositiveSize)
    """Token budget per GPU per micro-batch when packing dynamically; × sp must hold one full sequence."""
    ppo_epochs: int = V(1, "actor_rollout_ref.actor.ppo_epochs", ge=1, le=1024)
    """Passes of the actor over each batch of responses."""
    log_prob_micro_batch_size_per_gpu: int | None = V(
        None, "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu", **PositiveSize
    )
    """Responses per GPU per pass when recomputing the old log-probs."""
    log_prob_micro_batch_size: int | None = V(
        None, "actor_rollout_ref.rollout.log_prob_micro_batch_size", **PositiveSize
    )
    """Deprecated global form of the log-prob micro-batch size."""
    log_prob_use_dynamic_bsz: bool | None = V(None, "actor_rollout_ref.rollout.log_prob_use_dynamic_bsz")
    """Token-budget packing for the old log-probs; unset follows the actor (and it must equal it)."""
    log_prob_max_token_len_per_gpu: int | None = V(
        None, "actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu", **PositiveSize
    )
    """Token budget for the old log-probs; unset follows the actor's."""
    ref_log_prob_micro_batch_size_per_gpu: int | None = V(
        None, "actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu", **PositiveSize
    )
    """Responses per GPU per pass of the reference model."""
    ref_log_prob_micro_batch_size: int | None = V(
        None, "actor_rollout_ref.ref.log_prob_micro_batch_size", **PositiveSize
    )
    """Deprecated global form of the reference micro-batch size."""
    ref_log_prob_use_dynamic_bsz: bool | None = V(None, "actor_rollout_ref.ref.log_prob_use_dynamic_bsz")
    """Token-budget packing for the reference; unset follows the actor."""
    ref_log_prob_max_token_len_per_gpu: int | None = V(
        None, "actor_rollout_ref.ref.log_prob_max_token_len_per_gpu", **PositiveSize
    )
    """Token budget for the reference; unset follows the actor's."""
    critic_ppo_mini_batch_size: int | None = V(None, "critic.ppo_mini_batch_size", **PositiveSize)
    """Prompts per critic optimizer step; unset follows the actor's."""
    critic_ppo_micro_batch_size_per_gpu: int | None = V(None, "critic.ppo_micro_batch_size_per_gpu", **PositiveSize)
    """Responses per critic forward/backward on one GPU."""
    critic_ppo_micro_batch_size: int | None = V(None, "critic.ppo_micro_batch_size", **PositiveSize)
    """Deprecated global form of the critic micro-batch size."""
    critic_use_dynamic_bsz: bool | None = V(None, "critic.use_dynamic_bsz")
    """Token-budget packing for the critic; unset follows the actor."""
    critic_ppo_max_token_len_per_gpu: int = V(32768, "critic.ppo_max_token_len_per_gpu", **PositiveSize)
    """The critic's token budget per GPU when packing dynamically."""
    critic_forward_max_token_len_per_gpu: int | None = V(None, "critic.forward_max_token_len_per_gpu", **PositiveSize)
    """The critic's token budget for value inference; unset follows its training budget."""
    critic_ppo_epochs: int | None = V(None, "critic.ppo_epochs", ge=1, le=1024)
    """Critic passes over each batch; unset follows the actor."""


class Engine(Section):
    strategy: str = V("fsdp", "actor_rollout_ref.actor.strategy")
    """Training engine: fsdp, fsdp2 or megatron."""
    ulysses_sp: int = V(1, "actor_rollout_ref.actor.ulysses_sequence_parallel_size", ge=1, le=1024)
    """Ulysses sequence parallelism for the actor (and reference): GPUs that share one sequence."""
    critic_ulysses_sp: int = V(1, "critic.ulysses_sequence_parallel_size", ge=1, le=1024)
    """Ulysses sequence parallelism for the critic."""
    param_offload: bool = V(False, "actor_rollout_ref.actor.fsdp_config.param_offload")
    """Keep actor parameters in CPU memory between uses (FSDP)."""
    optimizer_offload: bool = V(False, "actor_rollout_ref.actor.fsdp_config.optimizer_offload")
    """Keep actor optimizer states in CPU memory (FSDP)."""
    ref_param_offload: bool = V(False, "actor_rollout_ref.ref.fsdp_config.param_offload")
    """Keep the reference model in CPU memory (it only runs forward passes)."""
    critic_param_offload: bool = V(False, "critic.fsdp.param_offload")
    """Keep critic parameters in CPU memory (FSDP)."""
    critic_optimizer_offload: bool = V(False, "critic.fsdp.optimizer_offload")
    """Keep critic optimizer states in CPU memory (FSDP)."""
    megatron_tp: int = V(1, "actor_rollout_ref.actor.megatron.tensor_model_parallel_size", ge=1, le=1024)
    """Megatron tensor parallelism of the actor (the reference follows)."""
    megatron_pp: int = V(1, "actor_rollout_ref.actor.megatron.pipeline_model_parallel_size", ge=1, le=1024)
    """Megatron pipeline parallelism of the actor."""
    megatron_cp: int = V(1, "actor_rollout_ref.actor.megatron.context_parallel_size", ge=1, le=1024)
    """Megatron context parallelism of the actor."""


class Rollout(Section):
    name: str | None = V(None, "actor_rollout_ref.rollout.name")
    """The inference engine that generates responses: vllm, sglang or trtllm. verl 0.9 has no default."""
    mode: str = V("async", "actor_rollout_ref.rollout.mode")
    """Rollout mode; only async exists in verl 0.9."""
    tensor_parallel_size: int = V(2, "actor_rollout_ref.rollout.tensor_model_parallel_size", ge=1, le=1024)
    """GPUs per inference replica. Must divide the GPU count and stay inside one node."""
    gpu_memory_utilization: float = V(0.5, "actor_rollout_ref.rollout.gpu_memory_utilization", gt=0, le=1)
    """Share of each GPU's memory the inference engine may take (weights + KV cache)."""
    temperature: float = V(1.0, "actor_rollout_ref.rollout.temperature", ge=0)
    """Sampling temperature for training rollouts."""
    val_do_sample: bool = V(False, "actor_rollout_ref.rollout.val_kwargs.do_sample")
    """Sample (rather than decode greedily) during validation."""
    load_format: str = V("dummy", "actor_rollout_ref.rollout.load_format")
    """How the engine gets its first weights; dummy (synced from the trainer) or safetensors (LoRA)."""
    layered_summon: bool = V(False, "actor_rollout_ref.rollout.layered_summon")
    """Sync LoRA weights layer by layer (less peak memory)."""


class Cluster(Section):
    nnodes: int = V(1, "trainer.nnodes", ge=1, le=65536)
    """Machines in the training pool."""
    n_gpus_per_node: int = V(8, "trainer.n_gpus_per_node", ge=1, le=1024)
    """GPUs used on each machine (every node must have the same count)."""
    trainer_mode: str = V("sync", "trainer.v1.trainer_mode")
    """sync (colocated, the default), colocate_async, or separate_async (a standalone rollout pool)."""
    hybrid_engine: bool = V(True, "actor_rollout_ref.hybrid_engine")
    """Actor and rollout share GPUs. false only with separate_async."""
    rollout_nnodes: int = V(0, "actor_rollout_ref.rollout.nnodes", ge=0, le=65536)
    """Machines of the standalone rollout pool (separate_async only)."""
    rollout_n_gpus_per_node: int | None = V(None, "actor_rollout_ref.rollout.n_gpus_per_node", ge=0, le=1024)
    """GPUs per machine of the standalone rollout pool; unset follows n_gpus_per_node."""
    parameter_sync_step: int = V(4, "trainer.v1.separate_async.parameter_sync_step", ge=1, le=MAX_SIZE)
    """Mini-batches between weight syncs to the rollout pool (separate_async)."""
    checkpoint_backend: str = V("naive", "actor_rollout_ref.rollout.checkpoint_engine.backend")
    """How weights travel from trainer to rollout: naive (colocated), nccl, nixl, mooncake."""
    reward_pool_enable: bool = V(False, "reward.reward_model.enable_resource_pool")
    """Give the reward model GPUs of its own instead of sharing the training pool."""
    reward_pool_nnodes: int = V(0, "reward.reward_model.nnodes", ge=0, le=65536)
    """Machines of the reward model's own pool."""
    reward_pool_n_gpus_per_node: int = V(8, "reward.reward_model.n_gpus_per_node", ge=0, le=1024)
    """GPUs per machine of the reward model's own pool."""


class Trainer(Section):
    project_name: str = V("verl_examples", "trainer.project_name", min_length=1, max_length=256)
    """Tracking project name."""
    experiment_name: str = V("gsm8k", "trainer.experiment_name", min_length=1, max_length=256)
    """Tracking run name; also names the checkpoint folder and Kubernetes objects."""
    total_epochs: int = V(30, "trainer.total_epochs", ge=1, le=1 << 20)
    """Passes over the training data."""
    total_training_steps: int | None = V(None, "trainer.total_training_steps", ge=1, le=1 << 30)
    """Stop after this many steps (wins over total_epochs)."""
    save_freq: int = V(-1, "trainer.save_freq", ge=-1)
    """Checkpoint every this many steps; -1 never."""
    test_freq: int = V(-1, "trainer.test_freq", ge=-1)
    """Validate every this many steps; -1 never."""
    logger: str | list[str] = V(["console", "wandb"], "trainer.logger")
    """Tracking backends; wandb needs WANDB_API_KEY in the environment."""
    val_before_train: bool = V(True, "trainer.val_before_train")
    """Run validation once before the first step."""
    critic_warmup: int = V(0, "trainer.critic_warmup", ge=0)
    """Steps that update only the critic at the start."""


ENV_NAME = r"^[A-Za-z_][A-Za-z0-9_]*$"
# NCCL_SOCKET_IFNAME syntax: an optional ^ (exclude) or = (exact), then interface names or prefixes.
IFNAME = r"^[\^=]?[A-Za-z0-9_.:@-]+(,[A-Za-z0-9_.:@-]+)*$"
SLURM_WORD = r"^[A-Za-z0-9_.,:+-]+$"
# A PersistentVolumeClaim's name (a DNS subdomain) or an absolute host folder.
DATA_VOLUME = r"^(/[^\x00\n]*|[a-z0-9]([-a-z0-9.]*[a-z0-9])?)$"


def _as_list(value: Any) -> Any:
    """A single string where a list is expected (the TUI's one-item list, --set A=1) becomes a list."""
    return [value] if isinstance(value, str) else value


class Deploy(Section):
    target: str = Field("local", pattern=r"^(local|ray-job|kuberay-job|kuberay-cluster|slurm|k8s-job)$")
    """Where the run starts: local, ray-job, kuberay-job, kuberay-cluster, slurm or k8s-job."""
    name: str | None = Field(None, max_length=253)
    """Name of the Kubernetes objects and the Slurm job; unset: made from trainer.experiment_name as a DNS label."""
    namespace: str | None = Field(None, max_length=253)
    """Kubernetes namespace of the objects; unset: the namespace of your kubectl context."""
    image: str = Field("verlai/verl:vllm024.dev2", min_length=1, max_length=512)
    """Container image of every Ray pod (KubeRay) or of the Job. It must hold verl 0.9.1, its engine (vLLM or
    SGLang) and the Ray version below; the verlai/verl images hold the dependencies, add verl itself."""
    ray_version: str = Field("2.60.0", pattern=r"^\d+\.\d+(\.\d+)?$")
    """Ray version inside the image (KubeRay's rayVersion); token authentication needs 2.52 or newer."""
    gpu_head: bool = True
    """The Ray head is a GPU node and counts as one of trainer.nnodes; false adds a CPU-only head."""
    cpus_per_gpu: int = Field(4, ge=1, le=1024)
    """CPUs per GPU on every GPU node. verl reserves 3 CPUs per GPU and its driver task one more."""
    memory_per_gpu_gib: int = Field(64, ge=1, le=1 << 16)
    """Memory (GiB) per GPU on every GPU node: model loading, offloading and data loaders live here."""
    head_cpus: int = Field(8, ge=1, le=1 << 16)
    """CPUs of a CPU-only head (gpu_head false)."""
    head_memory_gib: int = Field(32, ge=1, le=1 << 16)
    """Memory (GiB) of a CPU-only head (gpu_head false)."""
    shm_gib: int = Field(64, ge=0, le=1 << 16)
    """Size (GiB) of the /dev/shm memory volume of a plain Kubernetes Job; 0 leaves the 64 MiB default."""
    gpu_toleration: bool = False
    """Add the toleration nvidia.com/gpu:NoSchedule that tainted GPU nodes need."""
    node_selector: list[str] = Field(default_factory=list, max_length=64)
    """Node labels a GPU pod must match, as key=value (nvidia.com/gpu.product=NVIDIA-H100-80GB-HBM3)."""
    ray_address: str | None = Field(None, max_length=512)
    """ray-job: the cluster's Jobs API, http://HEAD:8265 (unset: http://127.0.0.1:8265)."""
    nccl_socket_ifname: str | None = Field(None, max_length=256, pattern=IFNAME)
    """NCCL_SOCKET_IFNAME on every node (eth0, =bond0, ^lo,docker): the interface between nodes."""
    gloo_socket_ifname: str | None = Field(None, max_length=256, pattern=IFNAME)
    """GLOO_SOCKET_IFNAME on every node: the interface torch's CPU collectives use between nodes."""
    env: list[str] = Field(default_factory=list, max_length=256)
    """Other environment variables for every node, as NAME=value (no secrets: see secret_env)."""
    secret_env: list[str] = Field(default_factory=list, max_length=64)
    """Names of secret environment variables (HF_TOKEN, ...); WANDB_API_KEY is added when logging to wandb.
    Kubernetes reads them from the Secret k8s_secret; the scripts take them from your environment."""
    k8s_secret: str = Field("verl-secrets", min_length=1, max_length=253)
    """The Kubernetes Secret that holds secret_env, one key per variable name."""
    auth_mode: str = Field("token", pattern=r"^(token|disabled)$")
    """Ray token authentication: token (one shared token for head, workers and driver) or disabled."""
    auth_secret: str | None = Field(None, max_length=253)
    """KubeRay: a Secret of yours with the Ray token (key auth_token); unset: KubeRay makes one."""
    ttl_seconds: int = Field(3600, ge=0, le=1 << 30)
    """Seconds a finished RayJob's cluster or Job is kept for its logs before it is deleted."""
    excludes: list[str] = Field(default_factory=lambda: [".git", "__pycache__"], max_length=256)
    """ray-job: files of the working folder that are not uploaded to the cluster."""
    slurm_partition: str | None = Field(None, max_length=128, pattern=SLURM_WORD)
    """Slurm partition (sbatch --partition); unset: the cluster's default."""
    slurm_account: str | None = Field(None, max_length=128, pattern=SLURM_WORD)
    """Slurm account (sbatch --account); unset: your default account."""
    slurm_time: str = Field("24:00:00", pattern=r"^[0-9]+(-[0-9]+)?(:[0-9]+){0,2}$")
    """Slurm time limit (sbatch --time), as D-HH:MM:SS or HH:MM:SS."""
    join_timeout_s: int = Field(600, ge=10, le=86400)
    """Slurm: seconds to wait for every node to join the Ray cluster before the job fails."""
    ray_port: int = Field(6379, ge=1024, le=65535)
    """Port of the Ray head's GCS (ray start --port)."""
    ray_init_num_cpus: int | None = V(None, "ray_kwargs.ray_init.num_cpus", ge=1, le=1 << 20)
    """CPUs of the Ray instance verl starts itself (local runs, k8s-job). Must stay unset when joining a cluster."""
    # issue 19: where the pods find the data and the model cache
    data_volume: str | None = Field(None, max_length=4096, pattern=DATA_VOLUME)
    """Kubernetes: the volume that holds your data and model files, mounted in every pod at data_mount: a
    PersistentVolumeClaim's name (verl-data), or an absolute folder on every GPU node (/mnt/verl, a hostPath).
    Unset: nothing is mounted and the pods see only the image."""
    data_mount: str = Field("/data", max_length=4096, pattern=r"^/[^\x00\n]+$")
    """Where the data volume is mounted in the pods. data.train_files, data.val_files and local model paths
    must lie under it."""
    hf_home: str | None = Field(None, max_length=4096, pattern=r"^/[^\x00\n]*$")
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


SECTIONS: dict[str, type[Section]] = {
    "algorithm": Algorithm,
    "models": Models,
    "data": Data,
    "batch": Batch,
    "engine": Engine,
    "rollout": Rollout,
    "cluster": Cluster,
    "trainer": Trainer,
    "deploy": Deploy,
}


class Answers(BaseModel):
    """Every answer of one wizard session. `extra` holds any other verl key (dotted) and its value."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    algorithm: Algorithm = Field(default_factory=Algorithm)
    models: Models = Field(default_factory=Models)
    data: Data = Field(default_factory=Data)
    batch: Batch = Field(default_factory=Batch)
    engine: Engine = Field(default_factory=Engine)
    rollout: Rollout = Field(default_factory=Rollout)
    cluster: Cluster = Field(default_factory=Cluster)
    trainer: Trainer = Field(default_factory=Trainer)
    deploy: Deploy = Field(default_factory=Deploy)
    extra: dict[str, Any] = Field(default_factory=dict)
    """Other verl keys, dotted, passed through to config.yaml unchanged (checked against verl's tree)."""
