"""Reading data files in bounded memory: formats, sampling, and files that are not rows.

Also the helpers the other data tests use: `write_rows` (parquet/json/jsonl by the name's ending),
`rl_rows` (good RL rows in verl's format) and `make_tokenizer` (a real word-level tokenizer with a chat
template, built here with the `tokenizers` library: no download).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wizard.detect.data.read import Budget, DataReadError, format_of, open_rows

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


# --- helpers shared by tests/detect, tests/core and tests/cli ----------------------------------------


def rl_rows(n: int, source: str = "openai/gsm8k", words: int = 3) -> list[dict]:
    """n good RL rows: a one-message chat prompt of `words` words, a data_source and a ground truth."""
    return [
        {
            "data_source": source,
            "prompt": [{"role": "user", "content": " ".join(f"w{(i + k) % 40}" for k in range(words))}],
            "ability": "math",
            "reward_model": {"style": "rule", "ground_truth": str(i)},
            "extra_info": {"split": "train", "index": i},
        }
        for i in range(n)
    ]


def write_rows(path: Path, rows: list[dict], row_group_size: int | None = None) -> Path:
    """Write rows as verl reads them: parquet, a JSON array (.json) or JSON lines (.jsonl)."""
    path = Path(path)
    if path.name.endswith(".parquet"):
        pq.write_table(pa.Table.from_pylist(rows), path, row_group_size=row_group_size)
    elif path.name.endswith(".jsonl"):
        path.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    else:
        path.write_text(json.dumps(rows, indent=1), encoding="utf-8")
    return path


TEMPLATE = (
    "{% for m in messages %}<|{{ m['role'] }}|> {{ m['content'] }} <|end|> {% endfor %}"
    "{% if add_generation_prompt %}<|assistant|>{% endif %}"
)


def make_tokenizer(folder: Path, template: str | None = TEMPLATE) -> Path:
    """A word-level tokenizer (one token per space-separated word) with a chat template, saved as a folder.

    With the template, a conversation of m messages with W words in all is W + 3·m + 1 tokens:
    each message adds <|role|> and <|end|>, and the generation prompt adds <|assistant|>.
    """
    from tokenizers import Tokenizer, models, pre_tokenizers

    words = ["<unk>", "<|system|>", "<|user|>", "<|assistant|>", "<|tool|>", "<|end|>"] + [f"w{i}" for i in range(40)]
    tok = Tokenizer(models.WordLevel(vocab={w: i for i, w in enumerate(words)}, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    folder.mkdir(parents=True, exist_ok=True)
    tok.save(str(folder / "tokenizer.json"))
    config = {"eos_token": "<|end|>"}
    if template is not None:
        config["chat_template"] = template
    (folder / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    return folder


def read_all(path, budget: Budget | None = None):
    stream = open_rows(str(path), budget or Budget())
    rows = list(stream)
    return stream, rows


# --- formats -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["d.parquet", "d.json", "d.jsonl"])
def test_every_format_reads_all_rows_of_a_small_file(tmp_path, name):
    rows = rl_rows(30)
    stream, got = read_all(write_rows(tmp_path / name, rows))
    assert got == rows
    assert stream.complete and stream.total_exact and stream.total_rows == 30
    assert stream.columns == ["data_source", "prompt", "ability", "reward_model", "extra_info"]


@pytest.mark.parametrize(
    "name, fmt",
    [
        ("a.parquet", "parquet"),
        ("a.json", "json"),
        ("a.jsonl", "jsonl"),
        ("a.PARQUET", None),
        ("a.csv", None),
        ("a.parquet.gz", None),
        ("jsonl", None),
    ],
)
def test_format_is_chosen_by_the_name_as_verl_does(name, fmt):
    assert format_of(name) == fmt


def test_parquet_decodes_only_the_selected_columns(tmp_path):
    stream = open_rows(str(write_rows(tmp_path / "d.parquet", rl_rows(5))), Budget())
    stream.select(["prompt", "nonexistent"])
    assert [set(r) for r in stream] == [{"prompt"}] * 5


def test_column_oriented_json_object_is_rows(tmp_path):
    path = tmp_path / "cols.json"
    path.write_text(json.dumps({"prompt": ["a", "b"], "data_source": ["x", "y"]}, indent=1))
    _, rows = read_all(path)
    assert rows == [{"prompt": "a", "data_source": "x"}, {"prompt": "b", "data_source": "y"}]


def test_a_jsonl_file_of_one_row_is_one_row(tmp_path):
    path = tmp_path / "one.jsonl"
    path.write_text(json.dumps(rl_rows(1)[0]) + "\n")
    stream, rows = read_all(path)
    assert rows == rl_rows(1) and stream.complete


def test_concatenated_pretty_objects_are_read_but_not_sampled_by_seeking(tmp_path):
    path = tmp_path / "pretty.jsonl"
    path.write_text("".join(json.dumps(r, indent=2) + "\n" for r in rl_rows(200)))
    stream, rows = read_all(path, Budget(max_rows=20, max_bytes=8000))
    assert len(rows) == 20 and rows[0]["extra_info"]["index"] == 0  # the head only: a seek could land inside an object
    assert "place" not in stream.where


# --- sampling: bounded reads --------------------------------------------------------------------------


def test_large_parquet_is_sampled_from_row_groups_spread_over_the_file(tmp_path):
    path = write_rows(tmp_path / "big.parquet", rl_rows(1000), row_group_size=50)  # 20 row groups
    stream, rows = read_all(path, Budget(max_rows=64))
    assert stream.total_rows == 1000 and stream.total_exact and not stream.complete
    assert 64 <= len(rows) <= 80
    indices = [r["extra_info"]["index"] for r in rows]
    assert min(indices) == 0 and max(indices) >= 950  # the last row group is in the sample
    assert "row groups" in stream.where


def test_small_parquet_under_the_budget_is_read_whole(tmp_path):
    stream, rows = read_all(write_rows(tmp_path / "d.parquet", rl_rows(64), row_group_size=10), Budget(max_rows=64))
    assert len(rows) == 64 and stream.complete


def test_large_jsonl_is_sampled_from_its_head_and_windows_further_on(tmp_path):
    path = write_rows(tmp_path / "big.jsonl", rl_rows(5000))
    stream, rows = read_all(path, Budget(max_rows=400, max_bytes=40_000))
    assert not stream.complete and not stream.total_exact
    assert stream.bytes_read < path.stat().st_size / 2
    indices = [r["extra_info"]["index"] for r in rows]
    assert indices[0] == 0 and max(indices) > 4000
    assert abs(stream.total_rows - 5000) < 500  # estimated from the bytes read


def test_a_json_array_over_the_budget_stops_at_its_head(tmp_path):
    stream, rows = read_all(write_rows(tmp_path / "d.json", rl_rows(300)), Budget(max_rows=50))
    assert len(rows) == 50 and not stream.complete and not stream.total_exact


# --- files that are not rows: one line each ------------------------------------------------------------


def _error(path) -> str:
    with pytest.raises(DataReadError) as exc:
        read_all(path)
    message = str(exc.value)
    assert "\n" not in message
    return message


def test_truncated_parquet(tmp_path):
    good = write_rows(tmp_path / "g.parquet", rl_rows(50))
    bad = tmp_path / "t.parquet"
    bad.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    assert "truncated or corrupt" in _error(bad)


@pytest.mark.parametrize(
    "text, words",
    [
        ('{"prompt": [{"role": "user", "content": "hi"}],\n "data_source": "x"}\n', ["single JSON object"]),
        ('{"version": 1, "data": [{"prompt": "a"}]}', ["single JSON object", "'data'"]),
        ('[{"prompt": "a"}, {"prompt": "b"}', ["not closed"]),
        ('[{"prompt": "a"}, "b"]', ["row 1", "str"]),
        ('{"prompt": "a"}\n{"prompt": \n', ["JSON syntax error", "line 2"]),
        ('"just a string"', ["not JSON rows"]),
        ("", ["empty file"]),
        ("  \n ", ["blank"]),
        ('{"prompt": "a"}\n[1, 2]\n', ["line 2", "expected a JSON object"]),
    ],
)
def test_json_that_is_not_rows(tmp_path, text, words):
    path = tmp_path / "bad.json"
    path.write_text(text)
    message = _error(path)
    for word in words:
        assert word in message


def test_invalid_utf8_names_the_byte(tmp_path):
    path = tmp_path / "latin.jsonl"
    path.write_bytes(b'{"prompt": "ok"}\n{"prompt": "caf\xe9"}\n')
    message = _error(path)
    assert "not UTF-8" in message and "offset 32" in message


def test_a_utf8_bom_is_not_an_error(tmp_path):
    path = tmp_path / "bom.jsonl"
    path.write_bytes(b'\xef\xbb\xbf{"prompt": "ok"}\n')
    assert read_all(path)[1] == [{"prompt": "ok"}]


def test_unsupported_ending_is_refused_before_reading(tmp_path):
    path = tmp_path / "rows.csv"
    path.write_text("prompt\nhello\n")
    assert "refuses" in _error(path)
