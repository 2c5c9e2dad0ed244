"""`--set key=value` flags, as `new` and `check` read them."""

from __future__ import annotations

import re
from typing import Any

# doctor's and preflight's --timeout read seconds as --verl's does (declared in the light verl_flags)
from wizard.commands.verl_flags import seconds as seconds
from wizard.core.layers import check_address
from wizard.detect.script.hydra_values import parse_override_value
from wizard.errors import UsageError

PAIR_LISTS = ("deploy.env", "deploy.node_selector")  # answers that are lists of NAME=value items


def parse_set_flags(items: list[str] | None) -> dict[str, Any]:
    """`--set key=value` as a launch script writes it (a leading + is accepted) -> verl keys/addresses."""
    values: dict[str, Any] = {}
    for item in items or []:
        key, sep, raw = item.partition("=")
        key = key.strip().lstrip("+")
        if not sep or not key:
            raise UsageError(f"--set {item}: expected dotted.key=value, e.g. --set actor_rollout_ref.rollout.n=8")
        check_address(key)
        if key in PAIR_LISTS and not raw.lstrip().startswith(("[", "'", '"')):
            if re.search(r",\s*[A-Za-z_][A-Za-z0-9_.\-/]*=", raw):  # FOO=1,BAR=2: two items, or one value with a comma?
                raise UsageError(
                    f"--set {key}={raw}: one NAME=value per --set, or a list: --set \"{key}=['A=1','B=2']\""
                )
            values[key] = raw  # one NAME=value item: `--set deploy.env=FOO=1`
            continue
        try:
            values[key] = parse_override_value(raw)
        except ValueError as exc:
            raise UsageError(f"--set {key}: {exc}") from None
    return values


def parse_env_flags(items: list[str] | None) -> dict[str, str]:
    """`--env NAME=VALUE` (the environment a launch script is read in) -> {NAME: VALUE}."""
    import re

    env: dict[str, str] = {}
    for item in items or []:
        name, sep, value = item.partition("=")
        if not sep or not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
            raise UsageError(f"--env {item}: expected NAME=VALUE with a shell variable name, e.g. --env WORLD_SIZE=2")
        env[name] = value
    return env
