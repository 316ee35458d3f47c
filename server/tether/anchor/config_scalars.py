"""Scalars as JSON, YAML and TOML read them, shared by their readers: integers in any base, floats
with `.inf`/`.nan`, and backslash escapes, each to one canonical text the key hash reads."""

from __future__ import annotations

import re

from tether.anchor.config import Node


def scalar(tag: str, text: str) -> Node:
    return Node("scalar", tag, text)


def integer(text: str) -> Node:
    t = text.replace("_", "")
    try:
        return scalar("int", str(int(t, 0)))
    except ValueError:
        try:
            return scalar("int", str(int(t, 10)))
        except ValueError:
            return scalar("str", text)


def floating(text: str) -> Node:
    t = text.replace("_", "").lower().lstrip("+").replace(".inf", "inf").replace(".nan", "nan")
    if t.endswith("nan"):
        return scalar("float", "nan")
    try:
        return scalar("float", repr(float(t)))
    except ValueError:
        return scalar("str", text)


_SIMPLE_ESC = {
    "b": "\b",
    "t": "\t",
    "n": "\n",
    "f": "\f",
    "r": "\r",
    '"': '"',
    "\\": "\\",
    "/": "/",
    "e": "\x1b",
    "0": "\0",
    "a": "\a",
    "v": "\v",
    " ": " ",
    "N": "\x85",
    "_": "\xa0",
    "L": "\u2028",
    "P": "\u2029",
    "\t": "\t",
}
_ESC = re.compile(r"\\(x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|.)", re.DOTALL)


def unescape(s: str) -> str:
    def one(m: re.Match) -> str:
        e = m.group(1)
        if len(e) > 1:
            try:
                return chr(int(e[1:], 16))
            except (ValueError, OverflowError):
                return m.group(0)
        return _SIMPLE_ESC.get(e, m.group(0))

    return _ESC.sub(one, s)
