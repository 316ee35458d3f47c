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


FOO = "export function foo(): number {\n  const a = compute(1, 2);\n  return a + 1;\n}\n"
MAGE = """\
# Elminster

Elminster is a powerful archmage who lives in Shadowdale.

# Mystra

Mystra is the goddess of magic and weaves the Weave.
"""


@pytest.fixture
def lore(repo):
    """A memory on a function and a heading (Nocetta's repair fixture), both edited since: stale."""
    repo.write("src/foo.ts", FOO)
    repo.write("lore/mage.md", MAGE)
    repo.write("src/util.ts", "export function helper(): number {\n  return compute(5, 6) * 2;\n}\n")
    repo.commit("lore")
    mid = repo.remember(
        "foo adds one to compute, as the archmage's notes say.", "src/foo.ts::foo", "lore/mage.md#Elminster"
    )
    repo.replace("src/foo.ts", "a + 1", "a + 42")
    repo.replace("lore/mage.md", "powerful archmage", "retired archmage")
    return repo, mid


def _anchors(repo, mid):
    return repo.json("show", mid)["data"]["memory"]["anchors"]


def test_reanchor_repairs_a_heading_anchor_of_a_multi_anchor_memory_and_keeps_the_other(lore):
    """nocetta test/repair/repair.test.ts › reAnchor › repairs a heading anchor by the same machinery — the request
    resolves against the content artifact"""
    repo, mid = lore
    foo_before = _anchors(repo, mid)[0]
    out = repo.json("reanchor", mid, "--anchor", "lore/mage.md#Mystra")["data"]
    assert [(c["change"], c["was"], c["now"]) for c in out["changes"]] == [
        ("kept", "src/foo.ts::foo", None),
        ("rebound", "lore/mage.md#Elminster", "lore/mage.md#Mystra"),
    ]
    foo_after, mystra = _anchors(repo, mid)
    assert foo_after == foo_before  # byte for byte: not this request's business
    assert (mystra["type"], mystra["symbol"]) == ("section", "Mystra")
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")  # foo is still edited
    assert [a["status"] for a in item["anchors"]] == ["stale", "active"]


def test_reanchor_repairs_only_the_matching_anchor(lore):
    """nocetta test/repair/repair.test.ts › reAnchor › repairs only the matching anchor on a multi-anchor node; the
    other anchor is untouched"""
    repo, mid = lore
    mage_before = _anchors(repo, mid)[1]
    repo.run("reanchor", mid, "--anchor", "src/foo.ts::foo")
    assert _anchors(repo, mid)[1] == mage_before
    assert [a["status"] for a in repo.check()[mid]["anchors"]] == ["active", "stale"]


def test_reanchor_naming_none_of_the_anchors_is_refused_listing_them(lore):
    """nocetta test/repair/repair.test.ts › reAnchor › refuses a multi-anchor node when no anchored artifact resolves
    the request, listing the node's artifactPaths"""
    repo, mid = lore
    files = repo.memory_files()
    err = repo.error("reanchor", mid, "--anchor", "src/util.ts::helper")
    assert err["code"] == "invalid_input"
    assert "(src/foo.ts::foo, lore/mage.md#Elminster)" in err["message"]
    assert repo.memory_files() == files


def test_reanchor_by_a_spec_with_its_path_picks_that_files_anchor(repo):
    """nocetta test/repair/repair.test.ts › reAnchor › refuses when the request resolves against more than one anchored
    artifact — no silent pick. DIFFERENCE (DIFFERENCES.md): a tether spec names its file, so `src/foo.ts::foo` can
    mean only the anchor in src/foo.ts; the one in src/other.ts is kept."""
    repo.write("src/foo.ts", FOO)
    repo.write("src/other.ts", FOO)
    repo.commit("two")
    mid = repo.remember("foo and its copy both add one to compute.", "src/foo.ts::foo", "src/other.ts::foo")
    repo.replace("src/foo.ts", "a + 1", "a + 2")
    repo.replace("src/other.ts", "a + 1", "a + 3")
    out = repo.json("reanchor", mid, "--anchor", "src/foo.ts::foo")["data"]
    assert [(c["change"], c["was"]) for c in out["changes"]] == [
        ("rebound", "src/foo.ts::foo"),
        ("kept", "src/other.ts::foo"),
    ]
    assert [a["status"] for a in repo.check()[mid]["anchors"]] == ["active", "stale"]


def test_ls_lists_memory_file_order_with_each_summary(shop):
    """nocetta test/cli/cli.test.ts › nocetta CLI (Seam 8) › ls lists every node sorted by id, kind/authority columns
    padding-aligned, body truncated at 60 chars. DIFFERENCE (DIFFERENCES.md): tether lists in memory-file order
    (`<slug>--<id8>.md`, stable) and prints each memory's summary: its first sentence, cut at 120 characters."""
    long = "zz " + "b" * 70 + " and then " + "c" * 70 + " end. A second sentence never shows in ls."
    z = shop.remember(long, "src/a.ts::f")
    a = shop.remember("aa: we ship on fridays because the queue drains overnight.", "src/a.ts::f", kind="convention")
    listed = shop.json("ls")["data"]
    assert [m["id"] for m in listed] == [a, z]  # by file name (aa-..., zz-...), whatever the ids
    assert listed[1]["summary"] == "zz " + "b" * 70 + " and then…"
    lines = shop.run("ls").stdout.splitlines()
    assert a[:8] in lines[0] and "we ship on fridays" in lines[0]
    assert "A second sentence" not in shop.run("ls").stdout


def test_a_recall_that_finds_nothing_says_so(shop):
    """nocetta test/mcp/server.test.ts › a secret body comes back as an isError result ... (an empty result teaches
    capture: "no matching memories", naming memory_remember). DIFFERENCE (DIFFERENCES.md): the CLI says "nothing
    known about this yet"; the JSON answer (CLI and MCP alike) is empty items and stale with `matched: 0`; when
    to remember is in the MCP server's always-on instructions, not repeated in every empty answer."""
    shop.remember("f adds three to computeA so the legacy dashboard totals match.", "src/a.ts::f")
    assert shop.run("recall", "zebra quantum giraffe").stdout == "nothing known about this yet\n"
    out = shop.json("recall", "zebra quantum giraffe")
    assert (out["data"], out["meta"]["completeness"]["matched"]) == ({"items": [], "stale": []}, 0)


def _push_and_repeat(repo, env, session: str) -> tuple[bytes, bytes]:
    """The RELATED prompt twice in `session`: what each printed (a push, then the dedup's silence)."""
    from hooktools import RELATED, payload, run_hook

    data = payload("user_prompt_submit.json", session=session, repo=str(repo.path), transcript="", prompt=RELATED)
    return run_hook("UserPromptSubmit", data, env).stdout, run_hook("UserPromptSubmit", data, env).stdout


def _compact(repo, env, session: str = "") -> None:
    from hooktools import payload, run_hook

    data = payload("pre_compact.json", session=session, repo=str(repo.path), transcript="")
    proc = run_hook("PreCompact", data, env)
    assert (proc.returncode, proc.stdout) == (0, b"")


def test_a_session_less_precompact_resets_the_session_it_runs_in(repo, tmp_path):
    """nocetta test/recall/push-recall-hook.test.ts › priorInjectionsFor › a session-less compaction marker still
    resets (the PreCompact fallback): a PreCompact payload without `session_id` resets the window of the session
    Claude Code names in CLAUDE_CODE_SESSION_ID, and with neither, the session-less window; the memory pushed
    before it is pushed again after."""
    from hooktools import billing_repo, hook_env

    billing_repo(repo)
    named = hook_env(tmp_path, repo.path, CLAUDE_CODE_SESSION_ID="s1")
    first, repeat = _push_and_repeat(repo, named, "")
    assert first != b"" and repeat == b""
    _compact(repo, named)
    assert _push_and_repeat(repo, named, "")[0] != b""
    bare = hook_env(tmp_path / "bare", repo.path)
    first, repeat = _push_and_repeat(repo, bare, "")
    assert first != b"" and repeat == b""
    _compact(repo, bare)
    assert _push_and_repeat(repo, bare, "")[0] != b""


def test_a_session_less_precompact_leaves_a_named_sessions_window_alone(repo, tmp_path):
    """nocetta test/recall/push-recall-hook.test.ts › priorInjectionsFor › a session-less compaction marker still
    resets (a marker with no session resets session s1 too). DIFFERENCE (DIFFERENCES.md): a PreCompact that names
    no session is the session-less window's; session s1's pushes stay deduplicated."""
    from hooktools import billing_repo, hook_env

    billing_repo(repo)
    env = hook_env(tmp_path, repo.path)
    first, repeat = _push_and_repeat(repo, env, "s1")
    assert first != b"" and repeat == b""
    _compact(repo, env)
    assert _push_and_repeat(repo, env, "s1") == (b"", b"")


def test_ls_is_the_index_of_current_memories_and_no_index_file_is_written(shop):
    """nocetta test/store/index-file.test.ts › renderIndex › prints one line per current node ... omitting superseded
    and retired nodes; › reports no current memories rather than an empty body when nothing is current.
    DIFFERENCE (DIFFERENCES.md): tether writes no generated index file into the repository (`.tether/` holds the
    memories and its .gitignore); `ls` is the index, and says how to start when there is nothing."""
    assert shop.run("ls").stdout == "no memories yet: tether remember TEXT --anchor path::Symbol\n"
    old = shop.remember("f adds three to computeA for the legacy dashboard.", "src/a.ts::f")
    gone = shop.remember("computeA takes exactly two arguments in f.", "src/a.ts::f")
    new = shop.json("supersede", old, "f adds four to computeA since the dashboard rewrite.")["data"]["current"]["id"]
    shop.run("retire", gone, "--reason", "arguments are no longer fixed")
    assert [m["id"] for m in shop.json("ls")["data"]] == [new]
    assert sorted(p.name for p in (shop.path / ".tether").iterdir()) == [".gitignore", "memories"]
