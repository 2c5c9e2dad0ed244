"""Chinese rule titles and reasons (by rule id) and Chinese field labels and help (by field name).

`RULES[id] = (title, why)` (wizard.i18n.zh_rule_terms) is keyed by the rule ids of
`wizard.core.rules.catalogue.CATALOGUE`; `FIELDS[name] = (label, help)` (wizard.i18n.zh_field_terms) mirrors
`wizard.core.field_keys.all_fields()` and `field_help()`. Technical terms (GPU, TP, FSDP, Megatron, vLLM, Ray,
LoRA, actor, critic, rollout, mini-batch, ...) and verl keys stay in English, as ML engineers in mainland China
write them. This module keeps the fingerprints of the field help each field's entry was translated from.
`tests/test_i18n_terms.py` fails when a rule id or a field has no entry.
"""

from __future__ import annotations

import hashlib

from wizard.i18n.zh_field_terms import FIELDS
from wizard.i18n.zh_rule_terms import RULES

__all__ = ["FIELDS", "RULES", "TRANSLATED_FROM", "as_strings", "fingerprint"]


def fingerprint(english: str) -> str:
    """Short hash of the English a translation was made from (a field's help)."""
    return hashlib.sha1(english.encode("utf-8")).hexdigest()[:8]


# The fingerprint of the English help each field's entry was translated from. When a field's help changes,
# tests/test_i18n_terms.py names it: re-translate the entry, then update its fingerprint here.
TRANSLATED_FROM: dict[str, str] = {
    "algorithm.adv_estimator": "e6ac5cc5",
    "algorithm.use_kl_in_reward": "e2dcaf33",
    "algorithm.kl_coef": "c53dc657",
    "algorithm.use_kl_loss": "46954c72",
    "algorithm.kl_loss_coef": "cc943188",
    "algorithm.kl_loss_type": "897387ac",
    "algorithm.loss_agg_mode": "539e36a9",
    "algorithm.entropy_coeff": "d2a9d8c4",
    "algorithm.lr": "af9a1a04",
    "algorithm.critic_lr": "9ab30555",
    "models.actor_path": "faa7e599",
    "models.critic_enable": "cd8a1592",
    "models.critic_path": "46b7cf62",
    "models.reward_model_enable": "1a7781f3",
    "models.reward_model_path": "8788d334",
    "models.custom_reward_path": "0b0e5860",
    "models.custom_reward_name": "eaff33f0",
    "models.reward_manager": "8cf325f3",
    "models.data_source": "708684dc",
    "models.lora_rank": "e294b7e1",
    "models.lora_alpha": "86c8676d",
    "models.use_remove_padding": "d039de5c",
    "models.enable_gradient_checkpointing": "538026f2",
    "models.trust_remote_code": "89eacd62",
    "data.train_files": "4198f11d",
    "data.val_files": "c9884949",
    "data.prompt_key": "f7088657",
    "data.max_prompt_length": "eb0630c0",
    "data.max_response_length": "ff9472d9",
    "data.filter_overlong_prompts": "7e96e5b2",
    "data.truncation": "4aacf646",
    "batch.train_batch_size": "94ff7148",
    "batch.rollout_n": "ed55c622",
    "batch.ppo_mini_batch_size": "d84c3eab",
    "batch.ppo_micro_batch_size_per_gpu": "49e07f57",
    "batch.ppo_micro_batch_size": "fe2bdf25",
    "batch.use_dynamic_bsz": "042e1842",
    "batch.ppo_max_token_len_per_gpu": "d8e8d4cb",
    "batch.ppo_epochs": "9e65faba",
    "batch.log_prob_micro_batch_size_per_gpu": "a71a55c4",
    "batch.log_prob_micro_batch_size": "42e36f1d",
    "batch.log_prob_use_dynamic_bsz": "d2fa9082",
    "batch.log_prob_max_token_len_per_gpu": "f2e63719",
    "batch.ref_log_prob_micro_batch_size_per_gpu": "6d10f92b",
    "batch.ref_log_prob_micro_batch_size": "f728c396",
    "batch.ref_log_prob_use_dynamic_bsz": "92d490d9",
    "batch.ref_log_prob_max_token_len_per_gpu": "b806e7d2",
    "batch.critic_ppo_mini_batch_size": "e412b503",
    "batch.critic_ppo_micro_batch_size_per_gpu": "7e6f4cda",
    "batch.critic_ppo_micro_batch_size": "1d19435b",
    "batch.critic_use_dynamic_bsz": "a4e566d1",
    "batch.critic_ppo_max_token_len_per_gpu": "228a43e1",
    "batch.critic_forward_max_token_len_per_gpu": "18347266",
    "batch.critic_ppo_epochs": "96539bd1",
    "engine.strategy": "d2c9cc38",
    "engine.ulysses_sp": "b297c8c5",
    "engine.critic_ulysses_sp": "d1b88873",
    "engine.param_offload": "5a3de31d",
    "engine.optimizer_offload": "87ea0713",
    "engine.ref_param_offload": "c6e5b65d",
    "engine.critic_param_offload": "d2fe9877",
    "engine.critic_optimizer_offload": "031ecfb8",
    "engine.megatron_tp": "8317ef7d",
    "engine.megatron_pp": "264eb992",
    "engine.megatron_cp": "79c0804b",
    "rollout.name": "83c1d4e9",
    "rollout.mode": "09d1c9be",
    "rollout.tensor_parallel_size": "10ff64f8",
    "rollout.gpu_memory_utilization": "54cdc2a4",
    "rollout.temperature": "6abc3967",
    "rollout.val_do_sample": "4a2cb919",
    "rollout.load_format": "26cc9c2a",
    "rollout.layered_summon": "c63f035d",
    "cluster.nnodes": "04b38731",
    "cluster.n_gpus_per_node": "bc53135d",
    "cluster.trainer_mode": "017fcb5e",
    "cluster.hybrid_engine": "7d35efb7",
    "cluster.rollout_nnodes": "215cd53c",
    "cluster.rollout_n_gpus_per_node": "16e6034a",
    "cluster.parameter_sync_step": "155db182",
    "cluster.checkpoint_backend": "861dd8b5",
    "cluster.reward_pool_enable": "5034d96c",
    "cluster.reward_pool_nnodes": "22a0fef9",
    "cluster.reward_pool_n_gpus_per_node": "cc04c40f",
    "trainer.project_name": "0844d67e",
    "trainer.experiment_name": "a6a18187",
    "trainer.total_epochs": "37db579a",
    "trainer.total_training_steps": "9cd3978a",
    "trainer.save_freq": "62b52de5",
    "trainer.test_freq": "c1b7b43b",
    "trainer.logger": "f4a9c1c4",
    "trainer.val_before_train": "b45a9700",
    "trainer.critic_warmup": "42730da6",
    "deploy.target": "996147e8",
    "deploy.name": "4e2bbc56",
    "deploy.namespace": "80952380",
    "deploy.image": "7222aa65",
    "deploy.ray_version": "fb06c993",
    "deploy.gpu_head": "ce8b8efd",
    "deploy.cpus_per_gpu": "600e373c",
    "deploy.memory_per_gpu_gib": "f991baf7",
    "deploy.head_cpus": "d0bb4ea5",
    "deploy.head_memory_gib": "6361460a",
    "deploy.shm_gib": "631c52d8",
    "deploy.gpu_toleration": "02642102",
    "deploy.node_selector": "7430da4f",
    "deploy.ray_address": "37f03f35",
    "deploy.nccl_socket_ifname": "afd3ad29",
    "deploy.gloo_socket_ifname": "7c938a5d",
    "deploy.env": "2024d7d3",
    "deploy.secret_env": "9d46be7c",
    "deploy.k8s_secret": "898fae61",
    "deploy.auth_mode": "a540b138",
    "deploy.auth_secret": "14ac98cd",
    "deploy.ttl_seconds": "e0de4c37",
    "deploy.excludes": "6791df4b",
    "deploy.slurm_partition": "b07e50d1",
    "deploy.slurm_account": "e02cb745",
    "deploy.slurm_time": "240e9a6e",
    "deploy.join_timeout_s": "d7999996",
    "deploy.ray_port": "79a265df",
    "deploy.ray_init_num_cpus": "551a14c7",
    "deploy.data_volume": "56365eee",
    "deploy.data_mount": "692489c9",
    "deploy.hf_home": "4c49e0d6",
}


def as_strings() -> dict[str, str]:
    """The terms as catalogue keys: `rule.ID.title`, `rule.ID.why`, `field.NAME` and `field.NAME.help`."""
    out: dict[str, str] = {}
    for rule_id, (title, why) in RULES.items():
        out[f"rule.{rule_id}.title"] = title
        out[f"rule.{rule_id}.why"] = why
    for name, (label, help_text) in FIELDS.items():
        out[f"field.{name}"] = label
        out[f"field.{name}.help"] = help_text
    return out
