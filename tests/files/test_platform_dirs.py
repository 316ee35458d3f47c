"""Caches and state live in the platform's user dirs (platformdirs), also when the answer is memoized.

Inside Claude Code the hooks keep platformdirs' answers in the plugin's data dir, and the CLI in
its venv (importing platformdirs costs more than a silent prompt hook's work); these tests hold
that memo to the answers platformdirs gives, through environment changes and damage.
"""

from __future__ import annotations

import os
import sys

import platformdirs
import pytest
from hooktools import hook_env, payload, run_hook

from tether.files import locate, paths


@pytest.fixture
def user_dirs(tmp_path, monkeypatch):
    """No TETHER_HOME: the platform's dirs, with XDG_* pointed into the test's temp dir."""
    monkeypatch.delenv("TETHER_HOME", raising=False)
    for kind in ("CACHE", "STATE", "DATA"):
        monkeypatch.setenv(f"XDG_{kind}_HOME", str(tmp_path / f"xdg-{kind.lower()}"))
    return tmp_path


def _platformdirs(kind: str) -> str:
    return {
        "cache": platformdirs.user_cache_dir,
        "state": platformdirs.user_state_dir,
        "data": platformdirs.user_data_dir,
    }[kind]("tether")


@pytest.mark.parametrize("where", ["plugin", "venv", "system python"])
def test_dirs_are_platformdirs_answers_in_and_outside_the_plugin(user_dirs, monkeypatch, repo, where):
    """Memoized in the plugin's data dir, else in the venv tether runs from; a system Python's
    prefix is never written to."""
    venv = user_dirs / "venv"
    venv.mkdir()
    monkeypatch.setattr(sys, "prefix", str(venv))
    if where == "system python":
        monkeypatch.setattr(sys, "base_prefix", str(venv))
    if where == "plugin":
        monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(user_dirs / "plugin-data"))
    else:
        monkeypatch.delenv("CLAUDE_PLUGIN_DATA", raising=False)
    key = locate.repo_key(repo.path)
    for _ in range(2):  # the second time from the memo, when there is one
        assert paths.cache_dir(repo.path) == paths.Path(_platformdirs("cache")) / key
        assert paths.state_dir(repo.path) == paths.Path(_platformdirs("state")) / key
    assert (user_dirs / "plugin-data" / locate.DIRS_MEMO).exists() == (where == "plugin")
    assert (venv / locate.DIRS_MEMO).exists() == (where == "venv")
    if where != "plugin":
        assert paths.plugin_data_dir() == paths.Path(_platformdirs("data"))


def test_a_changed_xdg_dir_is_followed_at_once_despite_the_memo(user_dirs, monkeypatch, repo):
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(user_dirs / "plugin-data"))
    first = paths.state_dir(repo.path)
    monkeypatch.setenv("XDG_STATE_HOME", str(user_dirs / "elsewhere"))
    moved = paths.state_dir(repo.path)
    assert moved != first and moved == paths.Path(_platformdirs("state")) / locate.repo_key(repo.path)
    assert str(moved).startswith(str(user_dirs / "elsewhere"))


@pytest.mark.parametrize("damage", [b"", b"{not json", b"[1, 2]", b'{"key": 1, "cache": 7}', b"\xff\xfe"])
def test_a_damaged_memo_is_ignored_and_rewritten(user_dirs, monkeypatch, repo, damage):
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(user_dirs / "plugin-data"))
    memo = user_dirs / "plugin-data" / locate.DIRS_MEMO
    memo.parent.mkdir(parents=True)
    memo.write_bytes(damage)
    assert paths.cache_dir(repo.path) == paths.Path(_platformdirs("cache")) / locate.repo_key(repo.path)
    assert memo.read_bytes() != damage
    assert [p.name for p in memo.parent.iterdir()] == [locate.DIRS_MEMO]  # no temp file left behind


def test_an_unwritable_plugin_data_dir_still_gives_the_right_dirs(user_dirs, monkeypatch, repo):
    blocker = user_dirs / "plugin-data"
    blocker.write_text("a file where the plugin data dir should be")
    monkeypatch.setenv("CLAUDE_PLUGIN_DATA", str(blocker))
    assert paths.cache_dir(repo.path) == paths.Path(_platformdirs("cache")) / locate.repo_key(repo.path)


def test_the_edit_hook_writes_its_session_log_in_the_platform_state_dir(user_dirs, repo, tmp_path):
    repo.write("billing.py", "def total(items):\n    return sum(items)\n")
    repo.commit("billing")
    repo.remember("Totals are summed in cents.", "billing.py::total")
    env = hook_env(tmp_path, repo.path)
    env.pop("TETHER_HOME", None)
    for xdg in ("first", "second"):  # a changed XDG_STATE_HOME is honoured by the very next hook
        env["XDG_STATE_HOME"] = str(user_dirs / xdg)
        data = payload(
            "post_tool_use_edit.json",
            session="s-dirs",
            transcript="",
            repo=str(repo.path),
            file=str(repo.path / "billing.py"),
        )
        proc = run_hook("PostToolUse", data, env)
        assert proc.returncode == 0 and proc.stdout == b"" and proc.stderr == b""
        log = user_dirs / xdg / "tether" / locate.repo_key(repo.path) / "sessions" / "s-dirs.edits.jsonl"
        assert log.exists(), sorted(os.listdir(user_dirs))
