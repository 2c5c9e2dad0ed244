"""Field declarations: every answer has one, and what is derived from it (verl keys, steps and rows, choices,
their validation, labels in both languages) agrees with it."""

from __future__ import annotations

import pytest

from wizard.core import verl_schema
from wizard.core.choices import AuthMode, Target, values
from wizard.core.field_keys import all_fields, field_to_verl, spec_of, specs, step_fields
from wizard.core.fields import Spec, on_targets
from wizard.core.layers import build
from wizard.core.step_names import FIELD_STEPS
from wizard.errors import UsageError


def test_every_field_is_declared_and_named():
    assert list(specs()) == list(all_fields()) and len(specs()) > 100
    assert all(spec.name == name for name, spec in specs().items())
    assert spec_of("data.train_batch_size") is specs()["batch.train_batch_size"]
    assert field_to_verl()["batch.train_batch_size"] == "data.train_batch_size"


def test_each_step_offers_its_fields_in_distinct_rows():
    steps = step_fields()
    assert set(steps) == set(FIELD_STEPS)
    for step, names in steps.items():
        rows = [specs()[n].row for n in names]
        assert rows == sorted(rows) and len(set(rows)) == len(rows), step
    assert steps["batch"][:3] == ("batch.train_batch_size", "batch.rollout_n", "batch.ppo_mini_batch_size")
    assert not specs()["batch.ppo_micro_batch_size"].offered  # the deprecated global form: files and flags only


def test_a_verl_fields_choices_are_verls_allowed_values():
    for name, spec in specs().items():
        allowed = verl_schema.allowed_values(spec.verl) if spec.verl else ()
        if spec.choices is not None and allowed:
            assert spec.choice_values == tuple(allowed), name
        if allowed:
            assert spec.choices is not None, f"{name}: verl has a closed set for {spec.verl}; declare it"


def test_only_wizard_choices_are_enforced_the_others_are_findings():
    enforced = {name for name, spec in specs().items() if spec.enforced}
    assert enforced == {"deploy.target", "deploy.auth_mode"}
    with pytest.raises(UsageError) as err:
        build([("--set", {"deploy.target": "kubernetes"})])
    assert "deploy.target" in str(err.value) and all(t in str(err.value) for t in values(Target))
    with pytest.raises(UsageError, match="deploy.auth_mode"):
        build([("--set", {"deploy.auth_mode": "none"})])
    for target in values(Target):
        assert build([("--set", {"deploy.target": target})]).answers.deploy.target == target
    assert build([("x", {"deploy.auth_mode": AuthMode.DISABLED.value})]).answers.deploy.auth_mode == "disabled"
    # a verl value outside its set is not bad input: KEY-004 reports it
    assert build([("x", {"algorithm.adv_estimator": "simple"})]).answers.algorithm.adv_estimator == "simple"


def test_a_declaration_names_known_steps_and_targets():
    with pytest.raises(ValueError, match="step"):
        Spec("x.y", step="settings")
    with pytest.raises(ValueError, match="not deployment targets"):
        on_targets("kubernetes")


def test_visibility_is_the_declared_condition():
    from wizard.core.answers.model import Answers

    a = Answers()
    assert not specs()["deploy.slurm_partition"].shown_for(a)
    assert specs()["deploy.slurm_partition"].shown_for(
        a.model_copy(update={"deploy": a.deploy.model_copy(update={"target": "slurm"})})
    )
    assert specs()["models.critic_path"].shown_for(a)  # gae trains a critic
    assert specs()["deploy.target"].shown_for(a)


@pytest.mark.parametrize("name", all_fields())
def test_every_field_has_a_label_and_help_in_both_languages(name):
    from wizard.core.field_keys import field_help
    from wizard.i18n import set_language, term

    spec = specs()[name]
    try:
        set_language("en")
        # Offered fields are labelled in plain words (Spec.title); the rest by their name with spaces.
        plain = spec.title if spec.offered else name.partition(".")[2].replace("_", " ")
        assert plain and term(spec.label_key, spec.label) == spec.label == plain
        set_language("zh")
        label, help_text = term(spec.label_key, ""), term(spec.help_key, "")
        assert label and label != spec.label and help_text and help_text != field_help(name)
    finally:
        set_language("en")
