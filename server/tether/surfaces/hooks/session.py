"""Per-session hook state in the state dir: the push-recall dedup window and the turn's edit log.

Hooks of one session run one after another (Claude Code awaits each hook; ARCHITECTURE.md, "The hooks"), so a read-modify-write
of the small state file is safe; it is replaced atomically so a killed hook never leaves half a
file. The edit log is append-only (parallel PostToolUse calls append whole lines) and is consumed
by Stop. A state file that does not parse is treated as empty: dedup restarts, nothing breaks.
"""

from __future__ import annotations

import json
import os
import time
from collections import namedtuple
from pathlib import Path
from types import MappingProxyType

from tether.files.paths import state_dir
from tether.files.read import read_state_file
from tether.files.write import append_jsonl, replace_json

MAX_AGE_DAYS = 14  # session files older than this are removed at the next session start


# Named tuples, not dataclasses: frozen records all the same, without `dataclasses`' cost of
# compiling each class's methods at import, which every hook process would pay.
class Seen(namedtuple("Seen", "score used", defaults=(False,))):
    """One memory pushed in this session: its score (float) when injected, and whether Stop credited it."""

    __slots__ = ()


class SessionState(
    namedtuple("SessionState", "window bypassed prompts compactions", defaults=(MappingProxyType({}), (), 0, 0))
):
    """One session's push-recall state.

    window: memory id -> Seen, emptied by compaction (read-only; a change makes a new mapping);
    bypassed: anchored files whose floor bypass this session has spent; prompts, compactions: counts.
    """

    __slots__ = ()

    def evolve(self, **changes) -> SessionState:
        return self._replace(**changes)


def sessions_dir(root: Path) -> Path:
    return state_dir(root) / "sessions"


def load(root: Path, session: str) -> SessionState:
    try:
        d = json.loads(read_state_file(sessions_dir(root) / f"{session}.json") or b"")
        window = {
            str(k): Seen(float(v["score"]), bool(v.get("used")))
            for k, v in d.get("window", {}).items()
            if isinstance(v, dict) and isinstance(v.get("score"), (int, float))
        }
        bypassed = tuple(p for p in d.get("bypassed", ()) if isinstance(p, str))
        return SessionState(window, bypassed, int(d.get("prompts", 0)), int(d.get("compactions", 0)))
    except (OSError, ValueError, TypeError, AttributeError):
        return SessionState()


def save(root: Path, session: str, s: SessionState) -> None:
    d = {
        "window": {k: {"score": round(v.score, 4), "used": v.used} for k, v in s.window.items()},
        "bypassed": list(s.bypassed),
        "prompts": s.prompts,
        "compactions": s.compactions,
        "updated": round(time.time(), 3),
    }
    path = sessions_dir(root) / f"{session}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    replace_json(path, d)


# -- the edit log ------------------------------------------------------------------------------
def edit_log(root: Path, session: str) -> Path:
    return sessions_dir(root) / f"{session}.edits.jsonl"


def log_edit(
    root: Path,
    session: str,
    path: str,
    tool: str | None,
    tool_use_id: str | None,
    prompt_id: str | None,
    strings: tuple[tuple[str, bool], ...] | None = None,
) -> None:
    entry = {
        "ts": round(time.time(), 3),
        "path": path,
        "tool": tool,
        "tool_use_id": tool_use_id,
        "prompt_id": prompt_id,
        "strings": [list(s) for s in strings] if strings is not None else None,  # where Stop finds the edit
    }
    append_jsonl(edit_log(root, session), entry)


def take_edits(root: Path, session: str) -> list[dict]:
    """The edits logged since the last Stop (`path` repo-relative, `tool`, `tool_use_id`, `strings`:
    the [new_string, replace_all] each left, or None), in order; the log is consumed.

    The log is renamed before reading, so a PostToolUse landing meanwhile starts a fresh log for
    the next turn instead of being lost.
    """
    log = edit_log(root, session)
    taken = log.with_name(f".{log.name}.{os.getpid()}.taken")
    try:
        os.replace(log, taken)
    except FileNotFoundError:
        return []
    try:
        lines = (read_state_file(taken) or b"").decode("utf-8", "replace").splitlines()
    finally:
        taken.unlink(missing_ok=True)
    out: list[dict] = []
    for line in lines:
        try:
            e = json.loads(line)
        except ValueError:
            continue
        if isinstance(e, dict) and isinstance(e.get("path"), str):
            out.append(e)
    return out


def prune(root: Path, now: float | None = None) -> int:
    """Remove session files untouched for MAX_AGE_DAYS; returns how many went."""
    cutoff = (now or time.time()) - MAX_AGE_DAYS * 86400
    gone = 0
    try:
        entries = list(os.scandir(sessions_dir(root)))
    except OSError:
        return 0
    for e in entries:
        try:
            if e.is_file() and e.stat().st_mtime < cutoff:
                os.unlink(e.path)
                gone += 1
        except OSError:
            continue
    return gone
