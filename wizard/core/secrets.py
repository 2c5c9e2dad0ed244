"""What a secret looks like: in a variable's or key's name, inside a value, or as an OmegaConf env read.

Pure (no I/O): DEPLOY-006 (wizard.core.rules.deploy.secrets), the launch-script import and the masking of
everything shown or written (wizard.core.masking) use this one definition.

Names. A name is split into words (at `_`, `-`, `.` and case changes: `AccountKey`, `hfToken`; a glued word
loses a known secret ending: `WANDBAPIKEY` is WANDB APIKEY, `wandbkey` WANDB KEY) and is secret when a word
says so (TOKEN, SECRET, PASSWORD, PASSWD, PASS, PAT, AUTH, APIKEY, CREDENTIALS, ...), or KEY follows a word
that makes it a credential (API, ACCESS, PRIVATE, ... or a service: WANDB, HF, OPENAI, ...), unless
- a later word makes the name about something else: `HF_TOKEN_PATH` names a file, `max_token_len` a length,
  `rollout_token_veto_threshold` a threshold, `RAY_AUTH_MODE` a switch;
- the word before makes it a text token or a count: `pad_token`, `eos_token`, `forward_pass`.
So verl's own keys are never secrets (`prompt_key`, `reward_fn_key`, `image_key`: KEY without a credential
word before it), and neither is `PWD`, the shell's working directory.

Values. A token is found by its format wherever it stands in a value, glued to other words or not
(`run_hf_...`): Hugging Face, GitHub, GitLab, OpenAI/Anthropic `sk-`, AWS, Google, Slack, JWT, private-key
headers. `sk-` ends English words (task-, disk-, risk-): there it must not follow a letter and its body must
look random (digits and both cases). A bare 40-hex string is NOT a secret format: it is what a git commit
(a model revision) looks like, and a W&B key has the same shape; such a value is secret only by the name it is
given (`WANDB_API_KEY=...`, `wandb_key: ...`) or as a value the script exports under a secret name.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

_WORDS = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+|[A-Z]+")
SECRET_WORDS = frozenset(
    {"TOKEN", "SECRET", "SECRETS", "PASSWORD", "PASSWD", "PASS", "PASSPHRASE", "PAT", "APIKEY", "ACCESSKEY"}
    | {"SECRETKEY", "PRIVATEKEY", "CREDENTIAL", "CREDENTIALS", "CREDS", "AUTHTOKEN", "SAS", "AUTH"}
)
# A KEY is secret after these words (API_KEY, AccountKey, SECRET_ACCESS_KEY) ...
KEY_QUALIFIERS = frozenset(
    {"API", "ACCESS", "SECRET", "PRIVATE", "ACCOUNT", "AUTH", "SIGNING", "ENCRYPTION", "LICENSE", "MASTER"}
    | {"SERVICE", "CLIENT", "SHARED", "SSH", "GPG", "PGP", "RSA"}
)
# ... and after a service's name (wandb_key, HF_KEY, OPENAIKEY): the only key such a name can mean.
SERVICES = frozenset(
    {"WANDB", "HF", "HUGGINGFACE", "OPENAI", "ANTHROPIC", "CLAUDE", "GEMINI", "GOOGLE", "GITHUB", "GH", "GITLAB"}
    | {"AWS", "AZURE", "GCP", "GCS", "COHERE", "MISTRAL", "DEEPSEEK", "GROQ", "TOGETHER", "FIREWORKS", "XAI"}
    | {"OPENROUTER", "SWANLAB", "MLFLOW", "COMET", "NEPTUNE", "CLEARML", "DASHSCOPE", "MODELSCOPE", "MOONSHOT"}
    | {"ZHIPU", "VOLCENGINE", "ARK", "SLACK", "LANGSMITH", "LANGCHAIN", "TAVILY", "SERPER", "JINA", "NGC"}
)
# Endings a glued word is split at (WANDBAPIKEY -> WANDB APIKEY); PASS, PAT, SAS and AUTH end ordinary words
# (BYPASS, COMPAT), so they are split off only after a service's name, as KEY is.
GLUED_ENDINGS: tuple[str, ...]
GLUED_ENDINGS = ("APIKEY", "ACCESSKEY", "SECRETKEY", "PRIVATEKEY", "AUTHTOKEN", "TOKEN", "SECRET", "PASSWORD")
GLUED_ENDINGS += ("PASSWD", "PASSPHRASE", "CREDENTIALS")
SERVICE_ENDINGS = ("KEY", "AUTH", "PAT", "PASS")
# Words after a secret word that make the name about something else: a file or variable holding it, a
# length, a count, a switch, a threshold.
NOT_THE_SECRET = frozenset(
    {"PATH", "FILE", "DIR", "DIRECTORY", "LEN", "LENGTH", "END", "START", "TYPE", "NAME", "MODE", "COUNT"}
    | {"SIZE", "LIMIT", "NUM", "MAX", "MIN", "ENABLE", "ENABLED", "DISABLE", "DISABLED", "KIND", "FORMAT"}
    | {"FIELD", "COLUMN", "HEADER", "LOCATION", "HOME", "CACHE", "URL", "ENDPOINT", "IDS", "SOURCE", "REF"}
    | {"THRESHOLD", "VETO", "RATIO", "RATE", "BUDGET", "WEIGHT", "PENALTY", "LEVEL", "LOSS", "IDX", "INDEX"}
    | {"POS", "POSITION", "LIST", "MAP", "STRATEGY", "TIMEOUT", "TTL", "INTERVAL", "PERIOD", "EXPIRY"}
    | {"REQUIRED", "METHOD", "PROVIDER", "SCHEME", "STATUS", "CHECK", "ENV", "VAR", "VARIABLE", "AT", "K"}
)
# Words before a secret word that make it a text token, a count or a pass of a computation.
NOT_A_CREDENTIAL_BEFORE = frozenset(
    {"PAD", "EOS", "BOS", "UNK", "SEP", "CLS", "MASK", "SPECIAL", "IMAGE", "VIDEO", "AUDIO", "VISION", "THINK"}
    | {"DRAFT", "MAX", "MIN", "NUM", "START", "END", "STOP", "FIRST", "LAST", "PER", "FORWARD", "BACKWARD"}
    | {"SINGLE", "MULTI"}
)
# Answer fields that hold names of secrets or variables, never their values.
NAME_FIELDS = frozenset({"deploy.env", "deploy.secret_env", "deploy.k8s_secret", "deploy.auth_secret"})


def _unglue(word: str) -> list[str]:
    if word in SECRET_WORDS or word in SERVICES:
        return [word]
    for ending in GLUED_ENDINGS:
        if word.endswith(ending) and len(word) > len(ending):
            return [*_unglue(word[: -len(ending)]), ending]
    for ending in SERVICE_ENDINGS:
        if word.endswith(ending) and word[: -len(ending)] in SERVICES:
            return [word[: -len(ending)], ending]
    return [word]


def words(name: str) -> list[str]:
    """`WANDB_API_KEY_` -> [WANDB, API, KEY]; `hfToken` -> [HF, TOKEN]; `WANDBAPIKEY` -> [WANDB, APIKEY]."""
    return [
        piece for part in re.split(r"[^A-Za-z0-9]+", name) for w in _WORDS.findall(part) for piece in _unglue(w.upper())
    ]


def is_secret_name(name: str) -> bool:
    """Whether a variable or a config key (the last part of a dotted key counts) names a secret."""
    parts = words(name.rsplit(".", 1)[-1])
    for i, word in enumerate(parts):
        before = parts[i - 1] if i > 0 else ""
        secret = word in SECRET_WORDS or (word == "KEY" and (before in KEY_QUALIFIERS or before in SERVICES))
        if (
            secret
            and before not in NOT_A_CREDENTIAL_BEFORE
            and not any(later in NOT_THE_SECRET for later in parts[i + 1 :])
        ):
            return True
    return False


# -- secrets inside values ------------------------------------------------------------------------------

URL_PASSWORD = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://(?P<user>[^/?#\s@:]*):(?P<password>[^/?#\s@]+)@")
# user:password@host/... without a scheme: an image reference (user:pw@registry/name:tag), an scp address.
BARE_USERINFO = re.compile(r"^(?P<user>[^/@:\s]+):(?P<password>[^/@\s]+)@(?=[A-Za-z0-9.-]+(?::[0-9]+)?/)")
PAIR = re.compile(r"(?:^|(?P<sep>[;&?\s,+~]))(?P<name>[A-Za-z][A-Za-z0-9_.-]*)=(?P<value>[^;&\s,]+)")
# Connection-string and signed-URL parameters that are secret though their names say nothing (?sig=, ;Pwd=).
PAIR_NAMES = frozenset({"SIG", "SIGNATURE", "XAMZSIGNATURE", "XAMZCREDENTIAL", "XAMZSECURITYTOKEN", "PWD"})


def _random_looking(text: str) -> bool:
    return any(c.isdigit() for c in text) and any(c.isupper() for c in text) and any(c.islower() for c in text)


# (vendor, pattern, how many characters of a match are its vendor prefix, a test the match must pass)
TOKEN_FORMATS = (
    ("Hugging Face", re.compile(r"hf_[A-Za-z0-9]{30,}"), 3, None),
    ("GitHub", re.compile(r"gh[pousr]_[A-Za-z0-9]{30,}"), 4, None),
    ("GitHub", re.compile(r"github_pat_[A-Za-z0-9_]{22,}"), 11, None),
    ("OpenAI", re.compile(r"(?<![A-Za-z0-9])sk-(?:proj-|ant-|svcacct-)?[A-Za-z0-9_-]{20,}"), 3, _random_looking),
    ("AWS", re.compile(r"(?:AKIA|ASIA)[0-9A-Z]{16}(?![0-9A-Z])"), 4, None),
    ("Google", re.compile(r"AIza[0-9A-Za-z_-]{35}"), 4, None),
    ("Slack", re.compile(r"xox[abprs]-[A-Za-z0-9-]{10,}"), 5, None),
    ("GitLab", re.compile(r"glpat-[A-Za-z0-9_-]{20,}"), 6, None),
    ("JWT", re.compile(r"eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]+"), 3, None),
    ("private key", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----"), 10, None),
)
ENV_READ = re.compile(r"\$\{\s*oc\.env\s*:\s*(?P<name>[A-Za-z_][A-Za-z0-9_]*)\s*(?:,[^}]*)?\}")
PURE_ENV_READ = re.compile(r"^\$\{oc\.env:[A-Za-z_][A-Za-z0-9_]*(?:,[^${}]*)?\}$")


def secret_pair(m: re.Match) -> bool:
    """Whether a PAIR match holds a secret: a secret name (or a connection string's sig=, ;Pwd=) and a value,
    not a reference to one (`$VAR`) nor one already masked."""
    name = m.group("name")
    if m.group("value").startswith(("$", "*")):
        return False
    if is_secret_name(name):
        return True
    # Pwd= is a password only as a parameter of a connection string or URL (;Pwd=, ?pwd=), never $PWD's name.
    return "".join(words(name)) in PAIR_NAMES and m.group("sep") is not None and m.group("sep") in ";&?"


def tokens_in(value: str) -> Iterator[tuple[str, re.Match, int]]:
    """(vendor, match, prefix length) of every token in a known format inside `value`, wherever it stands."""
    for vendor, pattern, prefix, test in TOKEN_FORMATS:
        for m in pattern.finditer(value):
            if test is None or test(m.group(0)[prefix:]):
                yield vendor, m, prefix


def credential_in(value: str) -> tuple[str, str] | None:
    """(kind, detail) of a credential written inside `value`, or None.

    kind: "url_password" (scheme://user:password@host, or user:password@registry/... without a scheme),
    "pair" (detail: the name, as in AccountKey=... or ?sig=...), "token" (detail: whose format it has).
    """
    if ("://" in value and URL_PASSWORD.search(value)) or BARE_USERINFO.match(value):
        return "url_password", ""
    if "=" in value:
        for m in PAIR.finditer(value):
            if secret_pair(m):
                return "pair", m.group("name")
    for vendor, _, _ in tokens_in(value):
        return "token", vendor
    return None


def without_userinfo(value: str) -> str:
    """The value with every URL's user:password@ taken out (https://u:p@host/x -> https://host/x)."""
    value = URL_PASSWORD.sub(lambda m: m.group(0)[: m.start("user") - m.start(0)], value)
    return BARE_USERINFO.sub("", value)


def secret_env_reads(value: str) -> list[str]:
    """Secret variables a value reads through OmegaConf (`${oc.env:WANDB_API_KEY}`)."""
    return [m.group("name") for m in ENV_READ.finditer(value) if is_secret_name(m.group("name"))]


def holds_a_value(value: Any) -> bool:
    """Whether a secret-named key holds a secret: something set, not a switch (`use_auth_token: true`)."""
    return value not in (None, "", {}, []) and not isinstance(value, bool)


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
            if is_secret_name(str(key)) and holds_a_value(item):
                yield sub
            else:
                yield from secret_keys_in(item, sub, depth + 1)
