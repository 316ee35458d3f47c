"""Nocetta's staleness and repair scenarios (test/drift/thesis.test.ts, test/cli/cli.test.ts `check`,
test/facade/facade.test.ts `worklist`/`reAnchor`/`retire`, test/repair/repair.test.ts), re-typed against
tether's real CLI in a real git repository.

Nocetta's "dirty" is tether's "stale"; its worklist is `tether check`; its reAnchor/retire are
`tether reanchor`/`tether retire`.
"""

from __future__ import annotations

import pytest

BILLING = """\
export function calculateTotal(items: number[]): number {
  return items.reduce((sum, x) => sum + x, 0);
}

export class Invoice {
  finalize(): string {
    return "finalized:" + this.number + ":" + String(this.lines.length);
  }
}
"""

BILLING_BODY_EDIT = BILLING.replace(
    "  return items.reduce((sum, x) => sum + x, 0);\n",
    "  let sum = 0;\n  for (const x of items) sum += x;\n  return sum;\n",
)

BILLING_LINE_MOVE = (
    "// billing helpers\nexport function taxRate(): number {\n  return 0.0825;\n}\n\n" + BILLING + "\n// end of file\n"
)

UTIL = """\
export function formatCurrency(amount: number): string {
  return `$${amount.toFixed(2)}`;
}
"""

FOO = """\
export function foo(): number {
  return 1;
}

export function bar(): string {
  return "bar";
}
"""
FOO_EDITED = FOO.replace("return 1;", "return 42;")
BOTH_EDITED = FOO_EDITED.replace('return "bar";', 'return "BAR";')

NOTE = """\
# Setup

Install dependencies first.

# Deployment

Ship on Fridays.
"""


@pytest.fixture
def thesis(repo):
    """Nocetta's thesis graph, as far as tether shares it: a claim on calculateTotal, a claim on
    Invoice.finalize, and a control claim on an untouched function in another file."""
    repo.write("src/billing.ts", BILLING)
    repo.write("src/util.ts", UTIL)
    repo.commit("billing")
    ids = {
        "c1": repo.remember("calculateTotal sums the items array via reduce.", "src/billing.ts::calculateTotal"),
        "e1": repo.remember(
            "Invoice.finalize stamps the invoice number and the line count.", "src/billing.ts::Invoice.finalize"
        ),
        "c2": repo.remember("formatCurrency renders two decimal places.", "src/util.ts::formatCurrency"),
    }
    return repo, ids


@pytest.fixture
def foo(repo):
    repo.write("src/foo.ts", FOO)
    repo.write("docs/note.md", NOTE)
    repo.commit("foo")
    return repo


def recalled(repo, task: str, *files: str) -> tuple[list[str], list[str]]:
    args = ["recall", task]
    for f in files:
        args += ["--file", f]
    data = repo.json(*args)["data"]
    return [i["id"] for i in data["items"]], [i["id"] for i in data["stale"]]


# -- test/drift/thesis.test.ts ------------------------------------------------------------------
def test_a_body_edit_makes_only_the_anchored_memory_stale_and_keeps_it_out_of_current_recall(thesis):
    """nocetta test/drift/thesis.test.ts › a real body edit dirties the anchored node, propagates, stops at the
    superseded wall, and is excluded from current retrieval (the propagation through memory-to-memory edges is not
    shared: tether memories anchor to code only)"""
    repo, ids = thesis
    repo.write("src/billing.ts", BILLING_BODY_EDIT)
    checked = repo.check()
    assert {k: checked[v]["status"] for k, v in ids.items()} == {"c1": "stale", "e1": "active", "c2": "active"}
    items, stale = recalled(repo, "how does calculateTotal sum the items array", "src/billing.ts")
    assert ids["c1"] not in items and ids["c1"] in stale


def test_a_pure_line_move_makes_nothing_stale(thesis):
    """nocetta test/drift/thesis.test.ts › a pure line-move (code inserted above, symbol body untouched) does NOT
    dirty anything"""
    repo, ids = thesis
    repo.write("src/billing.ts", BILLING_LINE_MOVE)
    assert {item["status"] for item in repo.check().values()} == {"active"}
    assert repo.run("check", "--strict").returncode == 0


def test_an_unchanged_repository_is_fully_clean(thesis):
    """nocetta test/drift/thesis.test.ts › baseline (no mutation) is fully clean"""
    repo, ids = thesis
    out = repo.json("check")
    assert sorted(i["id"] for i in out["data"]) == sorted(ids.values())
    assert out["meta"]["staleness"] == {"stale": 0, "invalidated": 0}


# -- test/cli/cli.test.ts › check ---------------------------------------------------------------
def test_check_on_a_clean_store_exits_0_with_or_without_strict_and_prints_the_summary(foo):
    """nocetta test/cli/cli.test.ts › check on a clean store: exit 0 strict or not, and the summary line (tether also
    lists each memory with its status: DIFFERENCES.md)"""
    foo.remember("foo returns the number one", "src/foo.ts::foo")
    for args in (("check",), ("check", "--strict")):
        proc = foo.run(*args)
        assert proc.returncode == 0
        assert proc.stdout.rstrip().splitlines()[-1] == "1 memory: 1 active, 0 stale, 0 invalidated, 0 quarantined"


def test_strict_check_after_an_edit_exits_1_naming_the_memory_and_the_reason(foo):
    """nocetta test/cli/cli.test.ts › check --strict after the anchored function is edited on disk: exit 1, dirty
    line names the reason and the file (tether names the memory by id and its anchor; DIFFERENCES.md)"""
    mid = foo.remember("foo returns the number one", "src/foo.ts::foo")
    foo.write("src/foo.ts", FOO_EDITED)
    proc = foo.run("check", "--strict", check=False)
    assert proc.returncode == 1
    line = next(ln for ln in proc.stdout.splitlines() if mid[:8] in ln)
    assert line.startswith("stale") and "(body_edited)" in line
    assert "src/foo.ts::foo" in proc.stdout and "+  return 42;" in proc.stdout


def test_a_casual_check_lists_drift_but_exits_0(foo):
    """nocetta test/cli/cli.test.ts › check without --strict in the same drifted state: exit 0 — drift alone doesn't
    break a casual check; › worklist: exit 0 even with dirty nodes, and the report still lists them"""
    mid = foo.remember("foo returns the number one", "src/foo.ts::foo")
    foo.write("src/foo.ts", FOO_EDITED)
    proc = foo.run("check")
    assert proc.returncode == 0
    assert "1 stale" in proc.stdout and mid[:8] in proc.stdout and "body_edited" in proc.stdout


def test_a_quarantined_memory_file_fails_strict_check_naming_the_file(foo):
    """nocetta test/cli/cli.test.ts › check --strict with a quarantined store file: exit 1, the issue line names the
    file — and a bare check fails too: a memory no one can read is a failure, with or without --strict."""
    foo.remember("a healthy claim about foo returning one", "src/foo.ts::foo")
    foo.write(".tether/memories/broken--abc123.md", "not frontmatter at all\n")
    strict = foo.run("check", "--strict", check=False)
    assert strict.returncode == 1 and ".tether/memories/broken--abc123.md" in strict.stdout
    casual = foo.run("check", check=False)
    assert casual.returncode == 1 and "1 quarantined" in casual.stdout


# -- test/facade/facade.test.ts › worklist, contextTrigger ----------------------------------------
def test_check_flags_only_the_memory_whose_anchor_was_edited(foo):
    """nocetta test/facade/facade.test.ts › worklist flags the edited anchor with its hash-changed reason — and only
    the drifted node"""
    a = foo.remember("foo returns 1", "src/foo.ts::foo")
    b = foo.remember('bar returns "bar"', "src/foo.ts::bar")
    foo.write("src/foo.ts", FOO_EDITED)
    checked = foo.check()
    assert (checked[a]["status"], checked[a]["reason"]) == ("stale", "body_edited")
    assert (checked[b]["status"], checked[b]["reason"]) == ("active", None)


def test_check_lists_memories_in_a_stable_order(foo):
    """nocetta test/facade/facade.test.ts › worklist sorts dirty deterministically by node id (tether: by memory
    file name, DIFFERENCES.md)"""
    ids = [
        foo.remember(f"Memory {n} on foo: {n} is the {w} reason foo returns one.", "src/foo.ts::foo")
        for n, w in (("one", "first"), ("two", "second"), ("three", "third"))
    ]
    ids.append(foo.remember("bar spells its own name in lower case for the log parser.", "src/foo.ts::bar"))
    foo.write("src/foo.ts", BOTH_EDITED)
    first = [i["id"] for i in foo.json("check")["data"]]
    assert sorted(first) == sorted(ids)
    assert [i["id"] for i in foo.json("check")["data"]] == first
    # tether's stable order is the memory files' (DIFFERENCES.md): alphabetical by file name, slug first
    names = sorted(foo.memory_files())
    assert first == [next(i for i in ids if n.endswith(f"--{i[:8]}.md")) for n in names]


def test_recall_with_files_in_play_serves_live_memories_and_holds_back_a_drifted_one(foo):
    """nocetta test/facade/facade.test.ts › contextTrigger surfaces live anchored memories across the open file set —
    and drops a drifted one"""
    claim = foo.remember("foo returns the number one", "src/foo.ts::foo")
    lore = foo.remember("deploys happen on fridays", "docs/note.md#Deployment")
    items, _ = recalled(foo, "what should I know before touching these files", "src/foo.ts", "docs/note.md")
    assert sorted(items) == sorted([claim, lore])
    foo.write("src/foo.ts", FOO_EDITED)
    items, stale = recalled(foo, "what should I know before touching these files", "src/foo.ts", "docs/note.md")
    assert items == [lore] and stale == [claim]


def test_a_memory_matched_by_file_and_by_keyword_is_listed_once_and_never_while_stale(foo):
    """nocetta test/retrieval/keyword.test.ts › searchMemory with a keyword query › combines anchor and keyword
    candidate-gen without duplicating a node matched by both (and the keyword path doesn't bypass the live dirty
    check); test/retrieval/search.test.ts › excludes a dirty memory; test/retrieval/pipeline.test.ts › filterLive ›
    drops nodes whose anchor has drifted"""
    mid = foo.remember("foo is the single source of truth for the returned number.", "src/foo.ts::foo")
    items, stale = recalled(foo, "foo single source of truth", "src/foo.ts")
    assert (items, stale) == ([mid], [])
    foo.write("src/foo.ts", FOO_EDITED)
    items, stale = recalled(foo, "foo single source of truth", "src/foo.ts")
    assert (items, stale) == ([], [mid])


# -- test/repair/repair.test.ts, test/facade/facade.test.ts › reAnchor ---------------------------
def test_reanchor_repairs_a_stale_memory_in_place(foo):
    """nocetta test/repair/repair.test.ts › reAnchor › repairs a drifted hash in place — locator, body, and valid-time
    window untouched — and check() goes live again; test/facade/facade.test.ts › reAnchor repairs the drifted anchor
    in place through the facade. (`tether reanchor ID` with no --anchor re-binds to the code as it is now, where
    Nocetta refuses a request naming nothing: DIFFERENCES.md.)"""
    mid = foo.remember("foo returns 1", "src/foo.ts::foo")
    before = foo.json("show", mid)["data"]["memory"]
    files = list(foo.memory_files())
    foo.write("src/foo.ts", FOO_EDITED)
    assert foo.check()[mid]["status"] == "stale"
    foo.run("reanchor", mid[:8])
    after = foo.json("show", mid)["data"]["memory"]
    assert (after["body"], after["valid_from"], after["valid_to"]) == (before["body"], before["valid_from"], None)
    assert [a["spec"] for a in after["anchors"]] == ["src/foo.ts::foo"]
    assert list(foo.memory_files()) == files  # the same file, rewritten: no second memory
    assert foo.check()[mid]["status"] == "active"


def test_reanchor_refuses_an_unknown_id(foo):
    """nocetta test/repair/repair.test.ts › reAnchor › refuses an unknown node id"""
    foo.remember("foo returns 1", "src/foo.ts::foo")
    assert foo.error("reanchor", "deadbeef")["code"] == "not_found"


def test_reanchor_refuses_a_superseded_memory(foo):
    """nocetta test/repair/repair.test.ts › reAnchor › refuses a superseded node — repair is for live nodes;
    supersession already owns the dead ones"""
    old = foo.remember("foo returns one", "src/foo.ts::foo")
    foo.run("supersede", old, "foo returns the number one, always", "--reason", "clearer")
    before = foo.memory_files()
    assert foo.error("reanchor", old)["code"] == "conflict"
    assert foo.memory_files() == before


def test_reanchor_to_a_symbol_that_is_not_there_is_refused_and_the_store_is_untouched(foo):
    """nocetta test/repair/repair.test.ts › reAnchor › refuses a symbol that is not there, listing the available ones
    — the store is untouched (the near name first, then the file's others)"""
    mid = foo.remember("foo returns 1", "src/foo.ts::foo")
    before = foo.memory_files()
    err = foo.error("reanchor", mid, "--anchor", "src/foo.ts::baz")
    assert err["code"] == "anchor_unresolved" and err["near"] == ["bar", "foo"]
    assert foo.memory_files() == before


def test_retire_closes_the_memory_in_place_with_its_reason(foo):
    """nocetta test/repair/repair.test.ts › retire › closes the valid-time window and records the reason, in place;
    test/facade/facade.test.ts › retire closes the node in place through the facade; test/retrieval/pipeline.test.ts ›
    filterLive › drops nodes outside their valid-time window; test/store/index-file.test.ts › isCurrent › is false
    once validTo has passed"""
    mid = foo.remember("foo returns 1", "src/foo.ts::foo")
    before = foo.json("show", mid)["data"]["memory"]
    files = list(foo.memory_files())
    foo.run("retire", mid, "--reason", "foo was deleted; the claim has no subject")
    after = foo.json("show", mid)["data"]["memory"]
    assert after["retired_reason"] == "foo was deleted; the claim has no subject"
    assert after["valid_to"] is not None
    assert (after["body"], after["valid_from"], after["recorded_at"]) == (
        before["body"],
        before["valid_from"],
        before["recorded_at"],
    )
    assert list(foo.memory_files()) == files
    assert foo.check() == {}


def test_a_retired_memory_leaves_recall_but_not_history(foo):
    """nocetta test/repair/repair.test.ts › retire › drops the node out of search/contextTrigger results while asOf
    still sees it. tether's as-of reads validity (DIFFERENCES.md): before the retirement it is served, after it only
    `ls --all` and `show` hold it."""
    mid = foo.remember("foo returns the number one to every caller", "src/foo.ts::foo")
    born = foo.json("show", mid)["data"]["memory"]["valid_from"]
    foo.run("retire", mid, "--reason", "withdrawn")
    assert recalled(foo, "what does foo return to callers", "src/foo.ts") == ([], [])
    as_of = foo.json("recall", "what does foo return to callers", "--as-of", born)["data"]["items"]
    assert [i["id"] for i in as_of] == [mid]
    assert mid in [i["id"] for i in foo.json("ls", "--all")["data"]]


def test_retire_refuses_an_empty_reason_an_unknown_id_and_a_second_retirement(foo):
    """nocetta test/repair/repair.test.ts › retire › refuses an empty reason, an unknown id, and a second retirement"""
    mid = foo.remember("foo returns 1", "src/foo.ts::foo")
    assert foo.error("retire", mid, "--reason", "   ")["code"] == "invalid_input"
    assert foo.error("retire", "deadbeef", "--reason", "a reason")["code"] == "not_found"
    foo.run("retire", mid, "--reason", "first retirement")
    before = foo.memory_files()
    assert foo.error("retire", mid, "--reason", "a second retirement")["code"] == "conflict"
    assert foo.memory_files() == before


def test_the_whole_loop_keeps_one_memory_file_throughout(foo):
    """nocetta test/repair/repair.test.ts › the loop, closed end to end › capture → drift → worklist → reAnchor →
    worklist clean → retire → out of current, one node throughout"""
    mid = foo.remember("foo returns 1", "src/foo.ts::foo")
    files = list(foo.memory_files())
    foo.write("src/foo.ts", FOO_EDITED)
    assert foo.check()[mid]["reason"] == "body_edited"
    foo.run("reanchor", mid)
    assert foo.check()[mid]["status"] == "active"
    foo.run("retire", mid, "--reason", "the foo claim is no longer wanted")
    assert recalled(foo, "what does foo return", "src/foo.ts") == ([], [])
    assert list(foo.memory_files()) == files
