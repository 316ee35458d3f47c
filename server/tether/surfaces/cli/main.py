"""The console script's entry (and `python -m tether`'s): the collector is tuned before anything of
the command is imported; the command itself is run.py's."""

from __future__ import annotations

import os
import sys


def entry() -> None:
    """The console script and `python -m tether`: main(), then a quick exit.

    A CLI process is short: the collector's passes over the objects that imports create free
    nothing (a higher threshold still collects, rarely), and the interpreter's teardown (freeing
    ~200 modules' objects one by one) was ~7 ms CPU of a 60 ms `check`. Nothing is left to release
    at the exit: files are closed, pool workers were joined, and the cache's connections are
    closed here (closing the last one checkpoints SQLite's WAL).
    """
    import gc

    gc.set_threshold(20_000, 10, 10)  # before the command's imports: they allocate the most
    from tether.index.db import close_all
    from tether.surfaces.cli.run import main, reader_gone

    code = main()
    close_all()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:  # None: the shell started us with it closed (`>&-`)
                stream.flush()
        except (OSError, ValueError):  # stdout's reader left: nothing more can be said
            code = reader_gone() if stream is sys.stdout and code == 0 else code
    os._exit(code)


def main(argv: list[str] | None = None) -> int:
    """run.py's main(), for callers in process (tests): the exit code, without the quick exit."""
    from tether.surfaces.cli.run import main as run

    return run(argv)
