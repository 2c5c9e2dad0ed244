"""The answers of the cluster (nodes, GPUs per node, pools) and of the trainer (epochs, saving, logging).
Each field's docstring is its help."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from wizard.core.answers.section import (
    MAX_SIZE,
    Section,
)
from wizard.core.choices import (
    Logger,
    TrainerMode,
)
from wizard.core.fields import (
    Spec,
    with_reward_model,
    with_split_pools,
)


class Cluster(Section):
    nnodes: Annotated[int, Spec("trainer.nnodes", step="hardware", row=1, unit="nodes", title="Nodes")] = Field(
        1, ge=1, le=65536
    )
    """Machines in the training pool."""
    n_gpus_per_node: Annotated[
        int, Spec("trainer.n_gpus_per_node", step="hardware", row=2, unit="GPUs", title="GPUs per node")
    ] = Field(8, ge=1, le=1024)
    """GPUs used on each machine (every node must have the same count)."""
    trainer_mode: Annotated[
        str, Spec("trainer.v1.trainer_mode", step="hardware", row=16, choices=TrainerMode, title="Trainer mode")
    ] = "sync"
    """sync (colocated, the default), colocate_async, or separate_async (a standalone rollout pool)."""
    hybrid_engine: Annotated[bool, Spec("actor_rollout_ref.hybrid_engine")] = True
    """Actor and rollout share GPUs. false only with separate_async."""
    rollout_nnodes: Annotated[
        int,
        Spec(
            "actor_rollout_ref.rollout.nnodes",
            step="hardware",
            row=17,
            unit="nodes",
            when=with_split_pools,
            title="Rollout nodes",
        ),
    ] = Field(0, ge=0, le=65536)
    """Machines of the standalone rollout pool (separate_async only)."""
    rollout_n_gpus_per_node: Annotated[
        int | None,
        Spec(
            "actor_rollout_ref.rollout.n_gpus_per_node",
            step="hardware",
            row=18,
            unit="GPUs",
            when=with_split_pools,
            title="Rollout GPUs per node",
        ),
    ] = Field(None, ge=0, le=1024)
    """GPUs per machine of the standalone rollout pool; unset follows n_gpus_per_node."""
    parameter_sync_step: Annotated[
        int,
        Spec(
            "trainer.v1.separate_async.parameter_sync_step",
            step="batch",
            row=15,
            unit="mini-batches",
            when=with_split_pools,
            title="Weight sync interval",
        ),
    ] = Field(4, ge=1, le=MAX_SIZE)
    """Mini-batches between weight syncs to the rollout pool (separate_async)."""
    checkpoint_backend: Annotated[
        str,
        Spec(
            "actor_rollout_ref.rollout.checkpoint_engine.backend", step="hardware", row=19, title="Weight sync backend"
        ),
    ] = "naive"
    """How weights travel from trainer to rollout: naive (colocated), nccl, nixl, mooncake."""
    reward_pool_enable: Annotated[
        bool,
        Spec(
            "reward.reward_model.enable_resource_pool",
            step="hardware",
            row=20,
            when=with_reward_model,
            title="Separate reward GPUs",
        ),
    ] = False
    """Give the reward model GPUs of its own instead of sharing the training pool."""
    reward_pool_nnodes: Annotated[
        int,
        Spec(
            "reward.reward_model.nnodes",
            step="hardware",
            row=21,
            unit="nodes",
            when=with_reward_model,
            title="Reward model nodes",
        ),
    ] = Field(0, ge=0, le=65536)
    """Machines of the reward model's own pool."""
    reward_pool_n_gpus_per_node: Annotated[
        int,
        Spec(
            "reward.reward_model.n_gpus_per_node",
            step="hardware",
            row=22,
            unit="GPUs",
            when=with_reward_model,
            title="Reward model GPUs per node",
        ),
    ] = Field(8, ge=0, le=1024)
    """GPUs per machine of the reward model's own pool."""


class Trainer(Section):
    project_name: Annotated[str, Spec("trainer.project_name", step="deployment", row=33, title="Project name")] = Field(
        "verl_examples", min_length=1, max_length=256
    )
    """Tracking project name."""
    experiment_name: Annotated[
        str, Spec("trainer.experiment_name", step="deployment", row=34, title="Experiment name")
    ] = Field("gsm8k", min_length=1, max_length=256)
    """Tracking run name; also names the checkpoint folder and Kubernetes objects."""
    total_epochs: Annotated[
        int, Spec("trainer.total_epochs", step="deployment", row=35, unit="epochs", title="Epochs")
    ] = Field(30, ge=1, le=1 << 20)
    """Passes over the training data."""
    total_training_steps: Annotated[
        int | None,
        Spec("trainer.total_training_steps", step="deployment", row=36, unit="steps", title="Training steps"),
    ] = Field(None, ge=1, le=1 << 30)
    """Stop after this many steps (wins over total_epochs)."""
    save_freq: Annotated[
        int, Spec("trainer.save_freq", step="deployment", row=37, unit="steps", title="Save every")
    ] = Field(-1, ge=-1)
    """Checkpoint every this many steps; -1 never."""
    test_freq: Annotated[
        int, Spec("trainer.test_freq", step="deployment", row=38, unit="steps", title="Validate every")
    ] = Field(-1, ge=-1)
    """Validate every this many steps; -1 never."""
    logger: Annotated[
        str | list[str], Spec("trainer.logger", step="deployment", row=39, choices=Logger, title="Loggers")
    ] = [
        "console",
        "wandb",
    ]
    """Tracking backends; wandb needs WANDB_API_KEY in the environment."""
    val_before_train: Annotated[
        bool, Spec("trainer.val_before_train", step="deployment", row=40, title="Validate before training")
    ] = True
    """Run validation once before the first step."""
    critic_warmup: Annotated[int, Spec("trainer.critic_warmup", unit="steps")] = Field(0, ge=0)
    """Steps that update only the critic at the start."""
