"""Reading models: local folders, the offline Hugging Face cache, the catalogue, and the inspector hook."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.model_dirs import write_model, write_tokenizer
from wizard.core.layers import build
from wizard.core.model_facts import CATALOGUE, HF_CACHE, LOCAL, catalogue_entries, from_catalogue
from wizard.detect.models import inspect_models, read_model

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "memory_calibration"


def test_local_folder_gives_config_numbers_and_tokenizer(tmp_path):
    path = write_model(tmp_path / "m", num_labels=1, arch="Qwen2ForSequenceClassification", words=["a", "b", "c"])
    f = read_model(path)
    assert f.source == LOCAL and f.location.endswith("config.json")
    assert (f.hidden_size, f.num_layers, f.num_heads, f.num_kv_heads, f.vocab_size) == (896, 24, 14, 2, 151936)
    assert f.is_sequence_classifier and f.num_labels == 1
    assert f.has_tokenizer and f.tokenizer_vocab == 4  # [UNK] + 3 words


def test_num_labels_follows_transformers_rules(tmp_path):
    from_id2label = read_model(
        write_model(tmp_path / "a", arch="LlamaForSequenceClassification", id2label={"0": "LABEL_0"})
    )
    default = read_model(write_model(tmp_path / "b", arch="LlamaForSequenceClassification"))
    assert from_id2label.num_labels == 1
    assert default.num_labels == 2  # transformers' default when the config says nothing


def test_same_tokenizer_same_fingerprint_and_different_differs(tmp_path):
    a = read_model(write_model(tmp_path / "a", words=["x", "y"]))
    b = read_model(write_model(tmp_path / "b", words=["x", "y"]))
    c = read_model(write_model(tmp_path / "c", words=["y", "x"]))
    assert a.tokenizer_fingerprint == b.tokenizer_fingerprint
    assert a.tokenizer_fingerprint != c.tokenizer_fingerprint
    assert a.tokenizer_vocab == c.tokenizer_vocab == 3


def test_folder_without_tokenizer_says_so(tmp_path):
    f = read_model(write_model(tmp_path / "m", tokenizer=False))
    assert f.has_tokenizer is False and f.tokenizer_vocab is None


def test_multimodal_config_reads_its_text_config(tmp_path):
    folder = tmp_path / "vl"
    folder.mkdir()
    (folder / "config.json").write_text(
        json.dumps(
            {
                "architectures": ["Gemma3ForConditionalGeneration"],
                "model_type": "gemma3",
                "text_config": {
                    "model_type": "gemma3_text",
                    "hidden_size": 2560,
                    "num_hidden_layers": 34,
                    "num_attention_heads": 8,
                    "num_key_value_heads": 4,
                    "head_dim": 256,
                    "intermediate_size": 10240,
                    "vocab_size": 262208,
                },
            }
        )
    )
    f = read_model(str(folder))
    assert (f.hidden_size, f.num_heads, f.head_dim, f.vocab_size) == (2560, 8, 256, 262208)
    assert f.is_causal_lm


def test_unreadable_config_is_a_note_not_a_crash(tmp_path):
    folder = tmp_path / "broken"
    folder.mkdir()
    (folder / "config.json").write_text("{not json")
    f = read_model(str(folder))
    assert f.notes and "unreadable" in f.notes[0] and f.hidden_size is None and not f.complete


def test_hub_id_read_from_the_local_cache_offline(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    repo = tmp_path / "hub" / "models--acme--tiny-rm"
    write_model(
        repo / "snapshots" / "abc123", arch="LlamaForSequenceClassification", num_labels=1, num_attention_heads=28
    )
    (repo / "refs").mkdir()
    (repo / "refs" / "main").write_text("abc123")
    f = read_model("acme/tiny-rm")
    assert f.source == HF_CACHE and f.num_heads == 28 and "abc123" in f.location


def test_cache_beats_catalogue_and_catalogue_fills_in(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "hub"))
    assert read_model("Qwen/Qwen3-8B").source == CATALOGUE
    write_model(tmp_path / "hub" / "models--Qwen--Qwen3-8B" / "snapshots" / "r1", num_attention_heads=99)
    cached = read_model("Qwen/Qwen3-8B")
    assert cached.source == HF_CACHE and cached.num_heads == 99
    assert cached.tokenizer_family == "qwen3"  # the catalogue still names the tokenizer family


@pytest.mark.parametrize(
    "path", ["~/models/x", "hdfs://nn/models/x", "/no/such/folder", "unknown-org/unknown-model", ""]
)
def test_unknown_paths_give_no_facts(path, tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty"))
    assert read_model(path) is None


def test_catalogue_has_the_common_models_with_their_numbers():
    ids = {e["id"] for e in catalogue_entries().values()}
    assert len(ids) >= 20
    for needed in (
        "Qwen/Qwen2.5-72B-Instruct",
        "Qwen/Qwen3-30B-A3B",
        "meta-llama/Llama-3.1-70B-Instruct",
        "deepseek-ai/DeepSeek-R1-Distill-Qwen-7B",
        "google/gemma-2-9b-it",
        "mistralai/Mistral-7B-Instruct-v0.3",
    ):
        assert needed in ids
    f = from_catalogue("qwen/qwen2.5-7b")  # alias, any case
    assert f.source == CATALOGUE and (f.num_heads, f.num_kv_heads, f.vocab_size) == (28, 4, 152064)
    moe = from_catalogue("Qwen/Qwen3-30B-A3B")
    assert (moe.num_experts, moe.num_experts_per_tok) == (128, 8)


@pytest.mark.parametrize(
    "model, params",
    [
        # parameter counts of the published checkpoints
        ("Qwen/Qwen2.5-0.5B-Instruct", 494_032_768),
        ("Qwen/Qwen2.5-7B-Instruct", 7_615_616_512),
        ("Qwen/Qwen3-8B", 8_190_735_360),
        ("meta-llama/Llama-3.1-8B-Instruct", 8_030_261_248),
        ("Qwen/Qwen3-30B-A3B", 30_532_122_624),
        ("google/gemma-2-2b-it", 2_614_341_888),
    ],
)
def test_parameter_count_from_config_numbers(model, params):
    assert from_catalogue(model).param_count() == params


def test_parameter_counts_match_the_models_built_on_the_gpu():
    """The calibration run built each model with transformers and counted its parameters."""
    import dataclasses

    doc = json.loads((FIXTURE / "h200_calibration.json").read_text())
    for case in doc["cases"]:
        f = from_catalogue(case["model"])
        over = case.get("config_overrides") or {}
        f = dataclasses.replace(
            f,
            num_layers=over.get("num_hidden_layers", f.num_layers),
            tie_word_embeddings=over.get("tie_word_embeddings", f.tie_word_embeddings),
        )
        expected = (
            f.param_count() if case["role"] != "critic" else f.param_count() + f.hidden_size + 1
        )  # score head (+ bias)
        assert case["n_params"] == expected, case["case"]


def test_inspect_models_reads_each_role(tmp_path):
    actor = write_model(tmp_path / "actor")
    rm = write_model(tmp_path / "rm", arch="Qwen2ForSequenceClassification", num_labels=1)
    answers = build(
        [
            (
                "t",
                {
                    "actor_rollout_ref.model.path": actor,
                    "critic.model.path": "Qwen/Qwen3-8B",
                    "reward.reward_model.enable": True,
                    "reward.reward_model.model_path": rm,
                },
            )
        ]
    ).answers
    models = inspect_models(answers, "local")["models"]
    assert set(models) == {"actor", "critic", "reward_model"}
    assert models["critic"].source == CATALOGUE and models["reward_model"].is_sequence_classifier


def test_inspect_models_skips_a_disabled_reward_model(tmp_path):
    rm = write_model(tmp_path / "rm")
    answers = build(
        [("t", {"actor_rollout_ref.model.path": "nowhere/at-all", "reward.reward_model.model_path": rm})]
    ).answers
    assert inspect_models(answers, "local") == {"models": {}}


def test_word_tokenizer_helper_writes_a_loadable_tokenizer(tmp_path):
    from tokenizers import Tokenizer

    write_tokenizer(tmp_path, ["hello", "world"])
    assert Tokenizer.from_file(str(tmp_path / "tokenizer.json")).encode("hello world").ids == [1, 2]
