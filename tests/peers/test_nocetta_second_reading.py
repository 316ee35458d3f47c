"""Nocetta cases an independent reader of its suite found that the first port missed, re-typed against
tether's real CLI in a real git repository (the reader listed them from Nocetta's vitest files before
reading the port). Each docstring names the Nocetta file and case."""

from __future__ import annotations

import pytest

PRICING = "export function f(): number {\n  return computeA(1, 2) + 3;\n}\n"
LIMITS = """\
# Limits

| key | value | why |
|-----|-------|-----|
| timeout_s | 30 | under the gateway's 35 s |
| retries | 3 | the provider bans after 5 |
| GAP·stream | 12 | frames kept for a slow reader |
"""


@pytest.fixture
def shop(repo):
    repo.write("src/a.ts", PRICING)
    repo.write("docs/limits.md", LIMITS)
    repo.commit("shop")
    return repo


def test_a_table_row_anchor_is_keyed_by_its_first_cell_and_stales_alone(shop):
    """nocetta test/anchor/content.test.ts › extractContentSpans — table-row anchors › extracts one span per data row,
    keyed by the row's first cell; › dirties a row's own anchor when only that row is edited — an unrelated row and
    prose stay clean; › resolves a table-row anchor through the same dispatcher a heading anchor uses"""
    timeout = shop.remember("The 30 s timeout sits under the gateway's 35 s.", "docs/limits.md#Limits/timeout_s")
    retries = shop.remember("Three retries: the provider bans a client after five.", "docs/limits.md#Limits/retries")
    gap = shop.remember("Twelve frames are kept so a slow reader catches up.", "docs/limits.md#Limits/GAP·stream")
    assert {m: i["status"] for m, i in shop.check().items()} == {timeout: "active", retries: "active", gap: "active"}
    shop.replace("docs/limits.md", "| retries | 3 |", "| retries | 4 |")
    got = shop.check()
    assert [(got[m]["status"], got[m]["reason"]) for m in (timeout, retries, gap)] == [
        ("active", None),
        ("stale", "body_edited"),
        ("active", None),
    ]


@pytest.mark.parametrize("row", ["key", "---", "-----"])
def test_the_header_and_separator_rows_are_not_anchors(shop, row):
    """nocetta test/anchor/content.test.ts › extractContentSpans — table-row anchors › never turns the header row or
    the separator row into a span"""
    err = shop.error("remember", "Not a row.", "--anchor", f"docs/limits.md#Limits/{row}")
    assert err["code"] == "anchor_unresolved"
    assert shop.memory_files() == {}


def test_closed_memories_never_show_up_as_stale(shop):
    """nocetta test/facade/facade.test.ts › worklist reports only the live view — dead beliefs (superseded, expired)
    never appear as dirty"""
    old = shop.remember("f adds three to computeA for the legacy dashboard.", "src/a.ts::f")
    gone = shop.remember("computeA takes exactly two arguments in f.", "src/a.ts::f")
    new = shop.json("supersede", old, "f adds four to computeA since the dashboard rewrite.")["data"]["current"]["id"]
    shop.run("retire", gone, "--reason", "arguments are no longer fixed")
    shop.replace("src/a.ts", "+ 3", "+ 4")
    assert list(shop.check()) == [new]


def test_two_old_wordings_of_one_chain_recall_its_tip_once(shop):
    """nocetta test/retrieval/pipeline.test.ts › resolveToTip › merges two candidates that resolve to the same tip"""
    a = shop.remember("The invoice batch holds fifty rows for shared hosting limits.", "src/a.ts::f", kind="decision")
    b = shop.json("supersede", a, "The invoice batch holds a hundred rows since the move off shared hosting.")
    c = shop.json("supersede", b["data"]["current"]["id"], "Invoices are streamed one by one; there is no batch.")
    tip = c["data"]["current"]["id"]
    task = "why does the invoice batch hold fifty or a hundred rows on shared hosting"
    items = [i["id"] for i in shop.json("recall", task)["data"]["items"]]
    assert items == [tip]


def test_a_supersession_does_not_conflict_with_the_memory_it_replaces(shop):
    """nocetta test/supersede/contradiction.test.ts › findConflicts › does not flag a conflict when the nodes are
    directly related by supersession"""
    old = shop.remember("f always adds three to the computed value.", "src/a.ts::f")
    out = shop.json("supersede", old, "f never adds three to the computed value any more.")
    assert "contradicts" not in out["data"]["current"].get("links", {})


def test_a_one_word_memory_on_a_shared_anchor_is_not_a_duplicate(shop):
    """nocetta test/supersede/duplicates.test.ts › findDuplicates › never fires on a tiny node whose only shared word
    is ambient"""
    shop.remember("f adds three to computeA so the legacy dashboard totals match.", "src/a.ts::f")
    shop.remember("Pricing.", "src/a.ts::f")
    assert len(shop.memory_files()) == 2


def test_a_memory_anchored_to_a_file_with_no_grammar_by_symbol_is_never_read_active(shop):
    """nocetta test/anchor/locate-any.test.ts › the anchor extension registry › locateAnchor refuses an unknown
    extension too — drift cannot silently mis-route what capture refused (a hand-edited memory)"""
    shop.write("conf/app.ini", "[server]\nport = 8080\n")
    shop.commit("ini")
    mid = shop.remember("The port stays 8080 for the health check.", "conf/app.ini")
    path = next(p for p in (shop.path / ".tether" / "memories").iterdir() if mid[:8] in p.name)
    text = path.read_text()
    path.write_text(
        text.replace('"type": "file"', '"type": "symbol"', 1).replace(
            '"path": "conf/app.ini"', '"path": "conf/app.ini", "symbol": "port"', 1
        )
    )
    (item,) = shop.json("check", check=False)["data"]
    assert (item["id"], item["status"]) == (mid, "invalidated")  # never read as active
