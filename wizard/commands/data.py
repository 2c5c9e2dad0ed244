"""`verl-wizard data PATH...` (alias `validate-dataset`): check training data the way verl will read it.

    verl-wizard data PATH... [--kind rl|rm|sft] [--prompt-key K] [--tokenizer DIR] [--max-prompt-length N]
                             [--set KEY=VALUE]... [--max-rows N] [--format text|json]
    verl-wizard data convert IN --to rl --question-key Q --answer-key A --data-source NAME --out OUT.parquet
    verl-wizard validate-dataset --dataset_path P --dataset_type rollout|rm|sft --tokenizer_name T

The check runs the DATA-* rules (and BATCH-013 when data.train_batch_size is given with --set) on the
files as the train files of a run. A file that cannot be read at all (missing, a folder, truncated,
not UTF-8, not rows) is unusable input: one line, exit 2. `--format json` prints the usual
{"verdict", "findings"} object plus "files", the report of each file.
"""

from __future__ import annotations

import argparse
import os

from wizard.commands.common import parse_set_flags
from wizard.commands.output import as_json, as_text, emit
from wizard.commands.paths import FOLDER, PathArg
from wizard.core.findings import has_errors
from wizard.core.layers import build
from wizard.core.rules import context_for, evaluate
from wizard.core.rules.roles.assign import is_builtin_source
from wizard.detect.data.convert import ConvertError, convert_to_rl
from wizard.detect.data.read import Budget, DataReadError
from wizard.detect.data.report import DataReport, local_problem, not_checked_reason, scan_file, summary_lines
from wizard.detect.data.rows import KINDS
from wizard.detect.data.tokens import EstimateCounter, TokenizerError, load_counter
from wizard.errors import ExitStatus, UsageError

ALIAS_KINDS = {"rollout": "rl", "rl": "rl", "rm": "rm", "sft": "sft"}

# DATA-011..013 judge where a run's config reads its data (wizard.core.rules.data.paths), not the files given here.
RUN_PATH_RULES = ("DATA-011", "DATA-012", "DATA-013")


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "data",
        help="check training data (parquet, json, jsonl) before renting GPUs; `data convert` makes RL data",
        description="Check data files as verl will read them (the DATA-* rules), or `data convert IN --to rl ...` "
        "to turn a question/answer file into verl's RL format.",
    )
    p.add_argument("path", action=PathArg, help="a .parquet/.json/.jsonl file, or `convert`")
    p.add_argument(
        "more", nargs="*", action=PathArg, metavar="PATH", help="more files (read as one training set); for convert: IN"
    )
    check = p.add_argument_group("check")
    check.add_argument(
        "--kind",
        choices=KINDS,
        help="rl (prompts), rm (chosen/rejected pairs) or sft (messages); detected when left out",
    )
    check.add_argument("--prompt-key", help="the prompt column (data.prompt_key, default prompt)")
    check.add_argument("--messages-key", default="messages", help="the SFT messages column (default messages)")
    check.add_argument(
        "--tokenizer",
        metavar="DIR",
        action=PathArg,
        what=FOLDER,
        help="a local tokenizer folder (tokenizer.json) to count prompt tokens exactly",
    )
    check.add_argument("--max-prompt-length", type=int, metavar="N", help="data.max_prompt_length (default verl's 512)")
    check.add_argument(
        "--set",
        action="append",
        metavar="KEY=VALUE",
        help="any other verl key that matters, e.g. data.train_batch_size=256, data.filter_overlong_prompts=true",
    )
    check.add_argument(
        "--max-rows", type=int, metavar="N", help="rows to read per file before sampling (default 20000)"
    )
    check.add_argument("--format", choices=("text", "json"), default="text")
    convert = p.add_argument_group("convert (verl-wizard data convert IN ...)")
    convert.add_argument("--to", choices=("rl",), help="the format to write (rl: verl's RL prompts)")
    convert.add_argument("--question-key", help="the input column with the question")
    convert.add_argument("--answer-key", help="the input column with the answer (becomes reward_model.ground_truth)")
    convert.add_argument("--data-source", help="the data_source value of every row (picks the reward function)")
    convert.add_argument("--out", action=PathArg, help="the .parquet file to write")
    convert.add_argument("--system", help="a system message before each question")
    convert.add_argument(
        "--template", help='the user message around the question, e.g. "{question} Answer after ####."'
    )
    convert.add_argument("--ability", default="", help="the ability tag of every row (free-form, e.g. math)")
    convert.add_argument("--split", default="train", help="extra_info.split of every row (default train)")
    convert.add_argument("--force", action="store_true", help="overwrite --out")
    p.set_defaults(func=run)

    alias = subparsers.add_parser("validate-dataset", help="alias of data (the spelling some guides use)")
    alias.add_argument("--dataset_path", action=PathArg, required=True, help="the data file")
    alias.add_argument("--dataset_type", choices=tuple(ALIAS_KINDS), help="rollout (= rl), rm or sft")
    alias.add_argument(
        "--tokenizer_name",
        action=PathArg,
        what=FOLDER,
        help="a local tokenizer folder, or a Hugging Face id already in the local cache",
    )
    alias.add_argument("--prompt_key", help="the prompt column")
    alias.add_argument("--max_prompt_length", type=int, help="data.max_prompt_length")
    alias.add_argument("--format", choices=("text", "json"), default="text")
    alias.set_defaults(func=run_alias)


def run_alias(args: argparse.Namespace) -> int:
    ns = argparse.Namespace(
        path=args.dataset_path,
        more=[],
        kind=ALIAS_KINDS.get(args.dataset_type) if args.dataset_type else None,
        prompt_key=args.prompt_key,
        messages_key="messages",
        tokenizer=args.tokenizer_name,
        max_prompt_length=args.max_prompt_length,
        set=None,
        max_rows=None,
        format=args.format,
        to=None,
    )
    return run_check(ns)


CONVERT_ONLY = ("to", "question_key", "answer_key", "data_source", "out", "system", "template")


def run(args: argparse.Namespace) -> int:
    if args.path == "convert":
        return run_convert(args)
    given = [f"--{name.replace('_', '-')}" for name in CONVERT_ONLY if getattr(args, name, None) is not None]
    if given or args.force:
        raise UsageError(
            f"{(given or ['--force'])[0]} is a flag of `verl-wizard data convert IN ...`, not of the check"
        )
    return run_check(args)


def _counter(args):
    if not args.tokenizer:
        return EstimateCounter()
    try:
        return load_counter(args.tokenizer)
    except TokenizerError as exc:
        raise UsageError(f"--tokenizer {exc}") from None


def run_check(args: argparse.Namespace) -> int:
    if args.max_prompt_length is not None and args.max_prompt_length < 1:
        raise UsageError(f"--max-prompt-length {args.max_prompt_length}: must be a positive number of tokens")
    if args.max_rows is not None and args.max_rows < 1:
        raise UsageError(f"--max-rows {args.max_rows}: must be at least 1")
    values = parse_set_flags(args.set)
    paths = [args.path, *args.more]
    values["data.train_files"] = paths if len(paths) > 1 else paths[0]
    if args.prompt_key:
        values["data.prompt_key"] = args.prompt_key
    if args.max_prompt_length is not None:
        values["data.max_prompt_length"] = args.max_prompt_length
    layered = build([("--set", values)])
    answers = layered.answers
    counter = _counter(args)
    budget = Budget(max_rows=args.max_rows) if args.max_rows else Budget()
    source_key = str(answers.extra.get("data.reward_fn_key") or "data_source")
    report = DataReport(length_label=counter.label)
    for path in paths:
        reason = not_checked_reason(path, "local")
        if reason:
            raise UsageError(f"{path}: {reason}; copy the file here to check it")
        try:
            report.files[path] = scan_file(
                path,
                resolved=os.path.expanduser(path),
                kind=args.kind,
                prompt_key=answers.data.prompt_key,
                messages_key=args.messages_key,
                source_key=source_key,
                counter=counter,
                budget=budget,
            )
        except DataReadError as exc:
            raise UsageError(f"{path}: {exc}") from None
    ctx = context_for(answers, layered.flat, mode="local", data=report)
    batch_given = "data.train_batch_size" in layered.flat
    findings = [
        f
        for f in evaluate(ctx)
        if (f.id.startswith("DATA-") and f.id not in RUN_PATH_RULES)
        or (f.id == "BATCH-013" and batch_given)
        or (f.id == "ROLE-005" and "data.train_files" in f.paths)
    ]
    if args.format == "json":
        emit(as_json(findings, files=[r.to_json() for r in report.files.values()]))
    else:
        for r in report.files.values():
            emit("\n".join(summary_lines(r, answers.data.max_prompt_length if r.kind == "rl" else None)))
        emit(as_text(findings))
    return ExitStatus.FINDINGS if has_errors(findings) else ExitStatus.OK


def run_convert(args: argparse.Namespace) -> int:
    if len(args.more) != 1:
        raise UsageError(
            "data convert takes one input file: verl-wizard data convert IN --to rl --question-key Q "
            "--answer-key A --data-source NAME --out OUT.parquet"
        )
    src = args.more[0]
    for flag, value in (
        ("--to", args.to),
        ("--question-key", args.question_key),
        ("--answer-key", args.answer_key),
        ("--data-source", args.data_source),
        ("--out", args.out),
    ):
        if not value:
            raise UsageError(
                f"data convert needs {flag} (e.g. --to rl --question-key question --answer-key answer "
                "--data-source my_qa --out train.parquet)"
            )
    if not args.out.endswith(".parquet"):
        raise UsageError(f"--out {args.out}: write a .parquet file (verl's preferred format)")
    if os.path.exists(args.out) and not args.force:
        raise UsageError(f"--out {args.out}: already exists; pass --force to overwrite it")
    if not os.path.isdir(os.path.dirname(os.path.abspath(args.out))):
        raise UsageError(f"--out {args.out}: the folder does not exist")
    problem = local_problem(src)
    if problem:
        raise UsageError(f"{src}: {problem}")
    try:
        result = convert_to_rl(
            src,
            args.out,
            question_key=args.question_key,
            answer_key=args.answer_key,
            data_source=args.data_source,
            system=args.system,
            template=args.template,
            ability=args.ability,
            split=args.split,
        )
    except (ConvertError, DataReadError) as exc:
        message = str(exc)
        raise UsageError(message if message.startswith((src, "--")) else f"{src}: {message}") from None
    emit(f"wrote {result.rows:,} rows to {result.out} (data_source {args.data_source!r})")
    if not is_builtin_source(args.data_source):
        emit(
            f"note: no built-in scorer knows data_source {args.data_source!r}: set reward.custom_reward_function.path to "
            "your reward function (ROLE-005)"
        )
    emit(f"check it: verl-wizard data {result.out}")
    return ExitStatus.OK
