"""Unknown values (core.unknowns): a rule that reads one is skipped, every other rule still runs."""

from __future__ import annotations

from tests.conftest import BASE
from wizard.core.layers import build
from wizard.core.rules import context_for, evaluate
from wizard.core.unknowns import ARGS, COMMAND, ENV, Origin, Unknowns, notes

NNODES = "trainer.nnodes"


def run(values: dict, unknown: dict | None = None):
    layered = build([("test", values)])
    unknowns = Unknowns(dict(unknown or {}))
    ctx = context_for(layered.answers, layered.flat, mode="cluster", unknowns=unknowns or None)
    return evaluate(ctx), unknowns


def ids(findings) -> set[str]:
    return {f.id for f in findings}


# B·n = 50 × 4 = 200 responses split over 8 GPUs (one node) but not over 16 (two nodes)
UNEVEN = {
    **BASE,
    "data.train_batch_size": 50,
    "actor_rollout_ref.actor.ppo_mini_batch_size": 10,
    "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu": 5,
}


def test_a_rule_that_reads_an_unknown_key_is_skipped_though_its_paths_are_other_keys():
    # BATCH-001's paths are the batch keys, yet it reads trainer.nnodes (through the plan's GPU count)
    two_nodes, _ = run({**UNEVEN, NNODES: 2})
    one_node, _ = run(UNEVEN)
    assert "BATCH-001" not in ids(one_node)  # what the layer below (one node) would say
    assert "BATCH-001" in ids(two_nodes)
    assert NNODES not in next(f for f in two_nodes if f.id == "BATCH-001").paths
    # the script sets nnodes from $WORLD_SIZE: the layer below (here 2 nodes) stays, and is not judged
    skipped, unknowns = run({**UNEVEN, NNODES: 2}, {NNODES: frozenset({Origin(ENV, "WORLD_SIZE")})})
    assert "BATCH-001" not in ids(skipped)
    assert "BATCH-001" in unknowns.skipped[NNODES]


def test_rules_that_do_not_read_it_still_run():
    bad = {**BASE, "actor_rollout_ref.actor.ppo_mini_batch_size": 128}  # m > B: BATCH-002 reads no node count
    found, unknowns = run({k: v for k, v in bad.items() if k != NNODES}, {NNODES: frozenset({Origin(ENV, "N")})})
    assert "BATCH-002" in ids(found) and "KEY-002" not in ids(found)
    assert "BATCH-002" not in unknowns.skipped.get(NNODES, set())
    # the rollout name is read by KEY-002, not by the rules about the node count
    found, _ = run({k: v for k, v in BASE.items() if k != "actor_rollout_ref.rollout.name"}, {NNODES: frozenset()})
    assert "KEY-002" in ids(found)


def test_no_unknowns_is_the_plain_evaluation():
    plain, _ = run(UNEVEN)
    same, unknowns = run(UNEVEN, {})
    assert [f.id for f in plain] == [f.id for f in same] and unknowns.skipped == {}


def test_a_fix_is_still_checked_with_the_unknown_rules_skipped():
    # BATCH-002's fix (mini = B) is kept: the rules skipped for the unknown key do not judge it either
    bad = {k: v for k, v in {**BASE, "actor_rollout_ref.actor.ppo_mini_batch_size": 128}.items() if k != NNODES}
    found, _ = run(bad, {NNODES: frozenset({Origin(ENV, "N")})})
    fix = next(f for f in found if f.id == "BATCH-002")
    assert fix.fixes and fix.fixes[0].set == {"actor_rollout_ref.actor.ppo_mini_batch_size": 64}


def test_one_note_per_origin_names_the_keys_the_rules_and_how_to_give_it():
    without = {k: v for k, v in UNEVEN.items() if k not in (NNODES, "trainer.n_gpus_per_node")}
    world, tp = Origin(ENV, "WORLD_SIZE"), Origin(ARGS, "1")
    cmd = Origin(COMMAND, "nvidia-smi -L | wc -l", "NGPUS")
    _, unknowns = run(
        without,
        {
            NNODES: frozenset({world}),
            "trainer.n_gpus_per_node": frozenset({cmd}),
            "trainer.total_epochs": frozenset({tp}),
        },
    )
    fed = {world: [NNODES], cmd: ["trainer.n_gpus_per_node"], tp: ["trainer.total_epochs"], Origin(ARGS, "#"): []}
    texts = [str(n) for n in notes(unknowns, fed)]
    assert len(texts) == 3  # the script's arguments together
    env_note = next(t for t in texts if "$WORLD_SIZE" in t)
    assert "trainer.nnodes is unknown" in env_note and "BATCH-001" in env_note and "--env WORLD_SIZE=" in env_note
    cmd_note = next(t for t in texts if "nvidia-smi" in t)
    assert "--env NGPUS=" in cmd_note
    args_note = next(t for t in texts if "arguments" in t)
    assert "$1" in args_note and "$#" in args_note and "after --" in args_note and "no rule reads it" in args_note


def test_skipped_rule_ids_are_listed_with_ranges():
    from wizard.core.unknowns import compact_ids

    assert compact_ids({"BATCH-001", "BATCH-004", "BATCH-005", "BATCH-006", "PLACE-002", "DEPLOY-014", "x"}) == [
        "BATCH-001",
        "BATCH-004..006",
        "DEPLOY-014",
        "PLACE-002",
        "x",
    ]
