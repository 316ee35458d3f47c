"""The prompt hook's resting state stays light: what a silent prompt loads, as Python reports it.

Every prompt starts a process, so the hook's latency target (DESIGN §8, measured by `make bench`)
is mostly what it imports. This pins the modules the silent path must never load again: each
one was measured at 5-20 ms per prompt. A push may load them; silence may not.
"""

from __future__ import annotations

import time

import pytest
from hooktools import billing_repo, hook_env, payload, run_hook

HEAVY = ("dataclasses", "inspect", "pathlib", "orjson", "platformdirs", "typing", "uuid", "tree_sitter", "difflib")


def _imported(proc) -> set[str]:
    """Module names from `-X importtime` lines (`import time: self | cumulative | name`)."""
    names = set()
    for line in proc.stderr.decode().splitlines():
        if line.startswith("import time:") and "|" in line:
            names.add(line.rsplit("|", 1)[1].strip())
    return names


@pytest.fixture
def quiet_env(repo, tmp_path, monkeypatch):
    billing_repo(repo)
    time.sleep(2.2)  # the memory index trusts files older than 2 s; a younger one is re-read each time
    env = hook_env(tmp_path, repo.path, PYTHONPROFILEIMPORTTIME="1")
    # as inside Claude Code: caches in the platform's user dirs, CLAUDE_PLUGIN_DATA set
    env.pop("TETHER_HOME", None)
    for kind in ("CACHE", "STATE", "DATA"):
        env[f"XDG_{kind}_HOME"] = str(tmp_path / f"xdg-{kind.lower()}")
    return env


def _prompt(repo, text: str, session: str = "s-imports") -> bytes:
    return payload("user_prompt_submit.json", session=session, transcript="", repo=str(repo.path), prompt=text)


def test_a_silent_prompt_loads_none_of_the_heavy_modules(repo, quiet_env):
    first = run_hook("UserPromptSubmit", _prompt(repo, "add a dark mode toggle to the settings page"), quiet_env)
    assert first.returncode == 0 and first.stdout == b""
    assert "sqlite3" in _imported(first)  # the trace is real: the memory index was opened
    again = run_hook("UserPromptSubmit", _prompt(repo, "write release notes for the next version"), quiet_env)
    loaded = _imported(again)
    assert again.returncode == 0 and again.stdout == b""
    assert "sqlite3" in loaded and "tether.search" in loaded
    assert sorted(m for m in HEAVY if m in loaded) == []


def test_a_push_loads_the_resolver_but_never_inspect(repo, quiet_env):
    quiet_env["TETHER_PUSH_FLOOR"] = "0.01"
    question = "why does the invoice total round the way it does"
    run_hook("UserPromptSubmit", _prompt(repo, question, "s-warm"), quiet_env)  # a first run builds the code index
    proc = run_hook("UserPromptSubmit", _prompt(repo, question, "s-push"), quiet_env)
    assert proc.returncode == 0 and b"additionalContext" in proc.stdout
    loaded = _imported(proc)
    assert {"pathlib", "orjson", "dataclasses", "tether.resolve"} <= loaded  # the trace sees the resolver
    assert "inspect" not in loaded  # deferred: dataclasses never asks for it here
