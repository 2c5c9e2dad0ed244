"""The support matrix of issue 31: verl 0.7.1, 0.8.0, 0.9.0 and 0.9.1, each in its own venv (.ci/verl-matrix-env.sh),
judge every launch script of version_corpus/ and `check` must say what each of them says.

verl's own verdict: bash runs the script with `python`/`python3` standing in as a recorder, so bash alone decides
the command line (variables, arrays, quoting); verl_matrix_judge.py then reads it with Hydra's own command-line
parser and composes and checks it with that release (the program `check --verl` sends, run in that venv). Against
it: `check SCRIPT --verl PY_X` (the same stage and verl's own error), and `check SCRIPT --verl-version X` (the same
composition verdict, from X's wheel tree without verl). Also: a script 0.8.0 accepts and 0.9.1 refuses, and a fork
of 0.9.1 with one key added, on PYTHONPATH.
"""

from __future__ import annotations

import itertools
import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.cli.helpers import cli_subprocess
from tests.conformance.conftest import MATRIX_VERSIONS, REPO_ROOT, matrix_python

pytestmark = pytest.mark.conformance

HERE = Path(__file__).resolve().parent
CORPUS = sorted((HERE / "version_corpus").glob("*.sh"))
JUDGE = HERE / "verl_matrix_judge.py"
ENTRY = "verl.trainer.main_ppo"
# Both sides ask Hugging Face for nothing: a model's config is looked up in the local cache only (verl's checks
# read the critic's model config), so the answer is the same whatever the network does.
ENV = dict(os.environ, PYTHONPATH=str(REPO_ROOT), HF_HUB_OFFLINE="1")
# Two CPUs in CI: two `check --verl` children at a time, each importing verl.
WORKERS = 2
RECORDER = '#!/bin/sh\nf=$(mktemp "$VERL_MATRIX_CALLS/call.XXXXXX")\nprintf \'%s\\0\' "$@" >"$f"\n'


def wizard(*args: str) -> dict:
    """`python -m wizard ARGS --format json` from this checkout, its output parsed. check is told the variables bash
    had from the environment (the scripts read HOME and PWD), as a user gives them with --env."""
    known = ["--env", f"HOME={os.environ['HOME']}", "--env", f"PWD={REPO_ROOT}"]
    done = cli_subprocess(*args, *known, "--format", "json", cwd=REPO_ROOT, env=ENV, timeout=600)
    assert done.returncode in (0, 1), f"{args}: exit {done.returncode}\n{done.stderr[-2000:]}"
    return json.loads(done.stdout)


def record(scripts: list[Path], tmp: Path) -> list[list[str]]:
    """For each script, the arguments bash gives python when it runs the script (nothing of verl runs)."""
    shim = tmp / "bin"
    shim.mkdir()
    for name in ("python", "python3"):
        (shim / name).write_text(RECORDER, encoding="utf-8")
        (shim / name).chmod(0o755)
    lines = []
    for script in scripts:
        calls = tmp / script.stem
        calls.mkdir()
        env = dict(ENV, PATH=f"{shim}{os.pathsep}{os.environ['PATH']}", VERL_MATRIX_CALLS=str(calls))
        done = subprocess.run(["bash", str(script)], cwd=REPO_ROOT, env=env, capture_output=True, text=True)
        assert done.returncode == 0, f"{script.name}: bash exit {done.returncode}\n{done.stderr}"
        runs = [f.read_bytes().split(b"\0")[:-1] for f in calls.iterdir()]
        found = [[a.decode() for a in run] for run in runs if ENTRY.encode() in run]
        assert len(found) == 1, f"{script.name}: {len(found)} launches of {ENTRY}"
        lines.append(found[0])
    return lines


def judge(version: str, command_lines: list[list[str]], tmp: Path) -> list[dict]:
    """verl `version`'s own report on each command line (one judge process)."""
    python = matrix_python(version)
    argv_file = tmp / f"argv-{version}.json"
    argv_file.write_text(json.dumps(command_lines), encoding="utf-8")
    done = subprocess.run([python, str(JUDGE), str(argv_file)], capture_output=True, text=True, env=ENV, timeout=1800)
    assert done.returncode == 0, f"judge of verl {version} failed:\n{done.stderr[-4000:]}"
    reports = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(reports) == len(command_lines), done.stdout[-2000:]
    assert all(r["verl"]["version"] == version for r in reports)
    return reports


@pytest.fixture(scope="module")
def own_verdicts(tmp_path_factory: pytest.TempPathFactory):
    """`get(version)`: verl `version`'s own report for each corpus script, in CORPUS order (one judge run each)."""
    assert len(CORPUS) >= 30, "issue 31 asks for at least 30 scripts"
    tmp = tmp_path_factory.mktemp("judge")
    command_lines = record(CORPUS, tmp)
    cache: dict[str, list[dict]] = {}

    def get(version: str) -> list[dict]:
        if version not in cache:
            cache[version] = judge(version, command_lines, tmp)
        return cache[version]

    return get


def outcome(report: dict) -> tuple:
    """What a verdict says: the stage that refused (None: accepted), verl's words, the checks that ran."""
    skipped = [name for name, _error in report["skipped"]]
    return report["stage"], report["error"], report["checks"], skipped


def compose_refused(report: dict) -> bool:
    return report["stage"] == "compose"


@pytest.mark.parametrize("version", MATRIX_VERSIONS)
def test_check_verl_says_what_that_verl_says_on_every_script(version, own_verdicts):
    python = matrix_python(version)
    own = own_verdicts(version)

    def judged(script: Path) -> dict:
        return wizard("check", str(script), "--verl", python, "--timeout", "300")

    with ThreadPoolExecutor(WORKERS) as pool:
        docs = list(pool.map(judged, CORPUS))
    differ = []
    for script, report, doc in zip(CORPUS, own, docs, strict=True):
        if doc["verl"]["version"] != version or outcome(doc["verl"]) != outcome(report):
            differ.append(f"{script.name}: verl {version} {outcome(report)} / check --verl {outcome(doc['verl'])}")
    assert differ == [], "\n".join(differ)


@pytest.mark.parametrize("version", MATRIX_VERSIONS)
def test_check_verl_version_composes_as_that_verl_does_on_every_script(version, own_verdicts):
    helped = subprocess.run(
        [sys.executable, "-m", "wizard", "check", "--help"], capture_output=True, text=True, env=ENV, check=False
    )
    if "--verl-version" not in helped.stdout:
        pytest.skip("`check --verl-version` (helper B, issue 31) is not in this checkout yet")
    own = own_verdicts(version)

    def judged(script: Path) -> dict:
        return wizard("check", str(script), "--verl-version", version)

    with ThreadPoolExecutor(WORKERS) as pool:
        docs = list(pool.map(judged, CORPUS))
    differ = []
    for script, report, doc in zip(CORPUS, own, docs, strict=True):
        tree = doc["verl_tree"]
        same = tree["version"] == version and tree["composed"]
        same = same and (tree["stage"] == "compose") == compose_refused(report)
        if not same or (compose_refused(report) and tree["error"] != report["error"]):
            differ.append(f"{script.name}: verl {version} {report['stage']} {report['error']} / tree {tree}")
    assert differ == [], "\n".join(differ)


def test_the_corpus_tells_each_release_from_the_next(own_verdicts):
    """The corpus spans the releases: for each step, scripts that compose in one and not in the other, both ways."""
    for older, newer in itertools.pairwise(MATRIX_VERSIONS):
        before = [compose_refused(r) for r in own_verdicts(older)]
        after = [compose_refused(r) for r in own_verdicts(newer)]
        gone = [s.name for s, b, a in zip(CORPUS, before, after, strict=True) if not b and a]
        new = [s.name for s, b, a in zip(CORPUS, before, after, strict=True) if b and not a]
        assert gone and new, f"{older} -> {newer}: refused only by {newer}: {gone}; only by {older}: {new}"


def test_a_script_080_accepts_and_091_refuses(own_verdicts):
    script = HERE / "version_corpus" / "skip_rollout_nested.sh"
    old = wizard("check", str(script), "--verl", matrix_python("0.8.0"))
    assert old["verl"]["stage"] is None and old["verl"]["version"] == "0.8.0"
    assert [f for f in old["findings"] if f["id"] == "VERL-001"] == []
    new = wizard("check", str(script), "--verl", matrix_python("0.9.1"))
    refused = [f for f in new["findings"] if f["id"] == "VERL-001"]
    assert len(refused) == 1 and "verl 0.9.1" in refused[0]["message"]
    # verl's own words: the error its Hydra raised in the oracle's run, quoted whole
    own = own_verdicts("0.9.1")[CORPUS.index(script)]
    assert own["stage"] == "compose" and own["error"] in refused[0]["message"]
    assert "Could not override 'actor_rollout_ref.rollout.skip.enable'" in own["error"]


FORK_KEY = "fork_eval_every_n_steps"


def make_fork(python: str, where: Path) -> Path:
    """A checkout of verl 0.9.1's package files with one key added to the trainer group; returns its root."""
    location = subprocess.run(
        [python, "-c", "import os, verl; print(os.path.dirname(verl.__file__))"],
        capture_output=True,
        text=True,
        check=True,
        env=ENV,
    ).stdout.strip()
    shutil.copytree(location, where / "verl", ignore=shutil.ignore_patterns("__pycache__"))
    config = where / "verl" / "trainer" / "config"
    # ppo_trainer.yaml is what Hydra composes; the generated reference copy is kept in step with it as verl does
    for name in ("ppo_trainer.yaml", "_generated_ppo_trainer.yaml"):
        path = config / name
        text = path.read_text(encoding="utf-8")
        assert text.count("\ntrainer:\n") == 1, name
        path.write_text(text.replace("\ntrainer:\n", f"\ntrainer:\n  {FORK_KEY}: 0\n"), encoding="utf-8")
    git = ["git", "-C", str(where), "-c", "user.name=fork", "-c", "user.email=fork@example.invalid"]
    subprocess.run(["git", "init", "-q", str(where)], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "fork: one trainer key"], check=True)
    subprocess.run([*git, "tag", "v0.9.1-fork"], check=True)
    return where


def test_a_fork_on_pythonpath_is_judged_by_its_own_config(tmp_path):
    python = matrix_python("0.9.1")
    fork = make_fork(python, tmp_path / "fork")
    script = tmp_path / "run.sh"
    body = (HERE / "version_corpus" / "trainer_use_v1_off.sh").read_text(encoding="utf-8")
    assert "trainer.use_v1=False" in body
    script.write_text(body.replace("trainer.use_v1=False", f"trainer.{FORK_KEY}=5"), encoding="utf-8")
    ask = ["check", str(script), "--verl", python, "--timeout", "300", "--format", "json"]

    with_fork = cli_subprocess(*ask, cwd=REPO_ROOT, env=dict(ENV, PYTHONPATH=f"{fork}{os.pathsep}{REPO_ROOT}"))
    doc = json.loads(with_fork.stdout)
    assert doc["verl"]["location"] == str((fork / "verl").resolve())
    assert doc["verl"]["checkout"] is True and doc["verl"]["describe"] == "v0.9.1-fork"
    assert doc["verl"]["stage"] is None, doc["verl"]["error"]
    assert [f for f in doc["findings"] if f["id"].startswith("VERL-")] == []

    released = json.loads(cli_subprocess(*ask, cwd=REPO_ROOT, env=ENV).stdout)
    assert released["verl"]["checkout"] is False and released["verl"]["stage"] == "compose"
    assert f"Key '{FORK_KEY}' is not in struct" in released["verl"]["error"]
    assert [f["id"] for f in released["findings"] if f["id"].startswith("VERL-")] == ["VERL-001"]


def test_config_path_config_is_verls_own_folder(tmp_path):
    script = HERE / "version_corpus" / "megatron_config_path_config.sh"
    own = judge("0.9.1", record([script], tmp_path), tmp_path)[0]
    assert own["request"]["config_dir"].endswith("verl/trainer/config") and own["stage"] is None
    doc = wizard("check", str(script), "--verl", matrix_python("0.9.1"), "--timeout", "300")
    assert doc["verl"]["version"] == "0.9.1" and outcome(doc["verl"]) == outcome(own)
    tree = wizard("check", str(script), "--verl-version", "0.9.1")["verl_tree"]
    assert tree["composed"] and tree["stage"] is None
