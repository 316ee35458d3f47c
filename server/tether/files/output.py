"""Where `report --out` and `export --out` may write: a new regular file, or an earlier one of theirs.

An output path is typed by a user, or pasted from a README or a script someone else wrote; run as
root, `--out /dev/null` would replace the device. So an output never replaces anything under a
`.git` directory, a file git tracks, a symbolic link (nor writes through it), a device, a FIFO, a
socket, or any regular file that is not an earlier output of the same command, told by its first
bytes (`recognizes`). What is written is renamed into place whole (temp file, fsync, rename).
"""

from __future__ import annotations

import os
import stat
import subprocess
from collections.abc import Callable
from pathlib import Path

from tether.errors import OutputRefused
from tether.files.read import Unreadable, kind_of, open_regular
from tether.files.write import atomic_write

HEAD_BYTES = 4096


def write_output(
    out: str | os.PathLike, data: bytes, recognizes: Callable[[bytes], bool], what: str, default_name: str | None = None
) -> Path:
    """Write `data` to `out` (a directory takes `default_name`) if it is safe; returns the path."""
    path = Path(os.path.abspath(Path(out).expanduser()))
    if default_name and path.is_dir():
        path = path / default_name
    target = safe_target(path, recognizes, what)
    atomic_write(target, data)
    return target


def safe_target(path: Path, recognizes: Callable[[bytes], bool], what: str) -> Path:
    """`path` with its directory resolved, if writing there replaces nothing it must not."""
    parent = path.parent.resolve()
    target = parent / path.name
    if ".git" in target.parts:
        raise OutputRefused(f"{path} is inside a .git directory: tether never writes there", path=str(path))
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return target
    except OSError as e:
        raise OutputRefused(f"{path}: {e.strerror}", path=str(path)) from None
    if stat.S_ISLNK(st.st_mode):
        raise OutputRefused(
            f"{path} is a symbolic link: tether does not write through links; name the file itself or a new path",
            path=str(path),
        )
    if not stat.S_ISREG(st.st_mode):
        raise OutputRefused(f"{path} is {kind_of(st.st_mode)}: {what} goes to a regular file", path=str(path))
    if _tracked(target):
        raise OutputRefused(
            f"{path} is tracked by git: tether does not replace committed files; choose another path", path=str(path)
        )
    if not recognizes(_head(target)):
        raise OutputRefused(
            f"{path} exists and is not an earlier {what}: tether replaces only its own "
            "output; choose a new path or remove the file",
            path=str(path),
        )
    return target


def _head(path: Path) -> bytes:
    try:
        fd = open_regular(path)[0]
    except (OSError, Unreadable):
        return b""
    try:
        return os.read(fd, HEAD_BYTES)
    finally:
        os.close(fd)


def _tracked(path: Path) -> bool:
    """Whether git tracks `path` in the repository it is in (if any)."""
    try:
        proc = subprocess.run(
            ["git", "ls-files", "--error-unmatch", "--", f":(literal){path.name}"],
            cwd=path.parent,
            capture_output=True,
            timeout=10,
        )
    except (OSError, subprocess.SubprocessError):
        return False
    return proc.returncode == 0
