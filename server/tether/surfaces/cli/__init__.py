"""The `tether` command: one module per command family, each with its arguments and handler."""

from tether.lazy import defer_inspect

# Before any module of the command is imported: `dataclasses` (every core type) would load
# `inspect` for nothing (tether/lazy.py). Here, so both `tether` and `python -m tether` get it.
defer_inspect()
