"""What every section of the answers shares: the base model (no boolean for a number), the size limits
and the conditions on the deployment target that decide which answers a target reads."""

from __future__ import annotations

from typing import Any, TypedDict, cast, get_args

from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator
from pydantic_core import PydanticCustomError

from wizard.core.choices import Target
from wizard.core.fields import (
    on_targets,
)
from wizard.core.targets import names_where
from wizard.core.text_chars import unholdable
from wizard.i18n.text import msg

MAX_SIZE = 1 << 24  # no real run has more prompts, tokens or GPUs than this per step


class SizeBounds(TypedDict):
    """The bounds of a size field, spread into pydantic's Field (typed so the checker matches its keywords)."""

    ge: int
    le: int


PositiveSize: SizeBounds = {"ge": 1, "le": MAX_SIZE}

# Which deployment answers each target reads (the Deployment step shows the chosen target's).
KUBE = on_targets(*names_where(lambda s: s.kubernetes))
KUBERAY = on_targets(*names_where(lambda s: s.kuberay))
RAYJOB = on_targets(Target.RAY_JOB.value)
SLURM = on_targets(Target.SLURM.value)
K8S_JOB = on_targets(Target.K8S_JOB.value)
REMOTE = on_targets(*names_where(lambda s: not s.runs_here))
LOCAL_SLURM = on_targets(Target.LOCAL.value, Target.SLURM.value)


def _members(annotation: Any) -> set[Any]:
    """The types a field's annotation allows: {int, NoneType} for int | None, {str} for str."""
    return set(get_args(annotation)) if get_args(annotation) else {annotation}


def _numeric_not_bool(annotation: Any) -> bool:
    """Whether a field's type takes numbers but not booleans (int, float, int | None, str | int, ...)."""
    members = _members(annotation)
    return bool(members & {int, float}) and bool not in members


def _text_only(annotation: Any) -> bool:
    """Whether a field's type is text alone (str, str | None): no number, no boolean, no fixed choices."""
    members = _members(annotation)
    return str in members and members <= {str, type(None)}


class Section(BaseModel):
    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_for_numbers(cls, value: Any, info: ValidationInfo) -> Any:
        """`true` is not 1: pydantic's lax mode would take a boolean for an integer or float field."""
        # a field validator's info always names its field
        if isinstance(value, bool) and _numeric_not_bool(cls.model_fields[cast(str, info.field_name)].annotation):
            raise PydanticCustomError("bool_for_number", str(msg("answers.bool_for_number")))
        return value

    @field_validator("*", mode="before")
    @classmethod
    def _number_as_text(cls, value: Any, info: ValidationInfo) -> Any:
        """A number or a boolean where text goes is its text: Hydra and YAML read `trainer.experiment_name=123` as a
        number, and verl takes it (that key has no type in its config) and writes it as Python's str() does, so a
        launch script, `--set` or an answers file saying so is no error."""
        if isinstance(value, (int, float)) and _text_only(cls.model_fields[cast(str, info.field_name)].annotation):
            return str(value)
        return value

    @field_validator("*", mode="before")
    @classmethod
    def _holdable_text(cls, value: Any) -> Any:
        """No answer holds a character that run.sh, a manifest or answers.yaml cannot carry (wizard.core.text_chars)."""
        char = unholdable(value)
        if char is not None:
            raise PydanticCustomError("unholdable_char", str(msg("value.unholdable", char=char)), {"char": char})
        return value
