"""Which answers each step shows, in order. Also says on which step a finding's key is edited.

Imports nothing heavy: the first screen is painted before the answers model (pydantic) is loaded.
"""

from __future__ import annotations

STEPS = ("start", "models", "data", "batch", "hardware", "deployment", "review")

FIELDS: dict[str, tuple[str, ...]] = {
    "models": (
        "algorithm.adv_estimator",
        "models.actor_path",
        "algorithm.use_kl_loss",
        "algorithm.kl_loss_coef",
        "algorithm.kl_loss_type",
        "algorithm.use_kl_in_reward",
        "algorithm.kl_coef",
        "models.critic_enable",
        "models.critic_path",
        "models.reward_model_enable",
        "models.reward_model_path",
        "models.custom_reward_path",
        "models.custom_reward_name",
        "models.reward_manager",
        "models.data_source",
        "models.lora_rank",
        "models.lora_alpha",
        "models.trust_remote_code",
        "algorithm.lr",
        "algorithm.critic_lr",
        "algorithm.loss_agg_mode",
        "algorithm.entropy_coeff",
    ),
    "data": (
        "data.train_files",
        "data.val_files",
        "data.prompt_key",
        "data.max_prompt_length",
        "data.max_response_length",
        "data.filter_overlong_prompts",
        "data.truncation",
    ),
    "batch": (
        "batch.train_batch_size",
        "batch.rollout_n",
        "batch.ppo_mini_batch_size",
        "batch.use_dynamic_bsz",
        "batch.ppo_micro_batch_size_per_gpu",
        "batch.ppo_max_token_len_per_gpu",
        "batch.ppo_epochs",
        "batch.log_prob_micro_batch_size_per_gpu",
        "batch.log_prob_max_token_len_per_gpu",
        "batch.ref_log_prob_micro_batch_size_per_gpu",
        "batch.ref_log_prob_max_token_len_per_gpu",
        "batch.critic_ppo_mini_batch_size",
        "batch.critic_ppo_micro_batch_size_per_gpu",
        "batch.critic_ppo_max_token_len_per_gpu",
        "cluster.parameter_sync_step",
    ),
    "hardware": (
        "cluster.nnodes",
        "cluster.n_gpus_per_node",
        "rollout.name",
        "rollout.tensor_parallel_size",
        "rollout.gpu_memory_utilization",
        "engine.strategy",
        "engine.ulysses_sp",
        "engine.megatron_tp",
        "engine.megatron_pp",
        "engine.megatron_cp",
        "engine.param_offload",
        "engine.optimizer_offload",
        "engine.ref_param_offload",
        "models.use_remove_padding",
        "models.enable_gradient_checkpointing",
        "cluster.trainer_mode",
        "cluster.rollout_nnodes",
        "cluster.rollout_n_gpus_per_node",
        "cluster.checkpoint_backend",
        "cluster.reward_pool_enable",
        "cluster.reward_pool_nnodes",
        "cluster.reward_pool_n_gpus_per_node",
    ),
    "deployment": (
        "trainer.project_name",
        "trainer.experiment_name",
        "trainer.total_epochs",
        "trainer.total_training_steps",
        "trainer.save_freq",
        "trainer.test_freq",
        "trainer.logger",
        "trainer.val_before_train",
    ),
}


def deployment_fields() -> tuple[str, ...]:
    """The deployment step shows every field of the deploy section (it grows with the targets) first."""
    from wizard.core.answers import Deploy

    return tuple(f"deploy.{name}" for name in Deploy.model_fields) + FIELDS["deployment"]


def fields_of(step: str) -> tuple[str, ...]:
    return deployment_fields() if step == "deployment" else FIELDS.get(step, ())


def step_of(address: str) -> str:
    """The step where a verl key or field is edited; review for keys no step shows."""
    from wizard.core.keymap import canonical_address_of

    field = canonical_address_of(address)
    for step in STEPS:
        if field in fields_of(step):
            return step
    return "review"


def field_for(address: str) -> str | None:
    from wizard.core.keymap import canonical_address_of

    field = canonical_address_of(address)
    return field if any(field in fields_of(s) for s in STEPS) else None


__all__ = ["STEPS", "field_for", "fields_of", "step_of"]
