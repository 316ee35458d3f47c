"""Overloads: a bare name means the implementation; the stubs keep their parameter lists."""

from __future__ import annotations

import pytest

PY = """from typing import overload
import typing


class Config:
    @overload
    def get(self, key: str) -> str: ...
    @typing.overload
    def get(self, key: int) -> int: ...
    def get(self, key):
        return self.values[key]
"""

TS = """export function parse(x: string): number;
export function parse(x: number): number;
export function parse(x: any): number {
  return Number(x);
}
"""

CASES = {
    "python": ("config.py", PY, "Config.get", "(self, key: str)", "return self.values[key]"),
    "typescript": ("parse.ts", TS, "parse", "(x: string)", "return Number(x);"),
}


@pytest.mark.parametrize("lang", CASES)
def test_bare_name_binds_the_implementation(repo, lang):
    path, text, name, stub_disc, body = CASES[lang]
    repo.write(path, text)
    repo.commit()
    impl = repo.remember("the implementation coerces", f"{path}::{name}")
    stub = repo.remember("the string overload", f"{path}::{name}@{stub_disc}")
    items = repo.check()
    def_line = next(i for i, line in enumerate(text.splitlines()) if body in line)  # 1-based: the line above
    assert items[impl]["anchors"][0]["lines"][0] == def_line
    assert items[stub]["anchors"][0]["discriminator"] == stub_disc
    repo.replace(path, body, body.replace("key", "str(key)").replace("Number(x)", "Number(x) || 0"))
    items = repo.check()
    assert (items[impl]["status"], items[impl]["reason"]) == ("stale", "body_edited")
    assert items[stub]["status"] == "active"  # a stub names what it types, not the code that runs


def test_twins_without_a_single_implementation_stay_ambiguous(repo):
    repo.write("twice.py", "def f(a):\n    return a\n\n\ndef f(a, b):\n    return b\n")
    repo.commit()
    err = repo.error("remember", "f is defined twice", "--anchor", "twice.py::f")
    assert err["code"] == "anchor_ambiguous" and len(err["candidates"]) == 2
