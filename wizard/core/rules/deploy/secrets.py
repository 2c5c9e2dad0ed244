"""DEPLOY-006: no secret is ever written inline, by any route.

The routes: a secret variable in deploy.env (any spelling: `wandb_api_key`, `GITHUB_PAT`, `MY_APIKEY`, and a
`$X` that no manifest expands), the same variable both in deploy.env and as a Secret, a credential inside
any value (a URL's user:password, `AccountKey=...`, a token in a known format) in model paths, data paths,
the Ray address or a passed-through verl key, a verl key that names a secret (`...engine_kwargs.vllm.hf_token`),
an OmegaConf read of a secret variable into an ordinary key (`experiment_name: ${oc.env:WANDB_API_KEY}`),
and, in a manifest read back, a Secret with data or a literal token. The message never shows the value.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from wizard.core.answers.model import SECTIONS
from wizard.core.field_keys import field_to_verl
from wizard.core.findings import Finding, Fix, Severity
from wizard.core.rule_context import RuleContext
from wizard.core.rules.declare import emits, make_finding
from wizard.core.rules.deploy.facts import AUTH_VARS, DeployFacts, pairs, secret_env_names
from wizard.core.secrets import (
    NAME_FIELDS,
    credential_in,
    holds_a_value,
    is_secret_name,
    secret_env_reads,
    secret_keys_in,
    strings_in,
    without_userinfo,
)
from wizard.core.targets import spec
from wizard.i18n.text import msg

SHELL_REFERENCE = re.compile(r"^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$")
SHELL_EXPANDED = re.compile(r"^\$\{[A-Za-z_][A-Za-z0-9_]*\}$")
SHELL_COMPUTED = re.compile(r"^(\$\(.*\)|`.*`)$", re.DOTALL)
K8S_REFERENCE = re.compile(r"^\$\([A-Za-z_][A-Za-z0-9_]*\)$")
ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")


@emits(
    "DEPLOY-006",
    Severity.ERROR,
    title="A secret value written inline",
    why="Tokens and API keys written into a manifest, a script or the answers end up in version control, kubectl output and Ray's job table; read them from a Secret (secretKeyRef) or the launching environment.",
)
def check_inline_secrets(ctx: RuleContext, facts: DeployFacts) -> Iterator[Finding]:
    yield from _in_environment(ctx, facts)
    yield from _in_values(ctx)
    yield from _in_names(ctx)
    if facts.origin != "answers":  # the answers' image is one of their values, judged above
        for image in facts.images:
            if (found := credential_in(image)) is not None:
                yield make_finding(
                    "DEPLOY-006",
                    [facts.source],
                    msg("deploy.secret.in_value", where=f"{facts.source} image", what=_what(found)),
                )
    for where in facts.inline_secrets:
        yield make_finding(
            "DEPLOY-006", [facts.source], msg("deploy.secret_in_manifest", where=where, source=facts.source)
        )


def _is_reference(value: str, facts) -> bool:
    """A value that names another variable rather than holding one: only in a manifest read back, in its own syntax."""
    if facts.origin == "answers":
        return False  # the wizard writes deploy.env values as they are: `$X` stays those two characters
    if spec(facts.target).kubernetes:
        return bool(K8S_REFERENCE.match(value))
    # The script reader gives a variable bash expands at run time as ${NAME} ('$X' in single quotes stays $X),
    # and a value bash computes when the script runs as its command substitution: neither is written out.
    return bool(SHELL_EXPANDED.match(value) or SHELL_COMPUTED.match(value))


def _env_fix(ctx, facts, name: str, label, to_secrets: bool):
    if facts.origin != "answers" or name not in pairs(ctx.answers.deploy.env):
        return []
    d = ctx.answers.deploy
    keep = [item for item in d.env if item.partition("=")[0] != name]
    extra = {"deploy.secret_env": [*d.secret_env, name]} if to_secrets and name not in d.secret_env else {}
    return [Fix({"deploy.env": keep, **extra}, label)]


def _in_environment(ctx, facts):
    origin_answers = facts.origin == "answers"
    where = "deploy.env" if origin_answers else facts.source
    path = ["deploy.env"] if origin_answers else [facts.source]
    as_secrets = set(secret_env_names(ctx.answers)) if origin_answers else set()
    seen: set[str] = set()
    for _, name, value in facts.all_env():
        if name in seen or not value:
            continue
        seen.add(name)
        if is_secret_name(name) and not _is_reference(value, facts):
            text = (
                msg("deploy.secret.env_reference", name=name, value=value)
                if origin_answers and SHELL_REFERENCE.match(value)
                else msg("deploy.inline_secret", name=name, where=where)
            )
            label = msg("deploy.fix.secret_env", name=name)
            yield make_finding("DEPLOY-006", path, text, _env_fix(ctx, facts, name, label, name not in AUTH_VARS))
        elif name in as_secrets:
            yield make_finding(
                "DEPLOY-006",
                ["deploy.env", "deploy.secret_env"],
                msg("deploy.secret.duplicate", name=name),
                _env_fix(ctx, facts, name, msg("deploy.secret.fix_drop", name=name), to_secrets=False),
            )
        elif (found := credential_in(value)) is not None:
            fixes = []
            if found[0] == "url_password" and origin_answers:
                env = [
                    f"{k}={without_userinfo(v) if k == name else v}" for k, v in pairs(ctx.answers.deploy.env).items()
                ]
                fixes = [Fix({"deploy.env": env}, msg("deploy.secret.fix_strip"))]
            fixes += _env_fix(ctx, facts, name, msg("deploy.fix.secret_env", name=name), True)
            yield make_finding(
                "DEPLOY-006", path, msg("deploy.secret.in_value", where=f"{where} {name}", what=_what(found)), fixes
            )


def _what(found: tuple[str, str]):
    kind, detail = found
    if kind == "url_password":
        return msg("deploy.secret.what.url_password")
    if kind == "pair":
        return msg("deploy.secret.what.pair", name=detail)
    return msg("deploy.secret.what.token", vendor=detail)


def _answer_strings(answers):
    """(address, field value, dotted path, last key part, text) for every string the answers hold."""
    answers = getattr(answers, "untracked", answers)  # see wizard.core.unknowns: a scan, not a reading
    verl = field_to_verl()
    for section, section_model in SECTIONS.items():
        model = getattr(answers, section)
        for name in section_model.model_fields:
            field_name = f"{section}.{name}"
            value = getattr(model, name)
            if field_name in NAME_FIELDS or not isinstance(value, (str, list)):
                continue
            address = verl.get(field_name, field_name)
            for path, leaf, text in strings_in(value, address):
                yield address, value, path, leaf, text
    for key, value in answers.extra.items():
        for path, leaf, text in strings_in(value, key):
            yield key, value, path, leaf, text


def _without(value, parts: list[str]):
    """A copy of nested mappings without the key at `parts` (the path inside the value)."""
    if not isinstance(value, dict) or not parts:
        return value
    head, rest = parts[0], parts[1:]
    return {
        k: (_without(v, rest) if rest and str(k) == head else v) for k, v in value.items() if rest or str(k) != head
    }


def _in_names(ctx):
    """A token where the name of a variable or a Secret belongs (deploy.secret_env=hf_..., deploy.k8s_secret):
    the name is written into every manifest."""
    d = ctx.answers.deploy
    named = {
        "deploy.env": [item.partition("=")[0] for item in d.env],
        "deploy.secret_env": list(d.secret_env),
        "deploy.k8s_secret": [d.k8s_secret],
        "deploy.auth_secret": [d.auth_secret] if d.auth_secret else [],
    }
    for field_name, names in named.items():
        for name in names:
            if (found := credential_in(name)) is not None:
                kept = [n for n in names if n != name] if field_name == "deploy.secret_env" else None
                fixes = [Fix({field_name: kept}, msg("deploy.secret.fix_name"))] if field_name != "deploy.env" else []
                yield make_finding(
                    "DEPLOY-006", [field_name], msg("deploy.secret.in_name", field=field_name, what=_what(found)), fixes
                )
                break


def _in_values(ctx):
    answers = ctx.answers
    secret_keys: set[str] = set()
    for key, value in answers.extra.items():
        leaf = key.rsplit(".", 1)[-1]
        secret_paths = [key] if is_secret_name(leaf) and holds_a_value(value) else []
        secret_paths += list(secret_keys_in(value, key))
        for path in secret_paths:
            secret_keys.add(path)
            env = path.rsplit(".", 1)[-1].upper()
            fixes = []
            if ENV_NAME.match(env):
                moved = [*answers.deploy.secret_env, env] if env not in answers.deploy.secret_env else None
                kept = None if path == key else _without(value, path[len(key) + 1 :].split("."))
                fixes = [
                    Fix(
                        {key: kept or None, **({"deploy.secret_env": moved} if moved else {})},
                        msg("deploy.secret.fix_key", env=env),
                    )
                ]
            yield make_finding("DEPLOY-006", [key], msg("deploy.secret.key_inline", address=path, env=env), fixes)
    for address, value, path, leaf, text in _answer_strings(answers):
        if any(path == k or path.startswith(k + ".") for k in secret_keys):
            continue
        found = credential_in(text)
        if found is not None:
            fixes = []
            if found[0] == "url_password" and isinstance(value, str) and path == address:
                fixes = [Fix({address: without_userinfo(value)}, msg("deploy.secret.fix_strip"))]
            elif found[0] == "url_password" and isinstance(value, list) and all(isinstance(v, str) for v in value):
                fixes = [Fix({address: [without_userinfo(v) for v in value]}, msg("deploy.secret.fix_strip"))]
            yield make_finding(
                "DEPLOY-006", [address], msg("deploy.secret.in_value", where=path, what=_what(found)), fixes
            )
            continue
        if not is_secret_name(leaf):
            for name in secret_env_reads(text):
                yield make_finding("DEPLOY-006", [address], msg("deploy.secret.env_read", address=path, name=name))
