"""One user's world for an end-to-end test: a real git repository, Claude Code in a temp HOME, the model."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from hooktools import BILLING, MEMORIES, RETRY, ROOT

from .claude_code import ClaudeCode, Session
from .scripted_model import ScriptedModel

LAUNCHER = ROOT / "hooks" / "launcher.py"


class GitRepo:
    """A real git repository in a temp dir (like tests/conftest.py's Repo, which is not importable here)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True)
        for args in (
            ("init", "-q", "-b", "main"),
            ("config", "user.email", "dev@example.com"),
            ("config", "user.name", "Dev"),
            ("config", "commit.gpgsign", "false"),
        ):
            self.git(*args)

    def git(self, *args: str) -> str:
        return subprocess.run(["git", *args], cwd=self.path, check=True, capture_output=True, text=True).stdout

    def write(self, rel: str, text: str) -> None:
        p = self.path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")

    def read(self, rel: str) -> str:
        return (self.path / rel).read_text(encoding="utf-8")

    def commit(self, message: str) -> None:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)


@dataclass
class World:
    """The repository, Claude Code in a temp HOME with the plugin, the scripted model, tether's dirs."""

    repo: GitRepo
    claude: ClaudeCode
    model: ScriptedModel
    tether_home: Path
    plugin_data: Path
    _failures_at: int = field(default=0, repr=False)

    def run(self, *prompts: str, allowed: list[str] | None = None) -> Session:
        """One Claude Code session playing `prompts` as its turns."""
        s = self.claude.session(list(prompts), allowed=allowed, mark=lambda: len(self.model.requests))
        with open(self.repo.path.parent / "events.jsonl", "a", encoding="utf-8") as f:  # for debugging
            f.writelines(json.dumps(e) + "\n" for e in s.events)
        assert not self.model.errors, self.model.errors
        done = len(s.results())
        assert done == len(prompts), f"Claude Code finished {done} of {len(prompts)} turns\n{s.describe()}"
        return s

    def cli(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        """The real CLI through the plugin's launcher and venv, as the slash commands run it."""
        python = shutil.which("python3") or sys.executable
        proc = subprocess.run(
            [python, str(LAUNCHER), "--data", str(self.plugin_data), "cli", "--root", str(self.repo.path), *args],
            capture_output=True,
            text=True,
            env=self.claude.env(),
            cwd=self.repo.path,
            timeout=600,
            stdin=subprocess.DEVNULL,
        )
        if check and proc.returncode != 0:
            raise AssertionError(f"tether {' '.join(args)} exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
        return proc

    def remember(self, name: str) -> str:
        """One of tests/hooktools.py's MEMORIES, stored through the CLI; its id."""
        body, anchor, kind = MEMORIES[name]
        out = self.cli("remember", body, "--anchor", anchor, "--kind", kind, "--json")
        return json.loads(out.stdout)["data"]["id"]

    @contextmanager
    def tether_env(self):
        """TETHER_HOME pointed at this world's, for reading its state in this process."""
        old = os.environ.get("TETHER_HOME")
        os.environ["TETHER_HOME"] = str(self.tether_home)
        try:
            yield
        finally:
            if old is None:
                os.environ.pop("TETHER_HOME", None)
            else:
                os.environ["TETHER_HOME"] = old

    def hook_failures(self) -> list[dict]:
        """What the hooks logged as failures since this world was made (they fail open, silently)."""
        out = [
            json.loads(line)
            for log in self.tether_home.glob("state/*/hook-failures.jsonl")
            for line in log.read_text().splitlines()
            if line.strip()
        ]
        shared = self.plugin_data / "hook-failures.jsonl"
        if shared.exists():
            out += [json.loads(line) for line in shared.read_text().splitlines()[self._failures_at :] if line.strip()]
        return out


def make_world(base: Path, exe: Path, plugin_data: Path, model: ScriptedModel) -> World:
    """A committed billing repository (tests/hooktools.py's code) and a Claude Code that works in it."""
    model.record = base / "requests.jsonl"
    repo = GitRepo(base / "repo")
    repo.write("src/billing.py", BILLING)
    repo.write("src/retry.py", RETRY)
    repo.commit("billing")
    tether_home = base / "tether-home"
    claude = ClaudeCode(exe, ROOT, base / "home", repo.path, model.url, tether_home, plugin_data=plugin_data)
    shared = plugin_data / "hook-failures.jsonl"
    seen = len(shared.read_text().splitlines()) if shared.exists() else 0
    return World(repo, claude, model, tether_home, plugin_data, seen)
