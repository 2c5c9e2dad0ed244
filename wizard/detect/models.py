"""Read each role's model: its config.json and tokenizer from a local folder or the local Hugging Face cache.

Offline only: nothing is downloaded. A path is looked up, in order, as a local folder, as a hub id in the
local Hugging Face cache (`$HF_HUB_CACHE`, `$HF_HOME/hub` or `~/.cache/huggingface/hub`), and in the
catalogue of common hub models (wizard/core/model_catalogue.json). Every ModelFacts says which of these it
came from. `inspect_models(answers, mode)` is the inspector that `wizard.detect.facts.gather` calls.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from wizard.core.model_facts import CATALOGUE, HF_CACHE, LOCAL, ModelFacts, facts_from_config, from_catalogue

CONFIG_LIMIT = 4 << 20
TOKENIZER_LIMIT = 64 << 20
TOKENIZER_FILES = ("tokenizer.json", "tokenizer.model", "vocab.json", "tiktoken.model", "vocab.txt")


def model_inputs(answers, mode: str) -> tuple:
    """Everything inspect_models reads from the answers (a cache key)."""
    m = answers.models
    return (m.actor_path, m.critic_path, m.reward_model_enable, m.reward_model_path)


def inspect_models(answers, mode: str) -> dict[str, Any]:
    """{"models": {role: ModelFacts}} for the actor, the critic and the reward model, where they can be read."""
    m = answers.models
    wanted = {"actor": m.actor_path}
    if m.critic_path:
        wanted["critic"] = m.critic_path
    if m.reward_model_enable and m.reward_model_path:
        wanted["reward_model"] = m.reward_model_path
    found = {}
    for role, path in wanted.items():
        facts = read_model(path) if path else None
        if facts is not None:
            found[role] = facts
    return {"models": found}


def read_model(path: str) -> ModelFacts | None:
    """The facts of one model path, or None when neither a folder, the cache nor the catalogue knows it."""
    if not path or path.startswith("~") or "://" in path:
        return None  # ~ is ROLE-007's business; remote file systems are not read
    folder = Path(path)
    try:
        if folder.is_dir():
            return read_folder(folder, path, LOCAL)
    except (OSError, ValueError) as exc:  # an unenterable parent, a name over the system's limits
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else type(exc).__name__
        return ModelFacts(path=path, source=LOCAL, location=path, notes=(f"the folder cannot be read ({reason})",))
    if _looks_like_hub_id(path):
        try:
            snapshot = hub_cache_snapshot(path)
            if snapshot is not None:
                return read_folder(snapshot, path, HF_CACHE)
        except (OSError, ValueError):  # an unreadable Hugging Face cache is a cache that does not have it
            pass
        return from_catalogue(path)
    return None


def _looks_like_hub_id(path: str) -> bool:
    parts = path.split("/")
    return len(parts) == 2 and all(parts) and not path.startswith((".", "/"))


def hub_cache_dir() -> Path:
    if os.environ.get("HF_HUB_CACHE"):
        return Path(os.environ["HF_HUB_CACHE"])
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]) / "hub"
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "huggingface" / "hub"


def hub_cache_snapshot(model_id: str) -> Path | None:
    """The cached snapshot folder of a hub id that holds a config.json (the `main` ref first), or None."""
    repo = hub_cache_dir() / ("models--" + model_id.replace("/", "--"))
    snapshots = repo / "snapshots"
    if not snapshots.is_dir():
        return None
    ref = repo / "refs" / "main"
    if ref.is_file():
        candidate = snapshots / ref.read_text(encoding="utf-8").strip()
        if (candidate / "config.json").is_file():
            return candidate
    with_config = [d for d in snapshots.iterdir() if (d / "config.json").is_file()]
    return max(with_config, key=lambda d: d.stat().st_mtime) if with_config else None


def read_folder(folder: Path, path: str, source: str) -> ModelFacts | None:
    """Facts from a checkpoint folder; a folder without a readable config.json gives facts with a note only."""
    config_file = folder / "config.json"
    tokenizer = read_tokenizer(folder)
    if not config_file.is_file():
        return ModelFacts(
            path=path, source=source, location=str(folder), notes=("no config.json in the folder",), **tokenizer
        )
    try:
        if config_file.stat().st_size > CONFIG_LIMIT:
            raise ValueError("larger than 4 MiB")
        config = json.loads(config_file.read_text(encoding="utf-8"))
        if not isinstance(config, dict):
            raise ValueError("not a JSON object")
    except (OSError, ValueError) as exc:
        return ModelFacts(
            path=path, source=source, location=str(config_file), notes=(f"config.json unreadable: {exc}",), **tokenizer
        )
    facts = facts_from_config(config, path, source, str(config_file), **tokenizer)
    known = from_catalogue(path) if source != CATALOGUE else None
    if known is not None:  # a cached copy of a catalogued model: its tokenizer family is known too
        facts = replace(facts, tokenizer_family=known.tokenizer_family)
    return facts


def read_tokenizer(folder: Path) -> dict[str, Any]:
    """has_tokenizer, tokenizer_vocab (len(tokenizer)) and a fingerprint of the token -> id table, where readable."""
    present = [name for name in TOKENIZER_FILES if (folder / name).is_file()]
    if not present:
        return {"has_tokenizer": False}
    for name in ("tokenizer.json", "vocab.json"):
        file = folder / name
        if file.is_file():
            stat = file.stat()
            size, fingerprint = _vocab_table(
                str(file), stat.st_mtime_ns, stat.st_size, str(folder / "added_tokens.json")
            )
            if size is not None:
                return {"has_tokenizer": True, "tokenizer_vocab": size, "tokenizer_fingerprint": fingerprint}
    file = folder / present[0]
    try:
        digest = hashlib.sha1(file.read_bytes()[:TOKENIZER_LIMIT]).hexdigest()[:16]
    except OSError:
        digest = None
    return {"has_tokenizer": True, "tokenizer_fingerprint": digest}


@lru_cache(maxsize=32)
def _vocab_table(file: str, mtime_ns: int, size: int, added_file: str) -> tuple[int | None, str | None]:
    """(len(tokenizer), fingerprint) from tokenizer.json or vocab.json (+ added_tokens.json); (None, None) if unreadable."""
    if size > TOKENIZER_LIMIT:
        return None, None
    try:
        doc = json.loads(Path(file).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None, None
    table: dict[str, int] = {}
    if file.endswith("tokenizer.json") and isinstance(doc, dict):
        vocab = (doc.get("model") or {}).get("vocab")
        if isinstance(vocab, dict):
            table.update({str(k): int(v) for k, v in vocab.items() if isinstance(v, int)})
        elif isinstance(vocab, list):  # Unigram: [[piece, score], ...], ids are positions
            table.update({str(item[0]): i for i, item in enumerate(vocab) if isinstance(item, list) and item})
        for added in doc.get("added_tokens") or []:
            if isinstance(added, dict) and isinstance(added.get("id"), int):
                table[str(added.get("content"))] = added["id"]
    elif isinstance(doc, dict):
        table.update({str(k): int(v) for k, v in doc.items() if isinstance(v, int)})
        try:
            added = json.loads(Path(added_file).read_text(encoding="utf-8"))
            table.update({str(k): int(v) for k, v in added.items() if isinstance(v, int)})
        except (OSError, ValueError, AttributeError):
            pass
    if not table:
        return None, None
    digest = hashlib.sha1()
    for token, index in sorted(table.items(), key=lambda kv: (kv[1], kv[0])):
        digest.update(f"{index}\t{token}\n".encode("utf-8", "surrogatepass"))
    return max(table.values()) + 1, digest.hexdigest()[:16]
