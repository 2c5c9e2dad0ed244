"""Unusable input: one clear line naming the field, exit 2, no traceback, nothing written."""

from __future__ import annotations

import pytest

from tests.cli.helpers import cli


def assert_one_line_exit_2(proc, *words):
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    err = proc.stderr.strip()
    assert "Traceback" not in proc.stderr and len(err.splitlines()) == 1, err
    for word in words:
        assert word in err, err


CASES = {
    "empty": ("", ["empty"]),
    "yaml syntax": ("data: {train_batch_size: [1, 2\n", ["YAML syntax error"]),
    "list at top": ("- a\n- b\n", ["expected a mapping"]),
    "string for number": ("batch:\n  train_batch_size: lots\n", ["data.train_batch_size", "integer"]),
    "negative size": (
        "batch:\n  ppo_mini_batch_size: -4\n",
        ["actor_rollout_ref.actor.ppo_mini_batch_size", "greater than"],
    ),
    "zero size": ("batch:\n  rollout_n: 0\n", ["actor_rollout_ref.rollout.n"]),
    "huge number": ("batch:\n  train_batch_size: 100000000000000000000\n", ["data.train_batch_size", "less than"]),
    "list for mapping": ("batch: [1, 2]\n", ["section batch must be a mapping"]),
    "unknown answer": ("batch:\n  train_batch_sz: 8\n", ["did you mean batch.train_batch_size"]),
    "unknown target": ("deploy:\n  target: kubernetes\n", ["deploy.target", "'kuberay-job'", "'k8s-job'"]),
    "bad provenance": (
        "batch:\n  rollout_n: 4\nprovenance:\n  batch.rollout_n: typed\n",
        ["provenance of batch.rollout_n"],
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_bad_answers_file(name, tmp_path):
    text, words = CASES[name]
    answers = tmp_path / "answers.yaml"
    answers.write_text(text)
    out = tmp_path / "out"
    assert_one_line_exit_2(cli("new", "--answers", str(answers), "--out", str(out)), *words)
    assert not out.exists()


@pytest.mark.parametrize("name", ["empty", "yaml syntax", "list at top", "string for number"])
def test_bad_config_for_check(name, tmp_path):
    text, words = CASES[name]
    config = tmp_path / "config.yaml"
    config.write_text(text.replace("batch:\n  train_batch_size", "data:\n  train_batch_size"))
    assert_one_line_exit_2(cli("check", str(config)), *words)


def test_missing_file_and_directory(tmp_path):
    assert_one_line_exit_2(cli("check", str(tmp_path / "nope.yaml")), "no such file")
    assert_one_line_exit_2(cli("check", str(tmp_path)), "is a folder")
    assert_one_line_exit_2(
        cli("new", "--answers", str(tmp_path / "nope.yaml"), "--out", str(tmp_path / "o")), "no such file"
    )


def test_binary_and_non_utf8(tmp_path):
    binary = tmp_path / "x.yaml"
    binary.write_bytes(b"\x00\x01\x02garbage")
    assert_one_line_exit_2(cli("check", str(binary)), "binary")
    latin = tmp_path / "y.yaml"
    latin.write_bytes(b"data:\n  prompt_key: caf\xe9\n")
    assert_one_line_exit_2(cli("check", str(latin)), "UTF-8")


def test_unknown_preset_and_set_key(tmp_path):
    assert_one_line_exit_2(
        cli("new", "--preset", "grpo-8b", "--out", str(tmp_path / "o")), "--preset grpo-8b", "did you mean"
    )
    assert_one_line_exit_2(
        cli("new", "--preset", "grpo-8b-1x8", "--set", "trainer.n_gpu_per_node=4", "--out", str(tmp_path / "o")),
        "trainer.n_gpus_per_node",
    )
    assert_one_line_exit_2(
        cli("new", "--preset", "grpo-8b-1x8", "--set", "novalue", "--out", str(tmp_path / "o")), "dotted.key=value"
    )
    assert not (tmp_path / "o").exists()


def test_bad_flag_is_one_line():
    assert_one_line_exit_2(cli("check"), "path")
    assert_one_line_exit_2(cli("new", "--preset", "grpo-8b-1x8"), "--out")
    assert_one_line_exit_2(cli("explain", "BATCH-999"), "no such rule")


def test_a_real_process_prints_one_line_and_no_traceback(tmp_path):
    from tests.cli.helpers import cli_subprocess

    config = tmp_path / "config.yaml"
    config.write_text("data: [1\n")
    proc = cli_subprocess("check", str(config))
    assert_one_line_exit_2(proc, "YAML syntax error")
