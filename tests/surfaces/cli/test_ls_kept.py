"""`ls` and SessionStart keep what a listing decided (service/listing.py), so an unchanged store of
10,000 memories is not resolved again. What a user must never notice is the keeping: every edit,
move, deletion or revert, and every hand edit to a memory file, shows on the very next listing,
and a listing taken from what was kept says exactly what a fresh one says."""

from __future__ import annotations

import json
import os
import sqlite3
import time

import pytest

from tests.hooktools import context_of, hook_env, payload, run_hook

FEES = (
    "def fee(amount):\n    return round(amount * 0.029 + 0.30, 2)\n\n\n"
    "def tax(amount, region):\n"
    '    rates = {"eu": 0.2, "uk": 0.2, "us": 0.0725}\n'
    "    return round(amount * rates.get(region, 0.0), 2)\n"
)
RACY_WAIT = 2.2  # files/stamps.py: a stat is kept once it is older than 2 s


@pytest.fixture
def kept(repo):
    repo.write("src/fees.py", FEES)
    repo.write("src/other.py", "def unrelated():\n    return 1\n")
    repo.write("config.yaml", "retries: 3\ntimeout: 30\n")
    repo.commit("fees")
    ids = {
        "fee": repo.remember("Card fees are 2.9% plus 30 cents, rounded to cents.", "src/fees.py::fee"),
        "tax": repo.remember("Tax is a flat 20% for every region we bill.", "src/fees.py::tax"),
        "config": repo.remember("Three retries: the gateway rate-limits a fourth.", "config.yaml"),
    }
    time.sleep(RACY_WAIT)
    first = _ls(repo)  # this listing resolves every memory and keeps the verdicts
    assert _kept_rows(repo) == 1, "the listing kept nothing: these tests would not test the kept path"
    assert {m["status"] for m in first["data"]} == {"active"}
    repo.ids = ids  # type: ignore[attr-defined]
    return repo


def _ls(repo, *args: str) -> dict:
    return repo.json("ls", *args)


def _by_id(listing: dict) -> dict[str, dict]:
    return {m["id"]: m for m in listing["data"]}


def _cache(repo) -> sqlite3.Connection:
    from tether.files.paths import cache_dir

    return sqlite3.connect(cache_dir(repo.path.resolve()) / "cache.sqlite")


def _kept_rows(repo) -> int:
    with _cache(repo) as conn:
        return conn.execute("SELECT count(*) FROM verdicts_kept").fetchone()[0]


def _same_size_edit_keeping_mtime(path, old: str, new: str) -> None:
    """The sneakiest edit: same length, mtime set back as `rsync -t` or `touch -r` would."""
    st = path.stat()
    text = path.read_text()
    assert len(old) == len(new) and old in text
    path.write_text(text.replace(old, new))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert path.stat().st_size == st.st_size and path.stat().st_mtime_ns == st.st_mtime_ns


def test_an_edit_after_a_kept_listing_is_stale_on_the_next_one_and_a_revert_heals_it(kept):
    _same_size_edit_keeping_mtime(kept.path / "src/fees.py", "0.029", "0.031")
    now = _by_id(_ls(kept))
    assert now[kept.ids["fee"]]["status"] == "stale"
    assert now[kept.ids["fee"]]["reason"] == "body_edited"
    assert now[kept.ids["tax"]]["status"] == "active"  # same file, its own body unchanged
    assert now[kept.ids["config"]]["status"] == "active"
    time.sleep(RACY_WAIT)
    assert _by_id(_ls(kept))[kept.ids["fee"]]["status"] == "stale"  # the stale verdict, kept, still stale
    (kept.path / "src/fees.py").write_text(FEES)
    assert _by_id(_ls(kept))[kept.ids["fee"]]["status"] == "active"


def test_a_file_anchor_edited_is_stale_and_deleted_is_invalidated_then_heals(kept):
    (kept.path / "config.yaml").write_text("retries: 4\ntimeout: 30\n")
    assert _by_id(_ls(kept))[kept.ids["config"]]["reason"] == "file_edited"
    (kept.path / "config.yaml").unlink()
    gone = _by_id(_ls(kept))[kept.ids["config"]]
    assert (gone["status"], gone["reason"]) == ("invalidated", "anchor_deleted")
    time.sleep(RACY_WAIT)
    assert _by_id(_ls(kept))[kept.ids["config"]]["status"] == "invalidated"  # searched for again, not kept
    (kept.path / "config.yaml").write_text("retries: 3\ntimeout: 30\n")
    assert _by_id(_ls(kept))[kept.ids["config"]]["status"] == "active"


def test_a_function_moved_to_another_file_is_followed_and_moved_back_is_in_place(kept):
    fees = kept.path / "src/fees.py"
    fees.write_text(FEES.split("\n\n\ndef tax")[0] + "\n")
    (kept.path / "src/other.py").write_text("def unrelated():\n    return 1\n\n\n" + FEES.split("\n\n\n")[1])
    moved = _by_id(_ls(kept))[kept.ids["tax"]]
    assert moved["status"] == "active"
    assert moved["anchors"][0]["path"] == "src/other.py" and moved["anchors"][0]["was"] == "src/fees.py::tax"
    time.sleep(RACY_WAIT)
    assert _by_id(_ls(kept))[kept.ids["tax"]]["anchors"][0]["path"] == "src/other.py"
    fees.write_text(FEES)
    (kept.path / "src/other.py").write_text("def unrelated():\n    return 1\n")
    back = _by_id(_ls(kept))[kept.ids["tax"]]
    assert back["status"] == "active" and back["anchors"][0]["path"] == "src/fees.py"
    assert "was" not in back["anchors"][0]


def test_a_hand_edit_to_a_memory_file_shows_on_the_next_listing(kept):
    f = next((kept.path / ".tether/memories").glob("*.md"))
    text = f.read_text()
    st = f.stat()
    summary = json.loads(text.split("---\n")[1])["summary"]
    changed = summary.replace("a", "o", 1)  # same length, mtime set back
    f.write_text(text.replace(summary, changed, 1))
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert changed in {m["summary"] for m in _ls(kept)["data"]}
    assert summary not in {m["summary"] for m in _ls(kept)["data"]}


def test_a_kept_listing_says_what_a_fresh_one_says(kept):
    kept.remember("Tax rounds per line, not per invoice.", "src/fees.py::tax", kind="gotcha")
    old = kept.ids["config"]
    kept.run("supersede", old, "Four retries now: the gateway raised its limit.", "--anchor", "config.yaml")
    (kept.path / "src/fees.py").write_text(FEES.replace("0.0725", "0.0825"))
    time.sleep(RACY_WAIT)
    for args in ((), ("--all",), ("--kind", "gotcha")):
        fresh = _ls(kept, *args)  # resolves what changed, keeps it
        again = _ls(kept, *args)  # from what was kept
        with _cache(kept) as conn:
            conn.execute("DELETE FROM verdicts_kept")
        cold = _ls(kept, *args)  # nothing kept: every memory resolved
        for a in (fresh, again, cold):
            a["meta"].pop("freshness")
        assert fresh == again == cold, args
        text = kept.run("ls", *args).stdout
        assert text == kept.run("ls", *args).stdout
    statuses = {m["id"]: m["status"] for m in _ls(kept, "--all")["data"]}
    assert statuses[old] == "superseded" and statuses[kept.ids["tax"]] == "stale"


def test_a_damaged_kept_row_is_listed_afresh(kept):
    with _cache(kept) as conn:
        conn.execute("UPDATE verdicts_kept SET value=?", (b"\x00garbage" * 100,))
    (kept.path / "src/fees.py").write_text(FEES.replace("0.0725", "0.0625"))
    got = _by_id(_ls(kept))
    assert got[kept.ids["tax"]]["status"] == "stale" and got[kept.ids["fee"]]["status"] == "active"


def test_session_start_counts_an_edit_made_after_a_kept_listing(kept, tmp_path):
    env = hook_env(tmp_path, kept.path)
    data = payload("session_start_startup.json", session="s-kept", repo=str(kept.path), transcript="")
    assert "(0 stale)" in context_of(run_hook("SessionStart", data, env, matcher_subject="startup"))
    _same_size_edit_keeping_mtime(kept.path / "src/fees.py", "0.0725", "0.0735")
    line = context_of(run_hook("SessionStart", data, env, matcher_subject="startup"))
    assert "3 memories" in line and "(1 stale)" in line


def test_a_copied_memory_file_is_quarantined_as_a_duplicate_and_the_rest_still_listed(kept):
    src = next((kept.path / ".tether/memories").glob("*.md"))
    (src.parent / "copy-of-it.md").write_bytes(src.read_bytes())
    got = _ls(kept)
    assert len(got["data"]) == 3
    assert [q["reason"] for q in got["meta"]["quarantined"]] == ["duplicate_id"]
    (kept.path / "src/fees.py").write_text(FEES.replace("0.0725", "0.0625"))
    assert _by_id(_ls(kept))[kept.ids["tax"]]["status"] == "stale"


def test_a_closed_memory_listed_with_all_sees_an_edit_made_while_only_live_ones_were_listed(kept):
    """A retired memory's verdict is kept by `ls --all`; plain `ls` does not list it, but re-resolves
    the live memory on the same file after an edit: the retired one's kept verdict must go with it."""
    kept.run("retire", kept.ids["fee"], "--reason", "fees moved to the billing service")
    time.sleep(RACY_WAIT)
    assert _by_id(_ls(kept, "--all"))[kept.ids["fee"]]["anchors"][0]["status"] == "active"
    _same_size_edit_keeping_mtime(kept.path / "src/fees.py", "0.029", "0.031")
    assert _by_id(_ls(kept))[kept.ids["tax"]]["status"] == "active"  # the live one, on the edited file
    time.sleep(RACY_WAIT)
    assert _by_id(_ls(kept))[kept.ids["tax"]]["status"] == "active"  # keeps the file's new stamp
    retired = _by_id(_ls(kept, "--all"))[kept.ids["fee"]]
    assert retired["status"] == "retired"
    assert (retired["anchors"][0]["status"], retired["anchors"][0]["reason"]) == ("stale", "body_edited")
