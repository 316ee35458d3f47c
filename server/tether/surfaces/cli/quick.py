"""The plainest forms of the read commands, read without argparse: `tether check --json`, `tether
ls`, `tether recall "task" --json`, ... Importing argparse (with gettext and locale) and building its parser were ~4 ms of a ~50 ms
`check`. Anything else (a value other than --root's or recall's task, `--help`, an abbreviation,
`--x=y`, a typo) goes to the full parser, which also words every error: this path never refuses.

The namespace is the one argparse gives for the same argv; a test holds the two to each other for
every flag of every command here.
"""

from __future__ import annotations

import sys
import types

from tether.recall.limits import DEFAULT_BUDGET, DEFAULT_LIMIT

# command: (its family module, the handler's name there, what argparse defaults its arguments to,
# its flags that take no value, each setting its argument to True, its one positional argument
# that must be given, if any)
QUICK: dict[str, tuple[str, str, dict[str, object], dict[str, str], str | None]] = {
    "check": (
        "reading",
        "check",
        {"ids": [], "path": [], "strict": False, "format": "text", "problems": False},
        {"--strict": "strict", "--problems": "problems"},
        None,
    ),
    "ls": ("reading", "ls", {"all": False, "kind": None}, {"--all": "all"}, None),
    "recall": (
        "recall",
        "recall",
        {"file": [], "budget": DEFAULT_BUDGET, "as_of": None, "kind": [], "limit": DEFAULT_LIMIT},
        {},
        "query",
    ),
}


def command_of(argv: list[str]) -> str | None:
    """The command word in `argv` (options may come first: `tether --root X --json check`)."""
    skip = False
    for arg in argv:
        if skip:
            skip = False
        elif arg == "--root":
            skip = True
        elif not arg.startswith("-"):
            return arg
    return None


def parse(argv: list[str], command: str | None) -> types.SimpleNamespace | None:
    """The arguments of a command in QUICK given only --json, --root DIR, its own flags and its
    positional argument, or None."""
    if command not in QUICK:
        return None
    family, handler, defaults, flags, positional = QUICK[command]
    values: dict[str, object] = {"root": None, "json": False}
    seen = False
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg == "--json":
            values["json"] = True
        elif arg == "--root":
            if i + 1 == len(argv) or argv[i + 1].startswith("-"):
                return None  # argparse's error to word
            values["root"] = argv[i + 1]  # the last one given wins, before or after the command
            i += 1
        elif arg == command and not seen:
            seen = True
        elif seen and arg in flags:
            values[flags[arg]] = True
        elif seen and positional is not None and positional not in values and not arg.startswith("-"):
            values[positional] = arg
        else:
            return None
        i += 1
    if positional is not None and positional not in values:
        return None  # argparse's error to word
    args = {name: list(v) if isinstance(v, list) else v for name, v in defaults.items()} | values
    name = f"tether.surfaces.cli.{family}"
    __import__(name)  # not importlib.import_module: importing importlib loads `warnings` too
    return types.SimpleNamespace(**args, command=command, handler=getattr(sys.modules[name], handler))
