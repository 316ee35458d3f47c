"""The `tether` command: a thin adapter over the library. Errors are translated once, here."""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Callable

import orjson

from . import __version__
from .errors import InternalError, InvalidInput, TetherError

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
        parser = build_parser()
        args = parser.parse_args(argv)
        as_json = args.json
        if not args.command:
            parser.print_help()
            return 0
        _load_commands()
        result = COMMANDS[args.command](args)
    except TetherError as e:
        return _fail(e, as_json)
    except KeyboardInterrupt:
        return 130
    except Exception as e:  # a bug, not bad input: one line, the traceback on request
        if os.environ.get("TETHER_DEBUG"):
            raise
        return _fail(InternalError(f"internal error {type(e).__name__}: {e} (TETHER_DEBUG=1 shows the traceback)"), as_json)
    if as_json and not result.raw:
        sys.stdout.buffer.write(orjson.dumps(result.data, option=orjson.OPT_INDENT_2) + b"\n")
    elif result.text:
        print(result.text)
    return result.code


def _fail(e: TetherError, as_json: bool) -> int:
    if as_json:
        sys.stdout.buffer.write(orjson.dumps({"error": e.to_dict()}, option=orjson.OPT_INDENT_2) + b"\n")
    else:
        print(f"tether: error[{e.code}]: {e.message}", file=sys.stderr)
    return 2
