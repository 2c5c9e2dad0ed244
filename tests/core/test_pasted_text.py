"""A paste into a one-line field keeps its text in order, without what no answer holds, and says what it left out
(issue 32 item 7)."""

from __future__ import annotations

import pytest

from wizard.core.pasted_text import for_one_line
from wizard.core.text_chars import unholdable


@pytest.mark.parametrize(
    ("pasted", "kept", "sequences", "characters", "lines"),
    [
        ("Qwen/\x1b[31mabc", "Qwen/abc", 1, (), 1),  # a colour code copied out of a terminal
        ("\x1b[1;32mQwen/Qwen2.5-7B\x1b[0m", "Qwen/Qwen2.5-7B", 2, (), 1),
        ("\x1b]8;;https://hf.co\x07Qwen/x\x1b]8;;\x1b\\", "Qwen/x", 2, (), 1),  # a terminal's hyperlink (OSC 8)
        ("Qwen/\x01abc", "Qwen/abc", 0, ("U+0001 (SOH)",), 1),
        ("a\x7fb\x00c\x01", "abc", 0, ("U+007F (DEL)", "U+0000 (NUL)", "U+0001 (SOH)"), 1),
        ("/data/gsm8k/train.parquet\n", "/data/gsm8k/train.parquet", 0, (), 1),  # a copied line's own break
        ("first\r\nsecond\n\nthird", "first", 0, (), 3),
        ("\n\n  \nonly\n", "only", 0, (), 1),  # blank lines hold no text
        ("grpo\tdemo", "grpo\tdemo", 0, (), 1),  # TAB is an answer's one allowed control character
        ("Qwen/Qwen2.5-0.5B-Instruct", "Qwen/Qwen2.5-0.5B-Instruct", 0, (), 1),
        ("模型/路径", "模型/路径", 0, (), 1),
        ("", "", 0, (), 1),
    ],
)
def test_a_paste_keeps_its_text_and_names_what_it_left_out(pasted, kept, sequences, characters, lines):
    got = for_one_line(pasted)
    assert (got.text, got.sequences, got.characters, got.lines) == (kept, sequences, characters, lines)
    assert got.changed == bool(sequences or characters or lines > 1)
    assert unholdable(got.text) is None  # what a paste keeps, every field can hold


def test_a_plain_paste_is_unchanged():
    assert not for_one_line("Qwen/Qwen2.5-0.5B-Instruct").changed
