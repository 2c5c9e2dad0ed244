"""What the rules read of the facts detect gathers, as Protocols: core may not import detect.

`LaunchScriptFacts` is what the script and schema rules read of wizard.detect.script.launch.LaunchScript (its
overrides, the problems the reader found, config-group choices, the primary config it names); `DataReport`
what the data rules read of wizard.detect.data.report.DataReport (`files`: each configured path's report,
duck-typed as wizard.core.rules.data.columns describes it).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Protocol

from wizard.i18n.text import Msg


class ScriptOverride(Protocol):
    """One `key=value` argument of the verl command, with its Hydra prefix and line."""

    @property
    def key(self) -> str: ...
    @property
    def raw_value(self) -> str: ...
    @property
    def value(self) -> Any: ...
    @property
    def prefix(self) -> str: ...
    @property
    def line(self) -> int: ...


class ScriptProblemFacts(Protocol):
    """A shell- or Hydra-level problem the reader found."""

    @property
    def kind(self) -> str: ...
    @property
    def line(self) -> int: ...
    @property
    def message(self) -> str | Msg: ...
    @property
    def key(self) -> str | None: ...


class ScriptChoice(Protocol):
    """A config-group choice on the command line (`model_engine=megatron`)."""

    @property
    def group(self) -> str: ...
    @property
    def option(self) -> str: ...
    @property
    def line(self) -> int: ...


class LaunchScriptFacts(Protocol):
    """The launch script `check` read."""

    @property
    def overrides(self) -> Sequence[ScriptOverride]: ...
    @property
    def problems(self) -> Sequence[ScriptProblemFacts]: ...
    @property
    def choices(self) -> Sequence[ScriptChoice]: ...
    @property
    def config_path(self) -> str | None: ...
    @property
    def config_name(self) -> str | None: ...
    @property
    def config_dir(self) -> str | None: ...


class DataReport(Protocol):
    """The data report: each configured path's file report."""

    @property
    def files(self) -> Mapping[str, Any]: ...
