"""Fuzzing the CLI's input handling: no input makes a command crash, hang or write outside --out.

`check` (YAML configs, answers files, launch scripts, with and without a topology file),
`new --answers` (answers files, with --set flags), `topo --from` (topology text), `data` (data files in
every format, damaged or not) and `data convert` each run in-process on inputs from
tests/fuzz/inputs.py, and every command that reads a file or takes a limited argument on the hostile
families of tests/fuzz/hostile.py (pipes, devices, sockets, deep or huge documents, paths past the limits,
booleans for numbers, preflight's limits); every run must end as runner.Outcome.problems() demands: exit 0, 1 or 2, one
`verl-wizard: error:` line for exit 2, no traceback, at most TIME_LIMIT seconds, no stray write.

The default run tries about a thousand inputs; the conformance tier (`pytest -m conformance`, CI's
conformance step) ten times as many (FUZZ_SCALE).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.agreement.tiers import skip_unless_conformance
from tests.fuzz import tally
from tests.fuzz.data_files import data_files
from tests.fuzz.hostile import TIME_LIMIT_S as HOSTILE_LIMIT_S
from tests.fuzz.hostile import guarded, hostile_args, hostile_files, make_special
from tests.fuzz.inputs import scripts, topologies, yaml_answers, yaml_configs
from tests.fuzz.runner import available_commands, run_cli

SCALE = int(os.environ.get("FUZZ_SCALE", "10"))
COMMANDS = available_commands()
QUIET = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck))
SET_FLAGS = st.lists(
    st.sampled_from(
        [
            "data.train_batch_size=7",
            "actor_rollout_ref.rollout.n=0",
            "trainer.n_gpus_per_node=abc",
            "nokey=1",
            "=",
            "x",
            "actor_rollout_ref.rollout.name=vllm",
            "algorithm.adv_estimator='grpo'",
            "data.max_prompt_length=1e9",
            "+trainer.nnodes=2",
            "actor_rollout_ref.model.path=~/m",
            "trainer.logger=[console,wandb",
        ]
    ),
    max_size=3,
)


def run_in_sandbox(command: str, files: dict[str, bytes | str], argv: list[str], out: str | None = None) -> None:
    """Write `files` into a fresh sandbox, run the command there, fail on any broken promise."""
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        sandbox = Path(tmp)
        for name, payload in files.items():
            data = payload.encode("utf-8", errors="surrogatepass") if isinstance(payload, str) else payload
            (sandbox / name).write_bytes(data)
        outcome = run_cli(argv, sandbox, out_dir=out)
    tally.record(command, outcome.seconds, argv)
    problems = outcome.problems()
    assert not problems, f"verl-wizard {' '.join(argv)}\n" + "\n".join(problems)


def check_yaml(text: str, fmt: str, mode: str, with_topology: str | None) -> None:
    files = {"config.yaml": text}
    argv = ["check", "config.yaml", "--format", fmt, "--mode", mode]
    if with_topology is not None:
        files["topo.txt"] = with_topology
        argv += ["--topology", "topo.txt"]
    run_in_sandbox("check", files, argv)


def check_script(text: str, fmt: str) -> None:
    run_in_sandbox("check", {"run.sh": text}, ["check", "run.sh", "--format", fmt, "--mode", "cluster"])


def new_from_answers(text: str, flags: list[str], preset: str | None, fmt: str) -> None:
    argv = ["new", "--answers", "answers.yaml", "--out", "out", "--format", fmt]
    if preset:
        argv += ["--preset", preset]
    for flag in flags:
        argv += ["--set", flag]
    run_in_sandbox("new", {"answers.yaml": text}, argv, out="out")


def topo_from(text: str, fmt: str) -> None:
    run_in_sandbox("topo", {"topo.txt": text}, ["topo", "--from", "topo.txt", "--format", fmt])


def data_check(file: tuple[str, bytes], kind: str | None, fmt: str) -> None:
    name, payload = file
    argv = ["data", name, "--format", fmt] + (["--kind", kind] if kind else [])
    run_in_sandbox("data", {name: payload}, argv)


def data_convert(file: tuple[str, bytes], question: str, answer: str) -> None:
    name, payload = file
    argv = [
        "data",
        "convert",
        name,
        "--to",
        "rl",
        "--question-key",
        question,
        "--answer-key",
        answer,
        "--data-source",
        "openai/gsm8k",
        "--out",
        "converted.parquet",
    ]
    run_in_sandbox("data convert", {name: payload}, argv, out="converted.parquet")


def hostile(argv: list[str], files: dict[str, bytes], special: dict[str, str]) -> None:
    """A hostile file or argument (tests/fuzz/hostile.py): the contract holds, within its 5 s."""
    sockets: list = []
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        sandbox = Path(tmp)
        for name, payload in files.items():
            (sandbox / name).write_bytes(payload)
        make_special(sandbox, special, sockets)
        out = next((a for a in ("out", "out.parquet") if a in argv), None)
        try:
            with guarded(sandbox):
                outcome = run_cli(argv, sandbox, out_dir=out, time_limit=HOSTILE_LIMIT_S)
        finally:
            for server in sockets:
                server.close()
    tally.record("hostile", outcome.seconds, [a if len(a) < 60 else a[:20] + "..." for a in argv])
    problems = outcome.problems() + ([f"took {outcome.seconds:.1f} s"] if outcome.seconds > HOSTILE_LIMIT_S else [])
    assert not problems, f"verl-wizard {' '.join(a[:60] for a in argv)} ({special})\n" + "\n".join(problems)


FMT = st.sampled_from(["text", "json"])
CASES = {
    # name: (strategy of argument tuples, body, default example count, command it needs)
    "check_yaml": (
        st.tuples(
            yaml_configs() | yaml_answers(), FMT, st.sampled_from(["local", "cluster"]), st.none() | topologies()
        ),
        check_yaml,
        250,
        "check",
    ),
    "check_script": (st.tuples(scripts(), FMT), check_script, 150, "check"),
    "new_answers": (
        st.tuples(
            yaml_answers(), SET_FLAGS, st.none() | st.sampled_from(["grpo-8b-1x8", "workshop-0.5b-1gpu", "nope"]), FMT
        ),
        new_from_answers,
        250,
        "new",
    ),
    "topo_from": (st.tuples(topologies(), FMT), topo_from, 150, "topo"),
    "data": (st.tuples(data_files(), st.none() | st.sampled_from(["rl", "rm", "sft"]), FMT), data_check, 150, "data"),
    "hostile_files": (hostile_files(), hostile, 60, "check"),
    "hostile_args": (hostile_args(), hostile, 60, "new"),
    "data_convert": (
        st.tuples(data_files(), st.sampled_from(["question", "prompt", "q"]), st.sampled_from(["answer", "a"])),
        data_convert,
        50,
        "data",
    ),
}


def _fuzz(name: str, scale: int):
    strategy, body, count, command = CASES[name]
    if command not in COMMANDS:
        pytest.skip(f"this build has no `{command}` command")

    @settings(max_examples=count * scale, derandomize=scale == 1, **QUIET)
    @given(strategy)
    def run(args):
        body(*args)

    run()


@pytest.mark.parametrize("name", sorted(CASES))
def test_fuzz(name):
    _fuzz(name, 1)


@pytest.mark.conformance
@pytest.mark.parametrize("name", sorted(CASES))
def test_fuzz_large(name, request):
    skip_unless_conformance(request)
    _fuzz(name, SCALE)


# --- inputs built by hand because random edits rarely make them --------------------------------


def _laughs(depth: int) -> str:
    lines = ["l0: &l0 [1, 1, 1, 1, 1, 1, 1, 1, 1]"]
    lines += [f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * 9)}]" for i in range(1, depth + 1)]
    return (
        "hydra: {searchpath: [pkg://verl.trainer.config]}\ndefaults: [ppo_trainer, _self_]\n"
        + "\n".join(lines)
        + f"\ndata: {{train_batch_size: *l{depth}}}\n"
    )


def test_exponential_yaml_aliases_are_refused_within_seconds():
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        (Path(tmp) / "config.yaml").write_text(_laughs(8))
        outcome = run_cli(["check", "config.yaml"], Path(tmp), time_limit=5)
    assert not outcome.problems(), outcome.problems()


def test_a_few_levels_of_yaml_aliases_are_refused_in_one_line():
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        (Path(tmp) / "config.yaml").write_text(_laughs(2))
        outcome = run_cli(["check", "config.yaml"], Path(tmp), time_limit=5)
    assert not outcome.problems(), outcome.problems()
    assert outcome.code == 2 and "data.train_batch_size" in outcome.stderr


def test_a_self_referencing_yaml_mapping_is_refused_in_one_line():
    with tempfile.TemporaryDirectory(prefix="fuzz-") as tmp:
        (Path(tmp) / "config.yaml").write_text(
            "hydra: {searchpath: [x]}\ndefaults: [ppo_trainer, _self_]\ndata: &x {sub: *x}\n"
        )
        outcome = run_cli(["check", "config.yaml"], Path(tmp), time_limit=5)
    assert not outcome.problems(), outcome.problems()
