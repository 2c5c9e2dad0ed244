"""The memory formulas on a MoE model whose config.json names no moe_intermediate_size (Mixtral's):
its experts are intermediate_size wide. Found by mypy (issue 29 part E): the activation formula multiplied None."""

from __future__ import annotations

from wizard.core.memory.formulas import act_per_token_layer, forward_parts, train_parts
from wizard.core.model_facts import facts_from_config

MIXTRAL = {
    "architectures": ["MixtralForCausalLM"],
    "hidden_size": 4096,
    "num_hidden_layers": 32,
    "num_attention_heads": 32,
    "num_key_value_heads": 8,
    "intermediate_size": 14336,
    "vocab_size": 32000,
    "num_local_experts": 8,
    "num_experts_per_tok": 2,
}


def _facts(**changes):
    return facts_from_config({**MIXTRAL, **changes}, "/m", "config.json", "local")


def _sizes(parts):
    return [(str(p.label), p.bytes) for p in parts]


def test_mixtral_experts_count_as_intermediate_size_wide():
    # before the fix: TypeError (None * int) in act_per_token_layer, so train_parts raised for any Mixtral
    implicit, explicit = _facts(), _facts(moe_intermediate_size=14336)
    assert implicit.moe_intermediate_size is None
    assert act_per_token_layer(implicit) == act_per_token_layer(explicit)
    assert _sizes(train_parts(implicit, 4096, shards=8)) == _sizes(train_parts(explicit, 4096, shards=8))
    assert _sizes(forward_parts(implicit, 4096)) == _sizes(forward_parts(explicit, 4096))


def test_named_expert_width_still_decides_the_activations():
    narrow, wide = _facts(moe_intermediate_size=1024), _facts(moe_intermediate_size=14336)
    assert act_per_token_layer(narrow) < act_per_token_layer(wide)
    dense = facts_from_config({k: v for k, v in MIXTRAL.items() if k != "num_local_experts"}, "/m", "c", "local")
    # a dense model's MLP is one intermediate_size wide; two routed experts of that width carry twice its activations
    assert act_per_token_layer(dense) < act_per_token_layer(wide)
