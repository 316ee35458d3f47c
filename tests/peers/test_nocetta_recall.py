"""Nocetta's retrieval, supersession and usage-ledger scenarios (test/retrieval/*.test.ts,
test/supersede/*.test.ts, test/bitemporal/as-of.test.ts, test/lore/contradiction.test.ts,
test/recall/recall.test.ts, test/facade/facade.test.ts), re-typed against tether's real CLI (and the real
Stop hook where a citation is the subject) in a real git repository.

Nocetta's `search({filesInPlay, keyword})` is `tether recall TASK --file F`; its supersession tip is
tether's current memory of a `supersede` chain; its `asOf` is `recall --as-of`; its ledger quadrants are
`tether stats`' quadrants.
"""

from __future__ import annotations

import json

import pytest
from hooktools import hook_env, payload, run_hook

BILLING = """\
export function calculateTotal(items: number[]): number {
  return items.reduce((sum, x) => sum + x, 0);
}

export function formatCurrency(amount: number): string {
  return `$${amount.toFixed(2)}`;
}
"""

PRICING_A = "export function f(): number {\n  return computeA(1, 2) + 3;\n}\n"
PRICING_B = "export function g(): number {\n  return computeB(4, 5) * 6;\n}\n"

UTIL = """\
export function retryWithBackoff(maxAttempts: number) {
  return maxAttempts;
}

export function jitter(ms: number): number {
  return ms + Math.floor(Math.random() * 250);
}
"""

MAGE = """\
# Elminster

Elminster is a powerful archmage who lives in Shadowdale.

# Mystra

Mystra is the goddess of magic.
"""


@pytest.fixture
def billing(repo):
    repo.write("src/billing.ts", BILLING)
    repo.write("src/a.ts", PRICING_A)
    repo.write("src/b.ts", PRICING_B)
    repo.write("lore/mage.md", MAGE)
    repo.commit("billing")
    return repo


def recall(repo, task: str, *extra: str) -> dict:
    return repo.json("recall", task, *extra)


def items(env: dict) -> list[str]:
    return [i["id"] for i in env["data"]["items"]]


def front_matter(repo, mid: str) -> tuple[str, dict, str]:
    (name,) = [n for n in repo.memory_files() if n.endswith(f"--{mid[:8]}.md")]
    head, body = repo.read(f".tether/memories/{name}").split("\n---\n", 1)
    return name, json.loads(head.removeprefix("---\n")), body


# -- test/retrieval/keyword.test.ts -------------------------------------------------------------
def test_a_keyword_recalls_the_memory_that_mentions_the_identifier(billing):
    """nocetta test/retrieval/keyword.test.ts › candidatesFromKeyword (BM25) › recalls a node whose body mentions the
    queried identifier"""
    target = billing.remember(
        "calculateTotal sums every line item into a grand total.", "src/billing.ts::calculateTotal"
    )
    billing.remember("formatCurrency renders two decimal places for display.", "src/billing.ts::formatCurrency")
    found = recall(billing, "calculateTotal")
    assert items(found) == [target]


def test_a_memory_naming_the_identifier_twice_ranks_above_one_naming_it_once(billing):
    """nocetta test/retrieval/keyword.test.ts › candidatesFromKeyword (BM25) › ranks a node mentioning the identifier
    twice above one mentioning it once"""
    twice = billing.remember(
        "calculateTotal calls calculateTotal recursively for nested invoices.", "src/billing.ts::calculateTotal"
    )
    once = billing.remember(
        "calculateTotal is defined next to the currency formatter in this module.", "src/billing.ts::formatCurrency"
    )
    assert items(recall(billing, "calculateTotal")) == [twice, once]


def test_an_empty_query_is_refused_and_a_query_matching_nothing_returns_nothing(billing):
    """nocetta test/retrieval/keyword.test.ts › candidatesFromKeyword (BM25) › returns nothing for an empty query and
    nothing for no matches. tether refuses the empty query outright (DIFFERENCES.md), as Nocetta's MCP search does."""
    billing.remember("calculateTotal sums every line item into a grand total.", "src/billing.ts::calculateTotal")
    assert billing.error("recall", "   ")["code"] == "invalid_input"
    found = recall(billing, "nonexistentTerm")
    assert found["data"] == {"items": [], "stale": []}


def test_a_keyword_finds_a_memory_anchored_away_from_the_files_in_play(billing):
    """nocetta test/retrieval/keyword.test.ts › searchMemory with a keyword query › surfaces a keyword-matched node
    with no anchor into the files in play; test/facade/facade.test.ts › search: filesInPlay finds the anchored claim;
    keyword finds the value"""
    claim = billing.remember("foo-style claim: the pricing helper f adds three.", "src/a.ts::f")
    value = billing.remember(
        "we always validate calculateTotal's output before persisting an invoice.", "src/billing.ts::calculateTotal"
    )
    assert items(recall(billing, "validate calculateTotal output before persisting", "--file", "src/a.ts"))[0] == value
    assert claim in items(recall(billing, "what should I know before editing this", "--file", "src/a.ts"))


# -- test/retrieval/pipeline.test.ts, search.test.ts ----------------------------------------------
def test_files_in_play_bring_only_the_memories_anchored_into_them(billing):
    """nocetta test/retrieval/pipeline.test.ts › candidatesFromFiles › returns only nodes with an anchor into the file
    set; › resolveToTip › a node with no superseded-by edge resolves to itself (already the tip);
    test/retrieval/search.test.ts › surfaces a live memory anchored to a file in play; › does not surface a memory with
    no anchor into the files in play"""
    inside = billing.remember("The pricing helper f adds three for the legacy rounding.", "src/a.ts::f")
    outside = billing.remember("The pricing helper g multiplies by six for the bulk tier.", "src/b.ts::g")
    found = items(recall(billing, "what should I know before editing this", "--file", "src/a.ts"))
    assert found == [inside] and outside not in found


def test_memories_in_more_files_in_play_are_served_alongside_those_in_fewer(billing):
    """nocetta test/retrieval/pipeline.test.ts › rankCandidates › more matched files outranks fewer, regardless of
    recency; › candidatesFromFiles › matches on multiple files in play. tether differs (DIFFERENCES.md): a memory in any file in play gets the same file prior, however many of
    those files it touches; both are served."""
    both = billing.remember("The older memory spans both helpers in the pricing module.", "src/a.ts::f", "src/b.ts::g")
    one = billing.remember("The newer memory covers one helper in the pricing module.", "src/a.ts::f")
    found = recall(billing, "what should I know before editing", "--file", "src/a.ts", "--file", "src/b.ts")["data"]
    assert sorted(i["id"] for i in found["items"]) == sorted([both, one])


def test_an_older_verification_ranks_below_a_recent_one(billing):
    """nocetta test/retrieval/pipeline.test.ts › rankCandidates › breaks ties on matched-file count by recency (tether:
    confidence decays with the time since the last verification, so the stale-aged memory ranks below)"""
    aged = billing.remember("Omega note: the pricing helper was rewritten for the launch.", "src/a.ts::f")
    fresh = billing.remember("Alpha note: the pricing helper is owned by the revenue team.", "src/a.ts::f")
    name, meta, body = front_matter(billing, aged)
    for key in ("recorded_at", "valid_from", "verified_at"):
        meta[key] = "2024-06-01T00:00:00.000Z"
    billing.write(f".tether/memories/{name}", "---\n" + json.dumps(meta, indent=2, sort_keys=True) + "\n---\n" + body)
    found = recall(billing, "what should I know before editing", "--file", "src/a.ts")["data"]["items"]
    assert [i["id"] for i in found] == [fresh, aged]
    assert found[0]["confidence"] > found[1]["confidence"]


def test_limit_caps_the_number_of_memories_returned_and_says_so(billing):
    """nocetta test/retrieval/pipeline.test.ts › applyBudget › caps at maxResults; test/retrieval/search.test.ts ›
    respects maxResults and maxBodyChars end to end"""
    for n, word in enumerate(("first", "second", "third")):
        billing.remember(f"The {word} fact about the pricing helper f: note {n} for the revenue team.", "src/a.ts::f")
    found = recall(billing, "what should I know about the pricing helper", "--file", "src/a.ts", "--limit", "2")
    assert len(found["data"]["items"]) == 2
    assert found["meta"]["completeness"]["omitted_reason"] == "limit"
    assert found["meta"]["completeness"]["omitted"]["limit"] == 1


LONG = "Totals are summed in integer cents. " + " ".join(
    f"The ledger reconciler depends on exact integer arithmetic here, clause {i}." for i in range(60)
)


def test_past_the_budget_what_does_not_fit_is_counted_not_previewed(billing):
    """nocetta test/retrieval/pipeline.test.ts › applyBudget › keeps remaining ranked results once the body-char
    budget is spent, summary-only rather than dropped. tether differs on purpose (DIFFERENCES.md): the budget is a
    hard cap and what did not fit is counted in meta.completeness."""
    billing.run(
        "remember",
        LONG,
        "--summary",
        "Totals are summed in integer cents",
        "--anchor",
        "src/billing.ts::calculateTotal",
    )
    billing.remember(
        "Currency formatting uses two decimals because the invoice PDF template truncates longer amounts.",
        "src/billing.ts::formatCurrency",
    )
    found = recall(billing, "how are totals and currency handled", "--file", "src/billing.ts", "--budget", "200")
    assert len(found["data"]["items"]) == 1 and found["meta"]["tokens"]["used"] <= 200
    assert found["meta"]["completeness"]["omitted_reason"] == "budget"
    assert found["meta"]["completeness"]["omitted"]["budget"] == 1


def test_a_memory_whose_body_exceeds_the_budget_is_previewed_by_its_summary_not_dropped(billing):
    """nocetta test/retrieval/pipeline.test.ts › applyBudget › excerpts a single node whose body alone exceeds the
    whole budget to its summary plus a truncation marker — never dropped"""
    mid = billing.json(
        "remember",
        LONG,
        "--summary",
        "Totals are summed in integer cents",
        "--anchor",
        "src/billing.ts::calculateTotal",
    )["data"]["id"]
    found = recall(billing, "integer cents ledger reconciler", "--budget", "200")
    (item,) = found["data"]["items"]
    assert item["id"] == mid and item["summary"] == "Totals are summed in integer cents"
    assert item["truncated"] is True and len(item.get("body", "")) < len(LONG)


# -- supersession: pipeline › resolveToTip, supersede.test.ts, facade.test.ts ----------------------
def test_supersede_closes_the_old_memory_links_both_ways_and_keeps_it(billing):
    """nocetta test/supersede/supersede.test.ts › supersede › edges old -> superseded-by -> next and next -> supersedes
    -> old, non-destructively; test/capture/capture.test.ts › capture-as-supersession: old node edges forward and
    closes; test/facade/facade.test.ts › supersede persists both nodes, closes the old, and search resolves to the tip;
    › override stamps the mandatory reason, closes the old value, and resolves to the new tip;
    test/supersede/override.test.ts › overrides a default value node, recording the reason on the new node, and resolves
    to it; test/store/index-file.test.ts › isCurrent › is false for a superseded node"""
    old = billing.remember("foo returns one", "src/a.ts::f")
    out = billing.json(
        "supersede", old, "the helper f returns three more than computeA", "--reason", "it never was one"
    )
    new = out["data"]["current"]["id"]
    assert billing.json("history", new)["data"][0]["retired_reason"] == "superseded: it never was one"
    assert out["data"]["superseded"]["links"] == {"superseded_by": [new]}
    _, old_meta, _ = front_matter(billing, old)
    _, new_meta, _ = front_matter(billing, new)
    assert old_meta["links"] == {"superseded_by": [new]} and new_meta["links"] == {"supersedes": [old]}
    assert old_meta["valid_to"] == new_meta["valid_from"]
    assert items(recall(billing, "what does the helper return", "--file", "src/a.ts")) == [new]
    assert list(billing.check()) == [new]


def test_a_memory_already_superseded_cannot_be_superseded_again(billing):
    """nocetta test/supersede/supersede.test.ts › supersede › rejects superseding a node that is already superseded
    (no fan-out)"""
    old = billing.remember("foo returns one", "src/a.ts::f")
    billing.run("supersede", old, "the helper f returns three more than computeA")
    before = billing.memory_files()
    assert billing.error("supersede", old, "a second successor for the same belief")["code"] == "conflict"
    assert billing.memory_files() == before


def test_a_walk_back_chain_ends_at_the_restated_belief(billing):
    """nocetta test/supersede/supersede.test.ts › supersede › walk-back: A -> B -> A'' (restates A) resolves to A''"""
    a = billing.remember("we use library X for the pricing helper", "src/a.ts::f")
    b = billing.json("supersede", a, "we switched to library Y for the pricing helper")["data"]["current"]["id"]
    a2 = billing.json("supersede", b, "back to library X after all for the pricing helper")["data"]["current"]["id"]
    assert list(billing.check()) == [a2]
    assert [m["id"] for m in billing.json("history", a)["data"]] == [a, b, a2]
    assert items(recall(billing, "which library does the pricing helper use")) == [a2]


def test_a_recall_matching_a_superseded_memorys_wording_returns_the_current_tip(billing):
    """nocetta test/retrieval/pipeline.test.ts › resolveToTip › follows superseded-by forward to the tip and returns
    the tip node, not the candidate (the old belief's words find its successor, whatever the successor says)"""
    old = billing.remember(
        "Batch size is fifty because shared hosts kill requests that run longer than thirty seconds.",
        "src/a.ts::f",
        kind="decision",
    )
    new = billing.json(
        "supersede",
        old,
        "Uploads now go in chunks of two hundred since the new provider allows five minute calls.",
        "--reason",
        "new host",
    )["data"]["current"]["id"]
    assert items(recall(billing, "why is the batch size fifty, do shared hosts kill long requests?")) == [new]


# -- test/bitemporal/as-of.test.ts, facade.test.ts › asOf -----------------------------------------
def test_as_of_returns_the_belief_held_at_each_point_of_a_walk_back_chain(billing):
    """nocetta test/bitemporal/as-of.test.ts › asOf › returns the belief held at T across a walk-back chain A -> B ->
    A'' (exactly at a transition, the new belief reads as current); test/facade/facade.test.ts › asOf returns the
    belief the store held at a transaction time"""
    a = billing.remember("we use library X for the pricing helper", "src/a.ts::f")
    b = billing.json("supersede", a, "we switched to library Y for the pricing helper")["data"]["current"]["id"]
    a2 = billing.json("supersede", b, "back to library X after all for the pricing helper")["data"]["current"]["id"]
    chain = billing.json("history", a2)["data"]
    t1, t2, t3 = (m["valid_from"] for m in chain)
    task = "which library does the pricing helper use, X or Y"
    assert items(recall(billing, task, "--as-of", t1)) == [a]
    assert items(recall(billing, task, "--as-of", t2)) == [b]
    assert items(recall(billing, task, "--as-of", t3)) == [a2]
    held = recall(billing, task, "--as-of", t2)["data"]["items"][0]
    assert (held["valid_from"], held["valid_to"]) == (t2, t3)  # an as-of answer carries its validity window


def test_as_of_excludes_memories_not_yet_written(billing):
    """nocetta test/bitemporal/as-of.test.ts › asOf › excludes nodes not yet written as of T, alongside nodes never
    superseded"""
    early = billing.remember("The pricing helper f was written for the launch.", "src/a.ts::f")
    t_early = billing.json("show", early)["data"]["memory"]["valid_from"]
    late = billing.remember("The pricing helper g was written for the bulk tier.", "src/b.ts::g")
    task = "when was the pricing helper written"
    assert items(recall(billing, task, "--as-of", t_early)) == [early]
    assert sorted(items(recall(billing, task))) == sorted([early, late])


# -- test/lore/contradiction.test.ts --------------------------------------------------------------
def conflicts(repo, text: str, spec: str) -> list[str]:
    out = repo.json("remember", text, "--anchor", spec)["data"]
    assert out["id"] in repo.check()  # advisory: the memory is written all the same
    return [c["id"] for c in out["conflicts"]]


def test_a_negated_restatement_of_a_same_subject_memory_is_flagged(billing):
    """nocetta test/lore/contradiction.test.ts › HeuristicContradictionFlagger › flags a new fact that disagrees on
    negation with an existing fact sharing a keyword; test/capture/capture.test.ts › surfaces ... conflicts as warnings
    — advisory, the node is still written"""
    f1 = billing.remember("Elminster is alive and well.", "lore/mage.md#Elminster")
    assert conflicts(billing, "Elminster is not alive anymore.", "lore/mage.md#Elminster") == [f1]


def test_memories_sharing_no_keyword_are_not_flagged(billing):
    """nocetta test/lore/contradiction.test.ts › HeuristicContradictionFlagger › does not flag facts with no shared
    keyword"""
    billing.remember("Mystra governs magic.", "lore/mage.md#Mystra")
    assert conflicts(billing, "Elminster is not alive anymore.", "lore/mage.md#Elminster") == []


def test_an_ordinary_update_without_negation_is_not_flagged(billing):
    """nocetta test/lore/contradiction.test.ts › HeuristicContradictionFlagger › does not flag an ordinary update that
    doesn't disagree on negation (heuristic's honest limit)"""
    billing.remember("Elminster lives in Shadowdale.", "lore/mage.md#Elminster")
    assert conflicts(billing, "Elminster now lives in Waterdeep.", "lore/mage.md#Elminster") == []


def test_a_superseded_memory_is_not_checked_for_contradictions(billing):
    """nocetta test/lore/contradiction.test.ts › checkConsistency › retrieves the entity's live fact-set (excluding
    superseded facts) and delegates to the flagger"""
    old = billing.remember("Elminster is alive.", "lore/mage.md#Elminster")
    new = billing.json("supersede", old, "Elminster is alive and thriving in the north.")["data"]["current"]["id"]
    assert conflicts(billing, "Elminster is not alive anymore, tragically.", "lore/mage.md#Elminster") == [new]


# -- test/supersede/duplicates.test.ts ------------------------------------------------------------
BALANCE = (
    "Balance changes are validated by the headless sim before landing: monotonic progression, no runaway, "
    "no dead plateau."
)


def test_a_near_identical_restatement_on_the_same_anchor_is_refused_naming_the_original(billing):
    """nocetta test/supersede/duplicates.test.ts › duplicate convergence through the loop › remember warns on a
    duplicate capture; the worklist lists the pair until a supersede converges it. tether differs on purpose
    (DIFFERENCES.md): the near-duplicate is refused `duplicate`, naming the memory to supersede; --force stores both."""
    first = billing.remember(BALANCE, "src/a.ts::f", kind="convention")
    again = "Balance changes are validated by the headless sim before landing, monotonic progression, no runaway."
    err = billing.error("remember", again, "--anchor", "src/a.ts::f")
    assert err["code"] == "duplicate" and err["existing"] == first
    billing.run("remember", again, "--anchor", "src/a.ts::f", "--force")
    assert len(billing.check()) == 2


def test_distinct_beliefs_on_one_anchor_and_unrelated_beliefs_are_not_duplicates(billing):
    """nocetta test/supersede/duplicates.test.ts › findDuplicates › does not flag two distinct invariants that share a
    doc heading; › does not flag unrelated beliefs"""
    billing.remember(
        "Auto-buyers come only from the autobuy acquisition; automation is earned, never a tax.", "lore/mage.md#Mystra"
    )
    billing.remember(
        "Cap-raise mods are scoped and fixed (+N per stack), never a flat everything-bigger.", "lore/mage.md#Mystra"
    )
    billing.remember("The test runner is vitest, run with npm test.", "lore/mage.md#Mystra")
    assert len(billing.check()) == 3


def test_superseding_with_overlapping_text_is_no_duplicate(billing):
    """nocetta test/supersede/duplicates.test.ts › duplicate convergence through the loop › remember does not warn when
    the write supersedes the very belief it overlaps; › findDuplicates › skips a pair a supersession already relates"""
    first = billing.remember(BALANCE, "src/a.ts::f", kind="convention")
    out = billing.json("supersede", first, BALANCE.replace("no dead plateau", "no dead plateau, checked nightly"))
    assert list(billing.check()) == [out["data"]["current"]["id"]]


# -- test/recall/recall.test.ts › residual classify, buildLedger, recall log ----------------------
RESTATES = "retryWithBackoff will return maxAttempts."
RATIONALE = (
    "retryWithBackoff caps attempts at three because the upstream gateway blocks the fifth request and we saw "
    "cascading failures in the July incident."
)


@pytest.fixture
def ledger(repo):
    repo.write("src/util.ts", UTIL)
    repo.commit("util")
    return repo, {
        "covered": repo.remember(RESTATES, "src/util.ts::retryWithBackoff"),
        "complement": repo.remember(RATIONALE, "src/util.ts::retryWithBackoff", kind="decision"),
    }


def quadrants(repo) -> dict[str, list[str]]:
    return {q: [r["id"] for r in rows] for q, rows in repo.json("stats")["data"]["quadrants"].items()}


def test_a_memory_restating_its_code_is_covered_and_one_adding_rationale_is_a_complement(ledger):
    """nocetta test/recall/recall.test.ts › residual classify › a code-anchored claim that just restates the source is
    covered; › a code-anchored claim that adds rationale is a complement (never used: prunable vs dormant)"""
    repo, ids = ledger
    q = quadrants(repo)
    assert q["prunable"] == [ids["covered"]] and q["dormant"] == [ids["complement"]]


def test_a_memory_whose_code_is_gone_counts_as_adding_something(ledger):
    """nocetta test/recall/recall.test.ts › residual classify › an unreadable anchor falls through to complement rather
    than throwing"""
    repo, ids = ledger
    repo.write("src/util.ts", "export function jitter(ms: number): number {\n  return ms;\n}\n")
    q = quadrants(repo)
    assert ids["covered"] in q["dormant"] and ids["complement"] in q["dormant"] and q["prunable"] == []


def cite(repo, tmp_path, mid: str, session: str = "ledger-session") -> None:
    data = payload(
        "stop.json",
        session=session,
        repo=str(repo.path),
        transcript="",
        message=f"Kept the cap, as tether:{mid[:8]} says.",
    )
    proc = run_hook("Stop", data, hook_env(tmp_path, repo.path))
    assert (proc.returncode, proc.stdout) == (0, b"")


def test_the_ledger_places_each_memory_by_use_and_by_what_it_adds(ledger, tmp_path):
    """nocetta test/recall/recall.test.ts › buildLedger › places each node in the surfaced × complement quadrant"""
    repo, ids = ledger
    assert set(items(recall(repo, "retryWithBackoff maxAttempts gateway"))) == set(ids.values())
    q = quadrants(repo)
    assert q["working"] == [ids["complement"]] and q["redundant"] == [ids["covered"]]
    assert q["dormant"] == [] and q["prunable"] == []


def test_the_ledger_counts_surfacing_and_citing_from_the_usage_log(ledger, tmp_path):
    """nocetta test/recall/recall.test.ts › buildLedger › counts surfaced and cited from the log; › recall log ›
    records ack distinctly from recall, and skips a corrupt line"""
    repo, ids = ledger
    recall(repo, "retryWithBackoff caps attempts upstream gateway July incident", "--limit", "1")
    recall(repo, "retryWithBackoff caps attempts upstream gateway July incident", "--limit", "1")
    cite(repo, tmp_path, ids["complement"])
    (log,) = repo_state_logs(repo)
    with open(log, "a") as f:
        f.write("{ not json\n")
    s = repo.json("stats")["data"]
    assert (s["usage"]["recalls"], s["usage"]["credits"]) == (2, 1)
    (row,) = [r for r in s["top"] if r["id"] == ids["complement"]]
    assert (row["recalls"], row["credits"]) == (2, 1)


def repo_state_logs(repo) -> list:
    import os
    from pathlib import Path

    return list(Path(os.environ["TETHER_HOME"]).glob("state/*/usage.jsonl"))


def test_a_recall_that_found_nothing_is_still_logged(ledger):
    """nocetta test/recall/recall.test.ts › recall log › drops empty-id events — a null recall is not a data point.
    tether differs (DIFFERENCES.md): the recall served tokens, and stats sums every receipt."""
    repo, ids = ledger
    empty = recall(repo, "zebra giraffe elephant")
    assert empty["data"]["items"] == []
    u = repo.json("stats")["data"]["usage"]
    assert u["recalls"] == 1 and u["tokens"]["served"] == empty["meta"]["tokens"]["used"]


def test_no_usage_log_reads_as_no_usage(ledger):
    """nocetta test/recall/recall.test.ts › recall log › returns an empty log when none exists"""
    repo, ids = ledger
    u = repo.json("stats")["data"]["usage"]
    assert (u["recalls"], u["pushes"], u["credits"]) == (0, 0, 0)


def test_usage_never_lands_in_the_repository(ledger, tmp_path):
    """nocetta test/recall/recall.test.ts › recall log › self-owns .nocetta/.gitignore so the log is never committed;
    › adds the ignore line once across repeated writes. tether keeps usage out of the repository altogether (per-machine
    state dir, DIFFERENCES.md): after recalls and a credit, git sees nothing new."""
    repo, ids = ledger
    repo.commit("memories")
    recall(repo, "retryWithBackoff maxAttempts gateway")
    recall(repo, "retryWithBackoff maxAttempts gateway")
    cite(repo, tmp_path, ids["complement"])
    assert repo.git("status", "--porcelain", "--untracked-files=all") == ""
    assert list(repo_state_logs(repo))
