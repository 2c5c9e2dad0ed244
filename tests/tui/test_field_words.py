"""Fields read in plain words (the verl key is in F1's help), and a value's source says where it came from."""

from __future__ import annotations

import dataclasses

import pytest

from tests.tui.helpers import make_app
from wizard.core.field_keys import specs
from wizard.core.workspace import Workspace
from wizard.detect.hardware.fake import fake_topology
from wizard.i18n import set_language, t
from wizard.tui.widgets.field_row import label_of

OFFERED = sorted(name for name, spec in specs().items() if spec.offered)


@pytest.mark.parametrize("name", OFFERED)
def test_every_offered_field_has_a_plain_words_label(name):
    spec = specs()[name]
    assert spec.title, f"{name}: no title (its label would be the raw name {spec.label!r})"
    assert "_" not in spec.title and spec.title[0].isupper(), spec.title
    assert label_of(name) == spec.title


def test_a_field_without_a_title_falls_back_to_its_name():
    spec = dataclasses.replace(specs()["batch.rollout_n"], title="")
    assert spec.label == "rollout n"


@pytest.mark.parametrize(
    ("name", "label"),
    [
        ("algorithm.adv_estimator", "Advantage estimator"),
        ("batch.log_prob_micro_batch_size_per_gpu", "Log-prob micro-batch per GPU"),
    ],
)
def test_labels_named_in_the_issue(name, label):
    assert label_of(name) == label


def test_chinese_labels_stay_chinese():
    set_language("zh")
    try:
        assert label_of("algorithm.adv_estimator") == "优势估计器"
    finally:
        set_language("en")


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_one_word_for_a_default(lang):
    set_language(lang)
    try:
        assert t("source.verl default") == t("source.wizard default")
        assert t("source.topology") not in (t("source.detected"), "source.topology")
    finally:
        set_language("en")


def test_a_named_topology_is_not_badged_detected():
    workspace = Workspace()
    workspace.use_topology(fake_topology("8xH100"), "8xH100")
    assert workspace.source_of("trainer.n_gpus_per_node") == "topology"
    assert workspace.origin_of("trainer.n_gpus_per_node") == "detected"  # answers.yaml's record is unchanged


def test_a_detected_topology_is_badged_detected():
    workspace = Workspace()
    workspace.use_topology(dataclasses.replace(fake_topology("8xH100"), source="nvml"), "detect")
    assert workspace.source_of("trainer.n_gpus_per_node") == "detected"


async def test_f1_shows_the_whole_value_of_a_narrow_input(tmp_path):
    app = make_app("grpo-8b-1x8", out=str(tmp_path / "o"))
    long_path = "/mnt/shared/checkpoints/team-rl/qwen3-8b-instruct-sft-2026-11-30/step-12000"
    async with app.run_test(size=(80, 24)) as pilot:
        app.goto("models")
        await pilot.pause()
        app.session.set("models.actor_path", long_path)
        app.screen.refresh_view()
        await pilot.pause()
        app.screen.row_for("models.actor_path").input_widget.focus()
        await pilot.press("f1")
        await pilot.pause()
        assert app.screen.id == "help-dialog"
        assert app.screen.title_text == "Help: Actor model"
        assert f"value: {long_path}" in app.screen.body
        assert "verl key: actor_rollout_ref.model.path" in app.screen.body
