"""Extraction against a committed golden: a hash change is a format change, made on purpose.

tests/fixtures/extract_golden.json holds sources (each language case as written and reformatted,
a stdlib module, samples) with every field extraction gave them: qualnames, discriminators, kinds,
lines, bytes, hashes, entropies. Any difference means stored anchors would stop resolving.

- a new language: `python -m tests.bench.extract_equivalence golden` adds its case, nothing else;
- an intended format change (raise the language's format in anchor/hash_formats.py): `... golden --rewrite`, and say
  so in the commit; what format 1 extracted stays as the entry's `format1`, checked too.
Speed work is checked on a far larger corpus with `extract_equivalence dump`/`compare`.
"""

from __future__ import annotations

import pytest

from tests.bench.extract_equivalence import extract, load_golden
from tether.anchor.languages import LANGUAGES

GOLDEN = load_golden()


@pytest.mark.parametrize("path", sorted(GOLDEN))
def test_extraction_is_unchanged(path):
    entry = GOLDEN[path]
    got = extract(path, entry["source"].encode())
    want = entry["facts"]
    assert {k: v for k, v in got.items() if k != "symbols"} == {k: v for k, v in want.items() if k != "symbols"}
    got_rows, want_rows = got.get("symbols", []), want.get("symbols", [])
    changed = [(w, g) for w, g in zip(want_rows, got_rows) if w != g]
    assert not changed and len(got_rows) == len(want_rows), (
        f"{path}: extraction changed (a format change?):\n"
        + "\n".join(f"  was {w}\n  now {g}" for w, g in changed[:5])
        + (f"\n  {len(want_rows)} symbols were, {len(got_rows)} are" if len(got_rows) != len(want_rows) else "")
    )


@pytest.mark.parametrize("path", sorted(p for p, e in GOLDEN.items() if "format1" in e))
def test_an_older_hash_format_is_still_extracted_as_it_was(path):
    # anchors written in hash format 1 are checked at their place by re-reading the code that way
    entry = GOLDEN[path]
    assert extract(path, entry["source"].encode(), hash_format=1) == entry["format1"]


def test_golden_covers_every_language():
    covered = {entry["facts"].get("language") for entry in GOLDEN.values()}
    missing = sorted(lang.name for lang in LANGUAGES if lang.name not in covered)
    assert not missing, (
        f"no golden extraction for {', '.join(missing)}: add a tests/lang_cases case (or a sample in "
        "tests/bench/extract_equivalence.py) and run `python -m tests.bench.extract_equivalence golden`"
    )
