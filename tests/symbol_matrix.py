"""The two checks every language's symbol fixture gets, shared by tests/anchor/test_symbols*.py.

`matrix(source, expected, changes)` returns the two parametrized tests for a module to bind:
every qualified name, kind and discriminator as listed; and a rename keeps the hash while a body
edit changes it. `source(lang)` gives (file name, text).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tether.anchor.extract import analyze
from tether.anchor.languages import language_named


def symbols(path: str, source: str) -> list:
    facts = analyze(path, source.encode())
    assert facts.skipped is None
    return list(facts.symbols)


def one(path: str, source: str, qualname: str, disc: str | None = None):
    (s,) = [s for s in symbols(path, source) if s.qualname == qualname and (disc is None or s.discriminator == disc)]
    return s


def matrix(source: Callable[[str], tuple[str, str]], expected: dict, changes: dict):
    @pytest.mark.parametrize("lang", sorted(expected))
    def test_qualified_names_kinds_and_discriminators(lang):
        path, text = source(lang)
        facts = analyze(path, text.encode())
        assert facts.language == lang
        assert [(s.qualname, s.kind, s.discriminator) for s in facts.symbols] == expected[lang]

    @pytest.mark.parametrize("lang", sorted(changes))
    def test_rename_keeps_the_hash_and_a_body_edit_changes_it(lang):
        path, text = source(lang)
        symbol, (old, new), renamed_to, (edit_old, edit_new) = changes[lang]
        assert old in text and edit_old in text
        before = one(path, text, symbol)
        assert before.hash.startswith(f"t{language_named(lang).hash_format}:")
        assert one(path, text.replace(old, new), renamed_to).hash == before.hash
        assert one(path, text.replace(edit_old, edit_new), symbol).hash != before.hash

    return test_qualified_names_kinds_and_discriminators, test_rename_keeps_the_hash_and_a_body_edit_changes_it
