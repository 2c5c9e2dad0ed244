"""A rule declared once, beside its logic: `@rule` on the function that emits it, `make_finding` to make its findings.

    @rule("BATCH-099", Severity.ERROR, title="...", why="...")
    def check_mini_le_train(ctx: RuleContext) -> Iterator[Finding]:
        yield make_finding("BATCH-099", [M_KEY], msg(...), fixes)

`@rule` on a function of an engine module (wizard.core.rules.registry) makes it a rule the engine runs; a
function that emits several ids carries one decorator per id, and `@rule_for("ID", ...)` says it emits ids
declared elsewhere (by another rule, or by the helpers that make them). `@emits` declares an id on a helper or
on code the engine does not run (doctor, preflight, check --verl); `declare` declares one beside code
outside wizard.core.rules that makes it. The catalogue (wizard.core.rules.catalogue) is built from these
declarations, and a finding takes its severity and reason from its id's unless its rule deliberately emits
the id at another severity.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from wizard.core.findings import Finding, Fix, Severity
from wizard.i18n.text import Msg

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class RuleDoc:
    """One rule id's declaration: severity, one-line title, the reason it exists (what `explain` prints)."""

    id: str
    severity: str
    title: str
    why: str
    # "run": about the run the files describe; "machine": about the machine the wizard runs on (only the TUI
    # gathers those facts), so the written files leave such findings out and every door writes the same bytes.
    about: str = "run"


DECLARED: dict[str, RuleDoc] = {}
_ENGINE_RULES: dict[str, list[Callable[..., Any]]] = {}  # module name -> its @rule functions, in definition order
_IDS: dict[Callable[..., Any], list[str]] = {}  # a @rule function -> the ids it emits


def declare(rule_id: str, severity: Severity, *, title: str, why: str, about: str = "run") -> RuleDoc:
    """Declare a rule id (once: a second declaration of one id is a programming error)."""
    if rule_id in DECLARED:
        raise ValueError(f"{rule_id} is declared twice")
    doc = RuleDoc(rule_id, Severity(severity).value, title, why, about)
    DECLARED[rule_id] = doc
    return doc


def rule(rule_id: str, severity: Severity, *, title: str, why: str, about: str = "run") -> Callable[[F], F]:
    """Declare an id on the engine rule that emits it (and make the function one of its module's rules)."""
    declare(rule_id, severity, title=title, why=why, about=about)
    return rule_for(rule_id)


def rule_for(*rule_ids: str) -> Callable[[F], F]:
    """Make the function an engine rule that emits these ids, declared elsewhere (by its helpers, another rule)."""

    def mark(function: F) -> F:
        # Decorators apply bottom-up: the first one applied registers the function, in definition order.
        if function not in _IDS:
            _ENGINE_RULES.setdefault(function.__module__, []).append(function)
            _IDS[function] = []
        _IDS[function][:0] = rule_ids
        return function

    return mark


def emits(rule_id: str, severity: Severity, *, title: str, why: str, about: str = "run") -> Callable[[F], F]:
    """Declare an id on the helper (or the code outside the engine) that makes its findings."""
    declare(rule_id, severity, title=title, why=why, about=about)

    def mark(function: F) -> F:
        return function

    return mark


def rules_in(module_name: str) -> list[Callable[..., Any]]:
    """The module's engine rules (its @rule functions), in definition order."""
    return list(_ENGINE_RULES.get(module_name, ()))


def ids_of(function: Callable[..., Any]) -> tuple[str, ...]:
    """The ids an engine rule says it emits."""
    return tuple(_IDS.get(function, ()))


def families_in(module_name: str) -> tuple[str, ...]:
    """The id prefixes the module's engine rules emit (the fix checks re-run only a finding's family)."""
    ids = (rule_id for function in rules_in(module_name) for rule_id in ids_of(function))
    return tuple(dict.fromkeys(rule_id.split("-")[0] for rule_id in ids))


def why(rule_id: str) -> str:
    """The reason a declared rule exists."""
    return DECLARED[rule_id].why


def make_finding(rule_id: str, paths: Iterable[str], message: str | Msg, fixes: Iterable[Fix] = ()) -> Finding:
    """A finding of a declared rule, at its declared severity and with its reason."""
    doc = DECLARED[rule_id]
    return Finding(rule_id, Severity(doc.severity), tuple(paths), message, doc.why, tuple(fixes))
