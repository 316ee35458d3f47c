"""limpet's confidence, re-verification, supersession and archival scenarios, re-typed against tether.

Peer: github.com/KSym04/limpet, tests/anchor_golden.rs, tests/refinement.rs, tests/archival.rs,
tests/portability_config.rs. limpet's "reverify" (fresh evidence re-binds a stale memory) is tether's
`reanchor`; limpet's archive is tether's `retire` (no restore); limpet's stored confidence and its
refund on heal are tether's derived confidence (nothing stored, so healing is free). The real CLI and
real git: branches, checkouts, clones.
"""

from __future__ import annotations

import subprocess

import orjson
from conftest import Repo

from .limpet_support import SCORE, SCORE_FACT, anchor_of, recall, recalled_ids, state, stored_anchors, verdict

BODY = "pub fn score(n: u32) -> u32 {\n    let mut t = 3;\n    for i in 1..n {\n        t = t.wrapping_add(i * 7);\n    }\n    t\n}\n"
EDITED = "pub fn score(n: u32) -> u32 {\n    n * 9\n}\n"


def _conf(repo, mid: str) -> tuple[str, str | None, float]:
    item = repo.check()[mid]
    return item["status"], item["reason"], item["confidence"]


def test_a_real_edit_is_stale_with_its_reason_its_diff_and_less_confidence(repo):
    """limpet tests/anchor_golden.rs::real_edit_goes_stale_with_reason_and_confidence_drop — the weights
    change: stale `body_edited`, the diff shows the changed line, confidence 0.8 -> 0.48."""
    repo.write("score.py", SCORE)
    repo.commit("score")
    mid = repo.remember(SCORE_FACT, "score.py::compute_health_score")
    assert _conf(repo, mid) == ("active", None, 0.8)
    repo.replace("score.py", "critical * 10", "critical * 25")
    assert _conf(repo, mid) == ("stale", "body_edited", 0.48)
    diff = anchor_of(repo, mid)["diff"]
    assert "-    return 100 - critical * 10 - (total - critical) * 2" in diff
    assert "+    return 100 - critical * 25 - (total - critical) * 2" in diff


def test_the_stale_penalty_applies_once_and_stays_a_clean_number(repo):
    """limpet tests/anchor_golden.rs::stale_confidence_penalty_applies_once and
    tests/memory_api.rs::penalized_confidence_stays_clean_and_roundtrips — three more edits and repeated
    checks: confidence stays exactly 0.48, never compounds, and reads back identically from JSON."""
    repo.write("s.py", "def f():\n    return 1\n")
    repo.commit("f")
    mid = repo.remember("f returns one", "s.py::f")
    for body in ("return 2", "return 3", "return 4"):
        repo.write("s.py", f"def f():\n    {body}\n")
        assert _conf(repo, mid) == ("stale", "body_edited", 0.48)
    assert [_conf(repo, mid)[2] for _ in range(2)] == [0.48, 0.48]
    raw = repo.run("check", "--json").stdout
    assert '"confidence": 0.48' in raw and orjson.loads(raw)["data"][0]["confidence"] == 0.48


def test_a_stale_memory_with_evidence_is_served_apart_with_its_reverify_command(repo):
    """limpet tests/anchor_golden.rs::verified_fact_gets_reverify_flag_when_stale — a memory carrying the
    command that proves it goes stale: confidence at most 0.5, recall lists it under `stale` (never as
    current) with its reason and that command."""
    repo.write("score.py", SCORE)
    repo.commit("score")
    mid = repo.json(
        "remember",
        "score of 3 criticals and 2 warnings is 66",
        "--anchor",
        "score.py::compute_health_score",
        "--evidence",
        "python -m pytest tests/test_score.py -q",
    )["data"]["id"]
    repo.replace("score.py", "* 2", "* 5")
    status, reason, conf = _conf(repo, mid)
    assert (status, reason) == ("stale", "body_edited") and conf <= 0.5
    out = recall(repo, "health score criticals warnings", "--budget", "2000")
    assert [i["id"] for i in out["data"]["items"]] == []
    (item,) = out["data"]["stale"]
    assert (item["id"], item["status"], item["reason"], item["evidence"]) == (
        mid,
        "stale",
        "body_edited",
        "python -m pytest tests/test_score.py -q",
    )


def test_a_superseded_memory_never_resurrects(repo):
    """limpet tests/anchor_golden.rs::superseded_never_resurrects — the newer memory replaces the old one:
    the old one is closed for good (not checked, listed as superseded, in the history), the new one
    active; more checks change nothing."""
    repo.write("score.py", SCORE)
    repo.commit("score")
    old = repo.remember(SCORE_FACT, "score.py::compute_health_score")
    out = repo.json("supersede", old, "score subtracts twenty five per critical now", "--reason", "weights changed")[
        "data"
    ]
    new = out["current"]["id"]
    for _ in range(2):
        assert list(repo.check()) == [new] and verdict(repo, new) == ("active", None)
    listing = {
        line.split()[1]: line.split()[0] for line in repo.run("ls", "--all").stdout.splitlines() if line[:1].isalpha()
    }
    assert (listing[old[:8]], listing[new[:8]]) == ("superseded", "active")
    assert old[:8] in repo.run("history", new).stdout


def test_a_branch_switch_round_trip_is_confidence_neutral(repo):
    """limpet tests/refinement.rs::a_branch_switch_round_trip_is_confidence_neutral — on a branch the anchored
    body is edited and committed: stale, 0.8 -> 0.48; back on main: active at exactly 0.8."""
    repo.write("a.rs", BODY)
    repo.commit("score")
    mid = repo.remember("score folds every index below n by sevens", "a.rs::score")
    repo.commit("remember the fold")
    repo.git("checkout", "-q", "-b", "rewrite")
    repo.write("a.rs", EDITED)
    repo.commit("rewrite score")
    assert _conf(repo, mid) == ("stale", "body_edited", 0.48)
    repo.git("checkout", "-q", "main")
    assert _conf(repo, mid) == ("active", None, 0.8)


def test_restaling_while_stale_keeps_the_original_confidence_to_return_to(repo):
    """limpet tests/refinement.rs::re_staling_while_stale_keeps_the_original_refund — a second edit while
    already stale, and more checks: still 0.48; the original body back: 0.8."""
    repo.write("a.rs", BODY)
    repo.commit("score")
    mid = repo.remember("score folds every index below n by sevens", "a.rs::score")
    repo.write("a.rs", EDITED)
    assert _conf(repo, mid)[2] == 0.48
    repo.write("a.rs", "pub fn score(n: u32) -> u32 {\n    n + 1\n}\n")
    assert [_conf(repo, mid) for _ in range(2)] == [("stale", "body_edited", 0.48)] * 2
    repo.write("a.rs", BODY)
    assert _conf(repo, mid) == ("active", None, 0.8)


def _verified(repo) -> str:
    repo.write("a.rs", BODY)
    repo.commit("score")
    return repo.json(
        "remember",
        "score's fold is proven by the harness",
        "--anchor",
        "a.rs::score",
        "--verified",
        "--evidence",
        "cargo test score_fold",
    )["data"]["id"]


def test_a_stale_verified_memory_returns_to_its_verified_confidence(repo):
    """limpet tests/refinement.rs::verified_stale_refunds_to_its_verified_confidence — verified 0.95; stale:
    0.95 x 0.6 = 0.57 (DIFFERENCE: limpet floors a stale verified fact at <= 0.5); healed: 0.95 again,
    not the stale value."""
    mid = _verified(repo)
    assert _conf(repo, mid) == ("active", None, 0.95)
    repo.write("a.rs", EDITED)
    assert _conf(repo, mid) == ("stale", "body_edited", 0.57)
    repo.write("a.rs", BODY)
    assert _conf(repo, mid) == ("active", None, 0.95)


def test_a_memory_exported_while_stale_is_whole_on_a_peer_with_the_original_code(repo, tmp_path):
    """limpet tests/refinement.rs::conf_before_stale_travels_the_jsonl_wire — exported while stale here,
    imported where the tree still holds the original body: active there at the full 0.8."""
    repo.write("a.rs", BODY)
    repo.commit("score")
    mid = repo.remember("score folds every index below n by sevens", "a.rs::score")
    repo.write("a.rs", EDITED)
    assert _conf(repo, mid)[0] == "stale"
    export = tmp_path / "export.json"
    repo.run("export", "--out", str(export))
    peer = Repo(tmp_path / "peer")
    peer.write("a.rs", BODY)
    peer.commit("score")
    peer.run("import", str(export))
    assert _conf(peer, mid) == ("active", None, 0.8)


def test_reanchor_returns_a_stale_verified_memory_to_active(repo):
    """limpet tests/refinement.rs::reverify_returns_a_stale_verified_fact_to_active — stale after an edit,
    `reanchor` re-binds it to the code as it is now: active at 0.95, a new hash stored, the next check
    keeps it active, and a further edit is measured from the new body."""
    mid = _verified(repo)
    old_hash = stored_anchors(repo, mid)[0]["hash"]
    repo.write("a.rs", EDITED)
    assert _conf(repo, mid) == ("stale", "body_edited", 0.57)
    out = repo.json("reanchor", mid)["data"]
    assert (out["id"], out["source"], out["evidence"]) == (mid, "verified", {"command": "cargo test score_fold"})
    assert stored_anchors(repo, mid)[0]["hash"] not in (old_hash, None)
    assert _conf(repo, mid) == ("active", None, 0.95)
    assert _conf(repo, mid) == ("active", None, 0.95)
    repo.write("a.rs", EDITED.replace("n * 9", "n * 10"))
    assert _conf(repo, mid)[:2] == ("stale", "body_edited")


def test_reanchor_refuses_while_an_anchored_symbol_is_gone(repo):
    """limpet tests/refinement.rs::reverify_refuses_when_an_anchored_symbol_is_gone — one of two anchors
    deleted (stale `anchor_lost`): a bare `reanchor` refuses, naming the lost anchor; nothing changes."""
    repo.write("a.rs", BODY)
    repo.write("b.rs", "pub const LIMIT: u32 = 9;\n")
    repo.commit("two")
    mid = repo.remember("score respects LIMIT when folding", "a.rs::score", "b.rs")
    repo.write("a.rs", "// nothing left\n")
    assert verdict(repo, mid) == ("stale", "anchor_lost")
    before = repo.memory_files()
    err = repo.error("reanchor", mid)
    assert err["code"] == "invalid_input" and "a.rs::score" in err["message"]
    assert repo.memory_files() == before and verdict(repo, mid) == ("stale", "anchor_lost")


def test_reanchor_refuses_an_invalidated_memory(repo):
    """limpet tests/refinement.rs::reverify_refuses_a_fully_invalidated_entry — every anchor deleted: a bare
    `reanchor` refuses, the memory stays invalidated."""
    mid = _verified(repo)
    repo.write("a.rs", "// nothing left\n")
    assert verdict(repo, mid) == ("invalidated", "anchor_deleted")
    before = repo.memory_files()
    err = repo.error("reanchor", mid)
    assert err["code"] == "invalid_input" and "anchor_deleted" in err["message"]
    assert repo.memory_files() == before


def test_reanchor_refuses_unknown_and_closed_memories(repo):
    """limpet tests/refinement.rs::reverify_refuses_secrets_junk_and_wrong_states — the shared states: an
    unknown id is `not_found`; a superseded or retired memory is refused as already closed (`conflict`)
    and nothing is written. (limpet's evidence command and output checks have no counterpart: tether's
    reanchor takes no evidence.)"""
    mid = _verified(repo)
    assert repo.error("reanchor", "0badc0de")["code"] == "not_found"
    new = repo.json("supersede", mid, "score's fold is proven, twice", "--reason", "restated")["data"]["current"]["id"]
    err = repo.error("reanchor", mid)
    assert err["code"] == "conflict" and "superseded" in err["message"]
    repo.json("retire", new, "--reason", "the harness is gone")
    before = repo.memory_files()
    err = repo.error("reanchor", new)
    assert err["code"] == "conflict" and "retired" in err["message"]
    assert repo.memory_files() == before


def test_reanchor_repairs_the_path_after_a_change_of_extension(repo):
    """limpet tests/refinement.rs::reverify_follows_an_extensionless_rename_and_repairs_the_anchor_file —
    util.js becomes util.ts: `check` finds `parse` there (stale, read by another grammar); `reanchor`
    re-binds it: active, the anchor's path is util.ts."""
    body = "function parse(s) {\n  return s.split(',').map(function (x) { return x * 3; });\n}\n"
    repo.write("util.js", body)
    repo.commit("util")
    mid = repo.remember("parse triples every comma-separated field", "util.js::parse")
    (repo.path / "util.js").unlink()
    repo.write("util.ts", body)
    a = anchor_of(repo, mid)
    assert (a["path"], a["was"]) == ("util.ts", "util.js::parse")
    repo.json("reanchor", mid)
    status, reason, a = state(repo, mid)
    assert (status, reason) == ("active", None)
    assert (a["path"], a.get("was")) == ("util.ts", None)
    assert stored_anchors(repo, mid)[0]["path"] == "util.ts"


SCANNER = "<?php\nfunction scan_batch( $items ) {\n    return array_chunk( $items, 50 );\n}\n"
BATCH = "the scanner batch size is 50 because shared hosts kill long requests"


def test_a_retired_memory_leaves_recall_and_stays_as_history(repo):
    """limpet tests/archival.rs::archive_hides_from_recall_and_restore_returns_the_current_truth — the shared
    half: a retired memory no longer recalls and is kept as history (`ls --all`, `history`). (Restore has
    no counterpart: retiring is final.)"""
    repo.write("src/scanner.php", SCANNER)
    repo.commit("scanner")
    mid = repo.remember(BATCH, "src/scanner.php", kind="decision")
    assert recalled_ids(repo, "why is the scanner batch size 50") == [mid]
    repo.json("retire", mid, "--reason", "batching moved to the queue")
    out = recall(repo, "why is the scanner batch size 50")
    assert (out["data"]["items"], out["data"]["stale"]) == ([], [])
    assert "retired" in repo.run("ls", "--all").stdout.split(mid[:8])[0].splitlines()[-1]
    assert "batching moved to the queue" in repo.run("history", mid).stdout


def test_a_retired_memory_survives_an_export_import_round_trip(repo, tmp_path):
    """limpet tests/archival.rs::archived_entries_survive_export_and_import_round_trips — the export carries
    the retired memory (closed, with its reason); imported on a fresh clone it stays retired: the kept one
    recalls there, the retired one does not."""
    repo.write("src/scanner.php", SCANNER)
    repo.commit("scanner")
    keep = repo.remember("the retry ceiling is three attempts before a job is parked", "src/scanner.php")
    gone = repo.remember("the nightly cron rebuilds the search index after bulk imports", "src/scanner.php")
    repo.json("retire", gone, "--reason", "cron replaced by a queue")
    export = tmp_path / "export.json"
    repo.run("export", "--out", str(export))
    by_id = {m["id"]: m for m in orjson.loads(export.read_bytes())["memories"]}
    assert (by_id[gone]["retired_reason"], by_id[gone]["valid_to"] is not None) == ("cron replaced by a queue", True)
    assert (by_id[keep]["retired_reason"], by_id[keep]["valid_to"]) == (None, None)

    peer = Repo(tmp_path / "peer")
    peer.write("src/scanner.php", SCANNER)
    peer.commit("scanner")
    assert peer.json("import", str(export))["data"]["imported"] == 2
    assert recalled_ids(peer, "retry ceiling attempts before a job is parked") == [keep]
    assert recalled_ids(peer, "nightly cron rebuilds the search index") == []
    assert list(peer.check()) == [keep]


def test_retire_refuses_unknown_and_already_retired_memories(repo):
    """limpet tests/archival.rs::archive_and_restore_refuse_nonsense — an unknown id is `not_found`; retiring
    twice is refused loudly (`conflict`, "already"), not a silent no-op."""
    repo.write("src/scanner.php", SCANNER)
    repo.commit("scanner")
    mid = repo.remember(BATCH, "src/scanner.php")
    err = repo.error("retire", "0badc0de", "--reason", "x")
    assert err["code"] == "not_found" and "0badc0de" in err["message"]
    repo.json("retire", mid, "--reason", "gone")
    err = repo.error("retire", mid, "--reason", "again")
    assert err["code"] == "conflict" and "already" in err["message"]


def test_a_retired_stale_memory_is_not_asked_to_be_reverified(repo):
    """limpet tests/archival.rs::the_verify_queue_excludes_archived_entries — a verified memory goes stale and
    `check --strict` fails on it; once retired it is no longer checked and the gate passes."""
    repo.write("src/scanner.php", SCANNER)
    repo.commit("scanner")
    mid = repo.json(
        "remember",
        "the scanner batches fifty items per run on shared hosts",
        "--anchor",
        "src/scanner.php",
        "--verified",
        "--evidence",
        "php -r 'echo 50;'",
    )["data"]["id"]
    repo.write("src/scanner.php", SCANNER.replace("50", "200"))
    assert verdict(repo, mid) == ("stale", "file_edited")
    assert repo.run("check", "--strict", check=False).returncode == 1
    repo.json("retire", mid, "--reason", "the batch is configurable now")
    assert repo.check() == {}
    assert repo.run("check", "--strict", check=False).returncode == 0


def _clone(src: Repo, dst) -> Repo:
    subprocess.run(["git", "clone", "-q", str(src.path), str(dst)], check=True, capture_output=True)
    other = Repo.__new__(Repo)
    other.path = dst
    other.git("config", "user.email", "peer@example.com")
    other.git("config", "user.name", "Peer")
    other.git("config", "commit.gpgsign", "false")
    return other


def test_a_committed_memory_is_there_on_a_fresh_clone(repo, tmp_path, monkeypatch):
    """limpet tests/portability_config.rs::auto_imports_committed_memory_on_fresh_index — a teammate's memory
    is committed with the code; a fresh clone on a machine with an empty cache sees it, active, and recalls
    it (tether needs no import step: the Markdown files are the store)."""
    repo.write("src/scanner.php", SCANNER)
    repo.commit("scanner")
    mid = repo.remember(BATCH, "src/scanner.php", kind="decision")
    repo.commit("remember the batch size")
    other = _clone(repo, tmp_path / "clone")
    monkeypatch.setenv("TETHER_HOME", str(tmp_path / "other-machine"))
    assert verdict(other, mid) == ("active", None)
    assert recalled_ids(other, "why is the scanner batch size 50") == [mid]


def test_a_retirement_reaches_an_already_synced_clone(repo, tmp_path):
    """limpet tests/archival.rs::archival_propagates_between_already_synced_stores — two clones share a
    memory; it is retired and committed in one, the other pulls: the memory leaves its recall too.
    (The restore half has no counterpart.)"""
    repo.write("src/scanner.php", SCANNER)
    repo.commit("scanner")
    mid = repo.remember(BATCH, "src/scanner.php", kind="decision")
    repo.commit("remember")
    other = _clone(repo, tmp_path / "clone")
    assert recalled_ids(other, "why is the scanner batch size 50") == [mid]
    repo.json("retire", mid, "--reason", "batching moved to the queue")
    repo.commit("retire")
    other.git("pull", "-q", "--no-rebase", "origin", "main")
    assert recalled_ids(other, "why is the scanner batch size 50") == []
    assert other.check() == {}
