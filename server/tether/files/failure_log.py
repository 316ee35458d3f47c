"""The hook-failure log that `tether doctor` shows: hooks fail open, so this is where failures go.

A failure is written to the repository's state dir when the repository is known and writable,
otherwise to the plugin's data dir (hooks/launcher.py writes there too, for a venv that is not
ready). Logging itself must never raise: a hook that cannot even log still exits 0, silently.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

from tether.files.paths import hook_failure_logs
from tether.files.read import read_state_file
from tether.files.write import append_jsonl

MAX_MESSAGE = 500
MAX_LOG_BYTES = 1_000_000  # past this the log is rotated once (kept as .1): doctor needs recent entries


def record(event: str, error: BaseException | str, root: str | Path | None = None, session: str | None = None) -> None:
    if isinstance(error, BaseException):
        kind, message = type(error).__name__, str(error)
        code = getattr(error, "code", None)
    else:
        kind, message, code = "Failure", error, None
    entry = {
        "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "event": event,
        "error": kind,
        "message": " ".join(message.split())[:MAX_MESSAGE],
        "session": session,
    }
    if code:
        entry["code"] = code
    try:
        logs = hook_failure_logs(root)
    except Exception:  # even finding the log can fail (a broken platformdirs): stay silent
        return
    for log in logs:
        try:
            _rotate(log)
            append_jsonl(log, entry)
            return
        except OSError:
            continue


def read(root: Path | None = None, limit: int = 50) -> list[dict]:
    """The most recent failures across both logs, oldest first (for `tether doctor`)."""
    out: list[dict] = []
    for log in hook_failure_logs(root):
        raw = read_state_file(log)
        if raw is None:
            continue
        lines = raw.decode("utf-8", "replace").splitlines()
        for line in lines:
            try:
                d = json.loads(line)
            except ValueError:
                continue
            if isinstance(d, dict) and not a_normal_build(d):
                out.append(dict(d, log=str(log)))
    out.sort(key=lambda d: str(d.get("at", "")))
    return out[-limit:]


def a_normal_build(entry: dict) -> bool:
    """An entry earlier launchers wrote while the plugin's venv was being built (the first run, or a
    rebuild after an update): they logged it as VenvNotReady, but nothing had failed."""
    return entry.get("error") == "VenvNotReady" and str(entry.get("message", "")).endswith(
        "installing it in the background"
    )


def _rotate(log: Path) -> None:
    try:
        if log.stat().st_size > MAX_LOG_BYTES:
            log.replace(log.with_name(log.name + ".1"))
    except FileNotFoundError:
        pass
