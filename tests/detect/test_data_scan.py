"""scan_file (kinds, facts per row) and inspect_data, the hook `check`/`new`/the TUI call."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.detect.test_data_files import make_tokenizer, rl_rows, write_rows
from wizard.core.layers import build
from wizard.detect.data.read import Budget, DataReadError
from wizard.detect.data.report import FileReport, inspect_data, scan_file, summary_lines

ROOT = Path(__file__).resolve().parents[2]


def answers(**values):
    return build([("test", values)]).answers


@pytest.mark.parametrize(
    "columns, kind",
    [
        ({"prompt": [{"role": "user", "content": "hi"}]}, "rl"),
        ({"prompt": "q", "chosen": "a", "rejected": "b"}, "rm"),
        ({"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]}, "sft"),
        ({"question": "q", "answer": "a"}, "rl"),
    ],
)
def test_kind_is_detected_from_the_columns(tmp_path, columns, kind):
    report = scan_file(str(write_rows(tmp_path / "d.jsonl", [columns])))
    assert (report.kind, report.kind_source) == (kind, "detected")


def test_given_kind_wins(tmp_path):
    report = scan_file(
        str(write_rows(tmp_path / "d.jsonl", [{"prompt": "q", "chosen": "a", "rejected": "b"}])), kind="rl"
    )
    assert (report.kind, report.kind_source) == ("rl", "given")


def test_rl_facts_count_each_problem_with_its_first_row(tmp_path):
    rows = rl_rows(6)
    rows[1]["prompt"] = "a plain string"
    rows[2]["prompt"] = [{"from": "human", "value": "sharegpt"}]
    rows[3]["prompt"] = [{"role": "human", "content": "hi"}]
    rows[4]["prompt"] = [{"role": "user", "content": "  "}]
    rows[5]["reward_model"] = {"style": "rule"}
    rows[5]["data_source"] = "my_set"
    report = scan_file(str(write_rows(tmp_path / "d.jsonl", rows)))
    facts = report.chats["prompt"]
    assert dict(facts.problems.counts) == {
        "plain_string": 1,
        "sharegpt": 1,
        "unknown_role": 1,
        "no_user": 1,
        "empty_content": 1,
    }
    assert facts.problems.first == {
        "plain_string": 1,
        "sharegpt": 2,
        "unknown_role": 3,
        "no_user": 3,
        "empty_content": 4,
    }
    assert facts.good == 2 and facts.unknown_roles == {"human": 1}
    assert dict(report.reward.sources) == {"openai/gsm8k": 5, "my_set": 1}
    assert dict(report.reward.problems.counts) == {"no_ground_truth": 1}


def test_a_missing_prompt_column_is_looked_for_under_close_names(tmp_path):
    rows = [{"question": [{"role": "user", "content": "hi"}], "prompts": "x", "answer": "1"}]
    report = scan_file(str(write_rows(tmp_path / "d.parquet", rows)))
    assert set(report.chats) == {"prompt", "prompts", "question"}
    assert report.chats["question"].good == 1 and report.chats["prompts"].problems["plain_string"] == 1


def test_rm_and_sft_facts(tmp_path):
    rm = scan_file(
        str(
            write_rows(
                tmp_path / "rm.jsonl",
                [{"prompt": "q", "chosen": "a", "rejected": "a"}, {"prompt": "q", "chosen": "", "rejected": "b"}],
            )
        )
    )
    assert dict(rm.pairs.problems.counts) == {"identical": 1, "empty_chosen": 1}
    sft = scan_file(str(write_rows(tmp_path / "sft.jsonl", [{"messages": [{"role": "user", "content": "hi"}]}])))
    assert sft.chats["messages"].problems["no_assistant"] == 1


def test_scan_reports_how_much_was_read(tmp_path):
    path = write_rows(tmp_path / "d.parquet", rl_rows(500), row_group_size=50)
    report = scan_file(str(path), budget=Budget(max_rows=100))
    assert report.rows_total == 500 and report.rows_exact and report.rows_read == 100 and not report.complete
    assert "row groups" in report.where and report.to_json()["rows_read"] == 100
    assert any("100 rows" in line for line in summary_lines(report))


def test_scan_refuses_what_verl_cannot_read(tmp_path):
    for path, words in [
        (tmp_path / "nope.parquet", "no such file"),
        (tmp_path, "is a folder"),
        (tmp_path / "x.csv", "not .parquet"),
    ]:
        if path.name == "x.csv":
            path.write_text("a\n")
        with pytest.raises(DataReadError, match=words):
            scan_file(str(path))


# --- inspect_data: the hook --------------------------------------------------------------------------


def test_hook_reads_local_files_and_names_what_it_did_not_check(tmp_path):
    good = write_rows(tmp_path / "train.parquet", rl_rows(10))
    a = answers(
        **{
            "data.train_files": [str(good), "hdfs://nn/data/train.parquet"],
            "data.val_files": [str(tmp_path / "missing.parquet"), "$DATA/val.parquet"],
        }
    )
    files = inspect_data(a, "local")["data"].files
    assert files[str(good)].status == "read" and files[str(good)].rows_total == 10
    assert files["hdfs://nn/data/train.parquet"].status == "not checked" and "remote" in str(
        files["hdfs://nn/data/train.parquet"].note
    )
    assert files["$DATA/val.parquet"].status == "not checked"
    assert files[str(tmp_path / "missing.parquet")].status == "unreadable"


def test_hook_in_cluster_mode_reads_nothing(tmp_path):
    good = write_rows(tmp_path / "train.parquet", rl_rows(10))
    files = inspect_data(answers(**{"data.train_files": str(good)}), "cluster")["data"].files
    assert files[str(good)].status == "not checked" and "cluster" in str(files[str(good)].note)


def test_hook_never_raises_on_bad_data(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"[\xff\xfe")
    files = inspect_data(answers(**{"data.train_files": str(bad)}), "local")["data"].files
    assert files[str(bad)].status == "unreadable" and "UTF-8" in str(files[str(bad)].note)


def test_hook_uses_the_actors_local_tokenizer(tmp_path):
    model = make_tokenizer(tmp_path / "model")
    good = write_rows(tmp_path / "train.jsonl", rl_rows(4, words=5))
    report = inspect_data(
        answers(**{"data.train_files": str(good), "actor_rollout_ref.model.path": str(model)}), "local"
    )["data"]
    assert report.files[str(good)].chats["prompt"].lengths == [8, 8, 8, 8]  # 5 words + 3
    assert report.files[str(good)].length_exact
    hub = inspect_data(
        answers(**{"data.train_files": str(good), "actor_rollout_ref.model.path": "Qwen/Qwen3-8B"}), "local"
    )["data"]
    assert not hub.files[str(good)].length_exact and "no tokenizer" in str(hub.length_label)


def test_hook_with_no_files_is_empty(tmp_path):
    assert inspect_data(answers(), "local")["data"].files == {}


def test_hook_without_local_files_imports_no_pyarrow():
    code = (
        "import sys\nfrom wizard.core.layers import build\nfrom wizard.detect.data.report import inspect_data\n"
        "a = build([('t', {'data.train_files': ['hdfs://x/t.parquet', '/nope/t.parquet']})]).answers\n"
        "inspect_data(a, 'local'); inspect_data(a, 'cluster')\nprint('pyarrow' in sys.modules)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert proc.stdout.strip() == "False", proc.stderr


def test_file_report_json_is_plain_data(tmp_path):
    import json

    report = scan_file(str(write_rows(tmp_path / "d.jsonl", rl_rows(3))))
    doc = json.loads(json.dumps(report.to_json()))
    assert (
        doc["kind"] == "rl"
        and doc["chats"]["prompt"]["well_formed"] == 3
        and doc["reward"]["data_sources"] == {"openai/gsm8k": 3}
    )
    assert FileReport(path="x", status="not checked", note="n").to_json()["status"] == "not checked"
