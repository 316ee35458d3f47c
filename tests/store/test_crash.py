"""A writer killed with SIGKILL at any point: nothing acknowledged is lost, nothing half-written is read.

The crash driver (tests/stress.py) does random remember / supersede / retire / reanchor / sweep /
recall and prints `ACK ...` only after a call returned. Two kinds of real kills: the parent's SIGKILL
after a random delay (lands in SQLite transactions, fsyncs, parsing, anywhere), and the driver's own
SIGKILL right before a chosen os.replace (a complete temp file not yet renamed; a supersede whose
successor is written and whose predecessor is not yet closed).
"""

from __future__ import annotations

import shutil
import signal

import orjson
from stress import cli, driver, make_repo, run_crashes

from tether.files.paths import cache_dir
from tether.service import Tether
from tether.store import memory

ROUNDS = 60


def _json(proc) -> dict:
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return orjson.loads(proc.stdout)


def test_sigkill_at_random_points_loses_nothing_acknowledged(tmp_path):
    root = tmp_path / "repo"
    make_repo(root, 2, 20)
    out = run_crashes(root, ROUNDS, seed=7)

    assert out.violations == []  # verified after every round: see tests/stress.py verify()
    assert out.rounds == ROUNDS and out.external >= 40 and out.targeted >= 20
    assert sum(out.in_flight.values()) >= ROUNDS // 2  # most kills landed inside an operation
    assert {"remember", "supersede", "retire"} <= set(out.acked)
    assert out.interrupted  # a supersede was cut between its two writes, and the store stayed consistent

    # no partial file is ever a memory: every .md parses; leftovers are dot-named temp files
    d = root / ".tether" / "memories"
    for p in d.iterdir():
        assert p.suffix == ".md" or p.name.startswith(".tmp-"), p.name
        if p.suffix == ".md":
            memory.loads(p.read_bytes(), p.name)
    t = Tether(root)
    mems = t.memories()[0]
    live = {m.id for m in mems}
    t.close()

    # the CLI works on the cache the kills left, and on one rebuilt from nothing
    assert {item["id"] for item in _json(cli(root, "check", "--json"))["data"]} == live
    shutil.rmtree(cache_dir(root))
    assert {item["id"] for item in _json(cli(root, "check", "--json"))["data"]} == live
    found = _json(cli(root, "recall", mems[0].summary, "--json"))["data"]
    assert mems[0].id in {i["id"] for i in found["items"] + found["stale"]}


def test_supersede_killed_between_its_two_writes_leaves_one_current_version(tmp_path):
    root = tmp_path / "repo"
    make_repo(root, 1, 10)
    old = _json(
        cli(
            root,
            "remember",
            "The cache is warmed at startup by the loader.",
            "--anchor",
            "src/mod0.py::fn_0_0",
            "--json",
        )
    )["data"]["id"]
    p = driver("crasher", str(root), "1", "supersede:2")  # dies right before closing the old memory
    stdout, _ = p.communicate(timeout=120)
    assert p.returncode == -signal.SIGKILL
    assert "ACK" not in stdout

    files = {
        memory.loads(p.read_bytes(), p.name).id: memory.loads(p.read_bytes(), p.name)
        for p in (root / ".tether" / "memories").glob("*.md")
    }
    assert len(files) == 2
    new = next(m for m in files.values() if m.id != old)
    assert new.links == {"supersedes": [old]} and new.live
    assert files[old].live  # the interruption really happened: the old file was never closed

    t = Tether(root)
    assert [m.id for m in t.memories()[0]] == [new.id]  # ...yet it counts as closed everywhere
    assert [m.id for m in t.history(new.id)] == [old, new.id]
    t.close()
    assert [item["id"] for item in _json(cli(root, "check", "--json"))["data"]] == [new.id]
    assert {i["id"]: i["live"] for i in _json(cli(root, "ls", "--all", "--json"))["data"]} == {old: False, new.id: True}
    assert any(line.startswith(f"superseded  {old[:8]}") for line in cli(root, "ls", "--all").stdout.splitlines())
    found = _json(cli(root, "recall", "cache warmed startup loader", "--json"))
    assert old not in {i["id"] for i in found["data"]["items"] + found["data"]["stale"]}
    for cmd in (["supersede", old, "Another version."], ["retire", old, "--reason", "gone"]):
        err = orjson.loads(cli(root, *cmd, "--json").stdout)["error"]
        assert err["code"] == "conflict" and "superseded" in err["message"]


def test_a_corrupt_cache_is_rebuilt_and_leftover_temp_files_are_ignored(tmp_path):
    root = tmp_path / "repo"
    make_repo(root, 1, 10)
    mid = _json(cli(root, "remember", "Loader warms the cache.", "--anchor", "src/mod1.py::fn_0_1", "--json"))["data"][
        "id"
    ]
    d = root / ".tether" / "memories"
    text = next(d.glob("*.md")).read_bytes()
    (d / ".tmp-half").write_bytes(text[: len(text) // 2])  # what a kill mid-write leaves: never renamed
    (d / ".tmp-empty").write_bytes(b"")
    db = cache_dir(root) / "cache.sqlite"
    db.write_bytes(b"\x00garbage" * 4096)
    (cache_dir(root) / "cache.sqlite-wal").write_bytes(b"\xffnot a wal" * 100)

    env = _json(cli(root, "check", "--json"))
    assert [item["id"] for item in env["data"]] == [mid]
    assert env["meta"].get("quarantined", []) == []
    assert _json(cli(root, "recall", "loader warms cache", "--json"))["meta"]["completeness"]["matched"] == 1


def test_temp_files_left_by_a_killed_writer_are_cleared_once_stale(repo):
    """A SIGKILL between mkstemp and os.replace leaves a .tmp- file; the next write an hour later
    sweeps it. Reads never delete anything, and a file of that name that git tracks stays."""
    import os
    import time

    repo.write("a.py", "def f(x):\n    return [i * x for i in range(10) if i % 3]\n")
    repo.remember("f skips multiples of three on purpose.", "a.py")
    mem_dir = repo.path / ".tether" / "memories"
    old, fresh, tracked = mem_dir / ".tmp-abandon1", mem_dir / ".tmp-inflight", mem_dir / ".tmp-tracked1"
    for p in (old, fresh, tracked):
        p.write_bytes(b"---\n{half")
    repo.git("add", "-f", str(tracked))
    repo.git("commit", "-q", "-m", "someone committed a temp-named file")
    hour_ago = time.time() - 3700
    for p in (old, tracked):
        os.utime(p, (hour_ago, hour_ago))
    assert len(repo.check()) == 1
    assert old.exists(), "a read deleted a file"
    repo.remember("f is pure: it never mutates x.", "a.py")
    assert not old.exists() and fresh.exists() and tracked.exists()
