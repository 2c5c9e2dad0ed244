"""The rule catalogue's entries for the verdict of the verl installed for an interpreter (VERL-*): `check --verl`.

Each entry: id, severity, one-line title, the reason it exists. wizard.core.rules.catalogue collects them.
"""

from __future__ import annotations

ENTRIES = [
    (
        "VERL-001",
        "error",
        "The verl that runs refuses to compose the config",
        "--verl asks the verl installed for that interpreter (any release, fork or checkout) to compose the config with its own Hydra config tree, as python -m verl.trainer.main_ppo does; a key or config group that release lacks, or a value Hydra cannot merge, stops the run before anything starts. The finding quotes verl's own error and names the release.",
    ),
    (
        "VERL-002",
        "error",
        "The verl that runs refuses the config in its start-up checks",
        "Before Ray starts, main_ppo runs validate_config (the batch split over the GPUs, the micro batch settings, the critic's chain) and its TaskRunner resolves every interpolation; what they raise stops the run before any worker starts. The finding quotes verl's own message and names the release.",
    ),
    (
        "VERL-003",
        "error",
        "The verl that runs gave no verdict",
        "verl is asked in a child process of that interpreter with a deadline (--timeout); a verl that hangs, fails on import or answers garbage gives no verdict, and would not start the run either.",
    ),
    (
        "VERL-004",
        "warning",
        "verl's verdict is partial",
        "verl was asked without something the run gives it: an argument whose value is unknown here (verl composes its own value instead), a --config-path folder that is not on this machine, or a check that needs an engine not installed here (vLLM for the LoRA rank); the wizard's own rules still judge the rest.",
    ),
]
