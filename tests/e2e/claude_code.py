"""Running the pinned, real Claude Code headless against the scripted model, with tether as a plugin.

One `ClaudeCode` is one user's machine: a temporary HOME, the plugin loaded with `--plugin-dir` from
this checkout, the model at `ANTHROPIC_BASE_URL`. `session(prompts)` runs one Claude Code session
in stream-json mode and sends each prompt after the previous turn's `result` event, so several
turns share one session (and its hook state); `/compact` is a turn like any other.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from .scripted_model import Request, blocks_of

VERSION = "2.1.332"
PACKAGE = f"@anthropic-ai/claude-code@{VERSION}"
PLUGIN = "tether"
TOOL_PREFIX = "mcp__plugin_tether_tether__"
TOOLS = ("recall", "remember", "check", "affected", "reanchor", "supersede", "retire")
EDIT_TOOLS = ("Edit", "Write", "MultiEdit")
WAIT = "WaitForMcpServers"  # Claude Code's own tool, offered while an MCP server is still connecting
SETTING_UP = "tether is finishing its first-time setup"  # hooks/mcp_bridge.py, while the venv is built
TURN_TIMEOUT = 420  # seconds for one turn: the first one waits for the plugin's venv build (22-60 s)


def find_claude(npx: str) -> Path:
    """The pinned Claude Code's own executable, fetched once by npx into the user's npm cache.

    Running the executable directly (not `npx ...` each time) keeps each session fast and lets
    the sessions use a temporary HOME without npx fetching the package again into it.
    """
    proc = subprocess.run(
        [npx, "-y", "-p", PACKAGE, "-c", "command -v claude"],
        capture_output=True,
        text=True,
        timeout=900,
        stdin=subprocess.DEVNULL,
    )
    path = proc.stdout.strip().splitlines()[-1] if proc.stdout.strip() else ""
    if proc.returncode != 0 or not path:
        raise RuntimeError(f"npx could not provide {PACKAGE}: {proc.stderr.strip()[-800:]}")
    real = Path(path).resolve()
    out = subprocess.run(
        [str(real), "--version"], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL
    )
    if not out.stdout.startswith(VERSION):
        raise RuntimeError(f"{real} is Claude Code {out.stdout.strip()!r}, not {VERSION}")
    return real


@dataclass
class Turn:
    """One prompt of a session and the model requests Claude Code made for it, in order."""

    prompt: str
    requests: list[Request]

    @property
    def first(self) -> Request:
        """The turn's first agent request: what the model saw when the prompt arrived."""
        for r in self.requests:
            if r.is_agent and not r.is_compaction:
                return r
        raise AssertionError(f"no agent request for the prompt {self.prompt!r}: {len(self.requests)} requests")

    def added(self) -> str:
        """The text Claude Code put after the prompt in the turn's first request (hook context lands here)."""
        msgs = self.first.messages
        for i in range(len(msgs) - 1, -1, -1):
            blocks = blocks_of(msgs[i])
            at = [j for j, b in enumerate(blocks) if self.prompt in b.get("text", "")]
            if msgs[i].get("role") == "user" and at:
                after = [b for b in blocks[at[-1] + 1 :]] + [b for m in msgs[i + 1 :] for b in blocks_of(m)]
                return "\n".join(b.get("text", "") for b in after if b.get("type") == "text")
        raise AssertionError(f"the prompt {self.prompt!r} is not in its own first request")


@dataclass
class Session:
    """What one Claude Code session printed (stream-json events), and how it ended."""

    events: list[dict] = field(default_factory=list)
    returncode: int | None = None
    stderr: str = ""
    prompts: list[str] = field(default_factory=list)
    marks: list[int] = field(default_factory=list)  # model requests received before each prompt was sent
    started: float = 0.0  # time.time() as Claude Code was started

    def turns(self, requests: list[Request]) -> list[Turn]:
        """Each prompt with the requests it caused (the next prompt waits for this turn's result)."""
        ends = self.marks[1:] + [len(requests)]
        return [Turn(p, requests[a:b]) for p, a, b in zip(self.prompts, self.marks, ends)]

    @property
    def session_id(self) -> str | None:
        return next((e.get("session_id") for e in self.events if e.get("session_id")), None)

    def results(self) -> list[dict]:
        return [e for e in self.events if e.get("type") == "result"]

    def hook_responses(self, event: str | None = None) -> list[dict]:
        return [e for e in self.events if e.get("subtype") == "hook_response" and event in (None, e.get("hook_event"))]

    def describe(self) -> str:
        """Enough of the run to debug a failing assertion."""
        tail = "\n".join(json.dumps(e)[:400] for e in self.events[-12:])
        return f"exit {self.returncode}\nstderr: {self.stderr[-2000:]}\nlast events:\n{tail}"


class ClaudeCode:
    """One user's machine: HOME, the plugin checkout, the repository, the scripted model's URL."""

    def __init__(
        self,
        exe: Path,
        plugin_dir: Path,
        home: Path,
        repo: Path,
        model_url: str,
        tether_home: Path,
        plugin_data: Path | None = None,
        env: dict | None = None,
    ) -> None:
        self.exe, self.plugin_dir, self.home, self.repo = exe, plugin_dir, home, repo
        self.model_url, self.tether_home = model_url, tether_home
        self.extra_env: dict[str, str | None] = dict(env or {})
        home.mkdir(parents=True, exist_ok=True)
        if plugin_data is not None:
            self.share_plugin_data(plugin_data)

    @property
    def plugin_data(self) -> Path:
        """Where Claude Code points CLAUDE_PLUGIN_DATA for a --plugin-dir plugin (it ignores ours)."""
        return self.home / ".claude" / "plugins" / "data" / f"{PLUGIN}-inline"

    def share_plugin_data(self, data: Path) -> None:
        """Make this HOME's plugin data dir the shared one, so the venv is built once per test run."""
        self.plugin_data.parent.mkdir(parents=True, exist_ok=True)
        if not self.plugin_data.exists():
            self.plugin_data.symlink_to(data, target_is_directory=True)

    def env(self) -> dict:
        keep = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("CLAUDE", "ANTHROPIC", "TETHER_", "MCP_", "ENABLE_TOOL_SEARCH", "PYTEST_"))
        }
        pip_cache = os.environ.get("PIP_CACHE_DIR") or str(Path.home() / ".cache" / "pip")
        keep.update(
            HOME=str(self.home),
            PIP_CACHE_DIR=pip_cache,  # the real user's wheel cache: the temp HOME would start cold
            UV_CACHE_DIR=os.environ.get("UV_CACHE_DIR") or str(Path.home() / ".cache" / "uv"),  # the same for uv
            ANTHROPIC_BASE_URL=self.model_url,
            ANTHROPIC_API_KEY="test",
            CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC="1",
            DISABLE_TELEMETRY="1",
            DISABLE_AUTOUPDATER="1",
            # Plugin MCP tools go straight into the request's `tools` once connected, not deferred
            # behind ToolSearch (2.1.332 has no --tool-search flag; this variable is the switch).
            ENABLE_TOOL_SEARCH="false",
            TETHER_HOME=str(self.tether_home),
            # the model is on 127.0.0.1: never through a proxy the machine may have configured
            NO_PROXY=",".join(filter(None, [os.environ.get("NO_PROXY", ""), "127.0.0.1", "localhost"])),
            no_proxy=",".join(filter(None, [os.environ.get("no_proxy", ""), "127.0.0.1", "localhost"])),
        )
        keep.update(self.extra_env)
        return {k: v for k, v in keep.items() if v is not None}  # an extra None unsets (ENABLE_TOOL_SEARCH)

    def command(self, allowed: list[str]) -> list[str]:
        # --allowedTools takes several values: it goes last
        return [
            str(self.exe),
            "-p",
            "--input-format",
            "stream-json",
            "--output-format",
            "stream-json",
            "--verbose",
            "--include-hook-events",
            "--permission-mode",
            "dontAsk",
            "--plugin-dir",
            str(self.plugin_dir),
            "--allowedTools",
            *allowed,
        ]

    def session(
        self,
        prompts: list[str],
        allowed: list[str] | None = None,
        turn_timeout: float = TURN_TIMEOUT,
        mark: Callable[[], int] = lambda: 0,
    ) -> Session:
        """One session; each prompt is sent once the previous turn's `result` arrived.

        `mark()` is read as each prompt is sent (the scripted model's request count), so the
        session can later say which requests each turn caused.
        """
        allowed = allowed if allowed is not None else [TOOL_PREFIX + t for t in TOOLS] + list(EDIT_TOOLS) + ["Read"]
        out = Session(started=time.time())
        proc = subprocess.Popen(
            self.command(allowed),
            cwd=self.repo,
            env=self.env(),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
        err: list[str] = []
        reader = threading.Thread(target=lambda: err.append(proc.stderr.read()), daemon=True)
        reader.start()
        deadline = [time.monotonic() + turn_timeout]
        timed_out = threading.Event()

        def watchdog() -> None:
            while proc.poll() is None:
                if time.monotonic() > deadline[0]:
                    timed_out.set()
                    _kill(proc)
                    return
                time.sleep(0.2)

        threading.Thread(target=watchdog, daemon=True).start()
        try:
            pending = list(prompts)

            def send() -> None:
                out.marks.append(mark())
                out.prompts.append(pending[0])
                self._send(proc, pending.pop(0))

            send()
            for line in proc.stdout:
                line = line.strip()
                if not line:
                    continue
                try:
                    event = json.loads(line)
                except ValueError:
                    out.events.append({"type": "unparsed", "line": line[:2000]})
                    continue
                out.events.append(event)
                if event.get("type") == "result":
                    if not pending:
                        try:
                            proc.stdin.close()
                        except OSError:
                            pass
                        continue
                    deadline[0] = time.monotonic() + turn_timeout
                    send()
            proc.wait(timeout=120)
        finally:
            if proc.poll() is None:
                _kill(proc)
                proc.wait()
        reader.join(timeout=10)
        out.returncode, out.stderr = proc.returncode, "".join(err)
        if timed_out.is_set():
            out.stderr += f"\n[e2e] a turn ran past {turn_timeout}s and the session was killed"
        return out

    @staticmethod
    def _send(proc: subprocess.Popen, prompt: str) -> None:
        msg = {"type": "user", "message": {"role": "user", "content": prompt}}
        try:
            proc.stdin.write(json.dumps(msg) + "\n")
            proc.stdin.flush()
        except OSError:  # Claude Code is gone: the session ends short, and the caller says so
            pass


def _kill(proc: subprocess.Popen) -> None:
    try:
        os.killpg(proc.pid, signal.SIGKILL)  # the whole group: MCP server and hooks too
    except (ProcessLookupError, PermissionError):
        pass


def which_npx() -> str | None:
    return shutil.which("npx")
