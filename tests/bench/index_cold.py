"""Cold index throughput against raw tree-sitter parse time, on two real corpora.

Corpora: the base interpreter's stdlib `.py` files without site-packages and test dirs (see
`stdlib_files`); and a mixed-language one from what is on the machine (`mixed_corpus`: Python,
JavaScript, JSON, Markdown, C/C++ headers, shell). Each is copied into a temp git repository. "Cold" means a fresh tether cache; the OS page
cache is warm for both sides, so the ratio compares CPU work, not disk reads.

Target: tether's cold index wall time (`CodeIndex.sweep()`, all cores) within 1.5x of
`parser.parse(bytes)` over the same files on one core.
"""

from __future__ import annotations

import os
import shutil
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from tether.anchor.extract import analysis_key, kind_of
from tether.anchor.languages import language_for
from tether.index import db
from tether.index.code_index import CodeIndex

from . import Table, git_commit_all, median_of, stdlib_dir, stdlib_files, timed, workdir

TARGET_RATIO = 1.5


def _burn(n: int) -> None:
    x = 0
    for i in range(n):
        x += i * i


def parallel_capacity(workers: int, n: int) -> float:
    """How many cores' worth of pure-Python work the machine gives `workers` processes right now:
    the ceiling for any process-pool speed-up on a shared machine."""
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(workers) as pool:
        list(pool.map(_burn, [n // 10] * workers))  # start the workers before timing
        one, _ = median_of(lambda: pool.submit(_burn, n).result(), 3, 0)
        many, _ = median_of(lambda: list(pool.map(_burn, [n] * workers)), 3, 0)
    return workers * one / many


def run(small: bool = False) -> list[Table]:
    stdlib = stdlib_files(limit=40 if small else None)
    lib = stdlib_dir()
    tables = [
        measure(f"Cold index: stdlib, {len(stdlib)} files", [(p, p.relative_to(lib).as_posix()) for p in stdlib], small)
    ]
    mixed = mixed_corpus(small)
    langs = sorted({kind_of(rel) or "?" for _, rel in mixed})
    tables.append(measure(f"Cold index: mixed languages ({', '.join(langs)}), {len(mixed)} files", mixed, small))
    return tables


def mixed_corpus(small: bool) -> list[tuple[Path, str]]:
    """Real source of several languages that is on this machine: stdlib Python, npm's own
    JavaScript, JSON and Markdown (npm ships with node), system C/C++ headers, shell scripts from
    /usr/bin. Whatever is missing is left out; each language is capped so none dominates."""
    cap = 12 if small else 400
    out: list[tuple[Path, str]] = []

    def take(prefix: str, paths: list[Path], base: Path, rename=None) -> None:
        paths = sorted(p for p in paths if p.is_file() and not p.is_symlink() and p.stat().st_size < 1_000_000)
        step = max(1, len(paths) // cap)
        for p in paths[::step][:cap]:
            rel = f"{prefix}/{p.relative_to(base).as_posix()}"
            out.append((p, rename(rel) if rename else rel))

    lib = stdlib_dir()
    take("python", stdlib_files(), lib)
    npm = shutil.which("npm")
    if npm:
        root = Path(npm).resolve().parents[1]  # .../node_modules/npm/bin/npm-cli.js -> .../npm
        if (root / "package.json").exists():
            take("npm", list(root.rglob("*.js")), root)
            take("npm-json", list(root.rglob("package.json")), root)
            take("npm-md", list(root.rglob("*.md")), root)
    inc = Path("/usr/include")
    if inc.is_dir():
        take("include", list(inc.rglob("*.h")), inc)
    bin_dir = Path("/usr/bin")
    scripts = [p for p in bin_dir.iterdir() if _shell_script(p)] if bin_dir.is_dir() else []
    take("scripts", scripts, bin_dir, rename=lambda rel: rel + ".sh")
    # npm vendors its dependencies under node_modules/, which tether never indexes: renamed, so
    # both sides of the comparison see the same files
    from tether.index.listing import PRUNED_DIRS

    def unpruned(rel: str) -> str:
        parts = rel.split("/")
        return "/".join(f"{p}_" if p in PRUNED_DIRS else p for p in parts[:-1]) + "/" + parts[-1]

    return [(p, unpruned(rel)) for p, rel in out if kind_of(rel)]


def _shell_script(p: Path) -> bool:
    try:
        with p.open("rb") as f:
            head = f.read(32)
    except OSError:
        return False
    return head.startswith((b"#!/bin/sh", b"#!/bin/bash", b"#!/usr/bin/env bash", b"#!/usr/bin/env sh"))


def _grammar(rel: str) -> str | None:
    """The tree-sitter grammar tether parses `rel` with (Markdown: the pack's markdown grammar)."""
    kind = kind_of(rel)
    if kind in ("markdown", "json", "yaml", "toml"):
        return kind
    lang = language_for(rel)
    return lang.grammar if lang else None


def measure(title: str, corpus: list[tuple[Path, str]], small: bool) -> Table:
    runs, warmup = (1, 0) if small else (3, 1)
    workers = os.cpu_count() or 1
    with workdir("index") as tmp:
        root = tmp / "repo"
        rels = []
        for src, rel in corpus:
            target = root / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(src, target)
            rels.append(rel)
        git_commit_all(root)
        copied = time.monotonic()
        blobs = [(root / r).read_bytes() for r in rels]
        size_mb = sum(map(len, blobs)) / 1e6

        from tree_sitter_language_pack import get_parser

        parsers = {g: get_parser(g) for g in {_grammar(r) for r in rels} if g}
        jobs = [(parsers[_grammar(r)], b) for r, b in zip(rels, blobs) if _grammar(r)]

        def parse_each(todo: list) -> Callable[[], None]:
            def go() -> None:
                for parser, b in todo:
                    parser.parse(b)

            return go

        raw_parse = parse_each(jobs)

        # copies (same bytes, read the same way): the index parses each content once, the raw parse
        # every file; the ratio over distinct contents only is reported beside the target's
        distinct = {(analysis_key(r), b): (parsers.get(_grammar(r)), b) for r, b in zip(rels, blobs)}
        copies = len(rels) - len(distinct)
        copies_mb = (sum(map(len, blobs)) - sum(len(b) for _, b in distinct.values())) / 1e6
        raw_parse_distinct = parse_each([(p, b) for p, b in distinct.values() if p is not None])

        caches = iter(range(1_000_000))

        def cold(n_workers: int):
            def go() -> None:
                path = tmp / f"cache-{next(caches)}.sqlite"
                conn = db.connect(path)
                try:
                    CodeIndex(root, conn).sweep(workers=n_workers)
                finally:
                    conn.close()
                for suffix in ("", "-wal", "-shm"):
                    path.with_name(path.name + suffix).unlink(missing_ok=True)

            return go

        # interleaved, so a neighbour's burst of load hits every measurement alike
        for _ in range(warmup):
            raw_parse()
            cold(workers)()
        parse_all, both_all, one_all, distinct_all = [], [], [], []
        for _ in range(runs):
            for fn, into in (
                (raw_parse, parse_all),
                (cold(workers), both_all),
                (cold(1), one_all),
                (raw_parse_distinct, distinct_all),
            ):
                into.append(timed(fn))
        parse_s, both_s, one_s, distinct_s = (
            statistics.median(x) for x in (parse_all, both_all, one_all, distinct_all)
        )

        # Re-sweep of an indexed, unchanged repository: what a check pays when it must follow an anchor.
        time.sleep(max(0.0, copied + 2.1 - time.monotonic()))  # younger rows are re-read (files/stamps.py: 2 s at most)
        conn = db.connect(tmp / "warm.sqlite")
        index = CodeIndex(root, conn)
        index.sweep(workers=workers)
        warm_s, warm_all = median_of(index.sweep, runs, warmup)
        symbols = conn.execute("SELECT count(*) FROM symbols").fetchone()[0]
        conn.close()
    capacity = parallel_capacity(workers, 200_000 if small else 5_000_000)

    ratio = both_s / parse_s
    t = Table(f"{title}, {size_mb:.1f} MB, {symbols} symbols")
    t.add("raw tree-sitter parse, 1 core", f"{parse_s:.2f} s (min {min(parse_all):.2f}; {size_mb / parse_s:.1f} MB/s)")
    t.add(f"tether cold index, {workers} workers (wall)", f"{both_s:.2f} s (min {min(both_all):.2f})")
    t.add("cold index throughput", f"{len(rels) / both_s:.0f} files/s, {size_mb / both_s:.2f} MB/s")
    t.add(
        f"cold index / raw parse ({workers} workers vs 1 core)",
        f"{ratio:.2f}x",
        f"<= {TARGET_RATIO}x",
        ratio <= TARGET_RATIO,
    )
    t.add(
        "files that are copies of another (parsed once by the index, every time by the raw parse)",
        f"{copies} files, {copies_mb:.1f} MB",
    )
    t.add("cold index / raw parse of distinct contents only", f"{both_s / distinct_s:.2f}x (raw {distinct_s:.2f} s)")
    t.add(
        "tether cold index, 1 worker (wall)",
        f"{one_s:.2f} s (min {min(one_all):.2f}; {one_s / parse_s:.2f}x raw parse)",
    )
    t.add(
        f"parallel speed-up ({workers} workers)",
        f"{one_s / both_s:.2f}x (machine gives {capacity:.2f}x on pure CPU work right now)",
    )
    t.add("re-sweep, nothing changed", f"{warm_s * 1000:.0f} ms")
    t.notes.append(
        f"median (and fastest) of {runs} run(s) after {warmup} warm-up; shared {workers}-core machine, "
        "expect noise; the ratio uses medians"
    )
    t.notes.append("page cache warm; stdlib without site-packages and test dirs")
    t.data = {
        "files": len(rels),
        "mb": size_mb,
        "symbols": symbols,
        "workers": workers,
        "raw_parse_s": parse_all,
        "cold_s": both_all,
        "cold_1worker_s": one_all,
        "resweep_s": warm_all,
        "capacity": capacity,
        "ratio": ratio,
        "copies": copies,
        "copies_mb": copies_mb,
        "raw_parse_distinct_s": distinct_all,
    }
    return t
