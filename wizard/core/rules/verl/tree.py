"""VERL-005..007: `--verl-version X`, the verdict of verl X's own config tree (taken from its wheel) composed by Hydra,
as findings; and the wizard's 0.9.1 key rules held to the keys that release has.

The verdict is plain data (wizard.detect.config.verl_tree.compose): the release, whether its tree was here to
compose, and Hydra's or OmegaConf's own words when it refused. The findings quote them and say that verl was not
imported: this is composition alone, not verl's start-up checks (that is `--verl PYTHON`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from wizard.core.findings import Finding, Severity
from wizard.core.rules.declare import emits, make_finding
from wizard.core.verl_target import TARGET_VERSION
from wizard.i18n.text import Msg, msg

PATHS = ("--verl-version",)
# The rules that judge a key by verl 0.9.1's schema alone (wizard.core.rules.schema.keys, script.launch): whether
# 0.9.1 has the key (HELD: no error where the release has it), and what 0.9.1 does with it or with its + (SAID).
HELD = ("KEY-001", "KEY-003", "SCRIPT-006")
SAID = ("KEY-008", "SCRIPT-005", "SCRIPT-007", "SCRIPT-008", "BATCH-006")
KEY_RULES = HELD + SAID
# verl's FSDP and Megatron workers divided a global micro-batch size (ppo_micro_batch_size, ...) by the GPUs and
# used it as the per-GPU size up to 0.7.x; 0.8.0 moved the sizes into config classes whose engines read only the
# per-GPU form. Before this release, BATCH-006's "only the deprecated global size is set" is no error.
GLOBAL_MICRO_READ_BEFORE = (0, 8)


def who(facts: Mapping[str, Any]) -> Msg:
    """verl X's config tree, from where, and that verl was not imported."""
    return msg("verl_tree.who", version=facts["version"])


@emits(
    "VERL-005",
    Severity.ERROR,
    title="The config tree of the verl release named by --verl-version refuses to compose the config",
    why="--verl-version X takes verl X's own config tree (verl/trainer/config) from that release's wheel and composes the config with Hydra itself, as python -m verl.trainer.main_ppo does, without installing or importing verl; a key or config group that release lacks, or a value Hydra cannot merge, stops that release's run before anything starts. The finding quotes Hydra's and OmegaConf's own words.",
)
@emits(
    "VERL-006",
    Severity.INFO,
    title="No config tree of the verl release named by --verl-version here: judged by the embedded 0.9.1 snapshot",
    why="The tree of a release is downloaded once (pip download of its wheel) and kept in the wizard's cache; offline with no cached tree there is nothing to compose, so the wizard judges the keys against its embedded verl 0.9.1 snapshot, as it does without the flag, and says so.",
)
@emits(
    "VERL-007",
    Severity.INFO,
    title="A verdict of the wizard's verl 0.9.1 rules that the release named by --verl-version does not share",
    why="The wizard's key rules know verl 0.9.1's schema; a key that 0.9.1 removed or renamed, but that the release the run uses still has, is no error for that release, nor is a +key for a key that release lacks (0.9.1 has it), nor a global micro-batch size alone under a release whose workers still divide it by the GPUs (up to 0.7). The finding says what 0.9.1 made of it (from the wizard's key history), for the day the run moves to 0.9.1.",
)
def judge_tree(facts: Mapping[str, Any], not_asked: Msg | None = None) -> list[Finding]:
    """The findings of one composition (none when the release's tree composed the config with everything given)."""
    if not facts.get("composed"):
        if not_asked is not None:
            return [make_finding("VERL-004", PATHS, not_asked)]
        text = msg("verl_tree.offline", version=facts["version"], target=TARGET_VERSION, detail=facts.get("detail"))
        return [make_finding("VERL-006", PATHS, text)]
    findings = []
    if facts.get("stage") == "compose":
        findings.append(
            make_finding("VERL-005", PATHS, msg("verl_tree.refuses", tree=who(facts), error=facts["error"]))
        )
    if facts.get("left_out"):
        text = msg("verl_tree.left_out", tree=who(facts), arguments=list(facts["left_out"]))
        findings.append(make_finding("VERL-004", PATHS, text))
    return findings


def accepted(facts: Mapping[str, Any]) -> Msg | None:
    """The note of a tree that composed the config (None otherwise)."""
    if not facts.get("composed") or facts.get("stage"):
        return None
    return msg("verl_tree.accepts", tree=who(facts))


def held_to_release(
    findings: Iterable[Finding], version: str, keys: frozenset[str] | None, open_keys: frozenset[str]
) -> list[Finding]:
    """The wizard's findings under release `version` (not 0.9.1): a KEY-001/KEY-003/SCRIPT-006 of a key that
    release's tree has (`keys`, or below one of `open_keys`, mappings that take any key), a SCRIPT-005 `+key` of a
    key it lacks (the + is right there), and a BATCH-006 global-only micro-batch size under a release whose workers
    read it, become VERL-007 notes carrying what 0.9.1 made of them; the other verdicts by 0.9.1's schema say that
    they are 0.9.1's (the release's own composition, VERL-005, says what Hydra makes of the overrides there).
    `keys` None: the release's keys are not known (its compose refused), so only the BATCH-006 note applies."""
    held = []
    for finding in findings:
        if finding.id not in KEY_RULES:
            held.append(finding)
            continue
        why_not = _not_in_release(finding, version, keys, open_keys)
        if why_not is None:
            text = msg("verl_tree.as_of_target", was=finding.message, target=TARGET_VERSION, version=version)
            held.append(replace(finding, message=text))
        else:
            held.append(
                make_finding("VERL-007", finding.paths, msg("verl_tree.then", text=why_not, was=finding.message))
            )
    return held


def _not_in_release(
    finding: Finding, version: str, keys: frozenset[str] | None, open_keys: frozenset[str]
) -> Msg | None:
    """Why a 0.9.1 key verdict does not hold under the release (the start of its VERL-007 note), or None."""
    global_key = _global_micro_read(finding, version)
    if global_key is not None:
        return msg("verl_tree.global_micro_in_release", key=global_key, version=version)
    if keys is None:
        return None
    key = finding.paths[0] if finding.paths else ""
    if finding.id in HELD and all(_has(p, keys, open_keys) for p in finding.paths):
        return msg("verl_tree.key_in_release", key=key, version=version, target=TARGET_VERSION)
    if finding.id == "SCRIPT-005" and not any(_has(p, keys, open_keys) for p in finding.paths):
        return msg("verl_tree.added_in_release", key=key, version=version, target=TARGET_VERSION)
    return None


def held_to_installed(findings: list[Finding], facts: Mapping[str, Any]) -> list[Finding]:
    """The wizard's findings under `--verl PY` when PY's verl is another release than 0.9.1: held to that release
    as `held_to_release` holds them, with the keys its own compose showed it has. Hydra overrides only keys that
    exist, so once that verl composed the run, every key the run sets without a + is one of its keys (and a +key
    one it lacks); when it refused or was not asked, the verdicts by 0.9.1's schema only say that they are 0.9.1's.
    Unchanged for 0.9.1, for a verl whose release is unknown, and when no key rule spoke."""
    version = str(facts.get("version") or "")
    if not release_numbers(version) or version == TARGET_VERSION or not any(f.id in KEY_RULES for f in findings):
        return findings
    keys = frozenset(_set_keys(facts.get("overrides", ()))) if "compose" in facts.get("checks", ()) else None
    return held_to_release(findings, version, keys, frozenset())


def _set_keys(overrides: Iterable[str]) -> Iterable[str]:
    """The key of each `key=value` override given to verl without a prefix (no +, ++ or ~)."""
    for override in overrides:
        key, eq, _ = override.partition("=")
        if eq and not key.startswith(("+", "~")):
            yield key


def _global_micro_read(finding: Finding, version: str) -> str | None:
    """The global key of a BATCH-006 of a role that sets only the global micro-batch size, under a release whose
    workers read it; None otherwise."""
    message = finding.message
    if finding.id != "BATCH-006" or not isinstance(message, Msg) or message.key != "batch.micro_deprecated":
        return None
    return str(message.args["global_key"]) if release_numbers(version) < GLOBAL_MICRO_READ_BEFORE else None


def release_numbers(version: str) -> tuple[int, ...]:
    """The leading numbers of a release (`0.3.0.post1` -> (0, 3, 0)), for comparing releases."""
    numbers = []
    for part in version.split("."):
        digits = part[: len(part) - len(part.lstrip("0123456789"))] if part else ""
        if not digits:
            break
        numbers.append(int(digits))
        if len(digits) != len(part):
            break
    return tuple(numbers)


def _has(key: str, keys: frozenset[str], open_keys: frozenset[str]) -> bool:
    if key in keys:
        return True
    parts = key.split(".")
    return any(".".join(parts[:n]) in open_keys for n in range(1, len(parts)))
