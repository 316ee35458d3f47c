"""Reading files that others control: regular files only, never blocking, never without a bound.

Memory files, the allowlist and hook transcripts arrive through git or a payload. A FIFO there
would hang every read (`open` blocks until a writer comes), a symlink to `/dev/zero` would fill
memory, and a link could point anywhere. So: `lstat` first (a device is never even opened: opening
one can act on hardware), then `open` with O_NONBLOCK and O_NOFOLLOW, `fstat` the descriptor (the
path may have been swapped meanwhile), and read at most `cap + 1` bytes.

Stdlib `errno`, `os` and `stat` only: the prompt hook imports this module.
"""

from __future__ import annotations

import errno
import os
import stat

_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISLNK, "a symbolic link"),
    (stat.S_ISFIFO, "a FIFO"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


class Unreadable(Exception):
    """Why a file was not read: `reason` is `not_regular` or `too_large`; `message` is one line."""

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message


def kind_of(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def open_regular(path: str | os.PathLike, cap: int | None = None) -> tuple[int, os.stat_result]:
    """A descriptor on a regular file (of at most `cap` bytes), and its stat. Raises `Unreadable`
    for anything else (OSError for a file that is gone or denied). The caller closes it."""
    st = os.lstat(path)
    if not stat.S_ISREG(st.st_mode):
        raise Unreadable("not_regular", f"{kind_of(st.st_mode)}, not a regular file")
    if cap is not None and st.st_size > cap:
        raise Unreadable("too_large", f"too large: {st.st_size} bytes; the limit is {cap}")
    try:
        fd = os.open(path, _FLAGS)
    except OSError as e:
        if e.errno == errno.ELOOP:  # swapped for a link after the lstat
            raise Unreadable("not_regular", "a symbolic link, not a regular file") from None
        raise
    st = os.fstat(fd)
    if not stat.S_ISREG(st.st_mode):
        os.close(fd)
        raise Unreadable("not_regular", f"{kind_of(st.st_mode)}, not a regular file")
    return fd, st


def read_regular_file(path: str | os.PathLike, cap: int) -> tuple[os.stat_result, bytes]:
    """(stat, bytes) of a regular file of at most `cap` bytes; see `open_regular`."""
    fd, st = open_regular(path, cap)
    try:
        chunks = []
        left = cap + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
    finally:
        os.close(fd)
    data = b"".join(chunks)
    if len(data) > cap:  # it grew after the stat
        raise Unreadable("too_large", f"too large: over {cap} bytes")
    return st, data


STATE_FILE_BYTES = 16 << 20


def read_state_file(path: str | os.PathLike, cap: int = STATE_FILE_BYTES) -> bytes | None:
    """A per-machine state file's bytes, or None if it is missing, unreadable, not a regular file
    or over `cap`: state is rebuilt or ignored, never a reason for a command to hang or fail."""
    try:
        return read_regular_file(path, cap)[1]
    except (OSError, Unreadable):
        return None
