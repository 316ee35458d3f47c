"""Real Go histories, judged by Go's own parser: zero false-fresh verdicts, ever.

Seven Go libraries, one commit per version that Debian's suites carry (the `golang-*-dev` packages
ship the library's sources under /usr/share/gocode/src; bullseye, bookworm, trixie, forky and sid
each hold the version of their day, so the history is what upstream released, years apart). For
each pair of consecutive versions, the functions, methods, types, interface methods, constants and
variables of the Go files the version changed are anchored at the older one (at most 300, 150 a
file, files in a fixed-seed shuffle so the cap spreads over the library), the newer one is checked
out, and every verdict is judged by go/ast (go_oracle.go; names and formatting left out, receivers
and const-vs-var kept):

- active (in place or followed): the code it points at must be the anchored code, else FALSE FRESH;
- stale: code at the place it names that go/ast calls unchanged is counted as "stale, go/ast equal";
- deleted: a unique go/ast-identical definition anywhere in the new tree counts as a missed follow.

Then the older version is checked out again, and every memory must be active (healed).

    python -m tests.bench history_go
    TETHER_BENCH_ONLY=cobra,toml python -m tests.bench history_go    # some libraries only

Needs go (Debian's golang-go), dpkg-deb and Debian's mirror (the suites' package indexes and the
.debs are fetched once into ~/.cache/tether-bench/deb, the oracle is built there once); without
them it says why and does nothing. `--small`: two commits of hand-written Go, moved, edited and
reformatted, offline; judged only if the oracle is already built.
"""

from __future__ import annotations

import functools
import hashlib
import json
import lzma
import os
import re
import shutil
import subprocess
import tempfile
import textwrap
import time
import urllib.request
from collections import Counter
from contextlib import nullcontext
from pathlib import Path

from tests.bench import Table, commit_releases, git, git_commit_all, workdir
from tests.bench.replay import Plan, replay

LIBRARIES = {  # name: (Debian binary package, the import path it ships under /usr/share/gocode/src)
    "cobra": ("golang-github-spf13-cobra-dev", "github.com/spf13/cobra"),
    "pflag": ("golang-github-spf13-pflag-dev", "github.com/spf13/pflag"),
    "logrus": ("golang-github-sirupsen-logrus-dev", "github.com/sirupsen/logrus"),
    "testify": ("golang-github-stretchr-testify-dev", "github.com/stretchr/testify"),
    "go-cmp": ("golang-github-google-go-cmp-dev", "github.com/google/go-cmp"),
    "toml": ("golang-github-burntsushi-toml-dev", "github.com/BurntSushi/toml"),
    "client_golang": ("golang-github-prometheus-client-golang-dev", "github.com/prometheus/client_golang"),
}
SUITES = ("bullseye", "bookworm", "trixie", "forky", "sid")  # buster has left the mirror
MIRROR = "http://deb.debian.org/debian"
INDEX_MAX_AGE = 7 * 86400  # sid moves on and its pool drops old .debs: an older index names files gone
PER_PAIR, PER_FILE = 300, 150
KINDS = ("function", "method", "struct", "interface", "type", "constant", "variable")  # all tether anchors in Go
GO = re.compile(r"\.go$")
DEB = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "tether-bench" / "deb"
SOURCE = Path(__file__).with_name("go_oracle.go")
# the binary is named by its source's hash: an edited oracle is rebuilt, never run stale
ORACLE = DEB / f"go_oracle-{hashlib.sha1(SOURCE.read_bytes()).hexdigest()[:12]}"


def run(small: bool = False) -> list[Table]:
    with workdir("history_go") as tmp:
        if small:  # offline and dependency-free: judged only if a full run already built the oracle
            with _GoAst() if ORACLE.is_file() else nullcontext() as oracle:
                return [
                    _replay(
                        "hand-written Go, moved, edited and reformatted (smoke)", _small_history(tmp / "small"), oracle
                    )
                ]
        if not (shutil.which("go") and shutil.which("dpkg-deb")):
            return [
                _not_run(
                    "go or dpkg-deb not found",
                    "go builds the go/ast oracle (go_oracle.go), dpkg-deb "
                    "unpacks the Debian packages: `apt-get install golang-go`",
                )
            ]
        if not ORACLE.is_file() and (why := _build_oracle()):
            return [_not_run("the oracle did not build", why)]
        indexes = [ix for suite in SUITES if (ix := _index(suite)) is not None]
        if not indexes:
            return [
                _not_run(
                    "Debian's mirror unreachable",
                    f"no package index of {', '.join(SUITES)} could be fetched from {MIRROR} or found in {DEB}",
                )
            ]
        only = {p for p in os.environ.get("TETHER_BENCH_ONLY", "").split(",") if p}
        tables = []
        with _GoAst() as oracle:
            for name, (package, import_path) in LIBRARIES.items():
                versions = _versions(package, indexes) if not only or name in only else []
                repo = _release_history(tmp / name, name, import_path, versions) if len(versions) > 1 else None
                if repo is not None:
                    tables.append(_replay(f"{name} {versions[0][0]} .. {versions[-1][0]}", repo, oracle))
        return tables or [
            _not_run(
                "no Debian packages",
                f"none of the .debs could be fetched into {DEB} "
                f"(TETHER_BENCH_ONLY={','.join(sorted(only)) or 'unset'})",
            )
        ]


def _not_run(why: str, detail: str) -> Table:
    table = Table(f"Real Go history: not run ({why})")
    table.add("why", detail)
    return table


# -- histories ----------------------------------------------------------------------------------
def _fetch(url: str, dest: Path) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=60) as r:
            data = r.read()
    except OSError:
        return False
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = dest.with_name(dest.name + ".part")  # never a half-written file under the final name
    tmp.write_bytes(data)
    tmp.replace(dest)
    return True


def _index(suite: str) -> dict[str, tuple[str, str, str]] | None:
    """A suite's Architecture: all packages (golang-*-dev are all): name -> (version, pool path,
    sha256). Cached; refetched when a week old, and the old copy kept if the mirror is unreachable."""
    path = DEB / f"Packages-{suite}.xz"
    if not path.is_file() or time.time() - path.stat().st_mtime > INDEX_MAX_AGE:
        _fetch(f"{MIRROR}/dists/{suite}/main/binary-all/Packages.xz", path)
    if not path.is_file():
        return None
    wanted = {package for package, _ in LIBRARIES.values()}
    out = {}
    for stanza in lzma.decompress(path.read_bytes()).decode("utf-8", "replace").split("\n\n"):
        fields = dict(re.findall(r"^(Package|Version|Filename|SHA256): (.*)$", stanza, re.M))
        if fields.get("Package") in wanted and len(fields) == 4:
            out[fields["Package"]] = (fields["Version"], fields["Filename"], fields["SHA256"])
    return out


def _dpkg_order(a: str, b: str) -> int:
    lt = subprocess.run(["dpkg", "--compare-versions", a, "lt", b], check=False).returncode == 0
    return -1 if lt else int(a != b)


def _versions(package: str, indexes: list[dict]) -> list[tuple[str, str, str]]:
    """Every version of `package` some suite carries, oldest first (Debian's own ordering)."""
    found = {ix[package][0]: ix[package] for ix in indexes if package in ix}
    return [found[v] for v in sorted(found, key=functools.cmp_to_key(_dpkg_order))]


def _deb(pool_path: str, sha256: str) -> Path | None:
    """The .deb, fetched once and checked against the index's sha256."""
    path = DEB / Path(pool_path).name
    if not path.is_file() and not _fetch(f"{MIRROR}/{pool_path}", path):
        return None
    if hashlib.sha256(path.read_bytes()).hexdigest() != sha256:
        path.unlink()
        return None
    return path


def _release_history(root: Path, name: str, import_path: str, versions: list[tuple[str, str, str]]) -> Path | None:
    """A repository with one commit (and tag) per version, the library's own Go sources only, or
    None if a .deb cannot be had."""
    debs = [_deb(pool, sha) for _, pool, sha in versions]
    if any(d is None for d in debs):
        return None

    def fill(root: Path, deb: Path) -> None:
        with tempfile.TemporaryDirectory(dir=root.parent) as x:
            subprocess.run(["dpkg-deb", "-x", str(deb), x], check=True)
            src = Path(x) / "usr/share/gocode/src" / import_path
            for p in sorted(src.rglob("*.go")):
                rel = p.relative_to(src)
                # no tests, no vendored copies or test data, nothing of 200 KiB or more once rounded up
                # (generated tables): what a developer edits and anchors memories to
                if (
                    p.is_file()
                    and not p.is_symlink()
                    and not p.name.endswith("_test.go")
                    and not {"vendor", "testdata"} & set(rel.parts)
                    and (p.stat().st_size + 1023) // 1024 < 200
                ):
                    (root / rel).parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(p, root / rel)

    return commit_releases(
        root, name, [(version, lambda root, deb=deb: fill(root, deb)) for (version, _, _), deb in zip(versions, debs)]
    )


SMALL = {  # a struct with pointer and value methods, grouped consts with iota, helpers
    "shapes/shapes.go": """
        package shapes

        import "math"

        type Circle struct {
        \tR float64
        }

        func (c *Circle) Area() float64 { return math.Pi * c.R * c.R }

        func (c Circle) Scale(k float64) Circle { return Circle{R: c.R * k} }

        func Largest(cs []Circle) (best Circle) {
        \tfor _, c := range cs {
        \t\tif c.Area() > best.Area() {
        \t\t\tbest = c
        \t\t}
        \t}
        \treturn best
        }
        """,
    "queue/queue.go": """
        package queue

        import "errors"

        const (
        \tSmall = iota + 1
        \tMedium
        \tLarge
        )

        var ErrFull = errors.New("full")

        type Queue struct {
        \titems []int
        \tlimit int
        }

        func (q *Queue) Push(item int) error {
        \tif len(q.items) >= q.limit {
        \t\treturn ErrFull
        \t}
        \tq.items = append(q.items, item)
        \treturn nil
        }
        """,
    "text/text.go": """
        package text

        import "strings"

        func Slug(s string) string {
        \treturn strings.Trim(strings.Map(keep, strings.ToLower(s)), "-")
        }

        func keep(r rune) rune {
        \tif (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
        \t\treturn r
        \t}
        \treturn '-'
        }

        func Words(s string) []string { return strings.Fields(s) }
        """,
}


def _small_history(root: Path) -> Path:
    """Three files, then: one function moved to another file, one method edited, one file
    reformatted (go/ast equal)."""
    for rel, src in SMALL.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(textwrap.dedent(src).lstrip())
    git_commit_all(root, "go")
    text = root / "text" / "text.go"
    src = text.read_text()
    keep = src[src.index("func keep") : src.index("func Words")]
    text.write_text(src.replace(keep, ""))
    (root / "text" / "runes.go").write_text(f"package text\n\n{keep}")
    shapes = root / "shapes" / "shapes.go"
    shapes.write_text(shapes.read_text().replace("c.R * k", "c.R * math.Abs(k)"))
    queue = root / "queue" / "queue.go"  # reformatted: spaces for tabs, a parenthesized condition
    queue.write_text(
        queue.read_text().replace("\t", "    ").replace("if len(q.items) >= q.limit", "if (len(q.items) >= q.limit)")
    )
    git_commit_all(root, "moved, edited, reformatted")
    return root


# -- the oracle ---------------------------------------------------------------------------------
def _build_oracle() -> str:
    """Builds go_oracle.go into the cache; what went wrong, if anything."""
    DEB.mkdir(parents=True, exist_ok=True)
    for old in DEB.glob("go_oracle-*"):  # built from an older go_oracle.go
        old.unlink()
    env = {**os.environ, "GOTOOLCHAIN": "local", "GOFLAGS": "", "GO111MODULE": "off"}  # stdlib only: no module
    try:
        proc = subprocess.run(
            ["go", "build", "-o", str(ORACLE), str(SOURCE)],
            capture_output=True,
            text=True,
            env=env,
            timeout=600,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        return str(e)
    return "" if proc.returncode == 0 else f"`go build` failed: {proc.stderr.strip()[:500]}"


class _GoAst:
    """go_oracle.go, built, in one long-lived process: each file is parsed once per checkout."""

    name = "go/ast"

    def __init__(self) -> None:
        self.proc = subprocess.Popen([str(ORACLE)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def ask(self, **req) -> dict:
        self.proc.stdin.write(json.dumps(req) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        answer = json.loads(line) if line else {"ok": False, "error": "go_oracle exited"}
        if not answer["ok"]:
            raise RuntimeError(f"go_oracle: {answer['error']}")
        return answer

    def fingerprints(self, path: Path, queries: list[tuple[str, int, int]]) -> list[str | None]:
        """For each (name, first line, last line): the definition go/ast finds there, hashed, or None."""
        qs = [{"name": n, "first": f, "last": last} for n, f, last in queries]
        return self.ask(op="fp", path=str(path), queries=qs)["answers"]

    def everywhere(self, repo: Path) -> Counter:
        """How many definitions of each fingerprint the checked-out tree holds."""
        paths = [str(repo / p) for p in git(repo, "ls-files").splitlines() if GO.search(p)]
        return Counter(self.ask(op="all", paths=paths)["counts"])

    def reset(self) -> None:
        self.ask(op="reset")  # it knows a file by its stat, which a checkout need not change

    def __enter__(self) -> _GoAst:
        return self

    def __exit__(self, *exc) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def _replay(title: str, repo: Path, oracle: _GoAst | None) -> Table:
    return replay(f"Real Go history: {title}", repo, oracle, Plan(GO, KINDS, PER_PAIR, PER_FILE))
