"""Hooks fail open: whatever goes wrong, exit 0, print nothing, and say why in the failure log."""

from __future__ import annotations

import os
import sys

import pytest
from hooktools import FIXTURE_FOR, RELATED, UNRELATED, billing_repo, context_of, failures, hook_env, payload, run_hook

EVENTS = list(FIXTURE_FOR)
SESSION = "9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"


@pytest.fixture
def billing(repo):
    return billing_repo(repo)


def full_payload(event: str, repo, text: str = RELATED) -> bytes:
    return payload(
        FIXTURE_FOR[event],
        session=SESSION,
        repo=str(repo.path),
        transcript="",
        prompt=text,
        file=str(repo.path / "src/billing.py"),
        message="done",
    )


def quiet(proc) -> None:
    assert (proc.returncode, proc.stdout) == (0, b""), (proc.returncode, proc.stdout, proc.stderr)


@pytest.mark.parametrize("event", EVENTS)
@pytest.mark.parametrize("garbage", [b"not json at all {", b"[1, 2, 3]", b"\xff\xfe\x00garbage", b'"a string"'])
def test_garbage_stdin_exits_0_silently_and_is_logged(repo, billing, tmp_path, tether_home, event, garbage):
    proc = run_hook(
        event, garbage, hook_env(tmp_path, repo.path), matcher_subject="startup" if event == "SessionStart" else None
    )
    quiet(proc)
    (entry,) = failures(tether_home, tmp_path / "plugin-data")
    assert entry["event"] == event and entry["error"] == "InvalidInput" and entry["code"] == "invalid_input"
    assert entry["at"].endswith("Z") and entry["message"].startswith("hook payload")


@pytest.mark.parametrize("event", ["UserPromptSubmit", "PostToolUse", "Stop", "PreCompact"])
@pytest.mark.parametrize("data", [b"", b"{}", b'{"session_id": 7, "prompt": null, "tool_input": "x", "cwd": []}'])
def test_missing_or_mistyped_fields_exit_0_silently(repo, billing, tmp_path, tether_home, event, data):
    quiet(run_hook(event, data, hook_env(tmp_path, repo.path)))
    assert failures(tether_home, tmp_path / "plugin-data") == []


@pytest.mark.parametrize("event", EVENTS)
def test_a_missing_venv_exits_0_silently_and_says_why(repo, billing, tmp_path, tether_home, event):
    env = hook_env(tmp_path, repo.path, TETHER_VENV=None)
    quiet(
        run_hook(event, full_payload(event, repo), env, matcher_subject="startup" if event == "SessionStart" else None)
    )
    (entry,) = failures(tether_home, tmp_path / "plugin-data")
    assert entry["event"] == event and entry["error"] == "VenvNotReady"
    assert "not installed yet" in entry["message"]


def test_a_broken_venv_exits_0_silently_and_says_why(repo, billing, tmp_path, tether_home):
    broken = tmp_path / "broken-venv"
    (broken / "bin").mkdir(parents=True)
    (broken / "lib" / f"python{sys.version_info[0]}.{sys.version_info[1]}" / "site-packages").mkdir(parents=True)
    os.symlink(sys.executable, broken / "bin" / "python")
    (broken / "pyvenv.cfg").write_text(f"version = {sys.version_info[0]}.{sys.version_info[1]}.0\n")
    env = hook_env(tmp_path, repo.path, TETHER_VENV=str(broken))  # a venv without tether's dependencies
    quiet(run_hook("UserPromptSubmit", full_payload("UserPromptSubmit", repo), env))
    (entry,) = failures(tether_home, tmp_path / "plugin-data")
    assert entry["error"] in ("ModuleNotFoundError", "ImportError") and "orjson" in entry["message"]


def test_a_damaged_venv_record_exits_0_silently(repo, billing, tmp_path, tether_home):
    env = hook_env(tmp_path, repo.path, TETHER_VENV=None)
    data = tmp_path / "plugin-data"
    data.mkdir()
    (data / "venv.ready").write_bytes(b"\x00\xffpython=\nversion")
    quiet(run_hook("Stop", full_payload("Stop", repo), env))
    assert [e["error"] for e in failures(tether_home, data)] == ["VenvNotReady"]


@pytest.mark.parametrize("event", ["UserPromptSubmit", "PostToolUse", "Stop", "PreCompact"])
def test_an_unwritable_state_dir_exits_0_silently_and_logs_to_the_plugin_data_dir(
    repo, billing, tmp_path, tether_home, event
):
    (tether_home / "state").write_text("a file where the state directory should be")
    env = hook_env(tmp_path, repo.path, TETHER_PUSH_FLOOR="0.01")
    quiet(run_hook(event, full_payload(event, repo), env))
    (entry,) = failures(tether_home, tmp_path / "plugin-data")
    assert entry["event"] == event and entry["error"] in ("NotADirectoryError", "FileExistsError")


def test_a_corrupt_cache_is_rebuilt_and_never_breaks_a_hook(repo, billing, tmp_path, tether_home):
    env = hook_env(tmp_path, repo.path)
    quiet(run_hook("UserPromptSubmit", full_payload("UserPromptSubmit", repo, UNRELATED), env))
    (cache,) = tether_home.glob("cache/*/cache.sqlite")
    for p in cache.parent.iterdir():
        p.write_bytes(b"this is not a database" * 100)
    quiet(run_hook("UserPromptSubmit", full_payload("UserPromptSubmit", repo, UNRELATED), env))
    proc = run_hook("UserPromptSubmit", full_payload("UserPromptSubmit", repo, RELATED), env)
    assert proc.returncode == 0 and billing["total"][:8] in context_of(proc)
    assert failures(tether_home, tmp_path / "plugin-data") == []


def test_a_corrupt_session_state_restarts_dedup_without_failing(repo, billing, tmp_path, tether_home):
    env = hook_env(tmp_path, repo.path)
    assert context_of(run_hook("UserPromptSubmit", full_payload("UserPromptSubmit", repo), env))
    (state,) = tether_home.glob(f"state/*/sessions/{SESSION}.json")
    state.write_text('{"window": {"x": "not a record"}, "bypassed": 3')
    assert context_of(run_hook("UserPromptSubmit", full_payload("UserPromptSubmit", repo), env))
    assert failures(tether_home, tmp_path / "plugin-data") == []


def test_a_quarantined_memory_file_does_not_break_push_recall(repo, billing, tmp_path, tether_home):
    repo.write(".tether/memories/half-written--deadbeef.md", '---\n{"id": \n')
    proc = run_hook("UserPromptSubmit", full_payload("UserPromptSubmit", repo), hook_env(tmp_path, repo.path))
    assert proc.returncode == 0 and billing["total"][:8] in context_of(proc)
