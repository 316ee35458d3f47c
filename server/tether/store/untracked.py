"""Memory files git does not track yet: a `git stash -u` or `git clean` takes them away unnoticed,
so `status` and the session's first line name them until they are committed (or added)."""

from __future__ import annotations

import os

MAX_NAMED = 5  # how many are named; the rest are counted


def untracked_memories(root: str | os.PathLike) -> list[str] | None:
    """Memory files under `.tether/memories/` that git neither tracks nor ignores, by name; None
    outside git or when git could not say (never an error: this is advice)."""
    if not os.path.exists(os.path.join(root, ".git")):
        return None
    import subprocess  # only when asked: a silent prompt hook never is

    cmd = ["git", "ls-files", "-z", "--others", "--exclude-standard", "--", ".tether/memories/"]
    try:
        out = subprocess.run(cmd, cwd=root, capture_output=True, timeout=5, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    names = (p.decode("utf-8", "replace").rpartition("/")[2] for p in out.split(b"\0") if p)
    return sorted(n for n in names if n.endswith(".md") and not n.startswith("."))


def untracked_note(names: list[str] | None) -> str | None:
    """One sentence naming them, or None when there are none."""
    if not names:
        return None
    shown = ", ".join(names[:MAX_NAMED]) + (f" and {len(names) - MAX_NAMED} more" if len(names) > MAX_NAMED else "")
    n = len(names)
    return (
        f"{n} memory file{'s' if n != 1 else ''} in .tether/memories/ {'are' if n != 1 else 'is'} not tracked "
        f"by git yet ({shown}): commit {'them' if n != 1 else 'it'}, or a `git stash -u` or `git clean` "
        "takes them away"
    )
