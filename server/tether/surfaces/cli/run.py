"""`tether` (main.py is its entry): parse, run the command's handler, print its result. Errors are
translated once, here: a TetherError's code, an OSError's errno, a damaged cache (rebuilt, the command run once more);
anything else is `internal`, a bug, with the traceback under TETHER_DEBUG=1."""

from __future__ import annotations

import os
import sys

from tether import __version__
from tether.errors import InternalError, InvalidInput, TetherError, from_os_error, from_sqlite_error
from tether.index.db import discard_opened, is_corrupt, opened
from tether.lazy import UrlParseStandIn
from tether.surfaces.cli.output import Result, emit, fail, reader_gone, utf8
from tether.surfaces.cli.quick import command_of, parse
from tether.surfaces.cli.terminal import visible

with UrlParseStandIn():  # every command loads pathlib (the store); urllib.parse only for as_uri()
    import pathlib  # noqa: F401


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in argv
    try:
        try:
            return _run_healing(argv)
        except TetherError as e:
            return fail(e, as_json)
        except KeyboardInterrupt:
            return 130
        except OSError as e:  # BrokenPipeError first: `tether ls | head -1` is a reader that left
            if isinstance(e, BrokenPipeError):
                return reader_gone()
            return fail(from_os_error(e), as_json)
        except Exception as e:  # a bug, not bad input: one line, the traceback on request
            if os.environ.get("TETHER_DEBUG"):
                raise
            known = None
            if type(e).__module__ == "sqlite3":
                known = from_sqlite_error(e, opened())
            if known is not None:
                return fail(known, as_json)
            return fail(
                InternalError(f"internal error {type(e).__name__}: {e} (TETHER_DEBUG=1 shows the traceback)"), as_json
            )
    except BrokenPipeError:  # the error itself could not be written
        return reader_gone()


def _run_healing(argv: list[str]) -> int:
    """`_run`, and once more on a rebuilt cache if the first run found it damaged: every write to
    the memory files happens after the cache reads it depends on, so a rerun repeats nothing."""
    try:
        return _run(argv)
    except Exception as e:
        if type(e).__module__ != "sqlite3":
            raise
        if not is_corrupt(e) or not discard_opened(str(e)):
            raise
        return _run(argv)


def _run(argv: list[str]) -> int:
    for i, arg in enumerate(argv):
        if not utf8(arg) and (i == 0 or argv[i - 1] != "--root") and not arg.startswith("--root="):
            raise InvalidInput(f"argument {i + 1} is not valid UTF-8 (undecodable bytes shown escaped: {visible(arg)})")
    command = command_of(argv)
    if command is None and "--version" in argv:  # argparse's would swallow a failed write (`> /dev/full`)
        return emit(Result(None, f"tether {__version__}"), False)
    quick = parse(argv, command)
    if quick is not None:
        return emit(quick.handler(quick), quick.json)
    from tether.surfaces.cli.parser import build_parser  # anything but the plainest read commands (quick.py)

    parser = build_parser([command] if command else None)
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_usage(sys.stderr)
        raise InvalidInput("a command is required: tether --help lists them")
    return emit(args.handler(args), args.json)
