"""Checking a 2 GB parquet file costs seconds and under 500 MB of memory (issue 5's bounded-cost budget).

Writes (once; reused while its size matches) a parquet file of RL rows in verl's format, about 2 GB on
disk with incompressible prompt text, then runs the real CLI on it in a fresh process per case and
reports wall time and that process's peak resident memory (ru_maxrss):

- `data FILE` with the estimate (the default budget: up to 20,000 rows from row groups spread over the file)
- `data FILE --tokenizer DIR` with a word-level tokenizer and chat template built here (exact counts)
- `check config.yaml` in local mode, whose train_files is the file (the hook's small budget), and the same
  in cluster mode (no data read) to show what the hook adds
- `python -c "import pyarrow.parquet"`, the floor every parquet read pays

Budget: every case under 10 s and 500 MB. Exit 1 if one is missed.

    python benchmarks/bench_data.py [--file PATH] [--size-gb 2.0] [--rows-per-group 40000]
"""

from __future__ import annotations

import argparse
import base64
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BUDGET_S, BUDGET_MB = 10.0, 500.0
PROMPT_BYTES = 1500  # characters of prompt text per row


def write_file(path: Path, size_gb: float, rows_per_group: int) -> None:
    """RL rows (prompt chat list, data_source, reward_model, extra_info) until the file reaches size_gb."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    target = int(size_gb * (1 << 30))
    message = pa.struct([("role", pa.string()), ("content", pa.string())])
    schema = pa.schema(
        [
            ("data_source", pa.string()),
            ("prompt", pa.list_(message)),
            ("ability", pa.string()),
            ("reward_model", pa.struct([("style", pa.string()), ("ground_truth", pa.string())])),
            ("extra_info", pa.struct([("split", pa.string()), ("index", pa.int64())])),
        ]
    )
    tmp = path.with_suffix(".partial")
    index = 0
    with pq.ParquetWriter(tmp, schema) as writer:
        while True:
            n = rows_per_group
            # base64 of random bytes: text that snappy cannot shrink, so the file on disk really is ~2 GB.
            pool = base64.b64encode(os.urandom(n * PROMPT_BYTES * 3 // 4)).decode("ascii")
            words = [pool[i * PROMPT_BYTES : (i + 1) * PROMPT_BYTES] for i in range(n)]
            contents = pa.array([" ".join(w[j : j + 8] for j in range(0, len(w), 8)) for w in words], pa.string())
            roles = pa.array(["user"] * n, pa.string())
            prompt = pa.ListArray.from_arrays(
                pa.array(range(n + 1), pa.int32()), pa.StructArray.from_arrays([roles, contents], fields=list(message))
            )
            table = pa.table(
                {
                    "data_source": pa.array(["openai/gsm8k"] * n),
                    "prompt": prompt,
                    "ability": pa.array(["math"] * n),
                    "reward_model": pa.array(
                        [{"style": "rule", "ground_truth": str(index + i)} for i in range(n)],
                        schema.field("reward_model").type,
                    ),
                    "extra_info": pa.array(
                        [{"split": "train", "index": index + i} for i in range(n)], schema.field("extra_info").type
                    ),
                },
                schema=schema,
            )
            writer.write_table(table)
            index += n
            if tmp.stat().st_size >= target:
                break
    tmp.replace(path)


def make_tokenizer(folder: Path) -> Path:
    """A word-level tokenizer over a few words (every other word is <unk>) with a chat template."""
    from tokenizers import Tokenizer, models, pre_tokenizers

    vocab = {w: i for i, w in enumerate(["<unk>", "<|user|>", "<|assistant|>", "<|end|>"])}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    folder.mkdir(parents=True, exist_ok=True)
    tok.save(str(folder / "tokenizer.json"))
    template = (
        "{% for m in messages %}<|{{ m['role'] }}|> {{ m['content'] }} <|end|> {% endfor %}"
        "{% if add_generation_prompt %}<|assistant|>{% endif %}"
    )
    (folder / "tokenizer_config.json").write_text(json.dumps({"chat_template": template}))
    return folder


def measure(argv: list[str]) -> tuple[float, float, float, str]:
    """(wall seconds, CPU seconds, peak RSS in MB, stdout) of one fresh process; the peak is its own ru_maxrss."""
    code = (
        "import resource, runpy, subprocess, sys\n"
        f"p = subprocess.run({argv!r}, capture_output=True, text=True)\n"
        "r = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "sys.stdout.write(f'{r.ru_maxrss} {r.ru_utime + r.ru_stime}\\n' + p.stdout)\n"
    )
    started = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=dict(os.environ, PYTHONPATH=str(ROOT)),
    )
    wall = time.perf_counter() - started
    head, _, out = proc.stdout.partition("\n")
    peak_kb, cpu = head.split()
    return wall, float(cpu), int(peak_kb) / 1024, out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--file", type=Path, default=Path(tempfile.gettempdir()) / "verl-wizard-bench" / "rl-2gb.parquet"
    )
    parser.add_argument("--size-gb", type=float, default=2.0)
    parser.add_argument("--rows-per-group", type=int, default=40_000)
    args = parser.parse_args(argv)
    args.file.parent.mkdir(parents=True, exist_ok=True)
    if not args.file.exists() or abs(args.file.stat().st_size - args.size_gb * (1 << 30)) > 0.1 * (1 << 30):
        started = time.perf_counter()
        write_file(args.file, args.size_gb, args.rows_per_group)
        print(f"wrote {args.file} in {time.perf_counter() - started:.0f} s")
    import pyarrow.parquet as pq

    meta = pq.ParquetFile(args.file).metadata
    print(
        f"file: {args.file}, {args.file.stat().st_size / (1 << 30):.2f} GiB, {meta.num_rows:,} rows, {meta.num_row_groups} row groups"
    )
    work = Path(tempfile.mkdtemp(prefix="bench-data-"))
    tok = make_tokenizer(work / "tok")
    config = work / "config.yaml"
    config.write_text(
        "hydra: {searchpath: [pkg://verl.trainer.config]}\ndefaults: [ppo_trainer, _self_]\n"
        f"data: {{train_files: {args.file}, train_batch_size: 256}}\n"
        "actor_rollout_ref: {model: {path: Qwen/Qwen3-8B}, rollout: {name: vllm}}\n"
    )
    cli = [sys.executable, "-m", "wizard"]
    cases = [
        ("data (estimate)", cli + ["data", str(args.file), "--format", "json"]),
        ("data --tokenizer", cli + ["data", str(args.file), "--tokenizer", str(tok), "--format", "json"]),
        ("check (hook, local)", cli + ["check", str(config), "--mode", "local", "--format", "json"]),
        ("check (cluster: no read)", cli + ["check", str(config), "--mode", "cluster", "--format", "json"]),
        ("import pyarrow only", [sys.executable, "-c", "import pyarrow.parquet"]),
    ]
    print(
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs (wall time grows with it; CPU time does not)"
    )
    print(f"{'case':<26}{'wall s':>8}{'CPU s':>7}{'peak MB':>9}  rows read / where")
    ok = True
    for name, command in cases:
        wall, cpu, peak, out = measure(command)
        try:
            files = json.loads(out).get("files") or []
        except ValueError:
            files = []
        read = f"{files[0]['rows_read']:,} rows: {files[0]['where']}" if files else ""
        within = wall <= BUDGET_S and peak <= BUDGET_MB
        ok &= within
        print(f"{name:<26}{wall:>8.2f}{cpu:>7.2f}{peak:>9.0f}  {read}{'' if within else '  OVER BUDGET'}")
    print(f"budget: each case under {BUDGET_S:.0f} s and {BUDGET_MB:.0f} MB peak: {'met' if ok else 'MISSED'}")
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
