"""Real TypeScript histories, judged by the TypeScript compiler's parser: zero false-fresh verdicts, ever.

Seven npm packages that ship their TypeScript sources, one commit per release (npm tarballs: rxjs 6
moved rxjs 5 into `src/internal`, immer 6 split itself into `core/` and `plugins/`, tRPC 11 moved
everything again, Redux Toolkit grew RTK Query, TanStack Query's v5 renames; react-query brings
`.tsx`). For each pair of consecutive releases, the
named definitions (functions, classes, methods, fields, interfaces and their members, type aliases,
enums, namespaces, constants) of the TS files the release changed are anchored at the older one (at
most 300, 150 a file, files in a fixed-seed shuffle), the newer one is checked out, and every
verdict is judged by the compiler's own parser (ts_oracle.js: the `typescript` package's
`createSourceFile`; names, comments and formatting left out), as history_js judges by acorn:

- active (in place or followed): the code it points at must be the anchored code, else FALSE FRESH;
- stale: code at the place it names that the compiler calls unchanged is counted as "stale, tsc equal";
- deleted: a unique tsc-identical definition anywhere in the new tree counts as a missed follow.

Then the older release is checked out again, and every memory must be active (healed).

    python -m tests.bench history_ts
    TETHER_BENCH_ONLY=immer,mobx python -m tests.bench history_ts    # some packages only

Needs node and npm (tarballs and typescript are fetched once into ~/.cache/tether-bench/npm);
without them it says why and does nothing. `--small`: two commits of hand-written TS, moved, edited
and reformatted, offline; judged only if typescript is already in the cache.
"""

from __future__ import annotations

import os
import re
import shutil
import textwrap
from contextlib import nullcontext
from pathlib import Path

from tests.bench import Table, git, git_commit_all, workdir
from tests.bench.history_js import NODE_MODULES, NPM, NodeOracle, installed, npm, release_history
from tests.bench.replay import Plan, replay

RELEASES = {
    "rxjs": ["5.5.12", "6.0.0", "6.6.7", "7.0.0", "7.8.1"],
    "mobx": ["6.0.0", "6.3.0", "6.6.0", "6.10.0", "6.13.0"],
    "immer": ["5.3.6", "6.0.9", "7.0.0", "8.0.0", "9.0.0", "10.0.0", "10.1.1"],
    "@reduxjs/toolkit": ["1.2.5", "1.5.0", "1.8.0", "1.9.7", "2.0.0", "2.2.0"],
    "@trpc/server": ["10.0.0", "10.20.0", "10.45.2", "11.0.0"],
    "@tanstack/query-core": ["4.0.0", "4.24.4", "4.36.1", "5.0.0", "5.40.0"],
    "@tanstack/react-query": ["4.24.4", "5.0.0", "5.40.0"],
}
PER_PAIR, PER_FILE = 300, 150  # as history_js: rxjs 6 -> 7 changes 600 files
# every kind tether gives a TS definition, and ts_oracle.js locates them all
KINDS = ("function", "method", "class", "constant", "attribute", "interface", "type", "enum", "module")
TS = re.compile(r"(?<!\.d)\.tsx?$")  # declarations (.d.ts) are generated, not edited
TYPESCRIPT = "typescript@5.6.3"  # pinned: a new parser must not move the numbers silently
ORACLE = Path(__file__).with_name("ts_oracle.js")
NOT_SOURCE = {"node_modules", "dist", "build", "__tests__", "tests", "test"}  # vendored, generated, or tests
TEST_FILE = re.compile(r"\.(test|spec)(-d)?\.tsx?$")  # `x.test.ts`, vitest's type tests `x.test-d.ts`


def run(small: bool = False) -> list[Table]:
    with workdir("history_ts") as tmp:
        if small:  # offline and dependency-free: judged only if a full run already installed typescript
            with _tsc() if shutil.which("node") and installed("typescript") else nullcontext() as oracle:
                return [
                    _replay(
                        "hand-written TS, moved, edited and reformatted (smoke)", _small_history(tmp / "small"), oracle
                    )
                ]
        if not (shutil.which("node") and shutil.which("npm")):
            return [
                _not_run(
                    "node and npm not found",
                    "npm fetches the release tarballs and typescript, node runs the compiler's parser (ts_oracle.js)",
                )
            ]
        if not installed("typescript"):
            why = npm("install", "--prefix", str(NODE_MODULES.parent), "--no-audit", "--no-fund", TYPESCRIPT)
            if not installed("typescript"):
                return [_not_run("typescript could not be installed", f"`npm install {TYPESCRIPT}` failed: {why}")]
        only = {p for p in os.environ.get("TETHER_BENCH_ONLY", "").split(",") if p}
        tables = []
        with _tsc() as oracle:
            for name, versions in RELEASES.items():
                repo = (
                    release_history(tmp / name.replace("/", "-"), name, versions, _is_ts_source)
                    if not only or name in only
                    else None
                )
                if repo is not None:
                    tables.append(_replay(f"{name} {versions[0]} .. {versions[-1]}", repo, oracle))
        return tables or [
            _not_run(
                "no release tarballs",
                f"`npm pack` fetched none into {NPM} (TETHER_BENCH_ONLY={','.join(sorted(only)) or 'unset'})",
            )
        ]


def _not_run(why: str, detail: str) -> Table:
    table = Table(f"Real TS history: not run ({why})")
    table.add("why", detail)
    return table


def _is_ts_source(rel: Path, size: int) -> bool:
    """The TS sources a package ships: no declarations, builds, vendored copies or tests, and nothing
    of 200 KiB or more once rounded up, as history_js."""
    return bool(
        TS.search(rel.name)
        and not TEST_FILE.search(rel.name)
        and (size + 1023) // 1024 < 200
        and not NOT_SOURCE.intersection(rel.parts[:-1])
    )


SMALL = {  # a class with a field, accessors and an overloaded method; types; a namespace; an enum
    "src/cache.ts": """
        export interface Entry<V> { value: V; expires: number }
        export type Key = string | number;

        export class Cache<V> {
          private readonly items = new Map<Key, Entry<V>>();
          constructor(private ttl: number) {}
          get size(): number { return this.items.size; }
          get(key: Key): V | undefined {
            const e = this.items.get(key);
            return e && e.expires > Date.now() ? e.value : undefined;
          }
          set(key: Key, value: V): this {
            this.items.set(key, { value, expires: Date.now() + this.ttl });
            return this;
          }
        }
        """,
    "src/level.ts": """
        export enum Level { Debug = 10, Info = 20, Warn = 30 }
        export const parseLevel = (s: string): Level => (Level as any)[s] ?? Level.Info;
        export namespace Levels {
          export function above(l: Level): Level[] { return [Level.Debug, Level.Info, Level.Warn].filter((x) => x > l); }
        }
        """,
    "src/text.ts": """
        export function slug(s: string): string {
          return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
        }
        export const pad = (s: unknown, n: number): string => String(s).padStart(n, ' ');
        const words = (s: string): string[] => s.split(/\\s+/).filter(Boolean);
        export { words };
        """,
}


def _small_history(root: Path) -> Path:
    """Three files, then: one moved whole, one method edited, one file reformatted (tsc equal)."""
    for rel, src in SMALL.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(src).lstrip())
    git_commit_all(root, "ts")
    (root / "lib").mkdir()
    git(root, "mv", "src/text.ts", "lib/text.ts")
    cache = root / "src" / "cache.ts"
    cache.write_text(cache.read_text().replace("Date.now() + this.ttl", "Date.now() + Math.max(0, this.ttl)"))
    level = root / "src" / "level.ts"  # reformatted: four-space indent, a trailing comma, `x =>` for `(x) =>`
    text = level.read_text().replace("Warn = 30 }", "Warn = 30, }").replace("(x) =>", "x =>")
    level.write_text(re.sub(r"^ +", lambda m: m[0] * 2, text, flags=re.M))
    git_commit_all(root, "moved, edited, reformatted")
    return root


def _tsc() -> NodeOracle:
    return NodeOracle("tsc", ORACLE, TS)


def _replay(title: str, repo: Path, oracle: NodeOracle | None) -> Table:
    return replay(f"Real TS history: {title}", repo, oracle, Plan(TS, KINDS, PER_PAIR, PER_FILE))
