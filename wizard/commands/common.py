"""Pieces shared by `new` and `check`: --set parsing, the answers file, the topology layer."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from wizard.core.layers import check_address, flatten_answers_doc
from wizard.detect import yaml_input
from wizard.errors import UsageError


def parse_set_flags(items: list[str] | None) -> dict[str, Any]:
    """`--set key=value` as a launch script writes it (a leading + is accepted) -> verl keys/addresses."""
    from wizard.detect.hydra_values import parse_override_value

    values: dict[str, Any] = {}
    for item in items or []:
        key, sep, raw = item.partition("=")
        key = key.strip().lstrip("+")
        if not sep or not key:
            raise UsageError(f"--set {item}: expected dotted.key=value, e.g. --set actor_rollout_ref.rollout.n=8")
        check_address(key)
        try:
            values[key] = parse_override_value(raw)
        except ValueError as exc:
            raise UsageError(f"--set {key}: {exc}") from None
    return values


def read_answers_file(path: str) -> dict[str, Any]:
    from wizard.detect.config_files import read_text

    text = read_text(Path(path))
    try:
        doc = yaml_input.load_one(text)
    except yaml_input.YAMLShapeError as exc:
        raise UsageError(f"--answers {path}: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise UsageError(f"--answers {path}: YAML syntax error{where}") from None
    if doc is None:
        raise UsageError(f"--answers {path}: empty file; write at least one section (see verl-wizard new --help)")
    return flatten_answers_doc(doc, f"--answers {path}")


def topology_layer(spec: str | None):
    """(topology, detected values) for --topology: a fake name, a `nvidia-smi topo -m` file, or `detect`."""
    if not spec:
        return None, {}
    from wizard.detect.topology_source import load_topology

    topo = load_topology(spec)
    return topo, {"trainer.n_gpus_per_node": len(topo.gpus), "trainer.nnodes": getattr(topo, "nodes", 1)}


# What the rules can learn from the world besides the answers: each entry is (module, function, inputs) in
# wizard.detect: function(answers, mode) -> dict of RuleContext fields (e.g. {"data": ...}); inputs(answers,
# mode) -> a hashable key of everything that function reads from the answers.
INSPECTORS = (
    ("wizard.detect.data", "inspect_data", "data_inputs"),
    ("wizard.detect.models", "inspect_models", "model_inputs"),
)


def gather(answers, mode: str, cache: dict | None = None) -> dict[str, Any]:
    """Facts read from local files (data files, model configs) for the rules; nothing is downloaded.

    With ``cache`` (a dict the caller keeps, as the TUI's session does across edits) an inspector whose
    inputs did not change since the last call is not run again: a keystroke in a batch field must not
    re-read data files. The caller empties the cache to read the files again.
    """
    import importlib

    facts: dict[str, Any] = {}
    for module_name, function, inputs in INSPECTORS:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name != module_name:
                raise
            continue
        if cache is None:
            facts.update(getattr(module, function)(answers, mode))
            continue
        key = getattr(module, inputs)(answers, mode)
        hit = cache.get(function)
        if hit is None or hit[0] != key:
            hit = cache[function] = (key, getattr(module, function)(answers, mode))
        facts.update(hit[1])
    return facts
