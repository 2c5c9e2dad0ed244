"""Secrets are never written inline: names, values and routes, each refused (DEPLOY-006) or made a reference.

Tables: which variable and key names are secrets (with the allowed neighbours that look alike), which
values carry a credential, and every route a secret can take into the answers, each with its passing
neighbour. The rule's fixes must remove the finding (the fix check every rule test uses).
"""

from __future__ import annotations

import pytest

from tests.emit.test_manifests_rules import fixed, ids
from wizard.core.layers import build
from wizard.core.rules import context_for, evaluate
from wizard.core.secrets import credential_in, is_secret_name, without_userinfo

SECRET_VARIABLES = [
    "HF_TOKEN",
    "WANDB_API_KEY",
    "wandb_api_key",
    "Hf_Token",
    "GITHUB_PAT",
    "MY_APIKEY",
    "DB_PASS",
    "WANDB_API_KEY_",
    "AWS_SECRET_ACCESS_KEY",
    "AWS_ACCESS_KEY_ID",
    "OPENAI_API_KEY",
    "HUGGING_FACE_HUB_TOKEN",
    "DATABASE_PASSWORD",
    "hfToken",
    "AZURE_STORAGE_SAS",
    "GOOGLE_APPLICATION_CREDENTIALS_JSON",
]
NEIGHBOUR_VARIABLES = [
    "WANDB_PROJECT",
    "WANDB_ENTITY",
    "WANDB_MODE",
    "HF_HOME",
    "HF_HUB_OFFLINE",
    "TOKENIZERS_PARALLELISM",
    "HF_TOKEN_PATH",
    "SSH_KEY_PATH",
    "PASSWORD_FILE",
    "NCCL_DEBUG",
    "PYTHONHASHSEED",
    "SECRET_NAME",
    "KEYBOARD_LAYOUT",
    "PATH",
    "PWD",
    "RAY_AUTH_MODE",
]
SECRET_KEYS = ["hf_token", "api_key", "access_token", "password", "AccountKey", "client_secret", "openai_api_key"]
NEIGHBOUR_KEYS = [
    "prompt_key",
    "reward_fn_key",
    "key",
    "teacher_key",
    "ppo_max_token_len_per_gpu",
    "profile_token_end",
    "num_speculative_tokens",
    "skip_tokenizer_init",
    "token2text",
    "tokenizer_path",
    "max_num_batched_tokens",
    "bypass_mode",
]


@pytest.mark.parametrize("name", SECRET_VARIABLES)
def test_secret_variable_names(name):
    assert is_secret_name(name)


@pytest.mark.parametrize("name", NEIGHBOUR_VARIABLES)
def test_variable_names_that_only_look_alike(name):
    assert not is_secret_name(name)


@pytest.mark.parametrize("name", SECRET_KEYS)
def test_secret_key_names(name):
    assert is_secret_name(name, "key")


@pytest.mark.parametrize("name", NEIGHBOUR_KEYS)
def test_verl_keys_that_only_look_alike(name):
    assert not is_secret_name(name, "key")


CREDENTIAL_VALUES = {
    "https://user:s3cret@host/models/m": "url_password",
    "s3://AKIDEXAMPLE:wJalr@bucket/train.parquet": "url_password",
    "http://admin:pw@head:8265": "url_password",
    "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=abc123==;EndpointSuffix=core": "pair",
    "https://acct.blob.core.windows.net/c/train.parquet?sv=2022&sig=AbCdEf%3D": "pair",
    "postgres://db/x?password=hunter2": "pair",
    "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH12": "token",
    "https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r": "token",
    "AKIAIOSFODNN7EXAMPLE": "token",
    "-----BEGIN OPENSSH PRIVATE KEY-----": "token",
}
PLAIN_VALUES = [
    "Qwen/Qwen3-8B",
    "/data/gsm8k/train.parquet",
    "hdfs://namenode:8020/data/train.parquet",
    "http://10.0.0.1:8265",
    "git@github.com:org/repo.git",
    "https://user@host/models/m",
    "key=value",
    "prompt_key=question",
    "hf_transfer",
    "sk-learn",
    "postgres://db/x?password=$DB_PASS",
]


@pytest.mark.parametrize("value", CREDENTIAL_VALUES)
def test_values_carrying_a_credential(value):
    found = credential_in(value)
    assert found is not None and found[0] == CREDENTIAL_VALUES[value]


@pytest.mark.parametrize("value", PLAIN_VALUES)
def test_values_without_one(value):
    assert credential_in(value) is None


def test_a_url_without_its_user_and_password():
    assert without_userinfo("https://u:p@host:9/x?y=1") == "https://host:9/x?y=1"
    assert without_userinfo("a https://u:p@h/x and s3://k:s@b/y") == "a https://h/x and s3://b/y"


def deploy_006(values: dict):
    layered = build([("test", values)])
    ctx = context_for(layered.answers, layered.flat, mode="cluster")
    return [f for f in evaluate(ctx) if f.id == "DEPLOY-006"]


BASE = {"actor_rollout_ref.model.path": "Qwen/Qwen3-8B", "actor_rollout_ref.rollout.name": "vllm"}
TOKEN = "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH12"
# route: (values that carry a secret, the neighbour that does not)
ROUTES = {
    "deploy.env, lower-case name": ({"deploy.env": ["wandb_api_key=abc"]}, {"deploy.env": ["wandb_project=abc"]}),
    "deploy.env, mixed case": ({"deploy.env": ["Hf_Token=abc"]}, {"deploy.env": ["Hf_Home=/cache"]}),
    "deploy.env, PAT": ({"deploy.env": ["GITHUB_PAT=abc"]}, {"deploy.env": ["GITHUB_PATH=/x"]}),
    "deploy.env, APIKEY": ({"deploy.env": ["MY_APIKEY=abc"]}, {"deploy.env": ["MY_API=abc"]}),
    "deploy.env, PASS": ({"deploy.env": ["DB_PASS=abc"]}, {"deploy.env": ["DB_HOST=abc"]}),
    "deploy.env, trailing _": ({"deploy.env": ["WANDB_API_KEY_=abc"]}, {"deploy.env": ["WANDB_MODE=offline"]}),
    "deploy.env, $X never expanded": (
        {"deploy.env": ["WANDB_API_KEY=$X"]},
        {"deploy.secret_env": ["WANDB_API_KEY"]},
    ),
    "deploy.env beside its own Secret": (
        {"deploy.env": ["MY_SETTING=1"], "deploy.secret_env": ["MY_SETTING"]},
        {"deploy.env": ["MY_SETTING=1"]},
    ),
    "deploy.env, credential in a value": (
        {"deploy.env": ["DATABASE_URL=postgres://u:pw@db/x"]},
        {"deploy.env": ["DATABASE_URL=postgres://db/x"]},
    ),
    "deploy.env, AccountKey in a value": (
        {"deploy.env": ["AZURE_CONN=AccountName=a;AccountKey=abc=="]},
        {"deploy.env": ["AZURE_CONN=AccountName=a"]},
    ),
    "model path": (
        {"actor_rollout_ref.model.path": "https://user:s3cret@host/m"},
        {"actor_rollout_ref.model.path": "https://host/m"},
    ),
    "critic path": ({"critic.model.path": "s3://k:s@bucket/m"}, {"critic.model.path": "s3://bucket/m"}),
    "data paths": (
        {"data.train_files": ["s3://k:s@bucket/a.parquet", "/data/b.parquet"]},
        {"data.train_files": ["s3://bucket/a.parquet", "/data/b.parquet"]},
    ),
    "Ray address": (
        {"deploy.target": "ray-job", "deploy.ray_address": "http://admin:pw@head:8265"},
        {"deploy.target": "ray-job", "deploy.ray_address": "http://head:8265"},
    ),
    "engine kwargs key": (
        {"actor_rollout_ref.rollout.engine_kwargs.vllm.hf_token": TOKEN},
        {"actor_rollout_ref.rollout.engine_kwargs.vllm.enforce_eager": True},
    ),
    "engine kwargs key, nested": (
        {"actor_rollout_ref.rollout.engine_kwargs.vllm": {"hf_token": TOKEN}},
        {"actor_rollout_ref.rollout.engine_kwargs.vllm": {"enforce_eager": True}},
    ),
    "a token in a passed-through value": (
        {"trainer.experiment_name": TOKEN},
        {"trainer.experiment_name": "hf_experiment"},
    ),
    "an OmegaConf read of a secret": (
        {"trainer.experiment_name": "${oc.env:WANDB_API_KEY}"},
        {"trainer.experiment_name": "${oc.env:USER}"},
    ),
}


@pytest.mark.parametrize("route", ROUTES)
def test_every_route_of_a_secret_is_refused_and_its_neighbour_is_not(route):
    bad, good = ROUTES[route]
    found = deploy_006({**BASE, **bad})
    assert found, route
    for f in found:
        message = str(f.message)
        assert "s3cret" not in message and TOKEN not in message and "pw@" not in message and "abc==" not in message
    assert deploy_006({**BASE, **good}) == [], route


@pytest.mark.parametrize(
    "route",
    [r for r in ROUTES if r not in ("a token in a passed-through value", "an OmegaConf read of a secret")],
)
def test_the_fix_of_each_route_removes_the_finding(route):
    bad, _ = ROUTES[route]
    values = {**BASE, **bad}
    found = deploy_006(values)
    assert found and found[0].fixes, route
    assert "DEPLOY-006" not in fixed(values, found[0]), route


def test_a_manifest_read_back_keeps_its_own_reference_syntax():
    """A shell manifest passes a variable on (bash expands it); Kubernetes expands only `$(X)`: `$X` is the text."""
    from wizard.core.rules.deploy_facts import DeployFacts, NodeGroup

    def env_finding(target, value):
        group = NodeGroup("head", 1, 8, 32.0, {"HF_TOKEN": value}, where="headGroupSpec")
        facts = DeployFacts(target=target, origin="manifest", source="m", groups=(group,))
        layered = build([("test", BASE)])
        ctx = context_for(layered.answers, layered.flat, mode="cluster", deploy=facts)
        return [f for f in evaluate(ctx) if f.id == "DEPLOY-006"]

    assert env_finding("slurm", "${HF_TOKEN}") == []  # the script reader's form of a variable bash expands
    assert env_finding("kuberay-job", "$(HF_TOKEN)") == []
    assert env_finding("kuberay-job", "$HF_TOKEN") and env_finding("slurm", "hf_literal")
    assert env_finding("slurm", "$X")  # export HF_TOKEN='$X': single quotes, the two characters


def test_wandb_logging_without_the_key_in_deploy_env_passes():
    assert "DEPLOY-006" not in ids({"deploy.target": "slurm", "trainer.logger": ["console", "wandb"]})
