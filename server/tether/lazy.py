"""Defer `inspect` in a hook or CLI process: `dataclasses` imports it at the top for one call tether never
reaches (it builds a docstring for classes without one; every class on a hook's path has one).

`inspect` and what it loads (ast, dis, tokenize, ...) cost a hook or a `tether check` ~10 ms. A stand-in
module takes its place in sys.modules; the first attribute anyone reads from it imports the real
`inspect` and serves from then on, so code that does use it still gets the real thing.
(importlib.util.LazyLoader cannot be used: before 3.12 an `import` statement of a lazy module
reads its `__spec__`, which loads it.)
"""

from __future__ import annotations

import sys
import types

NAME = "inspect"


class _Deferred(types.ModuleType):
    def __getattr__(self, attr: str):
        if sys.modules.get(NAME) is self:
            del sys.modules[NAME]
        import inspect as real  # noqa: PLC0415  (the point: imported on first use only)

        self.__dict__.update(real.__dict__)  # later reads through this stand-in skip __getattr__
        return getattr(real, attr)


def defer_inspect() -> None:
    if NAME not in sys.modules and "dataclasses" not in sys.modules:
        sys.modules[NAME] = _Deferred(NAME)
