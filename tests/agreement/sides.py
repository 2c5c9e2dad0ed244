"""Both sides of one generated config, and the problems to report when they differ.

`our_side` renders and judges the answers the wizard's way (tests/agreement/ours.py); `model_side` is
verl's verdict from the re-derived checks alone (no verl needed); `verl_side` is verl 0.9.1's own
start-up verdict from the oracle plus the re-derived worker checks over verl's own composed config,
and it also reports where the re-derived model and verl disagree (so the model cannot drift).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from tests.agreement import verl_model
from tests.agreement.agreement import VerlSide, disagreements
from tests.agreement.compose_model import composed_flat, model_paths
from tests.agreement.ours import MODEL_HEADS, Rendered, judge_ours

_CACHE: dict[str, Rendered] = {}


def our_side(preset: str, values: dict[str, Any]) -> Rendered:
    """The wizard's verdict, memoised (the agreement test meets every example twice)."""
    key = json.dumps([preset, values], sort_keys=True, default=str)
    if key not in _CACHE:
        _CACHE[key] = judge_ours(preset, values)
    return _CACHE[key]


def heads_for(rendered: Rendered) -> tuple[int, int] | None:
    """The actor's heads for the re-derived head checks, when the rules can know them too."""
    if rendered.heads_known is None:
        return None
    return MODEL_HEADS.get(rendered.values.get("actor_rollout_ref.model.path"))


def facts_problems(rendered: Rendered) -> list[str]:
    """The rules' model facts must be the model's real numbers, or the head checks compare nothing."""
    path = rendered.values.get("actor_rollout_ref.model.path")
    expected = MODEL_HEADS.get(path)
    if rendered.heads_known is not None and expected is not None and tuple(rendered.heads_known) != expected:
        return [f"the rules read {rendered.heads_known} heads/KV heads for {path}; its config.json says {expected}"]
    return []


def model_side(rendered: Rendered) -> VerlSide:
    """verl's verdict re-derived from its formulas over the defaults snapshot plus the file."""
    flat = composed_flat(rendered.text)
    return VerlSide(
        verl_model.startup_checks(flat),
        verl_model.worker_checks(flat, heads_for(rendered), model_paths(rendered.text)),
        verl_model.Config(flat),
        "model",
    )


def config_dir(root: Path, rendered: Rendered) -> Path:
    """The config dir of this text under root (one per distinct text)."""
    digest = hashlib.sha1(rendered.text.encode()).hexdigest()[:16]
    folder = root / digest
    if not (folder / "config.yaml").exists():
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "config.yaml").write_text(rendered.text, encoding="utf-8")
    return folder


def request_for(folder: Path, rendered: Rendered, verify_compose: bool = False) -> dict:
    heads = heads_for(rendered)
    return {"dir": str(folder), "heads": list(heads) if heads else None, "verify_compose": verify_compose}


def verl_side(answer: dict, rendered: Rendered) -> tuple[VerlSide, list[str]]:
    """(verl 0.9.1's verdict, where the re-derived model differs from it) for one oracle answer."""
    startup = answer["startup"]
    problems = []
    failed = (
        []
        if startup["ok"]
        else [
            (
                "verl",
                f"{startup.get('stage')}"
                + (f"/{startup['part']}" if startup.get("part") else "")
                + f": {startup.get('error')}",
            )
        ]
    )
    model = model_side(rendered)
    real_model_startup = [tuple(x) for x in (answer.get("model_startup") or [])]
    worker = [tuple(x) for x in (answer.get("worker") or [])] if answer.get("worker") is not None else model.worker
    if any(c == "model-error" for c, _ in real_model_startup + worker):
        problems.append(f"the re-derived checks crashed on verl's composed config: {real_model_startup + worker}")
    if bool(real_model_startup) == startup["ok"]:
        problems.append(f"re-derived start-up checks say {real_model_startup or 'accept'}, verl says {startup}")
    if bool(model.startup) != bool(real_model_startup):
        problems.append(
            f"the stand-in composition changes the start-up verdict: {model.startup} vs {real_model_startup}"
        )
    if {c for c, _ in model.worker} != {c for c, _ in worker}:
        problems.append(f"the stand-in composition changes the worker checks: {model.worker} vs {worker}")
    if answer.get("compose_equal") is False:
        problems.append("the oracle's fast composition differs from Hydra's")
    # Name verl's own start-up failure by the re-derived check that explains it (for rule coverage).
    if failed and real_model_startup:
        failed = [(real_model_startup[0][0], f"{real_model_startup[0][1]} [verl: {failed[0][1]}]")]
    return VerlSide(failed, worker, model.config, "verl 0.9.1"), problems


def report(rendered: Rendered, side: VerlSide, problems: list[str]) -> str:
    """Everything a reader needs to reproduce one disagreement."""
    ours = [f"{f.id}: {f.message}" for f in rendered.errors]
    return "\n".join(
        [
            *[f"- {p}" for p in problems],
            f"preset {rendered.preset}, answers over it:",
            json.dumps(rendered.values, indent=1, sort_keys=True),
            f"our errors: {ours or 'none'}",
            f"{side.source}: {side.failed or 'accepts'}",
            "config.yaml:",
            rendered.text,
        ]
    )


def problems_for(rendered: Rendered, side: VerlSide, extra: list[str] = ()) -> list[str]:
    """Every reason this config fails the agreement (empty when it passes)."""
    return [*extra, *facts_problems(rendered), *disagreements(rendered.errors, side)]
