"""What a command hands back, and how it reaches the terminal: JSON verbatim, text made visible."""

from __future__ import annotations

import errno
import os
import sys

from tether.errors import TetherError
from tether.lazy import PlatformStandIn

with PlatformStandIn():  # orjson loads uuid, which loads platform for one call (tether/lazy.py)
    import orjson
from tether.surfaces.cli.terminal import visible

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing: the CLI's start-up
if TYPE_CHECKING:
    from typing import Any

# Status and Reason are str enums: orjson takes them as values, and as keys only with NON_STR_KEYS.
JSON_OPTIONS = orjson.OPT_INDENT_2 | orjson.OPT_NON_STR_KEYS


class Result:
    """What a command produced: data for --json, text for humans, an exit code; `raw`: the command
    wrote its own output (export to stdout, the demo, a hook, the MCP server)."""

    def __init__(self, data: Any, text: str, code: int = 0, raw: bool = False) -> None:
        self.data, self.text, self.code, self.raw = data, text, code, raw


def emit(result: Result, as_json: bool) -> int:
    if as_json and not result.raw:
        write_out(to_json(result.data) + b"\n")
    elif result.text:
        text = visible(result.text) + "\n"
        out = sys.stdout
        write_out(text.encode(getattr(out, "encoding", None) or "utf-8", getattr(out, "errors", None) or "strict"))
    elif sys.stdout is not None:
        sys.stdout.flush()  # here, inside the caller's try: a pipe closed early is noticed now, not at exit
    return result.code


def write_out(data: bytes) -> None:
    """All of `data` to standard output, or an OSError: a closed stdout is EBADF, a reader that left
    EPIPE (BrokenPipeError), a full disk ENOSPC. Written with os.write, past Python's buffer, whose
    write of a large block can stop after the pipe's first 64 KB and report nothing."""
    if sys.stdout is None:
        raise OSError(errno.EBADF, "standard output is closed")
    sys.stdout.flush()  # anything a command printed itself goes first
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):  # a stdout replaced in process (io.StringIO, a capture)
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is not None:
            buffer.write(data)
        else:
            sys.stdout.write(data.decode("utf-8", "backslashreplace"))
        sys.stdout.flush()
        return
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]


def fail(e: TetherError, as_json: bool) -> int:
    """One line with the error's stable code (the JSON envelope with --json, on stderr when stdout
    cannot take it); exit 2. An error that cannot be written anywhere still exits 2."""
    line = f"tether: error[{e.code}]: {visible(e.message)}"
    if as_json:
        try:
            write_out(orjson.dumps({"error": encodable(e.to_dict())}, option=orjson.OPT_INDENT_2) + b"\n")
            return 2
        except (OSError, ValueError):
            line = f"tether: error[{e.code}]: {visible(e.message)} (and standard output took no JSON)"
    try:
        if sys.stderr is not None:
            print(line, file=sys.stderr, flush=True)
    except (OSError, ValueError):
        pass
    return 2


def reader_gone() -> int:
    """stdout's reader closed it: stop quietly. Point stdout at /dev/null so a later flush does not
    raise again (the pattern the Python docs give for SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError, AttributeError):
        pass
    return 141  # 128 + SIGPIPE, what a shell reports for a writer killed by a closed pipe


def to_json(data: Any) -> bytes:
    """The envelope as JSON; text that is not valid Unicode (a file name's undecodable bytes) is
    written with those bytes escaped, as `\\udcff`, rather than failing the whole answer."""
    try:
        return orjson.dumps(data, option=JSON_OPTIONS)
    except TypeError:
        return orjson.dumps(encodable(data), option=JSON_OPTIONS)


def encodable(value: Any) -> Any:
    if isinstance(value, str):
        return value if utf8(value) else value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {encodable(k): encodable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [encodable(v) for v in value]
    return value


def utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True
