"""Facts the rules learn from local files (data files, model configs), gathered for one set of answers."""

from __future__ import annotations

from typing import Any

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
