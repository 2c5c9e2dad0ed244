"""Corpus cases of `--verl-version X` (see tests/test_i18n_corpus.py): verl X's config tree composed by Hydra, as
wizard.detect.config.verl_tree reports it, judged by wizard.core.rules.verl.tree, one or more per rule."""

from __future__ import annotations

from wizard.core.findings import Finding, Fix, Severity
from wizard.core.rules.declare import why
from wizard.core.rules.verl.tree import held_to_release, judge_tree
from wizard.i18n.text import msg


def facts(**changes):
    base = {
        "version": "0.8.0",
        "composed": True,
        "source": "cache",
        "stage": None,
        "error": None,
        "detail": "",
        "left_out": [],
    }
    return {**base, **changes}


REFUSED = (
    "ConfigCompositionException: Could not override 'actor_rollout_ref.rollout.skip.enable'. To append to your "
    "config use +actor_rollout_ref.rollout.skip.enable=True (ConfigKeyError: Key 'skip' is not in struct)"
)
SKIP = "actor_rollout_ref.rollout.skip.enable"


def removed_key() -> Finding:
    """KEY-001 as the schema rule says it of a key 0.9.0 removed."""
    had = msg("key.fate.had", span="verl 0.8.0")
    fate = msg("key.fate.removed", key=SKIP, version="0.9.0", target_version="0.9.1", why="", had=had)
    return Finding("KEY-001", Severity.ERROR, (SKIP,), fate, why("KEY-001"), (Fix({SKIP: None}, "remove"),))


def legacy_key() -> Finding:
    text = msg("key.legacy", key="reward_model.micro_batch_size", value="4")
    return Finding("KEY-003", Severity.WARNING, ("reward_model.micro_batch_size",), text, why("KEY-003"))


def plus_of_present_key() -> Finding:
    text = msg("fix.remove", key="trainer.val_before_train")
    return Finding("SCRIPT-005", Severity.ERROR, ("trainer.val_before_train",), text, why("SCRIPT-005"))


def global_micro_only() -> Finding:
    keys = {"global_key": "critic.ppo_micro_batch_size", "per_gpu_key": "critic.ppo_micro_batch_size_per_gpu"}
    text = msg("batch.micro_deprecated", role="critic", **keys)
    return Finding("BATCH-006", Severity.ERROR, (keys["per_gpu_key"],), text, why("BATCH-006"))


TREE_CASES = [
    ("release tree refuses to compose", "VERL-005", lambda tmp: judge_tree(facts(stage="compose", error=REFUSED))),
    (
        "release tree offline",
        "VERL-006",
        lambda tmp: judge_tree(facts(composed=False, source="snapshot", detail="No matching distribution")),
    ),
    (
        "release tree composed without an argument",
        "VERL-004",
        lambda tmp: judge_tree(facts(left_out=["trainer.nnodes=$NNODES"])),
    ),
    (
        "release has a key 0.9.1 removed",
        "VERL-007",
        lambda tmp: held_to_release([removed_key()], "0.8.0", frozenset({SKIP}), frozenset()),
    ),
    (
        "a + the release needs",
        "VERL-007",
        lambda tmp: held_to_release([plus_of_present_key()], "0.2.0", frozenset(), frozenset()),
    ),
    (
        "a global micro-batch size an old release divides",
        "VERL-007",
        lambda tmp: held_to_release([global_micro_only()], "0.7.1", frozenset(), frozenset()),
    ),
    (
        "a legacy key under another release",
        "KEY-003",
        lambda tmp: held_to_release([legacy_key()], "0.8.0", frozenset(), frozenset()),
    ),
]
