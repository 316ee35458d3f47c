"""How much an anchored body says, and the floors under which a moved body is never followed by its
hash alone (`low_entropy`): a look-alike is too likely."""

from __future__ import annotations

from tether.anchor.model import Symbol
from tether.index.code_index import CodeIndex
from tether.store.model import Anchor

# Following a renamed or moved body needs evidence that the match is not a look-alike.
# Calibrated on CPython's standard library without its tests (16,520 functions and methods;
# `make bench` runs tests/bench/calibrate_entropy.py): 42% of bodies under 20 bits have an
# identical twin somewhere in the library (`pass`, `return self._x`), and above 40 bits fewer
# than 5% do. Between the two lie copy-paste families (generated codecs, identical accessors),
# so the floor sits at 40: a missed follow costs a reanchor, a wrong one serves a look-alike.
LOW_ENTROPY_BITS = 40.0
FILE_LOW_ENTROPY_BITS = 20.0


def symbol_bits(index: CodeIndex, path: str, s: Symbol) -> float:
    """How much a symbol says: kept by the index for sections and keys, measured now for code
    (only of a symbol about to be followed), on the file as the index saw it."""
    if s.entropy is not None:
        return s.entropy
    from tether.anchor.extract import analyze

    data = index.read_bytes(path)
    if data is None:
        return 0.0  # gone since the index saw it: nothing to follow
    for now in analyze(path, data, entropy=True).symbols:
        if now.hash == s.hash and now.start_byte == s.start_byte and now.entropy is not None:
            return now.entropy
    return 0.0  # changed since the index saw it: not followed on a stale reading


def file_bits(index: CodeIndex, path: str) -> float:
    """How much a file says, read now: asked only of a file about to be followed."""
    from tether.anchor.extract import file_entropy

    data = index.read_bytes(path)
    return 0.0 if data is None else file_entropy(data)  # gone since the index saw it: nothing to follow


def too_trivial_to_follow(index: CodeIndex, a: Anchor) -> bool:
    """Whether the anchored body says too little to be followed if it moves (under the floor:
    a move or rename of it will read `low_entropy`, never re-pointed). Asked at write time."""
    if a.type == "file":
        return file_bits(index, a.path) < FILE_LOW_ENTROPY_BITS
    here = [s for s in index.symbols(a.path, a.symbol) if s.hash == a.hash]
    return bool(here) and symbol_bits(index, a.path, here[0]) < LOW_ENTROPY_BITS
