"""Finishing an index in the background, for a hook whose sweep ran out of time.

A hook stops sweeping at its deadline (the session must not wait for a first index of a large
repository) and starts one detached, low-priority `python -m tether.index.background ROOT` to build the
rest, so the next hook finds the index complete. One per repository at a time: the process holds
an exclusive flock on a file in the cache dir, and a hook starts none while it is held. Where
flock is missing (Windows) nothing is started: later sweeps carry on in the foreground instead.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import tether
from tether.files import failure_log
from tether.files.paths import cache_dir, find_root
from tether.index.code_index import CodeIndex
from tether.index.db import connect

try:
    import fcntl
except ImportError:  # Windows: no flock, so no background index (see the module docstring)
    fcntl = None  # type: ignore[assignment]

LOCK_NAME = "indexing.lock"
STARTED_NAME = "indexing.started"  # touched as one is started: it takes the lock only once Python is up
STARTING_S = 10.0  # a background index started this recently is taken to be on its way: none is started beside it
WAIT_S = 300.0  # a background index stuck longer than this is not waited for: the caller sweeps


def _lock(root: Path) -> int | None:
    """The repository's indexing lock, taken without waiting; None if it is held (or unsupported)."""
    if fcntl is None:
        return None
    path = cache_dir(root) / LOCK_NAME
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        os.close(fd)
        return None
    return fd


def running(root: Path) -> bool:
    """Whether a background index of `root` holds the lock now."""
    fd = _lock(root)
    if fd is None:
        return fcntl is not None
    os.close(fd)
    return False


def wait(root: Path, timeout: float = WAIT_S) -> bool:
    """Wait for a background index of `root` to finish; False if it is still at it after `timeout`.
    A caller that must sweep to the end gets the same index sooner by waiting than by parsing
    the same files beside it, on the same cores."""
    end = time.monotonic() + timeout
    while running(root):
        if time.monotonic() >= end:
            return False
        time.sleep(0.05)
    return True


def finish(root: Path, index) -> None:
    """If `index`'s last sweep stopped at its deadline, have the rest built in the background;
    asked once: later callers find it running, or done."""
    if index.cut_short:
        start(root)
        index.cut_short = False


def start(root: Path) -> bool:
    """Start indexing `root` in a detached process unless one is at it; True if one was started.
    Two hooks racing here may start two: the second finds the lock taken and exits at once."""
    if fcntl is None or running(root) or _starting(root):
        return False
    import subprocess

    # the plugin runs tether from its own server/ (the venv holds only the dependencies): the child too
    server = os.path.dirname(os.path.dirname(os.path.abspath(tether.__file__)))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (server, os.environ.get("PYTHONPATH")) if p)}
    subprocess.Popen(
        [sys.executable, "-m", "tether.index.background", str(root)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        cwd=str(root),
        env=env,
        start_new_session=True,
        close_fds=True,
    )
    return True


def _starting(root: Path) -> bool:
    """Whether one was started moments ago (and may not hold the lock yet); marks a start if not.
    Two callers between a start and its lock would otherwise start a second index, which takes the
    lock after the first is done and makes every reader in a hurry wait on it for nothing."""
    marker = cache_dir(root) / STARTED_NAME
    try:
        if time.time() - marker.stat().st_mtime < STARTING_S:
            return True
    except OSError:
        pass
    try:
        marker.parent.mkdir(parents=True, exist_ok=True)
        marker.touch()
    except OSError:
        pass
    return False


def main(argv: list[str]) -> int:
    root = Path(argv[0])
    fd = _lock(root)
    if fd is None:
        return 0  # another one is at it
    try:
        os.nice(10)  # the user's own work comes first
    except (AttributeError, OSError):
        pass
    try:
        root = find_root(root)  # a checkout deleted meanwhile is an error worth a line in doctor
        conn = connect(cache_dir(root) / "cache.sqlite")
        try:
            CodeIndex(root, conn).sweep()
        finally:
            conn.close()
    except Exception as e:  # nobody reads this process's output: say why where `tether doctor` looks
        failure_log.record("BackgroundIndex", e, root)
    finally:
        os.close(fd)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
