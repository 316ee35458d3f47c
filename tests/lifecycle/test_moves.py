"""Moves that real histories make: a file moved and edited in one go, and deleted anchors that
must not cost a repository sweep on every read."""

from __future__ import annotations

import pytest

SRC = """\
import json


class Ledger:
    def settle(self, entries, currency="EUR"):
        totals = {}
        for entry in entries:
            if entry.currency != currency:
                raise ValueError(f"mixed currencies: {entry.currency} != {currency}")
            totals[entry.account] = totals.get(entry.account, 0) + entry.cents
        return json.dumps(totals, sort_keys=True)
"""


def test_file_moved_and_edited_is_stale_where_it_went(repo):
    repo.write("app/ledger.py", SRC)
    repo.commit()
    mid = repo.remember(
        "Settlement refuses mixed currencies; conversion happens upstream.", "app/ledger.py::Ledger.settle"
    )
    repo.move("app/ledger.py", "app/accounting/ledger.py")
    repo.replace("app/accounting/ledger.py", "sort_keys=True", "sort_keys=True, indent=2")
    item = repo.check()[mid]
    a = item["anchors"][0]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
    assert (a["path"], a["symbol"], a["was"]) == (
        "app/accounting/ledger.py",
        "Ledger.settle",
        "app/ledger.py::Ledger.settle",
    )
    assert "+        return json.dumps(totals, sort_keys=True, indent=2)" in a["diff"]


def test_a_namesake_that_was_always_there_is_not_the_anchor(repo):
    repo.write("app/ledger.py", SRC)
    repo.write(
        "legacy/ledger.py",
        "class Ledger:\n    def settle(self):\n        raise NotImplementedError('use app.ledger')\n",
    )
    repo.commit()
    mid = repo.remember(
        "Settlement refuses mixed currencies; conversion happens upstream.", "app/ledger.py::Ledger.settle"
    )
    (repo.path / "app/ledger.py").unlink()
    item = repo.check()[mid]
    assert (item["status"], item["reason"], item["anchors"][0]["path"]) == (
        "invalidated",
        "anchor_deleted",
        "app/ledger.py",
    )


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


WALK = '''\
def collect_leaves(node, out):
    """Depth first, children in order: the renderer relies on source order."""
    if not node.children:
        out.append(node.value)
        return out
    for child in node.children:
        collect_leaves(child, out)
    return out
'''

ACCOUNT = """\
package bank;

public class Account {
    private final long cents;

    public Account(long cents) {
        if (cents < 0) throw new IllegalArgumentException("negative opening balance");
        this.cents = cents;
    }

    public Account deposit(long more) {
        return new Account(cents + more);
    }
}
"""


def test_renamed_recursive_function_is_followed(repo):
    """The recursive call is renamed with the function: the name inside the body is the function's own."""
    repo.write("tree.py", WALK)
    repo.commit()
    mid = repo.remember("Leaves come out in source order; the renderer depends on it.", "tree.py::collect_leaves")
    repo.write("tree.py", WALK.replace("collect_leaves", "gather_leaves"))
    item = repo.check()[mid]
    assert (item["status"], item["anchors"][0]["symbol"]) == ("active", "gather_leaves")
    # a call to some other function in the body is still an edit
    repo.write(
        "tree.py",
        WALK.replace("collect_leaves(child", "flatten(child").replace("def collect_leaves", "def gather_leaves"),
    )
    assert repo.check()[mid]["status"] in ("stale", "invalidated")


def test_renamed_class_with_its_constructor_is_followed(repo):
    repo.write("src/bank/Account.java", ACCOUNT)
    repo.commit()
    mid = repo.remember(
        "Accounts are immutable: deposit returns a new one, ledgers keep references.", "src/bank/Account.java::Account"
    )
    (repo.path / "src/bank/Account.java").unlink()  # Java: the public class names its file
    repo.write("src/bank/Wallet.java", ACCOUNT.replace("Account", "Wallet"))
    item = repo.check()[mid]
    a = item["anchors"][0]
    assert (item["status"], a["path"], a["symbol"]) == ("active", "src/bank/Wallet.java", "Wallet")
    # renamed once more, in place, and edited: stale where it went
    repo.replace("src/bank/Wallet.java", "cents + more", "cents + more + 1")
    assert repo.check()[mid]["status"] == "stale"


def test_method_of_a_renamed_class_that_names_its_class_is_followed(repo):
    """`deposit` returns `new Account(...)`: renaming the class edits that line, and nothing else."""
    repo.write("src/bank/Account.java", ACCOUNT)
    repo.commit()
    mid = repo.remember(
        "Deposits never mutate: callers holding the old account still see the old balance.",
        "src/bank/Account.java::Account.deposit",
    )
    (repo.path / "src/bank/Account.java").unlink()
    repo.write("src/bank/Wallet.java", ACCOUNT.replace("Account", "Wallet"))
    item = repo.check()[mid]
    a = item["anchors"][0]
    assert (item["status"], a["path"], a["symbol"]) == ("active", "src/bank/Wallet.java", "Wallet.deposit")


def test_delegating_method_renamed_keeps_its_hash(repo):
    """The name inside the body is someone else's `.get`: the plain rename path, no re-spelling."""
    repo.write(
        "cache.py",
        "class Cache:\n    def get(self, key):\n        value = self._store.get(key)\n"
        "        if value is None:\n            raise KeyError(f'no entry for {key!r} in {self._name}')\n"
        "        return value\n",
    )
    repo.commit()
    mid = repo.remember("Missing keys raise: a None in the store means evicted, never stored.", "cache.py::Cache.get")
    repo.replace("cache.py", "def get(", "def fetch(")
    item = repo.check()[mid]
    assert (item["status"], item["anchors"][0]["symbol"]) == ("active", "Cache.fetch")


HANDLERS = """\
def parse_invoice(raw):
    fields = raw.split(";")
    if len(fields) != 4:
        raise ValueError(f"invoice needs 4 fields, got {len(fields)}")
    number, customer, amount, currency = fields
    return {"number": number, "customer": customer, "cents": int(amount), "currency": currency}


def parse_credit_note(raw):
    fields = raw.split(";")
    if len(fields) != 4:
        raise ValueError(f"credit note needs 4 fields, got {len(fields)}")
    number, customer, amount, currency = fields
    return {"number": number, "customer": customer, "cents": -int(amount), "currency": currency}
"""


CENTS = "Amounts arrive in cents as integers; the upstream CSV never has decimals."
WITHOUT_INVOICE = HANDLERS[HANDLERS.index("def parse_credit_note") :]


def _invoice_memory(repo, **extra: str) -> str:
    """billing/parse.py (and `extra` files) committed, a memory anchored to parse_invoice."""
    repo.write("billing/parse.py", HANDLERS)
    for rel, text in extra.items():
        repo.write(rel, text)
    repo.commit()
    return repo.remember(CENTS, "billing/parse.py::parse_invoice")


def test_renamed_and_edited_in_one_go_is_stale_where_it_went(repo):
    mid = _invoice_memory(repo)
    repo.replace("billing/parse.py", "def parse_invoice(raw):", "def parse_invoice_line(raw):")
    repo.replace(
        "billing/parse.py",
        '"cents": int(amount), "currency": currency}',
        '"cents": int(amount), "currency": currency.upper()}',
    )
    item = repo.check()[mid]
    a = item["anchors"][0]
    assert (item["status"], item["reason"], a["symbol"]) == ("stale", "body_edited", "parse_invoice_line")
    assert (
        '+    return {"number": number, "customer": customer, "cents": int(amount), "currency": currency.upper()}'
        in a["diff"]
    )


def test_moved_to_another_module_and_edited_is_stale_where_it_went(repo):
    mid = _invoice_memory(
        repo, **{"billing/money.py": "def cents(amount):\n    return int(round(float(amount) * 100))\n"}
    )
    moved = HANDLERS[: HANDLERS.index("def parse_credit_note")].replace("int(amount)", "cents(amount)")
    repo.write("billing/parse.py", WITHOUT_INVOICE)
    repo.write("billing/money.py", repo.read("billing/money.py") + "\n\n" + moved)
    item = repo.check()[mid]
    a = item["anchors"][0]
    assert (item["status"], item["reason"], a["path"], a["symbol"]) == (
        "stale",
        "body_edited",
        "billing/money.py",
        "parse_invoice",
    )
    assert "cents(amount)" in a["diff"]


def test_moved_renamed_and_edited_in_one_go_is_stale_where_it_went(repo):
    """A refactor commit: `git mv` to a package, the function renamed, its body edited."""
    mid = _invoice_memory(repo)
    repo.move("billing/parse.py", "billing/formats/parse.py")
    repo.replace("billing/formats/parse.py", "def parse_invoice(raw):", "def parse_invoice_line(raw):")
    repo.replace("billing/formats/parse.py", '"currency": currency}', '"currency": currency.upper()}')
    item = repo.check()[mid]
    a = item["anchors"][0]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
    assert (a["path"], a["symbol"], a["was"]) == (
        "billing/formats/parse.py",
        "parse_invoice_line",
        "billing/parse.py::parse_invoice",
    )
    assert "currency.upper()" in a["diff"]


def test_a_class_renamed_with_its_file_and_edited_is_stale_where_it_went(repo):
    """Java names the file after its public class: renaming the class renames the file too."""
    repo.write("src/bank/Account.java", ACCOUNT)
    repo.write(
        "src/bank/Teller.java",
        "package bank;\n\npublic class Teller {\n    public long deposit(long more) {\n        return more;\n    }\n}\n",
    )
    repo.commit()
    mid = repo.remember(
        "Deposits never mutate: callers holding the old account still see the old balance.",
        "src/bank/Account.java::Account.deposit",
    )
    (repo.path / "src/bank/Account.java").unlink()
    repo.write(
        "src/bank/Wallet.java",
        ACCOUNT.replace("Account", "Wallet").replace("(cents + more)", "(Math.addExact(cents, more))"),
    )
    item = repo.check()[mid]
    a = item["anchors"][0]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
    assert (a["path"], a["symbol"]) == ("src/bank/Wallet.java", "Wallet.deposit")
    assert "Math.addExact(cents, more)" in a["diff"]


def test_a_moved_file_whose_anchor_is_gone_keeps_it_deleted(repo):
    """The anchored function deleted in the move; its look-alike neighbour was there all along."""
    mid = _invoice_memory(repo)
    repo.move("billing/parse.py", "billing/formats/parse.py")
    repo.write("billing/formats/parse.py", WITHOUT_INVOICE)
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("invalidated", "anchor_deleted")


@pytest.mark.parametrize(
    "extra",
    [
        {},  # parse_credit_note, a look-alike neighbour, was there all along
        {
            "legacy/parse.py": HANDLERS.replace("invoice needs 4 fields", "legacy invoice needs 4 fields")
        },  # a namesake module too
    ],
    ids=["neighbour", "namesake-module"],
)
def test_what_was_always_there_is_never_taken_for_a_deleted_anchor(repo, extra):
    mid = _invoice_memory(repo, **extra)
    repo.write("billing/parse.py", WITHOUT_INVOICE)
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("invalidated", "anchor_deleted")


def _cache_db(tether_home):
    (cache,) = tether_home.glob("cache/*/cache.sqlite")
    return cache


def _lookup_indexes(tether_home) -> set[str]:
    import sqlite3

    conn = sqlite3.connect(_cache_db(tether_home))
    try:
        return {
            r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='index' AND name LIKE 'symbols_%'")
        }
    finally:
        conn.close()


def test_a_big_first_index_still_follows_renames_and_moves_and_keeps_its_lookups(repo, tether_home):
    # 600 files: the first sweep bulk-loads and builds the by-hash and by-name lookups after
    for i in range(600):
        repo.write(f"pkg/m{i:03}.py", f"def helper_{i}(x):\n    return x * {i} + {i * 7}\n")
    repo.write("app/ledger.py", SRC)
    repo.commit()
    mid = repo.remember(
        "Settlement refuses mixed currencies; conversion happens upstream.", "app/ledger.py::Ledger.settle"
    )
    assert {"symbols_hash", "symbols_name", "symbols_path"} <= _lookup_indexes(tether_home)
    repo.move("app/ledger.py", "core/books.py")
    repo.replace("core/books.py", "class Ledger:", "class Books:")
    a = repo.check()[mid]["anchors"][0]
    assert (a["status"], a["path"], a["symbol"]) == ("active", "core/books.py", "Books.settle")


def test_lookups_lost_by_a_killed_bulk_sweep_come_back_with_the_next_read(repo, tether_home):
    import sqlite3

    repo.write("app/ledger.py", SRC)
    repo.commit()
    mid = repo.remember(
        "Settlement refuses mixed currencies; conversion happens upstream.", "app/ledger.py::Ledger.settle"
    )
    conn = sqlite3.connect(_cache_db(tether_home))
    conn.execute("DROP INDEX symbols_hash")  # what a sweep killed between dropping and rebuilding leaves
    conn.execute("DROP INDEX symbols_name")
    conn.close()
    repo.move("app/ledger.py", "core/ledger.py")
    a = repo.check()[mid]["anchors"][0]
    assert (a["status"], a["path"]) == ("active", "core/ledger.py")
    assert {"symbols_hash", "symbols_name"} <= _lookup_indexes(tether_home)


def test_a_moved_file_is_followed_unless_it_says_too_little_to_be_told_apart(repo):
    repo.write("docs/runbook.txt", "Restart the worker with `systemctl restart worker`, then drain the queue.\n")
    repo.write("conf/flag.txt", "enabled\n")
    repo.commit()
    runbook = repo.remember("The runbook is the on-call source of truth.", "docs/runbook.txt")
    flag = repo.remember("The flag file is read once at start.", "conf/flag.txt")
    repo.move("docs/runbook.txt", "ops/runbook.txt")
    repo.move("conf/flag.txt", "settings/flag.txt")
    items = repo.check()
    r, f = items[runbook]["anchors"][0], items[flag]["anchors"][0]
    assert (items[runbook]["status"], r["path"]) == ("active", "ops/runbook.txt")
    # one word: a copy anywhere would match it, so it is never re-pointed, only offered
    assert (items[flag]["status"], items[flag]["reason"], f["path"]) == ("stale", "low_entropy", "conf/flag.txt")
    assert f["candidates"] == ["settings/flag.txt"]


FILES = """\
class Reader:
    def __init__(self, f):
        self._f = f

    def close(self):
        self._f.close()


class Writer:
    def __init__(self, f):
        self._f = f

    def close(self):
        self._f.close()
"""


def test_a_package_moved_whole_keeps_even_its_commonest_bodies(repo):
    """`git mv shop src/shop`: a body too short to follow by hash alone, or with a twin beside it,
    is told apart by its name in the file's namesake, which did not hold it before."""
    repo.write("shop/files.py", FILES)
    repo.commit()
    close = repo.remember("Closing a Reader closes the caller's file too.", "shop/files.py::Reader.close")
    init = repo.remember("Writer keeps no buffer of its own.", "shop/files.py::Writer.__init__")
    repo.move("shop/files.py", "src/shop/files.py")
    repo.commit("src layout")
    items = repo.check()
    for mid, symbol in ((close, "Reader.close"), (init, "Writer.__init__")):
        a = items[mid]["anchors"][0]
        assert (items[mid]["status"], a["path"], a["symbol"]) == ("active", "src/shop/files.py", symbol)


def test_a_namesake_copy_that_was_always_there_is_not_where_a_deleted_file_went(repo):
    repo.write("shop/files.py", FILES)
    repo.write("legacy/files.py", FILES)
    repo.commit()
    mid = repo.remember("Closing a Reader closes the caller's file too.", "shop/files.py::Reader.close")
    (repo.path / "shop/files.py").unlink()
    item = repo.check()[mid]
    assert item["status"] != "active"
    assert item["anchors"][0]["path"] == "shop/files.py"


NEWTYPE = '''\
class {name}:
    """A 16-byte identifier kept as bytes; the wire form is hex, lower case, no dashes."""

    def __init__(self, raw: bytes) -> None:
        if len(raw) != 16:
            raise ValueError(f"expected 16 bytes, got {{len(raw)}}")
        self.raw = raw

    def wire(self) -> str:
        return self.raw.hex()
'''


def test_twins_with_identical_bodies_moved_together_each_follow_to_their_own_name(repo):
    # Two types share a body (hence a hash); once one has been followed, the other must not be
    # sent to the same place: each memory keeps its own follow.
    repo.write("types/uuid.py", NEWTYPE.format(name="Uuid"))
    repo.write("types/date.py", NEWTYPE.format(name="Date"))
    repo.commit()
    uuid = repo.remember("Uuid is compared as bytes, never as the hex string.", "types/uuid.py::Uuid")
    date = repo.remember("Date reuses the 16-byte layout for the timeline index.", "types/date.py::Date")
    repo.move("types/uuid.py", "model/uuid.py")
    repo.move("types/date.py", "model/date.py")
    for _ in range(2):  # the second check reads the follows the first one kept
        items = repo.check()
        got = {
            mid: (items[mid]["status"], items[mid]["anchors"][0]["path"], items[mid]["anchors"][0]["symbol"])
            for mid in (uuid, date)
        }
        assert got == {uuid: ("active", "model/uuid.py", "Uuid"), date: ("active", "model/date.py", "Date")}
