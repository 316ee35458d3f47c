"""`make bench`: run every registered benchmark (or the ones named) and print Markdown tables.

    python -m tests.bench                      # everything in BENCHMARKS
    python -m tests.bench index_cold           # a subset, by module name
    python -m tests.bench --small              # tiny corpora: checks the harness, numbers meaningless

Results are also merged into tests/bench/results.json (kept out of git) for docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import sys
import time
from pathlib import Path

import orjson

# Run order: cheap and self-contained first. Add a module here once it exists (see __init__.py).
BENCHMARKS = [
    "index_cold",
    "calibrate_entropy",
    "check_scaling",
    "hook_latency",
    "doctor_latency",
    "first_run",
    "startup",
    "recall_quality",
    "recall_history",
    "recall_latency",
    "semantic_cost",
    "push_floor",
    "token_receipts",
    "secret_gate",
    "reliability",
    "history",
    "history_js",
    "history_ts",
    "history_rust",
    "history_go",
]

RESULTS = Path(__file__).with_name("results.json")


def machine() -> dict:
    try:
        from importlib.metadata import version

        ts = version("tree-sitter")
    except Exception:  # noqa: BLE001 - informational only
        ts = "?"
    return {
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "cpus": os.cpu_count(),
        "tree_sitter": ts,
        "when": time.strftime("%Y-%m-%d %H:%M:%S %z"),
    }


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m tests.bench", description=__doc__.splitlines()[0])
    ap.add_argument("names", nargs="*", help=f"benchmarks to run (default: all of {', '.join(BENCHMARKS)})")
    ap.add_argument("--small", action="store_true", help="tiny corpora, for smoke tests")
    ap.add_argument("--no-save", action="store_true", help=f"do not write {RESULTS.name} (--small never does)")
    args = ap.parse_args(argv)
    unknown = [n for n in args.names if n not in BENCHMARKS]
    if unknown:
        ap.error(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(BENCHMARKS)}")
    names = args.names or BENCHMARKS

    info = machine()
    print(
        f"tether bench: Python {info['python']}, {info['cpus']} CPUs, tree-sitter {info['tree_sitter']}, "
        f"{info['platform']}{' (SMALL corpora: numbers are meaningless)' if args.small else ''}\n",
        flush=True,
    )
    results: dict = {}
    for name in names:
        module = importlib.import_module(f"tests.bench.{name}")
        started = time.perf_counter()
        tables = module.run(small=args.small)
        for table in tables:
            print(table.markdown() + "\n", flush=True)
        print(f"_({name} took {time.perf_counter() - started:.0f} s)_\n", flush=True)
        results[name] = [table.to_json() for table in tables]

    # small runs never overwrite real numbers
    if not args.no_save and not args.small:
        saved = orjson.loads(RESULTS.read_bytes()) if RESULTS.exists() else {}
        saved.setdefault("benchmarks", {}).update(results)
        saved["machine"] = info
        RESULTS.write_bytes(orjson.dumps(saved, option=orjson.OPT_INDENT_2 | orjson.OPT_SORT_KEYS))
    return 0


if __name__ == "__main__":
    sys.exit(main())
