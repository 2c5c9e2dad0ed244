"""A readable script that starts no verl program itself (issue 31: 10 of verl-recipe's 103 scripts ended check with
exit 2): check says what it does instead (SCRIPT-017, exit 0) and names the script it hands training to, or the
programs it runs; a command that needs the overrides still refuses it (exit 2).
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.helpers import cli

WRAPPER = """#!/bin/bash
# starts a Ray head, then the training script of the run
ray stop --force
mkdir -p logs
ray start --head --port 6380
bash runs/grpo_small.sh 2>&1 | tee logs/grpo.log
"""


def note(path: Path, cwd: Path | None = None) -> tuple[int, list, str]:
    result = cli("check", "--mode", "cluster", "--format", "json", str(path), cwd=cwd)
    doc = json.loads(result.stdout)
    found = [(f["id"], f["severity"]) for f in doc["findings"]]
    return result.returncode, found, doc["findings"][0]["message"] if doc["findings"] else ""


def test_a_wrapper_names_the_script_it_hands_training_to(tmp_path):
    script = tmp_path / "start_ray_then_train.sh"
    script.write_text(WRAPPER)
    code, found, message = note(script)
    assert (code, found) == (0, [("SCRIPT-017", "info")])
    assert "starts training through `bash runs/grpo_small.sh` (line 6): check that script" in message
    assert "which is" not in message  # runs/grpo_small.sh is nowhere to be found


def test_the_script_handed_to_is_found_beside_the_wrapper_or_in_the_working_directory(tmp_path):
    script = tmp_path / "start_ray_then_train.sh"
    script.write_text(WRAPPER)
    (tmp_path / "runs").mkdir()
    target = tmp_path / "runs" / "grpo_small.sh"
    target.write_text("#!/bin/bash\n")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    _, _, beside = note(script, cwd=elsewhere)
    assert f"(line 6, which is {target})" in beside
    # verl-recipe's wrappers name the path from the repository root, where they are run
    (elsewhere / "start.sh").write_text(WRAPPER)
    (elsewhere / "runs").mkdir()
    (elsewhere / "runs" / "grpo_small.sh").write_text("#!/bin/bash\n")
    _, _, from_root = note(elsewhere / "start.sh", cwd=elsewhere)
    assert f"which is {elsewhere / 'runs' / 'grpo_small.sh'})" in from_root


def test_a_data_preparation_script_names_the_programs_it_runs(tmp_path):
    script = tmp_path / "prepare.sh"
    script.write_text(
        "#!/bin/bash\nset -e\nmkdir -p data\n"
        "pip install -U datasets\n"
        "huggingface-cli download some-org/some-set --repo-type dataset\n"
        "python3 tools/to_parquet.py --out data/\n"
        "wget -O data/extra.parquet https://example.invalid/extra.parquet\n"
    )
    code, found, message = note(script)
    assert (code, found) == (0, [("SCRIPT-017", "info")])
    # the shell's plumbing (mkdir) is not named while the script runs anything else; the fourth program is counted
    assert (
        "it runs no verl program, only `pip install` (line 4), `huggingface-cli download` (line 5), "
        "`python3 tools/to_parquet.py` (line 6) and 1 more"
    ) in message


def test_a_script_that_runs_main_ppo_after_another_script_is_still_judged(tmp_path):
    # The neighbour: a hand-off before the trainer does not hide the trainer; its overrides are judged.
    script = tmp_path / "prepare_then_train.sh"
    script.write_text(
        "#!/bin/bash\nbash data/make_gsm8k.sh\n"
        "python3 -m verl.trainer.main_ppo trainer.n_gpus_per_node=8 trainer.nnodes=1 "
        "data.train_batch_size=8 actor_rollout_ref.actor.ppo_mini_batch_size=16\n"
    )
    result = cli("check", "--mode", "cluster", "--format", "json", str(script))
    doc = json.loads(result.stdout)
    ids = {f["id"] for f in doc["findings"]}
    assert result.returncode == 1 and "SCRIPT-017" not in ids and "BATCH-002" in ids


def test_new_from_script_still_refuses_a_wrapper(tmp_path):
    # `new --from-script` needs the overrides: exit 2, with the reason, and nothing written.
    script = tmp_path / "start_ray_then_train.sh"
    script.write_text(WRAPPER)
    result = cli("new", "--from-script", str(script), "--out", str(tmp_path / "out"))
    assert result.returncode == 2 and "`bash runs/grpo_small.sh` (line 6)" in result.stderr
    assert "\n" not in result.stderr.strip() and not (tmp_path / "out").exists()


def test_a_script_that_starts_no_command_is_still_bad_input(tmp_path):
    script = tmp_path / "only_echo.sh"
    script.write_text("#!/bin/bash\nSTEPS=10\necho training for $STEPS steps\n")
    result = cli("check", "--format", "json", str(script))
    assert result.returncode == 2 and result.stdout == ""
    assert "no `python -m verl.trainer.main_ppo` command was found" in result.stderr
