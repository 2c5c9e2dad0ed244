"""The typed answers model: everything the wizard asks, one field per question, each declared once.

A field is `name: Annotated[type, Spec(...)] = default`: pydantic's part is the type, the default and the
range (`Field(ge=..., le=...)`); the `Spec` (wizard.core.fields) holds the rest: the verl key, the TUI step
and row, the choices (an enum of wizard.core.choices), the unit and when the field is shown. Each field's
docstring is its user-facing help (read by wizard.core.field_keys.field_help from the source of the module that
declares the section, so that start-up does not pay for pydantic's docstring extraction). The sections are
declared one module per step: answers_models, answers_batch, answers_engine, answers_cluster, answers_deploy,
over answers_section's base; this module gathers them.

Fields with a verl key have verl 0.9.1's default, and `None` means "not set: verl's own default or
interpolation applies". Fields without one are the wizard's own (the deployment target, the data_source of
the rows). Any other verl key goes in `extra` and is passed through.

Who reads it: wizard.core.field_keys (the specs, verl key <-> field), wizard.core.layers (answers from presets,
files and flags), wizard.core.plan and the rules, the emitters, the TUI.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from wizard.core.answers.batch import Batch
from wizard.core.answers.cluster import Cluster, Trainer
from wizard.core.answers.deploy import Deploy
from wizard.core.answers.engine import Engine, Rollout
from wizard.core.answers.models import Algorithm, Data, Models
from wizard.core.answers.section import MAX_SIZE, Section

__all__ = [
    "MAX_SIZE",
    "SECTIONS",
    "Algorithm",
    "Answers",
    "Batch",
    "Cluster",
    "Data",
    "Deploy",
    "Engine",
    "Models",
    "Rollout",
    "Section",
    "Trainer",
]


SECTIONS: dict[str, type[Section]] = {
    "algorithm": Algorithm,
    "models": Models,
    "data": Data,
    "batch": Batch,
    "engine": Engine,
    "rollout": Rollout,
    "cluster": Cluster,
    "trainer": Trainer,
    "deploy": Deploy,
}


class Answers(BaseModel):
    """Every answer of one wizard session. `extra` holds any other verl key (dotted) and its value."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True)

    algorithm: Algorithm = Field(default_factory=Algorithm)
    models: Models = Field(default_factory=Models)
    data: Data = Field(default_factory=Data)
    batch: Batch = Field(default_factory=Batch)
    engine: Engine = Field(default_factory=Engine)
    rollout: Rollout = Field(default_factory=Rollout)
    cluster: Cluster = Field(default_factory=Cluster)
    trainer: Trainer = Field(default_factory=Trainer)
    deploy: Deploy = Field(default_factory=Deploy)
    extra: dict[str, Any] = Field(default_factory=dict)
    """Other verl keys, dotted, passed through to config.yaml unchanged (checked against verl's tree)."""
