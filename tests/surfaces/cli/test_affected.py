"""`tether affected` on real git repositories: which memories a change touches, and how each stands."""

from __future__ import annotations

import orjson
import pytest

BILLING = '''\
def total(items):
    """Sum line totals, rounding each line first."""
    out = 0
    for it in items:
        out += round(it.price * it.qty, 2)
    return out


def refund(order, reason):
    amount = order.paid - order.fees
    log_refund(order.id, reason, amount)
    return amount


def tax(amount, rate, region="EU"):
    """VAT on a net amount, rounded half up."""
    if region not in RATES or amount < 0:
        raise ValueError(f"no VAT rule for {region!r} on {amount}")
    gross = amount * (rate or RATES[region])
    return gross.quantize(CENT, rounding=ROUND_HALF_UP)
'''

ROUNDING = "Totals round per line, not at the end: the tax office requires line-level rounding."
REFUNDS = "Refunds keep the processing fees: the provider never returns them to us."
TAX = "Tax is computed on the net amount and rounded half up, as the auditors asked."


@pytest.fixture
def billing(repo):
    repo.write("src/billing.py", BILLING)
    repo.write("src/other.py", "def unrelated(x):\n    return [x, x * 2, x * 3]\n")
    repo.commit("billing")
    ids = {
        "total": repo.remember(ROUNDING, "src/billing.py::total", kind="decision"),
        "refund": repo.remember(REFUNDS, "src/billing.py::refund"),
        "tax": repo.remember(TAX, "src/billing.py::tax"),
    }
    repo.commit("the team's memories")
    return repo, ids


def affected(repo, *args) -> dict:
    proc = repo.run("affected", "--json", *args)
    assert proc.returncode == 0, proc.stderr
    return orjson.loads(proc.stdout)


def by_id(env: dict) -> dict[str, dict]:
    return {item["id"]: item for item in env["data"]}


def test_an_uncommitted_edit_names_the_memory_on_the_edited_function_only(billing):
    repo, ids = billing
    repo.replace("src/billing.py", "round(it.price * it.qty, 2)", "it.price * it.qty")
    env = affected(repo)
    (item,) = env["data"]
    assert item["id"] == ids["total"] and item["effect"] == "stale" and item["status"] == "stale"
    assert item["touched"] == ["src/billing.py::total"]
    assert "-        out += round(it.price * it.qty, 2)" in item["anchors"][0]["diff"]
    assert env["meta"]["changed_files"] == 1 and env["meta"]["ref"] is None
    assert env["meta"]["effects"]["stale"] == 1
    text = repo.run("affected").stdout
    assert text.splitlines()[0].startswith("stale") and ids["total"][:8] in text and "refund" not in text


def test_a_comment_only_edit_touches_the_lines_but_the_memory_still_holds(billing):
    repo, ids = billing
    repo.replace("src/billing.py", "    amount = order.paid", "    # fees stay with us\n    amount = order.paid")
    (item,) = affected(repo)["data"]
    assert (item["id"], item["effect"], item["status"]) == (ids["refund"], "active", "active")


def test_nothing_changed_is_an_empty_answer_and_exit_0(billing):
    repo, _ = billing
    env = affected(repo)
    assert env["data"] == [] and env["meta"]["changed_files"] == 0
    assert "0 memories touched" in repo.run("affected").stdout


def test_a_committed_branch_against_its_base(billing):
    repo, ids = billing
    repo.git("checkout", "-q", "-b", "feature")
    repo.replace("src/billing.py", "order.paid - order.fees", "order.paid")
    repo.commit("refunds return the fees now")
    repo.git("checkout", "-q", "main")
    repo.write("src/other.py", "def unrelated(x):\n    return [x]\n")
    repo.commit("main moves on")
    repo.git("checkout", "-q", "feature")
    assert affected(repo)["data"] == []  # nothing uncommitted
    env = affected(repo, "--base", "main")
    assert [i["id"] for i in env["data"]] == [ids["refund"]]
    assert env["data"][0]["effect"] == "stale" and env["meta"]["ref"] == "main"
    assert env["meta"]["base"] == repo.git("merge-base", "main", "HEAD").strip()
    assert env["meta"]["changed_files"] == 1  # main's own change to other.py is not the branch's


def test_a_function_moved_to_another_file_is_followed(billing):
    repo, ids = billing
    text = repo.read("src/billing.py")
    start = text.index("def tax(")
    repo.write("src/billing.py", text[:start].rstrip() + "\n")
    repo.write("src/taxes.py", "from decimal import Decimal\n\nCENT = Decimal('0.01')\n\n\n" + text[start:])
    env = affected(repo)
    (item,) = env["data"]
    assert (item["id"], item["effect"], item["status"]) == (ids["tax"], "followed", "active")
    (anchor,) = item["anchors"]
    assert anchor["path"] == "src/taxes.py" and anchor["was"] == "src/billing.py::tax"
    repo.commit("taxes get their own module")
    # committed on a branch, the same move read against the base
    env = affected(repo, "--base", "HEAD~1")
    assert [(i["id"], i["effect"]) for i in env["data"]] == [(ids["tax"], "followed")]


def test_a_deleted_file_deletes_its_memories(billing):
    repo, ids = billing
    (repo.path / "src/billing.py").unlink()
    env = affected(repo)
    assert {i["id"]: i["effect"] for i in env["data"]} == {k: "deleted" for k in ids.values()}
    assert all(i["status"] == "invalidated" for i in env["data"])


def test_markdown_is_a_pull_request_comment_with_untrusted_text_inert(repo):
    repo.write("src/a.py", "def f(items):\n    return sorted(items, key=len)\n")
    repo.commit("code")
    hostile = "Sort by length <img src=x onerror=alert(1)> [click](javascript:x) @org/team ```\n::error::x"
    mid = repo.remember(hostile, "src/a.py::f")
    repo.commit("memory")
    repo.replace("src/a.py", "key=len", "key=str.lower")
    out = repo.run("affected", "--format", "markdown").stdout
    assert out.startswith("### tether: 1 memory this change affects")
    assert f"**stale** `{mid[:8]}`" in out and "```diff" in out
    assert "<img" not in out and "&lt;img" in out
    assert "[click](javascript" not in out and "\\[click\\]" in out
    assert "@org" not in out.replace("`@`org", "")  # no mention
    assert "\n::error" not in out  # the summary stays on its line


def test_a_bad_base_is_one_line_with_a_code(billing):
    repo, _ = billing
    proc = repo.run("affected", "--base", "no-such-branch", check=False)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines() == [
        "tether: error[not_found]: no commit 'no-such-branch' in this repository (git rev-parse found none)"
    ]
    assert repo.error("affected", "--base", "--output=/tmp/x", exit=2)["code"] == "invalid_input"
    (repo.path / ".git").rename(repo.path / "not-git")
    (repo.path / ".tether" / "x").mkdir()
    assert repo.error("affected", exit=2)["code"] == "invalid_input"
