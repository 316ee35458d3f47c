"""Real Rust histories, judged by a reader tether does not share: zero false-fresh verdicts, ever.

Five Python packages written in Rust, one commit per release, their own crates' `.rs` sources only
(PyPI sdists: the history is what their authors shipped, PyO3 upgrades, modules split, traits
reworked). For each pair of consecutive releases, the functions, methods, types, constants,
statics, modules and macros of the `.rs` files the release changed are anchored at the older one
(at most 500, 150 a file, files in a fixed-seed shuffle), the newer one is checked out, and every
verdict is judged by rust_oracle.py (a lexer and item locator of the bench's own; comments,
formatting, cosmetic trailing commas, compiler hints and the item's own name left out, its other
outer attributes folded in, as tether's hash format 2 does):

- active (in place or followed): the code it points at must be the anchored code, else FALSE FRESH;
- stale: code at the place it names that the oracle calls unchanged is counted as "stale, equal";
- deleted: a unique oracle-identical definition anywhere in the new tree counts as a missed follow.

Then the older release is checked out again, and every memory must be active (healed).

    python -m tests.bench history_rust
    TETHER_BENCH_ONLY=jiter,rpds-py python -m tests.bench history_rust    # some packages only

Needs PyPI for the sdists (cached under ~/.cache/tether-bench/sdists, beside history.py's); without
it, it says so and does nothing. `--small`: two commits of hand-written Rust, offline, always judged.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path, PurePosixPath

from tests.bench import Table, commit_releases, extract_files, git_commit_all, workdir
from tests.bench.history import SDISTS
from tests.bench.replay import Plan, replay
from tests.bench.rust_oracle import RustOracle

# package -> (where its own crates are in the sdist, releases): orjson ships vendored crates under
# include/ (and serde_json under json/ in 3.6), so only the listed tree is taken
RELEASES = {
    "pydantic-core": ("src", ["2.0.0", "2.10.1", "2.16.3", "2.23.4", "2.33.2", "2.41.5"]),
    "orjson": ("src", ["3.6.0", "3.8.0", "3.9.0", "3.10.0", "3.11.0", "3.13.0"]),
    "jiter": ("crates", ["0.1.0", "0.4.0", "0.5.0", "0.8.2", "0.10.0", "0.19.0"]),
    "rpds-py": ("src", ["0.10.0", "0.18.0", "0.22.3", "0.30.0", "2026.9.1"]),
    "cryptography": ("src/rust", ["43.0.0", "44.0.0", "45.0.7", "46.0.0", "48.0.0", "50.0.2"]),
}
PER_PAIR, PER_FILE = 500, 150
KINDS = ("function", "method", "struct", "enum", "trait", "type", "constant", "static", "module", "macro")
RS = re.compile(r"\.rs$")
NOT_SOURCE = frozenset({"tests", "benches", "fuzz", "examples", "target"})  # nor build.rs: not the library


def run(small: bool = False) -> list[Table]:
    with workdir("history_rust") as tmp:
        if small:
            return [_replay("hand-written Rust, moved, edited and reformatted (smoke)", _small_history(tmp / "small"))]
        only = {p for p in os.environ.get("TETHER_BENCH_ONLY", "").split(",") if p}
        tables = []
        for name, (src, versions) in RELEASES.items():
            repo = _release_history(tmp, name, src, versions) if not only or name in only else None
            if repo is not None:
                tables.append(_replay(f"{name} {versions[0]} .. {versions[-1]}", repo))
        if not tables:
            table = Table("Real Rust history: not run (no sdists)")
            table.add("why", f"pip fetched none into {SDISTS} (TETHER_BENCH_ONLY={','.join(sorted(only)) or 'unset'})")
            tables.append(table)
        return tables


# -- histories ----------------------------------------------------------------------------------
def _release_history(tmp: Path, name: str, src: str, versions: list[str]) -> Path | None:
    """A repository with one commit (and tag) per release, the package's own `.rs` files under
    `src` only, or None if an sdist cannot be had."""
    archives = [_sdist(tmp, name, v) for v in versions]
    if any(a is None for a in archives):
        return None

    def own_source(rel: PurePosixPath, size: int) -> bool:
        # nothing of 200 KiB or more once rounded up (what `find -size -200k` keeps): generated
        return bool(
            RS.search(rel.name)
            and str(rel).startswith(src + "/")
            and rel.name != "build.rs"
            and not NOT_SOURCE.intersection(rel.parts)
            and (size + 1023) // 1024 < 200
        )

    return commit_releases(
        tmp / name,
        name,
        [
            (version, lambda root, archive=archive: extract_files(archive, root, own_source))
            for version, archive in zip(versions, archives)
        ],
    )


# pip prepares an sdist's metadata before it keeps the file, and maturin's metadata hook runs
# `cargo metadata`, which needs crates.io: this stand-in for maturin's hook (no build isolation,
# first on the path) reads the sdist's own PKG-INFO instead. Nothing is built.
_MATURIN_STANDIN = """
import email, os

def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    with open("PKG-INFO", "rb") as f:
        raw = f.read()
    msg = email.message_from_bytes(raw)
    name = f"{msg['Name'].replace('-', '_')}-{msg['Version']}.dist-info"
    os.makedirs(os.path.join(metadata_directory, name))
    with open(os.path.join(metadata_directory, name, "METADATA"), "wb") as f:
        f.write(raw)
    return name
"""


def _sdist(tmp: Path, name: str, version: str) -> Path | None:
    """The cached sdist, fetched by pip if need be (maturin-built packages only: see above)."""

    def cached() -> list[Path]:  # spelled as the sdist spells it: pydantic_core-2.0.0, rpds_py-0.10.0
        want = f"{name}-{version}.tar.gz".replace("-", "_").lower()
        return [p for p in SDISTS.glob("*.tar.gz") if p.name.replace("-", "_").lower() == want]

    if not cached():
        SDISTS.mkdir(parents=True, exist_ok=True)
        shim = tmp / "maturin-standin"
        shim.mkdir(exist_ok=True)
        (shim / "maturin.py").write_text(_MATURIN_STANDIN)
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "-q",
                "--no-deps",
                "--no-binary",
                ":all:",
                "--no-build-isolation",
                "-d",
                str(SDISTS),
                f"{name}=={version}",
            ],
            env={**os.environ, "PYTHONPATH": str(shim)},
            capture_output=True,
            timeout=300,
            check=False,
        )
    found = cached()
    return found[0] if found else None


SMALL = {  # a struct with an inherent and a trait impl, free functions, a trait, a macro
    "src/shapes.rs": """
        use std::fmt;

        /// A circle.
        #[derive(Debug, Clone, Copy)]
        pub struct Circle {
            pub r: f64,
        }

        impl Circle {
            pub fn area(&self) -> f64 {
                std::f64::consts::PI * self.r * self.r
            }

            pub fn scale(&self, k: f64) -> Circle {
                Circle { r: self.r * k }
            }
        }

        impl fmt::Display for Circle {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "circle({})", self.r)
            }
        }

        pub fn largest<'a>(shapes: &'a [Circle]) -> Option<&'a Circle> {
            shapes.iter().max_by(|a, b| a.area().total_cmp(&b.area()))
        }
        """,
    "src/text.rs": """
        pub const SEPARATOR: char = '-';

        pub trait Slug {
            fn slug(&self) -> String;
        }

        impl Slug for str {
            fn slug(&self) -> String {
                self.to_lowercase().split_whitespace().collect::<Vec<_>>().join(&SEPARATOR.to_string())
            }
        }

        pub fn words(s: &str) -> Vec<&str> { s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()).collect() }
        """,
    "src/queue.rs": """
        pub struct Queue<T> { items: Vec<T>, limit: usize }

        impl<T> Queue<T> {
            pub fn new(limit: usize) -> Self { Queue { items: Vec::new(), limit } }
            pub fn push(&mut self, item: T) -> Result<(), T> {
                if self.items.len() >= self.limit { return Err(item); }
                self.items.push(item); Ok(())
            }
            pub fn shift(&mut self) -> Option<T> { if self.items.is_empty() { None } else { Some(self.items.remove(0)) } }
        }

        macro_rules! queue {
            ($limit:expr) => { $crate::queue::Queue::new($limit) };
        }
        """,
}


def _small_history(root: Path) -> Path:
    """Three files, then: a function moved to another file, a method edited, a file reformatted."""
    for rel, src in SMALL.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(src).lstrip())
    git_commit_all(root, "rust")
    text, shapes = root / "src" / "text.rs", root / "src" / "shapes.rs"
    words = re.search(r"^pub fn words.*\n", text.read_text(), re.M)[0]
    text.write_text(text.read_text().replace(words, ""))
    shapes.write_text(shapes.read_text().replace("self.r * k", "self.r * k.abs()") + "\n" + words)
    queue = root / "src" / "queue.rs"  # reformatted: tabs, one statement a line
    queue.write_text(queue.read_text().replace("    ", "\t").replace("; ", ";\n"))
    git_commit_all(root, "moved, edited, reformatted")
    return root


def _replay(title: str, repo: Path) -> Table:
    return replay(f"Real Rust history: {title}", repo, RustOracle(), Plan(RS, KINDS, PER_PAIR, PER_FILE))
