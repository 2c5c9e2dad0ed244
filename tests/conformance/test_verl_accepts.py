"""Conformance tier: verl 0.9.1's own start-up validation agrees with the wizard.

- Every preset's config.yaml, as ``wizard new`` writes it, is accepted by verl.
- Deliberately broken configs are rejected by verl, for the intended reason, and ``wizard check``
  flags each with the matching rule id.
- The harness itself accepts a known-good and rejects a known-bad hand-written config.

verl runs in its own environment (``VERL_PYTHON``, built by ``.ci/conformance-env.sh``) through
``verl_validate.py``; several configs share one harness process because each start costs seconds.
"""

from __future__ import annotations

import json
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import pytest

pytestmark = [pytest.mark.conformance, pytest.mark.usefixtures("verl_python")]

HEADER_FSDP = "hydra: {searchpath: [pkg://verl.trainer.config]}\ndefaults: [ppo_trainer, _self_]\n"
HEADER_MEGATRON = (
    "hydra: {searchpath: [pkg://verl.trainer.config]}\n"
    "defaults: [ppo_trainer, {override model_engine: megatron}, _self_]\n"
)

GOOD_GRPO = """
algorithm: {adv_estimator: grpo}
data: {train_batch_size: 64, max_prompt_length: 512, max_response_length: 512}
actor_rollout_ref:
  model: {path: Qwen/Qwen2.5-0.5B-Instruct}
  actor: {ppo_mini_batch_size: 16, ppo_micro_batch_size_per_gpu: 2, use_kl_loss: true}
  rollout: {name: vllm, n: 4, log_prob_micro_batch_size_per_gpu: 4}
  ref: {log_prob_micro_batch_size_per_gpu: 4}
trainer: {n_gpus_per_node: 8, nnodes: 1}
"""

# Known-bad for the harness test: GOOD_GRPO with 6 GPUs, so 64·4 % 6 != 0.
BAD_GRPO = GOOD_GRPO.replace("n_gpus_per_node: 8", "n_gpus_per_node: 6")

GOOD_MEGATRON_GAE = """
algorithm: {adv_estimator: gae}
data: {train_batch_size: 64, max_prompt_length: 512, max_response_length: 512}
actor_rollout_ref:
  model: {path: Qwen/Qwen2.5-0.5B-Instruct}
  actor:
    ppo_mini_batch_size: 16
    ppo_micro_batch_size_per_gpu: 2
    megatron: {tensor_model_parallel_size: 2}
  rollout: {name: vllm, n: 1, tensor_model_parallel_size: 2, log_prob_micro_batch_size_per_gpu: 4}
critic:
  model: {path: Qwen/Qwen2.5-0.5B-Instruct}
  ppo_micro_batch_size_per_gpu: 2
  megatron: {tensor_model_parallel_size: 2}
trainer: {n_gpus_per_node: 8, nnodes: 1}
"""

GOOD_REWARD_MODEL = """
algorithm: {adv_estimator: grpo}
data: {train_batch_size: 64, max_prompt_length: 512, max_response_length: 512}
actor_rollout_ref:
  model: {path: Qwen/Qwen2.5-0.5B-Instruct}
  actor: {ppo_mini_batch_size: 16, ppo_micro_batch_size_per_gpu: 2}
  rollout: {name: vllm, n: 4, log_prob_micro_batch_size_per_gpu: 4}
reward:
  reward_model:
    enable: true
    model_path: Skywork/Skywork-Reward-V2-Qwen3-0.6B
    rollout: {name: vllm, tensor_model_parallel_size: 1}
trainer: {n_gpus_per_node: 8, nnodes: 1}
"""


class Broken(NamedTuple):
    """A deliberately broken config and what verl and our rules must say about it."""

    case: str
    rules: tuple[str, ...]  # any of these ids counts as flagged
    megatron: bool
    body: str
    error: str  # a substring of verl's error: rejected for the intended reason
    xfail: str | None = None  # why our rules cannot flag it yet
    path_prefix: str = ""  # a flagged finding must name a key under it


BROKEN = [
    Broken(
        "batch-not-divisible-by-gpus",
        ("BATCH-001",),
        False,
        """
algorithm: {adv_estimator: grpo}
data: {train_batch_size: 60}
actor_rollout_ref:
  model: {path: Qwen/Qwen2.5-0.5B-Instruct}
  actor: {ppo_mini_batch_size: 15, ppo_micro_batch_size_per_gpu: 2}
  rollout: {name: vllm, n: 5, log_prob_micro_batch_size_per_gpu: 4}
trainer: {n_gpus_per_node: 8, nnodes: 1}
""",
        "must be divisible by minimal possible batch size",
    ),
    Broken(
        "mini-batch-over-train-batch",
        ("BATCH-002",),
        False,
        """
algorithm: {adv_estimator: grpo}
data: {train_batch_size: 16}
actor_rollout_ref:
  model: {path: Qwen/Qwen2.5-0.5B-Instruct}
  actor: {ppo_mini_batch_size: 32, ppo_micro_batch_size_per_gpu: 2}
  rollout: {name: vllm, n: 4, log_prob_micro_batch_size_per_gpu: 4}
trainer: {n_gpus_per_node: 8, nnodes: 1}
""",
        "must be >= actor.ppo_mini_batch_size",
    ),
    Broken(
        "no-micro-batch",
        ("BATCH-006",),
        False,
        """
algorithm: {adv_estimator: grpo}
data: {train_batch_size: 64}
actor_rollout_ref:
  model: {path: Qwen/Qwen2.5-0.5B-Instruct}
  actor: {ppo_mini_batch_size: 16, use_dynamic_bsz: false}
  rollout: {name: vllm, n: 4, log_prob_micro_batch_size_per_gpu: 4}
trainer: {n_gpus_per_node: 8, nnodes: 1}
""",
        "Please set at least one of 'actor.ppo_micro_batch_size'",
    ),
    Broken(
        "missing-rollout-name",
        ("KEY-002",),
        False,
        """
algorithm: {adv_estimator: grpo}
data: {train_batch_size: 64}
actor_rollout_ref:
  model: {path: Qwen/Qwen2.5-0.5B-Instruct}
  actor: {ppo_mini_batch_size: 16, ppo_micro_batch_size_per_gpu: 2}
  rollout: {n: 4, log_prob_micro_batch_size_per_gpu: 4}
trainer: {n_gpus_per_node: 8, nnodes: 1}
""",
        "Missing mandatory value: actor_rollout_ref.rollout.name",
    ),
    Broken(
        "invalid-loss-agg-mode",
        ("KEY-004",),
        False,
        """
algorithm: {adv_estimator: grpo}
data: {train_batch_size: 64}
actor_rollout_ref:
  model: {path: Qwen/Qwen2.5-0.5B-Instruct}
  actor: {ppo_mini_batch_size: 16, ppo_micro_batch_size_per_gpu: 2, loss_agg_mode: token-average}
  rollout: {name: vllm, n: 4, log_prob_micro_batch_size_per_gpu: 4}
trainer: {n_gpus_per_node: 8, nnodes: 1}
""",
        "Invalid loss_agg_mode",
    ),
    Broken(
        "ulysses-without-remove-padding",
        ("PLACE-006",),
        False,
        """
algorithm: {adv_estimator: grpo}
data: {train_batch_size: 64}
actor_rollout_ref:
  model: {path: Qwen/Qwen2.5-0.5B-Instruct, use_remove_padding: false}
  actor: {ppo_mini_batch_size: 16, ppo_micro_batch_size_per_gpu: 2, ulysses_sequence_parallel_size: 2}
  rollout: {name: vllm, n: 4, log_prob_micro_batch_size_per_gpu: 4}
trainer: {n_gpus_per_node: 8, nnodes: 1}
""",
        "you must enable `use_remove_padding`",
    ),
    Broken(
        "megatron-tp3-on-8-gpus",
        ("PLACE-004",),
        True,
        """
algorithm: {adv_estimator: grpo}
data: {train_batch_size: 64}
actor_rollout_ref:
  model: {path: Qwen/Qwen2.5-0.5B-Instruct}
  actor:
    ppo_mini_batch_size: 16
    ppo_micro_batch_size_per_gpu: 2
    megatron: {tensor_model_parallel_size: 3}
  rollout: {name: vllm, n: 4, log_prob_micro_batch_size_per_gpu: 4}
trainer: {n_gpus_per_node: 8, nnodes: 1}
""",
        "must be divisible by model_parallel_size (3)",
    ),
    Broken(
        "val-do-sample-at-temperature-0",
        ("KEY-005",),
        False,
        """
algorithm: {adv_estimator: grpo}
data: {train_batch_size: 64}
actor_rollout_ref:
  model: {path: Qwen/Qwen2.5-0.5B-Instruct}
  actor: {ppo_mini_batch_size: 16, ppo_micro_batch_size_per_gpu: 2}
  rollout:
    name: vllm
    n: 4
    temperature: 0
    log_prob_micro_batch_size_per_gpu: 4
    val_kwargs: {do_sample: true, temperature: 0.6}
trainer: {n_gpus_per_node: 8, nnodes: 1}
""",
        "validation gen temperature should be greater than 0",
    ),
    # DESIGN's BATCH-006 covers a missing micro size for every role, the critic included.
    Broken(
        "gae-critic-without-micro-batch",
        ("BATCH-006",),
        False,
        """
algorithm: {adv_estimator: gae}
data: {train_batch_size: 64}
actor_rollout_ref:
  model: {path: Qwen/Qwen2.5-0.5B-Instruct}
  actor: {ppo_mini_batch_size: 16, ppo_micro_batch_size_per_gpu: 2}
  rollout: {name: vllm, n: 1, log_prob_micro_batch_size_per_gpu: 4}
critic:
  model: {path: Qwen/Qwen2.5-0.5B-Instruct}
trainer: {n_gpus_per_node: 8, nnodes: 1}
""",
        "[critic] Please set at least one of",
        path_prefix="critic.",
    ),
]
BROKEN_IDS = [b.case for b in BROKEN]


def write_config(directory: Path, body: str, megatron: bool = False) -> Path:
    """Write a primary config (header + ``body``) as ``directory/config.yaml``; return the dir."""
    directory.mkdir(parents=True, exist_ok=True)
    header = HEADER_MEGATRON if megatron else HEADER_FSDP
    (directory / "config.yaml").write_text(header + body.lstrip("\n"))
    return directory


def describe(verdict: dict) -> str:
    """One line for an assertion message."""
    return json.dumps(verdict, sort_keys=True)


@dataclass
class Verdicts:
    """verl's verdicts on every config of this module, gathered by two overlapping harness runs."""

    presets: dict[str, dict] = field(default_factory=dict)
    preset_problems: list[str] = field(default_factory=list)  # what the wizard CLI failed to write
    broken: dict[str, dict] = field(default_factory=dict)
    handwritten: dict[str, dict] = field(default_factory=dict)
    overridden: dict = field(default_factory=dict)


def write_presets(run_wizard, root: Path, problems: list[str]) -> dict[str, Path]:
    """``wizard new`` every preset ``wizard presets`` lists; note failures in ``problems``."""
    listing = run_wizard("presets", "--format", "json")
    if listing.returncode != 0:
        problems.append(f"wizard presets exited {listing.returncode}: {listing.stderr.strip()[-2000:]}")
        return {}
    names = [p["name"] for p in json.loads(listing.stdout)]
    if not names:
        problems.append("wizard presets listed no preset")
    dirs = {}
    for name in names:
        made = run_wizard("new", "--preset", name, "--out", str(root / name))
        if made.returncode != 0:
            problems.append(f"wizard new --preset {name} exited {made.returncode}: {made.stderr.strip()[-2000:]}")
        elif not (root / name / "config.yaml").is_file():
            problems.append(f"wizard new --preset {name} wrote no config.yaml")
        else:
            dirs[name] = root / name
    return dirs


@pytest.fixture(scope="module")
def broken_dirs(tmp_path_factory) -> dict[str, Path]:
    """Every BROKEN case written as its own config directory."""
    root = tmp_path_factory.mktemp("broken")
    return {b.case: write_config(root / b.case, b.body, b.megatron) for b in BROKEN}


@pytest.fixture(scope="module")
def verdicts(run_wizard, start_harness, broken_dirs, tmp_path_factory) -> Verdicts:
    """Validate presets, broken and hand-written configs in one run, the override case beside it."""
    root = tmp_path_factory.mktemp("conformance")
    overridden_dir = write_config(root / "overridden" / "good-grpo", GOOD_GRPO)
    # 64·4 rollouts on 6 GPUs: only the override makes this config fail.
    override_run = start_harness([overridden_dir], overrides=("trainer.n_gpus_per_node=6",))
    out = Verdicts()
    presets = write_presets(run_wizard, root / "presets", out.preset_problems)
    hand = root / "handwritten"
    handwritten = {
        "good-grpo": write_config(hand / "good-grpo", GOOD_GRPO),
        "bad-grpo": write_config(hand / "bad-grpo", BAD_GRPO),
        "good-megatron-gae": write_config(hand / "good-megatron-gae", GOOD_MEGATRON_GAE, megatron=True),
        "good-reward-model": write_config(hand / "good-reward-model", GOOD_REWARD_MODEL),
        "no-config": hand / "no-config",
    }
    groups = {"presets": presets, "broken": broken_dirs, "handwritten": handwritten}
    results = start_harness([d for dirs in groups.values() for d in dirs.values()]).result()
    for attr, dirs in groups.items():
        setattr(out, attr, {name: results[str(d)] for name, d in dirs.items()})
    out.overridden = override_run.result()[str(overridden_dir)]
    return out


# --- (1) every preset the wizard ships is accepted by verl -------------------------------------


def test_every_preset_is_accepted_by_verl(verdicts):
    """Each preset's config.yaml passes compose, validate_config and the dataclass conversions."""
    assert not verdicts.preset_problems, "\n".join(verdicts.preset_problems)
    for name, verdict in sorted(verdicts.presets.items()):
        if verdict.get("skipped"):
            warnings.warn(f"preset {name}: verl checks not run here: {verdict['skipped']}", stacklevel=1)
    rejected = {name: v for name, v in verdicts.presets.items() if not v["ok"]}
    assert not rejected, "verl rejects presets:\n" + "\n".join(
        f"  {name}: {describe(v)}" for name, v in sorted(rejected.items())
    )


# --- (2) deliberately broken configs: verl rejects them, and our rules say why -----------------


@pytest.mark.parametrize("broken", BROKEN, ids=BROKEN_IDS)
def test_verl_rejects_broken_config(verdicts, broken):
    """verl rejects the case, and for the intended reason (its error text)."""
    verdict = verdicts.broken[broken.case]
    assert verdict["ok"] is False, f"verl accepted a config meant to be broken: {describe(verdict)}"
    assert broken.error in verdict["error"], f"verl rejected it for another reason: {describe(verdict)}"


@pytest.mark.parametrize(
    "broken",
    [
        pytest.param(b, id=b.case, marks=[pytest.mark.xfail(reason=b.xfail, strict=False)] if b.xfail else [])
        for b in BROKEN
    ],
)
def test_wizard_check_flags_broken_config(run_wizard, broken_dirs, broken):
    """``wizard check`` exits 1 with verdict fail and the matching rule id."""
    proc = run_wizard("check", str(broken_dirs[broken.case] / "config.yaml"), "--format", "json")
    assert proc.returncode == 1, f"wizard check exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
    report = json.loads(proc.stdout)
    ids = [f["id"] for f in report["findings"]]
    assert report["verdict"] == "fail", f"verdict {report['verdict']!r}, findings {ids}"
    flagged = [
        f
        for f in report["findings"]
        if f["id"] in broken.rules and any(p.startswith(broken.path_prefix) for p in f.get("paths", []) or [""])
    ]
    assert flagged, f"none of {broken.rules} (on {broken.path_prefix or 'any key'}) among the findings {ids}"


# --- (3) the harness on hand-written configs, independent of the wizard ------------------------


def test_harness_accepts_known_good_grpo(verdicts):
    """A plain FSDP GRPO config with KL loss (so a ref) is accepted."""
    verdict = verdicts.handwritten["good-grpo"]
    assert verdict["ok"] is True, describe(verdict)


def test_harness_rejects_known_bad_grpo(verdicts):
    """The same config on 6 GPUs fails validate_config's batch divisibility check."""
    verdict = verdicts.handwritten["bad-grpo"]
    assert (verdict["ok"], verdict["stage"]) == (False, "validate"), describe(verdict)
    assert verdict["error"].startswith("AssertionError: real_train_batch_size (256)"), describe(verdict)


def test_harness_accepts_megatron_with_critic(verdicts):
    """A Megatron GAE config is accepted without megatron-core installed (critic read locally)."""
    verdict = verdicts.handwritten["good-megatron-gae"]
    assert verdict["ok"] is True, describe(verdict)


def test_harness_accepts_reward_model(verdicts):
    """An enabled reward model is converted against the local one-label classifier."""
    verdict = verdicts.handwritten["good-reward-model"]
    assert verdict["ok"] is True, describe(verdict)


def test_harness_reports_missing_config(verdicts):
    """A directory without config.yaml is a compose failure, not a harness crash."""
    verdict = verdicts.handwritten["no-config"]
    assert (verdict["ok"], verdict["stage"]) == (False, "compose"), describe(verdict)


def test_harness_applies_overrides(verdicts):
    """``--override`` acts like a command-line override of main_ppo (here: 6 GPUs on a good config)."""
    verdict = verdicts.overridden
    assert (verdict["ok"], verdict["stage"]) == (False, "validate"), describe(verdict)
    assert "real_train_batch_size (256)" in verdict["error"], describe(verdict)
