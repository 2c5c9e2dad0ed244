"""`data convert --out`: the parquet file follows the umask, and a write that fails leaves nothing behind."""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys

from tests.cli.helpers import ROOT, cli

CONVERT = ["--to", "rl", "--question-key", "q", "--answer-key", "a", "--data-source", "openai/gsm8k"]


def _source(tmp_path, rows: int = 3):
    src = tmp_path / "qa.jsonl"
    src.write_text("".join(json.dumps({"q": f"question {i} " * 20, "a": str(i)}) + "\n" for i in range(rows)))
    return src


def test_the_parquet_file_follows_the_umask(tmp_path):
    old = os.umask(0o022)
    try:
        proc = cli("data", "convert", str(_source(tmp_path)), *CONVERT, "--out", str(tmp_path / "train.parquet"))
    finally:
        os.umask(old)
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "train.parquet").stat().st_mode & 0o777 == 0o644


def test_a_disk_that_fills_up_mid_write_is_one_line_and_leaves_no_file(tmp_path):
    src = _source(tmp_path, rows=20_000)
    out = tmp_path / "out"
    out.mkdir()

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (64 << 10, 64 << 10))

    proc = subprocess.run(
        [sys.executable, "-m", "wizard", "data", "convert", str(src), *CONVERT, "--out", str(out / "train.parquet")],
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
        preexec_fn=limit,  # only setrlimit, in the child before exec
        timeout=120,
    )
    lines = proc.stderr.strip().splitlines()
    assert proc.returncode == 2 and len(lines) == 1 and "Traceback" not in proc.stderr, proc.stderr[-2000:]
    assert "nothing was written" in lines[0]
    assert os.listdir(out) == []
