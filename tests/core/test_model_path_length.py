"""A model path no machine can open (over Linux's NAME_MAX or PATH_MAX) is refused at its field, in every door
(issue 32 item 10: a 5,000-character model path was taken and pushed the fields off screen)."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from tests.cli.helpers import cli
from wizard.core.answers.models import Models
from wizard.core.paths import NAME_MAX_BYTES, PATH_MAX_BYTES

# sixteen names of 254 bytes and one of 14, each after its slash: 4,095 bytes
LONGEST_PATH = ("/" + "m" * 254) * 16 + "/" + "m" * (PATH_MAX_BYTES - 255 * 16 - 1)


@pytest.mark.parametrize(
    "path",
    [
        "/m/" + "a" * NAME_MAX_BYTES,  # a name at the limit
        LONGEST_PATH,  # a whole path at the limit
        "Qwen/Qwen2.5-0.5B-Instruct",
        "/data/模型/" + "模" * (NAME_MAX_BYTES // 3),  # 255 bytes in UTF-8
    ],
    ids=["name-at-limit", "path-at-limit", "repo-id", "utf8-name-at-limit"],
)
def test_paths_within_the_limits_are_taken(path):
    assert len(LONGEST_PATH.encode()) == PATH_MAX_BYTES
    assert Models(actor_path=path).actor_path == path


@pytest.mark.parametrize(
    ("field", "path", "words"),
    [
        ("actor_path", "/m/" + "a" * (NAME_MAX_BYTES + 1), "name of 256 bytes"),
        ("critic_path", LONGEST_PATH + "x", "4096 bytes long"),
        ("reward_model_path", "Qwen/" + "a" * 5000, "5005 bytes long"),
        ("custom_reward_path", "/data/模型/" + "模" * (NAME_MAX_BYTES // 3 + 1), "name of 258 bytes"),
    ],
    ids=["name-over", "path-over", "5000-repo-id", "utf8-name-over"],
)
def test_paths_over_the_limits_are_refused_with_the_length(field, path, words):
    with pytest.raises(ValidationError) as caught:
        Models(**{field: path})
    assert words in str(caught.value)


def test_new_refuses_a_5000_character_model_path_in_one_line(tmp_path):
    got = cli(
        "new",
        "--preset",
        "workshop-grpo-0.5b-1gpu",
        "--set",
        "models.actor_path=/m/" + "a" * 5000,
        "--out",
        str(tmp_path / "o"),
    )
    assert got.returncode == 2
    assert got.stderr.count("\n") == 1 and "Traceback" not in got.stderr
    assert "actor_rollout_ref.model.path" in got.stderr and "5003 bytes long" in got.stderr
    assert not (tmp_path / "o").exists()
