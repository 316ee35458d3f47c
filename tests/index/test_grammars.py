"""A cache built with other grammars: new tree-sitter grammars can parse, and so hash, a symbol
differently, and the code index must not keep the old hashes until each file changes (a warm
answer unlike a cold one). The installed grammars are recorded beside the index; when they differ,
the code index is rebuilt and the memory index (and its vectors) are kept."""

from __future__ import annotations

import sqlite3
import time

from tether.files.paths import cache_dir
from tether.index import db

SRC = "def settle(batch):\n    return sum(x.amount for x in batch)\n"


def _repo_with_a_memory(repo) -> str:
    repo.write("pay.py", SRC)
    repo.commit()
    time.sleep(0.3)  # older than the racy window: the index's rows are trusted from here on
    return repo.remember("settle sums in one pass: the ledger is too big for two", "pay.py::settle")


def _cache(repo) -> sqlite3.Connection:
    return sqlite3.connect(cache_dir(repo.path) / "cache.sqlite", isolation_level=None)


def _as_other_grammars_hashed_it(repo, grammars: str) -> None:
    with _cache(repo) as conn:
        conn.execute("UPDATE symbols SET hash = 'p2:0000' WHERE qualname = 'settle'")
        conn.execute("UPDATE meta SET value = ? WHERE key = 'grammars'", (grammars,))


def test_the_installed_grammars_are_recorded_with_their_versions(repo):
    _repo_with_a_memory(repo)
    with _cache(repo) as conn:
        (recorded,) = conn.execute("SELECT value FROM meta WHERE key = 'grammars'").fetchone()
    assert recorded == db.grammars()
    assert "tree_sitter_language_pack-" in recorded and "tree_sitter-" in recorded


def test_rows_from_other_grammars_are_parsed_again(repo):
    mid = _repo_with_a_memory(repo)
    assert repo.only()["status"] == "active"
    _as_other_grammars_hashed_it(repo, "tree_sitter-0.20.0+tree_sitter_language_pack-0.1.0")
    assert repo.check()[mid]["status"] == "active"  # as a cold cache says
    with _cache(repo) as conn:
        assert conn.execute("SELECT value FROM meta WHERE key = 'grammars'").fetchone() == (db.grammars(),)


def test_rows_from_the_same_grammars_are_trusted(repo):
    """The control: the index's rows are what `check` reads (so the test above could fail)."""
    mid = _repo_with_a_memory(repo)
    assert repo.only()["status"] == "active"
    _as_other_grammars_hashed_it(repo, db.grammars())
    assert repo.check()[mid]["status"] == "stale"


def test_other_grammars_keep_the_memory_index(repo):
    _repo_with_a_memory(repo)
    repo.json("recall", "how does settle sum the ledger")  # builds the memory index
    with _cache(repo) as conn:
        before = conn.execute("SELECT count(*) FROM mems").fetchone()[0]
    _as_other_grammars_hashed_it(repo, "tree_sitter_language_pack-0.1.0")
    with _cache(repo) as conn:
        conn.execute("UPDATE mems SET summary = 'kept'")  # what a rebuild of the memory index would undo
    assert repo.json("recall", "how does settle sum the ledger")["data"]["items"]
    with _cache(repo) as conn:
        assert conn.execute("SELECT count(*) FROM mems WHERE summary = 'kept'").fetchone()[0] == before == 1
