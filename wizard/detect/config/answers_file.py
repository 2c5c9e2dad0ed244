"""Reading an answers file (`--answers F`, the TUI's "Load an answers file") into layer values."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from wizard.core.answers.document import AnswersRecord, parse_answers_doc
from wizard.detect.config import yaml_input
from wizard.detect.config.files import read_text
from wizard.detect.input_files import shown_path
from wizard.errors import UsageError


def read_answers(path: str) -> AnswersRecord:
    """The answers of the file, where each came from and the migration it records (wizard.core.answers.document)."""
    return parse_answers_doc(_load(path), f"--answers {path}")


def read_answers_file(path: str) -> dict[str, Any]:
    """The answers of the file as layer values (addresses -> values)."""
    return read_answers(path).values


def _load(path: str) -> Any:
    if not path:
        raise UsageError("--answers '': empty; give the path of an answers.yaml")

    text = read_text(Path(path), f"--answers {shown_path(path)}")
    try:
        doc = yaml_input.load_config(text)
    except yaml_input.YAMLShapeError as exc:
        raise UsageError(f"--answers {path}: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise UsageError(f"--answers {path}: YAML syntax error{where}") from None
    if doc is None:
        raise UsageError(f"--answers {path}: empty file; write at least one section (see verl-wizard new --help)")
    return doc
