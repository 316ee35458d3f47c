"""Hostile and odd input through the real CLI: huge, binary, non-UTF-8, generated and deeply nested
files, files vanishing mid-sweep, no git, 50,000 files, oversized bodies, Unicode everywhere.

The bar: no crash, no traceback, no RecursionError; a file is indexed or skipped with a reason, a
symbol anchor on a skipped file is refused with a stable code, and its whole-file anchor works.
"""

from __future__ import annotations

import subprocess
import sys
import threading
import time
from pathlib import Path

import orjson
import pytest
from stress import INDEX_PEAK_PROBE, nested_files

MB = 1024 * 1024


def _tether(
    root: Path, *args: str, stdin: bytes | None = None, cwd: Path | None = None, root_flag: bool = True
) -> subprocess.CompletedProcess:
    cmd = [sys.executable, "-m", "tether", *(["--root", str(root)] if root_flag else []), *args]
    return subprocess.run(cmd, cwd=cwd or root, input=stdin, capture_output=True, timeout=600, check=False)


def _ok(root: Path, *args: str, **kw) -> dict:
    proc = _tether(root, *args, "--json", **kw)
    assert proc.returncode == 0, proc.stdout.decode("utf-8", "replace") + proc.stderr.decode("utf-8", "replace")
    assert b"Traceback" not in proc.stderr
    return orjson.loads(proc.stdout)


def _refused(root: Path, *args: str, **kw) -> dict:
    proc = _tether(root, *args, "--json", **kw)
    assert proc.returncode == 2, proc.stdout.decode("utf-8", "replace")
    assert b"Traceback" not in proc.stderr
    return orjson.loads(proc.stdout)["error"]


def _remember(root: Path, anchor: str, text: str = "A note about this code.") -> str:
    return _ok(root, "remember", text, "--anchor", anchor, "--force")["data"]["id"]


def _statuses(root: Path) -> dict[str, tuple[str, str | None]]:
    return {i["id"]: (i["status"], i["reason"]) for i in _ok(root, "check")["data"]}


def _skipped(root: Path, rel: str) -> str | None:
    """Why the index did not parse `rel` (None: parsed), read from the cache after a real sweep."""
    import sqlite3

    from tether.files.paths import cache_dir

    conn = sqlite3.connect(cache_dir(root.resolve()) / "cache.sqlite")
    try:
        row = conn.execute("SELECT skipped FROM files WHERE path=?", (rel,)).fetchone()
    finally:
        conn.close()
    assert row is not None, f"{rel} is not in the index"
    return row[0]


def test_a_50_mb_file_is_hashed_not_parsed_and_memory_stays_bounded(repo):
    line = b"value = compute(1, 2, 3)  # generated padding, generated padding\n"
    repo.write("data/huge.py", b"def head():\n    return 1\n\n" + line * (50 * MB // len(line)))
    repo.write("src/app.py", "def main():\n    return 0\n")
    repo.commit()
    # the CLI under a wrapper that reports its own peak resident memory (the sweep runs in process here)
    proc = subprocess.run(
        [sys.executable, "-c", INDEX_PEAK_PROBE, str(repo.path)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert orjson.loads(proc.stdout)["data"]["files"] == 2
    peak_mb = int(proc.stderr.strip().splitlines()[-1]) / 1024
    assert peak_mb < 400, f"indexing a 50 MB file peaked at {peak_mb:.0f} MB"
    assert _skipped(repo.path, "data/huge.py") == "too_large"

    assert _refused(repo.path, "remember", "head", "--anchor", "data/huge.py::head")["code"] == "file_too_large"
    mid = _remember(repo.path, "data/huge.py")
    assert _statuses(repo.path)[mid] == ("active", None)
    with open(repo.path / "data/huge.py", "ab") as f:
        f.write(b"value = 1\n")
    assert _statuses(repo.path)[mid] == ("stale", "file_edited")


def test_binary_and_non_utf8_files_are_skipped_with_a_reason(repo):
    repo.write("assets/logo.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 40)
    repo.write("lib/blob.py", b"def f():\n    return 1\n\x00\x01\x02binary tail\n")
    repo.write("legacy/latin.py", b"# -*- coding: latin-1 -*-\ndef caf():\n    return 'caf\xe9 cr\xe8me'\n")
    repo.commit()
    assert _ok(repo.path, "index")["data"]["files"] == 3
    assert _skipped(repo.path, "lib/blob.py") == "binary"
    assert _skipped(repo.path, "legacy/latin.py") == "encoding"
    assert _refused(repo.path, "remember", "x", "--anchor", "lib/blob.py::f")["code"] == "binary_file"
    assert _refused(repo.path, "remember", "x", "--anchor", "legacy/latin.py::caf")["code"] == "invalid_encoding"
    ids = [_remember(repo.path, p) for p in ("assets/logo.png", "lib/blob.py", "legacy/latin.py")]
    assert all(_statuses(repo.path)[i] == ("active", None) for i in ids)
    shown = _ok(repo.path, "show", ids[2])  # a diff or snippet of a latin-1 file never breaks the output
    assert shown["data"]["id"] == ids[2]


def test_a_generated_file_of_100k_lines_is_indexed(repo):
    table = (
        "TABLE = [\n"
        + "".join(f"    {i % 997},\n" for i in range(100_000))
        + "]\n\n\ndef lookup(i):\n    return TABLE[i] * 3 + 1\n"
    )
    repo.write("gen/table.py", table)  # 100k lines, under the parse limit
    repo.write("gen/big.js", "".join(f"export const k{i} = {i};\n" for i in range(100_000)))  # over it
    repo.commit()
    _ok(repo.path, "index")
    assert _skipped(repo.path, "gen/table.py") is None and _skipped(repo.path, "gen/big.js") == "too_large"
    mid = _remember(repo.path, "gen/table.py::lookup")
    assert _ok(repo.path, "show", mid)["data"]["anchors"][0]["lines"][0] == 100_005
    assert _refused(repo.path, "remember", "x", "--anchor", "gen/big.js::k5")["code"] == "file_too_large"
    whole = _remember(repo.path, "gen/big.js")
    assert _statuses(repo.path)[whole] == ("active", None)


def test_deeply_nested_code_never_crashes_and_is_indexed_or_skipped_with_a_reason(repo):
    for rel, text in nested_files().items():
        repo.write(rel, text)
    repo.commit()
    assert _ok(repo.path, "index")["data"]["files"] == len(nested_files())
    assert _skipped(repo.path, "deep/ifs.py") == "too_large"
    for rel in ("deep/data.json", "deep/data.toml", "deep/nested.yaml", "deep/compact.yaml"):
        assert _skipped(repo.path, rel) in ("error", "syntax"), rel
    for rel in (
        "deep/brackets.py",
        "deep/calls.py",
        "deep/ifs1000.py",
        "deep/ifs.js",
        "deep/arrays.js",
        "deep/arrows.ts",
    ):
        assert _skipped(repo.path, rel) is None, rel

    ids = [
        _remember(repo.path, a)
        for a in (
            "deep/brackets.py::f",
            "deep/brackets.py::ok",
            "deep/calls.py::g",
            "deep/ifs1000.py::ok",
            "deep/ifs.js::deep",
            "deep/arrays.js::x",
            "deep/arrows.ts::f",
            "deep/ifs.py",
            "deep/nested.yaml",
        )
    ]
    assert _refused(repo.path, "remember", "x", "--anchor", "deep/ifs.py::deep")["code"] == "file_too_large"
    assert _refused(repo.path, "remember", "x", "--anchor", "deep/nested.yaml#k0")["code"] == "malformed_file"
    assert {_statuses(repo.path)[i] for i in ids} == {("active", None)}

    # edit inside the deepest level: the hash sees it (stale), a reformat elsewhere does not
    repo.replace("deep/ifs.js", "return a;", "return a + 1;")
    repo.replace("deep/brackets.py", "def ok():\n    return 2", "def ok():\n    return  2  # same")
    got = _statuses(repo.path)
    assert got[ids[4]] == ("stale", "body_edited") and got[ids[1]] == ("active", None)


def test_files_disappearing_during_a_sweep_of_50000_files(tmp_path):
    """A 50,000-file repository: the cold sweep runs while another thread deletes 10,000 files
    across every phase (listing, stat, parse); then the next sweep, check and recall work."""
    root = tmp_path / "big"
    for d in range(500):
        (root / f"pkg{d:03}").mkdir(parents=True)
        for i in range(100):
            n = d * 100 + i
            (root / f"pkg{d:03}" / f"m{i}.py").write_text(
                f"def f{n}(x):\n    return x * {n} + {n % 7}\n", encoding="utf-8"
            )
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    doomed = [root / f"pkg{d:03}" / f"m{i}.py" for i in range(0, 100, 2) for d in range(200)]

    deleted = [0]

    def delete() -> None:
        for p in doomed:
            p.unlink()
            deleted[0] += 1
            time.sleep(0.002)

    sweeping = subprocess.Popen(
        [sys.executable, "-m", "tether", "--root", str(root), "index", "--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    time.sleep(0.5)
    deleter = threading.Thread(target=delete)
    deleter.start()
    stdout, stderr = sweeping.communicate(timeout=900)
    during = deleted[0]
    deleter.join()
    assert sweeping.returncode == 0, stderr.decode()
    assert b"Traceback" not in stderr
    assert during > 0  # files really vanished while the sweep ran
    assert 40_000 <= orjson.loads(stdout)["data"]["files"] <= 50_000

    again = _ok(root, "index")["data"]
    assert again["files"] == 40_000
    mid = _remember(root, "pkg399/m45.py::f39945", "f39945 scales its input.")
    assert _statuses(root) == {mid: ("active", None)}
    assert _ok(root, "recall", "f39945 scales input")["data"]["items"][0]["id"] == mid


def test_a_repository_without_git(tmp_path):
    root = tmp_path / "plain"
    (root / ".tether").mkdir(parents=True)
    (root / "src" / "sub").mkdir(parents=True)
    (root / "src" / "sub" / "tool.py").write_text("def run(x):\n    return x + 41\n", encoding="utf-8")
    (root / "node_modules" / "dep").mkdir(parents=True)  # pruned without a .gitignore to say so
    (root / "node_modules" / "dep" / "index.js").write_text("module.exports = 1;\n", encoding="utf-8")
    cwd = root / "src" / "sub"  # no --root: found from the working directory by its .tether/
    mid = _ok(root, "remember", "run adds forty-one.", "--anchor", "tool.py::run", cwd=cwd, root_flag=False)["data"]
    assert mid["anchors"][0]["path"] == "src/sub/tool.py"
    assert mid.get("commit") is None
    assert _ok(root, "index", cwd=cwd, root_flag=False)["data"]["files"] == 1
    assert _ok(root, "check", cwd=cwd, root_flag=False)["data"][0]["status"] == "active"
    assert _ok(root, "recall", "adds forty-one", cwd=cwd, root_flag=False)["data"]["items"][0]["id"] == mid["id"]


def test_a_memory_body_of_1_mb_is_refused_with_the_limit(repo):
    repo.write("src/app.py", "def main():\n    return 0\n")
    err = _refused(repo.path, "remember", "-", "--anchor", "src/app.py::main", stdin=b"x" * MB)
    assert err["code"] == "invalid_input" and err["limit"] == 16_000 and "16000" in err["message"]
    err = _refused(repo.path, "remember", "y " * 50_000, "--anchor", "src/app.py::main")
    assert (err["code"], err["limit"], err["size"]) == ("invalid_input", 16_000, 100_000)
    assert repo.memory_files() == {}
    ok = _ok(repo.path, "remember", "-", "--anchor", "src/app.py::main", stdin="Main returns zero. ✓\n".encode())
    assert ok["data"]["summary"] == "Main returns zero."


UNICODE_BODY = (
    "Größe wird in Ünïcode berechnet 🚀👩‍👩‍👧; שלום עולם مرحبا بالعالم; "
    "e\u0301 and \u00e9 stay as typed; 変数 holds 一 value."
)


@pytest.mark.parametrize(
    "anchor",
    [
        "src/données du projet/mon module.py::Ünïcode.café",
        "src/données du projet/mon module.py::変数",
        "web/è ñ.js::größe",
        "docs/guide ü.md#Überblick 🚀",
    ],
)
def test_unicode_paths_symbols_bodies_and_headings(repo, anchor):
    repo.write(
        "src/données du projet/mon module.py",
        'class Ünïcode:\n    def café(self, naïve, größe=3):\n        """Résumé ✓"""\n'
        "        total = sum(ord(ç) for ç in naïve) * größe\n        return total if total > 100 else -total  # 注释\n\n\n"
        "def 変数(値, 係数=7):\n    結果 = [値 * 係数 + i for i in range(10)]\n    return max(結果) - min(結果)\n",
    )
    repo.write(
        "web/è ñ.js",
        "function größe(a, ñandú) {\n  const ü = a.map((x) => x * ñandú + 1);\n"
        '  return ü.filter((v) => v > 10).length;\n}\nconst ñ = () => "🚀";\n',
    )
    repo.write(
        "docs/guide ü.md",
        "# Überblick 🚀\n\nDer Überblick erklärt, wie die Größe berechnet wird, warum 変数 "
        "zählt und wo der ñandú lebt: שלום.\n\n## Détails\n\nMehr.\n",
    )
    repo.commit()
    created = _ok(repo.path, "remember", UNICODE_BODY, "--anchor", anchor, "--tag", "ünïcode")["data"]
    mid = created["id"]
    shown = _ok(repo.path, "show", mid)["data"]
    assert shown["memory"]["body"] == UNICODE_BODY  # combining marks, ZWJ sequences and RTL kept byte for byte
    path, _, name = anchor.replace("#", "::").partition("::")
    assert (shown["anchors"][0]["path"], shown["anchors"][0]["symbol"]) == (path, name)
    assert _statuses(repo.path)[mid] == ("active", None)
    for query in ("Größe berechnet", "שלום", "変数"):
        assert mid in {i["id"] for i in _ok(repo.path, "recall", query)["data"]["items"]}, query
    # the file moves to another Unicode path and is edited: followed, then stale with a reason
    new_path = path.replace("/", "/déplacé ", 1)
    repo.move(path, new_path)
    repo.commit()
    moved = _ok(repo.path, "check")["data"][0]
    assert (moved["status"], moved["anchors"][0]["path"]) == ("active", new_path)
    text = repo.read(new_path)
    for old, new in (("> 100", "> 200"), ("+ i for", "- i for"), ("v > 10", "v > 20"), ("wo der", "wo kein")):
        text = text.replace(old, new)
    repo.write(new_path, text)
    assert _statuses(repo.path)[mid][0] == "stale"
