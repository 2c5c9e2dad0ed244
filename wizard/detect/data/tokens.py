"""Prompt length in tokens, as verl measures it for filter_overlong_prompts, or an estimate.

verl counts `len(tokenizer.apply_chat_template(messages, add_generation_prompt=True, tokenize=True))`:
the chat template rendered with the generation prompt, then tokenized without adding special tokens.
`TokenCounter` does the same with a local tokenizer folder (tokenizer.json read by the `tokenizers`
library; the template from tokenizer_config.json or chat_template.jinja rendered by jinja2 the way
transformers renders it), so transformers is not needed. Without a tokenizer, `EstimateCounter` gives a
labelled estimate. Both count a batch of conversations at a time (None where the template fails).
"""

from __future__ import annotations

import json
import os
from datetime import datetime
from pathlib import Path
from typing import Any

from wizard.detect.data.rows import message_text
from wizard.i18n.text import msg

ESTIMATE_LABEL = msg("data.length.estimate")
SPECIAL_KEYS = ("bos_token", "eos_token", "unk_token", "pad_token", "sep_token", "cls_token", "mask_token")


class TokenizerError(Exception):
    """A tokenizer that cannot be used; one line naming the path and what is wrong."""


class EstimateCounter:
    """Characters-based estimate, clearly labelled: used when no tokenizer is given."""

    exact = False
    label = ESTIMATE_LABEL
    has_template = False

    def count_batch(self, conversations: list[list[dict]]) -> list[int | None]:
        return [estimate_tokens(c) for c in conversations]


def estimate_tokens(messages: list[dict]) -> int:
    """~4 ASCII characters per token and one token per other character, plus a few per message for the template."""
    total = 3
    for m in messages:
        text = message_text(m)
        ascii_chars = len(text) if text.isascii() else len(text.encode("ascii", "ignore"))
        total += 4 + (ascii_chars + 3) // 4 + (len(text) - ascii_chars)
    return total


class TokenCounter:
    """Token counts with a real tokenizer and its chat template (the count verl's filter uses)."""

    exact = True

    def __init__(
        self,
        tokenizer,
        template: str | None,
        specials: dict[str, str],
        source: str,
        template_kwargs: dict | None = None,
    ):
        self.tokenizer = tokenizer
        self.specials = specials
        self.template_kwargs = dict(template_kwargs or {})
        self.has_template = template is not None
        self._template = _compile(template) if template is not None else None
        self.label = msg(
            "data.length.tokenizer" if self.has_template else "data.length.tokenizer_no_template", source=source
        )
        self.last_error = ""

    def render(self, messages: list[dict]) -> str:
        if self._template is None:
            return "\n".join(message_text(m) for m in messages)
        return self._template.render(
            messages=messages,
            add_generation_prompt=True,
            tools=None,
            documents=None,
            **self.specials,
            **self.template_kwargs,
        )

    def count_batch(self, conversations: list[list[dict]]) -> list[int | None]:
        texts: list[str | None] = []
        self.last_error = ""
        for messages in conversations:
            try:
                texts.append(self.render(messages))
            except Exception as exc:  # noqa: BLE001 - a template's raise_exception, or a bad value: verl drops such a row
                texts.append(None)
                if not self.last_error:
                    text = str(exc).strip()
                    self.last_error = text.splitlines()[0][:160] if text else type(exc).__name__
        good = [t for t in texts if t is not None]
        encoded = iter(self.tokenizer.encode_batch(good, add_special_tokens=False)) if good else iter(())
        return [None if t is None else len(next(encoded).ids) for t in texts]


def _compile(template: str):
    try:
        from jinja2.exceptions import TemplateError
        from jinja2.ext import loopcontrols
        from jinja2.sandbox import ImmutableSandboxedEnvironment
    except ImportError:
        raise TokenizerError("applying a chat template needs jinja2: pip install jinja2") from None

    def raise_exception(message):
        raise TemplateError(message)

    def tojson(x, ensure_ascii=False, indent=None, separators=None, sort_keys=False):
        return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)

    env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols])
    env.filters["tojson"] = tojson
    env.globals["raise_exception"] = raise_exception
    env.globals["strftime_now"] = lambda fmt: datetime.now().strftime(fmt)
    try:
        return env.from_string(template)
    except TemplateError as exc:
        raise TokenizerError(f"the chat template does not compile ({exc})") from None


def find_tokenizer(spec: str) -> Path:
    """A tokenizer folder (or tokenizer.json) for `spec`: a local path, or a Hugging Face id already in the local cache."""
    path = Path(os.path.expanduser(spec))
    if path.is_file() and path.name == "tokenizer.json":
        return path.parent
    if path.is_dir():
        if (path / "tokenizer.json").is_file():
            return path
        raise TokenizerError(f"{spec}: no tokenizer.json in this folder (a fast tokenizer file is needed)")
    if path.exists():
        raise TokenizerError(f"{spec}: not a tokenizer folder or tokenizer.json")
    cached = _in_hf_cache(spec)
    if cached is not None:
        return cached
    if "/" in spec and not spec.startswith(("/", ".", "~")):
        raise TokenizerError(
            f"{spec}: not a local folder and not in the Hugging Face cache; download it first "
            f"(huggingface-cli download {spec} --include 'tokenizer*') or give its folder"
        )
    raise TokenizerError(f"{spec}: no such folder")


def _in_hf_cache(repo_id: str) -> Path | None:
    if repo_id.count("/") != 1:
        return None
    home = Path(
        os.environ.get("HF_HUB_CACHE") or Path(os.environ.get("HF_HOME", "~/.cache/huggingface")).expanduser() / "hub"
    )
    snapshots = home / f"models--{repo_id.replace('/', '--')}" / "snapshots"
    if not snapshots.is_dir():
        return None
    found = sorted((p for p in snapshots.glob("*/tokenizer.json")), key=lambda p: p.stat().st_mtime, reverse=True)
    return found[0].parent if found else None


def _read_json(path: Path) -> dict:
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise TokenizerError(f"{path}: unreadable ({str(exc).splitlines()[0][:120]})") from None
    return doc if isinstance(doc, dict) else {}


def _template_of(folder: Path, config: dict) -> str | None:
    jinja = folder / "chat_template.jinja"
    if jinja.is_file():
        return jinja.read_text(encoding="utf-8")
    template: Any = config.get("chat_template")
    if template is None and (folder / "chat_template.json").is_file():
        template = _read_json(folder / "chat_template.json").get("chat_template")
    if isinstance(template, list):  # named templates: transformers uses "default"
        named = {t.get("name"): t.get("template") for t in template if isinstance(t, dict)}
        template = named.get("default") or next(iter(named.values()), None)
    return template if isinstance(template, str) else None


def _specials(config: dict) -> dict[str, str]:
    out = {}
    for key in SPECIAL_KEYS:
        value = config.get(key)
        if isinstance(value, dict):
            value = value.get("content")
        if isinstance(value, str):
            out[key] = value
    return out


def load_counter(spec: str, template_kwargs: dict | None = None) -> TokenCounter:
    """A TokenCounter for a tokenizer folder, tokenizer.json, or cached Hugging Face id; raises TokenizerError."""
    try:
        from tokenizers import Tokenizer
    except ImportError:
        raise TokenizerError("counting tokens needs the tokenizers library: pip install tokenizers") from None
    try:
        return _load_counter(Tokenizer, spec, template_kwargs)
    except OSError as exc:  # an unreadable folder or Hugging Face cache on the way
        raise TokenizerError(f"{spec}: cannot be read ({exc.strerror or type(exc).__name__})") from None


def _load_counter(Tokenizer, spec: str, template_kwargs: dict | None) -> TokenCounter:
    folder = find_tokenizer(spec)
    file = folder / "tokenizer.json"
    try:
        tokenizer = Tokenizer.from_file(str(file))
    except Exception as exc:  # noqa: BLE001 - tokenizers raises its own untyped errors
        raise TokenizerError(
            f"{file}: not a tokenizer file ({str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__})"
        ) from None
    config = _read_json(folder / "tokenizer_config.json") if (folder / "tokenizer_config.json").is_file() else {}
    return TokenCounter(tokenizer, _template_of(folder, config), _specials(config), str(folder), template_kwargs)


def percentile(sorted_values: list[int], q: float) -> int | None:
    """The q-th percentile (0..100) of sorted values, nearest rank; None when empty."""
    if not sorted_values:
        return None
    rank = max(1, -(-len(sorted_values) * q // 100))
    return sorted_values[int(min(rank, len(sorted_values))) - 1]
