"""The rule catalogue's entries for the schema (KEY-*): each rule's id, severity, one-line title and the
reason it exists, in id order. wizard.core.rules.catalogue collects them into CATALOGUE.
"""

from __future__ import annotations

ENTRIES = [
    (
        "KEY-001",
        "error",
        "A key verl does not have",
        "Hydra accepts unknown keys inside a config file without a word, so a typo silently leaves verl's default in force.",
    ),
    (
        "KEY-002",
        "error",
        "A mandatory value is missing",
        "verl 0.9 has no default for actor_rollout_ref.rollout.name (and for the reward model's rollout name when it is on) and stops with MissingMandatoryValue.",
    ),
    (
        "KEY-003",
        "warning",
        "A key verl parses but ignores",
        "verl 0.9 keeps the old top-level reward_model.*, custom_reward_function.* and sandbox_fusion.* in its schema but no longer reads them, and a key an older verl had that a launch script adds with + (outside the sections verl builds into config classes) is composed and never read: the setting has no effect.",
    ),
    (
        "KEY-004",
        "error",
        "A value outside the allowed set",
        "verl looks these names up in registries or validates them in its config dataclasses and stops at start-up (or at the first worker) when they are unknown.",
    ),
    (
        "KEY-005",
        "error",
        "A combination of values verl rejects at start-up",
        "verl's start-up validation refuses sampling-based validation with a rollout temperature of 0.",
    ),
    (
        "KEY-006",
        "error",
        "A value typed into a field that is not valid for it",
        "The wizard writes what its fields show: a value it cannot take (text in a number field, a batch size of 0) is not written, and the old value is not written in its place either; the files wait until the field holds a valid value.",
    ),
    (
        "KEY-007",
        "error",
        "A field verl needs was emptied",
        "An emptied field is shown empty, and the wizard does not quietly write the preset's value instead; verl needs this value (the actor model, the train batch size), so the files wait until it is set again.",
    ),
    (
        "KEY-008",
        "error",
        "A legacy key asks for a feature verl leaves off",
        "verl 0.9.1's main_ppo reads the reward model's switch only at reward.reward_model.enable; the top-level reward_model.enable=True is composed and ignored (only the fully-async entry point moves legacy reward keys), so the run trains without the reward model it asks for.",
    ),
]
