"""Real JavaScript histories, judged by a parser tether does not share: zero false-fresh verdicts, ever.

Ten npm packages, one commit per release (npm tarballs: the history is what their authors shipped,
CommonJS turned into classes, prettier's first run, files split and moved). For each pair of
consecutive releases, the functions, classes, methods, constants and class fields of the JS files
the release changed are anchored at the older one (at most 300, 150 a file, files in a fixed-seed
shuffle so the cap spreads over the package), the newer one is checked out, and every verdict is
judged by acorn (js_oracle.js; names and formatting left out):

- active (in place or followed): the code it points at must be the anchored code, else FALSE FRESH;
- stale: code at the place it names that acorn calls unchanged is counted as "stale, acorn equal";
- deleted: a unique acorn-identical definition anywhere in the new tree counts as a missed follow.

Then the older release is checked out again, and every memory must be active (healed).

    python -m tests.bench history_js
    TETHER_BENCH_ONLY=ws,chalk python -m tests.bench history_js    # some packages only

Needs node and npm (tarballs and acorn are fetched once into ~/.cache/tether-bench/npm); without
them it says why and does nothing. `--small`: two commits of hand-written JS, moved, edited and
reformatted, offline; judged only if acorn is already in the cache.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import textwrap
from collections import Counter
from contextlib import nullcontext
from pathlib import Path

from tests.bench import Table, commit_releases, extract_files, git, git_commit_all, workdir
from tests.bench.replay import Plan, replay

RELEASES = {
    "express": ["4.13.4", "4.15.5", "4.16.4", "4.17.3", "4.18.2", "4.19.2", "4.21.1"],
    "commander": ["2.20.3", "3.0.2", "4.1.1", "5.1.0", "6.2.1", "7.2.0", "8.3.0"],
    "axios": ["0.18.1", "0.19.2", "0.21.4", "0.27.2"],
    "chalk": ["2.4.2", "3.0.0", "4.1.2"],
    "moment": ["2.18.1", "2.22.2", "2.24.0", "2.29.4"],
    "mocha": ["6.2.3", "7.2.0", "8.4.0", "9.2.2", "10.2.0"],
    "ws": ["5.2.3", "6.2.2", "7.5.9", "8.13.0"],
    "eslint": ["6.8.0", "7.32.0", "8.20.0", "8.57.0"],
    "underscore": ["1.9.2", "1.10.2", "1.12.1", "1.13.6"],
    "webpack": ["4.46.0", "5.30.0", "5.75.0"],
}
PER_PAIR, PER_FILE = 300, 150  # one huge file (moment's bundle, webpack's Compilation) must not fill the pair
KINDS = ("function", "method", "class", "constant", "attribute")  # every kind js_oracle.js can locate
JS = re.compile(r"\.(js|mjs|cjs)$")
MINIFIED = re.compile(r"[.-]min\.(js|mjs|cjs)$")  # generated: nobody anchors a memory there
NPM = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "tether-bench" / "npm"
NODE_MODULES = NPM / "node" / "node_modules"
ORACLE = Path(__file__).with_name("js_oracle.js")
ACORN = ("acorn", "acorn-walk")  # the oracle's modules, installed under NODE_MODULES


def run(small: bool = False) -> list[Table]:
    with workdir("history_js") as tmp:
        if small:  # offline and dependency-free: judged only if a full run already installed acorn
            with _acorn() if shutil.which("node") and installed(*ACORN) else nullcontext() as oracle:
                return [
                    _replay(
                        "hand-written JS, moved, edited and reformatted (smoke)", _small_history(tmp / "small"), oracle
                    )
                ]
        if not (shutil.which("node") and shutil.which("npm")):
            return [
                _not_run(
                    "node and npm not found",
                    "npm fetches the release tarballs and acorn, node runs the acorn oracle (js_oracle.js)",
                )
            ]
        if not installed(*ACORN):
            why = npm(
                "install", "--prefix", str(NODE_MODULES.parent), "--no-audit", "--no-fund", "acorn@8", "acorn-walk@8"
            )
            if not installed(*ACORN):
                return [_not_run("acorn could not be installed", f"`npm install acorn@8 acorn-walk@8` failed: {why}")]
        only = {p for p in os.environ.get("TETHER_BENCH_ONLY", "").split(",") if p}
        tables = []
        with _acorn() as oracle:
            for name, versions in RELEASES.items():
                repo = release_history(tmp / name, name, versions) if not only or name in only else None
                if repo is not None:
                    tables.append(_replay(f"{name} {versions[0]} .. {versions[-1]}", repo, oracle))
        return tables or [
            _not_run(
                "no release tarballs",
                f"`npm pack` fetched none into {NPM} (TETHER_BENCH_ONLY={','.join(sorted(only)) or 'unset'})",
            )
        ]


def _not_run(why: str, detail: str) -> Table:
    table = Table(f"Real JS history: not run ({why})")
    table.add("why", detail)
    return table


def npm(*args: str) -> str:
    """Runs npm in the cache dir (no lifecycle scripts); its first line of complaint, if any."""
    NPM.mkdir(parents=True, exist_ok=True)
    try:
        proc = subprocess.run(
            ["npm", *args, "--ignore-scripts"], cwd=NPM, capture_output=True, text=True, timeout=300, check=False
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        return str(e)
    return next((ln for ln in proc.stderr.splitlines() if "error" in ln.lower() or "ERR!" in ln), "")


# -- histories ----------------------------------------------------------------------------------
def _is_js_source(rel: Path, size: int) -> bool:
    """No minified copies, no vendored node_modules, nothing of 200 KiB or more once rounded up
    (what `find -size -200k` keeps): bundles and dist builds are generated, not edited."""
    return bool(
        JS.search(rel.name)
        and not MINIFIED.search(rel.name)
        and (size + 1023) // 1024 < 200
        and "node_modules" not in rel.parts
    )


def release_history(root: Path, name: str, versions: list[str], keep=_is_js_source) -> Path | None:
    """A repository with one commit (and tag) per release, of the files `keep(path, size)` keeps,
    or None if a tarball cannot be had."""
    tarball = name.lstrip("@").replace("/", "-")  # named as `npm pack` names them: @scope/x-1.0.tgz is scope-x-1.0.tgz
    archives = [NPM / f"{tarball}-{v}.tgz" for v in versions]
    for version, archive in zip(versions, archives):
        if not archive.is_file():
            npm("pack", "--silent", f"{name}@{version}")
    if not all(a.is_file() for a in archives):
        return None
    return commit_releases(
        root,
        name,
        [
            (version, lambda root, archive=archive: extract_files(archive, root, keep))
            for version, archive in zip(versions, archives)
        ],
    )


SMALL = {  # an ES class, a CommonJS constructor with prototype methods, `exports.x =` helpers
    "lib/shapes.js": """
        export class Circle {
          constructor(r) { this.r = r; }
          area() { return Math.PI * this.r * this.r; }
          scale(k) { return new Circle(this.r * k); }
        }
        export const unit = () => new Circle(1);
        export function largest(shapes) { return shapes.reduce((a, b) => (a.area() > b.area() ? a : b)); }
        """,
    "lib/queue.js": """
        'use strict';
        function Queue(limit) { this.items = []; this.limit = limit || Infinity; }
        Queue.prototype.push = function push(item) {
          if (this.items.length >= this.limit) throw new Error('full');
          this.items.push(item);
          return this;
        };
        Queue.prototype.shift = function () { return this.items.shift(); };
        exports.createQueue = function (limit) { return new Queue(limit); };
        """,
    "lib/text.js": """
        exports.slug = function slug(s) {
          return s.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');
        };
        exports.pad = (s, n) => String(s).padStart(n, ' ');
        function words(s) { return s.split(/\\s+/).filter(Boolean); }
        exports.words = words;
        """,
}


def _small_history(root: Path) -> Path:
    """Three files, then: one moved whole, one method edited, one file reformatted (acorn equal)."""
    for rel, src in SMALL.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(src).lstrip())
    git_commit_all(root, "js")
    (root / "src").mkdir()
    git(root, "mv", "lib/text.js", "src/text.js")
    shapes = root / "lib" / "shapes.js"
    shapes.write_text(shapes.read_text().replace("this.r * k", "this.r * Math.abs(k)"))
    queue = root / "lib" / "queue.js"  # reformatted: double quotes, four-space indent
    queue.write_text(re.sub(r"^ +", lambda m: m[0] * 2, queue.read_text().replace("'", '"'), flags=re.M))
    git_commit_all(root, "moved, edited, reformatted")
    return root


# -- the oracle ---------------------------------------------------------------------------------
def installed(*modules: str) -> bool:
    return all((NODE_MODULES / m / "package.json").is_file() for m in modules)


class NodeOracle:
    """An oracle script (js_oracle.js, ts_oracle.js) in one long-lived node process: each file is
    parsed once per checkout. `sources`: the files whose definitions it counts."""

    def __init__(self, name: str, script: Path, sources: re.Pattern) -> None:
        self.name, self.script, self.sources = name, script, sources
        self.proc = subprocess.Popen(
            ["node", str(script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "NODE_PATH": str(NODE_MODULES)},
        )

    def ask(self, **req) -> dict:
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        answer = json.loads(line) if line else {"ok": False, "error": "exited"}
        if not answer["ok"]:
            raise RuntimeError(f"{self.script.name}: {answer['error']}")
        return answer

    def fingerprints(self, path: Path, queries: list[tuple[str, int, int]]) -> list[str | None]:
        """For each (name, first line, last line): the definition the oracle finds there, hashed, or None."""
        qs = [{"name": n, "first": f, "last": last} for n, f, last in queries]
        return self.ask(op="fp", path=str(path), queries=qs)["answers"]

    def everywhere(self, repo: Path) -> Counter:
        """How many definitions of each fingerprint the checked-out tree holds."""
        paths = [str(repo / p) for p in git(repo, "ls-files").splitlines() if self.sources.search(p)]
        return Counter(self.ask(op="all", paths=paths)["counts"])

    def reset(self) -> None:
        self.ask(op="reset")  # it knows a file by its stat, which a checkout need not change

    def __enter__(self) -> NodeOracle:
        return self

    def __exit__(self, *exc) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def _acorn() -> NodeOracle:
    return NodeOracle("acorn", ORACLE, JS)


def _replay(title: str, repo: Path, oracle: NodeOracle | None) -> Table:
    return replay(f"Real JS history: {title}", repo, oracle, Plan(JS, KINDS, PER_PAIR, PER_FILE))
