"""The tables derived from the field declarations (the `Spec` of every field in wizard.core.answers.model).

An answer field is named `section.field` (`batch.train_batch_size`); a verl key is dotted
(`data.train_batch_size`). `--set`, fixes, configs read by `check` and the emitted config.yaml all speak
verl keys; answers files speak fields. Wizard-only fields (no verl key) are addressed by their field name.
"""

from __future__ import annotations

from functools import lru_cache

from wizard.core.answers.model import SECTIONS
from wizard.core.fields import Spec


@lru_cache(maxsize=1)
def specs() -> dict[str, Spec]:
    """`section.field` -> its declaration, for every answer field, in the model's order."""
    table = {}
    for section, model in SECTIONS.items():
        for name, info in model.model_fields.items():
            spec = next((m for m in info.metadata if isinstance(m, Spec)), None)
            if spec is None:
                raise TypeError(f"{section}.{name} has no Spec in its Annotated type (wizard.core.answers.model)")
            table[f"{section}.{name}"] = spec.named(f"{section}.{name}")
    return table


def spec_of(name: str) -> Spec | None:
    """The declaration of a field, by field name or verl key."""
    return specs().get(verl_to_field().get(name, name))


@lru_cache(maxsize=1)
def step_fields() -> dict[str, tuple[str, ...]]:
    """TUI step -> the fields it offers, in row order."""
    by_step: dict[str, list[Spec]] = {}
    for spec in specs().values():
        if spec.offered and spec.step is not None:
            by_step.setdefault(spec.step, []).append(spec)
    return {step: tuple(s.name for s in sorted(group, key=lambda s: s.row)) for step, group in by_step.items()}


@lru_cache(maxsize=1)
def field_to_verl() -> dict[str, str]:
    """`section.field` -> verl key, for every field that has one."""
    return {name: spec.verl for name, spec in specs().items() if spec.verl}


@lru_cache(maxsize=1)
def verl_to_field() -> dict[str, str]:
    return {key: field for field, key in field_to_verl().items()}


@lru_cache(maxsize=1)
def all_fields() -> tuple[str, ...]:
    return tuple(specs())


def wizard_only_fields() -> tuple[str, ...]:
    mapped = field_to_verl()
    return tuple(f for f in all_fields() if f not in mapped)


def canonical_address_of(name: str) -> str:
    """A verl key or field -> the field name when the key belongs to a field, else the name unchanged."""
    return verl_to_field().get(name, name)


def address_of(name: str) -> str:
    """The canonical address of a field or key: the verl key when the field has one, else the field."""
    return field_to_verl().get(name, name)


@lru_cache(maxsize=1)
def _docstrings() -> dict[str, str]:
    """`section.field` -> the docstring written under the field where its section is declared."""
    import ast
    import inspect
    import sys

    sections = {model.__name__: section for section, model in SECTIONS.items()}
    modules = dict.fromkeys(sys.modules[model.__module__] for model in SECTIONS.values())
    docs: dict[str, str] = {}
    for module in modules:
        for node in ast.parse(inspect.getsource(module)).body:
            if not isinstance(node, ast.ClassDef) or node.name not in sections:
                continue
            for stmt, after in zip(node.body, node.body[1:], strict=False):
                if (
                    isinstance(stmt, ast.AnnAssign)
                    and isinstance(stmt.target, ast.Name)
                    and isinstance(after, ast.Expr)
                    and isinstance(after.value, ast.Constant)
                    and isinstance(after.value.value, str)
                ):
                    docs[f"{sections[node.name]}.{stmt.target.id}"] = inspect.cleandoc(after.value.value)
    return docs


def field_help(name: str) -> str:
    """The user-facing help of a field (its docstring), by field name or verl key."""
    return _docstrings().get(verl_to_field().get(name, name), "")
