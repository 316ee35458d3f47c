"""What the commands read from their arguments: the repository they run on, and a text argument
that may be `-` for standard input."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable

from tether.errors import InvalidInput
from tether.service import Tether
from tether.store.files import not_a_repository
from tether.store.validate import MAX_BODY_CHARS

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing
if TYPE_CHECKING:
    import argparse

# what each command family's `register(add)` is handed: `add(name, help)` is a new subparser
# (named, not imported: `tether check --json` runs without argparse, quick.py)
Add = Callable[[str, str], "argparse.ArgumentParser"]
_stdin: list[bytes] = []


# the commands that would create the store: they refuse outside a repository, or make it (init)
CREATES_STORE = ("remember", "import", "init")


def repository(args, warn: bool = True) -> Tether:
    """The repository `--root` names, else the one the working directory is in. A plain directory
    is warned of (on stderr: the output stays what the command prints); writes there refuse.
    `warn=False`: the command refuses a plain directory with its own error, the one line it prints."""
    t = Tether(args.root, os.getcwd())
    if warn and getattr(args, "command", None) not in CREATES_STORE and t.store.unmarked():
        print(f"tether: warning[not_a_repository]: {not_a_repository(t.root)}", file=sys.stderr)
    return t


def text_argument(value: str) -> str:
    """The text argument, or standard input for `-` (a long body does not fit in an argument:
    Linux caps one at 128 KiB). Reading stops just past the limit: the refusal needs no more."""
    if value != "-":
        return value
    cap = MAX_BODY_CHARS * 4  # the most bytes MAX_BODY_CHARS characters take in UTF-8
    if _stdin:  # read once: a command run again on a rebuilt cache finds the same text
        data = _stdin[0]
    else:
        data = sys.stdin.buffer.read(cap + 1)
        _stdin.append(data)
    if len(data) > cap:
        raise InvalidInput(
            f"memory text on standard input is over {cap} bytes; the limit is {MAX_BODY_CHARS} "
            "characters: keep one memory to one point",
            field="body",
            limit=MAX_BODY_CHARS,
        )
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise InvalidInput(f"memory text on standard input is not UTF-8 at byte {e.start}") from None
