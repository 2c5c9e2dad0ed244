"""The property tests' shared key sequences (tests/key_sequences.py): the walk stays in Models..Deployment, a
driver with Enter draws the same sequences as one without (Enter takes some printable keys' places), the shrinker
finds a smaller failing sequence, and differences name each field that differs."""

from __future__ import annotations

import random

from tests.key_sequences import (
    BATCH,
    FIRST,
    LAST,
    PLAYWRIGHT,
    PRINTABLE,
    TMUX,
    differences,
    random_sequence,
    shrink,
    walked,
)

SEEDS = range(40)


def _run(keys, seed: int, sequences: int = 30) -> list[list[str]]:
    rng, step, drawn = random.Random(seed), BATCH, []
    for _ in range(sequences):
        sequence, step = random_sequence(rng, step, keys)
        drawn.append(sequence)
    return drawn


def test_the_step_keys_never_walk_out_of_models_to_deployment():
    for seed in SEEDS:
        rng, step = random.Random(seed), BATCH
        for _ in range(30):
            sequence, end = random_sequence(rng, step, PLAYWRIGHT)
            assert 3 <= len(sequence) <= 14
            assert end == walked(step, sequence, PLAYWRIGHT)
            at = step
            for key in sequence:
                at = walked(at, [key], PLAYWRIGHT)
                assert FIRST <= at <= LAST, (seed, sequence)
            step = end


def test_enter_takes_printable_places_and_leaves_every_other_draw_as_it_was():
    spelled = dict(zip(_fields(TMUX), _fields(PLAYWRIGHT), strict=True))
    enters = 0
    for seed in SEEDS:
        for plain, with_enter in zip(_run(TMUX, seed), _run(PLAYWRIGHT, seed), strict=True):
            assert len(plain) == len(with_enter)
            for a, b in zip(plain, with_enter, strict=True):
                if b == PLAYWRIGHT.enter:
                    assert a in PRINTABLE
                    enters += 1
                else:
                    assert b == spelled.get(a, a)
    assert "Enter" not in {key for seed in SEEDS for sequence in _run(TMUX, seed) for key in sequence}
    assert enters > 0


def _fields(keys) -> list[str]:
    return [keys.backspace, *keys.arrows, keys.tab, keys.backtab, keys.next_step, keys.prev_step]


def test_the_shrinker_keeps_what_makes_a_sequence_fail_and_counts_its_runs():
    runs: list[int] = []

    def fails(candidate: list[str], n: int) -> bool:
        runs.append(n)
        return "Tab" in candidate and "8" in candidate[candidate.index("Tab") :]

    assert shrink(["1", "Tab", "x", "BSpace", "8", "Left", "C-n"], fails, 50) == ["Tab", "8"]
    assert runs == list(range(len(runs)))
    assert shrink(["1", "2"], fails, 50) is None  # the neighbour: a sequence that does not fail alone
    runs.clear()
    # two tries: the first half dropped fails no more, the second half dropped still fails; then it stops
    assert shrink(["Tab", "8", *"abcdefgh"], fails, 2) == ["Tab", "8", "a", "b", "c"]
    assert runs == [0, 1, 2]


def test_differences_name_each_field_that_differs():
    burst = {"batch": {"train_batch_size": 32, "rollout_n": 8}, "version": 1}
    paced = {"batch": {"train_batch_size": 128, "rollout_n": 8}, "version": 1}
    assert differences(burst, paced) == ["batch.train_batch_size: burst 32, paced 128"]
    assert differences(paced, dict(paced)) == []
