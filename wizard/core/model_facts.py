"""What the wizard knows about one model checkpoint: the numbers of its config.json and its tokenizer.

`ModelFacts` is plain data, filled by `wizard.detect.models` from a local folder, the local Hugging Face
cache, or the catalogue of common hub models (`model_catalogue.json` beside this file). `source` says
which, so a message can say where a number came from. Derived numbers (parameter count, KV-cache bytes per
token) are computed here from the config numbers alone, so the memory estimate and the rules share them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

from wizard.i18n.text import Msg, msg

CATALOGUE_FILE = Path(__file__).with_name("model_catalogue.json")

# Where the numbers came from, in the words messages use.
LOCAL = "local config"
HF_CACHE = "Hugging Face cache"
CATALOGUE = "catalogue"


@dataclass(frozen=True)
class ModelFacts:
    """The numbers of one checkpoint that the rules and the memory estimate need.

    `path` is the model path as the answers give it (a folder or a hub id); `location` is the file the
    numbers were read from, or the catalogue entry. Fields a source does not give are None.
    """

    path: str
    source: str
    location: str
    architectures: tuple[str, ...] = ()
    model_type: str | None = None
    num_labels: int | None = None
    hidden_size: int | None = None
    num_layers: int | None = None
    num_heads: int | None = None
    num_kv_heads: int | None = None
    head_dim: int | None = None
    intermediate_size: int | None = None
    vocab_size: int | None = None
    tie_word_embeddings: bool | None = None
    attention_bias: bool | None = None
    qk_norm: bool | None = None
    num_experts: int | None = None
    num_experts_per_tok: int | None = None
    moe_intermediate_size: int | None = None
    shared_expert_intermediate_size: int | None = None
    dtype: str | None = None
    max_position_embeddings: int | None = None
    has_tokenizer: bool | None = None
    tokenizer_vocab: int | None = None
    tokenizer_fingerprint: str | None = None
    tokenizer_family: str | None = None
    notes: tuple[str, ...] = field(default=())

    # ---- what kind of model it is ----
    @property
    def is_sequence_classifier(self) -> bool:
        return any(a.endswith("ForSequenceClassification") for a in self.architectures)

    @property
    def is_causal_lm(self) -> bool:
        return any(a.endswith(("ForCausalLM", "ForConditionalGeneration", "LMHeadModel")) for a in self.architectures)

    @property
    def kind(self) -> str | Msg:
        """A short description for messages: the first architecture, else the model type."""
        return self.architectures[0] if self.architectures else (self.model_type or msg("model.unknown_architecture"))

    @property
    def complete(self) -> bool:
        """True when every number the memory estimate needs is known."""
        need = (self.hidden_size, self.num_layers, self.num_heads, self.intermediate_size, self.vocab_size)
        return all(v is not None for v in need)

    # ---- derived numbers ----
    @property
    def kv_heads(self) -> int:
        return self.num_kv_heads or self.num_heads or 1

    @property
    def head_size(self) -> int:
        if self.head_dim:
            return self.head_dim
        return (self.hidden_size or 0) // max(1, self.num_heads or 1)

    @property
    def q_size(self) -> int:
        return (self.num_heads or 0) * self.head_size

    @property
    def kv_size(self) -> int:
        return self.kv_heads * self.head_size

    def mlp_params_per_layer(self) -> int:
        h = self.hidden_size or 0
        if self.num_experts:
            moe_i = self.moe_intermediate_size or self.intermediate_size or 0
            params = self.num_experts * 3 * h * moe_i + h * self.num_experts  # experts + router
            if self.shared_expert_intermediate_size:
                params += 3 * h * self.shared_expert_intermediate_size + h  # shared expert + its gate
            return params
        return 3 * h * (self.intermediate_size or 0)  # gated MLP: gate, up, down

    def layer_params(self) -> int:
        """Parameters of one decoder layer (attention, MLP, two norms)."""
        h, q, kv = self.hidden_size or 0, self.q_size, self.kv_size
        attn = h * q + 2 * h * kv + q * h
        if self.attention_bias:
            attn += q + 2 * kv
        if self.qk_norm:
            attn += 2 * self.head_size
        norms = 4 if (self.model_type or "").startswith("gemma") and self.model_type != "gemma" else 2
        return attn + self.mlp_params_per_layer() + norms * h

    def embedding_params(self) -> int:
        """Input embedding plus the output head when it is not tied."""
        emb = (self.vocab_size or 0) * (self.hidden_size or 0)
        return emb if self.tie_word_embeddings is not False else 2 * emb

    def param_count(self) -> int:
        """All parameters, from the config numbers (the final norm included)."""
        return self.embedding_params() + (self.num_layers or 0) * self.layer_params() + (self.hidden_size or 0)

    def kv_bytes_per_token(self, tp: int = 1, dtype_bytes: int = 2) -> int:
        """KV-cache bytes one token takes on one GPU of a TP group (KV heads are replicated when TP > KV heads)."""
        heads_per_gpu = max(1, -(-self.kv_heads // tp))
        return 2 * (self.num_layers or 0) * heads_per_gpu * self.head_size * dtype_bytes


def num_labels_of(config: dict[str, Any]) -> int | None:
    """transformers' rule: num_labels if given, else the size of id2label, else its default of 2."""
    if isinstance(config.get("num_labels"), int):
        return config["num_labels"]
    id2label = config.get("id2label")
    if isinstance(id2label, dict) and id2label:
        return len(id2label)
    return 2


def _int(config: dict[str, Any], *keys: str) -> int | None:
    for key in keys:
        value = config.get(key)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def facts_from_config(config: dict[str, Any], path: str, source: str, location: str, **extra: Any) -> ModelFacts:
    """ModelFacts from the dict of a config.json (multimodal configs: the numbers of their text_config)."""
    text = config
    if not isinstance(config.get("hidden_size"), int) and isinstance(config.get("text_config"), dict):
        text = {
            **config["text_config"],
            **{k: v for k, v in config.items() if k in ("architectures", "num_labels", "id2label")},
        }
    archs = config.get("architectures") or ()
    qk_norm = text.get("qk_norm")
    model_type = text.get("model_type") or config.get("model_type")
    if qk_norm is None and model_type:
        qk_norm = model_type.startswith("qwen3")
    bias = text.get("attention_bias")
    if bias is None and model_type in ("qwen2", "qwen2_moe"):
        bias = True  # Qwen2 always has q/k/v biases; its config does not say so
    tie = text.get("tie_word_embeddings", config.get("tie_word_embeddings"))
    return ModelFacts(
        path=path,
        source=source,
        location=location,
        architectures=tuple(str(a) for a in archs if isinstance(a, str)),
        model_type=model_type,
        num_labels=num_labels_of(config),
        hidden_size=_int(text, "hidden_size", "n_embd", "d_model"),
        num_layers=_int(text, "num_hidden_layers", "n_layer", "num_layers"),
        num_heads=_int(text, "num_attention_heads", "n_head"),
        num_kv_heads=_int(text, "num_key_value_heads", "num_kv_heads") or _int(text, "num_attention_heads", "n_head"),
        head_dim=_int(text, "head_dim"),
        intermediate_size=_int(text, "intermediate_size", "n_inner", "ffn_dim"),
        vocab_size=_int(text, "vocab_size"),
        tie_word_embeddings=bool(tie) if tie is not None else True,
        attention_bias=bool(bias) if bias is not None else False,
        qk_norm=bool(qk_norm),
        num_experts=_int(text, "num_experts", "num_local_experts", "n_routed_experts"),
        num_experts_per_tok=_int(text, "num_experts_per_tok"),
        moe_intermediate_size=_int(text, "moe_intermediate_size"),
        shared_expert_intermediate_size=_int(text, "shared_expert_intermediate_size"),
        dtype=str(config.get("torch_dtype") or config.get("dtype") or text.get("torch_dtype") or "") or None,
        max_position_embeddings=_int(text, "max_position_embeddings"),
        **extra,
    )


@lru_cache(maxsize=1)
def catalogue_entries() -> dict[str, dict[str, Any]]:
    """The catalogue: lower-cased hub id -> its entry (config numbers, tokenizer family and size)."""
    doc = json.loads(CATALOGUE_FILE.read_text(encoding="utf-8"))
    table: dict[str, dict[str, Any]] = {}
    for entry in doc["models"]:
        for name in [entry["id"], *entry.get("aliases", [])]:
            table[name.lower()] = entry
    return table


def from_catalogue(model_id: str) -> ModelFacts | None:
    """The catalogue's facts for a hub id (case-insensitive, aliases such as -Instruct included), or None."""
    entry = catalogue_entries().get(model_id.strip().rstrip("/").lower())
    if entry is None:
        return None
    return facts_from_config(
        entry["config"],
        model_id,
        CATALOGUE,
        f"catalogue entry {entry['id']}",
        has_tokenizer=True,
        tokenizer_vocab=entry.get("tokenizer_vocab"),
        tokenizer_family=entry.get("tokenizer_family"),
    )


def facts_for(models: dict, path: str | None) -> ModelFacts | None:
    """The facts read for `path` under any role (a fix may point one role at another role's model), or None."""
    if not path:
        return None
    for facts in (models or {}).values():
        if isinstance(facts, ModelFacts) and facts.path == path:
            return facts
    return None
