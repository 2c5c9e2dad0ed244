"""preflight with RAY_AUTH_MODE=token and no token: DEPLOY-012 saying where Ray looks, before anything connects.

Ray reads the token from RAY_AUTH_TOKEN, then the file RAY_AUTH_TOKEN_PATH names, then ~/.ray/auth_token;
without one its core stops the driver with a C++ error, which preflight used to report as an unanswered GCS.
"""

from __future__ import annotations

import pytest

from tests.cli.helpers import cli
from wizard.detect.deploy.ray import token_problem

DEAD = "127.0.0.1:1"  # nothing listens on port 1: an address that would fail as DEPLOY-013


@pytest.fixture
def env(monkeypatch, tmp_path):
    monkeypatch.setenv("HOME", str(tmp_path))
    for name in ("RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH", "RAY_AUTH_MODE", "RAY_ADDRESS"):
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_no_token_anywhere_is_deploy_012_naming_the_places(env, tmp_path):
    env.setenv("RAY_AUTH_MODE", "token")
    proc = cli("preflight", "--address", DEAD)
    assert proc.returncode == 1 and proc.stdout.startswith("✗ DEPLOY-012 error:"), proc.stdout
    for word in ("no token found", "RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH", str(tmp_path / ".ray" / "auth_token")):
        assert word in proc.stdout
    assert "DEPLOY-013" not in proc.stdout


@pytest.mark.parametrize("mode", ["token", "TOKEN", " token "])
def test_the_mode_is_read_as_ray_reads_it(env, mode):
    env.setenv("RAY_AUTH_MODE", mode)
    assert token_problem() is not None


def test_an_empty_or_missing_token_file_is_named(env, tmp_path):
    env.setenv("RAY_AUTH_MODE", "token")
    empty = tmp_path / "token"
    empty.write_text("")
    env.setenv("RAY_AUTH_TOKEN_PATH", str(empty))
    assert "is empty" in str(token_problem())
    env.setenv("RAY_AUTH_TOKEN_PATH", str(tmp_path / "nope"))
    assert "no such file" in str(token_problem())


@pytest.mark.parametrize(
    "where",
    ["RAY_AUTH_TOKEN", "RAY_AUTH_TOKEN_PATH", "default file", "mode disabled", "mode unset"],
)
def test_a_token_found_anywhere_lets_preflight_connect(env, tmp_path, where):
    env.setenv("RAY_AUTH_MODE", "token")
    if where == "RAY_AUTH_TOKEN":
        env.setenv("RAY_AUTH_TOKEN", "a" * 64)
    elif where == "RAY_AUTH_TOKEN_PATH":
        (tmp_path / "t").write_text("a" * 64)
        env.setenv("RAY_AUTH_TOKEN_PATH", str(tmp_path / "t"))
    elif where == "default file":
        (tmp_path / ".ray").mkdir()
        (tmp_path / ".ray" / "auth_token").write_text("a" * 64)
    elif where == "mode disabled":
        env.setenv("RAY_AUTH_MODE", "disabled")
    else:
        env.delenv("RAY_AUTH_MODE")
    assert token_problem() is None
    proc = cli("preflight", "--address", DEAD)
    assert proc.returncode == 1 and "DEPLOY-013" in proc.stdout and "nothing answers" in proc.stdout
