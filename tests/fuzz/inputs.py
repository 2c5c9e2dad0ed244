"""Hypothesis strategies for fuzzed input files: random and mutated YAML, launch scripts, topology
text and data files.

Mutated inputs start from real ones (the presets, rendered configs, the test fixtures: launch
scripts, `nvidia-smi topo -m` captures) and apply a few edits that break structure in the ways files
break: a span deleted, duplicated or replaced, a cut-off end, characters that mean something to YAML,
shells or the parsers (quotes, colons, backslashes, tabs, CR, NUL, BOM, non-ASCII). Random inputs
build documents from the project's own vocabulary (answer sections and fields, verl keys) with values
of every type, so they get past the first checks and into the code behind them.
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

import yaml
from hypothesis import strategies as st

from wizard.core import verl_schema
from wizard.core.answers.model import SECTIONS
from wizard.core.preset_files import preset_dir

TESTS = Path(__file__).resolve().parents[1]
SPICE = [
    "",
    ":",
    ": ",
    "-",
    "- ",
    "'",
    '"',
    "\\",
    "\t",
    "\r\n",
    "\n",
    "\x00",
    "\ufeff",
    "{",
    "}",
    "[",
    "]",
    ",",
    "#",
    "&a",
    "*a",
    "!!python/object:os.system",
    "${",
    "}",
    "$(",
    "`",
    ";",
    "&&",
    "|",
    "=",
    "==",
    "+",
    "~",
    "%",
    "é",
    "中文",
    "\u202e",
    "🙂",
    "0x1F",
    "1e309",
    "-0",
    "NaN",
    ".inf",
    "null",
    "~/x",
    "../..",
    "/dev/zero",
    "\\\n",
]


@lru_cache(maxsize=1)
def corpus() -> dict[str, list[str]]:
    """Real inputs of each kind, read once."""

    def texts(paths):
        return [p.read_text(encoding="utf-8", errors="replace") for p in sorted(paths) if p.is_file()]

    rendered = [p for p in (TESTS / "emit" / "golden").glob("*/config.yaml")]
    answers = [p for p in (TESTS / "emit" / "golden").glob("*/answers.yaml")]
    return {
        "answers": texts(list(preset_dir().glob("*.yaml")) + answers),
        "config": texts(rendered),
        "script": texts(
            list((TESTS / "fixtures" / "scripts").glob("*.sh")) + list((TESTS / "fixtures" / "check").glob("*.sh"))
        ),
        "topo": texts(
            list((TESTS / "detect" / "fixtures" / "topo").glob("*.txt"))
            + [TESTS / "detect" / "fixtures" / "h200" / "h200_topo_m.txt"]
        ),
    }


@st.composite
def mutated(draw, text: str, max_edits: int = 4) -> str:
    """`text` after a few structure-breaking edits."""
    for _ in range(draw(st.integers(1, max_edits))):
        if not text:
            text = draw(st.sampled_from(SPICE))
            continue
        i = draw(st.integers(0, len(text)))
        j = min(len(text), i + draw(st.integers(0, 40)))
        kind = draw(st.sampled_from(["delete", "insert", "duplicate", "replace", "truncate", "swap-lines"]))
        if kind == "delete":
            text = text[:i] + text[j:]
        elif kind == "insert":
            text = text[:i] + draw(st.sampled_from(SPICE) | st.text(max_size=12)) + text[i:]
        elif kind == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        elif kind == "replace":
            text = text[:i] + draw(st.sampled_from(SPICE) | st.text(max_size=8)) + text[j:]
        elif kind == "truncate":
            text = text[:i]
        else:
            lines = text.splitlines(keepends=True)
            if len(lines) > 1:
                a, b = sorted(draw(st.lists(st.integers(0, len(lines) - 1), min_size=2, max_size=2)))
                lines[a], lines[b] = lines[b], lines[a]
                text = "".join(lines)
    return text


def scalars() -> st.SearchStrategy:
    """Values of every YAML type, the awkward ones included."""
    return st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-(2**70), 2**70),
        st.sampled_from([0, 1, -1, 2**31, 2**63, 10**30]),
        st.floats(allow_nan=True, allow_infinity=True),
        st.sampled_from([0.5, -1e-9, math.inf, 1e308]),
        st.text(max_size=30),
        st.sampled_from(["vllm", "grpo", "gae", "fsdp", "megatron", "~/m", "/abs", "Qwen/Qwen3-8B", ""]),
    )


def values(depth: int = 2) -> st.SearchStrategy:
    return st.recursive(
        scalars(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=8,
    )


@lru_cache(maxsize=1)
def vocabulary() -> dict[str, list[str]]:
    fields = {section: list(model.model_fields) for section, model in SECTIONS.items()}
    keys = sorted(verl_schema.defaults("dp"))
    return {
        "sections": list(SECTIONS),
        "fields": fields,
        "verl_keys": keys[::7]
        + [
            "data.train_batch_size",
            "actor_rollout_ref.rollout.n",
            "actor_rollout_ref.actor.ppo_mini_batch_size",
            "trainer.n_gpus_per_node",
            "trainer.nnodes",
            "actor_rollout_ref.rollout.name",
            "algorithm.adv_estimator",
            "actor_rollout_ref.model.path",
            "critic.model.path",
            "reward_model.enable",
            "custom_reward_function.path",
        ],
    }


@st.composite
def random_answers_doc(draw) -> dict:
    """An answers document in the right shape with values of any type (and the odd unknown name)."""
    vocab = vocabulary()
    doc: dict = {}
    for section in draw(st.lists(st.sampled_from(vocab["sections"] + ["extra", "nonsense"]), max_size=5, unique=True)):
        if section == "extra":
            doc["extra"] = draw(
                st.dictionaries(st.sampled_from(vocab["verl_keys"]) | st.text(max_size=12), values(), max_size=4)
            )
        elif section == "nonsense":
            doc[draw(st.text(max_size=10))] = draw(values())
        else:
            names = vocab["fields"][section] + ["not_a_field"]
            doc[section] = (
                draw(st.dictionaries(st.sampled_from(names), values(), max_size=5))
                if draw(st.integers(0, 5))
                else draw(values())
            )
    return doc


@st.composite
def random_config_doc(draw) -> dict:
    """A verl config document: a Hydra header or not, nested verl keys with values of any type."""
    vocab = vocabulary()
    doc: dict = {}
    if draw(st.booleans()):
        doc["hydra"] = {"searchpath": ["pkg://verl.trainer.config"]}
        doc["defaults"] = draw(
            st.sampled_from(
                [
                    ["ppo_trainer", "_self_"],
                    ["ppo_trainer", {"override model_engine": "megatron"}, "_self_"],
                    [],
                    "ppo_trainer",
                    [{"x": None}],
                    None,
                ]
            )
        )
    for key in draw(st.lists(st.sampled_from(vocab["verl_keys"]) | st.text(max_size=20), max_size=8)):
        node = doc
        parts = [p for p in str(key).split(".") if p] or ["x"]
        for part in parts[:-1]:
            child = node.get(part)
            if not isinstance(child, dict):
                child = node[part] = {}
            node = child
        node[parts[-1]] = draw(values())
    return doc


def dump(doc) -> str:
    try:
        return yaml.safe_dump(doc, allow_unicode=True, sort_keys=False)
    except (yaml.YAMLError, ValueError):
        return json.dumps(doc, default=str)


def yaml_answers() -> st.SearchStrategy[str]:
    """Answers files: mutated presets and real answers files, or random documents in their shape."""
    seeds = corpus()["answers"]
    return st.one_of(st.sampled_from(seeds).flatmap(mutated), random_answers_doc().map(dump), st.text(max_size=200))


def yaml_configs() -> st.SearchStrategy[str]:
    """Configs for `check`: mutated rendered configs, random verl documents, answers-shaped ones, aliases."""
    seeds = corpus()["config"]
    return st.one_of(
        st.sampled_from(seeds).flatmap(mutated),
        random_config_doc().map(dump),
        random_answers_doc().map(dump),
        st.text(max_size=200),
        aliased(),
    )


@st.composite
def aliased(draw) -> str:
    """YAML whose anchors and aliases make shared, nested or self-referencing values under real keys.

    The nesting stays small (at most 5 ** 3 leaves) so that a run costs little; a file that expands
    exponentially is its own test.
    """
    width, depth = draw(st.integers(1, 5)), draw(st.integers(0, 3))
    lines = [f"l0: &l0 [{', '.join(['1'] * width)}]"]
    for i in range(1, depth + 1):
        lines.append(f"l{i}: &l{i} [{', '.join([f'*l{i - 1}'] * width)}]")
    header = draw(
        st.sampled_from(["hydra: {searchpath: [pkg://verl.trainer.config]}\ndefaults: [ppo_trainer, _self_]\n", ""])
    )
    section, _, leaf = draw(st.sampled_from(vocabulary()["verl_keys"])).partition(".")
    if draw(st.booleans()):
        body = f"{section}: &self {{{leaf or 'x'}: *self}}"  # a mapping that contains itself
    else:
        body = f"{section}: {{{leaf or 'x'}: *l{depth}}}"
    return header + "\n".join(lines) + "\n" + body + "\n"


@st.composite
def random_script(draw) -> str:
    """A launch script calling verl's trainer with random overrides, quoting and continuation lines."""
    vocab = vocabulary()
    lines = ["#!/usr/bin/env bash", draw(st.sampled_from(["set -x", "export X=1", "", "cd $HOME"]))]
    command = draw(
        st.sampled_from(
            [
                "python3 -m verl.trainer.main_ppo",
                "python -m verl.trainer.main_ppo --config-name=ppo_megatron_trainer",
                "ray job submit -- python3 -m verl.trainer.main_ppo",
            ]
        )
    )
    args = []
    for key in draw(st.lists(st.sampled_from(vocab["verl_keys"]) | st.text(max_size=15), max_size=8)):
        value = draw(
            st.sampled_from(
                ["1", "8", "vllm", "'a b'", '"$X"', "${Y:-2}", "[1,2]", "null", "~/m", "\\", "'", "$(", "1e3"]
            )
            | st.text(max_size=6)
        )
        args.append(f"{draw(st.sampled_from(['', '+', '++', '~']))}{key}={value}")
    joiner = draw(st.sampled_from([" \\\n    ", " ", " \\\n", " \\ \n"]))
    lines.append(command + joiner + joiner.join(args) + draw(st.sampled_from(["", " $@", " 2>&1 | tee log"])))
    return "\n".join(lines) + "\n"


def scripts() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(corpus()["script"]).flatmap(mutated), random_script())


@st.composite
def random_topo(draw) -> str:
    """An `nvidia-smi topo -m`-like matrix with random symbols, sizes and columns."""
    n = draw(st.integers(0, 10))
    symbols = ["X", "NV1", "NV2", "NV4", "NV12", "NV18", "PIX", "PXB", "PHB", "NODE", "SYS", "SOC", "?", "", "NV"]
    header = (
        "\t"
        + "\t".join(f"GPU{i}" for i in range(n))
        + draw(st.sampled_from(["", "\tCPU Affinity\tNUMA Affinity", "\tNIC0"]))
    )
    rows = [header]
    for i in range(n):
        cells = [draw(st.sampled_from(symbols)) for _ in range(n)]
        rows.append(
            f"GPU{i}\t" + "\t".join(cells) + draw(st.sampled_from(["", "\t0-31\t0", "\tN/A\tN/A", "\t0-7,16-23\t1"]))
        )
    return "\n".join(rows) + draw(st.sampled_from(["", "\n\nLegend:\n  X    = Self\n", "\x1b[0m"]))


def topologies() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(corpus()["topo"]).flatmap(mutated), random_topo(), st.text(max_size=300))


def rows() -> st.SearchStrategy[list]:
    """Data rows near verl's RL/RM/SFT shapes, with wrong types and missing columns mixed in."""
    message = st.fixed_dictionaries(
        {"role": st.sampled_from(["user", "system", "assistant", "", 3]), "content": scalars()}
    )
    prompt = st.one_of(st.lists(message, max_size=3), scalars(), st.lists(scalars(), max_size=2))
    row = st.fixed_dictionaries(
        {},
        optional={
            "prompt": prompt,
            "data_source": st.sampled_from(["openai/gsm8k", "lighteval/MATH", "mine", 5, None]),
            "reward_model": st.one_of(
                st.fixed_dictionaries({"ground_truth": scalars(), "style": st.just("rule")}), scalars()
            ),
            "chosen": scalars(),
            "rejected": scalars(),
            "messages": st.lists(message, max_size=3) | scalars(),
            "extra_info": values(),
            "question": scalars(),
            "answer": scalars(),
        },
    )
    return st.lists(row | values(), max_size=6)
