"""limpet's same-name twins (trait impls, overloads, accessor pairs, scopes), re-typed against tether:
a spec names one twin with `@discriminator`; an edit of one twin must never hide behind the other.

Peer: github.com/KSym04/limpet, tests/anchor_golden.rs (slot resolution, T2b), tests/memory_api.rs
(discriminator specs), tests/refinement.rs. limpet's `FQN@disamb` slot is tether's
`Qualified.name@discriminator`. The real CLI in a real git repository.
"""

from __future__ import annotations

import orjson
import pytest
from conftest import Repo

from .limpet_support import anchor_of, remember_json, state, stored_anchors, verdict

INGRESS = """
impl Ingress for Router {
    fn route(&self, hops: u32) -> u32 {
        let mut cost = 0;
        for hop in 0..hops {
            cost += hop * 3;
        }
        cost
    }
}
"""
EGRESS_TWIN = INGRESS.replace("impl Ingress", "impl Egress")  # same body: the masking shape
EGRESS_DISTINCT = """
impl Egress for Router {
    fn route(&self, hops: u32) -> u32 {
        let mut cost = 1;
        for hop in 0..hops {
            cost *= hop + 2;
        }
        cost
    }
}
"""


def _router(repo, *impls: str, path: str = "router.rs") -> None:
    repo.write(path, "struct Router;\n" + "".join(impls))


def _slot(a: dict) -> tuple:
    return a["path"], a["symbol"], a.get("discriminator"), a["lines"]


def test_an_edited_trait_impl_is_not_masked_by_its_identical_twin(repo):
    """limpet tests/anchor_golden.rs::twin_impl_edit_is_not_masked_by_its_identical_twin — memories on
    Router.route@Ingress and @Egress (byte-identical bodies): editing only Ingress makes its memory stale
    `body_edited` at its own slot, the Egress one stays active at its own; stable over repeated checks;
    the revert heals it in place."""
    _router(repo, INGRESS, EGRESS_TWIN)
    repo.commit("router")
    ing = repo.remember("ingress routing costs three units per hop", "router.rs::Router.route@Ingress")
    eg = repo.remember("egress routing costs three units per hop", "router.rs::Router.route@Egress")
    items = repo.check()
    assert [items[m]["status"] for m in (ing, eg)] == ["active", "active"]

    _router(repo, INGRESS.replace("cost += hop * 3;", "cost += hop * 7;"), EGRESS_TWIN)
    for _ in range(3):
        items = repo.check()
        assert (items[ing]["status"], items[ing]["reason"]) == ("stale", "body_edited")
        assert _slot(items[ing]["anchors"][0]) == ("router.rs", "Router.route", "Ingress", [4, 10])
        assert items[eg]["status"] == "active"
        assert _slot(items[eg]["anchors"][0]) == ("router.rs", "Router.route", "Egress", [14, 20])

    _router(repo, INGRESS, EGRESS_TWIN)
    items = repo.check()
    assert [(items[m]["status"], _slot(items[m]["anchors"][0])) for m in (ing, eg)] == [
        ("active", ("router.rs", "Router.route", "Ingress", [4, 10])),
        ("active", ("router.rs", "Router.route", "Egress", [14, 20])),
    ]


def _drop_discriminator(repo) -> bytes:
    """Hand-edit the one memory file so its anchor stores no discriminator (as an older store would)."""
    path = next((repo.path / ".tether" / "memories").iterdir())
    meta_text, body = path.read_text().split("\n---\n", 1)
    meta = orjson.loads(meta_text[4:])
    del meta["anchors"][0]["discriminator"]
    raw = b"---\n" + orjson.dumps(meta, option=orjson.OPT_INDENT_2) + b"\n---\n" + body.encode()
    path.write_bytes(raw)
    return raw


def test_an_anchor_without_a_discriminator_on_identical_twins_stays_active_and_adopts_none(repo):
    """limpet tests/anchor_golden.rs::legacy_anchor_keeps_its_null_slot_when_twins_prove_nothing — a memory
    whose anchor names Router.route with no discriminator (its file edited by hand, as an older store
    would hold it) while two impls carry the same body: active, and the memory file still stores no
    discriminator (an ambiguous match is no evidence for one; reads never rewrite the file)."""
    _router(repo, INGRESS, EGRESS_TWIN)
    repo.commit("router")
    mid = repo.remember("routing costs three units per hop", "router.rs::Router.route@Ingress")
    raw = _drop_discriminator(repo)
    assert verdict(repo, mid) == ("active", None)
    assert "discriminator" not in stored_anchors(repo, mid)[0]
    assert list(repo.memory_files().values()) == [raw]  # reads never rewrite the file


def test_an_anchor_without_a_discriminator_beside_a_distinct_twin_still_stales_on_its_edit(repo):
    """limpet tests/anchor_golden.rs::legacy_anchor_never_adopts_while_a_twin_shares_the_fqn — the same
    discriminator-less anchor beside an Egress impl with a body of its own: active while untouched, no
    discriminator adopted; editing the Ingress impl makes it stale body_edited."""
    _router(repo, INGRESS, EGRESS_DISTINCT)
    repo.commit("router")
    mid = repo.remember("routing costs three units per hop", "router.rs::Router.route@Ingress")
    _drop_discriminator(repo)
    assert verdict(repo, mid) == ("active", None)
    assert "discriminator" not in stored_anchors(repo, mid)[0]
    _router(repo, INGRESS.replace("cost += hop * 3;", "cost += hop * 7;"), EGRESS_DISTINCT)
    assert verdict(repo, mid) == ("stale", "body_edited")


def test_a_renamed_trait_relabels_the_slot(repo):
    """limpet tests/anchor_golden.rs::trait_rename_rewrites_the_slot_and_keeps_the_fqn — `impl Ingress` renamed
    `impl Inbound` (the Egress twin has a body of its own): active, same symbol and file, discriminator
    Inbound, same lines."""
    _router(repo, INGRESS, EGRESS_DISTINCT)
    repo.commit("router")
    mid = repo.remember("ingress routing costs three units per hop", "router.rs::Router.route@Ingress")
    _router(repo, INGRESS.replace("impl Ingress", "impl Inbound"), EGRESS_DISTINCT)
    assert verdict(repo, mid) == ("active", None)
    assert _slot(anchor_of(repo, mid)) == ("router.rs", "Router.route", "Inbound", [4, 10])


def test_a_slot_renamed_into_identical_twins_is_ambiguous(repo):
    """limpet tests/anchor_golden.rs::slot_rename_into_identical_twins_refuses_rather_than_guessing —
    Ingress renamed Inbound while Egress holds the same body: two homes for one body, stale
    `ambiguous_anchor`, the anchor not moved."""
    _router(repo, INGRESS, EGRESS_TWIN)
    repo.commit("router")
    mid = repo.remember("ingress routing costs three units per hop", "router.rs::Router.route@Ingress")
    _router(repo, INGRESS.replace("impl Ingress", "impl Inbound"), EGRESS_TWIN)
    assert verdict(repo, mid) == ("stale", "ambiguous_anchor")
    assert anchor_of(repo, mid).get("discriminator") == "Ingress"


def test_a_followed_body_takes_its_new_slot_with_it(repo):
    """limpet tests/anchor_golden.rs::a_followed_body_takes_its_new_slot_with_it — the impl moves to
    gateway.rs and its trait is renamed Outbound: followed, active; then another impl claims the freed
    label Ingress with a body of its own: the memory is untouched, still at the Outbound impl."""
    _router(repo, INGRESS)
    repo.commit("router")
    mid = repo.remember("ingress routing costs three units per hop", "router.rs::Router.route@Ingress")
    (repo.path / "router.rs").unlink()
    _router(repo, INGRESS.replace("impl Ingress", "impl Outbound"), path="gateway.rs")
    status, reason, a = state(repo, mid)
    assert (status, reason) == ("active", None)
    assert (a["path"], a["symbol"], a["lines"], a["was"]) == (
        "gateway.rs",
        "Router.route",
        [4, 10],
        "router.rs::Router.route",
    )

    _router(
        repo,
        INGRESS.replace("impl Ingress", "impl Outbound"),
        EGRESS_DISTINCT.replace("impl Egress", "impl Ingress"),
        path="gateway.rs",
    )
    assert verdict(repo, mid) == ("active", None)
    assert anchor_of(repo, mid)["lines"] == [4, 10]


def test_a_vanished_slot_under_a_live_name_is_body_edited_and_heals(repo):
    """limpet tests/anchor_golden.rs::vanished_slot_with_a_live_fqn_goes_body_edited_and_heals — the Ingress
    impl deleted while the Egress one keeps the name alive: stale `body_edited`, never followed to the
    twin; restored: active again."""
    _router(repo, INGRESS, EGRESS_DISTINCT)
    repo.commit("router")
    mid = repo.remember("ingress routing costs three units per hop", "router.rs::Router.route@Ingress")
    _router(repo, EGRESS_DISTINCT)
    assert verdict(repo, mid) == ("stale", "body_edited")
    assert anchor_of(repo, mid)["path"] == "router.rs"
    _router(repo, INGRESS, EGRESS_DISTINCT)
    assert verdict(repo, mid) == ("active", None)
    assert _slot(anchor_of(repo, mid)) == ("router.rs", "Router.route", "Ingress", [4, 10])


# limpet tests/anchor_golden.rs T2b, assert_no_twin_masking: (file, original, edited, spec of the edited twin, spec of the other)
MASKING = {
    "ruby_singleton_twin_cannot_mask_its_instance_method": (
        "c.rb",
        "class C\n  def m\n    helper(1)\n  end\n  def self.m\n    helper(1)\n  end\nend\n",
        "class C\n  def m\n    other(2)\n  end\n  def self.m\n    helper(1)\n  end\nend\n",
        "C.m@#",
        "C.m@self.",
    ),
    "ruby_class_shovel_self_twin_cannot_mask_its_instance_method": (
        "d.rb",
        "class C\n  def m\n    helper(1)\n  end\n  class << self\n    def m\n      helper(1)\n    end\n  end\nend\n",
        "class C\n  def m\n    other(2)\n  end\n  class << self\n    def m\n      helper(1)\n    end\n  end\nend\n",
        "C.m@#",
        "C.m@<<self.",
    ),
    "csharp_block_namespace_twin_cannot_mask_its_sibling": (
        "o.cs",
        "namespace A { class Options { void Validate() { Check(1); } } }\nnamespace B { class Options { void Validate() { Check(1); } } }\n",
        "namespace A { class Options { void Validate() { Other(2); } } }\nnamespace B { class Options { void Validate() { Check(1); } } }\n",
        "Options.Validate@()#1",
        "Options.Validate@()#2",
    ),
    "java_nested_enum_twin_cannot_mask_its_sibling": (
        "Outer.java",
        "class Outer {\n  enum A { X; String label() { return fmt(1); } }\n  enum B { Y; String label() { return fmt(1); } }\n}\n",
        "class Outer {\n  enum A { X; String label() { return other(2); } }\n  enum B { Y; String label() { return fmt(1); } }\n}\n",
        "Outer.A.label",
        "Outer.B.label",
    ),
    "python_property_setter_pair_cannot_mask_each_other": (
        "p.py",
        "class C:\n    @property\n    def x(self):\n        return helper(1)\n    @x.setter\n    def x(self, v):\n        return helper(1)\n",
        "class C:\n    @property\n    def x(self):\n        return other(2)\n    @x.setter\n    def x(self, v):\n        return helper(1)\n",
        "C.x@(self)",
        "C.x@(self, v)",
    ),
    "cpp_reference_returning_cv_overloads_cannot_mask_each_other": (
        "buf.cpp",
        "class Buffer {\n  std::string& name() { return name_; }\n  const std::string& name() const { return name_; }\n};\n",
        "class Buffer {\n  std::string& name() { return renamed_; }\n  const std::string& name() const { return name_; }\n};\n",
        "Buffer.name@()",
        "Buffer.name@() const",
    ),
}


@pytest.mark.parametrize("case", list(MASKING))
def test_an_edited_twin_goes_stale_and_its_sibling_does_not(repo, case):
    """limpet tests/anchor_golden.rs::<case> (T2b) — two same-named symbols with byte-identical bodies, one
    memory on each: editing the first makes its memory stale at its own discriminator; the untouched
    twin's memory stays active at its own."""
    path, original, edited, spec_a, spec_b = MASKING[case]
    repo.write(path, original)
    repo.commit("twins")
    made = [
        repo.json("remember", f"{case}: what the {n} does", "--anchor", f"{path}::{spec}")["data"]
        for n, spec in (("first", spec_a), ("second", spec_b))
    ]
    a, b = (m["id"] for m in made)
    own = [(m["anchors"][0]["symbol"], m["anchors"][0].get("discriminator")) for m in made]
    assert own[0] != own[1]
    repo.write(path, edited)
    items = repo.check()
    assert (items[a]["status"], items[a]["reason"]) == ("stale", "body_edited")
    assert items[b]["status"] == "active"
    # each memory is reported at its own twin, never at the other
    assert [(items[m]["anchors"][0]["symbol"], items[m]["anchors"][0].get("discriminator")) for m in (a, b)] == own


def test_a_trivial_body_wrapped_in_a_module_is_low_entropy(repo):
    """limpet tests/anchor_golden.rs::a_scope_respell_follows_instead_of_false_staling — DIFFERENCE: wrapping
    `pub fn small_fn() -> u32 { 7 }` in `mod inner` moves a body under tether's 40-bit floor, which is
    never re-pointed: stale `low_entropy`, the new place listed, the anchor unmoved."""
    body = "pub fn small_fn() -> u32 { 7 }\n"
    repo.write("a.rs", body)
    repo.commit("small")
    mid = repo.remember("small_fn is the seven sentinel", "a.rs::small_fn")
    repo.write("a.rs", "mod inner {\n" + body + "}\n")
    status, reason, a = state(repo, mid)
    assert (status, reason) == ("stale", "low_entropy")
    assert (a["symbol"], a["candidates"]) == ("small_fn", ["a.rs::inner.small_fn@()"])


TWINS_RS = (
    "pub fn twin_a(n: u32) -> u32 {\n    let mut t = 0;\n    for i in 0..n {\n        t += i * 2;\n    }\n    t\n}\n"
    "pub fn twin_b(n: u32) -> u32 {\n    let mut t = 0;\n    for i in 0..n {\n        t += i * 2;\n    }\n    t\n}\n"
)
ONE_RS = "pub fn {name}(n: u32) -> u32 {{\n    let mut t = 0;\n    for i in 0..n {{\n        t += i * 2;\n    }}\n    t\n}}\n"


def test_identical_twins_moved_into_a_module_together_are_ambiguous(repo):
    """limpet tests/anchor_golden.rs::a_scope_respell_picks_the_right_twin_by_name — DIFFERENCE: twin_a and
    twin_b (one body) both wrapped in `mod inner`: tether does not pick by name here (its name rule is for
    a file moved whole), so the memory on twin_a is stale `ambiguous_anchor` with both listed."""
    repo.write("a.rs", TWINS_RS)
    repo.commit("twins")
    mid = repo.remember("twin_a doubles every index below n", "a.rs::twin_a")
    repo.write("a.rs", "mod inner {\n" + TWINS_RS + "}\n")
    status, reason, a = state(repo, mid)
    assert (status, reason) == ("stale", "ambiguous_anchor")
    assert (a["symbol"], a["candidates"]) == ("twin_a", ["a.rs::inner.twin_a@(n: u32)", "a.rs::inner.twin_b@(n: u32)"])


def test_two_same_named_homes_are_ambiguous(repo):
    """limpet tests/anchor_golden.rs::a_respell_with_two_same_named_candidates_still_refuses — `dup` copied
    into `mod p` and `mod q`: stale `ambiguous_anchor`, the anchor still names `dup`."""
    repo.write("a.rs", ONE_RS.format(name="dup"))
    repo.commit("dup")
    mid = repo.remember("dup doubles every index below n", "a.rs::dup")
    one = ONE_RS.format(name="dup")
    repo.write("a.rs", f"mod p {{\n{one}}}\nmod q {{\n{one}}}\n")
    status, reason, a = state(repo, mid)
    assert (status, reason) == ("stale", "ambiguous_anchor")
    assert (a["symbol"], a["candidates"]) == ("dup", ["a.rs::p.dup@(n: u32)", "a.rs::q.dup@(n: u32)"])


def test_a_deleted_scope_is_not_followed_onto_its_surviving_twin(repo):
    """limpet tests/anchor_golden.rs::a_deleted_scope_twin_is_not_respell_followed — `mod alpha` deleted while
    `mod beta` keeps an identical (empty) `reset`: stale `low_entropy`, the anchor still alpha.reset."""
    repo.write("shapes.rs", "mod alpha {\n    pub fn reset() {}\n}\nmod beta {\n    pub fn reset() {}\n}\n")
    repo.commit("shapes")
    mid = repo.remember("alpha reset returns the shape to the origin pose", "shapes.rs::alpha.reset")
    repo.write("shapes.rs", "mod beta {\n    pub fn reset() {}\n}\n")
    status, reason, a = state(repo, mid)
    assert (status, reason) == ("stale", "low_entropy")
    assert (a["symbol"], a.get("was"), a["candidates"]) == ("alpha.reset", None, ["shapes.rs::beta.reset@()"])


def test_a_copy_left_behind_does_not_hijack_a_cross_file_move(repo):
    """limpet tests/anchor_golden.rs::a_leftover_in_file_twin_does_not_hijack_a_cross_file_move — a copy of
    `parse` inside `mod legacy` leaves the memory active; then the top-level `parse` moves to b.rs while
    the copy stays: two homes, stale `ambiguous_anchor`."""
    body = ONE_RS.format(name="parse")
    repo.write("a.rs", body)
    repo.commit("parse")
    mid = repo.remember("parse doubles every index below n", "a.rs::parse")
    repo.write("a.rs", f"{body}mod legacy {{\n{body}}}\n")
    assert verdict(repo, mid) == ("active", None)
    repo.write("a.rs", f"mod legacy {{\n{body}}}\n")
    repo.write("b.rs", body)
    assert verdict(repo, mid) == ("stale", "ambiguous_anchor")
    assert anchor_of(repo, mid)["candidates"] == ["a.rs::legacy.parse@(n: u32)", "b.rs::parse@(n: u32)"]


@pytest.mark.parametrize(
    "peer, original, stranger",
    [
        (
            "a_surviving_fqn_in_the_anchors_file_forces_the_honest_stale",
            "pub fn helper(n: u32) -> u32 {\n    let mut t = 1;\n    for i in 1..n {\n        t = t.wrapping_mul(i);\n    }\n    t\n}\n",
            "pub fn helper(n: u32) -> u32 {\n    n + 41\n}\n",
        ),
        (
            "an_in_place_edit_with_a_preserved_copy_is_stale_not_followed",
            "pub fn digest(n: u32) -> u32 {\n    let mut t = 7;\n    for i in 2..n {\n        t = t.rotate_left(i % 8) ^ i;\n    }\n    t\n}\n",
            "pub fn digest(n: u32) -> u32 {\n    n ^ 0xA5\n}\n",
        ),
    ],
)
def test_an_edit_beside_a_preserved_copy_is_stale_not_followed(repo, peer, original, stranger):
    """limpet tests/anchor_golden.rs::<peer> — the anchored name now holds new code while the old body lives
    on inside `mod inner`: the locator answers, so this is an edit: stale `body_edited` with a diff, the
    anchor still at the top-level name, never followed to the copy."""
    name = original.split("(")[0].removeprefix("pub fn ")
    repo.write("a.rs", original)
    repo.commit("original")
    mid = repo.remember(f"{name} folds every index below n", f"a.rs::{name}")
    repo.write("a.rs", f"{stranger}mod inner {{\n{original}}}\n")
    status, reason, a = state(repo, mid)
    assert (status, reason) == ("stale", "body_edited")
    assert (a["path"], a["symbol"], a.get("was"), a["lines"]) == ("a.rs", name, None, [1, 3])
    assert "+    n " in a["diff"]


T_RS = (
    "struct T;\nimpl A for T { fn go(&self) -> u32 { 1 } }\nimpl B for T { fn go(&self) -> u32 { 222 } }\n"
    "impl T { fn go(&self) -> u32 { 33333 } }\n"
)


def test_a_discriminator_anchors_the_named_slot(repo):
    """limpet tests/memory_api.rs::disamb_suffix_anchors_to_the_named_slot — `T.go@A` among A, B and the
    inherent impl: the memory stores discriminator A and resolves at the A impl's line; editing B does not
    touch it, editing A stales it."""
    repo.write("t.rs", T_RS)
    repo.commit("t")
    mid = repo.remember("the A impl returns the identity value", "t.rs::T.go@A")
    assert [(a["symbol"], a["discriminator"]) for a in stored_anchors(repo, mid)] == [("T.go", "A")]
    assert _slot(anchor_of(repo, mid)) == ("t.rs", "T.go", "A", [2, 2])
    repo.replace("t.rs", "{ 222 }", "{ 223 }")
    assert verdict(repo, mid) == ("active", None)
    repo.replace("t.rs", "{ 1 }", "{ 2 }")
    assert verdict(repo, mid) == ("stale", "body_edited")


def test_a_bare_name_over_twins_is_refused_with_every_typeable_form(repo):
    """limpet tests/memory_api.rs::bare_name_over_twin_slots_lists_the_slot_forms — `T.go` over two trait
    impls and the inherent one: `anchor_ambiguous`, listing @A, @B and @impl; nothing stored."""
    repo.write("t.rs", T_RS)
    repo.commit("t")
    err = repo.error("remember", "go does a thing", "--anchor", "t.rs::T.go")
    assert err["code"] == "anchor_ambiguous"
    assert err["candidates"] == ["t.rs::T.go@A", "t.rs::T.go@B", "t.rs::T.go@impl"]
    assert repo.memory_files() == {}


def test_a_long_twin_list_is_given_whole(repo):
    """limpet tests/memory_api.rs::a_truncated_slot_list_says_so — DIFFERENCE: limpet caps the menu and says
    "and more"; tether lists every typeable form, all six."""
    repo.write(
        "many.rs", "struct T;\n" + "".join(f"impl Tr{i} for T {{ fn go(&self) -> u32 {{ {i} }} }}\n" for i in range(6))
    )
    repo.commit("many")
    err = repo.error("remember", "go does a thing", "--anchor", "many.rs::T.go")
    assert err["code"] == "anchor_ambiguous"
    assert err["candidates"] == [f"many.rs::T.go@Tr{i}" for i in range(6)]


CONFIG_JAVA = "class Config {\n  class Builder {\n    void run() { go(); }\n  }\n  Builder Builder() {\n    return make();\n  }\n}\n"


def test_a_trailing_at_names_the_twin_without_a_discriminator(repo):
    """limpet tests/memory_api.rs::trailing_at_anchors_the_undiscriminated_slot — a nested class and a factory
    method share Config.Builder: the bare name is ambiguous (both forms listed), `Config.Builder@` anchors
    the class: editing the factory leaves it active, editing the class stales it."""
    repo.write("Config.java", CONFIG_JAVA)
    repo.commit("config")
    err = repo.error("remember", "x", "--anchor", "Config.java::Config.Builder")
    assert err["candidates"] == ["Config.java::Config.Builder@", "Config.java::Config.Builder@()"]
    mid = repo.remember("the Builder type collects options before validating", "Config.java::Config.Builder@")
    assert anchor_of(repo, mid)["lines"] == [2, 4]
    repo.write("Config.java", CONFIG_JAVA.replace("return make();", "return build();"))
    assert verdict(repo, mid) == ("active", None)
    repo.write("Config.java", CONFIG_JAVA.replace("go();", "went();"))
    assert verdict(repo, mid) == ("stale", "body_edited")


def test_the_class_twin_survives_an_export_import_round_trip(repo, tmp_path):
    """limpet tests/memory_api.rs::deliberate_null_slot_survives_the_round_trip — exported and imported into
    another clone, the `Config.Builder@` memory still means the class: the factory's edit there leaves it
    active."""
    repo.write("Config.java", CONFIG_JAVA)
    repo.commit("config")
    repo.remember("the Builder type collects options before validating", "Config.java::Config.Builder@")
    export = tmp_path / "export.json"
    repo.run("export", "--out", str(export))
    peer = Repo(tmp_path / "peer")
    peer.write("Config.java", CONFIG_JAVA)
    peer.commit("config")
    peer.run("import", str(export))
    assert (peer.only()["status"], peer.only()["anchors"][0]["lines"]) == ("active", [2, 4])
    peer.write("Config.java", CONFIG_JAVA.replace("return make();", "return build();"))
    assert peer.only()["status"] == "active"


def test_a_discriminator_that_contains_an_at_still_anchors(repo):
    """limpet tests/memory_api.rs::a_discriminator_carrying_an_at_still_anchors — Java `f(@NonNull String a)`:
    the spec `C.f@(@NonNull String a)` anchors that overload, not its twin."""
    repo.write(
        "C.java", "class C {\n  void f(int a) { log(a); }\n  void f(@NonNull String a) { log(a.length()); }\n}\n"
    )
    repo.commit("c")
    mid = repo.remember("the annotated overload is the one callers reach", "C.java::C.f@(@NonNull String a)")
    assert _slot(anchor_of(repo, mid)) == ("C.java", "C.f", "(@NonNull String a)", [3, 3])


def test_an_unknown_discriminator_is_refused_with_the_real_ones(repo):
    """limpet tests/memory_api.rs::unknown_disamb_fails_not_found_with_the_slot_list — `T.go@Nope`:
    `anchor_unresolved`, naming the twins that do exist."""
    repo.write("t.rs", T_RS)
    repo.commit("t")
    err = repo.error("remember", "go does a thing", "--anchor", "t.rs::T.go@Nope")
    assert (err["code"], err["reason"]) == ("anchor_unresolved", "discriminator_missing")
    assert err["candidates"] == ["t.rs::T.go@A", "t.rs::T.go@B", "t.rs::T.go@impl"]
    assert repo.memory_files() == {}


def test_a_symbol_spelled_with_an_at_sign_anchors(repo):
    """limpet tests/memory_api.rs::symbol_spelled_with_an_at_sign_still_anchors — Bash allows `@` in a
    function name: `deploy.sh::deploy@prod` anchors the function `deploy@prod`."""
    repo.write("deploy.sh", "function deploy@prod {\n  echo shipping to prod\n}\n")
    repo.commit("deploy")
    code, out = remember_json(repo, "prod deploys need the VPN up first", "deploy.sh::deploy@prod")
    assert code == 0, out
    assert anchor_of(repo, out["data"]["id"])["lines"] == [1, 3]


def test_an_at_named_symbol_colliding_with_a_twin_spec_is_refused(repo):
    """limpet tests/memory_api.rs::at_named_symbol_colliding_with_a_slot_spec_is_refused_loudly — functions
    `deploy@` and `deploy` both exist: the spec `deploy@` could mean either, so it is refused as
    ambiguous and nothing is stored."""
    repo.write("run.sh", "function deploy@ {\n  push_prod\n}\nfunction deploy {\n  push_stage\n}\n")
    repo.commit("run")
    code, out = remember_json(repo, "deploy pushes to production", "run.sh::deploy@")
    assert (code, out.get("error", {}).get("code")) == (2, "anchor_ambiguous"), out
    assert out["error"]["candidates"] == ["run.sh::deploy@", "run.sh::deploy"]  # the bare name is the other one
    assert repo.memory_files() == {}


def test_a_lone_impl_anchors_by_bare_name_and_a_later_twin_changes_nothing(repo):
    """limpet tests/memory_api.rs::single_slot_bare_name_anchors_and_records_its_disamb — `T.go` with one
    impl anchors; a second impl added later (another body) leaves it active at the first; editing the first
    stales it."""
    first = "impl A for T { fn go(&self) -> u32 {\n    let mut t = 0; for i in 0..9 { t += i * 3; } t\n} }\n"
    repo.write("one.rs", "struct T;\n" + first)
    repo.commit("one")
    mid = repo.remember("go is the only impl of this trait method", "one.rs::T.go")
    repo.write("one.rs", "struct T;\n" + first + "impl B for T { fn go(&self) -> u32 { 222 } }\n")
    assert verdict(repo, mid) == ("active", None)
    assert anchor_of(repo, mid)["lines"] == [2, 4]
    repo.write(
        "one.rs", "struct T;\n" + first.replace("i * 3", "i * 5") + "impl B for T { fn go(&self) -> u32 { 222 } }\n"
    )
    assert verdict(repo, mid) == ("stale", "body_edited")


def test_the_discriminator_survives_export_and_import(repo, tmp_path):
    """limpet tests/memory_api.rs::export_import_round_trip_preserves_anchor_disamb — the export carries
    discriminator B; imported into another clone the memory resolves at the B impl, and only B's edit
    stales it there."""
    repo.write("t.rs", T_RS)
    repo.commit("t")
    repo.remember("the B impl carries the wide value on purpose", "t.rs::T.go@B")
    export = tmp_path / "export.json"
    repo.run("export", "--out", str(export))
    assert [a.get("discriminator") for a in orjson.loads(export.read_bytes())["memories"][0]["anchors"]] == ["B"]
    peer = Repo(tmp_path / "peer")
    peer.write("t.rs", T_RS)
    peer.commit("t")
    peer.run("import", str(export))
    assert _slot(peer.only()["anchors"][0]) == ("t.rs", "T.go", "B", [3, 3])
    peer.replace("t.rs", "{ 1 }", "{ 2 }")
    assert peer.only()["status"] == "active"
    peer.replace("t.rs", "{ 222 }", "{ 223 }")
    assert (peer.only()["status"], peer.only()["reason"]) == ("stale", "body_edited")


def test_a_parameter_list_is_matched_as_the_source_spells_it(repo):
    """limpet tests/memory_api.rs::at_spec_accepts_the_source_spelling_of_a_parameter_list — `m@(int a,
    String b)` as the source writes it, and with the whitespace changed, both name the two-argument
    overload."""
    repo.write("M.java", "class M {\n  void m(int a) { one(); }\n  void m(int a, String b) { two(); }\n}\n")
    repo.commit("m")
    a = repo.remember("the two-arg overload validates before writing", "M.java::M.m@(int a, String b)")
    b = repo.remember("the two-arg overload never logs", "M.java::M.m@(int  a,String b)")
    assert [_slot(anchor_of(repo, m))[3] for m in (a, b)] == [[3, 3], [3, 3]]


def test_twin_functions_of_two_cfg_branches_are_refused_at_write(repo):
    """limpet tests/refinement.rs::reverify_refuses_a_slot_holding_two_distinct_bodies — `#[cfg(unix)] fn go`
    and `#[cfg(windows)] fn go`: which body a fact is about is unknowable from `go`, so tether refuses the
    anchor up front (`anchor_ambiguous`, both typeable forms); limpet refuses the re-verification later."""
    repo.write(
        "p.rs",
        "#[cfg(unix)]\npub fn go(n: u32) -> u32 {\n    n.rotate_left(3) ^ 11\n}\n"
        "#[cfg(windows)]\npub fn go(n: u32) -> u32 {\n    n.wrapping_mul(17) + 5\n}\n",
    )
    repo.commit("p")
    err = repo.error("remember", "go mixes the platform word into the counter", "--anchor", "p.rs::go")
    assert (err["code"], err["candidates"]) == ("anchor_ambiguous", ["p.rs::go@(n: u32)#1", "p.rs::go@(n: u32)#2"])


UTIL_JS = "function parse(s) {\n  return JSON.parse(s);\n}\n"
UTIL_TS = 'function parse(s: string) {\n  return s.split(",").map(Number);\n}\n'


def test_an_import_resolves_against_the_file_the_anchor_names(repo, tmp_path):
    """limpet tests/memory_api.rs::import_reresolves_the_hash_from_the_anchors_own_file — util.js and util.ts
    both define `parse`; a memory on util.ts::parse, exported and imported into another clone, is judged
    by util.ts only: util.js's edit leaves it active, util.ts's edit stales it."""
    repo.write("util.js", UTIL_JS)
    repo.write("util.ts", UTIL_TS)
    repo.commit("util")
    repo.remember("parse splits on commas in the typed build", "util.ts::parse")
    export = tmp_path / "export.json"
    repo.run("export", "--out", str(export))
    peer = Repo(tmp_path / "peer")
    peer.write("util.js", UTIL_JS)
    peer.write("util.ts", UTIL_TS)
    peer.commit("util")
    peer.run("import", str(export))
    assert (peer.only()["status"], peer.only()["anchors"][0]["path"]) == ("active", "util.ts")
    peer.replace("util.js", "JSON.parse(s)", "JSON.parse(s.trim())")
    assert peer.only()["status"] == "active"
    peer.replace("util.ts", "map(Number)", "map(parseFloat)")
    assert (peer.only()["status"], peer.only()["reason"]) == ("stale", "body_edited")


def test_an_anchor_without_twins_exports_no_discriminator(repo):
    """limpet tests/memory_api.rs::export_omits_disamb_for_undisambiguated_anchors — a Rust free function has
    no twin, so its exported anchor carries no discriminator field."""
    repo.write("cache.rs", "pub fn cache_get(key: &str) -> Option<u32> {\n    store_lookup(key)\n}\n")
    repo.commit("cache")
    repo.remember("cache_get returns None on miss", "cache.rs::cache_get")
    (anchor,) = orjson.loads(repo.run("export").stdout)["memories"][0]["anchors"]
    assert "discriminator" not in anchor and anchor["symbol"] == "cache_get"
