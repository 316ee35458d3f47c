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


@pytest.mark.parametrize("lang", CASES)
def test_a_deleted_stub_is_deleted_not_re_pointed_to_a_twin(repo, lang):
    path, text, name, stub_disc, _ = CASES[lang]
    repo.write(path, text)
    repo.commit()
    stub = repo.remember("the string overload", f"{path}::{name}@{stub_disc}")
    impl = repo.remember("the implementation coerces", f"{path}::{name}")
    line = next(ln for ln in text.splitlines(keepends=True) if stub_disc in ln)
    decorator = "    @overload\n" if lang == "python" else ""
    repo.write(path, text.replace(decorator + line, "", 1))
    items = repo.check()
    assert (items[stub]["status"], items[stub]["reason"]) == ("invalidated", "anchor_deleted")
    assert items[impl]["status"] == "active"


def test_an_edited_stub_is_stale_at_its_new_parameters(repo):
    path, text, name, stub_disc, _ = CASES["typescript"]
    repo.write(path, text)
    repo.commit()
    stub = repo.remember("the string overload", f"{path}::{name}@{stub_disc}")
    repo.replace(path, "parse(x: string): number;", "parse(x: string, radix: number): number;")
    items = repo.check()
    assert (items[stub]["status"], items[stub]["reason"]) == ("stale", "body_edited")
    assert items[stub]["anchors"][0]["discriminator"] == "(x: string, radix: number)"


ALIASED = """from typing import Any, overload as ovl


class Config:
    @ovl
    def get(self, key: str) -> str: ...
    @ovl
    def get(self, key: int) -> int: ...
    def get(self, key: Any) -> Any:
        return self.values[key]
"""


def test_an_aliased_overload_decorator_marks_stubs(repo):
    repo.write("config.py", ALIASED)
    repo.commit()
    impl = repo.remember("the implementation looks the key up", "config.py::Config.get")
    items = repo.check()
    assert (
        items[impl]["anchors"][0]["lines"][0] == ALIASED.splitlines().index("    def get(self, key: Any) -> Any:") + 1
    )
