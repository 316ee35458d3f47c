"""Writing tether's own files whole: a temp file beside the target, then a rename, so no reader
ever sees half of one and a killed writer leaves the old file; and appending one line in one write.

Standard library `os`, `stat` and `json` only: the prompt hook writes its session state with these.
"""

from __future__ import annotations

import os
import stat

TEMP_PREFIX = ".tmp-"  # and 8 characters of [a-z2-7]: what store.files sweeps when a writer died
_B32 = "abcdefghijklmnopqrstuvwxyz234567"  # base32's alphabet, lowercased (base64 would be one more import)


def atomic_write(path: str | os.PathLike, data: bytes) -> None:
    """`data` as the whole of `path`: written to a new temp file beside it, fsynced, renamed over it.
    The temp file is created exclusively and never through a link."""
    path = os.fspath(path)
    directory = os.path.dirname(path) or "."
    os.makedirs(directory, exist_ok=True)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
    while True:
        bits = int.from_bytes(os.urandom(5), "big")  # 40 random bits, 8 base32 characters
        tmp = os.path.join(directory, TEMP_PREFIX + "".join(_B32[(bits >> s) & 31] for s in range(35, -1, -5)))
        try:
            fd = os.open(tmp, flags, 0o644)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def replace_json(path: str | os.PathLike, obj: object, sort_keys: bool = False) -> None:
    """A small JSON file written whole (no fsync: per-machine state, cheap to lose). Raises OSError."""
    import json  # here, not at the top: a read path that writes nothing never needs it

    replace_text(path, json.dumps(obj, separators=(",", ":"), sort_keys=sort_keys))


def replace_text(path: str | os.PathLike, text: str) -> None:
    """A small UTF-8 file written whole (no fsync: per-machine state, cheap to lose). Raises OSError."""
    path = os.fspath(path)
    directory, name = os.path.split(path)
    tmp = os.path.join(directory, f".{name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)


def append_jsonl(path: str | os.PathLike, obj: dict) -> int:
    """One line, one write(2) with O_APPEND: safe against concurrent appenders on one machine.
    Returns the file's size after the write."""
    import json

    data = (json.dumps(obj, ensure_ascii=False, separators=(",", ":")) + "\n").encode("utf-8")
    path = os.fspath(path)
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    # non-blocking and no link followed: a FIFO or a symlink put in its place fails the write
    flags = os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(path, flags, 0o644)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(f"{path} is not a regular file")
        os.write(fd, data)
        return os.fstat(fd).st_size
    finally:
        os.close(fd)
