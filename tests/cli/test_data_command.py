"""`verl-wizard data` / `validate-dataset` / `data convert` as a user runs them: exit codes, rule ids, one-line errors."""

from __future__ import annotations

import json

import pytest

from tests.cli.helpers import cli, cli_json, cli_subprocess
from tests.detect.test_data_files import make_tokenizer, rl_rows, write_rows

pytest.importorskip("pyarrow")


def assert_one_line_exit_2(proc, *words):
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    err = proc.stderr.strip()
    assert "Traceback" not in proc.stderr and len(err.splitlines()) == 1, err
    for word in words:
        assert word in err, err


@pytest.mark.parametrize("name", ["train.parquet", "train.json", "train.jsonl"])
def test_good_files_pass(tmp_path, name):
    proc, doc = cli_json("data", str(write_rows(tmp_path / name, rl_rows(20))))
    assert proc.returncode == 0 and doc["verdict"] == "pass" and doc["findings"] == []
    (file,) = doc["files"]
    assert file["kind"] == "rl" and file["kind_source"] == "detected" and file["rows_total"] == 20 and file["complete"]


def test_text_report_says_what_was_read_and_the_length_estimate(tmp_path):
    proc = cli("data", str(write_rows(tmp_path / "train.parquet", rl_rows(20))))
    assert proc.returncode == 0
    assert "parquet, rl data (detected), 20 rows" in proc.stdout and "read: all rows" in proc.stdout
    assert "estimated, no tokenizer" in proc.stdout and "verdict: pass" in proc.stdout


def _mistake(rows, case):
    if case == "plain string":  # every row: a parquet column cannot mix strings and lists
        for r in rows:
            r["prompt"] = r["prompt"][0]["content"]
    elif case == "unknown role":
        rows[2]["prompt"] = [{"role": "human", "content": "hi"}]
    elif case == "empty content":
        rows[2]["prompt"] = [{"role": "user", "content": ""}]
    elif case == "unknown data_source":
        rows[2]["data_source"] = "my_quiz"
    elif case == "no ground truth":
        rows[2]["reward_model"] = {"style": "rule", "ground_truth": ""}
    return rows


@pytest.mark.parametrize(
    "case, rule",
    [
        ("plain string", "DATA-003"),
        ("unknown role", "DATA-003"),
        ("empty content", "DATA-003"),
        ("unknown data_source", "ROLE-005"),
        ("no ground truth", "DATA-004"),
    ],
)
@pytest.mark.parametrize("name", ["train.parquet", "train.jsonl"])
def test_each_mistake_gives_its_rule(tmp_path, case, rule, name):
    proc, doc = cli_json("data", str(write_rows(tmp_path / name, _mistake(rl_rows(20), case))))
    assert proc.returncode == 1 and doc["verdict"] == "fail"
    assert rule in {f["id"] for f in doc["findings"]}, doc["findings"]


def test_wrong_prompt_key_names_the_closest_column_and_the_flag_fixes_it(tmp_path):
    rows = [{("question" if k == "prompt" else k): v for k, v in r.items()} for r in rl_rows(20)]
    path = str(write_rows(tmp_path / "train.jsonl", rows))
    proc, doc = cli_json("data", path)
    (finding,) = [f for f in doc["findings"] if f["id"] == "DATA-002"]
    assert proc.returncode == 1 and finding["fixes"] == [
        {"set": {"data.prompt_key": "question"}, "label": "read prompts from column 'question'"}
    ]
    assert cli("data", path, "--prompt-key", "question").returncode == 0


def test_tokenizer_counts_and_batch_check(tmp_path):
    tok = make_tokenizer(tmp_path / "tok")
    rows = rl_rows(40)
    for i, r in enumerate(rows):
        r["prompt"] = [{"role": "user", "content": " ".join(["w2"] * (i + 1))}]  # tokens 4..43
    path = str(write_rows(tmp_path / "train.parquet", rows))
    proc, doc = cli_json(
        "data",
        path,
        "--tokenizer",
        str(tok),
        "--max-prompt-length",
        "20",
        "--set",
        "data.filter_overlong_prompts=true",
        "--set",
        "data.train_batch_size=32",
    )
    assert doc["files"][0]["lengths"]["prompt"] == {"rows": 40, "p50": 23, "p95": 41, "max": 43}
    by_id = {f["id"]: f for f in doc["findings"]}
    assert "23 of 40 prompts" in by_id["DATA-005"]["message"]  # 21..43 tokens are over 20
    assert "17 rows left" in by_id["BATCH-013"]["message"] and proc.returncode == 1
    assert (
        cli(
            "data", path, "--tokenizer", str(tok), "--max-prompt-length", "43", "--set", "data.train_batch_size=32"
        ).returncode
        == 0
    )


def test_without_train_batch_size_there_is_no_batch_check(tmp_path):
    proc, doc = cli_json("data", str(write_rows(tmp_path / "train.parquet", rl_rows(5))))
    assert proc.returncode == 0 and doc["findings"] == []
    proc, doc = cli_json(
        "data", str(write_rows(tmp_path / "t.parquet", rl_rows(5))), "--set", "data.train_batch_size=8"
    )
    assert proc.returncode == 1 and [f["id"] for f in doc["findings"]] == ["BATCH-013"]


def test_kinds_rm_and_sft(tmp_path):
    rm = write_rows(tmp_path / "rm.jsonl", [{"prompt": "q", "chosen": "a", "rejected": "b"}])
    assert cli("data", str(rm)).returncode == 0
    proc, doc = cli_json("data", str(rm), "--kind", "sft")
    assert proc.returncode == 1 and {f["id"] for f in doc["findings"]} == {"DATA-007"}
    sft = write_rows(tmp_path / "sft.parquet", [{"messages": [{"role": "user", "content": "hi"}]}])
    proc, doc = cli_json("data", str(sft))
    assert doc["files"][0]["kind"] == "sft" and {f["id"] for f in doc["findings"]} == {"DATA-007"}


# --- unusable input: one line, exit 2 ---------------------------------------------------------------


def test_bad_input_is_one_line_exit_2(tmp_path):
    good = write_rows(tmp_path / "good.parquet", rl_rows(20))
    truncated = tmp_path / "truncated.parquet"
    truncated.write_bytes(good.read_bytes()[: good.stat().st_size - 40])
    single = tmp_path / "single.json"
    single.write_text(json.dumps({"prompt": [{"role": "user", "content": "hi"}], "data_source": "x"}, indent=2))
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(b'{"prompt": "caf\xe9"}\n')
    assert_one_line_exit_2(cli("data", str(truncated)), "truncated.parquet", "truncated or corrupt")
    assert_one_line_exit_2(cli("data", str(single)), "single.json", "single JSON object")
    assert_one_line_exit_2(cli("data", str(latin)), "latin.jsonl", "not UTF-8")
    assert_one_line_exit_2(cli("data", str(tmp_path)), "is a folder")
    assert_one_line_exit_2(cli("data", str(tmp_path / "nope.parquet")), "nope.parquet", "no such file")
    assert_one_line_exit_2(cli("data", "hdfs://nn/train.parquet"), "remote path", "copy the file here")
    assert_one_line_exit_2(
        cli("data", str(good), "--tokenizer", str(tmp_path / "no_tok")), "--tokenizer", "no such folder"
    )
    assert_one_line_exit_2(cli("data", str(good), "--max-prompt-length", "0"), "--max-prompt-length")
    assert_one_line_exit_2(cli("data", str(good), "--kind", "dpo"), "--kind")
    assert_one_line_exit_2(cli("data", str(good), "--set", "data.train_batch_sz=8"), "did you mean")


def test_a_real_process_prints_no_traceback(tmp_path):
    bad = tmp_path / "bad.parquet"
    bad.write_bytes(b"PAR1 not really")
    proc = cli_subprocess("data", str(bad))
    assert_one_line_exit_2(proc, "bad.parquet")


# --- the alias --------------------------------------------------------------------------------------


def test_validate_dataset_alias(tmp_path):
    tok = make_tokenizer(tmp_path / "tok")
    path = str(write_rows(tmp_path / "train.parquet", rl_rows(20)))
    proc, doc = cli_json(
        "validate-dataset", "--dataset_path", path, "--dataset_type", "rollout", "--tokenizer_name", str(tok)
    )
    assert proc.returncode == 0 and doc["files"][0]["kind"] == "rl" and doc["files"][0]["length_exact"]
    proc, doc = cli_json("validate-dataset", "--dataset_path", path, "--dataset_type", "rm")
    assert proc.returncode == 1 and {f["id"] for f in doc["findings"]} == {"DATA-006"}
    assert_one_line_exit_2(
        cli("validate-dataset", "--dataset_path", path, "--tokenizer_name", "acme/not-cached"),
        "not in the Hugging Face cache",
    )


# --- data convert -----------------------------------------------------------------------------------


def _qa(tmp_path, rows=None):
    rows = rows if rows is not None else [{"q": f"What is {i}+1?", "a": i + 1} for i in range(12)]
    return str(write_rows(tmp_path / "qa.jsonl", rows))


def test_convert_question_answer_file_to_rl(tmp_path):
    import pyarrow.parquet as pq

    out = tmp_path / "train.parquet"
    proc = cli(
        "data",
        "convert",
        _qa(tmp_path),
        "--to",
        "rl",
        "--question-key",
        "q",
        "--answer-key",
        "a",
        "--data-source",
        "openai/gsm8k",
        "--out",
        str(out),
        "--template",
        "{question} Answer after ####.",
    )
    assert proc.returncode == 0 and "wrote 12 rows" in proc.stdout
    first = pq.read_table(out).to_pylist()[0]
    assert first["prompt"] == [{"role": "user", "content": "What is 0+1? Answer after ####."}]
    assert first["reward_model"] == {"style": "rule", "ground_truth": "1"} and first["data_source"] == "openai/gsm8k"
    proc, doc = cli_json("data", str(out), "--set", "data.train_batch_size=12")
    assert proc.returncode == 0 and doc["findings"] == []


def test_convert_with_an_unknown_source_says_a_reward_function_is_needed(tmp_path):
    out = tmp_path / "train.parquet"
    proc = cli(
        "data",
        "convert",
        _qa(tmp_path),
        "--to",
        "rl",
        "--question-key",
        "q",
        "--answer-key",
        "a",
        "--data-source",
        "my_quiz",
        "--out",
        str(out),
        "--system",
        "Be brief.",
    )
    assert proc.returncode == 0 and "custom_reward_function" in proc.stdout
    proc, doc = cli_json("data", str(out))
    assert {f["id"] for f in doc["findings"]} == {"ROLE-005"}


def test_convert_bad_input_is_one_line_and_writes_nothing(tmp_path):
    out = tmp_path / "train.parquet"
    base = ["--to", "rl", "--answer-key", "a", "--data-source", "x", "--out", str(out)]
    assert_one_line_exit_2(
        cli("data", "convert", _qa(tmp_path), "--question-key", "qq", *base), "--question-key qq", "did you mean 'q'"
    )
    assert_one_line_exit_2(
        cli("data", "convert", _qa(tmp_path), "--question-key", "question", *base), "its columns are q, a"
    )
    empty = str(write_rows(tmp_path / "e.jsonl", [{"q": "fine", "a": 1}, {"q": " ", "a": 2}]))
    assert_one_line_exit_2(cli("data", "convert", empty, "--question-key", "q", *base), "row 1", "no 'q'")
    assert_one_line_exit_2(
        cli("data", "convert", _qa(tmp_path), "--question-key", "q", *base, "--template", "no slot"), "{question}"
    )
    assert not out.exists() and not list(tmp_path.glob(".convert-*"))
    out.write_text("keep me")
    assert_one_line_exit_2(
        cli("data", "convert", _qa(tmp_path), "--question-key", "q", *base), "already exists", "--force"
    )
    assert out.read_text() == "keep me"
    assert_one_line_exit_2(cli("data", "convert", _qa(tmp_path), "--question-key", "q", "--to", "rl"), "--answer-key")
    assert_one_line_exit_2(cli("data", str(out), "--question-key", "q"), "data convert")
