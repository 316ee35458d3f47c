"""The one spelling of an anchor: what every surface prints and `remember --anchor` reads back.

`path` (a file), `path::Qual.name` (a symbol), `path#Heading/Sub` or `path#a.b` (a section or a
config key), each with `@discriminator` when it names one of several twins; `@` alone names the
twin without one. Import-free: the prompt hook prints locators.
"""

from __future__ import annotations


def locator(kind: str, path: str, name: str | None = None, discriminator: str | None = None) -> str:
    """`discriminator=None`: not named; `""`: the twin without a discriminator (`name@`)."""
    if kind == "file" or not name:
        return path
    sep = "::" if kind == "symbol" else "#"
    return f"{path}{sep}{name}" + ("" if discriminator is None else f"@{discriminator}")
