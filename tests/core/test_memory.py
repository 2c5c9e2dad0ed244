"""The memory estimate: calibrated against peaks measured on an H200, and its arithmetic per phase."""

from __future__ import annotations

import dataclasses
import json
import re
from pathlib import Path

import pytest

from wizard.core.layers import build
from wizard.core.memory.estimate import estimate_memory, memory_parts
from wizard.core.memory.formulas import GIB, Part, engine_parts, forward_parts, resident_parts, train_parts
from wizard.core.model_facts import from_catalogue
from wizard.core.plan import build_plan
from wizard.core.presets import load_preset
from wizard.detect.models import inspect_models

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "tests" / "fixtures" / "memory_calibration"
TOLERANCE = 0.15


def measured_cases():
    cases = []
    for name in sorted(FIXTURES.glob("h200_*.json")):
        doc = json.loads(name.read_text())
        cases += [dict(c, fixture=name.name) for c in doc["cases"] if "error" not in c]
    return cases


def estimate_case(case) -> float:
    """The estimate for one measured case, from the catalogue's numbers (with the case's config overrides)."""
    f = from_catalogue(case["model"])
    over = case.get("config_overrides") or {}
    f = dataclasses.replace(
        f,
        num_layers=over.get("num_hidden_layers", f.num_layers),
        tie_word_embeddings=over.get("tie_word_embeddings", f.tie_word_embeddings),
    )
    head = "value" if case["role"] == "critic" else "lm"
    if case["mode"] == "train":
        parts = train_parts(f, case["tokens"], shards=1, checkpointing=case["gradient_checkpointing"], head=head)
    else:
        parts = forward_parts(f, case["tokens"], head=head)
    return sum(p.bytes for p in parts) / GIB


CASES = measured_cases()


def test_the_fixture_covers_three_sizes_and_two_settings():
    train = [c for c in CASES if c["mode"] == "train" and c["role"] == "actor"]
    sizes = {c["model"] for c in train}
    assert len(CASES) >= 6 and len(sizes) >= 3
    for model in ("Qwen/Qwen2.5-0.5B-Instruct", "meta-llama/Llama-3.2-1B-Instruct", "Qwen/Qwen3-4B"):
        assert {c["gradient_checkpointing"] for c in train if c["model"] == model} == {True, False}


@pytest.mark.parametrize("case", CASES, ids=[c["case"] for c in CASES])
def test_estimate_within_15_percent_of_the_measured_peak(case):
    measured = case["peak_reserved_gib"]
    estimate = estimate_case(case)
    assert abs(estimate - measured) <= TOLERANCE * measured, (
        f"{case['case']}: estimate {estimate:.2f} GiB, measured {measured:.2f} GiB"
    )


def test_the_tolerance_check_can_fail():
    case = dict(CASES[0], tokens=CASES[0]["tokens"] * 8)  # same measured peak, eight times the tokens
    assert abs(estimate_case(case) - case["peak_reserved_gib"]) > TOLERANCE * case["peak_reserved_gib"]


def test_readme_calibration_table_is_current():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    rows = {
        m.group(1): (float(m.group(2)), float(m.group(3)))
        for m in re.finditer(r"^\| `([\w.-]+)` \|[^|]*\|[^|]*\| ([\d.]+) \| ([\d.]+) \|", readme, re.M)
    }
    assert set(rows) == {c["case"] for c in CASES}, (
        "update the README's calibration table (python benchmarks/calibrate_memory.py --table)"
    )
    for case in CASES:
        estimate, measured = rows[case["case"]]
        assert measured == pytest.approx(case["peak_reserved_gib"], abs=0.01)
        assert estimate == pytest.approx(estimate_case(case), abs=0.01)


# ---------------------------------------------------------------- arithmetic

Q8 = from_catalogue("Qwen/Qwen3-8B")


def total(parts) -> float:
    return sum(p.bytes for p in parts)


def by_label(parts, prefix) -> float:
    return sum(p.bytes for p in parts if str(p.label).startswith(prefix))


def test_model_states_are_16_bytes_per_parameter_over_the_shards():
    one, eight = train_parts(Q8, 1024, shards=1), train_parts(Q8, 1024, shards=8)
    for label in ("weights (", "gradients (", "optimizer ("):
        assert by_label(one, label) == pytest.approx(8 * by_label(eight, label))
    assert by_label(one, "weights (") + by_label(one, "gradients (") + by_label(one, "optimizer (") == pytest.approx(
        16 * Q8.param_count()
    )


def test_checkpointing_and_fewer_tokens_lower_the_update():
    assert total(train_parts(Q8, 16384, 8, checkpointing=True)) < total(train_parts(Q8, 16384, 8, checkpointing=False))
    assert total(train_parts(Q8, 4096, 8)) < total(train_parts(Q8, 16384, 8)) < total(train_parts(Q8, 32768, 8))


def test_lora_trains_adapters_only():
    full, lora = train_parts(Q8, 4096, 8), train_parts(Q8, 4096, 8, lora_rank=64)
    assert (
        by_label(lora, "optimizer (") < by_label(full, "optimizer (") / 20
    )  # rank 64 on every linear: ~2% of the weights
    assert by_label(lora, "weights (") == by_label(full, "weights (")


def test_value_head_has_no_vocab_logits():
    lm, value = train_parts(Q8, 8192, 8, head="lm"), train_parts(Q8, 8192, 8, head="value")
    assert total(value) < total(lm)


def test_engine_share_is_the_utilization_and_tp_splits_the_weights():
    gpu = 80 * GIB
    parts, kv, need = engine_parts(Q8, tp=2, utilization=0.6, gpu_bytes=gpu, seq_len=3072)
    assert total(parts) == pytest.approx(0.6 * gpu)
    parts4, kv4, need4 = engine_parts(Q8, tp=4, utilization=0.6, gpu_bytes=gpu, seq_len=3072)
    assert by_label(parts4, "engine weights") == pytest.approx(by_label(parts, "engine weights") / 2)
    assert kv4 > kv and need4 == pytest.approx(need / 2)
    assert need == 3072 * 2 * 36 * 4 * 128 * 2  # K and V, 36 layers, 8 KV heads / TP 2, head 128, bf16


def test_resident_parts_follow_offload():
    assert resident_parts(Q8, 8, weights=False, optimizer=False, label="actor") == []
    both = resident_parts(Q8, 8, weights=True, optimizer=True, label="actor")
    assert [str(p.label) for p in both] == ["actor weights (resident)", "actor optimizer (resident)"]


def plan_of(preset: str, **over):
    values = dict(load_preset(preset).values)
    values.update(over)
    layered = build([("preset", values)])
    return layered.answers, build_plan(layered.answers), inspect_models(layered.answers, "cluster")["models"]


def test_phases_of_a_colocated_grpo_plan():
    answers, plan, models = plan_of("grpo-8b-1x8")
    est = estimate_memory(answers, plan, models, 81559)
    names = [str(p.name) for p in est.phases]
    assert names == ["actor update", "actor log-prob", "ref log-prob", "rollout generate", "rollout weight sync"]
    gen = next(p for p in est.phases if p.phase == "generate")
    assert gen.kv_cache > gen.kv_needed > 0
    assert any(str(p.label) == "actor optimizer (resident)" for p in gen.parts)


def test_optimizer_offload_leaves_generation_lighter():
    a1, p1, m = plan_of("grpo-8b-1x8")
    a2, p2, _ = plan_of("grpo-8b-1x8", **{"actor_rollout_ref.actor.fsdp_config.optimizer_offload": True})
    gen1 = next(p for p in estimate_memory(a1, p1, m, 81559).phases if p.phase == "generate")
    gen2 = next(p for p in estimate_memory(a2, p2, m, 81559).phases if p.phase == "generate")
    assert gen1.total - gen2.total == pytest.approx(2 * 4 * Q8.param_count() / 8)


def test_critic_and_megatron_plans():
    answers, plan, models = plan_of("ppo-critic-8b-1x8")
    assert "critic update" in [str(p.name) for p in estimate_memory(answers, plan, models, 81559).phases]
    answers, plan, models = plan_of("grpo-megatron-tp2pp2-1x8")
    update = estimate_memory(answers, plan, models, 81559).phases[0]
    assert str(update.name) == "actor update" and not any(
        p.measured for p in update.parts if str(p.label).startswith("optimizer")
    )


def test_no_model_numbers_no_phases_and_no_gpu_no_engine_phase():
    answers, plan, _ = plan_of("grpo-8b-1x8")
    assert estimate_memory(answers, plan, {}, 81559).phases == ()
    _, _, models = plan_of("grpo-8b-1x8")
    phases = estimate_memory(answers, plan, models, None).phases
    assert phases and "rollout generate" not in [str(p.name) for p in phases]


def test_memory_parts_for_the_tui():
    answers, plan, models = plan_of("grpo-8b-1x8")
    table = memory_parts(estimate_memory(answers, plan, models, 81559))
    assert set(table) == {"actor", "ref", "rollout"}
    label, gib, measured = table["actor"]["update"][0]
    assert str(label).startswith("weights") and gib > 0 and measured is True
    assert any(not m for _, _, m in table["rollout"]["generate"])  # the engine's share is a formula


def test_part_gib():
    assert Part("x", GIB).gib == 1.0
