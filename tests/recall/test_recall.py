"""Recall through the real CLI (and the library where the engine itself is the subject)."""

from __future__ import annotations

import math
import subprocess
import sys
import time

import orjson
import pytest

from tether.recall.ranking import decayed
from tether.recall.search import MemoryIndex
from tether.recall.text import raw_terms, terms
from tether.store.model import now_iso

SRC = '''\
import time


def fetchWithRetry(url, attempts=5):
    """Fetch a URL, retrying server errors."""
    for i in range(attempts):
        resp = get(url)
        if resp.status < 500:
            return resp
        time.sleep(2 ** i)
    return resp


class Pool:
    def acquire(self, batch_size=10):
        items = []
        for n in range(batch_size):
            items.append(self.take(n))
        return items

    def release(self, item):
        self.free.append(item)
        self.waiters.notify()
'''

OTHER = """\
def render_invoice(order, locale):
    lines = [format_line(item, locale) for item in order.items]
    total = sum(item.price for item in order.items)
    return "\\n".join(lines + [format_total(total, locale)])


def parse_config(path):
    with open(path) as f:
        return toml_loads(f.read())
"""

RETRY = "Retries back off exponentially and only on 5xx responses: a 4xx never heals, so retrying it wastes the budget."
BATCH = "The pool hands out batch_size=10 items per call; larger batches starved the other workers in load tests."


@pytest.fixture
def code(repo):
    repo.write("src/http.py", SRC)
    repo.write("src/billing/invoice.py", OTHER)
    repo.commit("code")
    return repo


def recall(repo, query: str, *args: str, check: bool = True) -> dict:
    proc = repo.run("recall", query, *args, "--json", check=check)
    return orjson.loads(proc.stdout)


def ids(out: dict, key: str = "items") -> list[str]:
    return [item["id"] for item in out["data"][key]]


def test_recall_finds_the_memory_and_names_matched_terms(code):
    mid = code.remember(RETRY, "src/http.py::fetchWithRetry", kind="gotcha")
    code.remember(BATCH, "src/http.py::Pool.acquire", kind="decision")
    out = recall(code, "should we keep retrying 4xx responses from the budget service?")
    assert ids(out) == [mid]
    item = out["data"]["items"][0]
    assert item["matched"] == ["retrying", "4xx", "responses"]  # three at most, in task order
    assert item["anchors"] == [{"type": "symbol", "path": "src/http.py", "symbol": "fetchWithRetry", "lines": [4, 11]}]
    assert (item["kind"], item["confidence"]) == ("gotcha", 0.8)
    assert out["data"]["stale"] == []
    assert set(out["meta"]) >= {"freshness", "completeness", "staleness", "tokens"}


def test_matched_is_absent_when_no_task_term_appears_verbatim(code):
    code.remember(RETRY, "src/http.py::fetchWithRetry")
    item = recall(code, "retry policy")["data"]["items"][0]
    assert "matched" not in item  # "retry" stems to the body's "retrying" but is not in it verbatim


def test_identifiers_are_split_for_indexing_and_queries(code):
    retry = code.remember("Never wrap this in another retry loop: attempts multiply.", "src/http.py::fetchWithRetry")
    batch = code.remember(BATCH, "src/http.py::Pool.acquire")
    assert ids(recall(code, "fetch with retry"))[0] == retry  # the symbol name, split
    assert ids(recall(code, "what batch size does the pool use"))[0] == batch  # batch_size in the body
    assert ids(recall(code, "fetchWithRetry"))[0] == retry
    assert terms("fetchWithRetry batch_size HTTPConnection") == [
        "fetch",
        "retry",
        "fetchwithretry",
        "batch",
        "siz",
        "batchsiz",
        "http",
        "connection",
        "httpconnection",
    ]


def test_stale_match_is_listed_apart_with_reason_diff_and_evidence(code):
    mid = code.json(
        "remember", RETRY, "--anchor", "src/http.py::fetchWithRetry", "--evidence", "pytest tests/test_http.py"
    )["data"]["id"]
    code.replace("src/http.py", "if resp.status < 500:", "if resp.status < 400:")
    out = recall(code, "retrying 4xx responses")
    assert ids(out) == []
    (item,) = out["data"]["stale"]
    assert (item["id"], item["status"], item["reason"]) == (mid, "stale", "body_edited")
    assert item["evidence"] == "pytest tests/test_http.py"
    diff = item["anchors"][0]["diff"]
    assert "-        if resp.status < 500:" in diff and "+        if resp.status < 400:" in diff
    assert out["meta"]["staleness"] == {"stale": 1, "invalidated": 0}
    assert out["meta"]["staleness"] == code.json("check")["meta"]["staleness"]
    code.git("checkout", "--", "src/http.py")
    assert ids(recall(code, "retrying 4xx responses")) == [mid]


def test_deleted_anchor_is_invalidated_not_current(code):
    mid = code.remember(RETRY, "src/http.py::fetchWithRetry")
    code.write(
        "src/http.py",
        SRC.split("class Pool")[0].replace("def fetchWithRetry", "def other_name").split("def other_name")[0],
    )
    out = recall(code, "retrying 4xx responses")
    assert ids(out) == [] and [(s["id"], s["status"], s["reason"]) for s in out["data"]["stale"]] == [
        (mid, "invalidated", "anchor_deleted")
    ]


def test_relevance_floor_returns_what_matters_not_what_fits(code):
    want = code.remember(
        "Invoice totals are summed before locale formatting so rounding happens once.",
        "src/billing/invoice.py::render_invoice",
    )
    code.remember(
        "Config files are TOML; YAML was rejected for its implicit typing.", "src/billing/invoice.py::parse_config"
    )
    code.remember(RETRY, "src/http.py::fetchWithRetry")
    code.remember(BATCH, "src/http.py::Pool.acquire")
    code.remember(
        "Release notifies one waiter only; waking all of them caused a thundering herd.", "src/http.py::Pool.release"
    )
    out = recall(code, "change how invoice totals are rounded for the locale")
    assert ids(out) == [want]
    c = out["meta"]["completeness"]
    assert c["returned"] == 1 and c["matched"] >= 2 and c["omitted_reason"] == "relevance_floor"
    assert c["omitted"]["relevance_floor"] == c["matched"] - 1


def test_same_file_outranks_elsewhere_for_equal_text(code):
    a = code.remember("Timeouts here are in seconds, not milliseconds.", "src/http.py::Pool.release")
    b = code.remember("Timeouts here are in seconds, never milliseconds.", "src/billing/invoice.py::parse_config")
    assert ids(recall(code, "timeouts in seconds", "--file", "src/billing/invoice.py"))[0] == b
    assert ids(recall(code, "timeouts in seconds", "--file", "src/http.py"))[0] == a


def test_budget_is_a_hard_cap_and_the_cut_is_counted(code):
    for i, sym in enumerate(["fetchWithRetry", "Pool.acquire", "Pool.release"]):
        body = f"Connection pooling note {i}: " + " ".join(["sockets are reused across requests"] * 12)
        code.run("remember", body, "--anchor", f"src/http.py::{sym}", "--force")
    out = recall(code, "connection pooling sockets reused", "--budget", "200")
    raw = code.run("recall", "connection pooling sockets reused", "--budget", "200", "--json").stdout.strip()
    assert math.ceil(len(raw) / 4) <= 200
    assert out["meta"]["tokens"] == {"budget": 200, "used": math.ceil(len(raw) / 4)}
    c = out["meta"]["completeness"]
    assert c["matched"] == 3 and c["returned"] < 3 and c["omitted_reason"] == "budget"
    assert c["returned"] + c["omitted"]["budget"] == 3
    full = recall(code, "connection pooling sockets reused")
    assert full["meta"]["completeness"]["returned"] == 3


def test_long_bodies_are_previewed(code):
    body = "Pool release order matters. " + "The free list is LIFO so hot objects stay in cache. " * 30
    mid = code.json("remember", body, "--anchor", "src/http.py::Pool.release")["data"]["id"]
    item = recall(code, "pool release order")["data"]["items"][0]
    assert item["id"] == mid and item["truncated"] is True
    assert item["body"].endswith(" …") and len(item["body"]) < 300


def test_supersede_hides_the_old_version_and_as_of_finds_it(code):
    old = code.remember("Pool batches are 10 items.", "src/http.py::Pool.acquire", kind="decision")
    between = now_iso()
    time.sleep(0.05)
    new = code.json("supersede", old, "Pool batches are 25 items since the worker pool grew.", "--reason", "resized")[
        "data"
    ]["current"]["id"]
    assert ids(recall(code, "how many items per pool batch")) == [new]
    past = recall(code, "how many items per pool batch", "--as-of", between)
    assert ids(past) == [old]
    assert past["data"]["items"][0]["valid_to"] and past["meta"]["as_of"] == between
    assert ids(recall(code, "how many items per pool batch", "--as-of", "2000-01-01")) == []


def test_retired_memory_is_not_recalled_but_history_keeps_it(code):
    mid = code.remember(RETRY, "src/http.py::fetchWithRetry")
    before = now_iso()
    time.sleep(0.05)
    code.run("retire", mid, "--reason", "the client moved to a library with its own retries")
    assert ids(recall(code, "retrying 4xx responses")) == []
    assert ids(recall(code, "retrying 4xx responses", "--as-of", before)) == [mid]


def test_kind_filter(code):
    code.remember(RETRY, "src/http.py::fetchWithRetry", kind="gotcha")
    dec = code.remember(
        "Retries use exponential back-off, decided after the 2023 outage.", "src/http.py::Pool.acquire", kind="decision"
    )
    assert ids(recall(code, "retries exponential back-off", "--kind", "decision")) == [dec]


def test_duplicate_on_the_same_anchor_is_refused_unless_forced(code):
    first = code.remember(RETRY, "src/http.py::fetchWithRetry")
    before = code.memory_files()
    proc = code.run(
        "remember",
        RETRY.replace("so retrying", "therefore retrying"),
        "--anchor",
        "src/http.py::fetchWithRetry",
        "--json",
        check=False,
    )
    err = orjson.loads(proc.stdout)["error"]
    assert proc.returncode == 2 and err["code"] == "duplicate" and err["existing"] == first
    assert code.memory_files() == before
    forced = code.json("remember", RETRY, "--anchor", "src/http.py::fetchWithRetry", "--force")
    assert forced["data"]["id"] != first and len(code.memory_files()) == 2
    # the same words on another anchor are not a duplicate
    code.remember(RETRY, "src/http.py::Pool.acquire")


def test_number_or_negation_change_is_stored_and_reported_as_conflict(code):
    old = code.remember("The pool hands out 10 items per batch to each worker.", "src/http.py::Pool.acquire")
    out = code.json(
        "remember", "The pool hands out 25 items per batch to each worker.", "--anchor", "src/http.py::Pool.acquire"
    )
    assert [(c["id"], c["reason"]) for c in out["data"]["conflicts"]] == [(old, "number_differs")]
    neg = code.remember("Release wakes every waiter at once.", "src/http.py::Pool.release")
    out = code.json("remember", "Release never wakes every waiter at once.", "--anchor", "src/http.py::Pool.release")
    assert [(c["id"], c["reason"]) for c in out["data"]["conflicts"]] == [(neg, "negation_differs")]
    human = code.run(
        "remember", "Invoices are rendered per locale.", "--anchor", "src/billing/invoice.py::render_invoice"
    )
    assert "conflict" not in human.stdout
    assert len(code.memory_files()) == 5


def test_supersede_is_not_refused_as_a_duplicate_of_its_predecessor(code):
    old = code.remember(RETRY, "src/http.py::fetchWithRetry")
    out = code.json("supersede", old, RETRY + " Verified again.", "--reason", "re-checked")
    assert out["data"]["superseded"]["id"] == old


def test_bad_input_comes_back_with_stable_codes(code):
    def err(*args: str) -> str:
        proc = code.run("recall", *args, "--json", check=False)
        assert proc.returncode == 2
        return orjson.loads(proc.stdout)["error"]["code"]

    assert err("   ") == "invalid_input"
    assert err("x" * 9000) == "invalid_input"
    assert err("retries", "--budget", "0") == "invalid_input"
    assert err("retries", "--budget", "-5") == "invalid_input"
    assert err("retries", "--kind", "rumour") == "invalid_input"
    assert err("retries", "--as-of", "last tuesday") == "invalid_input"
    assert err("retries", "--file", "../../etc/passwd") == "outside_root"


def test_human_output_is_short(code):
    code.remember(RETRY, "src/http.py::fetchWithRetry", kind="gotcha")
    text = code.run("recall", "retrying 4xx responses").stdout
    lines = text.strip().splitlines()
    assert lines[0].startswith("active") and "gotcha" in lines[0]
    assert lines[-1] == "1 of 1 matching memories"
    assert code.run("recall", "kubernetes ingress").stdout.strip() == "nothing known about this yet"


def test_index_follows_memory_files_and_rebuilds_when_the_cache_is_lost(code, tether_home):
    import shutil

    mid = code.remember(RETRY, "src/http.py::fetchWithRetry")
    assert ids(recall(code, "retrying 4xx responses")) == [mid]
    shutil.rmtree(tether_home / "cache")
    assert ids(recall(code, "retrying 4xx responses")) == [mid]
    (path,) = (code.path / ".tether" / "memories").glob("*.md")
    path.unlink()
    assert ids(recall(code, "retrying 4xx responses")) == []


def test_quarantined_file_is_skipped(code):
    mid = code.remember(RETRY, "src/http.py::fetchWithRetry")
    code.write(".tether/memories/broken--deadbeef.md", "---\n{not json\n---\nretrying 4xx responses\n")
    assert ids(recall(code, "retrying 4xx responses")) == [mid]


def test_interrupted_supersession_is_closed_by_its_successor(code, tmp_path):
    from tether.service import Tether

    old = code.remember("Pool batches are 10 items.", "src/http.py::Pool.acquire")
    t = Tether(code.path)
    new = t.remember("Pool batches are 25 items.", ["src/http.py::Pool.acquire"])
    t.store.write(new.evolve(links={"supersedes": [old]}))  # crash before the old one was closed
    assert ids(recall(code, "pool batch items")) == [new.id]


def test_search_is_importable_without_tree_sitter_or_mcp():
    code = (
        "import sys, tether.recall.search, tether.recall.text; "
        "bad = [m for m in sys.modules if m.startswith(('tree_sitter', 'mcp'))]; print(bad)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_search_gives_an_absolute_coverage_for_hooks(code):
    mid = code.remember(RETRY, "src/http.py::fetchWithRetry")
    index = MemoryIndex(code.path)
    try:
        (hit,) = index.search("retrying 4xx responses").candidates
        assert hit.memory_id == mid and hit.coverage == 1.0 and hit.text > 0
        (half,) = index.search("retrying 4xx kubernetes ingress").candidates
        assert 0 < half.coverage < 1.0
        assert index.search("kubernetes ingress").candidates == ()
    finally:
        index.close()


def test_base_confidence_mirrors_the_resolver(code):
    from tether.lifecycle.verdicts import confidence
    from tether.service import Tether

    t = Tether(code.path)
    m = t.remember(RETRY, ["src/http.py::fetchWithRetry"], source="verified", evidence="pytest -k retry")
    m = m.evolve(verified_at="2020-01-01T00:00:00Z")
    from tether.store.model import parse_time

    assert round(decayed(m.confidence, parse_time(m.verified_at).timestamp()), 3) == confidence(m, "active")


def test_raw_terms_keep_identifiers_whole():
    assert raw_terms("Why does fetchWithRetry skip 4xx in http.client? the it") == [
        "fetchWithRetry",
        "skip",
        "4xx",
        "http.client",
    ]


def test_matched_terms_are_whole_words_in_any_case_beside_unicode_punctuation(code):
    mid = code.remember("Retrying a 4XX — never: the budget_service bills each attempt.", "src/http.py::fetchWithRetry")
    item = next(i for i in recall(code, "retrying 4xx against budget_service")["data"]["items"] if i["id"] == mid)
    assert item["matched"] == ["retrying", "4xx", "budget_service"]
    assert "matched" not in next(
        i for i in recall(code, "budget service bill")["data"]["items"] if i["id"] == mid
    )  # "budget" and "bill" sit inside budget_service and bills: not whole words


def test_the_case_traps_are_every_character_whose_case_holds_an_ascii_one():
    """found_verbatim searches with ASCII case rules unless the text holds one of these; a Python
    with newer Unicode tables that adds one must add it there too."""
    from tether.recall.text import CASE_TRAPS

    derived = {
        chr(cp)
        for cp in range(0x80, 0x110000)
        if any(ord(x) < 128 for x in chr(cp).lower() + chr(cp).upper() + chr(cp).casefold())
    }
    assert set(CASE_TRAPS) == derived


@pytest.mark.parametrize(
    ("term", "text", "found"),
    [
        ("disk", "the DISK fills", True),
        ("disk", "diskette", False),
        ("os.path", "use os.path.join", True),
        ("4xx", "a 4xx_code", False),
        ("kill", "\u212aill switch", True),  # KELVIN SIGN: case-blind, as a pattern matches it
        ("sig", "\u017fig", True),  # LONG S
        ("tab", "\u00e9tab", False),  # é is a letter: `tab` is not a word of `étab`
        ("caf", "le café", False),
        ("bersetzung", "die Übersetzung", False),
        ("café", "le CAFÉ.", True),
        ("café", "le cafe\u0301 ouvert", True),  # decomposed in the text, composed in the task
        ("ฐานข", "ฐานข้อมูล", False),  # a vowel sign (a mark) goes on with the word
        ("straße", "die Straße", True),
    ],
)
def test_found_verbatim_finds_whole_words_in_any_script(term, text, found):
    from tether.recall.text import found_verbatim

    assert found_verbatim(term, text) is found
