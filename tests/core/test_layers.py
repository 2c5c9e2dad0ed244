"""Layered answers: precedence, provenance, strictness with the closest valid name, one-line errors."""

from __future__ import annotations

import pytest

from wizard.core.layers import build, flatten_answers_doc, to_answers_doc
from wizard.errors import UsageError


def test_later_layers_win_and_remember_their_layer():
    la = build(
        [
            ("preset", {"data.train_batch_size": 64, "actor_rollout_ref.rollout.n": 4}),
            ("answers file", {"batch.rollout_n": 8}),
            ("--set", {"data.train_batch_size": 128}),
        ]
    )
    assert la.answers.batch.train_batch_size == 128
    assert la.answers.batch.rollout_n == 8
    assert la.source_of("data.train_batch_size") == "--set"
    assert la.source_of("actor_rollout_ref.rollout.n") == "answers file"
    assert la.source_of("actor_rollout_ref.actor.ppo_mini_batch_size") == "verl default"
    assert la.source_of("deploy.target") == "wizard default"


def test_edit_layer_and_removal():
    la = build([("preset", {"data.train_batch_size": 64})])
    edited = la.with_values({"data.train_batch_size": 32})
    assert edited.answers.batch.train_batch_size == 32 and edited.source_of("data.train_batch_size") == "edited"
    back = edited.with_values({"data.train_batch_size": None})
    assert back.answers.batch.train_batch_size == 1024 and back.source_of("data.train_batch_size") == "verl default"
    assert la.answers.batch.train_batch_size == 64  # the original is untouched


@pytest.mark.parametrize(
    "value, words",
    [
        (-1, "greater than or equal to 1"),
        (0, "greater than or equal to 1"),
        ("many", "valid integer"),
        (10**30, "less than or equal"),
    ],
)
def test_bad_values_are_one_line_naming_the_verl_key(value, words):
    with pytest.raises(UsageError) as err:
        build([("x", {"data.train_batch_size": value})])
    text = str(err.value)
    assert text.startswith("data.train_batch_size:") and words in text and "\n" not in text


def test_unknown_answer_in_a_file_names_the_closest():
    with pytest.raises(UsageError, match=r"batch\.train_batch_size"):
        flatten_answers_doc({"batch": {"train_batch_sise": 8}}, "answers.yaml")
    with pytest.raises(UsageError, match="did you mean models"):
        flatten_answers_doc({"model": {"actor_path": "x"}}, "answers.yaml")


def test_list_where_a_mapping_belongs():
    with pytest.raises(UsageError, match="section batch must be a mapping"):
        flatten_answers_doc({"batch": [1, 2]}, "answers.yaml")
    with pytest.raises(UsageError, match="expected a mapping"):
        flatten_answers_doc([1, 2], "answers.yaml")


def test_answers_doc_round_trips():
    la = build(
        [
            (
                "preset",
                {
                    "data.train_batch_size": 64,
                    "actor_rollout_ref.rollout.name": "vllm",
                    "actor_rollout_ref.actor.clip_ratio_high": 0.28,
                },
            )
        ]
    )
    doc = to_answers_doc(la.answers)
    assert doc == {
        "batch": {"train_batch_size": 64},
        "rollout": {"name": "vllm"},
        "extra": {"actor_rollout_ref.actor.clip_ratio_high": 0.28},
    }
    assert build([("again", flatten_answers_doc(doc, "x"))]).answers == la.answers


def test_every_answer_field_has_help_text():
    from wizard.core.field_keys import all_fields, field_help

    assert [f for f in all_fields() if len(field_help(f)) < 10] == []
    assert field_help("data.train_batch_size") == field_help("batch.train_batch_size") != ""
