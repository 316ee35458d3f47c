"""limpet's write path, re-typed against tether: what `remember` refuses, near-duplicates and conflicts,
secrets, and the export/import round trip with its guards.

Peer: github.com/KSym04/limpet, tests/memory_api.rs, tests/recall_quality.rs (the write-path half),
tests/stability.rs (format markers), tests/recall_ledger.rs. limpet's JSONL export is tether's
`export`/`import` JSON document; limpet's store schema stamp is tether's memory-file `format`. The real
CLI in a real git repository.
"""

from __future__ import annotations

import copy

import orjson
import pytest
from conftest import Repo

from .limpet_support import recall, recalled_ids, remember_json, verdict

CACHE = "def cache_get(key):\n    return store.lookup(key)\n"
SCANNER = "<?php\nfunction scan_batch( $items ) {\n    return array_chunk( $items, 50 );\n}\n"
B50 = "the scanner batch size is 50 because shared hosts kill long requests over 60 seconds"
# a GitHub-token-shaped string, split so that repository secret scanners do not flag this file
TOKEN = "ghp_" + "Zq8Lr2VbT0wXk4NcE7uYh1" + "JmD5sPa9GfRt3K"
B200 = "the scanner batch size is 200 because shared hosts kill long requests over 60 seconds"


@pytest.fixture
def cache(repo):
    repo.write("cache.py", CACHE)
    repo.commit("cache")
    return repo


@pytest.fixture
def scanner(repo):
    repo.write("src/scanner.php", SCANNER)
    repo.write("src/export.php", "<?php\nfunction export_run() {\n    return 'col';\n}\n")
    repo.commit("php")
    return repo


def _ok(repo, text, anchor, *extra, kind="decision") -> dict:
    code, out = remember_json(repo, text, anchor, kind=kind, extra=extra)
    assert code == 0, out
    return out["data"]


def _conflict_ids(data: dict) -> list[str]:
    return [c["id"] for c in data["conflicts"]]


# ---------------------------------------------------------------- what remember refuses


def test_a_similar_memory_on_the_same_anchor_is_stored_beside_the_first(cache):
    """limpet tests/memory_api.rs::remember_anchors_and_reports_duplicates — both memories are stored, never
    merged (DIFFERENCE: limpet also hints "possible duplicate"; tether either refuses a near-duplicate,
    naming it, or stores without a hint, as here)."""
    first = _ok(cache, "cache_get returns None on miss, never raises", "cache.py::cache_get", kind="fact")
    second = _ok(cache, "cache_get returns None when the key misses", "cache.py::cache_get", kind="fact")
    assert (first["conflicts"], second["conflicts"]) == ([], [])
    assert sorted(cache.check()) == sorted([first["id"], second["id"]])
    assert len(cache.memory_files()) == 2


def test_an_unknown_symbol_is_refused_naming_it_and_the_near_names(cache):
    """limpet tests/memory_api.rs::unknown_symbol_fails_with_suggestions — `anchor_unresolved` naming the
    missing symbol; the near spelling first, then, the file being small, every symbol it has."""
    err = cache.error("remember", "something", "--anchor", "cache.py::cache_gte")
    assert (err["code"], err["reason"], err["near"][0]) == ("anchor_unresolved", "symbol_missing", "cache_get")
    assert "cache_gte" in err["message"] and "did you mean cache_get" in err["message"]
    err = cache.error("remember", "something", "--anchor", "cache.py::nonexistent_fn")
    assert err["code"] == "anchor_unresolved" and "cache_get" in err["near"]
    assert "nonexistent_fn" in err["message"] and "it has " in err["message"]


def test_an_unresolvable_anchor_fails_loud_and_writes_nothing(cache):
    """limpet tests/memory_api.rs::unresolvable_anchor_fails_loud_and_writes_nothing and
    ::failed_symbol_anchor_leaves_no_orphan_entry — a good anchor plus a file that does not exist: refused,
    the message names the bad anchor and why; no memory file, nothing to check."""
    err = cache.error(
        "remember", "hero block is 480px", "--anchor", "cache.py::cache_get", "--anchor", "templates/interior.twig"
    )
    assert (err["code"], err["reason"], err["path"]) == ("anchor_unresolved", "file_missing", "templates/interior.twig")
    assert "does not exist" in err["message"]
    cache.error("remember", "something", "--anchor", "cache.py::nonexistent_fn")
    assert cache.memory_files() == {} and cache.check() == {}


def test_a_file_anchor_hashes_the_file_as_it_is_when_remembered(cache):
    """limpet tests/memory_api.rs::file_anchor_stores_content_hash_at_write_time — the file is indexed, then
    edited, then remembered: the memory holds the content at write time (active), and a later edit stales
    it `file_edited`."""
    cache.write("style.scss", ".a { color: red; }\n")
    cache.commit("style")
    cache.run("index")
    cache.write("style.scss", ".a { color: #c00; }\n")
    mid = cache.remember("brand red lives here, do not hardcode it elsewhere", "style.scss")
    assert cache.json("show", mid)["data"]["memory"]["anchors"][0]["hash"].startswith("c1:")
    assert verdict(cache, mid) == ("active", None)
    cache.write("style.scss", ".a { color: #d00; }\n")
    assert verdict(cache, mid) == ("stale", "file_edited")


@pytest.mark.parametrize("evidence", [None, "", "   ", '""', "' '"])
def test_verified_without_evidence_is_refused(cache, evidence):
    """limpet tests/memory_api.rs::verified_without_evidence_is_refused — `--verified` needs the command that
    verified it; an empty or blank command is none (so is one that is only quotes, as a shell reads it:
    a red-team finding). Nothing is stored."""
    extra = [] if evidence is None else ["--evidence", evidence]
    err = cache.error("remember", "claims to be proven", "--anchor", "cache.py", "--verified", *extra)
    assert err["code"] == "invalid_input" and "--evidence" in err["message"]
    assert cache.memory_files() == {}


def test_verified_with_evidence_is_stored_verified(cache):
    """limpet tests/memory_api.rs::verified_with_evidence_is_accepted — the higher base confidence."""
    data = _ok(cache, "proven by its test", "cache.py", "--verified", "--evidence", "pytest -k cache", kind="fact")
    assert (data["source"], data["evidence"]) == ("verified", {"command": "pytest -k cache"})
    assert cache.check()[data["id"]]["confidence"] == 0.95


def test_a_memory_file_claiming_verified_without_evidence_is_trusted_as_explicit(cache):
    """limpet SPEC: confidence is derived, never read: a committed file cannot claim `verified` for free."""
    mid = cache.remember("written by hand later", "cache.py")
    path = next(p for p in (cache.path / ".tether" / "memories").iterdir() if mid[:8] in p.name)
    path.write_text(path.read_text().replace('"source": "explicit"', '"source": "verified"', 1))
    assert cache.check()[mid]["confidence"] == 0.8


def test_an_ambiguous_bare_name_is_refused_with_the_candidates(cache):
    """limpet tests/memory_api.rs::ambiguous_bare_name_is_refused_with_candidates — `push` is a method of A
    and of B: `anchor_ambiguous`, both qualified names listed, nothing stored."""
    cache.write(
        "two.py", "class A:\n    def push(self):\n        return 1\n\nclass B:\n    def push(self):\n        return 2\n"
    )
    err = cache.error("remember", "push does a thing", "--anchor", "two.py::push")
    assert (err["code"], err["candidates"]) == ("anchor_ambiguous", ["two.py::A.push", "two.py::B.push"])
    assert cache.memory_files() == {}


def test_an_unknown_kind_and_an_empty_text_are_refused(cache):
    """limpet tests/memory_api.rs::kind_and_source_validation — an unknown kind and an empty body are
    `invalid_input`; nothing is stored (limpet's `source` argument has no CLI counterpart)."""
    err = cache.error("remember", "x", "--anchor", "cache.py", "--kind", "vibe")
    assert err["code"] == "invalid_input" and "vibe" in err["message"]
    assert cache.error("remember", "", "--anchor", "cache.py")["code"] == "invalid_input"
    assert cache.memory_files() == {}


def test_an_oversize_body_is_refused(cache):
    """limpet tests/memory_api.rs::oversize_body_is_refused — a 70 KiB body: `invalid_input` naming the
    limit, nothing stored."""
    err = cache.error("remember", "x" * (70 * 1024), "--anchor", "cache.py")
    assert err["code"] == "invalid_input" and "limit" in err["message"] and err["size"] == 70 * 1024
    assert cache.memory_files() == {}


def test_a_secret_in_the_evidence_command_is_refused_like_one_in_the_body(cache):
    """limpet tests/memory_api.rs::evidence_command_is_guarded_like_the_body — a bearer token in the evidence
    command: `secret_detected` naming the field and rule, nothing stored. A blank command is read as no
    evidence (DIFFERENCE: limpet refuses it)."""
    err = cache.error(
        "remember",
        "the api answers 200 when healthy",
        "--anchor",
        "cache.py",
        "--evidence",
        f"curl -H 'Authorization: Bearer {TOKEN}' https://api.example.com",
    )
    assert (err["code"], err["field"], err["rule"]) == ("secret_detected", "evidence", "github_token")
    assert TOKEN[4:20] not in err["message"]
    assert cache.memory_files() == {}
    data = _ok(cache, "the api answers 200 when healthy", "cache.py", "--evidence", "   ", kind="fact")
    assert data.get("evidence") is None


def test_a_contradiction_keeps_both_until_one_is_closed(cache):
    """limpet tests/memory_api.rs::contradiction_keeps_both_supersede_resolves — "timeout is 60 seconds" after
    "timeout is 30 seconds": stored, the conflict named (`number_differs`), both stay active and both
    recall; closing the old one (the replacement already exists, so it is retired, not superseded) ends
    it: only the new one recalls."""
    old = _ok(cache, "timeout is 30 seconds", "cache.py", kind="fact")["id"]
    new = _ok(cache, "timeout is 60 seconds since the pool rewrite", "cache.py", kind="fact")
    assert [(c["id"], c["reason"]) for c in new["conflicts"]] == [(old, "number_differs")]
    assert {m: i["status"] for m, i in cache.check().items()} == {old: "active", new["id"]: "active"}
    assert set(recalled_ids(cache, "what is the timeout in seconds", "--budget", "2000")) == {old, new["id"]}
    cache.json("retire", old, "--reason", f"replaced by {new['id'][:8]}: the pool rewrite")
    assert recalled_ids(cache, "what is the timeout in seconds", "--budget", "2000") == [new["id"]]


def test_superseding_a_missing_memory_fails(cache):
    """limpet tests/memory_api.rs::link_to_missing_target_fails — the shared half: a supersede naming an id
    that does not exist is `not_found` and writes nothing (tether has no free-form link relations)."""
    _ok(cache, "x marks the spot", "cache.py", kind="fact")
    before = cache.memory_files()
    assert cache.error("supersede", "0badc0de", "y marks it now", "--reason", "moved")["code"] == "not_found"
    assert cache.memory_files() == before


# ---------------------------------------------------------------- duplicates and conflicts at write time


def test_a_diverging_value_on_the_same_anchor_is_stored_and_surfaced(scanner):
    """limpet tests/recall_quality.rs::a_diverging_value_on_the_same_anchor_surfaces_as_a_conflict and
    ::a_correction_with_a_new_value_is_never_refused_as_a_duplicate — "batch size is 200" after "is 50" on
    the same file: stored without force, the 50 memory surfaced as a `number_differs` conflict."""
    first = _ok(scanner, B50, "src/scanner.php")["id"]
    second = _ok(scanner, B200, "src/scanner.php")
    assert [(c["id"], c["reason"]) for c in second["conflicts"]] == [(first, "number_differs")]


def test_a_near_duplicate_on_the_same_anchor_is_refused_naming_both_ways_out(scanner):
    """limpet tests/recall_quality.rs::a_near_duplicate_write_on_the_same_anchor_is_refused — the same body on
    the same anchor again: `duplicate`, naming the existing id, offering supersede and force; nothing new
    stored."""
    first = _ok(scanner, B50, "src/scanner.php")["id"]
    before = scanner.memory_files()
    err = scanner.error("remember", B50, "--anchor", "src/scanner.php", "--kind", "decision")
    assert (err["code"], err["existing"]) == ("duplicate", first)
    assert first[:8] in err["message"] and "supersede" in err["message"] and "force" in err["message"]
    assert scanner.memory_files() == before


def test_force_stores_a_restatement_and_a_restatement_is_no_conflict(scanner):
    """limpet tests/recall_quality.rs::force_stores_a_near_duplicate_and_a_restatement_is_not_a_conflict —
    `--force` stores the identical body anyway; the same value is no conflict."""
    first = _ok(scanner, B50, "src/scanner.php")["id"]
    second = _ok(scanner, B50, "src/scanner.php", "--force")
    assert second["id"] != first and second["conflicts"] == []
    assert len(scanner.memory_files()) == 2


def test_a_superseded_memory_neither_refuses_nor_conflicts_a_new_write(scanner):
    """limpet tests/recall_quality.rs::a_superseded_memory_neither_refuses_nor_conflicts_a_new_write — 50 is
    superseded by 200; asserting 50 again stores without force, and its conflict names the live 200 memory,
    never the closed 50 one."""
    a = _ok(scanner, B50, "src/scanner.php")["id"]
    b = scanner.json("supersede", a, B200, "--reason", "bigger batches since the pool rewrite")["data"]["current"]["id"]
    third = _ok(scanner, B50, "src/scanner.php")
    assert _conflict_ids(third) == [b]


def test_a_digit_embedded_divergence_is_stored_and_surfaced(scanner):
    """limpet tests/recall_quality.rs::a_digit_embedded_divergence_surfaces_as_a_conflict — "col9" after
    "col10" on the same anchor is a correction: stored without force, the col10 memory surfaced as a
    conflict."""
    first = _ok(
        scanner,
        "the nightly export job writes the customer id into col10 of the target sheet",
        "src/export.php",
        kind="fact",
    )["id"]
    code, out = remember_json(
        scanner, "the nightly export job writes the customer id into col9 of the target sheet", "src/export.php"
    )
    assert code == 0, out
    assert _conflict_ids(out["data"]) == [first]


def test_different_cjk_notes_sharing_english_words_are_not_duplicates(scanner):
    """limpet tests/recall_quality.rs::different_cjk_bodies_sharing_english_tokens_are_not_refused — two
    different Japanese notes that share "config cache" are both stored, no conflict."""
    _ok(scanner, "設定ファイルはキャッシュに保存される config cache", "src/export.php", kind="fact")
    second = _ok(scanner, "認証トークンは毎回サーバーで再検証する config cache", "src/export.php", kind="fact")
    assert second["conflicts"] == [] and len(scanner.memory_files()) == 2


def test_a_reversed_claim_with_the_same_words_is_not_a_duplicate(scanner):
    """limpet tests/recall_quality.rs::a_reversed_claim_with_identical_vocabulary_is_not_refused — "prefer
    postgres over sqlite" after "prefer sqlite over postgres" is a correction, stored without force."""
    _ok(scanner, "prefer sqlite over postgres for the local storage layer", "src/export.php")
    code, out = remember_json(
        scanner, "prefer postgres over sqlite for the local storage layer", "src/export.php", kind="decision"
    )
    assert code == 0, out
    assert len(scanner.memory_files()) == 2
    assert [c["reason"] for c in out["data"]["conflicts"]] == ["order_differs"]


def test_a_negated_correction_is_stored_and_surfaced(scanner):
    """limpet tests/recall_quality.rs::a_negated_correction_is_stored_and_surfaced_as_a_conflict — "there is
    no timeout" after "there is a timeout": stored without force, surfaced as `negation_differs`."""
    first = _ok(
        scanner, "there is a timeout on the nightly export job after thirty seconds", "src/export.php", kind="fact"
    )["id"]
    second = _ok(
        scanner, "there is no timeout on the nightly export job after thirty seconds", "src/export.php", kind="fact"
    )
    assert [(c["id"], c["reason"]) for c in second["conflicts"]] == [(first, "negation_differs")]


# ---------------------------------------------------------------- export and import


def _export(repo) -> dict:
    return orjson.loads(repo.run("export").stdout)


def _peer(tmp_path, name: str = "peer") -> Repo:
    peer = Repo(tmp_path / name)
    peer.write("cache.py", CACHE)
    peer.commit("cache")
    return peer


def _import(peer: Repo, doc: dict) -> tuple[int, dict]:
    f = peer.path.parent / f"{peer.path.name}-import.json"
    f.write_bytes(orjson.dumps(doc))
    proc = peer.run("import", str(f), "--json", check=False)
    return proc.returncode, orjson.loads(proc.stdout)


@pytest.fixture
def exported(cache) -> dict:
    """An export of two memories: a file-anchored decision and a verified fact with evidence."""
    cache.remember("chose sqlite over flat files for FTS5", "cache.py", kind="decision")
    cache.json("remember", "lookup is O(1)", "--anchor", "cache.py::cache_get", "--evidence", "pytest -q", "--verified")
    return _export(cache)


def test_export_import_export_is_byte_identical_and_a_reimport_changes_nothing(cache, exported, tmp_path):
    """limpet tests/memory_api.rs::jsonl_roundtrip_is_lossless and tests/stability.rs::import_skips_its_own_header_as_data
    — both memories land on a fresh clone (the format marker is not data), exporting there gives the same
    bytes, importing again skips both."""
    peer = _peer(tmp_path)
    code, out = _import(peer, exported)
    assert (code, out["data"]) == (0, {"imported": 2, "replaced": 0, "skipped": 0, "refused": 0, "refusals": []})
    assert peer.run("export").stdout == cache.run("export").stdout
    code, out = _import(peer, exported)
    assert (code, out["data"]) == (0, {"imported": 0, "replaced": 0, "skipped": 2, "refused": 0, "refusals": []})
    assert {i["status"] for i in peer.check().values()} == {"active"}


def test_the_export_names_its_format_first(exported):
    """limpet tests/stability.rs::export_writes_a_format_header_first — the document says which format it is
    before anything else: its first key is `format`, 1, and each memory says its own."""
    assert list(exported)[0] == "format" and exported["format"] == 1
    assert [m["format"] for m in exported["memories"]] == [1, 1]


@pytest.mark.parametrize(
    "peer_test, marker",
    [
        ("import_refuses_a_future_format_loudly", 2),
        ("a_non_integer_format_marker_is_refused_without_fabrication", "1"),
    ],
)
def test_an_export_of_an_unknown_format_is_refused_loudly(exported, tmp_path, peer_test, marker):
    """limpet tests/stability.rs::<peer_test> — a document claiming format 2, or the string "1", is no format
    this tether reads: refused whole (`invalid_input`, naming what it claims and what tether reads, never a
    number it did not claim), nothing stored."""
    doc = copy.deepcopy(exported)
    doc["format"] = marker
    peer = _peer(tmp_path)
    code, out = _import(peer, doc)
    assert (code, out["error"]["code"]) == (2, "invalid_input")
    assert repr(marker) in out["error"]["message"] or f"format {marker} " in out["error"]["message"]
    assert "(1)" in out["error"]["message"] and "9223372036854775807" not in out["error"]["message"]
    assert peer.memory_files() == {}


def test_a_memory_file_of_a_newer_format_is_quarantined_untouched(cache):
    """limpet tests/stability.rs::opening_a_newer_schema_store_refuses_loudly and ::a_refused_open_runs_no_migrations
    — a memory file written by a newer tether (format 2) is quarantined: `check` names both formats and
    the remedy, `--strict` fails, and the file is never rewritten."""
    mid = cache.remember("chose sqlite over flat files for FTS5", "cache.py", kind="decision")
    ((name, data),) = cache.memory_files().items()
    newer = data.replace(b'"format": 1', b'"format": 2')
    (cache.path / ".tether" / "memories" / name).write_bytes(newer)
    out = cache.json("check", check=False)
    assert out["data"] == []
    (q,) = out["meta"]["quarantined"]
    assert (
        q["file"] == f".tether/memories/{name}"
        and "format 2" in q["error"]
        and "reads 1" in q["error"]
        and "upgrade" in q["error"]
    )
    assert cache.run("check", "--strict", check=False).returncode == 1
    assert cache.memory_files() == {name: newer}
    assert mid not in recalled_ids(cache, "sqlite flat files FTS5")


def _one_refused(peer: Repo, doc: dict, bad: int) -> dict:
    """Import `doc` whose memory #`bad` (0-based) is bad: the other lands, the bad one is refused alone."""
    code, out = _import(peer, doc)
    assert code == 1, out
    data = out["data"]
    assert (data["imported"], data["refused"]) == (1, 1)
    (refusal,) = data["refusals"]
    assert (refusal["index"], refusal["id"]) == (bad + 1, doc["memories"][bad]["id"])
    good = doc["memories"][1 - bad]["id"]
    assert list(peer.check()) == [good] and len(peer.memory_files()) == 1
    return refusal


def test_an_imported_secret_is_refused_and_its_neighbour_still_lands(exported, tmp_path):
    """limpet tests/memory_api.rs::import_rejects_secrets_future_dates_and_clamps_confidence (the secret line) —
    a token in one imported body: that memory is refused (`secret_detected`, naming field and rule, never
    the secret) and never enters the store; the other memory lands; the exit code says something was
    refused."""
    doc = copy.deepcopy(exported)
    doc["memories"][0]["body"] = f"deploy key {TOKEN} here"
    refusal = _one_refused(_peer(tmp_path), doc, 0)
    assert (refusal["code"], refusal["field"], refusal["rule"]) == ("secret_detected", "body", "github_token")
    assert TOKEN[4:20] not in refusal["message"]


def test_a_future_dated_import_is_refused(exported, tmp_path):
    """limpet tests/memory_api.rs::import_rejects_secrets_future_dates_and_clamps_confidence (the future-dated
    line) — a memory recorded in 9999 is refused (`invalid_input`, "lies in the future"); its neighbour
    lands."""
    doc = copy.deepcopy(exported)
    doc["memories"][0].update(
        recorded_at="9999-01-01T00:00:00.000Z",
        valid_from="9999-01-01T00:00:00.000Z",
        verified_at="9999-01-01T00:00:00.000Z",
    )
    refusal = _one_refused(_peer(tmp_path), doc, 0)
    assert refusal["code"] == "invalid_input" and "future" in refusal["message"]


@pytest.mark.parametrize(
    "peer_test, confidence",
    [
        ("import_rejects_secrets_future_dates_and_clamps_confidence", 1e300),
        ("import_enforces_the_truth_layer_on_the_second_write_path", 0.99),
    ],
)
def test_an_imported_confidence_is_the_derived_one(exported, tmp_path, peer_test, confidence):
    """limpet tests/memory_api.rs::<peer_test> (the clamp / swagger line), tests/recall_quality.rs::typed_confidence_on_an_unverified_memory_is_capped_on_the_wire
    and tests/refinement.rs::imported_refund_is_capped_per_source_and_cannot_launder_through_heal — an
    imported explicit memory claiming confidence 1e300 or 0.99 is served at the explicit base, 0.8, by
    `check` and by `recall`."""
    doc = copy.deepcopy(exported)
    doc["memories"][0]["confidence"] = confidence
    peer = _peer(tmp_path)
    assert _import(peer, doc)[0] == 0
    mid = doc["memories"][0]["id"]
    assert peer.check()[mid]["confidence"] == 0.8
    (item,) = [i for i in recall(peer, "sqlite flat files FTS5")["data"]["items"] if i["id"] == mid]
    assert item["confidence"] == 0.8


@pytest.mark.parametrize(
    "peer_test, bad, field, value, message",
    [
        (
            "import_enforces_the_truth_layer_on_the_second_write_path",
            0,
            "source",
            "psychic",
            "unknown source 'psychic'",
        ),
        ("import_rejects_malformed_lines_without_aborting_the_batch", 0, "kind", "note", "unknown kind 'note'"),
        ("import_rejects_malformed_lines_without_aborting_the_batch", 0, "body", "", "memory text is empty"),
        (
            "import_rejects_bogus_anchor_disamb_without_aborting_the_batch",
            1,
            "discriminator",
            {"nested": "object"},
            "'discriminator'",
        ),
    ],
)
def test_a_malformed_imported_memory_is_refused_without_aborting_the_rest(
    exported, tmp_path, peer_test, bad, field, value, message
):
    """limpet tests/memory_api.rs::<peer_test> — an unknown source, an unknown kind, an empty body, a
    discriminator that is an object: that one memory is refused (`invalid_input`, saying why), its good
    neighbour still lands."""
    doc = copy.deepcopy(exported)
    target = doc["memories"][bad]["anchors"][0] if field == "discriminator" else doc["memories"][bad]
    target[field] = value
    refusal = _one_refused(_peer(tmp_path), doc, bad)
    assert refusal["code"] == "invalid_input" and message in refusal["message"]


def test_a_forged_imported_hash_reads_stale_never_fresh(exported, tmp_path):
    """limpet tests/memory_api.rs::import_reresolves_anchor_hash_against_local_index — an imported anchor
    claiming a hash the local code does not have is judged against the local code: stale `body_edited`,
    never active (DIFFERENCE: limpet adopts the local hash on import, reading it active)."""
    doc = copy.deepcopy(exported)
    doc["memories"][1]["anchors"][0]["hash"] = "t2:deadbeefdeadbeefdeadbeefdeadbeef"
    peer = _peer(tmp_path)
    assert _import(peer, doc)[0] == 0
    assert verdict(peer, doc["memories"][1]["id"]) == ("stale", "body_edited")
    assert verdict(peer, doc["memories"][0]["id"]) == ("active", None)


def test_forged_verified_provenance_on_import_is_refused(exported, tmp_path):
    """limpet tests/memory_api.rs::import_enforces_the_truth_layer_on_the_second_write_path (the forged line)
    — an imported `verified` memory without evidence is refused, as `remember --verified` without
    `--evidence` is; its neighbour is imported."""
    doc = copy.deepcopy(exported)
    doc["memories"][1]["source"] = "verified"
    doc["memories"][1]["evidence"] = None
    peer = _peer(tmp_path)
    code, out = _import(peer, doc)
    assert code != 0
    assert [r["id"] for r in out["data"]["refusals"]] == [doc["memories"][1]["id"]]
    assert list(peer.check()) == [doc["memories"][0]["id"]]


def test_recall_writes_nothing_into_the_memories_or_the_export(cache):
    """limpet tests/recall_ledger.rs::recall_sink_untouched_after_recall — after recalls, the memory files are
    byte-identical and the export carries no usage or token figures (those live in the per-machine usage
    log)."""
    cache.remember("cache_get returns None on miss because callers treat a miss as cold", "cache.py::cache_get")
    before = cache.memory_files()
    export_before = cache.run("export").stdout
    for task in ("why does cache_get return None", "what happens on a cache miss"):
        assert recall(cache, task)["meta"]["receipt"]["served_tokens"] > 0
    assert cache.memory_files() == before
    export_after = cache.run("export").stdout
    assert export_after == export_before
    for word in ("served_tokens", "replaced_tokens", "receipt", "recalls"):
        assert word not in export_after


def test_a_memory_valid_only_from_a_future_date_is_not_served_as_current(cache):
    """limpet SPEC.md (bitemporal validity: a belief is current from valid_from): a committed memory whose
    valid_from lies in the future is not listed, recalled or checked as current until then."""
    mid = cache.remember("chose sqlite over flat files for FTS5 search", "cache.py", kind="decision")
    _valid_from(cache, mid, "2999-01-01T00:00:00Z")
    assert [m["id"] for m in cache.json("ls")["data"]] == []
    assert cache.json("recall", "why sqlite over flat files for search")["data"]["items"] == []
    assert mid not in cache.check()
    # asked for by id, it says so rather than reading active (a red-team finding)
    assert cache.json("show", mid)["data"]["in_force"] is False
    assert "not in force yet" in cache.run("show", mid).stdout


def test_recall_marks_both_sides_of_a_conflict(scanner):
    """limpet tests/recall_quality.rs::conflicts_are_flagged_on_both_sides — the correction records what it
    contradicts, and recall marks the old memory and the new one alike."""
    first = _ok(scanner, "the nightly export writes the customer id into col10 of the sheet", "src/export.php")["id"]
    second = _ok(scanner, "the nightly export writes the customer id into col9 of the sheet", "src/export.php")["id"]
    items = {i["id"]: i for i in recall(scanner, "which column of the sheet holds the customer id")["data"]["items"]}
    assert (items[first]["conflicts"], items[second]["conflicts"]) == ([second], [first])


@pytest.mark.parametrize(
    "first, second",
    [
        (
            "Header padding in the layout is enabled for the export report.",
            "Header padding in the layout is disabled for the export report.",
        ),
        (
            "The flag strict_mode is true in prod for the export report.",
            "The flag strict_mode is false in prod for the export report.",
        ),
        (
            "The layout hook must run before pool sizing during startup.",
            "The layout hook must run after pool sizing during startup.",
        ),
        (
            "Retries wait 2 seconds between attempts in the export job.",
            "Retries wait 2 minutes between attempts in the export job.",
        ),
    ],
)
def test_an_opposite_word_is_a_correction_not_a_duplicate(scanner, first, second):
    """Red team of issue 21 (after limpet's a_negated_correction_is_stored_and_surfaced_as_a_conflict): a claim that
    swaps a word for its opposite is stored and flagged, never refused as a duplicate."""
    a = _ok(scanner, first, "src/export.php")["id"]
    code, out = remember_json(scanner, second, "src/export.php")
    assert code == 0, out
    assert [(c["id"], c["reason"]) for c in out["data"]["conflicts"]] == [(a, "negation_differs")]


@pytest.mark.parametrize(
    "first, second", [("The export writes 1000 rows per batch.", "The export writes 1,000 rows per batch.")]
)
def test_the_same_number_spelled_another_way_is_a_duplicate(scanner, first, second):
    """Red team of issue 21: 1000 and 1,000 are one value: a restatement, refused as a duplicate."""
    _ok(scanner, first, "src/export.php")
    assert scanner.error("remember", second, "--anchor", "src/export.php")["code"] == "duplicate"


def test_a_future_dated_memory_does_not_crowd_out_current_ones(cache):
    """Red team of issue 21: a hidden future-dated memory still set the relative relevance floor, so the
    current matches under it were all dropped (omitted as relevance_floor)."""
    hidden = cache.remember("sqlite over flat files for FTS5 search of the cache entries, chosen in 2024", "cache.py")
    shown = cache.remember("cache entries are searched through FTS5", "cache.py", kind="decision")
    _valid_from(cache, hidden, "2999-01-01T00:00:00Z")
    items = cache.json("recall", "sqlite over flat files for FTS5 search of the cache entries")["data"]["items"]
    assert [i["id"] for i in items] == [shown]


def _valid_from(repo: Repo, mid: str, when: str) -> None:
    """Hand-edit a memory file's valid_from, as anyone committing to the store can."""
    path = next(p for p in (repo.path / ".tether" / "memories").iterdir() if mid[:8] in p.name)
    text = path.read_text()
    start = text.index('"valid_from": "') + len('"valid_from": "')
    path.write_text(text[:start] + when + text[text.index('"', start) :])
