"""Several agents on one repository at once: real processes, one store, one cache, nothing lost or doubled.

The writers are library drivers (tests/stress.py: one process each, one Tether each, like an MCP
server); `check`, `index` and `recall` run through the real CLI beside them.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import orjson
from stress import SHARED_TAG, cli, make_repo, race, run_writers

from tether.files.paths import cache_dir
from tether.service import Tether
from tether.store import memory

WRITERS, PER_WRITER = 8, 100


def _json(proc) -> dict:
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return orjson.loads(proc.stdout)


def test_eight_writers_store_exactly_800_memories_while_check_and_index_run(tmp_path):
    root = tmp_path / "repo"
    make_repo(root, WRITERS, PER_WRITER)
    out = run_writers(root, WRITERS, PER_WRITER)

    # every write acknowledged, no refusal, and each writer's recall saw all its own memories every time
    assert out.errors == []
    assert len(out.acked) == len(set(out.acked)) == WRITERS * PER_WRITER
    # the CLI ran alongside the whole time and never failed or went backwards
    assert out.cli_failures == []
    assert out.cli_runs.get("check", 0) >= 2 and out.cli_runs.get("index", 0) >= 1

    files = sorted((root / ".tether" / "memories").iterdir())
    assert len(files) == WRITERS * PER_WRITER and all(p.suffix == ".md" for p in files)
    parsed = [memory.loads(p.read_bytes(), p.name) for p in files]
    assert {m.id for m in parsed} == set(out.acked)

    checked = _json(cli(root, "check", "--json"))["data"]
    assert len(checked) == WRITERS * PER_WRITER
    assert {item["id"] for item in checked} == set(out.acked)
    assert {item["status"] for item in checked} == {"active"}

    found = _json(cli(root, "recall", SHARED_TAG, "--budget", "100000", "--limit", "50", "--json"))
    assert found["meta"]["completeness"]["matched"] == WRITERS * PER_WRITER
    assert {item["id"] for item in found["data"]["items"]} <= set(out.acked)

    # the search index holds each memory once, however many processes synced it at the same time
    t = Tether(root)
    t.memindex.sync()
    rows = t.memindex.conn.execute("SELECT id, count(*) FROM mems GROUP BY id").fetchall()
    t.close()
    assert len(rows) == WRITERS * PER_WRITER and {n for _, n in rows} == {1}


def test_concurrent_identical_remembers_store_it_once(tmp_path):
    root = tmp_path / "repo"
    make_repo(root, 1, 10)
    lines = race(root, "remember", "src/mod0.py::fn_0_0")
    assert sum(line.startswith("ACK remember") for line in lines) == 1
    assert sum(line.startswith("ERR duplicate") for line in lines) == 7
    assert len(list((root / ".tether" / "memories").glob("*.md"))) == 1


def test_concurrent_supersedes_of_one_memory_leave_one_successor(tmp_path):
    root = tmp_path / "repo"
    make_repo(root, 1, 10)
    first = _json(
        cli(root, "remember", "The retry loop gives up after 5 attempts.", "--anchor", "src/mod0.py::fn_0_0", "--json")
    )["data"]["id"]
    lines = race(root, "supersede", first)
    wins = [line.split() for line in lines if line.startswith("ACK supersede")]
    assert len(wins) == 1
    assert sum(line.startswith("ERR conflict") for line in lines) == 7
    successor = wins[0][3]
    assert [item["id"] for item in _json(cli(root, "check", "--json"))["data"]] == [successor]
    chain = _json(cli(root, "history", successor, "--json"))["data"]
    assert [m["id"] for m in chain] == [first, successor]


def test_concurrent_index_runs_on_a_fresh_cache_agree_with_a_sequential_one(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    make_repo(root, 30, 30)  # 10 files, 900 functions: enough work for the runs to overlap
    for i in range(120):  # and enough files for the parallel (process pool) path
        (root / "pkg" / f"m{i // 40}").mkdir(parents=True, exist_ok=True)
        (root / "pkg" / f"m{i // 40}" / f"f{i}.py").write_text(
            f"def g{i}(a):\n    return a * {i} + {i * 7}\n\n\nclass C{i}:\n    def h(self):\n        return {i}\n",
            encoding="utf-8",
        )
    runs = [
        subprocess.Popen(
            [sys.executable, "-m", "tether", "--root", str(root), "index", "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(6)
    ]
    for p in runs:
        stdout, stderr = p.communicate(timeout=300)
        assert p.returncode == 0, stdout + stderr
        assert orjson.loads(stdout)["data"]["files"] == 130

    def table(home: Path) -> list[tuple]:
        monkeypatch.setenv("TETHER_HOME", str(home))
        t = Tether(root)
        try:
            files = t.index.conn.execute("SELECT path, hash, language, skipped FROM files ORDER BY path").fetchall()
            symbols = t.index.conn.execute(
                "SELECT path, qualname, hash FROM symbols ORDER BY path, start_byte"
            ).fetchall()
        finally:
            t.close()
        return files + symbols

    concurrent = table(Path(os.environ["TETHER_HOME"]))
    fresh = tmp_path / "fresh-home"
    monkeypatch.setenv("TETHER_HOME", str(fresh))
    assert _json(cli(root, "index", "--json"))["data"]["files"] == 130
    assert concurrent == table(fresh)
    assert cache_dir(root).is_relative_to(fresh)  # the comparison really read two separate caches


def test_memories_sharing_a_slug_and_an_id_prefix_never_share_a_file(tmp_path):
    """File names carry 8 hex digits of the id: at 10,000 memories with one slug, two collide with
    a chance of about 1%. The second gets the full id instead of overwriting the first."""
    root = tmp_path / "repo"
    make_repo(root, 1, 10)
    t = Tether(root)
    first = t.remember("The pool is sized for the batch.", ["src/mod0.py::fn_0_0"])
    twin = first.evolve(id=first.id[:9] + "0000-0000-000000000000", filename=None)
    written = t.store.write(twin)
    t.close()
    assert written.filename != first.filename and written.filename.endswith(f"--{twin.id}.md")
    assert {m.id for m in Tether(root).memories()[0]} == {first.id, twin.id}


def _open_cache(path: str, barrier, results) -> None:
    from tether.index import db

    barrier.wait()
    try:
        db.connect(path).execute("SELECT count(*) FROM files").fetchone()
        results.put("ok")
    except Exception as e:  # noqa: BLE001 - the test reports whatever went wrong
        results.put(repr(e))


def test_processes_opening_a_new_cache_at_once_all_get_it(tmp_path):
    """A session start opens the cache from several processes (hooks, the MCP server, a CLI). The
    switch to WAL takes the only lock on the file, and SQLite refuses it at once, without
    waiting, while a neighbour reads: 'database is locked' killed a writer under load."""
    import multiprocessing as mp

    ctx = mp.get_context("fork" if "fork" in mp.get_all_start_methods() else "spawn")
    failures = []
    for round_ in range(25):
        path, n = str(tmp_path / f"c{round_}" / "cache.sqlite"), 10
        barrier, results = ctx.Barrier(n), ctx.Queue()
        procs = [ctx.Process(target=_open_cache, args=(path, barrier, results)) for _ in range(n)]
        for p in procs:
            p.start()
        outcomes = [results.get(timeout=60) for _ in procs]
        for p in procs:
            p.join(timeout=60)
        failures += [o for o in outcomes if o != "ok"]
    assert failures == []
