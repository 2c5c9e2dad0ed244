"""Chinese finding messages: every message the rules emit over a corpus of real inputs has a Chinese form that keeps
its numbers and keys, every rule of the catalogue is in that corpus, and every translation pattern is exercised.

The corpus (tests/test_i18n_corpus*.py) runs the real rules engine over answers, presets, model folders, data
files, launch scripts, manifests and a probed cluster. It is built once per session.
"""

from __future__ import annotations

import re

import pytest

from tests.test_i18n_corpus import corpus
from wizard.core.rules.catalogue import CATALOGUE
from wizard.i18n import finding_message, set_language
from wizard.i18n.text import Msg
from wizard.i18n.zh_messages import all_entries, describe_entry, zh_message

CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff]")
NUMBER = re.compile(r"\d+(?:\.\d+)?")
# Dotted keys (critic.model.path) and snake_case names (train_batch_size) a translation must carry over. Each
# match starts where a word starts and its runs never give back characters: linear on a 100 000-character value.
IDENTIFIER = re.compile(r"(?<![\w.-])[A-Za-z_][\w-]*+(?:\.(?:[A-Za-z_][\w-]*+|\*))++|\b[A-Za-z]\w*_\w+\b")
NOT_IDENTIFIERS = {"e.g"}  # "e.g. 10.0.0.1:6379" is said as 例如

# Rule ids the corpus cannot trigger, each with the reason. Empty: every rule of the catalogue is in the corpus.
UNTRIGGERABLE: dict[str, str] = {}

# Translation entries no corpus input reaches, each with the reason; (table, English pattern).
UNREACHED = {
    (
        "file_note",
        r"not a \.parquet, \.json or \.jsonl file; verl picks its reader by the file name and refuses others",
    ): "the data hook rejects another file ending before the reader opens the file",
    ("file_note", r"cannot read \((?P<e>.+)\)"): "needs the operating system to fail opening a readable file",
    (
        "file_note",
        r"read failed after (?P<n>\d+) rows \((?P<e>.+)\)",
    ): "needs the operating system to fail in the middle of a read",
    (
        "file_note",
        r"could not be read \((?P<e>.+)\)",
    ): "the data hook's catch-all for a reader bug: no known input reaches it",
    ("length_label", r"estimate"): "the data hook always labels the lengths it measured",
    (
        "not_checked_note",
        r"--mode cluster \(paths are for the cluster's machines\)",
    ): "DATA-009 speaks only in local mode",
    (
        "token_source",
        r"the submitting shell \(RAY_AUTH_TOKEN, RAY_AUTH_TOKEN_PATH or ~/\.ray/auth_token\)",
    ): "a ray-job has one Ray party (its driver), so DEPLOY-012 never compares its token source",
    (
        "token_source",
        r"made by the local Ray instance",
    ): "k8s-job starts Ray in one container: DEPLOY-012 does not compare parties",
    ("topology", r"the named topology"): "every named topology has a label",
    ("topology", r"the topology"): "every topology the wizard builds is detected, pasted or named",
}
# Tables proven complete by a test of their own rather than by the corpus.
COMPLETE_TABLES = {"rename_reason"}  # test_every_hand_written_rename_reason_is_translated


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


def chinese_of(f, used: set | None = None) -> str | None:
    """A finding's Chinese message: a catalogue key renders from messages_zh, a plain string by the patterns."""
    if isinstance(f.message, Msg):
        return f.message.render("zh")
    return zh_message(f.id, f.message, used)


def test_every_finding_has_a_chinese_message_with_its_numbers_and_keys(findings):
    problems = []
    for case, f in findings:
        english = f.message.render("en") if isinstance(f.message, Msg) else f.message
        zh = chinese_of(f)
        if zh is None or not has_cjk(zh):
            problems.append(f"{case}: {f.id}: no Chinese for {english!r}")
        elif missing_numbers(english, zh) or missing_identifiers(english, zh):
            problems.append(
                f"{case}: {f.id}: {missing_numbers(english, zh)} {sorted(missing_identifiers(english, zh))} "
                f"lost from {english!r} -> {zh!r}"
            )
    assert not problems, "\n".join(problems)


def test_the_corpus_holds_every_rule_of_the_catalogue(findings):
    assert {f.id for _, f in findings} == set(CATALOGUE) - set(UNTRIGGERABLE)


def test_every_translation_entry_is_exercised_by_the_corpus(findings):
    used: set = set()
    for _, f in findings:
        chinese_of(f, used)
    unreached = {entry for entry in all_entries() - used if entry[0] not in COMPLETE_TABLES}
    named = {(entry[0], describe_entry(entry).split(": ", 1)[1]) for entry in unreached}
    assert named == set(UNREACHED), (
        "entries no corpus finding reaches (add a corpus case, or list them in UNREACHED with the reason):\n"
        + "\n".join(sorted(f"{t}: {p}" for t, p in named - set(UNREACHED)))
        + "\nlisted in UNREACHED but reached now:\n"
        + "\n".join(sorted(f"{t}: {p}" for t, p in set(UNREACHED) - named))
    )


# -- the tables that mirror the rules' own ---------------------------------------------------------


def test_every_chat_and_pair_problem_is_translated():
    from wizard.core.rules.data import CHAT_PROBLEMS, PAIR_PROBLEMS
    from wizard.i18n.zh_messages_data import CHAT_PROBLEMS_ZH, PAIR_PROBLEMS_ZH

    assert list(CHAT_PROBLEMS_ZH) == list(CHAT_PROBLEMS)
    assert set(PAIR_PROBLEMS_ZH) == set(PAIR_PROBLEMS)


def test_every_hand_written_rename_reason_is_translated():
    from wizard.core.migrations import renames
    from wizard.i18n.zh_messages import translate_fragment

    for key, entry in renames().items():
        zh = translate_fragment("rename_reason", entry["reason"])
        assert has_cjk(zh), f"the reason of {key} in verl_data/renames.yaml has no Chinese: {entry['reason']!r}"


# -- the matching itself ---------------------------------------------------------------------------


def test_every_template_names_groups_and_tables_that_exist():
    """A template naming a missing group or table would raise in the TUI, on the first message it matches."""
    import importlib

    from wizard.i18n.zh_messages import _FAMILIES, _FIELD

    modules = [importlib.import_module(f"wizard.i18n.{name}") for name in _FAMILIES]
    tables = {name: table for m in modules for name, table in m.FRAGMENTS.items()}
    entries = [(rule_id, pattern, template) for m in modules for rule_id, pattern, template in m.PATTERNS]
    entries += [
        (name, pattern, template)
        for name, table in tables.items()
        if isinstance(table, list)
        for pattern, template in table
    ]
    for name, pattern, template in entries:
        groups = set(re.compile(pattern).groupindex)
        for field in _FIELD.finditer(template):
            assert field.group(1) in groups, f"{name}: {{{field.group(1)}}} is not a group of {pattern!r}"
            assert field.group(2) is None or field.group(2) in tables, f"{name}: no fragment table {field.group(2)!r}"
    for name, table in tables.items():
        if isinstance(table, tuple):
            assert table[0] == "split" and table[3] in tables, f"{name}: {table!r}"


def test_the_checks_catch_a_translation_that_drops_a_number_or_a_key():
    english = "ppo_mini_batch_size 256 is larger than train_batch_size 100"
    assert missing_numbers(english, "ppo_mini_batch_size 大于 train_batch_size 100") == ["256"]
    assert missing_identifiers(english, "小批量 256 大于 train_batch_size 100") == {"ppo_mini_batch_size"}
    assert missing_numbers(english, zh_message("BATCH-002", english)) == []


def test_values_from_the_input_are_captured_whatever_they_are():
    message = "critic and reward model are both /data/模型 v2/rm (copy)"
    assert zh_message("ROLE-003", message) == "critic 与奖励模型都是 /data/模型 v2/rm (copy)"
    path = "/srv/my data: 2024/train.parquet"
    zh = zh_message("DATA-008", f"data.train_files: '~{path}' starts with ~, which verl does not expand")
    assert zh is not None and f"'~{path}'" in zh


def test_an_english_piece_no_table_knows_stays_english_inside_the_chinese():
    zh = zh_message("SCRIPT-010", "line 3: Hydra rejects the value of x=int(q): int(...): a brand new complaint")
    assert zh == "第 3 行：Hydra 拒绝了 x=int(q) 的值：int(...)：a brand new complaint"
    zh = zh_message(
        "DEPLOY-001",
        "CUDA_VISIBLE_DEVICES=1 is set for a new place; size the run with trainer.n_gpus_per_node and the "
        "GPU request, and let Ray assign devices",
    )
    assert zh is not None and "a new place" in zh and has_cjk(zh)


def test_an_unknown_message_is_left_to_english():
    assert zh_message("BATCH-001", "something new") is None
    assert zh_message("NO-SUCH-RULE", "train_batch_size 64 × n 4 = 256 responses do not divide by 7 GPUs") is None
    set_language("zh")
    try:
        assert finding_message("BATCH-001", "something new") == "something new"
        assert (
            finding_message("BATCH-002", "ppo_mini_batch_size 8 is larger than train_batch_size 4")
            == "ppo_mini_batch_size 8 大于 train_batch_size 4"
        )
    finally:
        set_language("en")
