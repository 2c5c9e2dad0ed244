"""Tests for wizard.detect.script.launch: verl launch scripts read the way bash runs them."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import time
from pathlib import Path

import pytest

from wizard.core.unknowns import ARGS, ENV, Origin
from wizard.detect.script.launch import LaunchScript, parse_launch_script
from wizard.errors import UsageError

SCRIPTS = Path(__file__).resolve().parents[1] / "fixtures" / "scripts"


def read(name: str) -> LaunchScript:
    return parse_launch_script((SCRIPTS / name).read_text(), name)


def kinds(script: LaunchScript) -> list[str]:
    return [problem.kind for problem in script.problems]


def head(*lines: str) -> str:
    return "\n".join(["#!/bin/bash", "python3 -m verl.trainer.main_ppo \\", *lines]) + "\n"


# --- the realistic fixtures ------------------------------------------------------------------------


def test_grpo_8gpu_script() -> None:
    script = read("grpo_qwen3_8b_fsdp_vllm.sh")
    assert script.source == "grpo_qwen3_8b_fsdp_vllm.sh"
    assert script.entry_module == "verl.trainer.main_ppo"
    assert script.config_path is None and script.config_name is None
    assert len(script.overrides) == 37
    first = script.overrides[0]
    assert (first.key, first.raw_value, first.value, first.prefix, first.line) == (
        "algorithm.adv_estimator",
        "grpo",
        "grpo",
        "",
        6,
    )
    dotted = script.as_dotted()
    assert dotted["trainer.logger"] == ["console", "wandb"]
    assert dotted["actor_rollout_ref.actor.optim.lr"] == 1e-6
    assert dotted["actor_rollout_ref.rollout.n"] == 5
    assert dotted["data.filter_overlong_prompts"] is True
    assert dotted["data.truncation"] == "error"
    assert dotted["actor_rollout_ref.model.path"] == "Qwen/Qwen3-8B"
    # $HOME is not set in the script: the value is unknown, kept out of the known values, with its origin
    assert "data.train_files" not in dotted
    train = next(o for o in script.overrides if o.key == "data.train_files")
    assert (train.raw_value, train.value, train.known) == ("$HOME/data/gsm8k/train.parquet", None, False)
    assert script.unknown_keys()["data.train_files"] == frozenset({Origin(ENV, "HOME")})
    assert dotted["trainer.total_epochs"] == 15
    assert script.overrides[-1].line == 42
    assert script.unresolved_vars == ["HOME"]
    assert script.problems == []


def test_ppo_quickstart_with_critic() -> None:
    script = read("ppo_quickstart_1gpu.sh")
    dotted = script.as_dotted()
    assert len(script.overrides) == 25
    assert dotted["critic.model.path"] == "Qwen/Qwen2.5-0.5B-Instruct"
    assert dotted["critic.optim.lr"] == 1e-5
    assert dotted["trainer.logger"] == "console"
    assert dotted["trainer.val_before_train"] is False
    # the env prefix and the `2>&1 | tee` after the command are not overrides
    assert "PYTHONUNBUFFERED" not in dotted
    assert script.overrides[-1].key == "trainer.total_epochs"
    assert script.problems == [] and script.unresolved_vars == []


def test_variables_are_expanded_like_bash() -> None:
    script = read("with_variables.sh")
    dotted = script.as_dotted()
    assert dotted["actor_rollout_ref.model.path"] == "Qwen/Qwen2.5-7B"
    assert dotted["data.train_files"] == "/mnt/shared/data/gsm8k/train.parquet"
    assert dotted["data.val_files"] == "/mnt/shared/data/gsm8k/test.parquet"
    assert dotted["actor_rollout_ref.actor.optim.lr"] == 5e-7
    assert dotted["trainer.nnodes"] == 2  # ${NNODES:-2}
    assert dotted["trainer.n_gpus_per_node"] == 8  # "${GPUS_PER_NODE:-8}"
    assert dotted["trainer.project_name"] == "math rl"
    # an unquoted $EXTRA splits into two overrides; "$@" adds nothing
    assert dotted["trainer.save_freq"] == 50 and dotted["trainer.test_freq"] == 10
    assert len(script.overrides) == 13
    # arithmetic over known variables is known
    assert dotted["trainer.experiment_name"] == "qwen7b_16gpus"
    # ROLLOUT_TP=${ROLLOUT_TP} copies an unset variable: ${ROLLOUT_TP:-2} may be it or 2, so it is unknown
    unknown = script.unknown_keys()
    assert unknown == {
        "actor_rollout_ref.rollout.tensor_model_parallel_size": frozenset({Origin(ENV, "ROLLOUT_TP")}),
        "trainer.default_local_dir": frozenset({Origin(ENV, "CHECKPOINT_ROOT")}),
    }
    assert not set(unknown) & set(dotted)
    assert script.unresolved_vars == ["ROLLOUT_TP", "CHECKPOINT_ROOT"]
    assert script.passed_on == frozenset({Origin(ARGS, "@")})  # "$@" with no arguments given
    assert script.problems == []


def test_prefixes_config_flags_and_structured_values() -> None:
    script = read("plus_additions.sh")
    assert script.config_path == "/opt/run/config"
    assert script.config_name == "grpo_trainer"
    prefixes = {o.key: o.prefix for o in script.overrides}
    assert prefixes["actor_rollout_ref.model.override_config.attention_dropout"] == "+"
    assert prefixes["trainer.val_before_train"] == "++"
    assert prefixes["trainer.resume_from_path"] == "~"
    deletion = next(o for o in script.overrides if o.prefix == "~")
    assert (deletion.raw_value, deletion.value) == ("", None)
    dotted = script.as_dotted()
    assert "trainer.resume_from_path" not in dotted
    assert dotted["actor_rollout_ref.model.override_config.attention_dropout"] == 0.0
    assert dotted["ray_kwargs.ray_init.runtime_env.env_vars.TOKENIZERS_PARALLELISM"] == "true"
    assert dotted["data.apply_chat_template_kwargs"] == {"enable_thinking": False}
    assert dotted["trainer.logger"] == ["console"]
    assert dotted["trainer.val_before_train"] is False
    assert script.problems == []


def test_ray_job_submit() -> None:
    script = read("ray_job_submit.sh")
    assert script.entry_module == "verl.trainer.main_ppo"
    keys = [o.key for o in script.overrides]
    assert keys[0] == "algorithm.adv_estimator" and len(keys) == 9
    assert not any(k.startswith("-") or "address" in k for k in keys)
    # bash strips the single quotes of ['console','wandb'] before Hydra sees it
    logger = next(o for o in script.overrides if o.key == "trainer.logger")
    assert (logger.raw_value, logger.value) == ("[console,wandb]", ["console", "wandb"])
    # ${PWD} feeds ray's --working-dir only, not an override
    assert script.unknown_keys() == {} and script.unresolved_vars == []
    assert script.problems == []


# --- shell-level problems: each failing case with its passing neighbours -----------------------------


def test_comment_after_backslash_cuts_the_command() -> None:
    script = read("comment_after_backslash.sh")
    assert kinds(script) == ["broken-continuation"]
    problem = script.problems[0]
    assert problem.line == 8
    assert "comment" in str(problem.message)
    for lost in ("actor_rollout_ref.actor.ppo_mini_batch_size", "trainer.n_gpus_per_node", "trainer.total_epochs"):
        assert lost in str(problem.message)
        assert lost not in script.as_dotted()
    assert script.as_dotted()["actor_rollout_ref.rollout.n"] == 8
    assert len(script.overrides) == 5


def test_trailing_comment_on_the_last_line_is_fine() -> None:
    script = parse_launch_script(head("    a.b=1 \\", "    c.d=2  # the last one", "echo done"))
    assert script.problems == []
    assert script.as_dotted() == {"a.b": 1, "c.d": 2}


@pytest.mark.parametrize("after", [["", "echo done"], ["# end of the overrides"], ["    # a.b=1 \\", "", "ls"]])
def test_dangling_backslash_before_a_blank_or_comment_line_loses_nothing(after: list[str]) -> None:
    script = parse_launch_script(head("    a.b=1 \\", "    c.d=2 \\", *after))
    assert script.problems == []
    assert script.as_dotted() == {"a.b": 1, "c.d": 2}


def test_comment_swallowing_the_backslash() -> None:
    script = parse_launch_script(head("    a.b=1 # one \\", "    c.d=2"))
    assert kinds(script) == ["broken-continuation"]
    assert script.problems[0].line == 3 and "c.d" in str(script.problems[0].message)


@pytest.mark.parametrize("comment", ["    # c.d=2 \\", "    # the rollout settings", "#"])
def test_comment_line_inside_the_continued_command(comment: str) -> None:
    script = parse_launch_script(head("    a.b=1 \\", comment, "    e.f=3"))
    assert kinds(script) == ["broken-continuation"]
    problem = script.problems[0]
    assert problem.line == 4 and "comment" in str(problem.message) and "e.f" in str(problem.message)
    assert script.as_dotted() == {"a.b": 1}


def test_empty_line_inside_the_continued_command() -> None:
    script = parse_launch_script(head("    a.b=1 \\", "  ", "    c.d=2"))
    assert kinds(script) == ["broken-continuation"]
    assert script.problems[0].line == 4 and "empty line" in str(script.problems[0].message)


@pytest.mark.parametrize(("tail", "cause"), [(" ", "whitespace"), ("\t  ", "whitespace"), ("\r", "CRLF")])
def test_blank_after_backslash_cuts_the_command(tail: str, cause: str) -> None:
    script = parse_launch_script(head("    a.b=1 \\" + tail, "    c.d=2 \\", "    e.f=3"))
    assert kinds(script) == ["broken-continuation"]
    problem = script.problems[0]
    assert problem.line == 3 and cause in str(problem.message)
    assert "c.d, e.f" in str(problem.message)
    assert script.as_dotted() == {"a.b": 1}


def test_whole_script_with_crlf_line_endings() -> None:
    text = head("    a.b=1 \\", "    c.d=2").replace("\n", "\r\n")
    script = parse_launch_script(text)
    assert kinds(script) == ["broken-continuation"]
    assert script.problems[0].line == 2 and "a.b, c.d" in str(script.problems[0].message)


def test_missing_backslash_cuts_the_override_list() -> None:
    script = read("missing_backslash.sh")
    assert kinds(script) == ["missing-backslash"]
    problem = script.problems[0]
    assert problem.line == 7
    assert "lines 8-11" in str(problem.message)
    assert "actor_rollout_ref.rollout.n" in str(problem.message) and "trainer.total_epochs" in str(problem.message)
    assert list(script.as_dotted())[-1] == "actor_rollout_ref.rollout.name"


@pytest.mark.parametrize("after", ["echo done", "", "ray stop", "EXIT_CODE=$?"])
def test_no_missing_backslash_when_the_next_line_is_a_command(after: str) -> None:
    script = parse_launch_script(head("    a.b=1 \\", "    c.d=2", after))
    assert script.problems == []


def test_duplicate_key_with_different_values() -> None:
    script = read("duplicate_key.sh")
    assert kinds(script) == ["duplicate-key"]
    problem = script.problems[0]
    assert problem.line == 9
    assert "actor_rollout_ref.rollout.gpu_memory_utilization" in str(problem.message)
    assert "line 6" in str(problem.message) and "line 9" in str(problem.message)
    assert script.as_dotted()["actor_rollout_ref.rollout.gpu_memory_utilization"] == 0.85
    # trainer.n_gpus_per_node is given twice with the same value: not reported
    assert "n_gpus_per_node" not in str(problem.message)


def test_empty_value() -> None:
    script = parse_launch_script("MODEL=\n" + head("    actor_rollout_ref.model.path=$MODEL \\", "    +x.y=''"))
    assert kinds(script) == ["empty-value"]
    assert script.problems[0].line == 4 and "actor_rollout_ref.model.path" in str(script.problems[0].message)
    assert script.as_dotted() == {"actor_rollout_ref.model.path": "", "x.y": ""}


def test_value_hydra_rejects() -> None:
    script = parse_launch_script(
        head("    data.train_files=~/data/train.parquet \\", "    data.val_files=/d/t.parquet")
    )
    assert kinds(script) == ["bad-value"]
    assert script.problems[0].line == 3 and "'~'" in str(script.problems[0].message)
    assert script.as_dotted()["data.val_files"] == "/d/t.parquet"


def test_stray_word_is_not_an_override() -> None:
    script = parse_launch_script(head("    a.b=1 \\", "    trainer.total_epochs 3"))
    assert kinds(script) == ["not-an-override", "not-an-override"]


# --- entry commands --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("command", "module"),
    [
        ("python -m verl.trainer.main_ppo", "verl.trainer.main_ppo"),
        ("python3 -m verl.trainer.main_ppo_v0", "verl.trainer.main_ppo_v0"),
        ("uv run python -m verl.trainer.main_ppo", "verl.trainer.main_ppo"),
        ("torchrun --nnodes=1 --nproc_per_node=8 -m verl.trainer.main_ppo", "verl.trainer.main_ppo"),
        ("nohup /usr/bin/python3.11 -m verl.trainer.main_ppo", "verl.trainer.main_ppo"),
        ("ENTRY=verl.trainer.main_ppo; python3 -m $ENTRY", "verl.trainer.main_ppo"),
    ],
)
def test_entry_commands(command: str, module: str) -> None:
    script = parse_launch_script(f"{command} trainer.nnodes=1 > out.log 2>&1 &\n")
    assert script.entry_module == module
    assert script.as_dotted() == {"trainer.nnodes": 1}


def test_only_the_first_verl_command_is_read() -> None:
    script = parse_launch_script("python3 -m verl.trainer.main_ppo a.b=1\npython3 -m verl.trainer.main_ppo a.b=2\n")
    assert script.as_dotted() == {"a.b": 1}
    assert kinds(script) == ["multiple-commands"] and script.problems[0].line == 2


def test_heredoc_body_is_not_read_as_commands() -> None:
    text = (
        "cat > extra.yaml <<EOF\npython3 -m verl.trainer.main_ppo a.b=1\nEOF\npython3 -m verl.trainer.main_ppo c.d=2\n"
    )
    assert parse_launch_script(text).as_dotted() == {"c.d": 2}


def test_script_without_verl_command() -> None:
    with pytest.raises(UsageError) as info:
        read("no_verl_command.sh")
    message = str(info.value)
    assert "no_verl_command.sh" in message and "python -m verl.trainer.main_ppo" in message
    assert "\n" not in message


@pytest.mark.parametrize(
    "data",
    [
        bytes(range(256)) * 64,
        b"\x7fELF\x02\x01\x01\x00" + bytes(4096),
        b"\xff\xfe" + "python3 -m verl.trainer.main_ppo a=1".encode("utf-16-le"),
    ],
    ids=["all-bytes", "elf", "utf16"],
)
def test_binary_input_is_a_usage_error(data: bytes) -> None:
    with pytest.raises(UsageError, match="garbage.bin is not a shell script"):
        parse_launch_script(data, "garbage.bin")
    with pytest.raises(UsageError, match="garbage.bin"):
        parse_launch_script(data.decode("latin-1"), "garbage.bin")


def test_huge_input_is_refused_quickly() -> None:
    started = time.monotonic()
    with pytest.raises(UsageError, match="too large"):
        parse_launch_script("a.b=1 \\\n" * 1_000_000, "big.sh")
    assert time.monotonic() - started < 2


@pytest.mark.parametrize(
    "text",
    [
        "python3 -m verl.trainer.main_ppo " + "${A:-" * 3000 + "x" + "}" * 3000,
        "python3 -m verl.trainer.main_ppo k=" + "[" * 3000,
        "python3 -m verl.trainer.main_ppo '" + "\\ " * 50_000,
        "A=x\n" + "A=$A$A\n" * 60 + "python3 -m verl.trainer.main_ppo k=$A\n",
    ],
    ids=["nested-defaults", "nested-brackets", "unterminated-quote", "doubling-variable"],
)
def test_adversarial_input_is_bounded(text: str) -> None:
    started = time.monotonic()
    script = parse_launch_script(text)
    assert script.entry_module == "verl.trainer.main_ppo"
    assert time.monotonic() - started < 5


def test_variables_copied_without_end_become_unknown() -> None:
    # past the reading's budget of expanded text a value is unknown (issue 28), no longer a usage error
    from wizard.core.unknowns import LIMIT

    text = "B=" + "x" * 60_000 + "\n" + 'C="$B$B$B$B$B$B$B$B"\n' * 3000 + "python3 -m verl.trainer.main_ppo k=$C\n"
    started = time.monotonic()
    script = parse_launch_script(text, "copy.sh")
    assert time.monotonic() - started < 5
    assert {(o.kind, o.via) for o in script.unknown_keys()["k"]} == {(LIMIT, "work")}


# --- the same arguments bash passes ----------------------------------------------------------------

BASH = shutil.which("bash")


@pytest.mark.skipif(BASH is None, reason="needs bash")
@pytest.mark.parametrize(
    "name",
    [
        "grpo_qwen3_8b_fsdp_vllm.sh",
        "ppo_quickstart_1gpu.sh",
        "plus_additions.sh",
        "duplicate_key.sh",
        "missing_backslash.sh",
        "ray_job_submit.sh",
    ],
)
def test_arguments_match_what_bash_passes(name: str, tmp_path: Path) -> None:
    """Run the fixture in bash with stand-ins for python3/ray/tee that record the arguments."""
    record = tmp_path / "argv"
    stubs = {
        "python3": f'[ -e {record} ] || printf "%s\\0" "$@" > {record}',
        "python": f'[ -e {record} ] || printf "%s\\0" "$@" > {record}',
        "ray": 'while [ "$1" != "--" ]; do shift; done; shift; exec "$@"',
        "tee": "cat > /dev/null",
    }
    for stub, body in stubs.items():
        path = tmp_path / stub
        path.write_text(f"#!{BASH}\n{body}\n")
        path.chmod(path.stat().st_mode | stat.S_IEXEC)
    script = read(name)
    # unknown variables are given their own placeholder text, so both sides print the same thing
    env = {"PATH": f"{tmp_path}:{os.environ.get('PATH', '/usr/bin:/bin')}"}
    env.update({var: f"${var}" for var in script.unresolved_vars})
    subprocess.run([BASH, str(SCRIPTS / name)], env=env, capture_output=True, timeout=30, check=False)
    argv = record.read_bytes().decode().split("\0")[:-1]
    passed = argv[argv.index("-m") + 2 :]
    ours = [f"--config-path={script.config_path}"] if script.config_path else []
    ours += [f"--config-name={script.config_name}"] if script.config_name else []
    ours += [
        o.prefix + o.key + ("" if o.value is None and o.prefix == "~" else "=" + o.raw_value) for o in script.overrides
    ]
    assert passed == ours


def test_a_brace_before_a_high_plane_character_does_not_crash_the_parser() -> None:
    """tree-sitter-bash's scanner read out of bounds there: the process died about one run in two."""
    import sys

    probe = (
        "from wizard.detect.script.bash import tree\n"
        "for cp in (0x70000, 0xC8626, 0xD0000, 0xE0000, 0xF0000, 0x10D841, 0x10FFFF):\n"
        "    tree.parse(b'\"\"{' + chr(cp).encode())\n"
    )
    for _ in range(8):
        root = Path(__file__).resolve().parents[2]
        run = subprocess.run([sys.executable, "-c", probe], cwd=root, capture_output=True, timeout=60)
        assert run.returncode == 0, run.stderr.decode()[-400:]


def test_characters_outside_the_basic_plane_are_kept_in_values_as_written() -> None:
    text = (
        "python3 -m verl.trainer.main_ppo trainer.experiment_name={run\U0010d841} trainer.project_name=rl\U0001f600"
        " trainer.total_epochs=2\n"
    )
    script = parse_launch_script(text)
    values = {o.key: o.raw_value for o in script.overrides}
    assert values["trainer.experiment_name"] == "{run\U0010d841}" and values["trainer.project_name"] == "rl\U0001f600"
    assert values["trainer.total_epochs"] == "2"
