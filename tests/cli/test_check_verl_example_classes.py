"""Classes of disagreement with verl 0.9.1 found on verl's own example scripts (issue 31), each on a fixture of
the launch corpus written for it: `check` gives the verdict verl gives.
"""

from __future__ import annotations

import json

from tests.cli.helpers import ROOT, cli

CORPUS = ROOT / "tests" / "fixtures" / "launch_corpus"


def check(name: str, *script_args: str) -> tuple[int, dict]:
    result = cli("check", "--mode", "cluster", "--format", "json", str(CORPUS / name), "--", *script_args)
    return result.returncode, json.loads(result.stdout)


def test_a_group_estimator_with_one_response_passes_with_a_warning():
    # verl 0.9.1 trains it (a one-response group's mean is taken as 0): a warning, not a refusal.
    code, doc = check("60_rloo_one_sample.sh")
    assert (code, doc["verdict"]) == (0, "pass")
    assert [(f["id"], f["severity"]) for f in doc["findings"]] == [("BATCH-008", "warning")]
    assert "no baseline" in doc["findings"][0]["message"]


def test_pass_at_k_with_one_response_is_still_refused():
    # The neighbour: grpo_passk raises in verl on a group of one, so check fails it (BATCH-015).
    code, doc = check("60_rloo_one_sample.sh", "algorithm.adv_estimator=grpo_passk")
    assert (code, doc["verdict"]) == (1, "fail")
    found = [(f["id"], f["severity"]) for f in doc["findings"]]
    assert ("BATCH-015", "error") in found and "BATCH-008" not in {i for i, _ in found}


SCRIPTS = ROOT / "tests" / "fixtures" / "scripts"


def test_a_script_of_another_verl_program_is_reported_not_refused():
    # verl's SFT examples run verl.trainer.sft_trainer: nothing of main_ppo to judge, so one note, exit 0 (was 2).
    result = cli("check", "--mode", "cluster", "--format", "json", str(SCRIPTS / "sft_entry.sh"), "--")
    doc = json.loads(result.stdout)
    assert (result.returncode, doc["verdict"]) == (0, "pass")
    assert [(f["id"], f["severity"]) for f in doc["findings"]] == [("SCRIPT-017", "info")]
    assert "verl.trainer.sft_trainer (line 6)" in doc["findings"][0]["message"]


def test_a_script_that_exits_before_any_command_is_reported():
    result = cli("check", "--mode", "cluster", "--format", "json", str(SCRIPTS / "moved_notice.sh"))
    doc = json.loads(result.stdout)
    assert (result.returncode, [f["id"] for f in doc["findings"]]) == (0, ["SCRIPT-017"])
    assert "line 5 (exit 1)" in doc["findings"][0]["message"]


def test_a_script_without_any_verl_program_names_what_it_runs():
    # The neighbour: data preparation only (an echo that names main_ppo does not count) is no other verl program;
    # check names the programs it runs instead (it was exit 2 until verl-recipe's preparation scripts, issue 31).
    result = cli("check", "--format", "json", str(SCRIPTS / "no_verl_command.sh"))
    doc = json.loads(result.stdout)
    assert (result.returncode, [f["id"] for f in doc["findings"]]) == (0, ["SCRIPT-017"])
    message = doc["findings"][0]["message"]
    assert "runs no verl program, only `python3 examples/data_preprocess/gsm8k.py` (line 4)" in message
    assert "another verl program" not in message


def test_a_command_whose_program_is_unknown_is_a_note_not_bad_input():
    # `$LAUNCHER overrides...` with LAUNCHER unset here: the program may be main_ppo; unknown is never exit 2.
    result = cli("check", "--format", "json", str(SCRIPTS / "program_from_env.sh"))
    doc = json.loads(result.stdout)
    assert (result.returncode, [f["id"] for f in doc["findings"]]) == (0, ["SCRIPT-017"])
    assert "line 5 is $LAUNCHER" in doc["findings"][0]["message"]
    # Given, it is read as the main_ppo run it is.
    given = cli(
        "check",
        "--format",
        "json",
        "--env",
        "LAUNCHER=python3 -m verl.trainer.main_ppo",
        str(SCRIPTS / "program_from_env.sh"),
    )
    assert "SCRIPT-017" not in {f["id"] for f in json.loads(given.stdout)["findings"]}


def test_a_rollout_replica_of_whole_nodes_passes_with_a_warning():
    # verl's 72B scaling example: TP 16 on nodes of 8 GPUs; verl 0.9.1 builds each replica over two whole nodes.
    code, doc = check("61_rollout_tp_two_nodes.sh")
    assert (code, doc["verdict"]) == (0, "pass")
    assert [(f["id"], f["severity"]) for f in doc["findings"]] == [("PLACE-014", "warning")]


def test_a_rollout_replica_wider_than_a_node_but_not_of_whole_nodes_is_refused():
    # The neighbour: TP 6 on nodes of 4 GPUs; verl's RolloutReplica asserts its world size is whole nodes.
    env = ("--env", "NODES=3", "--env", "PER_NODE=4", "--env", "ROLLOUT_TP=6")
    result = cli("check", "--mode", "cluster", "--format", "json", *env, str(CORPUS / "61_rollout_tp_two_nodes.sh"))
    doc = json.loads(result.stdout)
    assert (result.returncode, doc["verdict"]) == (1, "fail")
    assert ("PLACE-002", "error") in [(f["id"], f["severity"]) for f in doc["findings"]]


def test_a_recipe_trainer_is_another_verl_program_not_bad_input():
    # verl-recipe's scripts run `python3 -m recipe.X.main_Y`: 16 of its 103 scripts ended check with exit 2.
    result = cli("check", "--format", "json", str(SCRIPTS / "recipe_entry.sh"))
    doc = json.loads(result.stdout)
    assert (result.returncode, [f["id"] for f in doc["findings"]]) == (0, ["SCRIPT-017"])
    assert "recipe.mytrick.main_trick (line 5)" in doc["findings"][0]["message"]


def test_a_module_given_verl_overrides_is_a_verl_program():
    result = cli("check", "--format", "json", str(SCRIPTS / "own_trainer_entry.sh"))
    doc = json.loads(result.stdout)
    assert (result.returncode, [f["id"] for f in doc["findings"]]) == (0, ["SCRIPT-017"])
    assert "rep_study.main_study" in doc["findings"][0]["message"]


def test_a_module_given_no_verl_overrides_is_not():
    # The neighbour: `python3 -m http.server` is no verl program: named as a program the script runs.
    result = cli("check", "--format", "json", str(SCRIPTS / "other_python_module.sh"))
    doc = json.loads(result.stdout)
    assert (result.returncode, [f["id"] for f in doc["findings"]]) == (0, ["SCRIPT-017"])
    message = doc["findings"][0]["message"]
    assert "runs no verl program, only `python3 -m http.server` (line 3)" in message
