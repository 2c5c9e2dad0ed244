"""The session reuses what it read from local files while the answers those reads depend on are unchanged.

A keystroke in a batch field must not re-read data files; an edit to a data path, the prompt key or the
model must; Session.refresh() reads everything again.
"""

from __future__ import annotations

import json

import pytest

from wizard.detect import facts
from wizard.tui.session import Session


@pytest.fixture
def counted(monkeypatch):
    """Calls of each inspector by name, counted as gather makes them."""
    calls = {inspect.__name__: 0 for inspect, _ in facts.INSPECTORS}
    wrapped = []
    for inspect, inputs in facts.INSPECTORS:

        def wrapper(*args, _real=inspect, **kwargs):
            calls[_real.__name__] += 1
            return _real(*args, **kwargs)

        wrapper.__name__ = inspect.__name__
        wrapped.append((wrapper, inputs))
    monkeypatch.setattr(facts, "INSPECTORS", tuple(wrapped))
    return calls


def write_rows(path, prompt):
    rows = [{"data_source": "openai/gsm8k", "prompt": prompt, "reward_model": {"ground_truth": "1"}}] * 4
    path.write_text("\n".join(json.dumps(r) for r in rows) + "\n")


def session_on(tmp_path) -> Session:
    train = tmp_path / "train.jsonl"
    write_rows(train, [{"role": "user", "content": "1+1?"}])
    session = Session(mode="local")
    session.set("data.train_files", str(train))
    session.set("data.val_files", str(train))
    return session


def test_a_batch_edit_reads_nothing_again(tmp_path, counted):
    session = session_on(tmp_path)
    before = dict(counted)
    session.set("data.train_batch_size", 8)
    session.set("actor_rollout_ref.actor.ppo_mini_batch_size", 4)
    assert counted == before


@pytest.mark.parametrize(
    "address, value, inspector",
    [
        ("data.prompt_key", "question", "inspect_data"),
        ("actor_rollout_ref.model.path", "Qwen/Qwen2.5-0.5B-Instruct", "inspect_models"),
        ("actor_rollout_ref.model.path", "Qwen/Qwen2.5-0.5B-Instruct", "inspect_data"),  # its tokenizer counts lengths
    ],
)
def test_an_edit_to_what_a_read_depends_on_reads_again(tmp_path, counted, address, value, inspector):
    session = session_on(tmp_path)
    before = counted[inspector]
    session.set(address, value)
    assert counted[inspector] == before + 1


def test_findings_follow_a_changed_path_and_a_refresh(tmp_path):
    session = session_on(tmp_path)
    assert "DATA-003" not in {f.id for f in session.findings}
    bad = tmp_path / "bad.jsonl"
    write_rows(bad, "a plain string, not a chat list")
    session.set("data.train_files", str(bad))
    assert "DATA-003" in {f.id for f in session.findings}
    # the same path rewritten on disk: kept from the cache until the user asks for a fresh read
    write_rows(bad, [{"role": "user", "content": "fine now"}])
    session.set("data.train_batch_size", 4)
    assert "DATA-003" in {f.id for f in session.findings}
    session.refresh()
    assert "DATA-003" not in {f.id for f in session.findings}


def test_every_inspector_names_its_inputs():
    from wizard.core.answers.model import Answers

    names = [inspect.__name__ for inspect, _ in facts.INSPECTORS + facts.ENVIRONMENT]
    assert names == ["inspect_data", "inspect_models", "inspect_paths", "inspect_env"]
    for _, inputs in facts.INSPECTORS + facts.ENVIRONMENT:
        hash(inputs(Answers(), "local"))  # a cache key


def test_only_the_tuis_facts_say_which_secrets_are_set_here(monkeypatch):
    from wizard.core.answers.model import Answers

    monkeypatch.delenv("WANDB_API_KEY", raising=False)
    answers = Answers.model_validate({"trainer": {"logger": ["console", "wandb"]}})
    assert "env" not in facts.gather(answers, "local")  # new and check: this machine says nothing of the run's
    assert facts.gather_with_environment(answers, "local")["env"] == frozenset()
    monkeypatch.setenv("WANDB_API_KEY", "k")
    assert facts.gather_with_environment(answers, "local")["env"] == frozenset({"WANDB_API_KEY"})
