"""A hook cannot wait for the first index of a large repository: a sweep stops at its deadline,
keeps what it parsed, and an anchor whose new place it did not get to is `search_incomplete`
(stale: never served as current, never called deleted); the next sweep with the time finishes."""

from __future__ import annotations

import time
from contextlib import contextmanager

import orjson
import pytest
from hooktools import RELATED, billing_repo, context_of, failures, hook_env, payload, run_hook

from tether.index import db
from tether.index.code_index import CodeIndex
from tether.index.parallel import PARALLEL_THRESHOLD

FILES = "SELECT path, size, hash, language, skipped FROM files ORDER BY path"
SYMBOLS = "SELECT path, qualname, discriminator, start_byte, end_byte, hash FROM symbols ORDER BY path, start_byte"
SESSION = "5c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"

SCAN = """\
class Scanner:
    def scan(self, rows):
        # shared hosts kill requests that run longer than 30 s: 50 rows stay well under
        for start in range(0, len(rows), 50):
            batch = rows[start:start + 50]
            self.sink.write([r.encode("utf-8") for r in batch if r.strip()])
        return len(rows)
"""


def _index_finished(root, within_s: float = 120.0) -> bool:
    """Wait for a background index of `root` to complete the index and exit."""
    from tether.files.paths import cache_dir
    from tether.index import background

    end = time.monotonic() + within_s
    while time.monotonic() < end:
        conn = db.connect(cache_dir(root) / "cache.sqlite")
        try:
            done = CodeIndex(root, conn).indexed_at() is not None
        finally:
            conn.close()
        if done and not background.running(root):
            return True
        time.sleep(0.1)
    return False


@pytest.fixture(autouse=True)
def no_indexer_left_behind(repo):
    """A test whose hook started a background index waits for it: no process outlives its test."""
    from tether.index import background

    yield
    end = time.monotonic() + 120
    while background.running(repo.path) and time.monotonic() < end:
        time.sleep(0.1)


def _filler(repo, n: int) -> None:
    for i in range(n):
        repo.write(
            f"pkg/mod{i:03d}.py",
            f"def f{i}(x):\n    return [x * {i} + k for k in range({i % 7 + 2})]\n\n\nLIMIT_{i} = {i}\n",
        )


def _sweep(root, cache, **kw) -> tuple[dict, list, list]:
    conn = db.connect(cache)
    try:
        done = CodeIndex(root, conn).sweep(**kw)
        return done, conn.execute(FILES).fetchall(), conn.execute(SYMBOLS).fetchall()
    finally:
        conn.close()


@pytest.mark.parametrize("workers", [1, 2])
def test_a_sweep_past_its_deadline_parses_nothing_and_the_next_one_indexes_everything(repo, tmp_path, workers):
    _filler(repo, PARALLEL_THRESHOLD + 40)
    repo.commit()
    cache = tmp_path / "cache.sqlite"
    done, files, _ = _sweep(repo.path, cache, workers=workers, deadline=time.monotonic())
    assert (done["complete"], done["parsed"], files) == (0, 0, [])
    conn = db.connect(cache)
    assert CodeIndex(repo.path, conn).indexed_at() is None  # no sweep has seen every file yet
    conn.close()
    done, files, symbols = _sweep(repo.path, cache, workers=workers)
    assert (done["complete"], done["parsed"], len(files)) == (1, PARALLEL_THRESHOLD + 40, PARALLEL_THRESHOLD + 40)
    assert (files, symbols) == _sweep(repo.path, tmp_path / "reference.sqlite", workers=1)[1:]


def test_a_sweep_cut_short_keeps_what_it_parsed_for_the_next_one(repo, tmp_path):
    body = "".join(f"\n\ndef g{k}(rows, n={k}):\n    return [r.strip() * n for r in rows if r]\n" for k in range(40))
    for i in range(600):
        repo.write(f"pkg/big{i:03d}.py", f"# module {i}\n{body}")
    repo.commit()
    time.sleep(2.1)  # rows of files changed within the racy window are read again (files/stamps.py: 2 s at most)
    cache = tmp_path / "cache.sqlite"
    first, files, _ = _sweep(repo.path, cache, workers=2, deadline=time.monotonic() + 0.3)
    assert len(files) == first["parsed"] <= 600
    second, files, symbols = _sweep(repo.path, cache, workers=2)
    # whatever the first got through is not parsed again, and nothing is missing afterwards
    assert (second["complete"], second["parsed"], len(files)) == (1, 600 - first["parsed"], 600)
    assert (files, symbols) == _sweep(repo.path, tmp_path / "reference.sqlite", workers=2)[1:]


def _moved_memory(repo) -> str:
    repo.write("src/scanner.py", SCAN)
    _filler(repo, PARALLEL_THRESHOLD + 40)
    repo.commit()
    mid = repo.remember(
        "Batch size is 50 because shared hosts kill requests that run longer than 30 s.", "src/scanner.py::Scanner.scan"
    )
    repo.move("src/scanner.py", "src/ingest/scanner_v2.py")
    repo.commit("move the scanner")
    return mid


def test_a_hook_out_of_sweep_time_calls_a_moved_anchor_search_incomplete_and_check_follows_it(
    repo, tmp_path, tether_home
):
    mid = _moved_memory(repo)
    data = payload("session_start_startup.json", session=SESSION, repo=str(repo.path), transcript="")
    proc = run_hook(
        "SessionStart", data, hook_env(tmp_path, repo.path, TETHER_HOOK_SWEEP_S="0"), matcher_subject="startup"
    )
    assert proc.returncode == 0
    assert "1 memory anchored to this repository's code (1 stale)" in context_of(proc)
    assert failures(tether_home, tmp_path / "plugin-data") == []  # answered in time: no HookTimeout
    item = repo.check()[mid]  # the CLI sweeps without a deadline: the move is found
    assert (item["status"], item["anchors"][0]["path"]) == ("active", "src/ingest/scanner_v2.py")


def test_the_prompt_hook_never_pushes_a_memory_whose_search_it_could_not_finish(repo, tmp_path, tether_home):
    ids = billing_repo(repo)
    repo.move("src/billing.py", "src/invoicing/billing_v2.py")
    repo.commit("move billing")
    time.sleep(2.1)  # files changed in the last 2 s are always re-read: the sweep would not be empty
    data = payload("user_prompt_submit.json", session=SESSION, repo=str(repo.path), transcript="", prompt=RELATED)
    quiet = run_hook("UserPromptSubmit", data, hook_env(tmp_path, repo.path, TETHER_HOOK_SWEEP_S="0"))
    assert (quiet.returncode, quiet.stdout) == (0, b"")
    assert failures(tether_home, tmp_path / "plugin-data") == []
    assert _index_finished(repo.path)  # the hook left the rest of the index to a background process
    pushed = run_hook("UserPromptSubmit", data.replace(SESSION.encode(), b"s2"), hook_env(tmp_path, repo.path))
    assert f'id="{ids["total"][:8]}"' in context_of(pushed)
    assert "src/invoicing/billing_v2.py::invoice_total" in context_of(pushed)


def test_check_says_search_incomplete_only_for_anchors_that_needed_the_sweep(repo, tmp_path):
    from tether.service import Tether

    mid = _moved_memory(repo)
    repo.write("src/keep.py", "def keep(rows):\n    return sorted(r for r in rows if r)\n")
    repo.commit()
    kept = repo.remember("Rows are sorted for stable diffs in the nightly report.", "src/keep.py::keep")
    t = Tether(repo.path)
    try:
        by_id = {v.memory.id: v for v in t.check(deadline=time.monotonic()).verdicts}
    finally:
        t.close()
    assert (by_id[kept].status, by_id[kept].reason) == ("active", None)
    moved = by_id[mid]
    assert (moved.status, moved.reason) == ("stale", "search_incomplete")
    assert moved.anchors[0][1].path == "src/scanner.py"  # not re-pointed on a partial index
    item = repo.check()[mid]  # the CLI sweeps to the end: the move is found
    assert (item["status"], item["anchors"][0]["path"]) == ("active", "src/ingest/scanner_v2.py")


async def _mcp_calls(repo, tmp_path, sweep_s: str | None, calls: list[tuple[str, dict]]) -> list[dict]:
    import os
    import sys

    import orjson
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters, stdio_client

    env = {"TETHER_HOME": os.environ["TETHER_HOME"]}
    if sweep_s is not None:
        env["TETHER_MCP_SWEEP_S"] = sweep_s
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "tether", "--root", str(repo.path), "mcp"], env=env, cwd=str(tmp_path)
    )
    out = []
    with open(tmp_path / "server-stderr.log", "w") as errlog:
        async with Client(stdio_client(params, errlog=errlog)) as client:
            for tool, args in calls:
                res = await client.call_tool(tool, args)
                assert not res.is_error, res.content[0].text
                out.append(orjson.loads(res.content[0].text))
    return out


def test_mcp_read_tools_answer_at_their_deadline_and_the_next_call_finishes(repo, tmp_path):
    import asyncio

    mid = _moved_memory(repo)
    task = {"task": "why is the scanner batch size 50 rows?", "files": ["src/ingest/scanner_v2.py"]}
    recalled, checked = asyncio.run(_mcp_calls(repo, tmp_path, "0", [("recall", task), ("check", {"ids": [mid]})]))
    assert [m["id"] for m in recalled["data"]["items"]] == []  # never served as current
    assert [(m["id"], m["reason"]) for m in recalled["data"]["stale"]] == [(mid, "search_incomplete")]
    (item,) = checked["data"]
    # the background index the recall started may already be done by the next call (a small
    # repository): then the check follows the move; never is the old place served as current
    assert (item["status"], item["reason"], item["anchors"][0]["path"]) in (
        ("stale", "search_incomplete", "src/scanner.py"),
        ("active", None, "src/ingest/scanner_v2.py"),
    )
    assert _index_finished(repo.path)  # the server left the rest to a background index
    (checked,) = asyncio.run(_mcp_calls(repo, tmp_path, None, [("check", {"ids": [mid]})]))
    (item,) = checked["data"]
    assert (item["status"], item["anchors"][0]["path"]) == ("active", "src/ingest/scanner_v2.py")


def test_a_hook_that_ran_out_of_time_leaves_the_index_to_finish_in_the_background(repo, tmp_path, tether_home):
    ids = billing_repo(repo)
    _filler(repo, PARALLEL_THRESHOLD + 40)
    repo.move("src/billing.py", "src/invoicing/billing_v2.py")
    repo.commit("move billing")
    time.sleep(2.1)  # rows of files changed within the racy window are read again (files/stamps.py: 2 s at most)
    start = payload("session_start_startup.json", session=SESSION, repo=str(repo.path), transcript="")
    env = hook_env(tmp_path, repo.path, TETHER_HOOK_SWEEP_S="0")
    assert "(2 stale)" in context_of(run_hook("SessionStart", start, env, matcher_subject="startup"))
    # nothing else runs tether here: only the background index can complete it
    assert _index_finished(repo.path)
    assert failures(tether_home, tmp_path / "plugin-data") == []
    # still no time to sweep, and no need: the prompt hook finds the move in the finished index
    data = payload("user_prompt_submit.json", session=SESSION, repo=str(repo.path), transcript="", prompt=RELATED)
    pushed = run_hook("UserPromptSubmit", data, env)
    assert f'id="{ids["total"][:8]}"' in context_of(pushed)
    assert "src/invoicing/billing_v2.py::invoice_total" in context_of(pushed)


@contextmanager
def _background_index_running(root):
    """Hold the repository's indexing lock, as a running background index does."""
    import fcntl
    import os

    from tether.files.paths import cache_dir
    from tether.index.background import LOCK_NAME

    lock = cache_dir(root) / LOCK_NAME
    lock.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(lock, os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    try:
        yield
    finally:
        os.close(fd)


def _files_indexed(root) -> int:
    from tether.files.paths import cache_dir

    conn = db.connect(cache_dir(root) / "cache.sqlite")
    try:
        return conn.execute("SELECT count(*) FROM files").fetchone()[0]
    finally:
        conn.close()


def test_while_a_background_index_runs_a_hook_does_not_sweep_and_answers_at_once(repo, tmp_path, tether_home):
    _moved_memory(repo)
    with _background_index_running(repo.path):
        data = payload("session_start_startup.json", session=SESSION, repo=str(repo.path), transcript="")
        proc = run_hook(
            "SessionStart", data, hook_env(tmp_path, repo.path, TETHER_HOOK_SWEEP_S="20"), matcher_subject="startup"
        )
        assert "(1 stale)" in context_of(proc)
        assert _files_indexed(repo.path) <= 1  # nothing was swept: only the anchored file was looked at
    assert failures(tether_home, tmp_path / "plugin-data") == []
    item = repo.check()[_first_id(repo)]
    assert (item["status"], item["anchors"][0]["path"]) == ("active", "src/ingest/scanner_v2.py")


def test_a_check_that_must_sweep_waits_for_a_running_background_index_instead_of_parsing_beside_it(repo):
    import subprocess
    import sys

    mid = _moved_memory(repo)
    with _background_index_running(repo.path):
        proc = subprocess.Popen(
            [sys.executable, "-m", "tether", "--root", str(repo.path), "check", "--json"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        time.sleep(2.0)
        waiting = proc.poll() is None
        parsed = _files_indexed(repo.path)
    out, err = proc.communicate(timeout=120)
    assert waiting and parsed <= 1, err  # it did not sweep the repository while the lock was held
    item = {i["id"]: i for i in orjson.loads(out)["data"]}[mid]
    assert (item["status"], item["anchors"][0]["path"]) == ("active", "src/ingest/scanner_v2.py")


def _first_id(repo) -> str:
    return repo.json("ls")["data"][0]["id"]


def test_a_background_index_that_fails_exits_0_and_says_why_where_doctor_looks(repo, tmp_path, tether_home):
    import os
    import subprocess
    import sys

    from hooktools import ROOT

    gone = tmp_path / "deleted-checkout"
    env = {**os.environ, "PYTHONPATH": str(ROOT / "server"), "CLAUDE_PLUGIN_DATA": str(tmp_path / "plugin-data")}
    proc = subprocess.run(
        [sys.executable, "-m", "tether.index.background", str(gone)], env=env, capture_output=True, timeout=60
    )
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    (entry,) = failures(tether_home, tmp_path / "plugin-data")
    assert (entry["event"], entry["code"]) == ("BackgroundIndex", "invalid_input") and str(gone) in entry["message"]


def test_the_mcp_server_parses_many_changed_files_on_all_cores_within_its_deadline(repo, tmp_path):
    """Found by the CI run: forking a worker pool from the MCP server (whose transport runs threads) could
    copy a held lock into the children, which then waited until the call's deadline: `search_incomplete`."""
    import asyncio

    repo.write("src/scanner.py", SCAN)
    repo.commit()
    mid = repo.remember("Batch size is 50 because shared hosts kill long requests.", "src/scanner.py::Scanner.scan")
    repo.move("src/scanner.py", "src/ingest/scanner_v2.py")  # the check must sweep to find it
    _filler(repo, PARALLEL_THRESHOLD + 40)  # new since the last sweep: parsed in a worker pool
    (checked,) = asyncio.run(_mcp_calls(repo, tmp_path, "60", [("check", {"ids": [mid]})]))
    (item,) = checked["data"]
    assert (item["status"], item["anchors"][0]["path"]) == ("active", "src/ingest/scanner_v2.py")
    assert checked["meta"]["freshness"]["swept"] is True
    assert checked["meta"]["freshness"]["dirty"] >= PARALLEL_THRESHOLD + 40
