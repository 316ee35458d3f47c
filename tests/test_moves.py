"""Moves that real histories make: a file moved and edited in one go, and deleted anchors that
must not cost a repository sweep on every read."""

from __future__ import annotations

SRC = '''\
import json


class Ledger:
    def settle(self, entries, currency="EUR"):
        totals = {}
        for entry in entries:
            if entry.currency != currency:
                raise ValueError(f"mixed currencies: {entry.currency} != {currency}")
            totals[entry.account] = totals.get(entry.account, 0) + entry.cents
        return json.dumps(totals, sort_keys=True)
'''


def test_file_moved_and_edited_is_stale_where_it_went(repo):
    repo.write("app/ledger.py", SRC)
    repo.commit()
    mid = repo.remember("Settlement refuses mixed currencies; conversion happens upstream.", "app/ledger.py::Ledger.settle")
    repo.move("app/ledger.py", "app/accounting/ledger.py")
    repo.replace("app/accounting/ledger.py", "sort_keys=True", "sort_keys=True, indent=2")
    item = repo.check()[mid]
    a = item["anchors"][0]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
    assert (a["path"], a["symbol"], a["was"]) == ("app/accounting/ledger.py", "Ledger.settle", "app/ledger.py::Ledger.settle")
    assert "+        return json.dumps(totals, sort_keys=True, indent=2)" in a["diff"]


def test_a_namesake_that_was_always_there_is_not_the_anchor(repo):
    repo.write("app/ledger.py", SRC)
    repo.write("legacy/ledger.py", "class Ledger:\n    def settle(self):\n        raise NotImplementedError('use app.ledger')\n")
    repo.commit()
    mid = repo.remember("Settlement refuses mixed currencies; conversion happens upstream.", "app/ledger.py::Ledger.settle")
    (repo.path / "app/ledger.py").unlink()
    item = repo.check()[mid]
    assert (item["status"], item["reason"], item["anchors"][0]["path"]) == ("invalidated", "anchor_deleted", "app/ledger.py")


def test_whole_file_moved_and_edited_is_stale_where_it_went(repo):
    repo.write("docs/runbook.txt", "Restart the worker with `systemctl restart worker`.\nThen drain the queue.\n" * 3)
    repo.commit()
    mid = repo.remember("The runbook is the on-call source of truth.", "docs/runbook.txt")
    repo.move("docs/runbook.txt", "ops/runbook.txt")
    repo.write("ops/runbook.txt", repo.read("ops/runbook.txt") + "Page the owner if it fails twice.\n")
    item = repo.check()[mid]
    assert (item["status"], item["reason"], item["anchors"][0]["path"]) == ("stale", "file_edited", "ops/runbook.txt")


def test_a_deleted_anchor_does_not_sweep_again_until_something_could_have_moved_it(repo):
    repo.write("app/ledger.py", SRC)
    repo.commit()
    repo.remember("Settlement refuses mixed currencies; conversion happens upstream.", "app/ledger.py::Ledger.settle")
    repo.write("app/ledger.py", "import json\n")
    first = repo.json("check")
    assert (first["data"][0]["status"], first["meta"]["freshness"]["swept"]) == ("invalidated", True)
    again = repo.json("check")
    assert (again["data"][0]["status"], again["meta"]["freshness"]["swept"]) == ("invalidated", False)
    # the body comes back in another file, cut from nowhere: the anchored file changes too
    repo.write("app/settle.py", SRC)
    repo.write("app/ledger.py", "import json\nfrom .settle import Ledger\n")
    moved = repo.json("check")
    assert moved["meta"]["freshness"]["swept"] is True
    assert (moved["data"][0]["status"], moved["data"][0]["anchors"][0]["path"]) == ("active", "app/settle.py")
