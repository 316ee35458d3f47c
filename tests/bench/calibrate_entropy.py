"""Calibration of the low-entropy floor (`resolve.LOW_ENTROPY_BITS`) on the standard library.

Following a renamed or moved body on a unique hash match is only safe when that body is unlikely
to have an identical twin somewhere: a one-off `return self._x` matching uniquely today is luck,
not evidence. So over every function/method symbol of the stdlib we bucket by entropy (bits, as
extraction computes it) and measure the share of symbols whose normalized hash occurs more than
once in the corpus. The floor is the smallest bucket edge from which every bucket (with at least
MIN_BUCKET symbols) stays under 5% duplicated; the cumulative share above each edge is shown too.
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from itertools import pairwise
from pathlib import Path

from . import Table, stdlib_dir, stdlib_files

EDGES = (
    0,
    2,
    4,
    6,
    8,
    10,
    12,
    14,
    16,
    18,
    20,
    22,
    24,
    26,
    28,
    30,
    35,
    40,
    45,
    50,
    55,
    60,
    70,
    80,
    100,
    200,
    float("inf"),
)
TARGET_SHARE = 0.05
MIN_BUCKET = 20  # fewer symbols than this: too noisy to move the floor
KINDS = ("function", "method")


def _facts(paths: list[str]) -> list[tuple[float, str]]:
    from tether.anchor.extract import analyze

    out = []
    for p in paths:
        facts = analyze(p, Path(p).read_bytes(), entropy=True)
        out += [(s.entropy, s.hash) for s in facts.symbols if s.kind in KINDS]
    return out


def symbols(files: list[Path]) -> list[tuple[float, str]]:
    """(entropy, hash) of every function and method, extracted on all cores."""
    n = max(1, min(os.cpu_count() or 1, len(files) // 8))
    chunks = [[str(f) for f in files[i :: n * 4]] for i in range(n * 4)]
    if n == 1:
        return _facts([str(f) for f in files])
    with ProcessPoolExecutor(n) as pool:
        return [x for part in pool.map(_facts, chunks) for x in part]


def calibrate(syms: list[tuple[float, str]]) -> dict:
    """Per-bucket and cumulative duplicate shares, and the floor they imply."""
    counts: dict[str, int] = {}
    for _, h in syms:
        counts[h] = counts.get(h, 0) + 1
    dup = [(bits, counts[h] > 1) for bits, h in syms]
    buckets = []
    for lo, hi in pairwise(EDGES):
        inside = [d for bits, d in dup if lo <= bits < hi]
        above = [d for bits, d in dup if bits >= lo]
        buckets.append(
            {
                "lo": lo,
                "hi": hi,
                "n": len(inside),
                "dups": sum(inside),
                "share": sum(inside) / len(inside) if inside else 0.0,
                "share_above": sum(above) / len(above) if above else 0.0,
            }
        )
    floor = next(
        (
            b["lo"]
            for i, b in enumerate(buckets)
            if all(c["share"] < TARGET_SHARE or c["n"] < MIN_BUCKET for c in buckets[i:])
        ),
        None,
    )
    cumulative = next((b["lo"] for b in buckets if b["share_above"] < TARGET_SHARE), None)
    return {
        "symbols": len(syms),
        "distinct": len(counts),
        "buckets": buckets,
        "floor": floor,
        "cumulative_floor": cumulative,
    }


def _shares(cal: dict, current: float) -> tuple[float, float]:
    """Duplicated share below the current floor and at or above it."""
    below = [b for b in cal["buckets"] if b["hi"] <= current]
    n, d = sum(b["n"] for b in below), sum(b["dups"] for b in below)
    above = next(b for b in cal["buckets"] if b["lo"] >= current)
    return d / max(1, n), above["share_above"]


def _buckets_table(title: str, cal: dict, current: float) -> Table:
    t = Table(title)
    for b in cal["buckets"]:
        if not b["n"]:
            continue
        hi = "" if b["hi"] == float("inf") else f"{b['hi']:g}"
        ok = b["share"] < TARGET_SHARE if b["n"] >= MIN_BUCKET else None
        t.add(
            f"{b['lo']:g}–{hi} bits",
            f"{b['n']} symbols, {100 * b['share']:.1f}% duplicated (all >= {b['lo']:g}: {100 * b['share_above']:.1f}%)",
            "< 5%",
            ok,
        )
    below, above = _shares(cal, current)
    t.add(f"current floor {current:g} bits: duplicated below / at or above", f"{100 * below:.1f}% / {100 * above:.1f}%")
    t.add("smallest floor: every bucket from here < 5%", f"{cal['floor']} bits")
    t.add("smallest floor: all symbols from here < 5% (cumulative)", f"{cal['cumulative_floor']} bits")
    t.notes.append(
        f"{cal['symbols']} function/method symbols, {cal['distinct']} distinct hashes; a symbol is "
        "'duplicated' when another function/method in the corpus has the same normalized hash"
    )
    t.notes.append(f"buckets with fewer than {MIN_BUCKET} symbols are shown but cannot move the floor")
    t.data = cal
    return t


def _summary(results: list[tuple[str, dict]], current: float) -> Table:
    t = Table("Entropy floor: summary per corpus")
    for name, cal in results:
        below, above = _shares(cal, current)
        t.add(f"{name}: duplicated below / at or above {current:g} bits", f"{100 * below:.1f}% / {100 * above:.1f}%")
        t.add(f"{name}: floor, every bucket above < 5%", f"{cal['floor']} bits")
        t.add(f"{name}: floor, cumulative share above < 5%", f"{cal['cumulative_floor']} bits")
    t.notes.append(
        "encodings/ holds ~100 charmap codecs generated by gencodec.py: the same Codec/Incremental* "
        "methods (~55 bits) 18-70 times over; it is copy-paste no entropy floor can tell apart"
    )
    t.data = {name: {k: v for k, v in cal.items() if k != "buckets"} for name, cal in results}
    return t


def run(small: bool = False) -> list[Table]:
    from tether.lifecycle.resolve import LOW_ENTROPY_BITS

    lib = stdlib_dir()
    typical = stdlib_files(limit=60 if small else None)
    corpora = [
        ("stdlib without tests", typical),
        ("without tests and encodings/", [f for f in typical if f.relative_to(lib).parts[0] != "encodings"]),
    ]
    if not small:
        corpora.append(("stdlib with its test suite", stdlib_files(include_tests=True)))
    results = [(name, calibrate(symbols(files))) for name, files in corpora]
    main = _buckets_table(
        f"Entropy floor calibration: stdlib without tests ({len(typical)} files under {lib})",
        results[0][1],
        LOW_ENTROPY_BITS,
    )
    return [main, _summary(results, LOW_ENTROPY_BITS)]
