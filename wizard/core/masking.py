"""What the user is shown of a value: every secret masked on the data, before anything is serialised.

One layer for every door (check and new, text and JSON, the script import, the TUI) and every file written:
- a message's parameters are masked when it is rendered (wizard.i18n.text.render calls `shown_args`), so
  findings, notes and fix labels are masked wherever they are shown or written (RUN.md, answers.yaml);
- a fix's values when they are printed or put in JSON (Finding.to_json, the CLI's `--set` lines);
- the lines of a launch-script import when they are made (wizard.core.migrations).
Nothing is masked by a pattern over serialised JSON or text: a value masked before json.dumps cannot break
the JSON, and the template's own words (`--env PWD=VALUE`) are never taken for a secret. What is secret is
wizard.core.secrets' one definition.
"""

from __future__ import annotations

import string
from functools import lru_cache
from typing import Any

from wizard.core.secrets import (
    BARE_USERINFO,
    NAME_FIELDS,
    PAIR,
    URL_PASSWORD,
    holds_a_value,
    is_secret_name,
    secret_pair,
    tokens_in,
)

MASK = "***"


def mask(text: str) -> str:
    """The text with every credential inside it masked: `https://u:***@h`, `AccountKey=***`, `run_hf_***`."""
    if "@" in text:
        text = URL_PASSWORD.sub(lambda m: m.group(0)[: m.start("password") - m.start(0)] + MASK + "@", text)
        text = BARE_USERINFO.sub(lambda m: m.group("user") + ":" + MASK + "@", text)
    if "=" in text:
        text = PAIR.sub(
            lambda m: m.group(0)[: m.start("value") - m.start(0)] + MASK if secret_pair(m) else m.group(0), text
        )
    spans = sorted({(m.start(), m.end(), prefix) for _, m, prefix in tokens_in(text)}, reverse=True)
    end_of_kept = len(text) + 1
    for start, end, prefix in spans:
        if end <= end_of_kept:  # overlapping matches: the later one was masked already
            text = text[: start + prefix] + MASK + text[end:]
            end_of_kept = start
    return text


def _is_reference(value: Any) -> bool:
    return isinstance(value, str) and value.startswith(("$", MASK))


def shown(name: str | None, value: Any) -> Any:
    """What may be shown of `value`, the value of `name` (a dotted key, a variable's name, or None).

    A secret-named key or variable shows `***` (a reference to one, `${oc.env:HF_TOKEN}` or `$HF_TOKEN`, shows
    as it is); any other value shows with the credentials inside it masked, lists and mappings walked.
    """
    named_secret = name is not None and name not in NAME_FIELDS and is_secret_name(name)
    if named_secret and holds_a_value(value) and not _is_reference(value):
        return MASK
    if isinstance(value, str):
        return mask(value)
    if isinstance(value, (list, tuple)):
        return type(value)(shown(None, item) for item in value)
    if isinstance(value, dict):
        return {key: shown(str(key), item) for key, item in value.items()}
    return value


@lru_cache(maxsize=1024)
def _pairs_in(template: str) -> tuple[tuple[str, str], ...]:
    """(name parameter, value parameter) for every `{name}={value}` the template shows."""
    pairs, previous = [], None
    try:
        parsed = list(string.Formatter().parse(template))
    except ValueError:
        return ()
    for literal, field, _, _ in parsed:
        name = field.split(".")[0].split("[")[0] if field else None
        if previous and name and literal == "=":
            pairs.append((previous, name))
        previous = name
    return tuple(pairs)


def shown_args(template: str, args: dict[str, Any]) -> dict[str, Any]:
    """A message's parameters as they may be shown in `template`: each masked (`shown`), and the value of a
    `{key}={value}` whose key names a secret replaced by `***`."""
    plain = (str, int, float, list, tuple, dict)  # not a nested message: that one is masked when it renders
    out = {name: shown(None, value) if isinstance(value, plain) else value for name, value in args.items()}
    for key, value in _pairs_in(template):
        named = args.get(key)
        if isinstance(named, str) and value in args and isinstance(args[value], plain):
            out[value] = shown(named, args[value])
    return out
