"""`check` on launch scripts in the forms public repos write them, where its verdict must be verl 0.9.1's (issue 31).

Each class of wrong verdict has a test that failed before its fix and a passing neighbour:
`--config-name` with the .yaml suffix, `+key` for a key verl 0.9.1 no longer has, sequence parallelism set
where verl 0.9 reads it, a placeholder or an empty value where verl needs a number, the CPUs Ray counts on a
one-node sbatch, and the legacy `reward_model.enable` that main_ppo ignores. The conformance tier
(tests/conformance/test_launch_corpus_verl.py) compares the same forms with verl's own verdict.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli.helpers import check_json

HEAD = """#!/bin/bash
set -x
export VLLM_ATTENTION_BACKEND=XFORMERS

python3 -m verl.trainer.main_ppo{flags} \\
    algorithm.adv_estimator=grpo \\
    data.train_files=/data/gsm8k/train.parquet \\
    data.val_files=/data/gsm8k/test.parquet \\
    data.train_batch_size=64 \\
    data.max_prompt_length=512 \\
    data.max_response_length=1024 \\
    actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \\
    actor_rollout_ref.actor.optim.lr=1e-6 \\
    actor_rollout_ref.actor.ppo_mini_batch_size=16 \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=2 \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.rollout.n=4 \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4 \\
    actor_rollout_ref.ref.log_prob_micro_batch_size_per_gpu=4 \\
"""
TAIL = """    trainer.logger=['console'] \\
    trainer.project_name=gsm8k \\
    trainer.n_gpus_per_node=8 \\
    trainer.nnodes=1 \\
    trainer.total_epochs=15 $@
"""


def script(tmp_path: Path, lines: list[str], flags: str = "", name: str = "run.sh") -> Path:
    path = tmp_path / name
    path.write_text(HEAD.format(flags=flags) + "".join(f"    {line} \\\n" for line in lines) + TAIL)
    return path


def findings(path: Path, *args: str) -> tuple[int, list[dict]]:
    proc, doc = check_json(path, "--mode", "cluster", *args)
    assert proc.returncode in (0, 1), (proc.returncode, proc.stderr)
    return proc.returncode, doc["findings"]


def ids(found: list[dict]) -> set[tuple[str, str]]:
    return {(f["id"], f["paths"][0]) for f in found}


# -- 3. --config-name with the .yaml suffix -------------------------------------------------------------

MEGATRON = [
    "actor_rollout_ref.actor.megatron.tensor_model_parallel_size=2",
    "actor_rollout_ref.actor.megatron.pipeline_model_parallel_size=2",
    "actor_rollout_ref.ref.megatron.tensor_model_parallel_size=2",
    "actor_rollout_ref.ref.megatron.pipeline_model_parallel_size=2",
]


@pytest.mark.parametrize(
    "flags",
    [
        " --config-name='ppo_megatron_trainer.yaml'",  # the suffix, quoted (failed before the fix)
        " --config-name=ppo_megatron_trainer.yaml",
        " --config-name ppo_megatron_trainer.yaml",
        ' --config-name="ppo_megatron_trainer"',  # the neighbour: no suffix
    ],
)
def test_the_megatron_config_named_with_its_yaml_suffix_takes_the_megatron_keys(tmp_path, flags):
    _, found = findings(script(tmp_path, MEGATRON, flags))
    assert not [f for f in found if f["id"] in ("KEY-001", "SCRIPT-009")], found


def test_the_megatron_keys_on_verls_fsdp_config_are_still_key_001(tmp_path):
    _, found = findings(script(tmp_path, MEGATRON, " --config-name='ppo_trainer.yaml'"))
    ref = {m.partition("=")[0] for m in MEGATRON if ".ref." in m}
    assert {p for i, p in ids(found) if i == "KEY-001"} == ref


# -- 4. +key for a key verl 0.9.1 no longer has ---------------------------------------------------------


def test_plus_on_a_key_an_older_verl_had_is_no_effect_naming_its_replacement(tmp_path):
    code, found = findings(
        script(tmp_path, ["+trainer.profile_steps=[1,2]", "+trainer.val_generations_to_log_to_wandb=10"])
    )
    assert code == 0, found  # verl 0.9.1 composes both and starts (the conformance tier checks it does)
    assert ids(found) >= {("KEY-003", "trainer.profile_steps"), ("KEY-003", "trainer.val_generations_to_log_to_wandb")}
    steps = next(f for f in found if f["paths"] == ["trainer.profile_steps"])
    assert steps["severity"] == "warning"
    assert "never reads it" in steps["message"] and "renamed to global_profiler.steps in verl 0.6.0" in steps["message"]
    assert steps["fixes"][0]["set"] == {"trainer.profile_steps": None, "global_profiler.steps": [1, 2]}


def test_plus_on_an_old_key_under_a_config_class_and_the_old_key_without_plus_stay_errors(tmp_path):
    # verl builds rollout into RolloutConfig ("unexpected keyword argument"); without + Hydra refuses the key
    _, found = findings(
        script(tmp_path, ["+actor_rollout_ref.rollout.val_temperature=0.6", "trainer.profile_steps=[1]"])
    )
    errors = {(f["id"], f["paths"][0]) for f in found if f["severity"] == "error"}
    assert ("KEY-001", "actor_rollout_ref.rollout.val_temperature") in errors
    assert ("KEY-001", "trainer.profile_steps") in errors


# -- 5. sequence parallelism where verl 0.9 reads it ----------------------------------------------------

LONG = [
    "data.max_prompt_length=2048",
    "data.max_response_length=30720",
    "actor_rollout_ref.model.use_remove_padding=True",
    "actor_rollout_ref.actor.use_dynamic_bsz=True",
    "actor_rollout_ref.actor.ppo_max_token_len_per_gpu=16384",
    "actor_rollout_ref.actor.use_kl_loss=True",
]


def budget_errors(found):
    return {f["paths"][0] for f in found if f["id"] == "BATCH-007"}


def test_token_budgets_count_the_sp_of_fsdp_config(tmp_path):
    sp = [
        "actor_rollout_ref.actor.fsdp_config.ulysses_sequence_parallel_size=2",
        "actor_rollout_ref.ref.fsdp_config.ulysses_sequence_parallel_size=2",
    ]
    _, found = findings(script(tmp_path, [*LONG, *sp]))
    assert budget_errors(found) == set(), [f["message"] for f in found]


def test_token_budgets_without_sp_and_with_the_ref_left_at_sp_1_are_short(tmp_path):
    _, bare = findings(script(tmp_path, LONG))
    assert budget_errors(bare) == {
        "actor_rollout_ref.actor.ppo_max_token_len_per_gpu",
        "actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu",
        "actor_rollout_ref.ref.log_prob_max_token_len_per_gpu",
    }
    # the ref has its own fsdp_config: sp 2 on the actor's alone leaves the ref's pass at sp 1
    _, actor_only = findings(
        script(tmp_path, [*LONG, "actor_rollout_ref.actor.fsdp_config.ulysses_sequence_parallel_size=2"], name="a.sh")
    )
    assert budget_errors(actor_only) == {"actor_rollout_ref.ref.log_prob_max_token_len_per_gpu"}
    [ref] = [f for f in actor_only if f["id"] == "BATCH-007"]
    assert "16384 × sp 1 = 16384" in ref["message"]


def test_the_deprecated_actor_sp_still_counts_for_actor_and_ref(tmp_path):
    # verl copies actor.ulysses_sequence_parallel_size > 1 into fsdp_config; the ref's follows it by interpolation
    _, found = findings(script(tmp_path, [*LONG, "actor_rollout_ref.actor.ulysses_sequence_parallel_size=2"]))
    assert budget_errors(found) == set()


def test_the_critics_token_budget_counts_the_sp_of_its_engine(tmp_path):
    # verl 0.9.1's V1 critic packs with critic.fsdp's size; FSDPCriticConfig copies no deprecated key into it
    sp = [
        "actor_rollout_ref.actor.fsdp_config.ulysses_sequence_parallel_size=2",
        "actor_rollout_ref.ref.fsdp_config.ulysses_sequence_parallel_size=2",
        "critic.model.path=Qwen/Qwen2.5-0.5B-Instruct",
        "critic.model.use_remove_padding=True",
        "critic.ppo_max_token_len_per_gpu=16384",
    ]
    critic = {"critic.ppo_max_token_len_per_gpu", "critic.forward_max_token_len_per_gpu"}
    for name, extra, short in [
        ("engine.sh", ["critic.fsdp.ulysses_sequence_parallel_size=2"], set()),
        ("none.sh", [], critic),
        ("deprecated.sh", ["critic.ulysses_sequence_parallel_size=2"], critic),
    ]:
        path = script(tmp_path, [*LONG, *sp, *extra], name=name)
        path.write_text(path.read_text().replace("adv_estimator=grpo", "adv_estimator=gae"))
        _, found = findings(path)
        assert budget_errors(found) == short, (name, [f["message"] for f in found if f["id"] == "BATCH-007"])


def test_token_budgets_count_the_sp_of_the_veomni_engine(tmp_path):
    # `model_engine=veomni` packs with veomni.ulysses_parallel_size; the ref's follows the actor's by interpolation
    veomni = ["model_engine=veomni", "actor_rollout_ref.actor.veomni.ulysses_parallel_size=2"]
    _, found = findings(script(tmp_path, [*LONG, *veomni]))
    assert budget_errors(found) == set(), [f["message"] for f in found if f["id"] == "BATCH-007"]
    _, ref_at_1 = findings(
        script(tmp_path, [*LONG, *veomni, "actor_rollout_ref.ref.veomni.ulysses_parallel_size=1"], name="r.sh")
    )
    assert budget_errors(ref_at_1) == {"actor_rollout_ref.ref.log_prob_max_token_len_per_gpu"}


def test_the_veomni_engine_without_its_sp_is_short(tmp_path):
    _, bare = findings(script(tmp_path, [*LONG, "model_engine=veomni"]))
    assert budget_errors(bare) == {
        "actor_rollout_ref.actor.ppo_max_token_len_per_gpu",
        "actor_rollout_ref.rollout.log_prob_max_token_len_per_gpu",
        "actor_rollout_ref.ref.log_prob_max_token_len_per_gpu",
    }


# -- 6. a placeholder or an empty value where verl needs a number ---------------------------------------


def test_a_placeholder_is_an_error_at_its_key_and_every_other_rule_runs(tmp_path):
    path = script(tmp_path, ["trainer.nnodes=TO_BE_FILLED", "actor_rollout_ref.actor.ppo_epoch=2"])
    text = path.read_text().replace("    trainer.nnodes=1 \\\n", "").replace("rollout.n=4", "rollout.n=1")
    path.write_text(text)
    code, found = findings(path)
    assert code == 1
    [placeholder] = [f for f in found if f["id"] == "SCRIPT-016"]
    assert placeholder["paths"] == ["trainer.nnodes"] and placeholder["severity"] == "error"
    assert "trainer.nnodes=TO_BE_FILLED" in placeholder["message"] and "valid integer" in placeholder["message"]
    assert ("BATCH-008", "actor_rollout_ref.rollout.n") in ids(found)  # grpo with n=1: a rule without nnodes
    assert ("KEY-001", "actor_rollout_ref.actor.ppo_epoch") in ids(found)  # the typo, as always


def test_an_empty_variable_for_the_gpu_count_is_an_error_and_the_rules_that_need_it_are_skipped(tmp_path):
    path = tmp_path / "run.sh"
    path.write_text(script(tmp_path, []).read_text().replace("n_gpus_per_node=8", "n_gpus_per_node=$GPUS_PER_NODE"))
    proc, doc = check_json(path, "--mode", "cluster", "--env", "GPUS_PER_NODE=")
    assert proc.returncode == 1, proc.stderr
    assert ids(doc["findings"]) >= {("SCRIPT-016", "trainer.n_gpus_per_node")}
    assert not [f for f in doc["findings"] if f["id"] == "SCRIPT-003"]  # SCRIPT-016 says it, once
    [note] = [n for n in doc["notes"] if "trainer.n_gpus_per_node=" in n]
    assert "left out of the check, so the rules that read it were skipped" in note and "BATCH-001" in note
    # the neighbour: the variable given, a number
    proc, doc = check_json(path, "--mode", "cluster", "--env", "GPUS_PER_NODE=8")
    assert proc.returncode == 0 and not ids(doc["findings"]) & {("SCRIPT-016", "trainer.n_gpus_per_node")}


REFUSED_SHAPES = [
    ("trainer.nnodes=0", "greater than or equal to 1"),
    ("trainer.nnodes=true", "not a boolean"),
    ("trainer.nnodes=inf", "finite number"),
    ("trainer.nnodes=1.5", "fractional part"),
    ("trainer.nnodes=[1]", "valid integer"),
    ("trainer.experiment_name=[a,b]", "should be text"),
]


@pytest.mark.parametrize(("written", "reason"), REFUSED_SHAPES, ids=[w for w, _ in REFUSED_SHAPES])
def test_a_value_the_schema_refuses_in_a_script_is_a_finding_and_the_rest_is_checked(tmp_path, written, reason):
    """A readable script with a value out of range or of another shape: SCRIPT-016 at its key (not the
    placeholder's wording), exit 1, and the other rules still run (before: exit 2, nothing checked)."""
    key = written.partition("=")[0]
    path = script(tmp_path, [written, "actor_rollout_ref.actor.ppo_epoch=2"])
    path.write_text(path.read_text().replace("    trainer.nnodes=1 \\\n", ""))  # the script's own, after ours
    proc, doc = check_json(path, "--mode", "cluster")
    assert proc.returncode == 1, proc.stderr
    [refused] = [f for f in doc["findings"] if f["id"] == "SCRIPT-016"]
    assert refused["paths"] == [key] and reason in refused["message"]
    assert written in refused["message"] and "placeholder" not in refused["message"]
    assert ("KEY-001", "actor_rollout_ref.actor.ppo_epoch") in ids(doc["findings"])  # the rest was checked


NAMES_AS_NUMBERS = ["trainer.experiment_name=123", "trainer.experiment_name=20240101", "trainer.experiment_name=true"]


@pytest.mark.parametrize("written", NAMES_AS_NUMBERS)
def test_a_number_where_text_goes_is_its_text(tmp_path, written):
    """Hydra types `experiment_name=123` as a number and verl takes it (no type on that key): no finding."""
    key = written.partition("=")[0]
    proc, doc = check_json(script(tmp_path, [written]), "--mode", "cluster")
    assert proc.returncode in (0, 1), proc.stderr
    assert not [f for f in doc["findings"] if key in f["paths"]]


def test_a_character_no_file_can_hold_is_still_bad_input(tmp_path):
    path = script(tmp_path, ["trainer.experiment_name=a\x01b"])
    proc, doc = check_json(path, "--mode", "cluster")
    assert proc.returncode == 2 and doc is None and "trainer.experiment_name" in proc.stderr


# -- 7. DEPLOY-005 on a one-node sbatch ----------------------------------------------------------------

SBATCH = """#!/bin/bash
#SBATCH --job-name=grpo-gsm8k
#SBATCH --nodes=1
#SBATCH --ntasks-per-node=1
#SBATCH --gpus-per-node=4
#SBATCH --cpus-per-task=4
#SBATCH --time=24:00:00
{ray}
python3 -m verl.trainer.main_ppo \\
    algorithm.adv_estimator=grpo \\
    data.train_files=/data/gsm8k/train.parquet \\
    data.val_files=/data/gsm8k/test.parquet \\
    data.train_batch_size=64 \\
    actor_rollout_ref.model.path=Qwen/Qwen2.5-0.5B-Instruct \\
    actor_rollout_ref.actor.ppo_mini_batch_size=16 \\
    actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=4 \\
    actor_rollout_ref.rollout.name=vllm \\
    actor_rollout_ref.rollout.n=4 \\
    actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=4 \\
    trainer.logger=console \\
    trainer.n_gpus_per_node=4 \\
    trainer.nnodes=1{extra}
"""


def deploy_005(tmp_path: Path, ray: str = "", extra: str = "") -> list[dict]:
    path = tmp_path / "job.sbatch"
    path.write_text(SBATCH.format(ray=ray, extra=extra))
    _, found = findings(path)
    return [f for f in found if f["id"] == "DEPLOY-005"]


def test_verls_own_ray_on_one_node_counts_the_nodes_cpus_not_cpus_per_task(tmp_path):
    assert deploy_005(tmp_path) == []


def test_ray_init_num_cpus_on_the_command_line_is_what_verls_ray_gets(tmp_path):
    [short] = deploy_005(tmp_path, extra=" \\\n    ray_kwargs.ray_init.num_cpus=4")
    assert (
        "verl's own Ray (ray_kwargs.ray_init.num_cpus" in short["message"] and "4 CPUs for 4 GPU(s)" in short["message"]
    )
    assert deploy_005(tmp_path, extra=" \\\n    +ray_kwargs.ray_init.num_cpus=64") == []


def test_ray_start_with_num_cpus_gets_those_and_without_it_the_nodes(tmp_path):
    start = 'ray start --head --num-gpus=4 {cpus}--disable-usage-stats\nexport RAY_ADDRESS="127.0.0.1:6379"\n'
    [short] = deploy_005(tmp_path, ray=start.format(cpus='--num-cpus="${SLURM_CPUS_PER_TASK}" '))
    assert "4 CPUs for 4 GPU(s)" in short["message"]
    assert deploy_005(tmp_path, ray=start.format(cpus="")) == []


# -- 8. the legacy reward_model.enable on main_ppo ------------------------------------------------------

RM = ["reward_model.model.path=Skywork/Skywork-Reward-V2-Qwen3-0.6B", "reward_model.micro_batch_size_per_gpu=4"]


def test_legacy_reward_model_enable_true_is_an_error_the_run_trains_without_it(tmp_path):
    code, found = findings(script(tmp_path, ["reward_model.enable=True", *RM]))
    assert code == 1
    [switch] = [f for f in found if f["paths"] == ["reward_model.enable"]]
    assert (switch["id"], switch["severity"]) == ("KEY-008", "error")
    assert "main_ppo reads only reward.reward_model.enable" in switch["message"]
    assert switch["fixes"][0]["set"] == {
        "reward_model.enable": None,
        "reward.reward_model.enable": True,
        "reward.reward_model.rollout.name": "vllm",
    }


def test_legacy_reward_model_enable_false_restates_the_default_a_warning(tmp_path):
    _, found = findings(script(tmp_path, ["reward_model.enable=False"]))
    [switch] = [f for f in found if f["paths"] == ["reward_model.enable"]]
    assert (switch["id"], switch["severity"]) == ("KEY-003", "warning")
