"""The wizard and verl 0.9.1 judge generated configs the same way.

For each config drawn by ``strategies.configs()`` (random answers around the presets, biased to the
boundaries of verl's invariants), our verdict is the rules' findings on the answers read back from the
rendered config.yaml (as ``check --mode cluster`` reads it). verl's verdict is:

- verl 0.9.1's own start-up validation, run by ``verl_oracle.py`` in the verl environment (Hydra
  composition, ``validate_config``, the TaskRunner's and workers' dataclass conversions);
- plus the config-only checks verl runs later on GPU machines, re-derived in ``verl_model.py`` from
  verl's formulas and evaluated over verl's own composed config: C8 (rollout world size), C9 (dynamic
  batching consistent between actor and log-prob pass; per-GPU micro sizes set), C10 (rollout replicas
  of whole nodes), C11 (vLLM with rollout DP), C12 (mini-batch responses over the data-parallel ranks,
  actor and critic, and the device meshes), C13 (per-GPU share over the micro sizes, log-prob passes
  over the padded batch, the reference's per-GPU size), C14 (token budget × sp against prompt +
  response, including the V1 critic's fixed 32768-token budget), C19 (heads and KV heads over Ulysses
  sp, and remove-padding for the critic's engine) and vLLM's split of heads over rollout TP, both only
  where the rules can know the model's heads; B13 (model paths: the harness swaps in tiny local models)
  and B16 (the vLLM LoRA rank limit: vllm is not installed there).

The two agree when verl rejects and we report an error covering each failed check, or verl accepts and
every error we report is on ``agreement.BEYOND_VERL``, the explicit list of deliberate strictness.

The default run checks a small sample against the re-derived start-up checks (no verl needed); the
conformance tier runs at least 2,000 configs against verl itself and also checks that the re-derived
checks and the stand-in composition agree with verl on every one of them. A disagreement fails with
the smallest config hypothesis can shrink it to.
"""

from __future__ import annotations

import collections
import functools
import hashlib
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

from tests.agreement import verl_model
from tests.agreement.agreement import beyond_entry
from tests.agreement.sides import config_dir, model_side, our_side, problems_for, report, request_for, verl_side
from tests.agreement.strategies import configs

SEED = int(os.environ.get("AGREEMENT_SEED", "8"))
DEFAULT_EXAMPLES = int(os.environ.get("AGREEMENT_DEFAULT_EXAMPLES", "100"))
COMPOSE_SAMPLE = 8  # configs per large run whose fast composition is checked against Hydra's own
QUIET = dict(deadline=None, database=None, suppress_health_check=list(HealthCheck))


@settings(max_examples=DEFAULT_EXAMPLES, derandomize=True, **QUIET)
@given(configs())
def test_rules_agree_with_the_re_derived_verl_checks(config):
    rendered = our_side(*config)
    side = model_side(rendered)
    problems = problems_for(rendered, side)
    assert not problems, report(rendered, side, problems)


@pytest.mark.conformance
def test_rules_agree_with_verl_0_9_1_on_generated_configs(oracle, agreement_configs, tmp_path_factory):
    root = tmp_path_factory.mktemp("agreement")
    drawn: list = []
    examples = int(agreement_configs * 1.1) + 20  # a few draws render the same file

    @seed(SEED)
    @settings(max_examples=examples, phases=[Phase.generate], **QUIET)
    @given(configs())
    def collect(config):
        drawn.append(config)

    collect()
    folders: dict[str, tuple] = {}
    for config in drawn:
        rendered = our_side(*config)
        folders.setdefault(str(config_dir(root, rendered)), (rendered, config))
    requests = [
        request_for(root / folder, rendered, verify_compose=i < COMPOSE_SAMPLE)
        for i, (folder, (rendered, _)) in enumerate(folders.items())
    ]
    verdicts = cached_judge(oracle, requests)
    assert len(verdicts) >= agreement_configs, (
        f"only {len(verdicts)} distinct configs drawn, the run needs {agreement_configs}"
    )
    print("\n" + json.dumps(summarise(folders, verdicts), indent=1))  # the run's numbers, shown with -s / -rP

    @seed(SEED)
    @settings(max_examples=examples, phases=[Phase.generate, Phase.shrink], **QUIET)
    @given(configs())
    def check(config):
        rendered = our_side(*config)
        folder = config_dir(root, rendered)
        answer = verdicts.get(str(folder)) or oracle.judge(request_for(folder, rendered))
        side, calibration = verl_side(answer, rendered)
        problems = problems_for(rendered, side, calibration)
        assert not problems, f"seed {SEED}\n" + report(rendered, side, problems)

    check()


def cached_judge(oracle, requests: list[dict]) -> dict[str, dict]:
    """oracle.judge_many, reusing answers kept in $AGREEMENT_CACHE (a folder) from earlier runs.

    An answer depends only on the config text, the heads sent, and the code that produced it (the
    oracle, the harness, the re-derived checks), so that is its key; a rules change reuses them all.
    """
    folder = os.environ.get("AGREEMENT_CACHE")
    if not folder:
        return oracle.judge_many(requests)
    store = Path(folder) / "verdicts.json"
    kept = json.loads(store.read_text()) if store.exists() else {}
    keys = {r["dir"]: verdict_key(r) for r in requests}
    missing = [r for r in requests if keys[r["dir"]] not in kept]
    for directory, answer in oracle.judge_many(missing).items():
        kept[keys[directory]] = {k: v for k, v in answer.items() if k != "dir"}
    store.parent.mkdir(parents=True, exist_ok=True)
    store.write_text(json.dumps(kept))
    return {r["dir"]: {**kept[keys[r["dir"]]], "dir": r["dir"]} for r in requests}


@functools.lru_cache(maxsize=1)
def _code_digest() -> bytes:
    here = Path(__file__).resolve().parent
    files = (here / "verl_model.py", here / "verl_oracle.py", here.parent / "conformance" / "verl_validate.py")
    return hashlib.sha1(b"".join(p.read_bytes() for p in files)).digest()


def verdict_key(request: dict) -> str:
    text = (Path(request["dir"]) / "config.yaml").read_bytes()
    return hashlib.sha1(
        _code_digest() + text + json.dumps([request.get("heads"), request.get("verify_compose")]).encode()
    ).hexdigest()


def summarise(folders: dict, verdicts: dict) -> dict:
    """Counts for the closing note: verdict pairs, verl's failed checks, beyond-verl entries used."""
    pairs, checks, beyond = collections.Counter(), collections.Counter(), collections.Counter()
    for folder, (rendered, _) in folders.items():
        side, _ = verl_side(verdicts[folder], rendered)
        pairs[f"verl {'rejects' if side.rejects else 'accepts'}, we {'reject' if rendered.errors else 'accept'}"] += 1
        checks.update(check for check, _ in side.failed)
        facts = verl_model.Facts(side.config)
        for finding in rendered.errors:
            entry = beyond_entry(finding, facts)
            if entry is not None and not side.rejects:
                beyond[f"{entry.rule}: {entry.name}"] += 1
    return {
        "configs": len(folders),
        "verdicts": dict(pairs),
        "verl checks failed": dict(checks),
        "beyond verl": dict(beyond),
    }
