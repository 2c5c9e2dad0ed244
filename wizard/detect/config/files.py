"""Read what `check` is given into flat verl keys: a wizard config.yaml, a run's composed config
(`.hydra/config.yaml`), an answers file, or a launch script calling `python -m verl.trainer.main_ppo`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from wizard.core import verl_schema
from wizard.core.answers.model import SECTIONS
from wizard.core.layers import ENGINE_GROUP, NOT_ANSWERS, flatten_answers_doc
from wizard.detect.config import yaml_input
from wizard.detect.config.basics import CheckInput, flatten_config, read_text
from wizard.detect.script.check_input import read_script_input
from wizard.errors import UsageError

_ESCAPED_INTERPOLATION = re.compile(r"(\\+)\$\{")


def omegaconf_text(value: Any) -> Any:
    """A string as OmegaConf reads it from YAML: `\\${` is a literal `${` (config.yaml escapes user text so)."""
    if isinstance(value, str) and "\\${" in value:
        return _ESCAPED_INTERPOLATION.sub(lambda m: "\\" * (len(m.group(1)) // 2) + "${", value)
    if isinstance(value, list):
        return [omegaconf_text(v) for v in value]
    if isinstance(value, dict):
        return {k: omegaconf_text(v) for k, v in value.items()}
    return value


def _engine_of_defaults(defaults: Any) -> str:
    for item in defaults if isinstance(defaults, list) else []:
        if isinstance(item, dict):
            for k, v in item.items():
                if str(k).replace("override", "").strip() == ENGINE_GROUP and v == "megatron":
                    return "megatron"
        elif isinstance(item, str) and item.strip() in ("ppo_megatron_trainer",):
            return "megatron"
    return "dp"


def read_yaml_config(path: Path, text: str) -> CheckInput:
    try:
        doc = yaml_input.load_config(text)
    except yaml_input.YAMLShapeError as exc:
        raise UsageError(f"{path}: {exc}") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f" at line {mark.line + 1}" if mark else ""
        raise UsageError(f"{path}: YAML syntax error{where}: {getattr(exc, 'problem', None) or exc}") from None
    if doc is None:
        raise UsageError(f"{path}: empty file; give a verl config, an answers file or a launch script")
    if not isinstance(doc, dict):
        raise UsageError(f"{path}: expected a mapping at the top level, got {type(doc).__name__}")
    keys = {str(k) for k in doc}
    if keys <= {*SECTIONS, "extra", *NOT_ANSWERS} and not _looks_like_verl(doc):
        return CheckInput("answers file", flatten_answers_doc(doc, str(path)))
    if "defaults" in doc or "hydra" in doc:
        engine = _engine_of_defaults(doc.get("defaults"))
        body = {k: v for k, v in doc.items() if k not in ("defaults", "hydra")}
        flat = {k: omegaconf_text(v) for k, v in flatten_config(body, engine).items()}
        if engine == "megatron":
            flat[ENGINE_GROUP] = "megatron"
        return CheckInput("wizard config", flat)
    actor = doc.get("actor_rollout_ref", {})
    strategy = (
        actor.get("actor", {}).get("strategy")
        if isinstance(actor, dict) and isinstance(actor.get("actor"), dict)
        else None
    )
    engine = "megatron" if strategy == "megatron" else "dp"
    full = {k: omegaconf_text(v) for k, v in flatten_config(doc, engine).items()}
    defaults = verl_schema.defaults(engine)
    flat = {k: v for k, v in full.items() if k not in defaults or defaults[k] != v}
    if engine == "megatron":
        flat[ENGINE_GROUP] = "megatron"
    kind = "composed config" if len(full) > 200 else "wizard config"
    return CheckInput(
        kind,
        flat,
        [f"read {len(full)} keys, {len(flat)} differ from verl's defaults"] if kind == "composed config" else [],
    )


def _looks_like_verl(doc: dict) -> bool:
    """Answers sections and verl sections share names (algorithm, data, trainer): tell them apart by fields."""
    for section, values in doc.items():
        model = SECTIONS.get(str(section))
        if model is None or not isinstance(values, dict):
            continue
        if any(str(k) not in model.model_fields for k in values):
            return True
    return False


def read_launch_script(
    path: Path, text: str, env: Mapping[str, str] | None = None, args: list[str] | None = None
) -> CheckInput:
    """A launch script read for `check` (see wizard.detect.script.check_input)."""
    return read_script_input(path, text, env, args)


def read_check_input(path: Path, env: Mapping[str, str] | None = None, args: list[str] | None = None) -> CheckInput:
    text = read_text(path)
    if path.suffix in (".sh", ".bash") or ("verl.trainer.main_ppo" in text and path.suffix not in (".yaml", ".yml")):
        return read_launch_script(path, text, env, args)
    return read_yaml_config(path, text)
