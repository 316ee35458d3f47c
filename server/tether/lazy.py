"""Defer `inspect` (and `platform`) in a hook or CLI process: `dataclasses` imports it at the top for one call tether never
reaches (it builds a docstring for classes without one; every class on a hook's path has one).

`inspect` and what it loads (ast, dis, tokenize, ...) cost a hook or a `tether check` ~10 ms. A stand-in
module takes its place in sys.modules; the first attribute anyone reads from it imports the real
`inspect` and serves from then on, so code that does use it still gets the real thing.
(importlib.util.LazyLoader cannot be used: before 3.12 an `import` statement of a lazy module
reads its `__spec__`, which loads it.)
"""

from __future__ import annotations

import os
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


class _System(types.ModuleType):
    """`platform` while orjson loads: orjson imports `uuid` (for its UUID type), and uuid imports
    `platform` (~2 ms of a `tether check`) for one call, `platform.system()`, which on a POSIX
    system is `os.uname().sysname`. Anything else read from it loads the real module."""

    def system(self) -> str:
        return os.uname().sysname

    def __getattr__(self, attr: str):
        if sys.modules.get("platform") is self:
            del sys.modules["platform"]
        import platform as real  # noqa: PLC0415  (only if something asks more of it)

        return getattr(real, attr)


class PlatformStandIn:
    """`with PlatformStandIn(): import orjson`: the stand-in serves uuid's one call, then leaves
    sys.modules, so a later `import platform` gets the real module. Nothing is stood in where
    `platform` (or uuid, or orjson) is loaded already, or where os.uname is missing (Windows,
    where uuid does not ask)."""

    def __enter__(self) -> None:
        self.stand_in = None
        if not ({"orjson", "uuid", "platform"} & sys.modules.keys()) and hasattr(os, "uname"):
            self.stand_in = sys.modules["platform"] = _System("platform")

    def __exit__(self, *exc: object) -> None:
        if self.stand_in is not None and sys.modules.get("platform") is self.stand_in:
            del sys.modules["platform"]


class _UrlParse(types.ModuleType):
    """`urllib.parse` while pathlib loads: pathlib imports one function of it (with `ipaddress`,
    ~1.5 ms of a `tether check`) for `as_uri()` alone. The function it is given loads the real
    module when called; anything else read from the stand-in loads it too."""

    def __getattr__(self, attr: str):
        if attr.startswith("__"):  # the import system asking whether it is a package (`__path__`)
            raise AttributeError(attr)
        if sys.modules.get("urllib.parse") is self:
            del sys.modules["urllib.parse"]
        import urllib.parse as real  # noqa: PLC0415

        return getattr(real, attr)


def _quote_from_bytes(*args, **kwargs):
    import urllib.parse as real  # noqa: PLC0415  (only if a path is written as a URI)

    return real.quote_from_bytes(*args, **kwargs)


class UrlParseStandIn:
    """`with UrlParseStandIn(): import pathlib`, as PlatformStandIn: nothing is stood in where
    pathlib or urllib.parse is loaded already."""

    def __enter__(self) -> None:
        self.stand_in = None
        if not ({"pathlib", "urllib.parse"} & sys.modules.keys()):
            stand_in = _UrlParse("urllib.parse")
            setattr(stand_in, "quote_from_bytes", _quote_from_bytes)  # noqa: B010  (what pathlib imports)
            self.stand_in = sys.modules["urllib.parse"] = stand_in

    def __exit__(self, *exc: object) -> None:
        if self.stand_in is not None and sys.modules.get("urllib.parse") is self.stand_in:
            del sys.modules["urllib.parse"]
