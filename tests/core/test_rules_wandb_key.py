"""DEPLOY-016: logging to wandb while WANDB_API_KEY is not known to be set (the TUI's environment facts)."""

from __future__ import annotations

import pytest

from tests.conftest import findings_for
from wizard.core.layers import build
from wizard.detect.env.secrets_set import inspect_env

WANDB = {"trainer.logger": ["console", "wandb"]}


def ids(findings):
    return {f.id for f in findings}


def test_deploy_016_wandb_without_the_key_warns_with_a_console_fix():
    found = [f for f in findings_for(WANDB, env=frozenset()) if f.id == "DEPLOY-016"]
    assert len(found) == 1 and found[0].severity.value == "warning" and list(found[0].paths) == ["trainer.logger"]
    assert "WANDB_API_KEY" in str(found[0].message) and "export WANDB_API_KEY" in str(found[0].message)
    assert [fix.set for fix in found[0].fixes] == [{"trainer.logger": ["console"]}]


@pytest.mark.parametrize(
    "overrides, env",
    [
        (WANDB, frozenset({"WANDB_API_KEY"})),  # the key is set here
        ({"trainer.logger": ["console"]}, frozenset()),  # no wandb
        (WANDB, None),  # a door without environment facts (new, check) knows nothing
        ({**WANDB, "deploy.target": "kuberay-job", "deploy.k8s_secret": "verl-secrets"}, frozenset()),
    ],
)
def test_deploy_016_passing_neighbours(overrides, env):
    assert "DEPLOY-016" not in ids(findings_for(overrides, env=env))


def test_environment_facts_name_only_the_set_secret_variables(monkeypatch):
    answers = build([("test", WANDB)]).answers
    monkeypatch.delenv("WANDB_API_KEY", raising=False)
    assert inspect_env(answers, "local") == {"env": frozenset()}
    monkeypatch.setenv("WANDB_API_KEY", "k")
    assert inspect_env(answers, "local") == {"env": frozenset({"WANDB_API_KEY"})}
