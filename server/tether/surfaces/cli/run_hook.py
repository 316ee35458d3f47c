"""`tether hook EVENT`: a Claude Code hook's handler, payload on stdin, output on stdout; exits 0."""

from __future__ import annotations

import os
import sys

from tether.surfaces.cli.args import Add
from tether.surfaces.cli.output import Result
from tether.surfaces.hooks.payload import EVENTS
from tether.surfaces.hooks.runner import main as run


def register(add: Add) -> None:
    s = add("hook", "run a Claude Code hook: JSON payload on stdin, hook output on stdout; always exits 0")
    s.add_argument("event", help=f"{' | '.join(EVENTS)} (or as the hook scripts spell it: user_prompt_submit)")
    s.set_defaults(handler=hook)


def event_named(name: str) -> str | None:
    """The hook event `name` spells, in any case, with or without underscores (hooks/run.sh's form)."""
    key = name.replace("_", "").replace("-", "").lower()
    return next((e for e in EVENTS if e.lower() == key), None)


def hook(args) -> Result:
    if args.root:
        os.environ["TETHER_ROOT"] = args.root
    event = event_named(args.event)
    if event is None:  # a hook fails open: say why where a person reads it, and exit 0
        print(f"tether hook: unknown event {args.event!r}; one of {', '.join(EVENTS)}", file=sys.stderr)
        return Result(None, "", raw=True)
    run(event)
    return Result(None, "", raw=True)
