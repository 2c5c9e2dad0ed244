"""Corpus cases over data files (see tests/test_i18n_corpus.py): each file written the way a user might have it,
read through the data hook `check` uses (or `verl-wizard data --kind` for pairs and SFT chats).
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from pathlib import Path
from unittest import mock

import pytest

from tests.conftest import BASE
from tests.detect.test_data_files import make_tokenizer, rl_rows, write_rows
from wizard.core.layers import build
from wizard.core.rules import context_for, evaluate
from wizard.detect.data.report import DataReport, inspect_data, scan_file

pytest.importorskip("pyarrow")


def data_case(write, overrides: dict | None = None, mode: str = "local"):
    """Findings for BASE reading the file(s) write(tmp) returns as data.train_files, through the real data hook."""

    def run(tmp: Path):
        files = write(tmp)
        values = {**BASE, "data.train_files": [str(f) for f in files] if isinstance(files, list) else str(files)}
        for key, value in (overrides(tmp) if callable(overrides) else overrides or {}).items():
            values[key] = value
        layered = build([("test", {k: v for k, v in values.items() if v is not None})])
        data = inspect_data(layered.answers, mode)["data"]
        return evaluate(context_for(layered.answers, layered.flat, mode=mode, data=data))

    return run


def kind_case(rows: list, kind: str, name: str = "d.jsonl"):
    """Findings for one file read with `verl-wizard data --kind` (rm pairs or sft chats)."""

    def run(tmp: Path):
        path = write_rows(tmp / name, rows)
        layered = build([("test", {"data.train_files": str(path)})])
        report = DataReport(files={str(path): scan_file(str(path), kind=kind)})
        return evaluate(context_for(layered.answers, layered.flat, data=report))

    return run


def rows_with(prompt, bad=(3, 7), n=64):
    rows = rl_rows(n)
    for i in bad:
        rows[i]["prompt"] = prompt
    return rows


def text_file(name: str, content: str | bytes):
    def write(tmp: Path):
        path = tmp / name
        path.write_bytes(content) if isinstance(content, bytes) else path.write_text(content)
        return path

    return write


def rows_file(name: str, rows, **kw):
    return lambda tmp: write_rows(tmp / name, rows() if callable(rows) else rows, **kw)


def lengths_file(n: int = 100, name: str = "train.parquet", **kw):
    """n rows whose prompts are 1..n words (tokens = words + 3 with the test tokenizer)."""

    def rows():
        out = rl_rows(n)
        for i, r in enumerate(out):
            r["prompt"] = [{"role": "user", "content": " ".join(["w1"] * (i % 100 + 1))}]
        return out

    return rows_file(name, rows, **kw)


def long_rows(n: int) -> list[dict]:
    """n rows of 600..799-word prompts: enough characters that the data hook measures every other row."""
    out = rl_rows(n)
    for i, r in enumerate(out):
        r["prompt"] = [{"role": "user", "content": " ".join(["w1"] * (600 + i % 200))}]
    return out


def tokenizer(template=True):
    def over(tmp: Path):
        kwargs = {} if template else {"template": None}
        return {"actor_rollout_ref.model.path": str(make_tokenizer(tmp / "model", **kwargs))}

    return over


def with_tokenizer(extra: dict, template=True):
    return lambda tmp: {**tokenizer(template)(tmp), **extra}


FAILING_TEMPLATE = (
    "{% for m in messages %}{% if m['content'] == 'w1' %}{{ raise_exception('one-word prompts refused') }}{% endif %}"
    "<|{{ m['role'] }}|> {{ m['content'] }} <|end|> {% endfor %}"
)


def failing_tokenizer(tmp: Path):
    return {
        "actor_rollout_ref.model.path": str(make_tokenizer(tmp / "model", template=FAILING_TEMPLATE)),
        "data.max_prompt_length": 50,
    }


def refusing_tokenizer(tmp: Path):
    template = "{{ raise_exception('no prompt is welcome') }}"
    return {
        "actor_rollout_ref.model.path": str(make_tokenizer(tmp / "model", template=template)),
        "data.max_prompt_length": 50,
    }


def corrupt_parquet(tmp: Path) -> Path:
    """30 row groups with 3000 zero bytes in the middle of the file: footer intact, a later group unreadable."""
    path = write_rows(tmp / "train.parquet", rl_rows(3000), row_group_size=100)
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle : middle + 3000] = bytes(3000)
    path.write_bytes(bytes(data))
    return path


def padded_jsonl(bad_from: int = 3000, cut_from: int = 3000):
    """3000 rows of ~4 KB (12 MB: more than the data hook reads, so it samples windows further on); rows from
    `bad_from` have plain-string prompts, lines from `cut_from` lose their closing braces."""

    def write(tmp: Path) -> Path:
        rows = rl_rows(3000)
        for i, r in enumerate(rows):
            r["extra_info"]["pad"] = "x" * 4000
            if i >= bad_from:
                r["prompt"] = "plain"
        lines = [json.dumps(r) for r in rows]
        lines = lines[:cut_from] + [line[:-2] for line in lines[cut_from:]]
        path = tmp / "train.jsonl"
        path.write_text("\n".join(lines) + "\n")
        return path

    return write


def patched(build, *patches):
    """A builder run with `patches` (unittest.mock patchers) active: the machine, not the rules, made different."""

    def run(tmp: Path):
        with contextlib.ExitStack() as stack:
            for patcher in patches:
                stack.enter_context(patcher)
            return build(tmp)

    return run


def unknown_sources():
    rows = rl_rows(64)
    for i, r in enumerate(rows):
        r["data_source"] = ["quiz_a", "quiz_b", "quiz_c", "quiz_d", ""][i % 5]
    return rows


_SOCKETS: list = []


def _socket_file(tmp):
    """A Unix socket named like a data file (kept open until the corpus is built)."""
    import socket

    server = socket.socket(socket.AF_UNIX)
    server.bind(str(tmp / "sock.jsonl"))
    _SOCKETS.append(server)
    return tmp / "sock.jsonl"


def good_train(tmp: Path) -> Path:
    return write_rows(tmp / "train.parquet", rl_rows(64))


def relative_case(target: str | None):
    """A relative data path where `target` starts the run; None: a verl config, which does not say where."""

    def run(tmp: Path):
        values = {**BASE, "data.train_files": "data/train.parquet", "deploy.target": target or "local"}
        layered = build([("test", values)])
        return evaluate(context_for(layered.answers, layered.flat, mode="cluster", target_known=target is not None))

    return run


DATA_CASES = (
    [
        ("data missing", "DATA-001", data_case(lambda t: t / "nope.parquet")),
        ("data csv", "DATA-001", data_case(text_file("train.csv", "prompt\nhi\n"))),
        (
            "data truncated parquet",
            "DATA-001",
            data_case(
                lambda t: text_file("train.parquet", write_rows(t / "good.parquet", rl_rows(64)).read_bytes()[:200])(t)
            ),
        ),
        ("data without an ending", "DATA-001", data_case(text_file("train", "prompt\n"))),
        ("data parquet corrupt further on", "DATA-001", data_case(corrupt_parquet)),
        (
            "data row too large",
            "DATA-001",
            data_case(text_file("train.jsonl", '{"prompt": "' + "a" * (20 << 20) + '"}\n')),
        ),
        ("data broken line further on", "DATA-001", data_case(padded_jsonl(cut_from=1500))),
        (
            "data not readable",
            "DATA-001",
            patched(
                data_case(rows_file("train.jsonl", lambda: rl_rows(64))),
                mock.patch("wizard.detect.data.report.os.access", return_value=False),
            ),
        ),
        (
            "data parquet without pyarrow",
            "DATA-001",
            patched(
                data_case(rows_file("train.parquet", lambda: rl_rows(64))),
                mock.patch.dict(sys.modules, {"pyarrow": None, "pyarrow.parquet": None}),
            ),
        ),
        ("data folder", "DATA-001", data_case(lambda t: (t / "train_dir").mkdir() or t / "train_dir")),
        ("data a named pipe", "DATA-001", data_case(lambda t: os.mkfifo(t / "pipe.jsonl") or t / "pipe.jsonl")),
        (
            "data a device",
            "DATA-001",
            data_case(lambda t: (t / "zero.jsonl").symlink_to("/dev/zero") or t / "zero.jsonl"),
        ),
        ("data a socket", "DATA-001", data_case(_socket_file)),
        (
            "data nested too deeply",
            "DATA-001",
            data_case(text_file("train.json", '[{"prompt": ' + "[" * 5000 + "]" * 5000 + "}]")),
        ),
        (
            "data a 5,000-digit number",
            "DATA-001",
            data_case(text_file("train.jsonl", '{"prompt": ' + "9" * 5000 + "}\n")),
        ),
        ("data single object", "DATA-001", data_case(text_file("train.json", '{\n "prompt": "a"\n}\n'))),
        (
            "data wrapped rows",
            "DATA-001",
            data_case(text_file("train.json", '{"data": [{"prompt": [{"content": "a"}]}], "n": 1}')),
        ),
        ("data not utf-8", "DATA-001", data_case(text_file("train.jsonl", b'{"prompt": "caf\xe9"}\n'))),
        ("data empty", "DATA-001", data_case(text_file("train.jsonl", ""))),
        ("data blank", "DATA-001", data_case(text_file("train.json", "   \n"))),
        ("data json syntax", "DATA-001", data_case(text_file("train.jsonl", '{"prompt": "a"}\n{"prompt": }\n'))),
        ("data array not closed", "DATA-001", data_case(text_file("train.json", '[{"prompt": "a"}, {"prompt": "b"}'))),
        ("data array separator", "DATA-001", data_case(text_file("train.json", '[{"prompt": "a"} {"prompt": "b"}]'))),
        ("data row not an object", "DATA-001", data_case(text_file("train.json", "[[1, 2], [3]]"))),
        ("data not json", "DATA-001", data_case(text_file("train.json", "prompt,answer\n"))),
        ("data line not an object", "DATA-001", data_case(text_file("train.jsonl", '{"prompt": "a"}\n[1]\n'))),
        ("data tilde", "DATA-008", data_case(lambda t: "~/verl-wizard-i18n-corpus/train.parquet")),
        ("data verl placeholder", "DATA-010", data_case(lambda t: "~/data/rlhf/gsm8k/train.parquet")),
        ("data val not set", "DATA-011", data_case(good_train, {"data.val_files": None})),
        (
            "data val placeholder",
            "DATA-011",
            data_case(good_train, {"data.val_files": "~/data/rlhf/gsm8k/test.parquet"}),
        ),
        ("data windows path", "DATA-013", data_case(lambda t: ["C:\\data\\train.parquet", "D:/x.parquet"])),
        ("data relative, from a config", "DATA-012", relative_case(None)),
        ("data relative on local", "DATA-012", relative_case("local")),
        ("data relative on ray-job", "DATA-012", relative_case("ray-job")),
        ("data relative on slurm", "DATA-012", relative_case("slurm")),
        ("data relative in a pod", "DATA-012", relative_case("kuberay-job")),
        (
            "data remote and variable",
            "DATA-009",
            data_case(lambda t: ["hdfs://nn/train.parquet", "$DATA/train.parquet"]),
        ),
        (
            "prompt key with a chat look-alike",
            "DATA-002",
            data_case(
                rows_file(
                    "train.parquet",
                    lambda: [{("question" if k == "prompt" else k): v for k, v in r.items()} for r in rl_rows(64)],
                )
            ),
        ),
        (
            "prompt key with a string look-alike",
            "DATA-002",
            data_case(
                rows_file(
                    "train.jsonl",
                    lambda: [
                        {**{k: v for k, v in r.items() if k != "prompt"}, "question": "plain"} for r in rl_rows(64)
                    ],
                )
            ),
        ),
        (
            "sft data given to ppo",
            "DATA-002",
            data_case(
                rows_file(
                    "train.jsonl",
                    [{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "yo"}]}] * 64,
                )
            ),
        ),
        (
            "pairs given to ppo",
            "DATA-002",
            data_case(rows_file("train.jsonl", [{"question": "q", "chosen": "a", "rejected": "b"}] * 64)),
        ),
        ("no columns", "DATA-002", data_case(rows_file("train.jsonl", [{}] * 64))),
    ]
    + [
        (f"prompt {what}", "DATA-003", data_case(rows_file("train.jsonl", lambda p=prompt: rows_with(p))))
        for what, prompt in [
            ("plain string", "What is 1+1?"),
            ("null", None),
            ("number", 5),
            ("empty list", []),
            ("bad message", [1, 2]),
            ("sharegpt", [{"from": "human", "value": "hi"}]),
            ("empty content", [{"role": "user", "content": ""}]),
            ("no user", [{"role": "system", "content": "s"}]),
            ("role hint", [{"role": "human", "content": "hi"}]),
            ("unknown role", [{"role": "narrator", "content": "once"}, {"role": "user", "content": "hi"}]),
        ]
    ]
    + [
        ("plain strings only further on", "DATA-003", data_case(padded_jsonl(bad_from=1500))),
        (
            "sampled plain strings",
            "DATA-003",
            data_case(
                rows_file("train.parquet", lambda: [{**r, "prompt": "text"} for r in rl_rows(3000)], row_group_size=500)
            ),
        ),
        (
            "no ground truth",
            "DATA-004",
            data_case(
                rows_file(
                    "train.jsonl",
                    lambda: [
                        {**r, "reward_model": {"style": "rule"}} if i == 5 else r for i, r in enumerate(rl_rows(64))
                    ],
                )
            ),
        ),
        (
            "no ground truth for a custom function",
            "DATA-004",
            data_case(
                rows_file("train.jsonl", lambda: [{**r, "reward_model": {"style": "rule"}} for r in rl_rows(64)]),
                {"reward.custom_reward_function.path": "/r.py"},
            ),
        ),
        (
            "no reward_model column",
            "DATA-004",
            data_case(
                rows_file(
                    "train.parquet", lambda: [{k: v for k, v in r.items() if k != "reward_model"} for r in rl_rows(64)]
                )
            ),
        ),
        ("unknown data sources", "ROLE-005", data_case(rows_file("train.parquet", unknown_sources))),
        (
            "one unknown data source",
            "ROLE-005",
            data_case(rows_file("train.parquet", lambda: rl_rows(64, source="my_quiz"))),
        ),
        (
            "long prompts truncated",
            "DATA-005",
            data_case(lengths_file(), with_tokenizer({"data.max_prompt_length": 50})),
        ),
        (
            "long prompts filtered",
            "DATA-005",
            data_case(
                lengths_file(), with_tokenizer({"data.max_prompt_length": 50, "data.filter_overlong_prompts": True})
            ),
        ),
        (
            "few long prompts filtered",
            "DATA-005",
            data_case(
                lengths_file(), with_tokenizer({"data.max_prompt_length": 95, "data.filter_overlong_prompts": True})
            ),
        ),
        (
            "long prompts without a template",
            "DATA-005",
            data_case(lengths_file(), with_tokenizer({"data.max_prompt_length": 50}, template=False)),
        ),
        (
            "long prompts estimated",
            "DATA-005",
            data_case(
                rows_file("train.parquet", lambda: rl_rows(100, words=200)),
                {"data.max_prompt_length": 50, "data.filter_overlong_prompts": True},
            ),
        ),
        ("template refuses prompts", "DATA-005", data_case(lengths_file(), failing_tokenizer)),
        ("template refuses every prompt", "DATA-005", data_case(lengths_file(), refusing_tokenizer)),
        (
            "long prompts sampled",
            "DATA-005",
            data_case(
                lengths_file(3000, row_group_size=500),
                with_tokenizer({"data.max_prompt_length": 50, "data.filter_overlong_prompts": True}),
            ),
        ),
        (
            "long prompts strided",
            "DATA-005",
            data_case(
                rows_file("train.jsonl", lambda: long_rows(3000)), with_tokenizer({"data.max_prompt_length": 700})
            ),
        ),
        ("fewer rows than a batch", "BATCH-013", data_case(rows_file("small.parquet", lambda: rl_rows(40)))),
        (
            "fewer rows after filtering",
            "BATCH-013",
            data_case(
                lengths_file(), with_tokenizer({"data.max_prompt_length": 50, "data.filter_overlong_prompts": True})
            ),
        ),
        (
            "fewer rows estimated",
            "BATCH-013",
            data_case(
                lambda t: write_rows(t / "train.jsonl", rl_rows(3000)),
                {"data.train_batch_size": 4096, "actor_rollout_ref.actor.ppo_mini_batch_size": 1024},
            ),
        ),
        (
            "fewer rows projected",
            "BATCH-013",
            data_case(
                lengths_file(3000, name="train.jsonl"),
                with_tokenizer(
                    {
                        "data.max_prompt_length": 10,
                        "data.filter_overlong_prompts": True,
                        "data.train_batch_size": 1024,
                        "actor_rollout_ref.actor.ppo_mini_batch_size": 256,
                    }
                ),
            ),
        ),
        ("pairs missing a column", "DATA-006", kind_case([{"prompt": "q", "chosen": "a"}], "rm")),
        ("pairs without columns", "DATA-006", kind_case([{}], "rm")),
    ]
    + [
        (f"pairs {what}", "DATA-006", kind_case(rows, "rm"))
        for what, rows in [
            ("no prompt", [{"prompt": None, "chosen": "a", "rejected": "b"}]),
            ("no chosen", [{"prompt": "q", "chosen": None, "rejected": "b"}]),
            ("no rejected", [{"prompt": "q", "chosen": "a", "rejected": None}]),
            ("empty prompt", [{"prompt": "", "chosen": "a", "rejected": "b"}]),
            ("empty chosen", [{"prompt": "q", "chosen": "", "rejected": "b"}]),
            ("empty rejected", [{"prompt": "q", "chosen": "a", "rejected": ""}]),
            ("identical", [{"prompt": "q", "chosen": "a", "rejected": "a"}]),
        ]
    ]
    + [
        (
            "sft without messages, with a look-alike",
            "DATA-007",
            kind_case([{"conversations": [{"role": "user", "content": "hi"}]}], "sft"),
        ),
        ("sft without messages", "DATA-007", kind_case([{"text": "hi"}], "sft")),
        ("sft no assistant", "DATA-007", kind_case([{"messages": [{"role": "user", "content": "hi"}]}], "sft")),
        (
            "sft role hint",
            "DATA-007",
            kind_case([{"messages": [{"role": "user", "content": "hi"}, {"role": "gpt", "content": "yo"}]}], "sft"),
        ),
    ]
)
