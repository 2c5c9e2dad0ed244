"""Tests for wizard.detect.script.hydra_values: override values read by Hydra 1.3's own parser, and the plain-token
fast path checked against that parser."""

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
    # (value, a fragment of Hydra's own words)
    ("[1,2", "no viable alternative"),
    ("{a:1", "no viable alternative"),
    ("a]", "extraneous input ']'"),
    ("~/data/x", "token recognition error at: '~'"),
    ("/data/数据", "token recognition error at: '数'"),
    ("a#b", "token recognition error at: '#'"),
    ("a=b", "mismatched input '='"),
    ("shout(1)", "Unknown function 'shout'"),
    ("bool(yes)", "Cannot cast 'yes' to bool"),
    ("int(inf)", "cannot convert float infinity to integer"),
    ('"open', "token recognition error"),
]


@pytest.mark.parametrize(("text", "fragment"), REJECTED, ids=[t for t, _ in REJECTED])
def test_value_hydra_rejects_raises_hydras_own_words_on_one_line(text: str, fragment: str) -> None:
    with pytest.raises(ValueError) as info:
        parse_override_value(text)
    message = str(info.value)
    assert fragment in message
    assert message.startswith("Hydra's override parser refuses it: ")
    assert "\n" not in message


SWEEPS = ["a,b", "1,2,3", "choice(1,2)", "range(1,5)", "interval(0,1)", "glob(*)", "[1,2],[3]"]


@pytest.mark.parametrize("text", SWEEPS)
def test_a_sweep_parses_but_is_refused_on_a_single_run(text: str) -> None:
    with pytest.raises(ValueError, match="Hydra sweep"):
        parse_override_value(text)


def test_what_hydra_evaluates_is_hydras_value() -> None:
    """sort() is not a sweep: Hydra sorts the list and sets it (the neighbour of the sweeps above)."""
    assert parse_override_value("sort([3,1,2])") == [1, 2, 3]
    assert parse_override_value("sort([b,a],reverse=true)") == ["b", "a"]


def test_deep_nesting_is_bounded() -> None:
    with pytest.raises(ValueError, match="nested too deeply"):
        parse_override_value("[" * 5000 + "]" * 5000)
    assert parse_override_value("[" * 200 + "]" * 200) is not None


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


PLAIN_PIECES = ["1", "0", "07", "1_0", "e", "E", "5", ".", "-", "+", "_", "/", ":", "@", "%", "*", "?", "|"]
PLAIN_PIECES += ["a", "x", "true", "False", "null", "NULL", "inf", "nan", "1e-6", "2.", ".5", "Qwen", "v1"]


def test_the_plain_fast_path_reads_as_hydras_parser_does() -> None:
    """Values of plain tokens are typed without Hydra's parser: on 4,000 random ones (every split of ints,
    floats, bools, nulls, names and the unquoted characters) the type and value equal Hydra's own reading."""
    from hydra.core.override_parser.overrides_parser import OverridesParser

    from wizard.detect.script import hydra_values

    hydra = OverridesParser.create()
    rng = random.Random(31)
    texts = {"".join(rng.choice(PLAIN_PIECES) for _ in range(rng.randint(1, 5))) for _ in range(4000)}
    texts |= {"", "-1", "+5", "1.5e3", "-inf", "+nan", "1_000.5", "trueish", "null0", "1-2", "0x10", "a:b"}
    plain = 0
    for text in sorted(texts):
        if not hydra_values._PLAIN.fullmatch(text):
            continue
        plain += 1
        ours = hydra_values._plain_value(text)
        theirs = hydra.parse_override("k=" + text).value()
        assert type(ours) is type(theirs), text
        assert ours == theirs or (ours != ours and theirs != theirs), text  # nan != nan
    assert plain > 2500


def test_a_plain_script_value_never_imports_hydras_parser() -> None:
    """The fast path is real: a fresh interpreter reading plain values loads no antlr4; a list loads it."""
    code = (
        "import sys; from wizard.detect.script.hydra_values import parse_override_value as p; "
        "[p(v) for v in ('8', '1e-6', 'True', 'Qwen/Qwen3-8B', 'null', '')]; print('antlr4' in sys.modules); "
        "p('[console,wandb]'); print('antlr4' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True"]
