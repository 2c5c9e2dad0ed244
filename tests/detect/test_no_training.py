"""The reasons a readable script has no main_ppo command (wizard/detect/script/no_training.py through
launch.not_main_ppo): the ways bash runs another script, and which programs are named."""

from __future__ import annotations

import pytest

from wizard.detect.script.launch import NotMainPpo, parse_launch_script


def reason(text: str, env: dict | None = None) -> str:
    with pytest.raises(NotMainPpo) as info:
        parse_launch_script("#!/bin/bash\n" + text, "wrapper.sh", env=env)
    return str(info.value.reason)


@pytest.mark.parametrize(
    ("line", "command"),
    [
        ("./train_ppo.sh 8", "`./train_ppo.sh` (line 2)"),
        ("sh -x jobs/train_ppo.sh", "`sh -x jobs/train_ppo.sh` (line 2)"),
        ("nohup bash jobs/train_ppo.sh > out.log 2>&1 &", "`bash jobs/train_ppo.sh` (line 2)"),
        ("env MODE=fast bash jobs/train_ppo.sh", "`bash jobs/train_ppo.sh` (line 2)"),
        ("bash $TRAIN_SCRIPT", "`bash $TRAIN_SCRIPT` (line 2)"),
    ],
)
def test_each_way_of_running_another_script_is_a_hand_off(line, command):
    assert reason(line) == f"it runs no main_ppo itself but starts training through {command}: check that script"


def test_a_source_the_reader_could_not_read_is_a_hand_off():
    said = reason("source ./not_here_launch.sh\n")
    assert "starts training through `source " in said and "not_here_launch.sh` (line 2, a file the wizard" in said


def test_two_scripts_are_both_named_once():
    # a loop that starts the same script again names it once
    said = reason("for i in 1 2 3; do bash a.sh; done\nbash b.sh\n")
    assert "through `bash a.sh` (line 2) and `bash b.sh` (line 3): check those scripts" in said


def test_bash_c_runs_text_not_a_script():
    # The neighbour: `bash -c '...'` is no hand-off; the program is named as bash
    assert reason("bash -c 'pip install -e .'\n") == "it runs no verl program, only `bash` (line 2)"


def test_only_plumbing_is_named_when_nothing_else_runs():
    assert reason("mkdir -p ckpts\nrm -rf ckpts/old\n") == (
        "it runs no verl program, only `mkdir` (line 2) and `rm` (line 3)"
    )


def test_a_python_module_that_is_not_verl_is_named_with_its_module():
    said = reason("python3 -m http.server 8000\n")
    assert said == "it runs no verl program, only `python3 -m http.server` (line 2)"
