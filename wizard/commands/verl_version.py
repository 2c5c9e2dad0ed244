"""`--verl-version X` of `check` and `new`: verl X's own config tree, from its wheel, composed by Hydra itself.

The tree is fetched (or found in the cache) before the input is read, so that a release that does not exist is
exit 2 at once. Once the wizard's rules have run, the same question `--verl` would ask
(wizard.commands.verl_ask.question_for) is composed over that tree (wizard.detect.config.verl_tree); its verdict
becomes VERL-005/006 findings (wizard.core.rules.verl.tree), and under a release other than 0.9.1 the wizard's key
verdicts are held to that release's keys. Without the flag nothing here runs: no download, no Hydra.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from wizard.core.findings import Finding
from wizard.core.rules.verl.tree import KEY_RULES, accepted, held_to_release, judge_tree
from wizard.core.verl_target import TARGET_VERSION
from wizard.detect.config import verl_tree
from wizard.detect.config.verl_tree import Tree
from wizard.detect.env.verl_verdict import Question
from wizard.errors import UsageError
from wizard.i18n.text import Msg


def add_flag(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--verl-version",
        metavar="X",
        help="judge by verl release X's own config tree (taken once from its wheel into the cache, not installed), "
        "composed by Hydra itself; offline with no cached tree, the embedded 0.9.1 snapshot (said in a note)",
    )


def start(args: argparse.Namespace) -> Tree | None:
    """Release X's tree (None without the flag); UsageError for a release that does not exist or beside --verl."""
    value = getattr(args, "verl_version", None)
    if value is None:
        return None
    if getattr(args, "verl", None) is not None:
        raise UsageError("--verl-version and --verl: give one (--verl asks an installed verl, whatever its release)")
    return verl_tree.obtain(verl_tree.release(value))


def finish(
    tree: Tree | None, question_of: Callable[[], Question], findings: list[Finding], hold_keys: bool = True
) -> tuple[list[Finding], dict | None, list[Msg]]:
    """(the findings, the wizard's held to release X's keys unless not `hold_keys`, and the composition's added;
    the composition as data for JSON's `verl_tree`; notes), or the findings as they were without the flag."""
    if tree is None:
        return findings, None, []
    question = question_of()
    facts = verl_tree.compose(tree, question)
    held = hold_keys and facts["composed"] and tree.version != TARGET_VERSION
    if held and any(f.id in KEY_RULES for f in findings):
        keys, open_keys = verl_tree.tree_keys(tree, question.config_name)
        findings = held_to_release(findings, tree.version, keys, open_keys)
    note = accepted(facts)
    return [*findings, *judge_tree(facts, question.not_asked)], facts, [note] if note is not None else []
