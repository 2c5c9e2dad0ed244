"""Prompt tokens with a real tokenizer built in the test (no download): counts and drop numbers, exactly."""

from __future__ import annotations

import json

import pytest

from tests.detect.test_data_files import make_tokenizer, write_rows
from wizard.detect.data.report import scan_file
from wizard.detect.data.tokens import (
    ESTIMATE_LABEL,
    EstimateCounter,
    TokenizerError,
    estimate_tokens,
    find_tokenizer,
    load_counter,
    percentile,
)

pytest.importorskip("tokenizers")
pytest.importorskip("jinja2")


def chat(*turns):
    return [{"role": role, "content": content} for role, content in turns]


def test_counts_follow_the_chat_template_exactly(tmp_path):
    counter = load_counter(str(make_tokenizer(tmp_path / "tok")))
    conversations = [
        chat(("user", "w1 w2 w3")),  # 3 words + <|user|> <|end|> + <|assistant|>
        chat(("system", "w1"), ("user", "w1 w2")),  # 3 words + 2·2 + 1
        chat(("user", " ".join(["w5"] * 100))),
    ]  # 100 + 2 + 1
    assert counter.count_batch(conversations) == [6, 8, 103]
    assert counter.exact and "chat template applied" in str(counter.label)


def test_without_a_template_contents_are_counted_and_the_label_says_so(tmp_path):
    counter = load_counter(str(make_tokenizer(tmp_path / "tok", template=None)))
    assert counter.count_batch([chat(("system", "w1"), ("user", "w1 w2"))]) == [3]
    assert "no chat template" in str(counter.label)


def test_a_template_that_refuses_a_row_gives_none_and_the_reason(tmp_path):
    strict = "{% for m in messages %}{% if m['role'] == 'system' %}{{ raise_exception('no system role') }}{% endif %}{{ m['content'] }} {% endfor %}"
    counter = load_counter(str(make_tokenizer(tmp_path / "tok", template=strict)))
    assert counter.count_batch([chat(("user", "w1 w2")), chat(("system", "w1"), ("user", "w2"))]) == [2, None]
    assert "no system role" in counter.last_error


def test_apply_chat_template_kwargs_reach_the_template(tmp_path):
    template = "{% for m in messages %}{{ m['content'] }} {% endfor %}{% if enable_thinking is defined and not enable_thinking %}w9 w9{% endif %}"
    folder = make_tokenizer(tmp_path / "tok", template=template)
    assert load_counter(str(folder)).count_batch([chat(("user", "w1"))]) == [1]
    assert load_counter(str(folder), {"enable_thinking": False}).count_batch([chat(("user", "w1"))]) == [3]


def test_scan_counts_every_prompt_and_the_rows_over_the_limit(tmp_path):
    # Prompts of 1..20 words: 1 message each, so tokens = words + 3, i.e. 4..23.
    rows = [
        {
            "data_source": "openai/gsm8k",
            "prompt": chat(("user", " ".join(["w1"] * k))),
            "reward_model": {"ground_truth": "1"},
        }
        for k in range(1, 21)
    ]
    counter = load_counter(str(make_tokenizer(tmp_path / "tok")))
    report = scan_file(str(write_rows(tmp_path / "d.parquet", rows)), counter=counter)
    facts = report.chats["prompt"]
    assert facts.lengths == list(range(4, 24))
    assert report.length_exact and report.to_json()["lengths"]["prompt"] == {
        "rows": 20,
        "p50": 13,
        "p95": 22,
        "max": 23,
    }
    # filter_overlong_prompts keeps len <= max_prompt_length: with 16 tokens, 4..16 stay (13 rows), 17..23 go (7 rows).
    assert sum(1 for n in facts.lengths if n > 16) == 7


def test_template_failures_are_counted_per_column(tmp_path):
    strict = "{% for m in messages %}{% if m['role'] == 'system' %}{{ raise_exception('no system role') }}{% endif %}{{ m['content'] }} {% endfor %}"
    rows = [
        {"prompt": chat(("user", "w1"))},
        {"prompt": chat(("system", "w2"), ("user", "w1"))},
        {"prompt": chat(("user", "w1 w2"))},
    ]
    counter = load_counter(str(make_tokenizer(tmp_path / "tok", template=strict)))
    facts = scan_file(str(write_rows(tmp_path / "d.jsonl", rows)), counter=counter).chats["prompt"]
    assert facts.lengths == [1, 2] and facts.length_failures == 1 and "no system role" in facts.length_failure


def test_estimate_is_labelled_and_grows_with_text():
    counter = EstimateCounter()
    assert not counter.exact and counter.label == ESTIMATE_LABEL and "no tokenizer" in str(counter.label)
    short, long = estimate_tokens(chat(("user", "abcd"))), estimate_tokens(chat(("user", "abcd" * 100)))
    assert short == 3 + 4 + 1 and long == 3 + 4 + 100
    assert estimate_tokens(chat(("user", "数学题"))) == 3 + 4 + 3  # one token per CJK character


def test_find_tokenizer_refuses_what_is_not_a_tokenizer(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(TokenizerError, match="no tokenizer.json"):
        find_tokenizer(str(tmp_path / "empty"))
    with pytest.raises(TokenizerError, match="not in the Hugging Face cache"):
        find_tokenizer("Qwen/Qwen3-8B")
    with pytest.raises(TokenizerError, match="no such folder"):
        find_tokenizer(str(tmp_path / "nope"))
    (tmp_path / "t.json").write_text("{}")
    with pytest.raises(TokenizerError, match="not a tokenizer"):
        find_tokenizer(str(tmp_path / "t.json"))


def test_a_cached_hugging_face_id_is_found_offline(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "cache"))
    snapshot = tmp_path / "cache" / "models--acme--tiny" / "snapshots" / "abc123"
    make_tokenizer(snapshot)
    assert find_tokenizer("acme/tiny") == snapshot
    assert load_counter("acme/tiny").count_batch([chat(("user", "w1"))]) == [4]


def test_a_broken_tokenizer_file_is_one_line(tmp_path):
    folder = tmp_path / "tok"
    folder.mkdir()
    (folder / "tokenizer.json").write_text(json.dumps({"not": "a tokenizer"}))
    with pytest.raises(TokenizerError) as exc:
        load_counter(str(folder))
    assert "not a tokenizer file" in str(exc.value) and "\n" not in str(exc.value)


@pytest.mark.parametrize(
    "values, q, expected",
    [([], 50, None), ([7], 95, 7), ([1, 2, 3, 4], 50, 2), ([1, 2, 3, 4], 100, 4), (list(range(1, 101)), 95, 95)],
)
def test_percentile_nearest_rank(values, q, expected):
    assert percentile(values, q) == expected


def test_long_prompts_are_measured_every_nth_row_past_the_character_budget(tmp_path, monkeypatch):
    import wizard.detect.data.report as data

    monkeypatch.setattr(data, "MEASURE_CHARS", 20_000)
    rows = [{"prompt": chat(("user", " ".join(["w3"] * 30)))} for _ in range(2000)]  # 89 characters, 33 tokens each
    path = str(write_rows(tmp_path / "d.parquet", rows))
    exact = scan_file(path, counter=load_counter(str(make_tokenizer(tmp_path / "tok")))).chats["prompt"]
    # 256 prompts are measured first; then 2000 rows × 89 characters / 20,000 → every 9th row.
    assert (
        exact.length_stride == 9 and len(exact.lengths) == 256 + len(range(256, 2000, 9)) and set(exact.lengths) == {33}
    )
    estimated = scan_file(path, counter=EstimateCounter()).chats["prompt"]
    assert estimated.length_stride == 1 and len(estimated.lengths) == 2000
