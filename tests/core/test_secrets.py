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

# One definition for variables and config keys (the last part of a dotted key counts).
SECRET_NAMES = [
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
    "hf_token",
    "api_key",
    "access_token",
    "password",
    "AccountKey",
    "client_secret",
    "openai_api_key",
    # issue 28: no separators, AUTH, KEY after a service's name, a dotted key with +
    "HF_AUTH",
    "WANDBAPIKEY",
    "wandbapikey",
    "HFTOKEN",
    "wandb_key",
    "WANDB_KEY",
    "OPENAIKEY",
    "+trainer.wandb_key",
    "actor_rollout_ref.rollout.hf_token_old",
    "use_auth_token",
]
NOT_SECRET_NAMES = [
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
    "PWD",  # the shell's working directory (issue 31)
    "OLDPWD",
    "RAY_AUTH_MODE",
    "HF_TOKEN_ENV",  # names the variable, does not hold it
    "prompt_key",
    "response_key",
    "reward_fn_key",
    "image_key",
    "video_key",
    "key",
    "teacher_key",
    "ppo_max_token_len_per_gpu",
    "max_token_len",
    "rollout_token_veto_threshold",  # issue 31: a threshold, masked as a secret before
    "profile_token_end",
    "num_speculative_tokens",
    "skip_tokenizer_init",
    "token2text",
    "tokenizer_path",
    "max_num_batched_tokens",
    "bypass_mode",
    "pad_token",
    "eos_token_id",
    "forward_pass",
    "secret_env",
    "author",
]


@pytest.mark.parametrize("name", SECRET_NAMES)
def test_secret_names(name):
    assert is_secret_name(name)


@pytest.mark.parametrize("name", NOT_SECRET_NAMES)
def test_names_that_only_look_alike(name):
    assert not is_secret_name(name)


def test_no_key_of_any_verl_release_is_a_secret():
    """verl's own field names (prompt_key, rollout_token_veto_threshold, ...) are never masked nor refused."""
    from wizard.core.migrations import history
    from wizard.core.verl_schema import defaults

    keys = set(history()["keys"]) | set(defaults("dp")) | set(defaults("megatron"))
    assert len(keys) > 1000  # every key of every release the key history knows, and 0.9.1's for both engines
    assert sorted(k for k in keys if is_secret_name(k)) == []


TOKEN = "hf_abcdefghijklmnopqrstuvwxyzABCDEFGH12"
CREDENTIAL_VALUES = {
    "https://user:s3cret@host/models/m": "url_password",
    "s3://AKIDEXAMPLE:wJalr@bucket/train.parquet": "url_password",
    "http://admin:pw@head:8265": "url_password",
    "user:pw@registry.example.com/verl/verl:v1": "url_password",  # an image reference with credentials
    "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=abc123==;EndpointSuffix=core": "pair",
    "https://acct.blob.core.windows.net/c/train.parquet?sv=2022&sig=AbCdEf%3D": "pair",
    "postgres://db/x?password=hunter2": "pair",
    "Server=db;Uid=u;Pwd=hunter2": "pair",  # a connection string's Pwd= is a password
    "--set +trainer.wandb_key=abc": "pair",
    TOKEN: "token",
    "run_" + TOKEN: "token",  # issue 28: glued to a word, no word boundary before it
    "exp-" + TOKEN + "-v2": "token",
    "/ckpt/x" + TOKEN: "token",
    "https://ghp_abcdefghijklmnopqrstuvwxyz0123456789@github.com/o/r": "token",
    "run_ghp_abcdefghijklmnopqrstuvwxyz0123456789": "token",
    "AKIAIOSFODNN7EXAMPLE": "token",
    "key_AKIAIOSFODNN7EXAMPLE": "token",
    "x_sk-proj-Ab3dEf6hIj9kLmNoPqRsTuVwXyZ": "token",
    "sk-Ab3dEf6hIj9kLmNoPqRsTuVwXyZ": "token",
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
    "hf_home_for_the_cluster",
    "sk-learn",
    "sk-learn-experiments-for-the-win",  # sk- and a long body, but no token's random look
    "task-assessment-dataset-v2-FINAL-2024",  # ends in sk-: a word, not a key
    "postgres://db/x?password=$DB_PASS",
    # A 40-hex git commit (a model revision) is not a secret format; a W&B key of the same shape is secret by
    # its name only (WANDB_API_KEY=..., wandb_key: ...).
    "0123456789abcdef0123456789abcdef01234567",
    "PWD=/home/me",  # $PWD's name, not a connection string's password
    "give it with --env PWD=VALUE",
    "verlai/verl:vllm024.dev2",
    "ubuntu:22.04@sha256:" + "ab" * 32,  # a digest, not user:password@
    "exp:lr@1e-5",
    "rollout_token_veto_threshold=0.5",
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
    # issue 28: each of these passed before
    "a token glued to a word": ({"trainer.experiment_name": "run_" + TOKEN}, {"trainer.experiment_name": "run_hf_exp"}),
    "deploy.env, AUTH": ({"deploy.env": ["HF_AUTH=abc"]}, {"deploy.env": ["RAY_AUTH_MODE=token"]}),
    "deploy.env, no separators": ({"deploy.env": ["WANDBAPIKEY=abc"]}, {"deploy.env": ["WANDBMODE=abc"]}),
    "a service's key": ({"trainer.wandb_key": "abc"}, {"trainer.teacher_key": "abc"}),
    "an image with credentials": (
        {"deploy.target": "kuberay-job", "deploy.image": "user:pw@registry.example.com/verl/verl:v1"},
        {"deploy.target": "kuberay-job", "deploy.image": "registry.example.com/verl/verl:v1@sha256:" + "ab" * 32},
    ),
    "a token where a variable's name belongs": (
        {"deploy.target": "slurm", "deploy.secret_env": [TOKEN]},
        {"deploy.target": "slurm", "deploy.secret_env": ["HF_TOKEN"]},
    ),
    "a token where a Secret's name belongs": ({"deploy.k8s_secret": TOKEN}, {"deploy.k8s_secret": "verl-secrets"}),
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
    [
        r
        for r in ROUTES
        if r not in ("a token in a passed-through value", "an OmegaConf read of a secret", "a token glued to a word")
    ],
)
def test_the_fix_of_each_route_removes_the_finding(route):
    bad, _ = ROUTES[route]
    values = {**BASE, **bad}
    found = deploy_006(values)
    assert found and found[0].fixes, route
    assert "DEPLOY-006" not in fixed(values, found[0]), route


def test_a_manifest_read_back_keeps_its_own_reference_syntax():
    """A shell manifest passes a variable on (bash expands it); Kubernetes expands only `$(X)`: `$X` is the text."""
    from wizard.core.rules.deploy.facts import DeployFacts, NodeGroup

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
