"""Masking on the data, before anything is serialised (issue 31's first class, issue 28's doors).

What a value shows (`mask`: credentials inside it; `shown`: a secret-named key's value), what a message shows
once rendered (its parameters masked, `{key}={value}` of a secret key hidden, template words never touched),
what a fix shows in JSON, and an import's dropped-key lines.
"""

from __future__ import annotations

import json

import pytest

from wizard.core.findings import Fix, error
from wizard.core.masking import mask, shown
from wizard.core.migrations import migrate_flat
from wizard.i18n.text import msg, render, spans

TOKEN = "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH12"
SHA = "0123456789abcdef0123456789abcdef01234567"
MASKED = {
    "run_" + TOKEN: "run_hf_***",
    f"a {TOKEN} b": "a hf_*** b",
    "https://u:s3cret@host/m": "https://u:***@host/m",
    "user:pw@registry.example.com/verl/verl:v1": "user:***@registry.example.com/verl/verl:v1",
    "AccountName=a;AccountKey=abc==": "AccountName=a;AccountKey=***",
    "Server=db;Uid=u;Pwd=hunter2": "Server=db;Uid=u;Pwd=***",
    "+trainer.wandb_key=abc": "+trainer.wandb_key=***",
    "WANDB_API_KEY=abc": "WANDB_API_KEY=***",
    "HF_AUTH=abc": "HF_AUTH=***",
    'say "x_sk-proj-Ab3dEf6hIj9kLmNoPqRsTuVwXyZ" here': 'say "x_sk-***" here',  # the quote stays
}
UNCHANGED = [
    "give it with --env PWD=VALUE",
    "PWD=/home/me",
    "rollout_token_veto_threshold=0.5",
    "max_token_len=4096",
    "HF_TOKEN_PATH=/secrets/hf",
    "prompt_key=question",
    SHA,  # a model revision: a git commit's shape is not a secret format
    "actor_rollout_ref.model.path=Qwen/Qwen3-8B",
    "WANDB_API_KEY=$WANDB_API_KEY",  # a reference, not the value
    "task-assessment-dataset-v2-FINAL-2024",
    'a "quoted" value, with commas; and = signs',
]


@pytest.mark.parametrize("text", MASKED)
def test_a_credential_inside_a_value_is_masked(text):
    assert mask(text) == MASKED[text]


@pytest.mark.parametrize("text", UNCHANGED)
def test_what_only_looks_like_one_is_shown_as_it_is(text):
    assert mask(text) == text


def test_a_secret_named_value_is_hidden_whatever_its_shape():
    assert shown("WANDB_API_KEY", SHA) == "***"  # the same 40 hex a revision has: secret by its name
    assert shown("actor_rollout_ref.model.revision", SHA) == SHA
    assert shown("+trainer.wandb_key", "abc") == "***"
    assert shown("HF_TOKEN", "${oc.env:HF_TOKEN}") == "${oc.env:HF_TOKEN}"
    assert shown("use_auth_token", True) is True  # a switch, not a secret
    assert shown("deploy.secret_env", ["HF_TOKEN", TOKEN]) == ["HF_TOKEN", "hf_***"]  # names shown, a token not
    assert shown("deploy.env", ["HF_TOKEN=abc", "HF_HOME=/c"]) == ["HF_TOKEN=***", "HF_HOME=/c"]
    assert shown("x.engine_kwargs", {"hf_token": "abc", "dtype": "bf16"}) == {"hf_token": "***", "dtype": "bf16"}


def test_a_template_word_is_never_masked_pwd_included():
    """issue 31: `--env PWD=VALUE` was masked over the text as PWD=*** and swallowed JSON's closing quote."""
    note = msg("unknown.env", name="PWD", keys=["data.train_files"], n=1, skipped="")
    text = render(note, "en")
    assert text.endswith("give it with --env PWD=VALUE") and "***" not in text
    assert "***" not in render(note, "zh")


def test_a_secret_key_value_pair_in_a_message_is_hidden_and_its_neighbour_is_not():
    secret = msg("key.not_allowed", key="x.hf_token", value="abc", allowed=["a"])
    plain = msg("key.not_allowed", key="x.dtype", value="abc", allowed=["a"])
    for lang in ("en", "zh"):
        assert "x.hf_token=***" in render(secret, lang) and "abc" not in render(secret, lang)
        assert "x.dtype=abc" in render(plain, lang)
    assert "abc" not in "".join(text for text, _ in spans(secret, "en"))  # the TUI's styled spans too


def test_a_quoted_token_in_a_parameter_keeps_the_json_valid():
    finding = error(
        "DEPLOY-006",
        ["trainer.experiment_name"],
        msg("key.not_allowed", key="trainer.experiment_name", value=f'"run_{TOKEN}"', allowed=['a"b']),
        "why",
        [Fix({"trainer.experiment_name": f'"run_{TOKEN}"', "deploy.env": ["PWD=/x", "HF_TOKEN=t"]}, "label")],
    )
    doc = json.loads(json.dumps(finding.to_json()))
    assert TOKEN not in json.dumps(doc)
    assert doc["fixes"][0]["set"] == {
        "trainer.experiment_name": '"run_hf_***"',
        "deploy.env": ["PWD=/x", "HF_TOKEN=***"],
    }


def test_an_imported_scripts_dropped_key_shows_no_token():
    """issue 28: "Keys dropped" copied the value verbatim into RUN.md and answers.yaml."""
    result = migrate_flat({"actor_rollout_ref.actor.router_replay.record_file": f"/x/run_{TOKEN}"})
    assert result.dropped and all(TOKEN not in line for line in result.dropped), result.dropped
    assert "run_hf_***" in result.dropped[0]
    kept = migrate_flat({"actor_rollout_ref.actor.router_replay.record_file": "/x/run_hf_exp"})
    assert "/x/run_hf_exp" in kept.dropped[0]
