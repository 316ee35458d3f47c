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


def test_a_function_renamed_in_its_file_is_followed(billing):
    """An independent reader's finding: a rename inside one file read `active`, where docs/ci.md says
    `followed` is "the code moved or was renamed in this change"."""
    repo, ids = billing
    repo.replace("src/billing.py", "def tax(", "def sales_tax(")
    (item,) = [i for i in affected(repo)["data"] if i["id"] == ids["tax"]]
    assert (item["effect"], item["status"]) == ("followed", "active")
    assert item["anchors"][0]["was"] == "src/billing.py::tax"


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


# -- anchors followed before the change, read where they resolve at the base ---------------------
def _move_tax(repo):
    """`tax` moved to src/taxes.py in a commit of its own, the memory never reanchored: it is
    stored at src/billing.py::tax and followed to src/taxes.py."""
    text = repo.read("src/billing.py")
    start = text.index("def tax(")
    repo.write("src/billing.py", text[:start].rstrip() + "\n")
    repo.write("src/taxes.py", "CENT = 1\n\n\n" + text[start:])
    repo.commit("taxes get their own module")


def test_deleting_the_file_a_followed_anchor_lives_in_lists_it(billing):
    repo, ids = billing
    _move_tax(repo)
    (repo.path / "src/taxes.py").unlink()
    assert repo.check()[ids["tax"]]["status"] == "invalidated"
    (item,) = affected(repo)["data"]
    assert (item["id"], item["effect"], item["status"]) == (ids["tax"], "deleted", "invalidated")
    assert item["at_base"] == ["src/taxes.py"] and item["before"] == "active"
    assert "(at the base: src/taxes.py)" in repo.run("affected").stdout


def test_git_mv_of_the_file_a_followed_anchor_lives_in_lists_it(billing):
    repo, ids = billing
    _move_tax(repo)
    repo.git("mv", "src/taxes.py", "src/vat.py")
    (item,) = affected(repo)["data"]
    assert (item["id"], item["effect"], item["status"]) == (ids["tax"], "followed", "active")
    assert item["anchors"][0]["path"] == "src/vat.py" and item["at_base"] == ["src/taxes.py"]


def test_editing_a_followed_function_where_it_lives_is_stale_with_the_diff(billing):
    repo, ids = billing
    _move_tax(repo)
    repo.replace("src/taxes.py", "ROUND_HALF_UP", "ROUND_HALF_EVEN")
    (item,) = affected(repo)["data"]
    assert (item["id"], item["effect"]) == (ids["tax"], "stale")
    assert "+    return gross.quantize(CENT, rounding=ROUND_HALF_EVEN)" in item["anchors"][0]["diff"]


def test_a_whole_file_anchor_followed_through_git_mv_then_edited(repo):
    repo.write("conf/limits.txt", "".join(f"limit{i} = {i * 7}\n" for i in range(30)))
    repo.commit("limits")
    mid = repo.remember("Limits are per tenant, never global.", "conf/limits.txt")
    repo.commit("memory")
    repo.git("mv", "conf/limits.txt", "conf/quotas.txt")
    repo.commit("renamed")
    assert repo.only()["status"] == "active"  # followed
    repo.replace("conf/quotas.txt", "limit3 = 21", "limit3 = 99")
    (item,) = affected(repo)["data"]
    assert item["id"] == mid and item["effect"] == "stale" and item["at_base"] == ["conf/quotas.txt"]
    assert "+limit3 = 99" in item["anchors"][0]["diff"]


def test_a_whole_file_anchor_renamed_and_edited_in_the_change_is_stale_not_deleted(repo):
    repo.write("conf/limits.txt", "".join(f"limit{i} = {i * 7}\n" for i in range(30)))
    repo.commit("limits")
    mid = repo.remember("Limits are per tenant, never global.", "conf/limits.txt")
    repo.commit("memory")
    repo.git("mv", "conf/limits.txt", "conf/quotas.txt")
    repo.replace("conf/quotas.txt", "limit3 = 21", "limit3 = 99")
    (item,) = affected(repo)["data"]
    assert item["id"] == mid and item["effect"] == "stale"
    assert "+limit3 = 99" in item["anchors"][0]["diff"]


# -- what the change did to the memory files -----------------------------------------------------
def test_a_memory_added_in_the_change_is_new_not_still_active(billing):
    repo, ids = billing
    repo.replace("src/billing.py", "    amount = order.paid", "    # fees stay\n    amount = order.paid")
    mid = repo.remember("Refund amounts are logged before they are returned.", "src/billing.py::refund")
    env = affected(repo)
    assert by_id(env)[mid]["effect"] == "new" and by_id(env)[mid]["before"] is None
    out = repo.run("affected", "--format", "markdown").stdout
    assert "new in this change" in out
    assert out.count("still active") == 1  # the refund memory the comment touched, not the new one


def test_a_memory_invalidated_before_and_restored_by_the_change(billing):
    repo, ids = billing
    text = repo.read("src/billing.py")
    start = text.index("def tax(")
    repo.write("src/billing.py", text[:start].rstrip() + "\n")
    repo.commit("tax removed")
    assert repo.check()[ids["tax"]]["status"] == "invalidated"
    repo.write("src/billing.py", text)
    item = by_id(affected(repo))[ids["tax"]]
    assert (item["effect"], item["status"], item["before"]) == ("restored", "active", "invalidated")
    assert "restored: invalidated at the base" in repo.run("affected", "--format", "markdown").stdout


def test_an_edit_reanchored_in_the_same_change_is_shown_not_hidden(billing):
    repo, ids = billing
    repo.replace("src/billing.py", "round(it.price * it.qty, 2)", "it.price * it.qty")
    repo.run("reanchor", ids["total"])
    assert repo.check()[ids["total"]]["status"] == "active"
    item = by_id(affected(repo))[ids["total"]]
    assert item["effect"] == "reanchored" and item["status"] == "active"
    assert item["was"][0]["status"] == "stale" and "-        out += round(" in item["was"][0]["diff"]
    out = repo.run("affected", "--format", "markdown").stdout
    assert "re-anchored in this change (was stale at `src/billing.py::total`)" in out
    assert "still active" not in out


def test_a_memory_retired_in_the_change_is_listed(billing):
    repo, ids = billing
    repo.run("retire", ids["refund"], "--reason", "refunds moved to the payments service")
    item = by_id(affected(repo))[ids["refund"]]
    assert item["effect"] == "retired"
    out = repo.run("affected", "--format", "markdown").stdout
    assert "retired in this change: refunds moved to the payments service" in out


def test_a_memory_stale_at_the_base_is_already_stale_with_the_diff_from_the_base(billing):
    repo, ids = billing
    repo.replace("src/billing.py", "if region not in RATES or amount < 0:", "if region not in RATES:")
    repo.commit("an older edit, never reanchored")
    repo.replace("src/billing.py", "ROUND_HALF_UP", "ROUND_HALF_EVEN")
    item = by_id(affected(repo))[ids["tax"]]
    assert (item["effect"], item["status"], item["before"]) == ("already_stale", "stale", "stale")
    diff = item["anchors"][0]["diff"]
    assert "+    return gross.quantize(CENT, rounding=ROUND_HALF_EVEN)" in diff
    assert "amount < 0" not in diff  # the base's own older edit is not this change's
    assert "already stale at the base" in repo.run("affected", "--format", "markdown").stdout
    repo.git("checkout", "src/billing.py")
    assert affected(repo)["data"] == []  # stale at the base, the change elsewhere: not its news


# -- a store in a subdirectory of its repository (a monorepo's package) -----------------------
def test_a_store_in_a_subdirectory_of_the_repository(tmp_path):
    import subprocess
    import sys

    from conftest import Repo

    mono = Repo(tmp_path / "mono")
    mono.write("pkg/src/billing.py", BILLING)
    mono.write("README.md", "the monorepo\n")
    (mono.path / "pkg" / ".tether").mkdir()
    mono.commit("billing")

    def tether(*args, check=True):
        proc = subprocess.run(
            [sys.executable, "-m", "tether", "--root", str(mono.path / "pkg"), *args],
            cwd=mono.path / "pkg",
            capture_output=True,
            text=True,
        )
        assert not check or proc.returncode == 0, proc.stderr
        return proc

    mid = orjson.loads(tether("remember", ROUNDING, "--anchor", "src/billing.py::total", "--json").stdout)["data"]["id"]
    mono.commit("memory")
    mono.replace("pkg/src/billing.py", "round(it.price * it.qty, 2)", "it.price * it.qty")
    mono.write("README.md", "the monorepo, edited\n")  # outside the store's directory: not its change
    env = orjson.loads(tether("affected", "--json").stdout)
    (item,) = env["data"]
    assert item["id"] == mid and item["effect"] == "stale" and "-        out += round(" in item["anchors"][0]["diff"]
    assert env["meta"]["changed_files"] == 1 and env["meta"]["prefix"] == "pkg/"
    gh = tether("check", "--format", "github").stdout
    assert "::warning file=pkg/src/billing.py,line=1," in gh
    sarif = orjson.loads(tether("check", "--format", "sarif").stdout)
    (result,) = sarif["runs"][0]["results"]
    assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "pkg/src/billing.py"


# -- smaller things the red team found ---------------------------------------------------------
def test_a_shallow_clone_says_it_is_shallow(billing, tmp_path):
    import subprocess

    repo, _ = billing
    repo.git("checkout", "-q", "-b", "feature")
    repo.replace("src/billing.py", "order.paid - order.fees", "order.paid")
    repo.commit("feature")
    repo.git("checkout", "-q", "main")
    repo.write("src/other.py", "def unrelated(x):\n    return [x]\n")
    repo.commit("main moves on")
    clone = tmp_path / "clone"
    url = f"file://{repo.path}"
    subprocess.run(["git", "clone", "-q", "--depth", "1", "-b", "feature", url, str(clone)], check=True)
    subprocess.run(
        ["git", "fetch", "-q", "--depth", "1", "origin", "main:refs/remotes/origin/main"], cwd=clone, check=True
    )
    proc = repo.run("--root", str(clone), "affected", "--base", "origin/main", check=False, cwd=clone)
    assert proc.returncode == 2
    assert "shallow clone" in proc.stderr and "fetch-depth: 0" in proc.stderr


def test_a_binary_file_changed_is_said_not_printed(repo):
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)) * 4
    repo.write("assets/logo.png", png)
    repo.commit("logo")
    mid = repo.remember("The logo is the trademark filing's exact bytes.", "assets/logo.png")
    repo.commit("memory")
    repo.write("assets/logo.png", png[:-10] + b"\x01" * 10)
    (item,) = affected(repo)["data"]
    assert item["id"] == mid and item["effect"] == "stale"
    assert item["anchors"][0].get("diff") == "binary file changed"
    md = repo.run("affected", "--format", "markdown").stdout
    assert "binary file changed" in md and "\ufffd" not in md


def test_json_and_markdown_together_are_refused(billing):
    repo, _ = billing
    assert repo.error("affected", "--format", "markdown", exit=2)["code"] == "invalid_input"


def test_a_repository_with_no_commits_says_so(repo):
    repo.write("src/a.py", "def f(items):\n    return sorted(items, key=len)\n")
    out = repo.run("affected").stdout
    assert "no commits yet" in out and "4b825dc642cb" not in out
    assert affected(repo)["meta"]["base"] is None


def test_outside_a_repository_only_the_error(tmp_path):
    import subprocess
    import sys

    plain = tmp_path / "plain"
    plain.mkdir()
    proc = subprocess.run(
        [sys.executable, "-m", "tether", "--root", str(plain), "affected"], cwd=plain, capture_output=True, text=True
    )
    assert proc.returncode == 2
    (line,) = proc.stderr.strip().splitlines()
    assert line.startswith("tether: error[invalid_input]:") and "not in a git repository" in line


def test_staged_reads_the_index_not_the_working_tree(billing):
    repo, ids = billing
    repo.replace("src/billing.py", "order.paid - order.fees", "order.paid")
    assert affected(repo, "--staged")["data"] == []  # edited, not staged
    repo.git("add", "src/billing.py")
    repo.replace("src/billing.py", "round(it.price * it.qty, 2)", "it.price * it.qty")  # not staged
    env = affected(repo, "--staged")
    assert [i["id"] for i in env["data"]] == [ids["refund"]] and env["meta"]["staged"] is True
    repo.write("src/untracked.py", "x = 1\n")
    assert env["meta"]["changed_files"] == affected(repo, "--staged")["meta"]["changed_files"] == 1
    repo.git("checkout", "src/billing.py")  # the index's version
    repo.git("rm", "-q", "--cached", "src/billing.py")
    effects = {i["id"]: i["effect"] for i in affected(repo, "--staged")["data"]}
    assert effects == {i: "deleted" for i in ids.values()}
