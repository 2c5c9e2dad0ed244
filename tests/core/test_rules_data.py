"""Data rules (DATA-001..009, BATCH-013, ROLE-005 from the rows): each mistake in a real file, and its good neighbours."""

from __future__ import annotations

import pytest

from tests.conftest import BASE
from tests.detect.test_data_files import make_tokenizer, rl_rows, write_rows
from wizard.core.layers import build
from wizard.core.rules import context_for, evaluate
from wizard.detect.data.report import DataReport, inspect_data, scan_file
from wizard.detect.paths import inspect_paths

pytest.importorskip("pyarrow")

DATA_IDS = ("DATA-", "BATCH-013", "ROLE-005")


def run(files, overrides=None, mode="local"):
    """Findings for BASE (train_batch_size 64, 8 GPUs) reading `files` as data.train_files (and no validation
    files: they are not these tests' subject, and DATA-011 for them is left out)."""
    values = {
        **BASE,
        "data.train_files": [str(f) for f in files] if isinstance(files, list) else str(files),
        "data.val_files": None,
        **(overrides or {}),
    }
    values = {k: v for k, v in values.items() if v is not None}
    layered = build([("test", values)])
    data = inspect_data(layered.answers, mode)["data"]
    paths = inspect_paths(layered.answers, mode)["paths"]
    return [
        f
        for f in evaluate(context_for(layered.answers, layered.flat, mode=mode, data=data, paths=paths))
        if f.id.startswith(DATA_IDS) and f.id != "DATA-011"
    ]


def ids(findings, severities=("error", "warning")):
    return {f.id for f in findings if f.severity.value in severities}


def one(findings, rule_id):
    found = [f for f in findings if f.id == rule_id]
    assert len(found) == 1, [(f.id, str(f.message)) for f in findings]
    return found[0]


@pytest.mark.parametrize("name", ["train.parquet", "train.json", "train.jsonl"])
def test_good_files_pass(tmp_path, name):
    assert run(write_rows(tmp_path / name, rl_rows(64))) == []


# --- DATA-001 / DATA-008 / DATA-009: paths --------------------------------------------------------


def test_data_001_missing_file_only_in_local_mode(tmp_path):
    missing = tmp_path / "nope.parquet"
    assert "no such file" in str(one(run(missing), "DATA-001").message)
    assert run(missing, mode="cluster") == []


@pytest.mark.parametrize("make", ["csv", "truncated", "folder", "single object"])
def test_data_001_unreadable_files(tmp_path, make):
    good = write_rows(tmp_path / "good.parquet", rl_rows(64))
    if make == "csv":
        path = tmp_path / "train.csv"
        path.write_text("prompt\nhi\n")
    elif make == "truncated":
        path = tmp_path / "train.parquet"
        path.write_bytes(good.read_bytes()[:200])
    elif make == "folder":
        path = tmp_path / "train_dir"
        path.mkdir()
    else:
        path = tmp_path / "train.json"
        path.write_text('{\n "prompt": "a"\n}\n')
    assert ids(run(path)) == {"DATA-001"}
    assert ids(run(good)) == set()


def test_data_008_tilde_path_with_expanded_fix_in_both_modes(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    write_rows(tmp_path / "train.parquet", rl_rows(64))
    for mode in ("local", "cluster"):
        finding = one(run("~/train.parquet", mode=mode), "DATA-008")
        assert finding.fixes and finding.fixes[0].set == {"data.train_files": str(tmp_path / "train.parquet")}
    assert ids(run(tmp_path / "train.parquet")) == set()


def test_data_008_fix_keeps_the_other_files_of_a_list(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    good = write_rows(tmp_path / "a.parquet", rl_rows(64))
    write_rows(tmp_path / "b.parquet", rl_rows(64))
    finding = one(run([good, "~/b.parquet"]), "DATA-008")
    assert finding.fixes[0].set == {"data.train_files": [str(good), str(tmp_path / "b.parquet")]}


def test_data_009_remote_paths_are_named_as_not_checked(tmp_path):
    found = run("hdfs://nn/train.parquet")
    assert one(found, "DATA-009").severity.value == "info" and "hdfs://nn/train.parquet" in str(found[0].message)
    assert run("hdfs://nn/train.parquet", mode="cluster") == []


# --- DATA-002 / DATA-003: the prompt column -------------------------------------------------------


def test_data_002_wrong_prompt_key_offers_the_chat_column(tmp_path):
    rows = [{("question" if k == "prompt" else k): v for k, v in r.items()} for r in rl_rows(64)]
    path = write_rows(tmp_path / "train.parquet", rows)
    finding = one(run(path), "DATA-002")
    assert "'prompt'" in str(finding.message) and "question" in str(finding.message)
    assert [f.set for f in finding.fixes] == [{"data.prompt_key": "question"}]
    assert run(path, {"data.prompt_key": "question"}) == []


def test_data_002_plain_string_look_alike_is_named_but_not_offered(tmp_path):
    rows = [{**r, "question": "plain text"} for r in rl_rows(64)]
    for r in rows:
        del r["prompt"]
    finding = one(run(write_rows(tmp_path / "train.jsonl", rows)), "DATA-002")
    assert finding.fixes == () and "not a chat list" in str(finding.message)


def test_data_002_sft_data_given_to_ppo_is_named(tmp_path):
    rows = [{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]}] * 64
    assert "looks like SFT data" in str(one(run(write_rows(tmp_path / "train.jsonl", rows)), "DATA-002").message)


def _with_prompt(prompt, n=64, bad_rows=(0,)):
    rows = rl_rows(n)
    for i in bad_rows:
        rows[i]["prompt"] = prompt
    return rows


@pytest.mark.parametrize(
    "prompt, words",
    [
        ("What is 1+1?", "plain string"),
        ([{"role": "human", "content": "hi"}], "did you mean 'user'"),
        ([{"role": "user", "content": ""}], "empty content"),
        ([{"from": "human", "value": "hi"}], "ShareGPT"),
        ([{"role": "system", "content": "be brief"}], "no user message"),
        ([], "empty list"),
        (None, "empty (null)"),
    ],
)
def test_data_003_each_chat_mistake(tmp_path, prompt, words):
    found = run(write_rows(tmp_path / "train.jsonl", _with_prompt(prompt, bad_rows=(3, 7))))
    messages = [str(f.message) for f in found if f.id == "DATA-003"]
    assert messages and any(words in m for m in messages), messages
    assert any("in 2 of 64 rows (first: row 3)" in m for m in messages)


def test_data_003_passes_system_then_user_and_multimodal_content(tmp_path):
    rows = _with_prompt([{"role": "system", "content": "be brief"}, {"role": "user", "content": "hi"}])
    rows[1]["prompt"] = [{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "what is it?"}]}]
    assert run(write_rows(tmp_path / "train.jsonl", rows)) == []


def test_data_003_in_parquet_plain_strings(tmp_path):
    rows = rl_rows(64)
    for r in rows:
        r["prompt"] = r["prompt"][0]["content"]
    assert "DATA-003" in ids(run(write_rows(tmp_path / "train.parquet", rows)))


# --- DATA-004 and ROLE-005: the reward --------------------------------------------------------------


def test_data_004_missing_ground_truth(tmp_path):
    rows = rl_rows(64)
    rows[5]["reward_model"] = {"style": "rule", "ground_truth": None}
    path = write_rows(tmp_path / "train.jsonl", rows)
    assert "1 of 64 rows (first: row 5)" in str(one(run(path), "DATA-004").message)
    rm = {
        "reward.reward_model.enable": True,
        "reward.reward_model.model_path": "/rm",
        "reward.reward_model.rollout.name": "vllm",
    }
    assert "DATA-004" not in ids(run(path, rm))


def test_data_004_no_reward_model_column(tmp_path):
    rows = [{k: v for k, v in r.items() if k != "reward_model"} for r in rl_rows(64)]
    assert "no reward_model column" in str(one(run(write_rows(tmp_path / "train.parquet", rows)), "DATA-004").message)


def test_role_005_data_source_from_the_rows(tmp_path):
    path = write_rows(tmp_path / "train.parquet", rl_rows(64, source="my_quiz"))
    assert "data_source 'my_quiz' in 64 of 64 rows" in str(one(run(path), "ROLE-005").message)
    assert run(path, {"reward.custom_reward_function.path": "/r.py"}) == []
    assert run(write_rows(tmp_path / "ok.parquet", rl_rows(64, source="aime2024"))) == []


def test_role_005_is_not_reported_twice_when_the_answer_already_is(tmp_path):
    path = write_rows(tmp_path / "train.parquet", rl_rows(64, source="my_quiz"))
    both = [f for f in evaluate_all(path, {"models.data_source": "my_quiz"}) if f.id == "ROLE-005"]
    assert len(both) == 1


def evaluate_all(path, overrides):
    layered = build([("test", {**BASE, "data.train_files": str(path), **overrides})])
    return evaluate(
        context_for(layered.answers, layered.flat, mode="local", data=inspect_data(layered.answers, "local")["data"])
    )


# --- DATA-005 and BATCH-013: lengths and rows ----------------------------------------------------------


def _lengths_case(tmp_path, n=100, overrides=None):
    """n rows whose prompts are 1..n words (tokens = words + 3 with the test tokenizer)."""
    model = make_tokenizer(tmp_path / "model")
    rows = rl_rows(n)
    for i, r in enumerate(rows):
        r["prompt"] = [{"role": "user", "content": " ".join(["w1"] * (i + 1))}]
    path = write_rows(tmp_path / "train.parquet", rows)
    return run(path, {"actor_rollout_ref.model.path": str(model), **(overrides or {})})


def test_data_005_counts_exactly_with_the_tokenizer(tmp_path):
    finding = one(_lengths_case(tmp_path, overrides={"data.max_prompt_length": 50}), "DATA-005")
    # tokens 4..103; over 50: 51..103 = 53 prompts
    assert (
        finding.severity.value == "warning"
        and "53 of 100 prompts" in str(finding.message)
        and "max 103" in str(finding.message)
    )
    assert {"data.filter_overlong_prompts": True} in [f.set for f in finding.fixes]
    assert {"data.max_prompt_length": 128} in [f.set for f in finding.fixes]


def test_data_005_silent_when_everything_fits(tmp_path):
    assert _lengths_case(tmp_path, overrides={"data.max_prompt_length": 103}) == []


def test_data_005_and_batch_013_when_filtering_empties_the_batch(tmp_path):
    found = _lengths_case(tmp_path, overrides={"data.max_prompt_length": 50, "data.filter_overlong_prompts": True})
    assert "filter_overlong_prompts drops them" in str(one(found, "DATA-005").message)
    batch = one(found, "BATCH-013")
    # 47 prompts of 4..50 tokens are kept; 47 < train_batch_size 64
    assert "47 rows left after filter_overlong_prompts" in str(batch.message)
    assert {"data.train_batch_size": 32} in [f.set for f in batch.fixes]
    assert {"data.filter_overlong_prompts": False} in [f.set for f in batch.fixes]


def test_batch_013_not_when_enough_rows_are_left(tmp_path):
    found = _lengths_case(tmp_path, overrides={"data.max_prompt_length": 70, "data.filter_overlong_prompts": True})
    assert "BATCH-013" not in ids(found)  # 67 rows left >= 64
    assert one(found, "DATA-005").severity.value == "warning"  # 33% dropped


def test_batch_013_small_file_and_subsampling(tmp_path):
    small = write_rows(tmp_path / "small.parquet", rl_rows(40))
    assert "40 rows" in str(one(run(small), "BATCH-013").message)
    big = write_rows(tmp_path / "big.parquet", rl_rows(100))
    assert "BATCH-013" not in ids(run(big))
    assert "BATCH-013" in ids(run(big, {"data.train_max_samples": 50}))
    other = write_rows(tmp_path / "other.jsonl", rl_rows(40))
    assert "BATCH-013" not in ids(run([small, other]))  # 40 + 40 rows add up


def test_batch_013_estimated_lengths_never_fail_the_batch(tmp_path):
    rows = rl_rows(100, words=200)  # ~200 words, well over 50 tokens by the estimate
    found = run(
        write_rows(tmp_path / "train.parquet", rows),
        {"data.max_prompt_length": 50, "data.filter_overlong_prompts": True},
    )
    assert "BATCH-013" not in ids(found) and "estimated" in str(one(found, "DATA-005").message)


# --- DATA-006 / DATA-007: other kinds (the `data` command's --kind) -------------------------------------


def _kind_run(path, kind):
    layered = build([("test", {"data.train_files": str(path)})])
    report = DataReport(files={str(path): scan_file(str(path), kind=kind)})
    found = evaluate(context_for(layered.answers, layered.flat, data=report))
    return [f for f in found if f.id.startswith("DATA-") and f.id != "DATA-011"]  # no validation files: see run()


@pytest.mark.parametrize(
    "rows, words",
    [
        ([{"prompt": "q", "chosen": "a"}], "missing rejected"),
        ([{"prompt": "q", "chosen": "", "rejected": "b"}], "empty chosen"),
        ([{"prompt": None, "chosen": "a", "rejected": "b"}], "no prompt"),
    ],
)
def test_data_006_pairs(tmp_path, rows, words):
    found = _kind_run(write_rows(tmp_path / "rm.jsonl", rows), "rm")
    assert any(f.id == "DATA-006" and words in str(f.message) for f in found), [str(f.message) for f in found]


def test_data_006_identical_pair_is_a_warning_and_good_pairs_pass(tmp_path):
    found = _kind_run(write_rows(tmp_path / "rm.jsonl", [{"prompt": "q", "chosen": "a", "rejected": "a"}]), "rm")
    assert [f.severity.value for f in found if f.id == "DATA-006"] == ["warning"]
    assert _kind_run(write_rows(tmp_path / "ok.jsonl", [{"prompt": "q", "chosen": "a", "rejected": "b"}]), "rm") == []


@pytest.mark.parametrize(
    "rows, words",
    [
        ([{"conversations": [{"role": "user", "content": "hi"}]}], "needs a 'messages' column"),
        ([{"messages": [{"role": "user", "content": "hi"}]}], "no assistant message"),
        ([{"messages": "user: hi assistant: yo"}], "plain string"),
        (
            [{"messages": [{"role": "user", "content": "hi"}, {"role": "gpt", "content": "yo"}]}],
            "did you mean 'assistant'",
        ),
    ],
)
def test_data_007_sft(tmp_path, rows, words):
    found = _kind_run(write_rows(tmp_path / "sft.jsonl", rows), "sft")
    assert any(f.id == "DATA-007" and words in str(f.message) for f in found), [str(f.message) for f in found]


def test_data_007_good_sft_passes(tmp_path):
    rows = [
        {
            "messages": [
                {"role": "system", "content": "s"},
                {"role": "user", "content": "hi"},
                {"role": "assistant", "content": "yo"},
            ]
        }
    ]
    assert _kind_run(write_rows(tmp_path / "sft.parquet", rows), "sft") == []


def test_sampled_files_say_so_in_the_message(tmp_path, monkeypatch):
    import wizard.detect.data.report as data
    from wizard.detect.data.read import Budget

    monkeypatch.setattr(data, "HOOK_BUDGET", Budget(max_rows=100))
    rows = rl_rows(1000)
    rows[0]["reward_model"] = {"style": "rule"}
    finding = one(run(write_rows(tmp_path / "train.parquet", rows, row_group_size=100)), "DATA-004")
    assert "in 1 of 100 rows sampled from 1000 (first: row 0)" in str(finding.message)


# --- DATA-010: no training data ------------------------------------------------------------------


PLACEHOLDER = "~/data/rlhf/gsm8k/train.parquet"


@pytest.mark.parametrize("mode", ["local", "cluster"])
@pytest.mark.parametrize("files", [None, [], PLACEHOLDER, [PLACEHOLDER]])
def test_data_010_train_files_not_set_or_verls_placeholder(files, mode):
    finding = one(run(files, mode=mode) if files is not None else _run_without_train(mode), "DATA-010")
    assert finding.severity.value == "error" and list(finding.paths) == ["data.train_files"]
    assert PLACEHOLDER in str(finding.message) and "DATA-008" not in ids(run(PLACEHOLDER, mode=mode))


def _run_without_train(mode):
    layered = build([("test", {k: v for k, v in BASE.items() if k != "data.train_files"})])
    return [f for f in evaluate(context_for(layered.answers, layered.flat, mode=mode)) if f.id.startswith("DATA-")]


def test_data_010_passing_neighbours(tmp_path, monkeypatch):
    good = write_rows(tmp_path / "train.parquet", rl_rows(64))
    assert "DATA-010" not in ids(run(good))
    assert "DATA-010" not in ids(run([good, PLACEHOLDER.replace("train", "extra")], mode="cluster"))
    monkeypatch.setenv("HOME", str(tmp_path))
    assert ids(run("~/train.parquet", mode="cluster")) == {"DATA-008"}  # another ~ path is still DATA-008's
