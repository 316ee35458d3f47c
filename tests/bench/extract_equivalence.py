"""Extraction equivalence: the full `FileFacts` of a corpus, saved and compared field by field.

A change meant to make extraction faster must not change one hash, entropy, qualname,
discriminator or range. Dump with the code before the change, dump again after, compare:

    python -m tests.bench.extract_equivalence dump before.json [--extra DIR ...]
    python -m tests.bench.extract_equivalence dump after.json [--extra DIR ...]
    python -m tests.bench.extract_equivalence compare before.json after.json

To dump with another checkout's code (HEAD, say) put its `server/` first on PYTHONPATH:
`git worktree add /tmp/wt HEAD && PYTHONPATH=/tmp/wt/server python -m tests.bench.extract_equivalence dump ...`.

Corpus: every stdlib `.py` file (test suites included: they hold the deliberately odd files),
every variant of every case in tests/lang_cases, and any `--extra` directory (real JavaScript,
formatter output, snippets harvested from the test suite...). `golden` maintains the small
committed sample that tests/anchor/test_extract_golden.py checks (see `golden_sources`).

Not a benchmark in `make bench`: it measures nothing, but `dump` reports extraction CPU time.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import orjson

from . import ROOT, stdlib_dir, stdlib_files

GOLDEN = ROOT / "tests" / "fixtures" / "extract_golden.json"
PRUNE = frozenset({".git", "__pycache__", "node_modules_cache"})


def facts_json(facts) -> dict:
    """Every field of a FileFacts (a field added later is compared too), symbols as rows."""
    out = {name: value for name, value in facts.fields().items() if name != "symbols"}
    out["symbols"] = [list(s.fields().values()) for s in facts.symbols]
    return out


def extract(path: str, data: bytes, hash_format: int | None = None) -> dict:
    from tether.anchor.extract import analyze

    try:
        return facts_json(analyze(path, data, entropy=True, hash_format=hash_format))  # every field, entropy too
    except Exception as e:  # noqa: BLE001 - a crash is an outcome to compare too
        return {"error": type(e).__name__}


def lang_case_files() -> Iterator[tuple[str, bytes]]:
    """Every whole-file variant of every language case, named after the case and variant."""
    import importlib
    import pkgutil

    import tests.lang_cases as pkg
    from tests.lang_cases.base import LangCase

    # every module's cases, not only those CASES lists yet: languages are added a module at a time
    cases: dict[str, LangCase] = {}
    for mod in pkgutil.iter_modules(pkg.__path__):
        for value in vars(importlib.import_module(f"{pkg.__name__}.{mod.name}")).values():
            if isinstance(value, LangCase):
                cases.setdefault(value.name, value)
    for case in sorted(cases.values(), key=lambda c: c.name):
        ext = os.path.splitext(case.path)[1]
        for field, value in vars(case).items():
            if isinstance(value, str) and "\n" in value:
                yield f"lang_cases/{case.name}/{field}{ext}", value.encode()
            elif isinstance(value, tuple):
                for i, item in enumerate(value):
                    if isinstance(item, tuple) and len(item) == 2 and "\n" in item[1]:
                        yield f"lang_cases/{case.name}/{field}/{i}{ext}", item[1].encode()


def dir_files(root: Path) -> Iterator[tuple[str, bytes]]:
    from tether.anchor.extract import kind_of

    for dirpath, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(d for d in dirnames if d not in PRUNE)
        for name in sorted(filenames):
            p = Path(dirpath, name)
            rel = p.relative_to(root).as_posix()
            if kind_of(rel) is None or p.is_symlink() or not p.is_file():
                continue
            yield f"{root.name}/{rel}", p.read_bytes()


def corpus(extra: list[Path], stdlib: bool = True) -> Iterator[tuple[str, bytes]]:
    if stdlib:
        lib = stdlib_dir()
        for p in stdlib_files(include_tests=True):
            yield "stdlib/" + p.relative_to(lib).as_posix(), p.read_bytes()
    yield from lang_case_files()
    for root in extra:
        yield from dir_files(root)


def dump(out: Path, extra: list[Path], stdlib: bool) -> None:
    import tether

    files = list(corpus(extra, stdlib))
    result: dict[str, dict] = {}
    cpu = time.process_time()
    wall = time.perf_counter()
    for path, data in files:
        result[path] = extract(path, data)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    out.write_bytes(orjson.dumps(result, option=orjson.OPT_SORT_KEYS))
    n_sym = sum(len(f.get("symbols", ())) for f in result.values())
    print(
        f"{len(files)} files, {n_sym} symbols, extraction {cpu:.2f} s CPU / {wall:.2f} s wall "
        f"(tether from {Path(tether.__file__).parent}) -> {out}"
    )


def compare(a: Path, b: Path, limit: int = 20) -> int:
    before, after = orjson.loads(a.read_bytes()), orjson.loads(b.read_bytes())
    problems = [f"only in {a.name}: {p}" for p in before if p not in after]
    problems += [f"only in {b.name}: {p}" for p in after if p not in before]
    n_sym = 0
    for path in sorted(set(before) & set(after)):
        x, y = before[path], after[path]
        n_sym += len(x.get("symbols", ()))
        if x == y:
            continue
        for key in sorted(set(x) | set(y)):
            if key == "symbols":
                continue
            if x.get(key) != y.get(key):
                problems.append(f"{path}: {key} {x.get(key)!r} != {y.get(key)!r}")
        xs, ys = x.get("symbols", []), y.get("symbols", [])
        if len(xs) != len(ys):
            problems.append(f"{path}: {len(xs)} symbols != {len(ys)}")
        for s, t in zip(xs, ys):
            if s != t:
                problems.append(f"{path}: {s} != {t}")
    for p in problems[:limit]:
        print(p)
    if len(problems) > limit:
        print(f"... and {len(problems) - limit} more")
    verdict = "IDENTICAL" if not problems else f"{len(problems)} DIFFERENCES"
    print(f"{verdict}: {len(before)} vs {len(after)} files, {n_sym} symbols compared")
    return 1 if problems else 0


# -- the committed golden sample ----------------------------------------------------------------
# A real stdlib module beside the cases, and a sample for each language no case covers yet.
GOLDEN_STDLIB = ("colorsys.py",)
GOLDEN_SAMPLES = {
    "samples/shapes.mli": b"""type shape = Circle of float | Rect of float * float
(** the area, in square units *)
val area : shape -> float
module Stack : sig
  type 'a t
  val create : unit -> 'a t
  val push : 'a -> 'a t -> unit
end
""",
}


def golden_sources() -> dict[str, bytes]:
    """What the golden holds: each language case as written and reformatted, and the samples above."""
    out = {p: d for p, d in lang_case_files() if p.rsplit("/", 1)[-1].split(".")[0] in ("source", "cosmetic")}
    for rel in GOLDEN_STDLIB:
        out[f"stdlib/{rel}"] = (stdlib_dir() / rel).read_bytes()
    out.update(GOLDEN_SAMPLES)
    return out


def load_golden() -> dict[str, dict]:
    return orjson.loads(GOLDEN.read_bytes()) if GOLDEN.exists() else {}


def write_golden(rewrite: bool) -> None:
    """Add the sources the golden lacks (a new language); with `rewrite`, re-extract every entry.

    Rewriting accepts whatever the code now extracts: do it only for an intended format change.
    What an entry extracted in hash format 1 is kept as its `format1` (anchors written then must
    still be read the same way): taken from the old facts when the language's format first moves on."""
    old = load_golden()
    golden = {} if rewrite else dict(old)
    added = 0
    for path, data in golden_sources().items():
        if path not in golden:
            golden[path] = {"source": data.decode(), "facts": extract(path, data)}
            added += 1
            was = old.get(path)
            if was is not None and "format1" in was:
                golden[path]["format1"] = was["format1"]
            elif (
                was is not None
                and any(str(r[7]).startswith("t1:") for r in was["facts"].get("symbols", []))
                and not all(str(r[7]).startswith("t1:") for r in golden[path]["facts"].get("symbols", []))
            ):
                golden[path]["format1"] = was["facts"]
    rows = []
    for path in sorted(golden):
        entry = golden[path]
        facts = dict(entry["facts"])
        symbols = facts.pop("symbols", [])
        head = orjson.dumps(facts, option=orjson.OPT_SORT_KEYS).decode()[:-1]
        body = ",\n".join("   " + orjson.dumps(s).decode() for s in symbols)
        format1 = ""
        if "format1" in entry:
            format1 = ',\n  "format1": ' + orjson.dumps(entry["format1"], option=orjson.OPT_SORT_KEYS).decode()
        rows.append(
            f'{orjson.dumps(path).decode()}: {{"source": {orjson.dumps(entry["source"]).decode()},\n'
            f'  "facts": {head}, "symbols": [\n{body}]}}{format1}}}'
        )
    GOLDEN.write_text("{\n" + ",\n".join(rows) + "\n}\n", encoding="utf-8")
    print(f"{GOLDEN}: {len(golden)} files, {added} (re)extracted")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.bench.extract_equivalence", description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("dump", help="extract the corpus and save every FileFacts")
    d.add_argument("out", type=Path)
    d.add_argument("--extra", type=Path, action="append", default=[], help="another directory of source files")
    d.add_argument("--no-stdlib", action="store_true")
    c = sub.add_parser("compare", help="compare two dumps field by field; exit 1 on any difference")
    c.add_argument("a", type=Path)
    c.add_argument("b", type=Path)
    g = sub.add_parser("golden", help=f"add missing files to {GOLDEN.relative_to(ROOT)} (test_extract_golden.py)")
    g.add_argument("--rewrite", action="store_true", help="re-extract every file: an intended format change")
    args = ap.parse_args(argv)
    if args.cmd == "dump":
        dump(args.out, args.extra, not args.no_stdlib)
    elif args.cmd == "compare":
        return compare(args.a, args.b)
    else:
        write_golden(args.rewrite)
    return 0


if __name__ == "__main__":
    sys.exit(main())
