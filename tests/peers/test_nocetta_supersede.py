"""Nocetta's supersession and hand-edited store cases (test/supersede/supersede.test.ts, override.test.ts,
test/retrieval/pipeline.test.ts › resolveToTip, test/store/validate.test.ts), re-typed against tether's real CLI
in a real git repository. An independent reader of Nocetta's suite listed them as missed by the first port.

Nocetta's `supersede(old, next)` is tether's `supersede ID TEXT` (it writes the next version itself); its
`superseded-by` / `supersedes` edges are tether's `links.superseded_by` / `links.supersedes`; `validFrom`,
`validTo`, `txnTime` are `valid_from`, `valid_to`, `recorded_at`.
"""

from __future__ import annotations

import uuid

import orjson
import pytest

FOO = "export function foo(): number {\n  const a = compute(1, 2);\n  return a + 1;\n}\n"
V1 = "foo adds one to compute for the legacy dashboard totals."
V2 = "foo adds two to compute since the dashboard rewrite."
V3 = "foo adds three to compute since the billing merge."


@pytest.fixture
def foo(repo):
    repo.write("src/foo.ts", FOO)
    repo.commit("foo")
    return repo


def _file(repo, mid: str):
    return next(p for p in (repo.path / ".tether" / "memories").iterdir() if mid[:8] in p.name)


def _edit(repo, mid: str, **fields) -> None:
    """Hand-edit memory `mid`'s front matter: `links` merged, other fields replaced."""
    path = _file(repo, mid)
    head, body = path.read_text().split("\n---\n", 1)
    meta = orjson.loads(head[4:])
    for key, value in fields.items():
        meta[key] = {**meta.get("links", {}), **value} if key == "links" else value
    path.write_bytes(b"---\n" + orjson.dumps(meta, option=orjson.OPT_INDENT_2) + b"\n---\n" + body.encode())


def _copy(repo, mid: str, **fields) -> str:
    """A hand-written memory file copied from `mid`'s, with a new id and `fields` replaced; returns its id."""
    head, body = _file(repo, mid).read_text().split("\n---\n", 1)
    meta = {**orjson.loads(head[4:]), "id": str(uuid.uuid4()), **fields}
    path = repo.path / ".tether" / "memories" / f"hand--{meta['id'][:8]}.md"
    path.write_bytes(b"---\n" + orjson.dumps(meta, option=orjson.OPT_INDENT_2) + b"\n---\n" + body.encode())
    return meta["id"]


def test_supersede_links_both_ways_and_keeps_the_old_file(foo):
    """nocetta test/supersede/supersede.test.ts › supersede › edges old -> superseded-by -> next and next -> supersedes
    -> old, non-destructively"""
    old = foo.remember(V1, "src/foo.ts::foo")
    before = _file(foo, old).name
    new = foo.json("supersede", old, V2)["data"]["current"]["id"]
    assert foo.json("show", old)["data"]["memory"]["links"] == {"superseded_by": [new]}
    assert foo.json("show", new)["data"]["memory"]["links"] == {"supersedes": [old]}
    assert _file(foo, old).name == before and foo.json("show", old)["data"]["memory"]["body"] == V1


def test_supersede_stamps_the_close_and_the_open_at_one_instant(foo):
    """nocetta test/supersede/supersede.test.ts › supersede › stamps valid-time and txn-time: old.validTo closes,
    next.validFrom/txnTime open, at `now` (the old one's write time never moves)"""
    old = foo.remember(V1, "src/foo.ts::foo")
    written = foo.json("show", old)["data"]["memory"]
    out = foo.json("supersede", old, V2)["data"]
    closed, new = out["superseded"], out["current"]
    assert closed["valid_to"] == new["valid_from"] == new["recorded_at"]
    assert (closed["recorded_at"], closed["valid_from"]) == (written["recorded_at"], written["valid_from"])
    assert new["valid_to"] is None and closed["valid_to"] > written["valid_from"]


def test_a_superseded_memory_cannot_be_superseded_again(foo):
    """nocetta test/supersede/supersede.test.ts › supersede › rejects superseding a node that is already superseded
    (no fan-out)"""
    old = foo.remember(V1, "src/foo.ts::foo")
    foo.json("supersede", old, V2)
    files = foo.memory_files()
    err = foo.error("supersede", old, V3)
    assert err["code"] == "conflict" and "already closed" in err["message"]
    assert foo.memory_files() == files


def test_a_walk_back_is_served_as_the_tip_and_history_keeps_the_chain(foo):
    """nocetta test/supersede/supersede.test.ts › supersede › walk-back: A -> B -> A'' (restates A) resolves to A''
    (tether records no `restates` link: DIFFERENCES.md; the chain is in `history`)"""
    a = foo.remember(V1, "src/foo.ts::foo", kind="decision")
    b = foo.json("supersede", a, V2)["data"]["current"]["id"]
    back = foo.json("supersede", b, "foo adds one to compute again, as for the legacy dashboard totals.")
    tip = back["data"]["current"]["id"]
    assert [i["id"] for i in foo.json("recall", "why does foo add one for the legacy dashboard")["data"]["items"]] == [
        tip
    ]
    assert [v["id"] for v in foo.json("history", tip)["data"]] == [a, b, tip]
    assert "restates" not in foo.json("show", tip)["data"]["memory"]["links"]


def test_two_memories_merge_by_superseding_one_and_retiring_the_other(foo):
    """nocetta test/supersede/supersede.test.ts › supersede › allows fan-in: two different old nodes superseded by the
    same new node. DIFFERENCE (DIFFERENCES.md): `supersede` always writes the next version of one memory; the
    other is retired with a reason naming the merge, and only the merged one is served."""
    a = foo.remember(V1, "src/foo.ts::foo")
    b = foo.remember("compute is called with one and two inside foo for the dashboard.", "src/foo.ts::foo")
    merged = foo.json("supersede", a, "foo adds one to compute(1, 2) for the legacy dashboard totals.")
    mid = merged["data"]["current"]["id"]
    foo.run("retire", b, "--reason", f"merged into {mid[:8]}")
    assert list(foo.check()) == [mid]
    assert foo.json("show", mid)["data"]["memory"]["links"] == {"supersedes": [a]}


@pytest.mark.parametrize("reason", ["", "   "])
def test_a_blank_supersede_reason_is_refused_and_nothing_changes(foo, reason):
    """nocetta test/supersede/override.test.ts › overrideValue › requires a non-empty reason (tether's reason is
    optional; given, it must say something: before, `--reason "   "` was stored as `superseded:    `)"""
    old = foo.remember(V1, "src/foo.ts::foo")
    files = foo.memory_files()
    err = foo.error("supersede", old, V2, "--reason", reason)
    assert err["code"] == "invalid_input" and "reason" in err["message"]
    assert foo.memory_files() == files
    ok = foo.json("supersede", old, V2, "--reason", "  the dashboard rewrite ")["data"]["superseded"]
    assert ok["retired_reason"] == "superseded: the dashboard rewrite"


def test_a_dangling_superseded_by_keeps_the_memory_served_and_is_flagged(foo):
    """nocetta test/retrieval/pipeline.test.ts › resolveToTip › a dangling superseded-by edge is an honest stay, not a
    crash: a hand-edited link to an id that is no memory closes nothing; recall serves the memory itself, and
    `check` names the bad link (`--strict` fails)"""
    mid = foo.remember(V1, "src/foo.ts::foo")
    ghost = str(uuid.uuid4())
    _edit(foo, mid, links={"superseded_by": [ghost]})
    assert [i["id"] for i in foo.json("recall", "what does foo add to compute")["data"]["items"]] == [mid]
    proc = foo.run("check", "--json", check=False)
    out = orjson.loads(proc.stdout)
    assert proc.returncode == 0 and [i["id"] for i in out["data"]] == [mid]
    assert [(p["id"], p["problem"]) for p in out["meta"]["link_problems"]] == [(mid, "missing_link")]
    assert foo.run("check", "--strict", check=False).returncode == 1


def test_a_hand_made_supersede_cycle_never_hides_the_current_belief(foo):
    """nocetta test/supersede/supersede.test.ts › supersede › rejects a supersession that would close a cycle.
    DIFFERENCE (DIFFERENCES.md): `supersede` cannot close one (it always writes a new memory); a cycle made by
    hand-editing the files (a -> b -> c, then c marked superseded by a) closes nothing: the open tip is still
    served, every member is flagged `supersede_cycle`, and `check --strict` fails."""
    a = foo.remember(V1, "src/foo.ts::foo")
    b = foo.json("supersede", a, V2)["data"]["current"]["id"]
    c = foo.json("supersede", b, V3)["data"]["current"]["id"]
    _edit(foo, c, links={"superseded_by": [a]})
    _edit(foo, a, links={"supersedes": [c]})
    assert [i["id"] for i in foo.json("recall", "what does foo add to compute")["data"]["items"]] == [c]
    out = foo.json("check")
    assert [i["id"] for i in out["data"]] == [c]
    assert {(p["id"], p["problem"]) for p in out["meta"]["link_problems"]} == {
        (a, "supersede_cycle"),
        (b, "supersede_cycle"),
        (c, "supersede_cycle"),
    }
    assert foo.run("check", "--strict", check=False).returncode == 1


@pytest.mark.parametrize(
    "field,value,error",
    [
        ("source", "mandatory", "unknown source 'mandatory'"),
        ("links", {"relates_to": []}, "malformed link 'relates_to'"),
    ],
)
def test_an_unknown_source_or_link_quarantines_the_file_and_the_rest_still_reads(foo, field, value, error):
    """nocetta test/store/validate.test.ts › validated reads with quarantine (Seam 3) › quarantines an unknown
    authority / a malformed edge (unknown type) with a readable reason; the good nodes still read (tether's
    `source` and `links` keys are Nocetta's authority and edge types)"""
    good = foo.remember(V1, "src/foo.ts::foo")
    bad = _copy(foo, good, **{field: value})
    raw = _file(foo, bad).read_bytes()
    proc = foo.run("check", "--json", check=False)
    out = orjson.loads(proc.stdout)
    assert proc.returncode == 1 and [i["id"] for i in out["data"]] == [good]
    (q,) = out["meta"]["quarantined"]
    assert (q["file"], q["reason"], q["error"]) == (f".tether/memories/{_file(foo, bad).name}", "malformed", error)
    assert _file(foo, bad).read_bytes() == raw  # never deleted or rewritten


def test_the_supersede_reason_is_recorded_on_the_closed_memory(foo):
    """nocetta test/supersede/override.test.ts › overrideValue › overrides a default value node, recording the reason
    on the new node, and resolves to it. DIFFERENCE (DIFFERENCES.md): the reason closes the old memory
    (`retired_reason: "superseded: <reason>"`); the new one carries no reason, and recall resolves to it."""
    old = foo.remember("foo caps the page size at 20 for the dashboard.", "src/foo.ts::foo")
    out = foo.json("supersede", old, "foo caps the page size at 50 for the dashboard.", "--reason", "20 was too tight")
    closed, new = out["data"]["superseded"], out["data"]["current"]
    assert (closed["retired_reason"], new.get("retired_reason")) == ("superseded: 20 was too tight", None)
    assert [i["id"] for i in foo.json("recall", "what page size does foo cap at")["data"]["items"]] == [new["id"]]


def test_there_is_no_invariant_class_every_memory_can_be_superseded(foo):
    """nocetta test/supersede/override.test.ts › overrideValue › refuses to override an invariant node. DIFFERENCE
    (DIFFERENCES.md): tether has no authority classes; an `authority` key written into a memory file by hand is not
    read, and the memory is superseded like any other."""
    mid = foo.remember("foo never logs the computed value: it may hold card data.", "src/foo.ts::foo")
    _edit(foo, mid, authority="invariant")
    out = foo.json("supersede", mid, "foo logs the computed value, masked, since the PCI review.")
    assert out["data"]["superseded"]["valid_to"] is not None
    assert list(foo.check()) == [out["data"]["current"]["id"]]


def test_a_conflict_is_reported_when_written_not_by_the_gate(foo):
    """nocetta test/cli/cli.test.ts › nocetta CLI (Seam 8) › a cross-authority conflict prints the subject and both
    parties, and fails --strict; test/facade/facade.test.ts › worklist surfaces a cross-authority same-subject pair as
    a conflict. DIFFERENCE (DIFFERENCES.md): with no authority classes, a conflict is a same-topic memory that
    differs in a number, a negation, an order or a symbol; `remember` reports it naming the other, recall marks
    both sides, and `check --strict` (the staleness gate) still exits 0."""
    never = foo.remember("We never deploy foo on fridays: the on-call rota is thin.", "src/foo.ts::foo")
    out = foo.json("remember", "We deploy foo on fridays: the on-call rota is thin.", "--anchor", "src/foo.ts::foo")
    ship = out["data"]["id"]
    assert [(c["id"], c["reason"]) for c in out["data"]["conflicts"]] == [(never, "negation_differs")]
    items = {i["id"]: i for i in foo.json("recall", "do we deploy foo on fridays")["data"]["items"]}
    assert (items[never]["conflicts"], items[ship]["conflicts"]) == ([ship], [never])
    assert foo.run("check", "--strict", check=False).returncode == 0


@pytest.mark.parametrize("kind", ["entity", "lore-fact", "claim", "value"])
def test_nocettas_own_kinds_are_not_tethers_and_quarantine_a_hand_written_file(foo, kind):
    """nocetta test/lore/entity.test.ts (findReferences, goToDefinition, renameEntity: `entity` nodes with aliases)
    and the `claim`, `value`, `lore-fact` kinds of its fixtures. DIFFERENCE (DIFFERENCES.md): tether's kinds are
    decision, fact, gotcha, failed-attempt and convention; it has no entities or aliases, and a memory file of
    another kind is quarantined, never read as a guess."""
    good = foo.remember(V1, "src/foo.ts::foo")
    bad = _copy(foo, good, kind=kind)
    proc = foo.run("check", "--json", check=False)
    out = orjson.loads(proc.stdout)
    assert proc.returncode == 1 and [i["id"] for i in out["data"]] == [good]
    (q,) = out["meta"]["quarantined"]
    assert (q["file"].rpartition("/")[2], q["error"]) == (_file(foo, bad).name, f"unknown kind '{kind}'")


def test_superseding_a_memory_another_one_supports_stales_nothing(foo):
    """nocetta test/lore/continuity.test.ts › continuity worklist (retcon demo) › supersede(locationFact) -> the
    chronicle that depended on it is in the worklist; test/supersede/supersede.test.ts › retconImpact › returns the
    one-hop dependents of a superseded node. DIFFERENCE (DIFFERENCES.md): tether anchors memories to code, never to
    other memories; a `supports` link (written by hand or imported) is kept and checked to exist, but superseding
    the memory it names puts its supporter on no worklist: it stays active while its code is unchanged."""
    fact = foo.remember(V1, "src/foo.ts::foo")
    chronicle = foo.remember("The dashboard totals page reads foo and shows the sum it returns.", "src/foo.ts::foo")
    _edit(foo, chronicle, links={"supports": [fact]})
    new = foo.json("supersede", fact, V2)["data"]["current"]["id"]
    out = foo.json("check")
    assert {i["id"]: i["status"] for i in out["data"]} == {chronicle: "active", new: "active"}
    assert out["meta"]["link_problems"] == []
    assert foo.json("show", chronicle)["data"]["memory"]["links"] == {"supports": [fact]}


def test_there_is_no_scope_recall_narrows_by_kind(foo):
    """nocetta test/retrieval/pipeline.test.ts › filterLive › keeps global-scope nodes regardless of query scope, drops
    mismatched scoped nodes. DIFFERENCE (DIFFERENCES.md): tether has no scopes (a `scope` key written by hand is not
    read); recall narrows by kind (`--kind`), and the files in play boost."""
    fact = foo.remember("foo adds one to compute for the billing dashboard totals.", "src/foo.ts::foo")
    rule = foo.remember(
        "Billing dashboard totals always go through foo, never through compute directly.",
        "src/foo.ts::foo",
        kind="convention",
    )
    _edit(foo, fact, scope="auth")
    task = "billing dashboard totals from foo and compute"
    assert set(i["id"] for i in foo.json("recall", task)["data"]["items"]) == {fact, rule}
    assert [i["id"] for i in foo.json("recall", task, "--kind", "convention")["data"]["items"]] == [rule]


def test_a_superseded_by_its_target_does_not_answer_closes_nothing_and_is_flagged(foo):
    """nocetta test/store/index-file.test.ts › isCurrent › is false for a superseded node regardless of its valid-time
    window. DIFFERENCE (DIFFERENCES.md): only the successor's `supersedes` (or the memory's own `valid_to`) closes a
    memory; a `superseded_by` added by hand to one side closes nothing: both stay current, the link is flagged
    `one_sided_link` (before, nothing flagged it) and `check --strict` fails."""
    a = foo.remember(V1, "src/foo.ts::foo")
    b = foo.remember("compute is called with one and two by foo for every dashboard total.", "src/foo.ts::foo")
    assert foo.run("check", "--strict", check=False).returncode == 0
    _edit(foo, a, links={"superseded_by": [b]})
    out = foo.json("check")
    assert sorted(i["id"] for i in out["data"]) == sorted([a, b])
    assert [(p["id"], p["problem"]) for p in out["meta"]["link_problems"]] == [(a, "one_sided_link")]
    assert foo.run("check", "--strict", check=False).returncode == 1
    assert "one_sided_link" in foo.run("doctor", check=False).stdout
