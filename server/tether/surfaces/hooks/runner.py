"""The fail-open runner: stdin -> payload -> handler -> stdout, and exit 0 whatever happens.

A hook that raises, hangs past its budget or meets garbage prints nothing (so nothing harmful
reaches the model), records why in the hook-failure log for `tether doctor`, and exits 0.
"""

from __future__ import annotations

import _signal  # type: ignore[import-not-found]  # typeshed has no stub for the C module behind `signal`
import os
import sys

from tether.files.locate import find_root
from tether.lazy import defer_inspect
from tether.surfaces.hooks import budget
from tether.surfaces.hooks.handlers import HANDLERS
from tether.surfaces.hooks.payload import MAX_STDIN, parse

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (or pathlib) on every prompt
if TYPE_CHECKING:
    from pathlib import Path

OFF_VALUES = ("", "0", "false", "no", "off")


class HookTimeout(Exception):
    pass


def main(event: str, raw: bytes | None = None) -> int:
    """Run the hook for `event` on `raw` (default: stdin). Always returns 0."""
    root: str | Path | None = None
    session: str | None = None
    try:
        _arm(budget.start(event))
        if raw is None:
            raw = sys.stdin.buffer.read(MAX_STDIN + 1)
        inp = parse(raw, event)
        session = inp.session_id
        if event == "UserPromptSubmit" and push_off():
            return 0
        defer_inspect()  # before anything can import dataclasses (a memory parsed by a first sync)
        # A str: a prompt hook that stays silent never loads pathlib; the prompt handler turns it
        # into a Path only once it is past its silent exit.
        root = root_for(inp.cwd)
        if event != "UserPromptSubmit":
            from pathlib import Path

            root = Path(root)
        try:
            text = HANDLERS[event](inp, root)
        except Exception as e:  # a cache with garbage pages: discarded, and the handler run once more
            if type(e).__module__ != "sqlite3":
                raise
            from tether.index.db import discard_opened, is_corrupt

            if not is_corrupt(e) or not discard_opened(str(e)):
                raise
            text = HANDLERS[event](inp, root)
        _disarm()
        if text:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
    except BaseException as e:  # KeyboardInterrupt and SystemExit too: a hook never fails Claude Code
        _disarm()
        from tether.files import failure_log as failures

        failures.record(event, e, root, session)
    finally:
        _close_caches()
    return 0


def _close_caches() -> None:
    """A hook is one process's whole life: its cache connections close here (checkpointing the
    WAL), as the launcher then exits without the interpreter's teardown."""
    db = sys.modules.get("tether.index.db")  # a silent prompt that never opened a cache imports nothing
    if db is not None:
        try:
            db.close_all()
        except Exception:  # fail open, as everywhere in a hook
            pass


def push_off() -> bool:
    return os.environ.get("TETHER_PUSH_OFF", "").strip().lower() not in OFF_VALUES


def root_for(cwd: str | None) -> str:
    """The project as Claude Code names it, else the payload's cwd, walking up to .tether/ or .git/."""
    return find_root(None, os.environ.get("CLAUDE_PROJECT_DIR") or cwd or os.getcwd())


def _arm(seconds: float) -> None:
    # _signal, not signal: the signal module builds its enums on import, a few ms on every hook
    if hasattr(_signal, "setitimer"):
        _signal.signal(_signal.SIGALRM, _timeout)
        _signal.setitimer(_signal.ITIMER_REAL, seconds)


def _disarm() -> None:
    if hasattr(_signal, "setitimer"):
        _signal.setitimer(_signal.ITIMER_REAL, 0)


def _timeout(signum, frame) -> None:
    raise HookTimeout("the hook ran past its budget and gave up")
