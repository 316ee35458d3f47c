"""`tether hook EVENT`: a Claude Code hook's handler, payload on stdin, output on stdout; exits 0."""

from __future__ import annotations

import os

from tether.surfaces.cli.args import Add
from tether.surfaces.cli.output import Result
from tether.surfaces.hooks.payload import EVENTS
from tether.surfaces.hooks.runner import main as run


def register(add: Add) -> None:
    s = add("hook", "run a Claude Code hook: JSON payload on stdin, hook output on stdout; always exits 0")
    s.add_argument("event", choices=list(EVENTS))
    s.set_defaults(handler=hook)


def hook(args) -> Result:
    if args.root:
        os.environ["TETHER_ROOT"] = args.root
    run(args.event)
    return Result(None, "", raw=True)
