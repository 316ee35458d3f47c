"""`check` wall time vs repository size, with 200 anchored memories (target: <= 50 ms at 50k files).

Repositories of 2,000 / 10,000 / 50,000 files are built from copies of the stdlib corpus
(`cNNN/<stdlib path>`, hard links to one private copy, so 50k files cost little disk) and committed.
200 memories anchor real functions spread evenly over the files, created with `Tether.remember`.

Variants, measured on the same repository in this order:
  unchanged     every anchor active: the cost should follow the 200 anchored files only;
  body edited   one anchored body edited: stale `body_edited` (resolved at its locator, no sweep);
  deleted       additionally one anchored function deleted everywhere: `anchor_deleted`, which asks
                the whole repository (a sweep) on every check because the body might have moved.
The sweep variant needs a fully indexed cache. Parsing 50k files for real would take minutes, so
the cache is filled by a real `CodeIndex.sweep()` whose extraction is memoized by content: each
stdlib file is parsed once and its facts reused for its copies, which is exactly what parsing each
copy gives (extraction depends on the bytes and the extension only).
The smoke test checks that equivalence on a tiny repository.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import orjson

from tether.anchor.extract import analyze
from tether.index import db
from tether.index.code_index import CodeIndex
from tether.service import Tether

from . import (
    Table,
    copy_corpus,
    git,
    git_commit_all,
    median_of,
    ms,
    stdlib_files,
    workdir,
)

SIZES = (2_000, 10_000, 50_000)
SMALL_SIZES = (150,)
MEMORIES = 200
TARGET_S = 0.050
RACY_S = 2.1  # files/stamps.py (2 s at most): younger rows are re-read, so let fresh files age first
MIN_BITS = 20.0  # anchor real code, not `pass` bodies


def run(small: bool = False) -> list[Table]:
    sizes = SMALL_SIZES if small else SIZES
    n_mem = 12 if small else MEMORIES
    cli_runs, lib_runs = (2, 2) if small else (7, 15)
    files = stdlib_files(limit=60 if small else None)
    main = Table(f"check on an unchanged repository, {n_mem} anchored memories")
    variants = Table("check with a stale memory present (same repositories)")
    setup = Table("check benchmark: set-up costs (not targets)")
    with workdir("check") as tmp:
        src = tmp / "src"
        rels = copy_corpus(files, src)
        facts = {r: analyze(r, (src / r).read_bytes()) for r in rels}
        for size in sizes:
            root = tmp / f"repo{size}"
            timings = _one_size(root, src, rels, facts, size, n_mem, cli_runs, lib_runs, setup)
            label = f"{size:,} files"
            big = size == max(sizes)
            for mode, key in (("CLI `check --json`", "cli"), ("in process `Tether.check()`", "lib")):
                secs = timings[key]
                main.add(
                    f"{label}, {mode}",
                    _fmt(timings, key),
                    "<= 50 ms" if big else "",
                    (secs <= TARGET_S) if big else None,
                )
            for key, what in (("edited", "1 body edited"), ("deleted", "+1 anchor deleted (sweeps)")):
                variants.add(f"{label}, {what}, CLI", _fmt(timings, f"cli_{key}"))
                variants.add(f"{label}, {what}, in process", _fmt(timings, f"lib_{key}"))
            main.data[str(size)] = timings
            _rmtree(_cache(root).parent)  # the 50k cache is ~400 MB: do not keep three
            _rmtree(root)
        floor, _ = median_of(lambda: _py("-c", "import tether.surfaces.cli.run"), cli_runs)
        bare, _ = median_of(lambda: _py("-c", "pass"), cli_runs)
    main.add("CLI floor: `python -c pass`", ms(bare))
    main.add("CLI floor: importing the CLI modules", ms(floor))
    main.data["cli_floor_s"], main.data["python_floor_s"] = floor, bare
    note = (
        f"median (and fastest) of {cli_runs} CLI / {lib_runs} in-process runs after 1 warm-up; "
        "shared 2-core machine, expect noise"
    )
    main.notes += [
        note,
        (
            "in process = a fresh `Tether(root)` per run: db connect, load + parse the memory files, "
            "resolve every anchor; anchors spread evenly over the files; cache filled as after `tether index`"
        ),
    ]
    variants.notes += [
        note,
        (
            "body edited: resolved at the locator, no sweep. deleted: the hash is looked for "
            "repository-wide (git ls-files + a stat per file) on every check, as the design says; "
            "measured once edits are older than the 2 s racy window"
        ),
        "verdicts (status, reason) are verified before timing each variant",
    ]
    return [main, variants, setup]


def _one_size(
    root: Path,
    src: Path,
    rels: list[str],
    facts: dict,
    size: int,
    n_mem: int,
    cli_runs: int,
    lib_runs: int,
    setup: Table,
) -> dict:
    t0 = time.perf_counter()
    layout = _build(root, src, rels, size)
    linked = time.perf_counter()
    git_commit_all(root)
    built = time.perf_counter() - t0
    time.sleep(max(0.0, linked + RACY_S - time.perf_counter()))  # each link stamps the shared inode's ctime
    t0 = time.perf_counter()
    _prefill(root, facts)
    prefilled = time.perf_counter() - t0
    t0 = time.perf_counter()
    anchors = _remember(root, layout, facts, n_mem)
    remembered = time.perf_counter() - t0
    git(root, "add", ".tether")
    git(root, "commit", "-q", "--no-verify", "-m", "memories")
    setup.add(f"{size:,} files: build + git commit", f"{built:.1f} s")
    setup.add(f"{size:,} files: fill the index cache ({len(layout)} files)", f"{prefilled:.1f} s")
    setup.add(f"{size:,} files: {len(anchors)} x `Tether.remember`", f"{remembered:.1f} s")

    out: dict = {}
    fresh = {("active", None): n_mem}
    out["cli"], out["cli_all"] = _measure_cli(root, cli_runs, fresh)
    out["lib"], out["lib_all"] = _measure_lib(root, lib_runs, fresh)

    edited = next(a for a in anchors if _edit_body(root / a[0], facts[layout[a[0]]], a[1]))
    time.sleep(RACY_S)
    stale = {("active", None): n_mem - 1, ("stale", "body_edited"): 1}
    out["cli_edited"], out["cli_edited_all"] = _measure_cli(root, cli_runs, stale)
    out["lib_edited"], out["lib_edited_all"] = _measure_lib(root, lib_runs, stale)

    # a top-level function whose body exists nowhere else, in a file unrelated to the edited one,
    # anchored by exactly one memory: its deletion must read `anchor_deleted` for exactly one memory
    counts: dict[str, int] = {}
    for f in facts.values():
        for s in f.symbols:
            counts[s.hash] = counts.get(s.hash, 0) + 1
    anchored = [(layout[r], q) for r, q in anchors]
    gone = next(
        a
        for a in anchors
        if "." not in a[1]
        and layout[a[0]] != layout[edited[0]]
        and counts[_symbol(facts[layout[a[0]]], a[1]).hash] == 1
        and anchored.count((layout[a[0]], a[1])) == 1
    )
    _delete_everywhere(root, layout, facts, gone)
    time.sleep(RACY_S)
    both = {("active", None): n_mem - 2, ("stale", "body_edited"): 1, ("invalidated", "anchor_deleted"): 1}
    out["cli_deleted"], out["cli_deleted_all"] = _measure_cli(root, cli_runs, both)
    out["lib_deleted"], out["lib_deleted_all"] = _measure_lib(root, lib_runs, both)
    return out


# -- building ---------------------------------------------------------------------------------
def _build(root: Path, src: Path, rels: list[str], size: int) -> dict[str, str]:
    """`size` files as copies `cNNN/<stdlib path>` (hard links to `src`); returns repo path -> stdlib path."""
    layout: dict[str, str] = {}
    for i in range(size):
        base = rels[i % len(rels)]
        rel = f"c{i // len(rels):03d}/{base}"
        target = root / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        os.link(src / base, target)
        layout[rel] = base
    return layout


def _prefill(root: Path, facts: dict, cache: Path | None = None) -> None:
    """The cache as `tether index` leaves it: the real single-process sweep, with extraction
    memoized by content so each stdlib file is parsed once, not once per copy (see module doc)."""
    from tether.index import worker as index_mod

    real = index_mod.safe_analyze
    memo = {(os.path.splitext(r)[1], f.hash): f for r, f in facts.items()}

    def memoized(rel: str, data: bytes):
        from tether.anchor.extract import content_hash

        got = memo.get((os.path.splitext(rel)[1], content_hash(data)))
        return got if got is not None else real(rel, data)

    index_mod.safe_analyze = memoized
    conn = db.connect(cache or _cache(root))
    try:
        CodeIndex(root, conn).sweep(workers=1)
    finally:
        index_mod.safe_analyze = real
        conn.close()


def _cache(root: Path) -> Path:
    from tether.files.paths import cache_dir

    return cache_dir(root.resolve()) / "cache.sqlite"


def _remember(root: Path, layout: dict[str, str], facts: dict, n: int) -> list[tuple[str, str]]:
    """`n` memories on real functions with a unique name in their file, evenly spread over the repo."""
    from tether.anchor.extract import analyze

    paths = sorted(layout)
    t = Tether(root)
    chosen: list[tuple[str, str]] = []
    measured: dict[str, tuple] = {}  # source file -> its symbols with their entropy (the index has none)
    for i in range(n):
        for rel in paths[i * len(paths) // n :] + paths:
            src = layout[rel]
            if src not in measured:
                measured[src] = analyze(rel, (root / rel).read_bytes(), entropy=True).symbols
            syms = measured[src]
            names = [s.qualname for s in syms]
            cands = [
                s
                for s in syms
                if s.kind in ("function", "method")
                and s.entropy >= MIN_BITS
                and names.count(s.qualname) == 1
                and (rel, s.qualname) not in chosen
            ]
            if cands:
                s = cands[i % len(cands)]
                t.remember(f"bench memory {i}: {s.qualname} matters", [f"{rel}::{s.qualname}"])
                chosen.append((rel, s.qualname))
                break
    t.close()
    return chosen


# -- editing ----------------------------------------------------------------------------------
def _symbol(fact, qualname: str):
    return next(s for s in fact.symbols if s.qualname == qualname)


def _edit_body(path: Path, fact, qualname: str) -> bool:
    """Insert a statement before the first statement of the body; False if the body starts on the
    `def` line (the edit would not be clean). Writes a new inode: the corpus copies are hard links."""
    from tree_sitter_language_pack import get_parser

    data = path.read_bytes()
    s = _symbol(fact, qualname)
    node = get_parser("python").parse(data).root_node.descendant_for_byte_range(s.start_byte, s.end_byte)
    while node is not None and node.type != "function_definition":
        node = next((c for c in node.children if c.type == "function_definition"), None)
    body = node.child_by_field_name("body") if node is not None else None
    if body is None or body.start_point[0] == node.start_point[0]:
        return False
    at, col = body.start_byte, body.start_point[1]
    _replace(path, data[:at] + b"_bench_edit = 1\n" + b" " * col + data[at:])
    return True


def _delete_everywhere(root: Path, layout: dict[str, str], facts: dict, anchor: tuple[str, str]) -> None:
    """Delete a top-level function from every copy of its file, so its body exists nowhere."""
    base = layout[anchor[0]]
    s = _symbol(facts[base], anchor[1])
    for rel, b in layout.items():
        if b == base:
            data = (root / rel).read_bytes()
            _replace(root / rel, data[: s.start_byte] + data[s.end_byte :])


def _replace(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".bench-tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


# -- measuring --------------------------------------------------------------------------------
def _fmt(timings: dict, key: str) -> str:
    return f"{ms(timings[key])} (min {ms(min(timings[key + '_all']))})"


def _py(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, env=os.environ, cwd=cwd, check=False)


def _cli_check(root: Path) -> subprocess.CompletedProcess:
    """As a user runs it: from inside the repository, which finds the root itself."""
    return _py("-m", "tether", "check", "--json", cwd=root)


def _measure_cli(root: Path, runs: int, expect: dict) -> tuple[float, list[float]]:
    proc = _cli_check(root)  # warm-up, and a sanity check
    if proc.returncode != 0:
        raise RuntimeError(f"tether check failed: {proc.stderr.decode()[-2000:]}")
    _expect([(item["status"], item["reason"]) for item in orjson.loads(proc.stdout)["data"]], expect)
    return median_of(lambda: _cli_check(root), runs, warmup=0)


def _measure_lib(root: Path, runs: int, expect: dict) -> tuple[float, list[float]]:
    def check():
        t = Tether(root)
        try:
            return t.check()
        finally:
            t.close()

    _expect([(v.status, v.reason) for v in check().verdicts], expect)
    return median_of(check, runs, warmup=0)


def _expect(statuses: list[tuple[str, str | None]], expect: dict) -> None:
    """A benchmark that measures the wrong thing is worse than none: verify the verdicts."""
    got = {s: statuses.count(s) for s in set(statuses)}
    if got != expect:
        raise RuntimeError(f"unexpected verdicts {got}, wanted {expect}")


def _rmtree(root: Path) -> None:
    import shutil

    shutil.rmtree(root, ignore_errors=True)
