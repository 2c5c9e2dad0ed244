"""Chinese descriptions of the shipped presets, by preset name (the English one is the preset file's `description`).

tests/test_i18n_presets.py fails when a shipped preset has no entry here.
"""

from __future__ import annotations

DESCRIPTIONS: dict[str, str] = {
    "grpo-7b-2x8": "GRPO，Qwen2.5-7B-Instruct，2 个节点 × 8 块 GPU，FSDP + vLLM TP2（多节点：先启动 Ray 集群）",
    "grpo-8b-1x8": "GRPO，在 GSM8K+MATH 上训练 Qwen3-8B，FSDP + vLLM TP2，1 个节点 × 8 块 GPU（verl 的 run_qwen3_8b_fsdp 示例）",
    "grpo-lora-8b-2gpu": "GRPO + LoRA（rank 64），Qwen3-8B，FSDP + vLLM TP2，2 块 GPU（verl 的 tuning/lora 示例）；参考模型是 actor 内部的基座模型",
    "grpo-megatron-tp2pp2-1x8": "GRPO，Qwen3-8B，Megatron TP2 × PP2（dp 2）+ vLLM TP2，1 个节点 × 8 块 GPU（verl 的 run_qwen3_8b_megatron 示例）",
    "ppo-critic-8b-1x8": "PPO（GAE），带 Qwen3-8B critic，FSDP + vLLM TP2，1 个节点 × 8 块 GPU（verl 的 ppo_trainer 示例）",
    "workshop-0.5b-1gpu": "PPO 快速上手：在 GSM8K 上训练 Qwen2.5-0.5B-Instruct，带 critic，1 块 GPU（verl quickstart 的参数）",
    # issue 18b's GRPO preset for one GPU (presets/workshop-grpo-0.5b-1gpu.yaml, on its branch)
    "workshop-grpo-0.5b-1gpu": "GRPO 快速上手：在 GSM8K 上训练 Qwen2.5-0.5B-Instruct，不用 critic，1 块 GPU（verl GSM8K GRPO 示例的参数，缩小到一块 GPU）",
}
