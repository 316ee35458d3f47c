"""Shared fixtures: real git repositories in temp dirs and the real CLI as a subprocess."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def tether_home(tmp_path_factory, monkeypatch):
    """Every test gets its own cache and state dirs: nothing leaks between tests or to the user."""
    home = tmp_path_factory.mktemp("tether-home")
    monkeypatch.setenv("TETHER_HOME", str(home))
    monkeypatch.delenv("TETHER_ROOT", raising=False)
    return home


class Repo:
    """A real git repository in a temp dir, with helpers to edit it and run the real CLI."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        self.git("config", "user.email", "dev@example.com")
        self.git("config", "user.name", "Dev")
        self.git("config", "commit.gpgsign", "false")

    def git(self, *args: str) -> str:
        return subprocess.run(["git", *args], cwd=self.path, check=True, capture_output=True, text=True).stdout

    def write(self, rel: str, text: str | bytes) -> Path:
        p = self.path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            p.write_bytes(text)
        else:
            p.write_text(text, encoding="utf-8")
        return p

    def read(self, rel: str) -> str:
        return (self.path / rel).read_text(encoding="utf-8")

    def replace(self, rel: str, old: str, new: str) -> None:
        text = self.read(rel)
        assert old in text, f"{old!r} not in {rel}"
        self.write(rel, text.replace(old, new, 1))

    def move(self, src: str, dst: str) -> None:
        target = self.path / dst
        target.parent.mkdir(parents=True, exist_ok=True)
        (self.path / src).rename(target)

    def commit(self, message: str = "change") -> None:
        self.git("add", "-A")
        self.git("commit", "-q", "-m", message)

    def run(
        self, *args: str, check: bool = True, cwd: Path | None = None, env: dict | None = None
    ) -> subprocess.CompletedProcess:
        """The real CLI, as a user runs it."""
        proc = subprocess.run(
            [sys.executable, "-m", "tether", "--root", str(self.path), *args],
            cwd=cwd or self.path,
            capture_output=True,
            text=True,
            env={**os.environ, **(env or {})},
        )
        if check and proc.returncode != 0:
            raise AssertionError(f"tether {' '.join(args)} exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}")
        return proc

    def json(self, *args: str, check: bool = True) -> dict:
        proc = self.run(*args, "--json", check=check)
        return orjson.loads(proc.stdout)

    def remember(self, text: str, *anchors: str, kind: str = "fact") -> str:
        args = ["remember", text, "--kind", kind]
        for a in anchors:
            args += ["--anchor", a]
        return self.json(*args)["data"]["id"]

    def check(self, quarantined: bool = False) -> dict[str, dict]:
        """`check --json` as {id: item}; it exits 1 when a memory file is quarantined, else 0."""
        proc = self.run("check", "--json", check=False)
        assert proc.returncode == (1 if quarantined else 0), proc.stdout + proc.stderr
        return {item["id"]: item for item in orjson.loads(proc.stdout)["data"]}

    def only(self) -> dict:
        """`check --json`'s item for the one memory in the repository."""
        items = list(self.check().values())
        assert len(items) == 1
        return items[0]

    def error(self, *args: str, exit: int | None = None) -> dict:
        """The `error` object of a command that must fail (with exit code `exit` when given)."""
        proc = self.run(*args, "--json", check=False)
        assert proc.returncode != 0 if exit is None else proc.returncode == exit, proc.stdout + proc.stderr
        return orjson.loads(proc.stdout)["error"]

    def memory_files(self) -> dict[str, bytes]:
        d = self.path / ".tether" / "memories"
        return {p.name: p.read_bytes() for p in sorted(d.glob("*.md"))} if d.exists() else {}


@pytest.fixture
def repo(tmp_path) -> Repo:
    return Repo(tmp_path / "repo")
