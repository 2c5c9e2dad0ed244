"""Finding messages as catalogue keys: every call site names a key both languages have, with the parameters their
templates use; every finding of a large corpus renders in both languages, the Chinese keeping the English one's
numbers and keys; no regular expression over English text is left in wizard/i18n.

Call sites are found by reading the source (ast): `msg("key", name=...)` with a literal key and keyword names.
The corpus (tests/test_i18n_corpus*.py) runs the real rules engine over answers, presets, model folders, data
files, launch scripts, manifests and a probed cluster; it is built once per session. Each check is a function
returning its problems, so that a neighbour test can show it failing (a key removed from zh, a parameter a call
site does not give, a Chinese text that drops a number).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.test_i18n_corpus import corpus
from wizard.core.rules.catalogue import CATALOGUE
from wizard.i18n import messages_en, messages_zh
from wizard.i18n.text import Msg, msg, render, template_fields

ROOT = Path(__file__).resolve().parents[1]
WIZARD = ROOT / "wizard"
CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
NUMBER = re.compile(r"\d+(?:\.\d+)?")
# Dotted keys (critic.model.path) and snake_case names (train_batch_size) a translation must carry over. Each
# match starts where a word starts and its runs never give back characters: linear on a 100 000-character value.
IDENTIFIER = re.compile(r"(?<![\w.-])[A-Za-z_][\w-]*+(?:\.(?:[A-Za-z_][\w-]*+|\*))++|\b[A-Za-z]\w*_\w+\b")
NOT_IDENTIFIERS = {"e.g"}  # "e.g. 10.0.0.1:6379" is said as 例如
LEFTOVER = re.compile(r"\{\w+(?:[!:][^{}]*)?\}")  # a placeholder that was not filled

# Call sites whose key is not a literal, each with where its keys come from (the corpus renders them).
DYNAMIC_KEYS = {
    ("wizard/detect/script/problems.py", "_CAUSES[cause]"): "a key per cause of a cut command, none with parameters",
    ("wizard/core/unknowns.py", "_LIMIT_WHY[why]"): "a key per limit of the bash reader, none with parameters",
    (
        "wizard/detect/input_files.py",
        "_KIND_KEYS[detail]",
    ): "a key per kind of file (input.kind.*), none with parameters",
    ("wizard/core/migrations.py", 'hand["reason"]'): "renames.yaml names the reason's key",
    ("wizard/core/memory/estimate.py", "PHASE_NAMES[self.role, self.phase]"): "a key per phase, none with parameters",
    ("wizard/core/rules/placement/groups.py", "POOL_NAMES[name]"): "a key per pool, none with parameters",
    ("wizard/core/value_reasons.py", "key"): "a key per pydantic error type (tests/core/test_value_reasons.py)",
    (
        "wizard/detect/env/doctor.py",
        "key",
    ): "a key per way the probe fails (env.probe.*), each with the same parameters (tests/cli/test_doctor.py)",
}
# Rule ids whose messages may stay plain English text, with the reason.
ENGLISH_ONLY: dict[str, str] = {}
# Message keys whose text is English by design, with the reason (the check still renders them in both languages).
ENGLISH_ONLY_KEYS = {
    "deploy.reader_problem": "a defect the Slurm-script reader words (issue 16 rewrites it): said as the reader says it",
}
# Keys no source file names yet, with the reason.
UNUSED = {
    "count.errors": "the plural forms' examples (tests/test_i18n_text.py); the count lines keep their own wording",
    "count.warnings": "as count.errors",
    "count.notes": "as count.errors",
}
# Rule ids the corpus cannot trigger, each with the reason.
UNTRIGGERABLE: dict[str, str] = {
    "SCRIPT-017": "check gives it in place of the rules, for a script with no main_ppo command "
    "(tests/cli/test_check_verl_example_classes.py)",
}
# The key families of findings, notes and fix labels (the others are the TUI's: the batch chain, the counts).
FINDING_KEYS = ("key.", "role.", "model.", "memory.", "batch.", "place.", "data.", "deploy.", "fix.")
# Keys of those families no corpus finding renders, each with the reason.
UNREACHED = {
    "data.length.unlabelled": "the data hook always labels the lengths it measured",
    "data.not_checked.cluster": "DATA-009 speaks only in local mode",
    "data.note.not_checked": "DATA-009 names the reason alone; the note with its prefix is the data report's",
    "data.read.row_near_byte_unusable": "a jsonl row nested thousands deep: the data corpus reads the first row only",
    "deploy.address.bad_port": "preflight refuses the address before any rule runs (tests/cli/test_hostile_input.py)",
    "deploy.address.host_too_long": "as deploy.address.bad_port",
    "deploy.no_token.nowhere": "preflight's own refusal before it connects (tests/detect/test_ray_token.py)",
    "deploy.no_token.path_empty": "as deploy.no_token.nowhere",
    "deploy.no_token.path_unusable": "as deploy.no_token.nowhere",
    "data.read.could_not": "the data hook's catch-all for a reader bug: no known input reaches it",
    "data.read.failed_after": "needs the operating system to fail in the middle of a read",
    "data.read.not_a_data_file": "the data hook rejects another file ending before the reader opens the file",
    "deploy.place.container_unnamed": "a Job manifest read back: no corpus Job trips a check that names its group",
    "deploy.token.local": "k8s-job starts Ray in one container: DEPLOY-012 does not compare parties",
    "deploy.token.submitter": "a ray-job has one Ray party (its driver), so DEPLOY-012 never compares its token source",
    "key.fate.current": "what describe() says of a key 0.9.1 has: never a finding",
    "key.fate.retired": "a retired key is a placeholder of 0.9.1's schema: KEY-001 never sees it",
    "key.reason.reward_section": "reward_model.* keys are legacy keys of 0.9.1: KEY-003 names them, not the reason",
    "key.reason.served_reward_model": "as key.reason.reward_section",
    "memory.fix.gradient_checkpointing": "no corpus phase fits by turning on gradient checkpointing alone",
    "model.unknown_architecture": "ROLE-004 and ROLE-011 name only models whose architecture is known",
}


# -- call sites --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CallSite:
    where: str  # path:line
    key: str | None  # None: not a literal
    source: str  # the key's expression as written
    names: frozenset[str]  # keyword parameters given
    open_ended: bool  # **params: the names are not known here


def call_sites(root: Path = WIZARD) -> list[CallSite]:
    """Every `msg(...)` call under root."""
    sites = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for node in ast.walk(ast.parse(text)):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
            if name != "msg":
                continue
            first = node.args[0]
            # `msg("a" if x else "b", ...)` is a call site of each key
            choices = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
            literals = [c.value for c in choices if isinstance(c, ast.Constant) and isinstance(c.value, str)]
            for literal in literals if len(literals) == len(choices) else [None]:
                sites.append(
                    CallSite(
                        f"{path.relative_to(ROOT)}:{node.lineno}",
                        literal,
                        ast.get_source_segment(text, first) or "",
                        frozenset(k.arg for k in node.keywords if k.arg is not None),
                        any(k.arg is None for k in node.keywords),
                    )
                )
    return sites


def call_site_problems(sites: list[CallSite], en: dict[str, str], zh: dict[str, str]) -> list[str]:
    problems = []
    for site in sites:
        if site.key is None:
            if (site.where.split(":")[0], site.source) not in DYNAMIC_KEYS:
                problems.append(f"{site.where}: msg({site.source}, ...) has no literal key (list it in DYNAMIC_KEYS)")
            continue
        used: set[str] = set()
        for lang, catalogue in (("en", en), ("zh", zh)):
            template = catalogue.get(site.key)
            if template is None:
                problems.append(f"{site.where}: {site.key!r} has no {lang} template")
                continue
            fields = template_fields(template)
            used |= fields
            if not site.open_ended and fields - site.names:
                problems.append(
                    f"{site.where}: the {lang} template of {site.key!r} names {sorted(fields - site.names)}"
                )
        if used and not site.open_ended and site.names - used:
            problems.append(f"{site.where}: {site.key!r} is given {sorted(site.names - used)}, which no template shows")
    return problems


def literal_strings(root: Path = WIZARD) -> set[str]:
    """Every string constant of the source outside the catalogues, and every value of the data files."""
    found: set[str] = set()
    for path in root.rglob("*.py"):
        if ("i18n" in path.parts and path.stem.startswith("messages")) or path.parent.name == "messages":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                found.add(node.value)
    for path in (root / "core" / "verl_data").glob("*.yaml"):
        found |= set(re.findall(r"[\w.]+", path.read_text(encoding="utf-8")))
    return found


def test_every_call_site_names_a_key_of_both_languages_with_its_parameters():
    assert call_site_problems(call_sites(), messages_en.MESSAGES, messages_zh.MESSAGES) == []


def test_the_call_site_check_fails_on_a_missing_key_or_parameter():
    sites = [s for s in call_sites() if s.key == "key.legacy"]
    assert sites, "the neighbour needs a real call site"
    zh = {k: v for k, v in messages_zh.MESSAGES.items() if k != "key.legacy"}
    assert any("'key.legacy' has no zh template" in p for p in call_site_problems(sites, messages_en.MESSAGES, zh))
    fewer = [CallSite(s.where, s.key, s.source, s.names - {"value"}, False) for s in sites]
    assert any("names ['value']" in p for p in call_site_problems(fewer, messages_en.MESSAGES, messages_zh.MESSAGES))
    more = [CallSite(s.where, s.key, s.source, s.names | {"extra"}, False) for s in sites]
    assert any("['extra']" in p for p in call_site_problems(more, messages_en.MESSAGES, messages_zh.MESSAGES))
    dynamic = [CallSite("wizard/x.py:1", None, "name", frozenset(), False)]
    assert call_site_problems(dynamic, messages_en.MESSAGES, messages_zh.MESSAGES)


def test_dynamic_keys_listed_are_still_there():
    sources = {(s.where.split(":")[0], s.source) for s in call_sites() if s.key is None}
    assert set(DYNAMIC_KEYS) <= sources


def test_every_key_is_used_somewhere():
    strings = literal_strings()
    unused = sorted(key for key in messages_en.MESSAGES if key not in strings and key not in UNUSED)
    assert unused == [], "keys no source file or data file names (remove them, or use them):\n" + "\n".join(unused)


def test_every_rename_reason_is_a_key_of_both_languages():
    from wizard.core.migrations import renames

    for key, entry in renames().items():
        for catalogue in (messages_en.MESSAGES, messages_zh.MESSAGES):
            assert entry["reason"] in catalogue, f"renames.yaml: the reason of {key} is no catalogue key"


# -- rendering every finding of the corpus ---------------------------------------------------------------------


@pytest.fixture(scope="session")
def findings(tmp_path_factory) -> list[tuple[str, object]]:
    return corpus(tmp_path_factory.mktemp("i18n_messages"))


def has_cjk(text: str) -> bool:
    return bool(CJK.search(text))


def missing_numbers(english: str, chinese: str) -> list[str]:
    return [n for n in NUMBER.findall(english) if n not in chinese]


def missing_identifiers(english: str, chinese: str) -> set[str]:
    return (
        {m.rstrip(".") for m in IDENTIFIER.findall(english)}
        - NOT_IDENTIFIERS
        - {m for m in IDENTIFIER.findall(chinese)}
        - {m for m in IDENTIFIER.findall(english) if m in chinese}
    )


def keys_of(value) -> set[str]:
    """The keys of a message and of every message among its parameters."""
    if isinstance(value, Msg):
        return {value.key}.union(*(keys_of(v) for _, v in value.params))
    if isinstance(value, tuple):
        return set().union(*(keys_of(v) for v in value))
    return set()


def given_texts(value) -> list[str]:
    """Every text a message was given as a parameter, nested messages and lists included."""
    if isinstance(value, Msg):
        return [t for _, v in value.params for t in given_texts(v)]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in given_texts(v)]
    return [str(value)]


def text_problems(where: str, message, needs_chinese: bool = True) -> list[str]:
    """What is wrong with one message rendered in both languages (strictly: no fallback to English)."""
    try:
        hash(message)
        en, zh = render(message, "en", strict=True), render(message, "zh", strict=True)
    except Exception as exc:  # any failure to render is the finding of this check
        return [f"{where}: {message!r} does not render: {type(exc).__name__}: {exc}"]
    given = " ".join(given_texts(message))  # braces the user wrote (`x={a}`) are values, not placeholders
    problems = [
        f"{where}: {lang} leaves {m!r} in {text!r}"
        for lang, text in (("en", en), ("zh", zh))
        for m in LEFTOVER.findall(text)
        if m not in given
    ]
    if needs_chinese and not has_cjk(zh):
        problems.append(f"{where}: no Chinese in {zh!r}")
    lost = missing_numbers(en, zh), sorted(missing_identifiers(en, zh))
    if any(lost):
        problems.append(f"{where}: {lost[0]} {lost[1]} lost from {en!r} -> {zh!r}")
    return problems


def english_only(rule_id: str) -> bool:
    return rule_id.split("-")[0] in ENGLISH_ONLY


def finding_problems(case: str, f) -> list[str]:
    where = f"{case}: {f.id}"
    if not isinstance(f.message, Msg):
        return [] if english_only(f.id) else [f"{where}: a plain text, not a message key: {f.message!r}"]
    problems = text_problems(where, f.message, needs_chinese=f.message.key not in ENGLISH_ONLY_KEYS)
    for fix in f.fixes:
        if isinstance(fix.label, Msg):
            problems += text_problems(f"{where} fix", fix.label, needs_chinese=False)
        elif not english_only(f.id):
            problems.append(f"{where}: the fix label is a plain text: {fix.label!r}")
    return problems


def test_every_finding_renders_in_both_languages_with_its_numbers_and_keys(findings):
    problems = [p for case, f in findings for p in finding_problems(case, f)]
    assert not problems, "\n".join(problems)


def test_the_render_check_fails_on_a_missing_parameter_a_lost_number_or_no_chinese(monkeypatch):
    good = msg("key.legacy", key="trainer.x", value="3")
    assert text_problems("t", good) == []
    assert text_problems("t", msg("key.legacy", key="trainer.x"))  # the value is not given
    monkeypatch.setitem(messages_zh.MESSAGES, "key.legacy", "verl 不再读取 {key}")
    assert any("lost" in p for p in text_problems("t", msg("key.legacy", key="trainer.x", value="3")))
    monkeypatch.setitem(messages_zh.MESSAGES, "key.legacy", "{key} is read no more; {value}")
    assert any("no Chinese" in p for p in text_problems("t", good))
    monkeypatch.delitem(messages_zh.MESSAGES, "key.legacy")
    assert any("does not render" in p for p in text_problems("t", good))  # no English fallback when strict


def test_the_corpus_holds_every_rule_of_the_catalogue(findings):
    assert {f.id for _, f in findings} == set(CATALOGUE) - set(UNTRIGGERABLE)


def test_every_finding_key_is_rendered_by_the_corpus(findings):
    """The corpus renders every template of the findings' families, or the key is listed with the reason."""
    reached = set().union(*(keys_of(f.message) | keys_of(tuple(fix.label for fix in f.fixes)) for _, f in findings))
    unreached = {key for key in messages_en.MESSAGES if key.startswith(FINDING_KEYS)} - reached
    assert unreached == set(UNREACHED), (
        "keys no corpus finding renders (add a corpus case, or list them in UNREACHED with the reason):\n"
        + "\n".join(sorted(unreached - set(UNREACHED)))
        + "\nlisted in UNREACHED but rendered now:\n"
        + "\n".join(sorted(set(UNREACHED) - unreached))
    )


# -- the layer the catalogues replaced -----------------------------------------------------------------


def regex_modules(root: Path) -> list[str]:
    """Modules under root that import `re` (a pattern over English text would need it)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module in ("re", "regex"):
                names.append(node.module)
            if {"re", "regex"} & set(names):
                found.append(path.name)
    return found


def core_rule_imports(root: Path) -> list[str]:
    """Modules under root that import a core rule module (the contract: i18n imports no core rule module)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if isinstance(node, ast.ImportFrom) and node.module:
                names.append(node.module)
            if any(n == "wizard.core.rules" or n.startswith("wizard.core.rules.") for n in names):
                found.append(path.name)
    return found


def test_no_regular_expression_is_left_in_i18n():
    assert regex_modules(WIZARD / "i18n") == []


def test_i18n_imports_no_core_rule_module():
    assert core_rule_imports(WIZARD / "i18n") == []


def test_the_source_checks_can_fail(tmp_path):
    (tmp_path / "patterns.py").write_text("import re\nPATTERN = re.compile('x')\n")
    (tmp_path / "tables.py").write_text("from wizard.core.rules.data.columns import CHAT_PROBLEMS\n")
    assert regex_modules(tmp_path) == ["patterns.py"]
    assert core_rule_imports(tmp_path) == ["tables.py"]


# -- where findings are shown ---------------------------------------------------------------------------------


def test_json_keeps_its_shape_and_is_english_unless_a_language_is_chosen():
    import json

    from tests.conftest import findings_for
    from wizard.commands.output import as_json
    from wizard.i18n import set_language

    found = [f for f in findings_for({"actor_rollout_ref.actor.ppo_mini_batch_size": 128}) if f.id == "BATCH-002"]
    doc = json.loads(as_json(found))["findings"][0]
    assert doc["message"] == "ppo_mini_batch_size 128 is larger than train_batch_size 64"
    assert all(isinstance(fix["label"], str) for fix in doc["fixes"])
    try:
        set_language("zh")
        assert (
            json.loads(as_json(found))["findings"][0]["message"] == "ppo_mini_batch_size 128 大于 train_batch_size 64"
        )
    finally:
        set_language("en")


def test_run_md_says_open_findings_in_english_whatever_the_language():
    from tests.conftest import findings_for
    from wizard.core.layers import build
    from wizard.core.plan import build_plan
    from wizard.emit.run_md import render_run_md
    from wizard.i18n import set_language

    layered = build([("test", {"data.train_batch_size": 64, "actor_rollout_ref.rollout.n": 4})])
    found = [f for f in findings_for({"actor_rollout_ref.actor.use_kl_loss": True}) if f.id == "ROLE-009"]
    try:
        set_language("zh")
        text = render_run_md(layered.answers, build_plan(layered.answers), found, ["config.yaml"])
    finally:
        set_language("en")
    assert "the reference is a frozen copy of" in text and not CJK.search(text)
