"""Data paths verl cannot read where it runs (DATA-011..013), from the answers alone.

DATA-011: data.val_files left at verl's placeholder (verl 0.9.1 builds the validation dataset at start-up
whatever test_freq says). DATA-012: a relative path, which verl opens from the working directory that the target
gives the process reading the data (what each renderer in wizard.emit sets: run.sh does not cd, ray-job.sh
uploads its folder as the job's working_dir, job.sbatch runs from the submit folder, the pods from the image's
WORKDIR). DATA-013: a Windows path, which Linux reads as a relative file name. Paths with ~ (DATA-008), a
scheme (hdfs://, s3://) or a variable (DATA-009) are not relative paths here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from wizard.core.findings import Finding, Fix, Severity
from wizard.core.rule_context import RuleContext
from wizard.core.rules.data.columns import TRAIN, VAL, paths_of, placeholder
from wizard.core.rules.declare import make_finding, rule
from wizard.core.targets import fill, spec
from wizard.i18n.text import msg

# A drive letter (C:\x, D:/x), or a backslash anywhere (\\server\share\x, data\x.parquet): Windows spellings.
WINDOWS_PATH = re.compile(r"^[A-Za-z]:[\\/]|\\")


def is_windows_path(path: str) -> bool:
    return bool(WINDOWS_PATH.search(path))


def is_relative_path(path: str) -> bool:
    """A path verl resolves against a working directory: not absolute, ~, remote, a variable or Windows'."""
    return bool(path) and not (path.startswith(("/", "~")) or "://" in path or "$" in path or is_windows_path(path))


@rule(
    "DATA-011",
    Severity.ERROR,
    title="No validation data set (data.val_files empty or verl's placeholder)",
    why="verl 0.9.1 builds the validation dataset at start-up whatever trainer.test_freq and val_before_train say; without data.val_files it reads its placeholder ~/data/rlhf/gsm8k/test.parquet, which does not exist (verl does not expand ~), and the run stops when the dataset is built, after the workers have started.",
)
def check_val_files_set(ctx: RuleContext) -> Iterator[Finding]:
    a = ctx.answers.data
    paths = paths_of(a.val_files)
    if paths and paths != [placeholder(VAL)]:
        return
    text = (
        msg("data.val_placeholder", placeholder=placeholder(VAL))
        if paths
        else msg("data.val_not_set", placeholder=placeholder(VAL))
    )
    train = paths_of(a.train_files)
    fixes = []
    if train and train != [placeholder(TRAIN)]:
        fixes = [Fix({VAL: a.train_files}, msg("data.fix.val_from_train"))]
    yield make_finding("DATA-011", [VAL], text, fixes)


def _configured_paths(ctx):
    """(key, [paths]) for the train and val files, verl's placeholders left out (DATA-010 and DATA-011's)."""
    for key, value in ((TRAIN, ctx.answers.data.train_files), (VAL, ctx.answers.data.val_files)):
        paths = paths_of(value)
        if paths and paths != [placeholder(key)]:
            yield key, paths


def _working_dir(ctx):
    """What a relative path is relative to, where the target's files start verl."""
    if not ctx.target_known:
        return msg("data.relative.unknown")
    return fill(spec(ctx.answers.deploy.target).data_relative, mount=ctx.answers.deploy.data_mount)


@rule(
    "DATA-012",
    Severity.WARNING,
    title="A relative data path",
    why="verl opens data files as parquet/json paths (it does not download a dataset by name) from the working directory of the process that reads them, which each target sets differently: the folder run.sh is started from, the uploaded working_dir of a Ray job, the folder sbatch was run from, a pod's image WORKDIR. A path that works here may name nothing there.",
)
def check_relative_paths(ctx: RuleContext) -> Iterator[Finding]:
    for key, paths in _configured_paths(ctx):
        relative = [p for p in paths if is_relative_path(p)]
        if relative:
            yield make_finding(
                "DATA-012",
                [key],
                msg("data.relative_path", key=key, paths=relative, n=len(relative), base=_working_dir(ctx)),
            )


@rule(
    "DATA-013",
    Severity.ERROR,
    title="A Windows data path",
    why="verl runs on Linux, where C:\\data\\x.parquet, D:/x.parquet or \\\\server\\share\\x.parquet is a relative file name with a colon or backslashes in it: the file is not found when the dataset is built, after the workers have started.",
)
def check_windows_paths(ctx: RuleContext) -> Iterator[Finding]:
    for key, paths in _configured_paths(ctx):
        windows = [p for p in paths if is_windows_path(p)]
        if windows:
            yield make_finding("DATA-013", [key], msg("data.windows_path", key=key, paths=windows, n=len(windows)))
