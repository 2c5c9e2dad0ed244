"""One declaration per answer field: the `Spec` in its `Annotated` type in wizard.core.answers.model.

A spec says everything the rest of the wizard needs to know about a field besides its type, default and
range (pydantic's part): the verl key it maps onto, the TUI step and row that offer it (none: the TUI does
not), its choices as an enum of wizard.core.choices, its unit, when it is worth showing, and the catalogue
keys of its label and help. What is derived from it:

- wizard.core.field_keys: field <-> verl key, and the specs by name;
- validation of a wizard-only field's closed choices (`--set deploy.target=...`, answers files, TUI edits);
- the TUI's rows, their order, the step of every field and progressive disclosure (wizard.tui.steps,
  wizard.tui.widgets.field_row, wizard.tui.screens.base);
- docs/fields.md (scripts/write_field_docs.py) and the Chinese labels and help (keyed by `label_key` and
  `help_key` in the zh catalogue).

A field's English help is its docstring in its wizard.core.answers module; its English label is its `title` (plain words; the
verl key is shown in its help), else its name with spaces.
Imports only the standard library (and pydantic-core, when pydantic builds the model).
"""

from __future__ import annotations

import typing
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any

from wizard.core.choices import Target, values
from wizard.core.step_names import FIELD_STEPS
from wizard.core.verl_roles import need_critic

Condition = Callable[[Any], bool]  # answers -> whether the field can matter for them


@dataclass(frozen=True)
class Spec:
    """What one answer field is, besides its type and range. `name` is filled in by wizard.core.field_keys."""

    verl: str | None = None  # the dotted verl key; None: a wizard-only answer
    step: str | None = None  # the TUI step that offers it; None: not offered (set it with --set or a file)
    row: int = 0  # its place on that step
    choices: type[Enum] | None = None  # the closed set of values (wizard.core.choices)
    unit: str | None = None  # what the number counts (prompts, tokens, GiB, ...)
    when: Condition | None = None  # shown only when this holds for the answers; None: always
    title: str = ""  # the English label in plain words (every offered field has one); "": the name with spaces
    required: bool = False  # verl needs a value: emptying the field is an error (KEY-007), not the layer below
    name: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.step is not None and self.step not in FIELD_STEPS:
            raise ValueError(f"{self.verl or 'field'}: step {self.step!r} is not one of {FIELD_STEPS}")

    @property
    def offered(self) -> bool:
        """Whether the TUI offers the field (on `step`)."""
        return self.step is not None

    @property
    def enforced(self) -> bool:
        """Whether a value outside `choices` is refused as bad input.

        Only for the wizard's own answers: a verl key's bad value is a finding (KEY-004), which `check`
        must be able to report for configs written by hand.
        """
        return self.choices is not None and self.verl is None

    @property
    def choice_values(self) -> tuple[str, ...]:
        return values(self.choices) if self.choices else ()

    @property
    def label_key(self) -> str:
        return f"field.{self.name}"

    @property
    def help_key(self) -> str:
        return f"field.{self.name}.help"

    @property
    def label(self) -> str:
        """The English label: its title, else the field's name with spaces."""
        return self.title or self.name.partition(".")[2].replace("_", " ")

    def shown_for(self, answers: Any) -> bool:
        return self.when is None or bool(self.when(answers))

    def named(self, name: str) -> Spec:
        return replace(self, name=name)

    def __get_pydantic_core_schema__(self, source: Any, handler: Any) -> Any:
        # pydantic asks every Annotated metadata object for its schema: a wizard-only choice field accepts
        # its choices alone (pydantic words the error: "input should be 'local', 'ray-job', ...").
        schema = handler(source)
        if not self.enforced:
            return schema
        from pydantic_core import core_schema

        literal = core_schema.literal_schema(list(self.choice_values))
        return core_schema.nullable_schema(literal) if type(None) in typing.get_args(source) else literal


# -- when a field is shown (progressive disclosure) --------------------------------------------------
def needs_critic(answers: Any) -> bool:
    return need_critic(answers)


def with_reward_model(answers: Any) -> bool:
    return answers.models.reward_model_enable


def with_split_pools(answers: Any) -> bool:
    return answers.cluster.trainer_mode == "separate_async"


def on_megatron(answers: Any) -> bool:
    return answers.engine.strategy == "megatron"


def on_fsdp(answers: Any) -> bool:
    return answers.engine.strategy != "megatron"


def fixed_micro_batches(answers: Any) -> bool:
    return not answers.batch.use_dynamic_bsz


def dynamic_batches(answers: Any) -> bool:
    return answers.batch.use_dynamic_bsz


def with_kl_loss(answers: Any) -> bool:
    return answers.algorithm.use_kl_loss


def with_kl_in_reward(answers: Any) -> bool:
    return answers.algorithm.use_kl_in_reward


def with_lora(answers: Any) -> bool:
    return answers.models.lora_rank > 0


@dataclass(frozen=True)
class OnTargets:
    """Shown for these deployment targets only (a class, not a lambda, so that docs can name them)."""

    targets: tuple[str, ...]

    def __call__(self, answers: Any) -> bool:
        return answers.deploy.target in self.targets

    @property
    def __name__(self) -> str:  # what docs/fields.md prints
        return "target in " + ", ".join(self.targets)


def on_targets(*targets: str) -> OnTargets:
    unknown = set(targets) - set(values(Target))
    if unknown:
        raise ValueError(f"not deployment targets: {sorted(unknown)}")
    return OnTargets(targets)


def condition_text(when: Condition | None) -> str:
    """A condition as docs/fields.md says it."""
    if when is None:
        return "always"
    return getattr(when, "__name__", repr(when)).replace("_", " ")
