"""Receipts: every recall priced against the anchored code it replaced, by hand-checkable arithmetic."""

from __future__ import annotations

import math

import orjson
import pytest
from hooktools import BILLING, RETRY, billing_repo

from tether.recall.receipts import FILE_OVERHEAD

INVOICE_TOTAL = BILLING[: BILLING.index("\n\n\ndef tax_rate")]  # the function node: `def` .. `return total`
TAX_RATE = BILLING[BILLING.index("def tax_rate") :].rstrip("\n")


def test_a_receipt_prices_one_symbol_memory_as_its_source_plus_one_file_open(repo):
    ids = billing_repo(repo)
    out = repo.json("recall", "why do invoice totals round each line to cents", "--limit", "1")
    assert [i["id"] for i in out["data"]["items"]] == [ids["total"]]
    # invoice_total's source is 192 characters: ceil(192 / 4) = 48 tokens, + 50 to open billing.py = 98
    assert len(INVOICE_TOTAL) == 192 and FILE_OVERHEAD == 50
    used = out["meta"]["tokens"]["used"]
    assert out["meta"]["receipt"] == {
        "served_tokens": used,
        "replaced_tokens": 98,
        "files": 1,
        "ratio": round(98 / used, 1),
    }


def test_overlapping_anchors_and_files_are_counted_once_per_recall(repo):
    from tether.recall.answer import recall
    from tether.service import Tether

    ids = billing_repo(repo)
    ids["total2"] = repo.remember(
        "Invoice totals feed the quarterly tax export; keep the signature stable.",
        "src/billing.py::invoice_total",
        kind="convention",
    )
    ids["retry-file"] = repo.remember(
        "The retry module is vendored from the payments SDK; patch upstream first.", "src/retry.py"
    )
    t = Tether(repo.path)
    try:
        env = recall(
            t,
            "invoice totals, tax rates and the retry backoff",
            ["src/billing.py", "src/retry.py"],
            budget_tokens=4000,
            limit=10,
        )
    finally:
        t.close()
    assert sorted(i["id"] for i in env["data"]["items"]) == sorted(ids.values())
    # billing.py: invoice_total once though two memories anchor it (ceil(192/4) = 48), tax_rate
    # (ceil(102/4) = 26), one open (50): 124. retry.py: the whole file (ceil(90/4) = 23) holds
    # backoff, so backoff adds nothing; one open (50): 73. Together 197 tokens from 2 files.
    assert (len(INVOICE_TOTAL), len(TAX_RATE), len(RETRY)) == (192, 102, 90)
    r = env["meta"]["receipt"]
    assert (r["replaced_tokens"], r["files"]) == (48 + 26 + 50 + 23 + 50, 2) == (197, 2)
    assert r["served_tokens"] == env["meta"]["tokens"]["used"] == math.ceil(len(orjson.dumps(env)) / 4)


def test_a_stale_memory_replaces_nothing(repo):
    ids = billing_repo(repo)
    repo.replace("src/retry.py", "min(30, 2 ** attempt)", "min(60, 2 ** attempt)")
    out = repo.json("recall", "retry backoff cap for the payment gateway", "--limit", "1")
    assert [i["id"] for i in out["data"]["stale"]] == [ids["backoff"]] and out["data"]["items"] == []
    r = out["meta"]["receipt"]
    assert (r["replaced_tokens"], r["files"], r["ratio"]) == (0, 0, 0.0)
    assert r["served_tokens"] == out["meta"]["tokens"]["used"]


def test_an_empty_answer_still_has_a_receipt(repo):
    billing_repo(repo)
    out = repo.json("recall", "dark mode toggle for the settings page")
    assert out["data"] == {"items": [], "stale": []}
    assert out["meta"]["receipt"] == {
        "served_tokens": out["meta"]["tokens"]["used"],
        "replaced_tokens": 0,
        "files": 0,
        "ratio": 0.0,
    }


@pytest.mark.parametrize("budget", [200, 230, 260, 300, 400, 1200])
def test_the_receipt_is_inside_the_budget_and_counted_in_tokens_used(repo, budget):
    billing_repo(repo)
    proc = repo.run("recall", "invoice totals, tax rates and the retry backoff", "--budget", str(budget), "--json")
    raw = proc.stdout.strip()
    out = orjson.loads(raw)
    used = math.ceil(len(raw) / 4)
    assert out["meta"]["tokens"] == {"budget": budget, "used": used} and used <= budget
    assert out["meta"]["receipt"]["served_tokens"] == used
