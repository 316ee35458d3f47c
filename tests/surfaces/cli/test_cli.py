"""The CLI as users meet it: the harness JSON shapes, bad input, quarantine, cache loss, history."""

from __future__ import annotations

import shutil

import orjson
import pytest

SRC = """\
class Billing:
    def charge(self, cents, currency="EUR"):
        if cents <= 0:
            raise ValueError("amount must be positive")
        fee = max(30, cents * 29 // 1000)
        return self.gateway.capture(cents + fee, currency)
"""


@pytest.fixture
def billing(repo):
    repo.write("src/billing.py", SRC)
    repo.commit("billing")
    return repo


def test_remember_json_shape_matches_the_harness_contract(billing):
    proc = billing.run(
        "remember", "Fees are 2.9% with a 30 cent floor.", "--anchor", "src/billing.py::Billing.charge", "--json"
    )
    out = orjson.loads(proc.stdout)
    assert set(out) == {"data", "meta"}
    assert len(out["data"]["id"]) == 36
    assert set(out["meta"]) >= {"freshness", "completeness", "staleness"}
    assert set(out["meta"]["freshness"]) == {"indexed_at", "dirty", "swept"}


def test_check_json_shape_lists_every_live_memory(billing):
    mid = billing.remember("Fees are 2.9% with a 30 cent floor.", "src/billing.py::Billing.charge")
    out = billing.json("check")
    assert [item["id"] for item in out["data"]] == [mid]
    item = out["data"][0]
    assert {"id", "status", "reason", "anchors"} <= set(item)
    assert item["anchors"] == [
        {
            "type": "symbol",
            "path": "src/billing.py",
            "symbol": "Billing.charge",
            "status": "active",
            "reason": None,
            "lines": [2, 6],
        }
    ]
    assert out["meta"]["staleness"] == {"stale": 0, "invalidated": 0}


def test_memory_file_is_json_front_matter_then_markdown(billing):
    billing.remember(
        "Fees are 2.9% with a 30 cent floor.\n\nSee the 2024 pricing memo.", "src/billing.py::Billing.charge"
    )
    ((name, data),) = billing.memory_files().items()
    assert name.startswith("fees-are-2-9-with-a-30-cent-floor--") and name.endswith(".md")
    text = data.decode()
    head, body = text.split("\n---\n", 1)
    meta = orjson.loads(head.removeprefix("---\n"))
    assert meta["kind"] == "fact" and meta["anchors"][0]["hash"].startswith("t2:")
    assert list(meta) == sorted(meta)
    assert "status" not in meta and "penalty" not in meta
    assert body == "Fees are 2.9% with a 30 cent floor.\n\nSee the 2024 pricing memo.\n"


@pytest.mark.parametrize(
    "setup, spec, code",
    [
        (lambda r: r.write("tools/gen.xyz", "fn main() {}\n"), "tools/gen.xyz::main", "unsupported_language"),
        (lambda r: r.write("assets/logo.py", b"\x89PNG\r\n\x1a\n\x00\x00binary"), "assets/logo.py::x", "binary_file"),
        (lambda r: r.write("gen/big.py", "X = 1\n" * 200_000), "gen/big.py::X", "file_too_large"),
        (
            lambda r: r.write("legacy/latin.py", "# caf\xe9\ndef f():\n    return 1\n".encode("latin-1")),
            "legacy/latin.py::f",
            "invalid_encoding",
        ),
        (lambda r: None, "src/nope.py::f", "anchor_unresolved"),
        (lambda r: None, "src/billing.py::Billing.refund", "anchor_unresolved"),
        (lambda r: None, "src/billing.py::", "invalid_spec"),
        (lambda r: None, "src/billing.py#Heading", "invalid_spec"),
        (lambda r: None, "::charge", "invalid_spec"),
    ],
)
def test_bad_anchor_is_refused_and_nothing_changes(billing, setup, spec, code):
    kept = billing.remember("Fees are 2.9% with a 30 cent floor.", "src/billing.py::Billing.charge")
    before = billing.memory_files()
    setup(billing)
    err = billing.error("remember", "anything", "--anchor", spec)
    assert err["code"] == code
    assert "\n" not in err["message"]
    assert billing.memory_files() == before
    human = billing.run("remember", "anything", "--anchor", spec, check=False)
    assert human.returncode == 2 and human.stdout == ""
    assert human.stderr.count("\n") == 1 and f"error[{code}]" in human.stderr
    assert billing.check()[kept]["status"] == "active"


def test_empty_memory_text_is_refused(billing):
    err = billing.error("remember", "   ", "--anchor", "src/billing.py::Billing.charge")
    assert err["code"] == "invalid_input"
    assert billing.memory_files() == {}


def test_unknown_kind_and_missing_anchor_are_refused(billing):
    err = billing.error("remember", "x", "--anchor", "src/billing.py", "--kind", "rumour")
    assert err["code"] == "invalid_input" and "rumour" in err["message"]
    err = billing.error("remember", "x")
    assert err["code"] == "invalid_input"
    assert billing.memory_files() == {}


def test_unknown_id_is_not_found(billing):
    for cmd in (
        ["show", "deadbeef"],
        ["retire", "deadbeef", "--reason", "gone"],
        ["reanchor", "deadbeef"],
        ["history", "deadbeef"],
    ):
        assert billing.error(*cmd)["code"] == "not_found"


def test_broken_memory_file_is_quarantined_not_fatal(billing):
    good = billing.remember("Fees are 2.9% with a 30 cent floor.", "src/billing.py::Billing.charge")
    bad = billing.path / ".tether" / "memories" / "hand-edited--0000aaaa.md"
    bad.write_text('---\n{"id": "0000aaaa", oops\n---\nbody\n')
    before = bad.read_bytes()
    assert [i["id"] for i in billing.check(quarantined=True).values()] == [good]  # exits 1, the rest still read
    out = billing.json("check", check=False)
    assert out["meta"]["quarantined"][0]["file"] == ".tether/memories/hand-edited--0000aaaa.md"
    assert billing.run("check", "--strict", check=False).returncode == 1
    casual = billing.run("check", check=False)
    assert casual.returncode == 1 and "quarantined" in casual.stdout
    assert bad.read_bytes() == before


def test_strict_check_is_the_ci_gate(billing):
    billing.remember("Fees are 2.9% with a 30 cent floor.", "src/billing.py::Billing.charge")
    assert billing.run("check", "--strict").returncode == 0
    billing.replace("src/billing.py", "cents * 29", "cents * 25")
    assert billing.run("check", "--strict", check=False).returncode == 1
    assert billing.run("check").returncode == 0


def test_deleting_the_cache_changes_no_verdict(billing, tether_home):
    a = billing.remember("Fees are 2.9% with a 30 cent floor.", "src/billing.py::Billing.charge")
    billing.write(
        "src/util.py",
        "def cents(amount, places=2):\n    scaled = Decimal(amount) * 100\n    return int(scaled.quantize(Decimal(1), rounding=ROUND_HALF_EVEN))\n",
    )
    b = billing.remember("Rounding is banker's rounding.", "src/util.py::cents")
    billing.replace("src/billing.py", "max(30,", "max(50,")
    billing.write("src/money.py", billing.read("src/util.py").replace("def cents", "def to_cents"))
    (billing.path / "src/util.py").unlink()
    first = billing.check()
    shutil.rmtree(tether_home / "cache")
    second = billing.check()
    assert first == second
    assert (first[a]["status"], first[a]["reason"]) == ("stale", "body_edited")
    assert "max(50," in first[a]["anchors"][0]["diff"]
    assert (first[b]["status"], first[b]["anchors"][0]["symbol"]) == ("active", "to_cents")


def test_supersede_retire_and_history(billing):
    old = billing.remember("Fees are 2.9% with a 30 cent floor.", "src/billing.py::Billing.charge", kind="decision")
    out = billing.json(
        "supersede", old[:8], "Fees are 2.9% with a 30 cent floor, waived for refunds.", "--reason", "refund policy"
    )
    new = out["data"]["current"]["id"]
    assert out["data"]["superseded"]["links"] == {"superseded_by": [new]}
    assert list(billing.check()) == [new]
    chain = billing.json("history", new)["data"]
    assert [m["id"] for m in chain] == [old, new]
    assert chain[0]["valid_to"] == chain[1]["valid_from"]
    assert chain[0]["retired_reason"] == "superseded: refund policy"
    billing.json("retire", new, "--reason", "billing moved to the payments service")
    assert billing.check() == {}
    listed = billing.json("ls", "--all")["data"]
    assert sorted(i["id"] for i in listed) == sorted([old, new])
    assert len(billing.memory_files()) == 2


def test_reanchor_rebinds_after_a_meaningful_edit(billing):
    mid = billing.remember("Fees are 2.9% with a 30 cent floor.", "src/billing.py::Billing.charge")
    billing.replace(
        "src/billing.py", 'raise ValueError("amount must be positive")', 'raise ValueError("amount must be > 0")'
    )
    assert billing.check()[mid]["reason"] == "body_edited"
    billing.run("reanchor", mid[:8])
    assert billing.check()[mid]["status"] == "active"


def test_show_prints_body_and_where_the_anchor_is_now(billing):
    mid = billing.remember("Fees are 2.9% with a 30 cent floor.", "src/billing.py::Billing.charge")
    text = billing.run("show", mid[:8]).stdout
    assert "Fees are 2.9% with a 30 cent floor." in text
    assert "src/billing.py::Billing.charge:2" in text
    assert mid in text


def test_global_options_work_after_the_command(billing, tmp_path):
    billing.remember("Fees are 2.9% with a 30 cent floor.", "src/billing.py::Billing.charge")
    import subprocess
    import sys

    proc = subprocess.run(
        [sys.executable, "-m", "tether", "check", "--json", "--root", str(billing.path)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    )
    assert len(orjson.loads(proc.stdout)["data"]) == 1


def test_export_then_import_into_another_clone_round_trips(billing, tmp_path):
    from conftest import Repo

    a = billing.remember("Fees are 2.9% with a 30 cent floor.", "src/billing.py::Billing.charge")
    billing.json("retire", a, "--reason", "pricing moved")
    b = billing.remember("Charge refuses non-positive amounts.", "src/billing.py")
    out = tmp_path / "memories.json"
    billing.run("export", "--out", str(out))
    other = Repo(tmp_path / "clone")
    other.write("src/billing.py", SRC)
    assert other.json("import", str(out))["data"] == {
        "imported": 2,
        "replaced": 0,
        "skipped": 0,
        "refused": 0,
        "refusals": [],
    }
    assert other.memory_files() == billing.memory_files()
    assert list(other.check()) == [b]
    assert other.json("import", str(out))["data"] == {
        "imported": 0,
        "replaced": 0,
        "skipped": 2,
        "refused": 0,
        "refusals": [],
    }


def test_import_refuses_a_malformed_record_and_writes_nothing_of_it(billing, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": 1, "memories": [{"id": "x", "body": "hi"}]}')
    proc = billing.run("import", str(bad), "--json", check=False)
    assert proc.returncode == 1
    data = orjson.loads(proc.stdout)["data"]
    assert (data["imported"], data["refused"]) == (0, 1)
    assert data["refusals"][0]["code"] == "invalid_input" and data["refusals"][0]["index"] == 1
    assert billing.memory_files() == {}


def test_harness_calls_work_from_outside_the_repository(billing, tmp_path):
    """The CLI forms the README documents, run from a directory that is not the repository."""
    import subprocess
    import sys

    def tether(*args):
        return subprocess.run(
            [sys.executable, "-m", "tether", "--root", str(billing.path), *args],
            cwd=tmp_path,
            capture_output=True,
            text=True,
        )

    made = tether(
        "remember", "Fees are 2.9% with a 30 cent floor.", "--anchor", "src/billing.py::Billing.charge", "--json"
    )
    assert made.returncode == 0, made.stderr
    mid = orjson.loads(made.stdout)["data"]["id"]
    checked = tether("check", "--json")
    assert [i["id"] for i in orjson.loads(checked.stdout)["data"]] == [mid]
    assert len(billing.memory_files()) == 1 and not (tmp_path / ".tether").exists()


@pytest.mark.parametrize("typed", ["Billing::charge", "Billing#charge", "Billing:charge"])
def test_member_spellings_of_other_languages_are_understood(billing, typed):
    out = billing.json("remember", "Fees are 2.9% with a 30 cent floor.", "--anchor", f"src/billing.py::{typed}")
    assert out["data"]["anchors"][0]["symbol"] == "Billing.charge"


def test_a_bin_script_is_anchored_by_its_interpreter_and_followed_when_it_becomes_a_module(repo):
    body = (
        "def rollout(hosts, batch=2):\n    for i in range(0, len(hosts), batch):\n        drain(hosts[i:i + batch])\n"
    )
    repo.write("bin/deploy", "#!/usr/bin/env python3\n" + body)
    repo.commit()
    mid = repo.remember("Two hosts at a time: the load balancer keeps half the pool serving.", "bin/deploy::rollout")
    repo.move("bin/deploy", "deploy/rollout.py")
    repo.write("deploy/rollout.py", '"""Rolling deploys."""\n\n\n' + body)
    repo.commit("a module now")
    item = repo.check()[mid]
    a = item["anchors"][0]
    assert (item["status"], a["path"], a["symbol"]) == ("active", "deploy/rollout.py", "rollout")


def test_a_stale_line_names_the_memory_file_to_fix(billing):
    """limpet/Nocetta CLI convention: what is stale says where it lives, so a reviewer can open it."""
    mid = billing.remember("Fees are 2.9% with a 30 cent floor.", "src/billing.py::Billing.charge")
    billing.replace("src/billing.py", "cents * 29 // 1000", "cents * 31 // 1000")
    out = billing.run("check").stdout
    (name,) = [n for n in billing.memory_files() if mid[:8] in n]
    assert f"memory file: .tether/memories/{name}" in out


def test_ls_all_says_superseded_and_retired_in_json_too(billing):
    """Nocetta test/store: a closed memory is reported as what closed it, never as active."""
    old = billing.remember("Fees are 2.9% with a 30 cent floor.", "src/billing.py::Billing.charge")
    gone = billing.remember("Charges round half up to the cent.", "src/billing.py::Billing.charge")
    new = billing.json("supersede", old, "Fees are 3.1% with a 30 cent floor since May.")["data"]["current"]["id"]
    billing.run("retire", gone, "--reason", "rounding moved to the ledger")
    rows = {m["id"]: (m["status"], m["live"]) for m in billing.json("ls", "--all")["data"]}
    assert rows == {old: ("superseded", False), gone: ("retired", False), new: ("active", True)}


def test_reanchor_with_an_anchor_rebinds_only_the_one_it_names(billing):
    """Issue 21: `reanchor ID --anchor SPEC` on a two-anchor memory replaced both; a stale second anchor
    vanished and the memory read active. Only the named anchor moves; the other stays, stale."""
    billing.write("src/refunds.py", "def refund(cents):\n    return -max(30, cents * 29 // 1000)\n")
    billing.commit("refunds")
    mid = billing.remember(
        "Fees and refunds share the 30 cent floor.", "src/billing.py::Billing.charge", "src/refunds.py::refund"
    )
    billing.replace("src/billing.py", "max(30, cents", "max(35, cents")
    billing.replace("src/refunds.py", "max(30, cents", "max(35, cents")
    out = billing.json("reanchor", mid, "--anchor", "src/billing.py::Billing.charge")
    assert [(c["change"], c["was"]) for c in out["data"]["changes"]] == [
        ("rebound", "src/billing.py::Billing.charge"),
        ("kept", "src/refunds.py::refund"),
    ]
    item = billing.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")  # the other anchor's edit still shows
    assert [(a["path"], a["status"]) for a in item["anchors"]] == [
        ("src/billing.py", "active"),
        ("src/refunds.py", "stale"),
    ]
    text = billing.run("reanchor", mid, "--anchor", "src/refunds.py::refund").stdout
    assert "rebound  src/refunds.py::refund" in text and "kept     src/billing.py::Billing.charge" in text
    assert billing.check()[mid]["status"] == "active"


def test_remember_warns_when_an_anchor_is_too_trivial_to_follow(billing):
    """Issue 21: a memory on `return self._x` is stored, but it can never follow a move or rename; say so."""
    billing.write("src/flags.py", "class Flags:\n    def debug(self):\n        return self._debug\n")
    billing.commit("flags")
    out = billing.json("remember", "Debug is read per request, never cached.", "--anchor", "src/flags.py::Flags.debug")
    assert [w.split(" says too little")[0] for w in out["data"]["warnings"]] == ["src/flags.py::Flags.debug"]
    text = billing.run("remember", "Charges add the fee on top.", "--anchor", "src/billing.py::Billing.charge").stdout
    assert "warning" not in text
    assert billing.json("ls")["data"]  # both stored


def test_a_file_anchor_diff_shows_an_appended_line_as_one_added_line(repo):
    """Red team, issue 21: a line appended to a whole-file anchor showed as the whole file re-indented."""
    repo.write("m.py", "def f(a):\n    if a:\n        return 1\n    return 2\n")
    repo.commit("m")
    mid = repo.remember("m.py is generated; regenerate it with make gen, never edit by hand.", "m.py")
    repo.write("m.py", "def f(a):\n    if a:\n        return 1\n    return 2\n# extra\n")
    diff = repo.check()[mid]["anchors"][0]["diff"].splitlines()
    assert [d for d in diff if d[:1] in "+-" and not d.startswith(("+++", "---"))] == ["+# extra"]


def test_reanchor_rebinds_the_lost_anchor_not_a_live_namesake(repo):
    """Red team of issue 21: with `a.py::run` alive and `b.py::run` moved to `c.py` and rewritten,
    `--anchor c.py::run` re-bound the live a.py one and kept the dead one."""
    repo.write(
        "a.py", "def run(jobs):\n    done = [j.execute(timeout=5, retries=2) for j in jobs]\n    return sorted(done)\n"
    )
    repo.write("b.py", "def run(tasks):\n    pending = {t.id: t for t in tasks}\n    return len(pending) * 3\n")
    repo.commit("runs")
    mid = repo.remember(
        "Both run functions stay single-threaded: the job runner is not reentrant.", "a.py::run", "b.py::run"
    )
    repo.git("mv", "b.py", "c.py")
    repo.write("c.py", "def run(tasks, pool=None):\n    queue = list(tasks)\n    return len(queue) + len(pool or [])\n")
    out = repo.json("reanchor", mid, "--anchor", "c.py::run")
    assert [(c["change"], c["was"], c["now"]) for c in out["data"]["changes"]] == [
        ("kept", "a.py::run", None),
        ("rebound", "b.py::run", "c.py::run"),
    ]
    assert repo.check()[mid]["status"] == "active"


def test_reanchor_to_the_new_name_of_a_renamed_anchor_rebinds_it(billing):
    """Red team of issue 21: naming where a followed rename went added a duplicate anchor instead."""
    billing.write(
        "src/svc.py",
        "class Service:\n    def fetch(self, k):\n        return self.db.get(k, default=None)\n\n    def store(self, k, v):\n        self.db.put(k, v, durable=True)\n        return v\n",
    )
    billing.commit("svc")
    mid = billing.remember(
        "fetch and store share one durable db handle.", "src/svc.py::Service.fetch", "src/svc.py::Service.store"
    )
    billing.write(
        "src/svc.py",
        "class Service:\n    def fetch(self, k):\n        return self.db.get(k, default=None)\n\n    def save(self, k, v):\n        self.db.put(k, v, durable=True, sync=True)\n        return v\n",
    )
    out = billing.json("reanchor", mid, "--anchor", "src/svc.py::Service.save")
    assert [(c["change"], c["was"]) for c in out["data"]["changes"]] == [
        ("kept", "src/svc.py::Service.fetch"),
        ("rebound", "src/svc.py::Service.store"),
    ]
    assert [a["symbol"] for a in out["data"]["anchors"]] == ["Service.fetch", "Service.save"]


def test_reanchor_refuses_a_spec_that_names_none_of_the_anchors(billing):
    billing.write("src/refunds.py", "def refund(cents):\n    return -max(30, cents * 29 // 1000)\n")
    billing.commit("refunds")
    mid = billing.remember(
        "Fees and refunds share the floor.", "src/billing.py::Billing.charge", "src/refunds.py::refund"
    )
    before = billing.memory_files()
    err = billing.error("reanchor", mid, "--anchor", "src/refunds.py")
    assert err["code"] == "invalid_input" and "names none of the memory's anchors" in err["message"]
    assert billing.memory_files() == before


def test_supersede_reports_the_conflicts_it_records(billing):
    """Red team of issue 21: supersede recorded `links.contradicts` but told nobody."""
    a = billing.remember("The fee floor is 30 cents for card charges.", "src/billing.py::Billing.charge")
    b = billing.remember("Refunds never return the card fee.", "src/billing.py::Billing.charge")
    out = billing.json("supersede", b, "The fee floor is 35 cents for card charges.")
    assert [(c["id"], c["reason"]) for c in out["data"]["conflicts"]] == [(a, "number_differs")]
    assert out["data"]["current"]["links"]["contradicts"] == [a]
