"""Tests for wizard.detect.script.hydra_values: override values read as Hydra 1.3's grammar reads them."""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys

import pytest

from wizard.detect.script.hydra_values import parse_override_value, split_override

READS = [
    # ints, with Hydra's underscores and signs; a leading zero makes a string
    ("8", 8),
    ("-20", -20),
    ("+1", 1),
    ("1_000_000", 1_000_000),
    ("007", "007"),
    # floats
    ("1e-6", 1e-06),
    ("3.0", 3.0),
    ("5e-7", 5e-07),
    (".5", 0.5),
    ("1.", 1.0),
    ("1e6", 1_000_000.0),
    ("inf", math.inf),
    ("5e", "5e"),
    ("0x10", "0x10"),
    # booleans and null, in any case
    ("true", True),
    ("False", False),
    ("TRUE", True),
    ("tRuE", True),
    ("null", None),
    ("NULL", None),
    ("trueish", "trueish"),
    # quoted strings keep their type as str and lose their quotes
    ("'error'", "error"),
    ('"5"', "5"),
    ("'true'", "true"),
    ("'a,b'", "a,b"),
    ("'~/data/x'", "~/data/x"),
    (r"'it\'s'", "it's"),
    (r'"say \"hi\""', 'say "hi"'),
    ("''", ""),
    # lists and dicts, nested, with spaces around separators
    ("[a,b]", ["a", "b"]),
    ("['console','wandb']", ["console", "wandb"]),
    ('["console","wandb"]', ["console", "wandb"]),
    ("[console]", ["console"]),
    ("[]", []),
    ("[1, [2, 3.5], null]", [1, [2, 3.5], None]),
    ("{a:1,b:2}", {"a": 1, "b": 2}),
    ("{enable_thinking: false}", {"enable_thinking": False}),
    ("{a: [1, 2], b: {c: x}}", {"a": [1, 2], "b": {"c": "x"}}),
    ("{}", {}),
    # plain strings: model ids, paths, URLs, interpolations
    ("grpo", "grpo"),
    ("Qwen/Qwen3-8B", "Qwen/Qwen3-8B"),
    ("/data/gsm8k/train.parquet", "/data/gsm8k/train.parquet"),
    ("hdfs://nn:9000/ckpt", "hdfs://nn:9000/ckpt"),
    ("http://127.0.0.1:8265", "http://127.0.0.1:8265"),
    ("${oc.env:HOME}", "${oc.env:HOME}"),
    ("${oc.env:HOME}/data", "${oc.env:HOME}/data"),
    ("$HOME/data", "$HOME/data"),
    ("a b", "a b"),
    (r"a\,b", "a,b"),
    # empty or blank: Hydra's `=` swallows the blanks, leaving the empty string
    ("", ""),
    ("  ", ""),
    ("  x  ", "x"),
    # cast functions
    ("int(3.5)", 3),
    ("str(1)", "1"),
    ("str(true)", "true"),
    ("float(value=2)", 2.0),
    ("bool('false')", False),
]


@pytest.mark.parametrize(("text", "expected"), READS, ids=[repr(t) for t, _ in READS])
def test_value_reads_as_hydra_reads_it(text: str, expected: object) -> None:
    value = parse_override_value(text)
    assert value == expected
    assert type(value) is type(expected)


REJECTED = [
    ("[1,2", "unbalanced"),
    ("{a:1", "unbalanced"),
    ("[[1]", "unbalanced"),
    ("a]", "]"),
    ("~/data/x", "'~'"),
    ("/data/数据", "'数'"),
    ("a#b", "'#'"),
    ("a=b", "'='"),
    ("a,b", "sweep"),
    ("1,2,3", "sweep"),
    ("choice(1,2)", "sweep"),
    ("range(1,5)", "sweep"),
    ("shout(1)", "unknown Hydra function"),
    ("bool(yes)", "bool"),
    ("int(inf)", "int"),
    ('"open', "'\"'"),
]


@pytest.mark.parametrize(("text", "fragment"), REJECTED, ids=[t for t, _ in REJECTED])
def test_value_hydra_rejects_raises_a_short_value_error(text: str, fragment: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_override_value(text)
    message = str(info.value)
    assert fragment in message
    assert "\n" not in message and len(message) < 120


def test_deep_nesting_is_bounded() -> None:
    with pytest.raises(ValueError, match="nested too deeply"):
        parse_override_value("[" * 5000 + "]" * 5000)


def test_overlong_value_is_refused() -> None:
    with pytest.raises(ValueError, match="too long"):
        parse_override_value("a" * 200_000)


SPLITS = [
    ("a.b=1", ("", "a.b", "1")),
    ("+a.b=1", ("+", "a.b", "1")),
    ("++a=", ("++", "a", "")),
    ("~a", ("~", "a", None)),
    ("~a.b=3", ("~", "a.b", "3")),
    ("a=b=c", ("", "a", "b=c")),
    ("hydra/launcher=basic", ("", "hydra/launcher", "basic")),
    ("model@critic.model=hf_model", ("", "model@critic.model", "hf_model")),
    ("a.0.b=1", ("", "a.0.b", "1")),
    ("--config-name=x", None),
    ("a", None),
    ("+a", None),
    ("a..b=1", None),
    ("a.=1", None),
    (" a=1", None),
    ("=1", None),
    ("", None),
]


@pytest.mark.parametrize(("arg", "expected"), SPLITS, ids=[a or "<empty>" for a, _ in SPLITS])
def test_split_override(arg: str, expected: tuple[str, str, str | None] | None) -> None:
    assert split_override(arg) == expected


HYDRA_READER = """
import json, sys
from hydra.core.override_parser.overrides_parser import OverridesParser
from hydra.core.override_parser.types import Sweep
from hydra.errors import HydraException
parser = OverridesParser.create()
out = []
for text in json.load(sys.stdin):
    try:
        value = parser.parse_override("k=" + text).value()
        out.append(["error"] if isinstance(value, Sweep) else ["ok", repr(value), type(value).__name__])
    except HydraException:
        out.append(["error"])
print(json.dumps(out))
"""


def hydra_reads(texts: list[str]) -> list[list[str]]:
    """Hydra's own reading of each value: in VERL_PYTHON (as the conformance tier has it) or here."""
    python = os.environ.get("VERL_PYTHON")
    if not python:
        pytest.importorskip("hydra.core.override_parser.overrides_parser")
        python = sys.executable
    done = subprocess.run(
        [python, "-c", HYDRA_READER], input=json.dumps(texts), capture_output=True, text=True, timeout=300, check=False
    )
    if done.returncode != 0:
        pytest.skip(f"no Hydra to compare with: {done.stderr.strip().splitlines()[-1:]}")
    return json.loads(done.stdout)


@pytest.mark.conformance
def test_agrees_with_hydra_on_random_values() -> None:
    """Differential test against Hydra's own ANTLR parser, on the tables above and random values."""
    alphabet = list("ab1 0._-+eE[]{}(),:='\"\\$/~#tT") + [
        "true",
        "null",
        "nan",
        "inf",
        "int(",
        "str(",
        "${x}",
        "1e-6",
        "  ",
    ]
    rng = random.Random(7)
    texts = [text for text, _ in READS + REJECTED]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(5000)]
    for text, theirs in zip(texts, hydra_reads(texts), strict=False):
        try:
            value = parse_override_value(text)
            ours = ["ok", repr(value), type(value).__name__]
        except ValueError:
            ours = ["error"]
        assert ours == theirs, text
