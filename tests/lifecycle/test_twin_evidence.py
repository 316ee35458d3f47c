"""A vanished twin slot and the twins that stood beside it (issue 21, red team rt21): a body is followed
only to a place new since the anchored commit, so a twin of the same name that already held the
anchored body then is not where the anchored code went. Asked of git, as the other follow rules are.
Real git repositories, the real CLI."""

from __future__ import annotations

import orjson

ROUTE = """    fn route(&self, pkt: u32) -> u32 {
        let idx = (pkt as usize) % self.table.len();
        self.table[idx].wrapping_mul(31).rotate_left(7) ^ 0xdead
    }
"""
HEAD = "pub struct Router { table: Vec<u32> }\npub trait Ingress { fn route(&self, pkt: u32) -> u32; }\n"
INGRESS = "\nimpl Ingress for Router {\n" + ROUTE + "}\n"
EGRESS = "\nimpl Egress for Router {\n" + ROUTE + "}\n"


def _twins(repo) -> None:
    repo.write("src/router.rs", HEAD + INGRESS + EGRESS)
    repo.commit("router")


def _state(item: dict, i: int = 0) -> tuple:
    a = item["anchors"][i]
    return a["status"], a.get("reason"), a["symbol"], a.get("discriminator"), "was" in a


def test_a_deleted_trait_impl_is_not_followed_to_its_identical_twin(repo):
    _twins(repo)
    mid = repo.remember("Egress XORs with 0xdead to mark outbound packets.", "src/router.rs::Router.route@Egress")
    repo.commit("memory")
    repo.write("src/router.rs", HEAD + INGRESS)  # the Egress impl deleted, uncommitted
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("invalidated", "anchor_deleted")  # never active @Ingress
    assert item["anchors"][0]["candidates"] == ["src/router.rs::Router.route@Ingress"]
    assert repo.run("check", "--strict", check=False).returncode != 0
    (touched,) = orjson.loads(repo.run("affected", "--json").stdout)["data"]
    assert (touched["id"], touched["effect"]) == (mid, "deleted")
    repo.write("src/router.rs", HEAD + INGRESS + EGRESS)  # restored: active in place again
    assert _state(repo.check()[mid]) == ("active", None, "Router.route", "Egress", False)


def test_a_memory_on_both_twins_loses_the_deleted_one(repo):
    _twins(repo)
    mid = repo.remember(
        "Both directions share the rotation.",
        "src/router.rs::Router.route@Ingress",
        "src/router.rs::Router.route@Egress",
    )
    repo.commit("memory")
    repo.write("src/router.rs", HEAD + INGRESS)
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "anchor_lost")
    assert _state(item, 0) == ("active", None, "Router.route", "Ingress", False)
    assert _state(item, 1)[:2] == ("invalidated", "anchor_deleted")


def test_a_twin_moved_to_another_file_is_followed_there_not_to_the_twin_beside_it(repo):
    _twins(repo)
    mid = repo.remember("Egress XORs with 0xdead.", "src/router.rs::Router.route@Egress")
    repo.commit("memory")
    repo.write("src/router.rs", HEAD + INGRESS)
    repo.write("src/egress.rs", "use crate::Router;\n" + EGRESS)
    item = repo.check()[mid]
    assert item["status"] == "active"
    assert (item["anchors"][0]["path"], item["anchors"][0]["discriminator"]) == ("src/egress.rs", "Egress")


def test_a_renamed_trait_beside_an_identical_twin_stays_ambiguous(repo):
    """limpet's slot_rename_into_identical_twins_refuses_rather_than_guessing, from the other side: the
    twin that stood there is no home, but the new label is not told from a copy either: not followed."""
    _twins(repo)
    mid = repo.remember("Egress XORs with 0xdead.", "src/router.rs::Router.route@Egress")
    repo.commit("memory")
    repo.write("src/router.rs", HEAD + INGRESS + EGRESS.replace("Egress", "Outbound"))
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "ambiguous_anchor")


def test_a_deleted_elixir_impl_is_not_followed_to_its_twin(repo):
    proto = "defprotocol Size do\n  def size(data)\nend\n"
    body = "  def size(data), do: data |> Enum.count() |> Kernel.*(2) |> Integer.floor_div(2)\nend\n"
    repo.write("lib/size.ex", proto + "\ndefimpl Size, for: Map do\n" + body + "\ndefimpl Size, for: List do\n" + body)
    repo.commit("size")
    mid = repo.remember("Lists count twice then halve, for the audit.", "lib/size.ex::Size.size@List")
    repo.write("lib/size.ex", proto + "\ndefimpl Size, for: Map do\n" + body)
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("invalidated", "anchor_deleted")
    assert item["anchors"][0]["candidates"] == ["lib/size.ex::Size.size@Map"]


STATS = """class Stats
  class << self
    def open(path)
      File.open(path, "r:bom|utf-8") { |f| f.readlines.map(&:strip) }
    end
  end

  def open(path)
    File.open(path, "r:bom|utf-8") { |f| f.readlines.map(&:strip) }
  end
end
"""


def test_a_deleted_ruby_singleton_block_is_not_followed_to_the_instance_method(repo):
    repo.write("stats.rb", STATS)
    repo.commit("stats")
    mid = repo.remember("The class-level open strips a BOM for Excel exports.", "stats.rb::Stats.open@<<self.")
    repo.write("stats.rb", "class Stats\n" + STATS.split("  end\n\n", 1)[1])
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("invalidated", "anchor_deleted")
    assert item["anchors"][0]["candidates"] == ["stats.rb::Stats.open@#"]


def test_a_renamed_ruby_singleton_is_followed_to_its_new_name_not_its_old_namesake(repo):
    repo.write("stats.rb", STATS)
    repo.commit("stats")
    mid = repo.remember("The class-level open strips a BOM for Excel exports.", "stats.rb::Stats.open@<<self.")
    repo.replace("stats.rb", "  class << self\n    def open(path)", "  class << self\n    def open_file(path)")
    assert _state(repo.check()[mid]) == ("active", None, "Stats.open_file", "<<self.", True)


def test_a_unique_method_edited_beside_a_pasted_copy_of_its_old_body_is_stale_in_place(repo):
    """rt21-r2: no discriminator stored (the inherent method was unique); its old body pasted as a trait
    impl above it, then it edited: the anchored slot (the inherent impl, asked of git) is the anchor."""
    inherent = "\nimpl Router {\n" + ROUTE + "}\n"
    repo.write("src/lib.rs", HEAD + inherent)
    repo.commit("lib")
    mid = repo.remember("Routing rotates by 7 for the switch ASIC.", "src/lib.rs::Router.route")
    repo.commit("memory")
    repo.write("src/lib.rs", HEAD + EGRESS + inherent.replace("rotate_left(7)", "rotate_left(9)"))
    item = repo.check()[mid]
    assert (item["status"], item["reason"]) == ("stale", "body_edited")
    a = item["anchors"][0]
    assert (a["symbol"], a["lines"], "was" in a) == ("Router.route", [12, 15], False)  # not the copy at 5-8
    assert "rotate_left(9)" in a["diff"]


def test_one_of_two_identical_ordinal_twins_deleted_leaves_both_memories_ambiguous(repo):
    """Go's `init@()#1` and `#2`, byte-identical, one deleted: the survivor is `init@()`, and which of
    the two went is not known; neither memory reads active there (both did: a false fresh for one)."""
    init = 'func init() {\n\tregistry.Register("codec", newCodec(4096, true))\n}\n'
    repo.write("m.go", "package m\n\n" + init + "\n" + init)
    repo.commit("inits")
    ids = [repo.remember(f"init {n} registers the codec.", f"m.go::init@()#{n}") for n in (1, 2)]
    repo.write("m.go", "package m\n\n" + init)
    items = repo.check()
    for mid in ids:
        assert (items[mid]["status"], items[mid]["reason"]) == ("stale", "ambiguous_anchor")
        assert items[mid]["anchors"][0]["candidates"] == ["m.go::init@()"]
    repo.write("m.go", "package m\n\n" + init + "\n" + init)  # restored: both active in place
    assert [repo.check()[mid]["status"] for mid in ids] == ["active", "active"]


def test_a_deleted_csharp_partial_twin_leaves_both_memories_ambiguous(repo):
    part = (
        "partial class Cache {\n    string Get(string key) { return store.TryGetValue(key, out var v)"
        " ? v.Trim().ToLowerInvariant() : fallback(key); }\n}\n"
    )
    repo.write("Cache.cs", part + part)
    repo.commit("cache")
    ids = [repo.remember(f"Get {n} lowercases.", f"Cache.cs::Cache.Get@(string key)#{n}") for n in (1, 2)]
    repo.write("Cache.cs", part)
    items = repo.check()
    assert [(items[m]["status"], items[m]["reason"]) for m in ids] == [("stale", "ambiguous_anchor")] * 2
