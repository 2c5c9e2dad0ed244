"""What a secret looks like: in a variable's or key's name, inside a value, or as an OmegaConf env read.

Pure (no I/O): DEPLOY-006 (wizard.core.rules.deploy_secrets) and the launch-script import use it.

A name is split into words (at `_`, `-`, `.` and lower-to-upper case changes: `AccountKey`, `hfToken`) and is
secret when a word says so (TOKEN, SECRET, PASSWORD, PASS, PAT, APIKEY, CREDENTIALS, ...; KEY for a variable)
and no later word turns it into something else (`HF_TOKEN_PATH` names a file, `max_token_len` a length).
Config keys are stricter about KEY: verl has `prompt_key`, `reward_fn_key`, so only API_KEY, ACCESS_KEY and
their kin count there.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+|[A-Z]+")
SECRET_WORDS = frozenset(
    {"TOKEN", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASS", "PASSPHRASE", "PAT", "APIKEY", "ACCESSKEY"}
    | {"SECRETKEY", "PRIVATEKEY", "CREDENTIAL", "CREDENTIALS", "CREDS", "AUTHTOKEN", "HFTOKEN", "SAS"}
)
# A KEY is secret after these words (API_KEY, AccountKey, SECRET_ACCESS_KEY); in a variable's name always.
KEY_QUALIFIERS = frozenset({"API", "ACCESS", "SECRET", "PRIVATE", "ACCOUNT", "AUTH", "SIGNING", "ENCRYPTION"})
KEY_QUALIFIERS |= {"LICENSE", "MASTER", "SERVICE", "CLIENT", "SHARED"}
# Words after a secret word that make the name about something else: a file holding it, a length, a switch.
NOT_THE_SECRET = frozenset(
    {"PATH", "FILE", "DIR", "DIRECTORY", "LEN", "LENGTH", "END", "START", "TYPE", "NAME", "MODE", "COUNT"}
    | {"SIZE", "LIMIT", "NUM", "MAX", "MIN", "ENABLE", "ENABLED", "KIND", "FORMAT", "FIELD", "COLUMN"}
    | {"HEADER", "LOCATION", "HOME", "CACHE", "URL", "ENDPOINT", "IDS", "SOURCE", "REF"}
)


def words(name: str) -> list[str]:
    """`WANDB_API_KEY_` -> [WANDB, API, KEY]; `hfToken` -> [HF, TOKEN]; `AccountKey` -> [ACCOUNT, KEY]."""
    return [w.upper() for part in re.split(r"[^A-Za-z0-9]+", name) for w in _WORDS.findall(part)]


def is_secret_name(name: str, kind: str = "env") -> bool:
    """Whether a variable (kind "env") or config key (kind "key": the last part of a dotted key) names a secret."""
    parts = words(name)
    for i, word in enumerate(parts):
        secret = word in SECRET_WORDS or (
            word == "KEY" and (kind == "env" or (i > 0 and parts[i - 1] in KEY_QUALIFIERS))
        )
        if secret and not any(later in NOT_THE_SECRET for later in parts[i + 1 :]):
            return True
    return False


# -- secrets inside values ------------------------------------------------------------------------------

_URL_PASSWORD = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://(?P<user>[^/?#\s@:]*):(?P<password>[^/?#\s@]+)@")
_PAIR = re.compile(r"(?:^|[;&?\s,])(?P<name>[A-Za-z][A-Za-z0-9_.-]*)=(?P<value>[^;&\s,]+)")
_PAIR_NAMES = frozenset({"SIG", "SIGNATURE", "XAMZSIGNATURE", "XAMZCREDENTIAL", "XAMZSECURITYTOKEN", "PWD"})
TOKEN_FORMATS = (
    ("Hugging Face", re.compile(r"\bhf_[A-Za-z0-9]{30,}")),
    ("GitHub", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,})")),
    ("OpenAI", re.compile(r"\bsk-(?:proj-)?[A-Za-z0-9_-]{20,}")),
    ("AWS", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("Slack", re.compile(r"\bxox[abprs]-[A-Za-z0-9-]{10,}")),
    ("GitLab", re.compile(r"\bglpat-[A-Za-z0-9_-]{20,}")),
    ("JWT", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+")),
    ("private key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----")),
)
ENV_READ = re.compile(r"\$\{\s*oc\.env\s*:\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*(?:,[^}]*)?\}")
PURE_ENV_READ = re.compile(r"^\$\{oc\.env:[A-Za-z_][A-Za-z0-9_]*(?:,[^${}]*)?\}$")


def credential_in(value: str) -> tuple[str, str] | None:
    """(kind, detail) of a credential written inside `value`, or None.

    kind: "url_password" (scheme://user:password@host), "pair" (detail: the name, as in AccountKey=... or
    ?sig=...), "token" (detail: whose format it has: Hugging Face, GitHub, AWS, ...).
    """
    if "://" in value and _URL_PASSWORD.search(value):
        return "url_password", ""
    if "=" in value:
        for m in _PAIR.finditer(value):
            name = m.group("name")
            joined = "".join(words(name))
            if (is_secret_name(name, "key") or joined in _PAIR_NAMES) and not m.group("value").startswith("$"):
                return "pair", name
    for vendor, pattern in TOKEN_FORMATS:
        if pattern.search(value):
            return "token", vendor
    return None


def redact(text: str) -> str:
    """Text with every credential it holds masked (`https://u:***@h`, `AccountKey=***`, `hf_***`): what is printed.

    Messages of other rules quote the user's values (a model path in ROLE-009, a value in a usage error);
    whatever they quote, a credential must not reach a terminal or a CI log.
    """
    if "://" in text:
        text = _URL_PASSWORD.sub(lambda m: m.group(0)[: m.start("password") - m.start(0)] + "***@", text)
    if "=" in text:

        def mask(m: re.Match) -> str:
            name = m.group("name")
            hidden = (is_secret_name(name, "key") or "".join(words(name)) in _PAIR_NAMES) and not m.group(
                "value"
            ).startswith(("$", "*"))
            return m.group(0)[: m.start("value") - m.start(0)] + "***" if hidden else m.group(0)

        text = _PAIR.sub(mask, text)
    for _, pattern in TOKEN_FORMATS:
        text = pattern.sub(lambda m: m.group(0)[:4] + "***", text)
    return text


def without_userinfo(value: str) -> str:
    """The value with every URL's user:password@ taken out (https://u:p@host/x -> https://host/x)."""
    return _URL_PASSWORD.sub(lambda m: m.group(0)[: m.start("user") - m.start(0)], value)


def secret_env_reads(value: str) -> list[str]:
    """Secret variables a value reads through OmegaConf (`${oc.env:WANDB_API_KEY}`)."""
    return [m.group("name") for m in ENV_READ.finditer(value) if is_secret_name(m.group("name"))]


def strings_in(value: Any, path: str, depth: int = 0) -> Iterator[tuple[str, str, str]]:
    """(dotted path, last key part, text) for every string inside a value (mappings and lists walked, 32 deep)."""
    if isinstance(value, str):
        yield path, path.rsplit(".", 1)[-1], value
    elif depth < 32 and isinstance(value, dict):
        for key, item in value.items():
            yield from strings_in(item, f"{path}.{key}", depth + 1)
    elif depth < 32 and isinstance(value, (list, tuple)):
        for item in value:
            yield from strings_in(item, path, depth + 1)


def secret_keys_in(value: Any, path: str, depth: int = 0) -> Iterator[str]:
    """Dotted paths inside a value whose key names a secret and holds something ({"hf_token": "..."})."""
    if depth < 32 and isinstance(value, dict):
        for key, item in value.items():
            sub = f"{path}.{key}"
            if is_secret_name(str(key), "key") and item not in (None, "", {}, []):
                yield sub
            else:
                yield from secret_keys_in(item, sub, depth + 1)
