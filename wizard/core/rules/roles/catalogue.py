"""The rule catalogue's entries for roles and models (ROLE-*): each rule's id, severity, one-line title and the
reason it exists, in id order. wizard.core.rules.catalogue collects them into CATALOGUE.
"""

from __future__ import annotations

ENTRIES = [
    (
        "ROLE-001",
        "error",
        "No actor model path",
        "verl falls back to its placeholder ~/models/deepseek-llm-7b-chat and fails to load it; the actor (and the reference, a copy of it) must come from a real checkpoint.",
    ),
    (
        "ROLE-002",
        "error",
        "A critic is needed and has no model path",
        "GAE (or critic.enable) builds a value model; without critic.model.path verl loads its placeholder path and the run dies after the workers start.",
    ),
    (
        "ROLE-003",
        "warning",
        "Critic and reward model are the same checkpoint",
        "Initialising the value model from the reward model couples value and reward estimates; the usual choice is the actor's checkpoint.",
    ),
    (
        "ROLE-004",
        "error",
        "The reward model is not a sequence classifier with one label",
        "Without a custom reward function verl scores with the reward model as a discriminative one and reads one scalar per sequence; a causal LM or a multi-label head gives meaningless rewards (read from its config.json, or the catalogue).",
    ),
    (
        "ROLE-005",
        "error",
        "No source of reward",
        "With no reward model and no custom reward function, verl's built-in scorer picks a function by data_source and raises NotImplementedError for sources it does not know.",
    ),
    (
        "ROLE-006",
        "warning",
        "A critic is built but the estimator does not use it",
        "Only gae reads the critic's values; with another estimator the critic costs GPU memory and time for nothing.",
    ),
    (
        "ROLE-007",
        "error",
        "A model path verl cannot open",
        "verl does not expand ~ (it treats the path as a Hugging Face repo id) and a local path must exist on the machines that load it.",
    ),
    (
        "ROLE-008",
        "warning",
        "Actor and critic tokenizers differ, or the reward model has no tokenizer",
        "The critic reads the actor's token ids, which mean other tokens (or run past the embedding) under another vocabulary; verl 0.9 re-tokenizes for the reward model with the reward model's own tokenizer, so that folder must have one.",
    ),
    (
        "ROLE-009",
        "info",
        "The reference model is a frozen copy of the actor's start",
        "verl loads the reference from actor_rollout_ref.model.path as a separate frozen model (with LoRA: the base model with the adapter off); it costs memory but needs no path of its own.",
    ),
    (
        "ROLE-010",
        "error",
        "DAPO group filtering with a colocated reward model",
        "verl refuses algorithm.filter_groups with a reward model that shares the training GPUs: give the reward model its own pool.",
    ),
    (
        "ROLE-011",
        "warning",
        "The critic starts from a reward-model checkpoint",
        "verl loads the critic as a token classifier, so a reward model's scoring head becomes the initial value head: value and reward estimates start coupled (ROLE-003's sibling for a reward model that is not the configured one); the usual start is the actor's checkpoint.",
    ),
]
