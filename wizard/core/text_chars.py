"""Characters no answer may hold: what a shell script, a manifest or an answers file cannot carry intact.

Every answer ends up in run.sh, a manifest or answers.yaml. A NUL cannot be in a bash script at all (bash
stops reading the line); ESC, BEL and the other C0 controls and DEL make a manifest that Kubernetes' and the
wizard's own YAML readers refuse; the C1 controls (NEL above all) and the line and paragraph separators
U+2028/U+2029 are line breaks to YAML and come back as spaces on replay. No field of the wizard takes a newline
(names, paths, addresses, NAME=value items are one line each: a #SBATCH line, an env item, a log name), so CR
and LF are refused too. TAB is the one control character allowed: bash quotes it, YAML writes it as "\t" and
reads it back, and verl takes it (a launch script's `trainer.project_name=$'grpo\tdemo'` runs). Every other
one is refused at its field, in every door, with the character named.
"""

from __future__ import annotations

import re
from typing import Any

# The C0 controls' abbreviations (U+0000..U+001F), as the Unicode standard and `man ascii` name them.
_C0 = [
    "NUL",
    "SOH",
    "STX",
    "ETX",
    "EOT",
    "ENQ",
    "ACK",
    "BEL",
    "BS",
    "TAB",
    "LF",
    "VT",
    "FF",
    "CR",
    "SO",
    "SI",
    "DLE",
    "DC1",
    "DC2",
    "DC3",
    "DC4",
    "NAK",
    "SYN",
    "ETB",
    "CAN",
    "EM",
    "SUB",
    "ESC",
    "FS",
    "GS",
    "RS",
    "US",
]
# The C1 controls (U+0080..U+009F).
_C1 = [
    "PAD",
    "HOP",
    "BPH",
    "NBH",
    "IND",
    "NEL",
    "SSA",
    "ESA",
    "HTS",
    "HTJ",
    "VTS",
    "PLD",
    "PLU",
    "RI",
    "SS2",
    "SS3",
    "DCS",
    "PU1",
    "PU2",
    "STS",
    "CCH",
    "MW",
    "SPA",
    "EPA",
    "SOS",
    "SGCI",
    "SCI",
    "CSI",
    "ST",
    "OSC",
    "PM",
    "APC",
]
_OTHERS = {0x7F: "DEL", 0x2028: "LINE SEPARATOR", 0x2029: "PARAGRAPH SEPARATOR"}
_UNHOLDABLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")  # all but TAB (U+0009)


def char_name(code: int) -> str | None:
    """The short name of a character no answer may hold (``NUL``, ``NEL``), or None for any other."""
    if code == 0x09:
        return None
    if code < 0x20:
        return _C0[code]
    if 0x80 <= code < 0xA0:
        return _C1[code - 0x80]
    return _OTHERS.get(code)


def unholdable(value: Any) -> str | None:
    """The first character of ``value`` (a string, or one inside a list or mapping) that no answer may hold,
    shown as ``U+0000 (NUL)``; None when there is none."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            found = _UNHOLDABLE.search(item)
            if found:
                code = ord(found.group())
                return f"U+{code:04X} ({char_name(code)})"
        elif isinstance(item, dict):
            stack.extend(reversed([v for pair in item.items() for v in pair]))
        elif isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
    return None
