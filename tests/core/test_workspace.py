"""The workspace: one precedence whatever order the layers are filled in, provenance per value, a bad layer
changes nothing, the facts come from the injected gatherer, and answers.yaml round-trips its record."""

from __future__ import annotations

import itertools

import pytest
import yaml

from wizard.core.answers.document import AnswersRecord, Migration, parse_answers_doc
from wizard.core.workspace import ANSWERS_FILE, DETECTED, FLAGS, LAUNCH_SCRIPT, PRECEDENCE, PRESET, Workspace
from wizard.emit.artifacts import render_answers_file, workspace_answers
from wizard.errors import UsageError

KEY = "data.train_batch_size"
FILL = {
    PRESET: lambda ws: ws.use_preset("p", {KEY: 64}),
    DETECTED: lambda ws: ws.set_layer(DETECTED, {KEY: 96}),
    ANSWERS_FILE: lambda ws: ws.use_answers(AnswersRecord({KEY: 128})),
    LAUNCH_SCRIPT: lambda ws: ws.use_script({KEY: 256}, Migration("old.sh")),
    FLAGS: lambda ws: ws.use_flags({KEY: 512}),
}
VALUE = {PRESET: 64, DETECTED: 96, ANSWERS_FILE: 128, LAUNCH_SCRIPT: 256, FLAGS: 512}


@pytest.mark.parametrize("order", list(itertools.permutations(FILL))[::7])
def test_the_highest_layer_wins_whatever_the_order_of_filling(order):
    ws = Workspace()
    for name in order:
        FILL[name](ws)
    assert ws.value(KEY) == 512 and ws.source_of(KEY) == FLAGS
    ws.set(KEY, 1000)
    assert ws.value(KEY) == 1000 and ws.source_of(KEY) == "edited"
    ws.set(KEY, None)  # the edit goes: the layer below shows again
    assert ws.value(KEY) == 512


@pytest.mark.parametrize("top", list(FILL))
def test_each_layer_beats_the_ones_below_it(top):
    ws = Workspace()
    for name in PRECEDENCE[: PRECEDENCE.index(top) + 1]:
        FILL[name](ws)
    assert ws.value(KEY) == VALUE[top] and ws.source_of(KEY) == top


def test_a_layer_with_a_bad_value_changes_nothing():
    ws = Workspace()
    ws.use_preset("p", {KEY: 64})
    before = ws.layered
    with pytest.raises(UsageError, match="data.train_batch_size"):
        ws.use_flags({KEY: -1})
    assert ws.layered is before and [layer.name for layer in ws.layers] == [PRESET]


def test_only_the_known_layers_exist():
    with pytest.raises(ValueError, match="not a layer"):
        Workspace().set_layer("edited", {KEY: 1})
    with pytest.raises(ValueError, match="not a layer"):
        Workspace().set_layer("my layer", {KEY: 1})


def test_a_fix_that_removes_a_key_removes_it_from_every_layer():
    from wizard.core.findings import Fix

    ws = Workspace()
    ws.use_preset("p", {KEY: 64})
    ws.use_flags({KEY: 128})
    ws.apply_fix(Fix({KEY: None}, "back to verl's default"))
    assert ws.value(KEY) == 1024 and ws.source_of(KEY) == "verl default" and ws.origin_of(KEY) is None


def test_the_facts_come_from_the_injected_gatherer():
    seen = []

    def gather(answers, mode, cache):
        seen.append((answers.batch.train_batch_size, mode))
        return {"models": {"actor": "told"}}

    ws = Workspace(gather=gather, mode="local")
    ws.use_flags({KEY: 64})
    assert ws.ctx.models == {"actor": "told"} and seen == [(64, "local")]
    assert Workspace().ctx.models == {}  # told nothing: no facts


def test_edits_and_flags_are_recorded_alike_and_recorded_origins_survive_a_replay():
    ws = Workspace()
    ws.use_preset("p", {KEY: 64, "trainer.total_epochs": 3})
    ws.use_flags({"trainer.n_gpus_per_node": 4})
    ws.set("actor_rollout_ref.rollout.n", 8)
    assert ws.origin_of(KEY) == "preset" and ws.origin_of("trainer.n_gpus_per_node") == "set"
    assert ws.origin_of("actor_rollout_ref.rollout.n") == "set" and ws.origin_of("trainer.save_freq") is None
    text = workspace_answers(ws)
    record = parse_answers_doc(yaml.safe_load(text), "test")
    replay = Workspace()
    replay.use_answers(record)
    assert replay.source_of(KEY) == ANSWERS_FILE and replay.origin_of(KEY) == "preset"
    assert workspace_answers(replay) == text
    fresh = Workspace()  # the neighbour: a file without a record is recorded as the answers file's
    fresh.use_answers(AnswersRecord(record.values))
    assert fresh.origin_of(KEY) == "answers file" and workspace_answers(fresh) != text


def test_the_migration_is_the_scripts_else_the_answers_files():
    ws = Workspace()
    ws.use_answers(AnswersRecord({KEY: 128}, migration=Migration("first.sh", notes=("n",))))
    assert ws.migration == Migration("first.sh", notes=("n",))
    ws.use_script({KEY: 256}, Migration("second.sh"))
    assert ws.migration.source == "second.sh"
    ws.use_script(None)
    assert ws.migration.source == "first.sh"
    text = render_answers_file(ws.layered, ws.origin_of, ws.migration)
    assert parse_answers_doc(yaml.safe_load(text), "t").migration == Migration("first.sh", notes=("n",))


@pytest.mark.parametrize(
    "doc, words",
    [
        ({"batch": {"train_batch_size": 8}, "provenance": ["x"]}, "provenance must map"),
        ({"batch": {"train_batch_size": 8}, "provenance": {"batch.train_batch_size": "edited"}}, "'edited' is not"),
        ({"migrated": {"changed": []}}, "source script's path"),
        ({"migrated": {"source": "a.sh", "changed": "x"}}, "migrated.changed must be a list"),
        ({"migrated": {"source": "a.sh", "why": []}}, "has no 'why'"),
    ],
)
def test_a_malformed_record_is_one_line_naming_the_file(doc, words):
    with pytest.raises(UsageError, match=words) as err:
        parse_answers_doc(doc, "--answers a.yaml")
    assert str(err.value).startswith("--answers a.yaml: ")


def test_a_record_of_a_value_no_longer_in_the_file_is_dropped():
    record = parse_answers_doc({"batch": {"rollout_n": 4}, "provenance": {"batch.train_batch_size": "set"}}, "t")
    assert record.origins == {}
    assert parse_answers_doc({"batch": {"rollout_n": 4}, "provenance": {"batch.rollout_n": "set"}}, "t").origins == {
        "actor_rollout_ref.rollout.n": "set"
    }


def test_a_topology_is_the_detected_layer_unless_the_door_judges_a_config():
    from wizard.detect.hardware.fake import fake_topology

    ws = Workspace()
    ws.use_topology(fake_topology("2x8xH100"), "2x8xH100")
    # A named (fake) topology is badged as such: nothing was detected; answers files still record DETECTED.
    assert ws.value("trainer.nnodes") == 2 and ws.source_of("trainer.nnodes") == "topology"
    judged = Workspace()
    judged.use_topology(fake_topology("2x8xH100"), "2x8xH100", counts=False)
    assert judged.topology is not None and judged.source_of("trainer.nnodes") == "verl default"


def test_a_finding_about_this_machine_is_shown_but_not_written():
    from wizard.core.rules.catalogue import CATALOGUE, about_this_machine
    from wizard.emit.artifacts import workspace_files

    assert {doc.about for doc in CATALOGUE.values()} == {"run", "machine"}
    assert about_this_machine("DEPLOY-016") and not about_this_machine("BATCH-001")
    answers = {"trainer.logger": ["console", "wandb"], "actor_rollout_ref.model.path": "Qwen/Qwen3-8B"}
    told = Workspace(gather=lambda answers, mode, cache: {"env": {}})  # the TUI's facts: no WANDB_API_KEY here
    told.use_flags(answers)
    untold = Workspace()  # new and check: no facts about this machine
    untold.use_flags(answers)
    assert "DEPLOY-016" in {f.id for f in told.findings}
    assert "DEPLOY-016" not in {f.id for f in untold.findings}
    assert workspace_files(told) == workspace_files(untold)  # same answers, same bytes
