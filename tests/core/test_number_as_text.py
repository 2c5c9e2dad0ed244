"""A number or a boolean where an answer is text (wizard.core.answers.section): its text, in every door; a field of
numbers still refuses what is not a number, and a list is no text (before: `trainer.experiment_name=123` was exit 2
in every door)."""

from __future__ import annotations

import pytest

from tests.cli.helpers import cli
from wizard.core.layers import answers_from_flat
from wizard.errors import UsageError


@pytest.mark.parametrize(("value", "text"), [(123, "123"), (20240101, "20240101"), (1.5, "1.5"), (True, "True")])
def test_a_number_where_text_goes_is_its_text(value, text):
    answers = answers_from_flat({"trainer.experiment_name": value, "trainer.project_name": value})
    assert answers.trainer.experiment_name == text and answers.trainer.project_name == text


@pytest.mark.parametrize(
    ("key", "value"),
    [("trainer.nnodes", "two"), ("trainer.nnodes", True), ("trainer.experiment_name", ["a", "b"])],
)
def test_fields_of_numbers_or_choices_still_refuse_other_values(key, value):
    with pytest.raises(UsageError):
        answers_from_flat({key: value})


def test_new_set_takes_a_number_for_a_name(tmp_path):
    out = tmp_path / "run"
    args = ("new", "--preset", "workshop-grpo-0.5b-1gpu", "--set", "trainer.experiment_name=123", "--out", str(out))
    result = cli(*args)
    assert result.returncode == 0, result.stderr
    assert "experiment_name: '123'" in (out / "config.yaml").read_text()
