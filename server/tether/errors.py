"""One error hierarchy with stable codes; the CLI, MCP and hooks each translate it once."""

from __future__ import annotations

import errno
import os


class TetherError(Exception):
    """Base error: `code` is stable and documented, `message` is one line for humans."""

    code = "error"

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message.replace("\n", " ")
        self.details = details

    def to_dict(self) -> dict[str, object]:
        return {"code": self.code, "message": self.message, **self.details}


class InvalidInput(TetherError):
    code = "invalid_input"


class InvalidSpec(TetherError):
    code = "invalid_spec"


class NotFound(TetherError):
    code = "not_found"


class OutsideRoot(TetherError):
    code = "outside_root"


class UnsupportedLanguage(TetherError):
    code = "unsupported_language"


class BinaryFile(TetherError):
    code = "binary_file"


class FileTooLarge(TetherError):
    code = "file_too_large"


class InvalidEncoding(TetherError):
    code = "invalid_encoding"


class MalformedFile(TetherError):
    """A config file that does not parse: its keys cannot be anchored until it does."""

    code = "malformed_file"


class AnchorUnresolved(TetherError):
    code = "anchor_unresolved"


class AnchorAmbiguous(TetherError):
    code = "anchor_ambiguous"


class Duplicate(TetherError):
    code = "duplicate"


class SecretDetected(TetherError):
    code = "secret_detected"


class StoreCorrupt(TetherError):
    code = "store_corrupt"


class NotARepository(TetherError):
    """The root is neither a git repository nor a tether store: a write would create `.tether/`
    in whatever directory the command ran in."""

    code = "not_a_repository"


class InsideRepository(TetherError):
    """`tether init` in a directory that lies in a repository without being its root (a
    subdirectory, its .git/ or .tether/, a bare repository): a second store there would hide the
    repository's own."""

    code = "inside_repository"


class Conflict(TetherError):
    """A write lost a race or targets a closed memory."""

    code = "conflict"


class UnknownTool(TetherError):
    """An MCP call to a tool the server does not have."""

    code = "unknown_tool"


class OutputRefused(TetherError):
    """An output path that would replace what tether must not touch (a tracked file, a device, a link)."""

    code = "output_refused"


class InternalError(TetherError):
    """A bug in tether, not in the input."""

    code = "internal"


class SystemFailure(TetherError):
    """The operating system refused (permissions, a read-only or full disk, a name too long):
    not a bug, not bad input; `code` names which, from the errno."""

    code = "os_error"

    def __init__(self, message: str, code: str = "os_error", **details: object) -> None:
        super().__init__(message, **details)
        self.code = code


# errno name -> stable code; anything else is `os_error`
_OS_CODES = {
    "EACCES": "permission_denied",
    "EPERM": "permission_denied",
    "EROFS": "read_only",
    "ENOSPC": "disk_full",
    "EDQUOT": "disk_full",
    "ENAMETOOLONG": "name_too_long",
}


def from_os_error(e: OSError) -> SystemFailure:
    """One line naming what failed and where (`Permission denied: /x/cache.sqlite`)."""
    name = errno.errorcode.get(e.errno or 0, "")
    where = f": {e.filename}" if e.filename else ""
    hint = ""
    code = _OS_CODES.get(name, "os_error")
    if code == "name_too_long":
        hint = " (a file name is limited to 255 bytes, a path to 4096)"
    return SystemFailure(f"{e.strerror or type(e).__name__}{where}{hint}", code, errno=name or None)


def from_sqlite_error(e: Exception, paths=()) -> TetherError | None:
    """The cache database's OS-level failures as stable codes; None for anything else (a bug).
    SQLite reports a full or read-only disk as a bare "disk I/O error" at times, so the file
    system holding each of `paths` (the caches this process opened) is asked which it is."""
    text = str(e).lower()
    code = None
    for needle, found in (
        ("readonly", "read_only"),
        ("read-only", "read_only"),
        ("disk is full", "disk_full"),
        ("unable to open", "permission_denied"),
        ("disk i/o error", "os_error"),
    ):
        if needle in text:
            code = found
            break
    if code is None:
        return None
    if code in ("os_error", "permission_denied"):
        code = _filesystem_state(paths) or code
    return SystemFailure(
        f"the cache database: {e} (tether's cache dir must be writable, with room to grow; TETHER_HOME moves it)", code
    )


def _filesystem_state(paths) -> str | None:
    """`read_only` or `disk_full` for the first of `paths` whose file system is, else None."""
    for path in paths:
        d = os.path.dirname(os.fspath(path))
        try:
            st = os.statvfs(d)
        except OSError:
            continue
        if st.f_flag & getattr(os, "ST_RDONLY", 1):
            return "read_only"
        if st.f_bavail * st.f_frsize < 256 * 1024:
            return "disk_full"
    return None
