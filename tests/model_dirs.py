"""Model folders the tests write: a config.json and a tokenizer.json built with the `tokenizers` library."""

from __future__ import annotations

import json
from pathlib import Path


def write_tokenizer(folder: Path, words: list[str]) -> None:
    """A word-level tokenizer over `words` (plus [UNK]), saved as tokenizer.json."""
    from tokenizers import Tokenizer
    from tokenizers.models import WordLevel
    from tokenizers.pre_tokenizers import Whitespace

    vocab = {"[UNK]": 0, **{w: i + 1 for i, w in enumerate(words)}}
    tok = Tokenizer(WordLevel(vocab, unk_token="[UNK]"))
    tok.pre_tokenizer = Whitespace()
    folder.mkdir(parents=True, exist_ok=True)
    tok.save(str(folder / "tokenizer.json"))


def write_model(
    folder: Path, arch: str = "Qwen2ForCausalLM", words: list[str] | None = None, tokenizer: bool = True, **config
) -> str:
    """A checkpoint folder with a config.json (Qwen2.5-0.5B's numbers unless given) and, optionally, a tokenizer."""
    numbers = {
        "model_type": "qwen2",
        "architectures": [arch],
        "hidden_size": 896,
        "intermediate_size": 4864,
        "num_hidden_layers": 24,
        "num_attention_heads": 14,
        "num_key_value_heads": 2,
        "vocab_size": 151936,
        "tie_word_embeddings": True,
        "torch_dtype": "bfloat16",
        "max_position_embeddings": 32768,
    }
    numbers.update(config)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.json").write_text(json.dumps(numbers), encoding="utf-8")
    if tokenizer:
        write_tokenizer(folder, words if words is not None else ["hello", "world", "answer", "is"])
    return str(folder)
