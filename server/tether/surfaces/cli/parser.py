"""The argument parser, built from the command families: only the family a command belongs to is
imported (a `tether check` never loads the MCP server), all of them for `--help`.

Each family module (memories.py, reading.py, ...) has `register(add)`: `add(name, help)` gives it
a subparser, on which it declares its arguments and sets `handler`. `FAMILIES` says which module
a command lives in; a test holds it to what the modules register.
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Iterable

from tether import __version__
from tether.errors import InvalidInput

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    from typing import NoReturn

FAMILIES = {
    "remember": "memories",
    "reanchor": "memories",
    "supersede": "memories",
    "retire": "memories",
    "check": "reading",
    "ls": "reading",
    "show": "reading",
    "history": "reading",
    "affected": "review",
    "recall": "recall",
    "stats": "stats",
    "export": "transfer",
    "import": "transfer",
    "status": "maintenance",
    "doctor": "maintenance",
    "init": "maintenance",
    "index": "maintenance",
    "report": "maintenance",
    "demo": "maintenance",
    "mcp": "serve_mcp",
    "hook": "run_hook",
}


class _Formatter(argparse.HelpFormatter):
    """argparse's own, but the terminal's width is read without `shutil` (which argparse imports for
    it, with bz2 and lzma, on every command: each argument added builds a formatter)."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None):
        super().__init__(prog, indent_increment, max_help_position, _columns() - 2 if width is None else width)


def _columns() -> int:
    """As shutil.get_terminal_size().columns: $COLUMNS, else the terminal's, else 80."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args, **kwargs) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:  # one line, stable code, exit 2 (main prints "tether: ...")
        where = self.prog.removeprefix("tether").strip()
        raise InvalidInput(f"{where}: {message}" if where else message)


def build_parser(commands: Iterable[str] | None = None) -> argparse.ArgumentParser:
    """The parser for `commands` (their families' commands, that is), or for every command."""
    wanted = set(FAMILIES) if commands is None else {c for c in commands if c in FAMILIES} or set(FAMILIES)
    families = list(dict.fromkeys(FAMILIES[c] for c in FAMILIES if c in wanted))
    # --root and --json work before or after the command. The subcommands' copies default to
    # SUPPRESS so they never overwrite a value given first; argparse shares action objects
    # between a parent and its children, so the top level gets its own, separate actions.
    common = _Parser(add_help=False)
    common.add_argument(
        "--root", default=argparse.SUPPRESS, help="repository root (default: nearest .tether/ or .git/)"
    )
    common.add_argument("--json", action="store_true", default=argparse.SUPPRESS, help="print the JSON envelope")
    p = _Parser(prog="tether", description="Memory for AI coding agents that goes stale when the code does.")
    p.add_argument("--root", default=None, help="repository root (default: nearest .tether/ or .git/)")
    p.add_argument("--json", action="store_true", default=False, help="print the JSON envelope")
    p.add_argument("--version", action="version", version=f"tether {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    made: dict[str, argparse.ArgumentParser] = {}

    def add(name: str, help_: str) -> argparse.ArgumentParser:
        made[name] = sub.add_parser(name, help=help_, description=help_, parents=[common])
        return made[name]

    for family in families:
        importlib.import_module(f"tether.surfaces.cli.{family}").register(add)
    return p


def registered(family: str) -> list[str]:
    """The commands a family module registers (for the test that holds FAMILIES to them)."""
    names: list[str] = []

    def add(name: str, help_: str) -> argparse.ArgumentParser:
        names.append(name)
        return _Parser(add_help=False)

    importlib.import_module(f"tether.surfaces.cli.{family}").register(add)
    return names
