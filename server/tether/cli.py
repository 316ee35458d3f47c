"""The `tether` command: a thin adapter over the library. Errors are translated once, here."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Callable

import orjson

from . import __version__
from .errors import InternalError, InvalidInput, TetherError, from_os_error, from_sqlite_error
from .terminal import visible

COMMANDS: dict[str, Callable[..., "Result"]] = {}


class Result:
    """What a command produced: data for --json, text for humans, an exit code, extra meta."""

    def __init__(self, data: Any, text: str, code: int = 0, meta: dict | None = None, raw: bool = False) -> None:
        self.data, self.text, self.code, self.meta, self.raw = data, text, code, meta or {}, raw


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, stable code, exit 2
        raise InvalidInput(f"{self.prog}: {message}")


def command(name: str):
    def register(fn):
        COMMANDS[name] = fn
        return fn

    return register


def build_parser() -> argparse.ArgumentParser:
    # --root and --json work before or after the command. The subcommands' copies default to
    # SUPPRESS so they never overwrite a value given first; argparse shares action objects
    # between a parent and its children, so the top level gets its own, separate actions.
    common = _Parser(add_help=False)
    common.add_argument("--root", default=argparse.SUPPRESS, help="repository root (default: nearest .tether/ or .git/)")
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print the JSON envelope")
    p = _Parser(prog="tether", description="Memory for AI coding agents that goes stale when the code does.")
    p.add_argument("--root", default=None, help="repository root (default: nearest .tether/ or .git/)")
    p.add_argument("--json", action="store_true", default=False, help="print the JSON envelope")
    p.add_argument("--version", action="version", version=f"tether {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def add(name: str, help_: str) -> argparse.ArgumentParser:
        return sub.add_parser(name, help=help_, description=help_, parents=[common])

    s = add("remember", "store a memory anchored to code")
    s.add_argument("text", help="what to remember (Markdown), or - to read it from standard input")
    s.add_argument("--anchor", "-a", action="append", default=[], metavar="SPEC", required=True,
                   help="path::Symbol[@disc], path, doc.md#Heading or conf.yaml#key (repeatable)")
    s.add_argument("--kind", "-k", default="fact", help="decision | fact | gotcha | failed-attempt | convention")
    s.add_argument("--summary", help="one-line summary (default: the first sentence)")
    s.add_argument("--evidence", metavar="CMD", help="the command that verifies this memory")
    s.add_argument("--tag", action="append", default=[], help="a tag (repeatable)")
    s.add_argument("--verified", action="store_true", help="the fact was verified (higher base confidence)")
    s.add_argument("--force", action="store_true", help="store even if a near-duplicate exists")

    s = add("check", "re-resolve every live memory: active, stale (with reason and diff) or invalidated")
    s.add_argument("ids", nargs="*", help="only these memory ids")
    s.add_argument("--path", action="append", default=[], help="only memories anchored under this path")
    s.add_argument("--strict", action="store_true", help="exit 1 if any memory is stale, invalidated or quarantined")

    s = add("ls", "list memories with their status")
    s.add_argument("--all", action="store_true", help="include superseded and retired memories")
    s.add_argument("--kind", help="only this kind")

    s = add("show", "one memory in full, anchors as they resolve now")
    s.add_argument("id")
    s = add("history", "the supersession chain of a memory")
    s.add_argument("id")
    s = add("reanchor", "re-bind a memory to the current code (the meaning survived the edit)")
    s.add_argument("id", nargs="?")
    s.add_argument("--anchor", "-a", action="append", default=[], metavar="SPEC", help="new anchors (default: where each is now)")
    s.add_argument("--outdated", action="store_true",
                   help="instead: move every memory whose anchors hold an older hash format, and whose code is unchanged, to the current one")
    s = add("supersede", "replace a memory with a new version; the old one is kept as history")
    s.add_argument("id")
    s.add_argument("text", help="the new version (Markdown), or - to read it from standard input")
    s.add_argument("--reason", help="why the belief changed")
    s.add_argument("--kind", "-k")
    s.add_argument("--anchor", "-a", action="append", default=[], metavar="SPEC")
    s = add("retire", "close a memory whose subject is gone or no longer holds")
    s.add_argument("id")
    s.add_argument("--reason", required=True)
    add("index", "index the whole repository now (normally incremental and on demand)")
    s = add("recall", "what is known about a task: ranked active memories; stale matches listed apart")
    s.add_argument("query", help="the task, in your own words")
    s.add_argument("--file", "-f", action="append", default=[], metavar="F", help="a file in play (repeatable)")
    s.add_argument("--budget", type=int, default=1200, metavar="N", help="token cap, counted as ceil(chars/4) of the JSON")
    s.add_argument("--as-of", metavar="T", help="what was believed at this ISO 8601 time")
    s.add_argument("--kind", "-k", action="append", default=[], help="only this kind (repeatable)")
    s.add_argument("--limit", type=int, default=5, metavar="N", help="at most N active memories")
    add("mcp", "serve the six MCP tools over stdio (for Claude Code and other MCP clients)")
    add("doctor", "check Python, grammars, cache, store, secret allowlist and hook failures; say what to fix")
    s = add("export", "write every memory (closed ones too) as one JSON document")
    s.add_argument("--out", metavar="FILE", help="write to FILE instead of standard output")
    s = add("import", "read memories from an export; existing ids are kept unless --replace")
    s.add_argument("file", help="an export file, or - for standard input")
    s.add_argument("--replace", action="store_true", help="overwrite memories whose id already exists")
    add("status", "how many memories, how many stale or quarantined; push-recall, plugin venv, hook failures")
    s = add("stats", "memories by kind and status, use, tokens saved, and which memories earn their keep")
    s.add_argument("--days", type=int, default=30, metavar="N", help="days of use to chart (1-366)")
    s.add_argument("--top", type=int, default=10, metavar="N", help="memories listed by use")
    s = add("report", "write one self-contained HTML page: store health, a map of the repository, every memory and its diff")
    s.add_argument("--out", metavar="PATH", help="where to write it (default: report.html in this repository's "
                   "per-machine state dir, outside the repository, so it is never committed)")
    s.add_argument("--open", action="store_true", help="open it in the default browser")
    s = add("hook", "run a Claude Code hook: JSON payload on stdin, hook output on stdout; always exits 0")
    s.add_argument("event", choices=["SessionStart", "UserPromptSubmit", "PostToolUse", "Stop", "PreCompact"])
    s = add("demo", "run the anchor lifecycle on a throwaway git repository and print the real output")
    s.add_argument("--keep", action="store_true", help="keep the demo repository")
    return p


def _load_commands() -> None:
    from . import commands, commands_recall, commands_stats  # noqa: F401  (registers the handlers)
    from .hooks import command as _hook_command  # noqa: F401  (tether hook EVENT)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    as_json = "--json" in argv
    try:
        try:
            return _run_healing(argv)
        except TetherError as e:
            return _fail(e, as_json)
        except KeyboardInterrupt:
            return 130
        except OSError as e:  # BrokenPipeError first: `tether ls | head -1` is a reader that left
            if isinstance(e, BrokenPipeError):
                return _reader_gone()
            return _fail(from_os_error(e), as_json)
        except Exception as e:  # a bug, not bad input: one line, the traceback on request
            if os.environ.get("TETHER_DEBUG"):
                raise
            known = None
            if type(e).__module__ == "sqlite3":
                from .db import opened

                known = from_sqlite_error(e, opened())
            if known is not None:
                return _fail(known, as_json)
            return _fail(InternalError(f"internal error {type(e).__name__}: {e} (TETHER_DEBUG=1 shows the traceback)"), as_json)
    except BrokenPipeError:  # the error itself could not be written
        return _reader_gone()


def _run_healing(argv: list[str]) -> int:
    """`_run`, and once more on a rebuilt cache if the first run found it damaged: every write to
    the memory files happens after the cache reads it depends on, so a rerun repeats nothing."""
    try:
        return _run(argv)
    except Exception as e:
        if type(e).__module__ != "sqlite3":
            raise
        from .db import discard_opened, is_corrupt

        if not is_corrupt(e) or not discard_opened(str(e)):
            raise
        return _run(argv)


def _run(argv: list[str]) -> int:
    for i, arg in enumerate(argv):
        if not _utf8(arg) and (i == 0 or argv[i - 1] != "--root") and not arg.startswith("--root="):
            raise InvalidInput(f"argument {i + 1} is not valid UTF-8 (undecodable bytes shown escaped: {visible(arg)})")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not args.command:
        parser.print_usage(sys.stderr)
        raise InvalidInput("a command is required: tether --help lists them")
    _load_commands()
    result = COMMANDS[args.command](args)
    if args.json and not result.raw:
        sys.stdout.buffer.write(_json(result.data) + b"\n")
    elif result.text:
        sys.stdout.write(visible(result.text) + "\n")
    sys.stdout.flush()  # inside the try: a pipe closed early is noticed here, not at exit
    return result.code


def _json(data: Any) -> bytes:
    """The envelope as JSON; text that is not valid Unicode (a file name's undecodable bytes) is
    written with those bytes escaped, as `\\udcff`, rather than failing the whole answer."""
    try:
        return orjson.dumps(data, option=orjson.OPT_INDENT_2)
    except TypeError:
        return orjson.dumps(_encodable(data), option=orjson.OPT_INDENT_2)


def _encodable(value: Any) -> Any:
    if isinstance(value, str):
        return value if _utf8(value) else value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {_encodable(k): _encodable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_encodable(v) for v in value]
    return value


def _utf8(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _reader_gone() -> int:
    """stdout's reader closed it: stop quietly. Point stdout at /dev/null so the interpreter's
    final flush does not raise again (the pattern the Python docs give for SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass
    return 141  # 128 + SIGPIPE, what a shell reports for a writer killed by a closed pipe


def _fail(e: TetherError, as_json: bool) -> int:
    if as_json:
        sys.stdout.buffer.write(orjson.dumps({"error": _encodable(e.to_dict())}, option=orjson.OPT_INDENT_2) + b"\n")
    else:
        print(f"tether: error[{e.code}]: {visible(e.message)}", file=sys.stderr)
    return 2
