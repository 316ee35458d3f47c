"""`reanchor --anchor` on a memory anchored to twins (one name, told apart by a discriminator)."""

from __future__ import annotations

import orjson

ROUTER = """\
pub struct Router { table: Vec<u32> }
pub trait Ingress { fn route(&self, pkt: u32) -> u32; }
pub trait Egress { fn route(&self, pkt: u32) -> u32; }

impl Ingress for Router {
    fn route(&self, pkt: u32) -> u32 {
        let idx = (pkt as usize) % self.table.len();
        self.table[idx].wrapping_mul(31).rotate_left(7) ^ 0xdead
    }
}

impl Egress for Router {
    fn route(&self, pkt: u32) -> u32 {
        let idx = (pkt as usize) % self.table.len();
        self.table[idx].wrapping_mul(31).rotate_left(7) ^ 0xbeef
    }
}
"""
INGRESS, EGRESS = "src/router.rs::Router.route@Ingress", "src/router.rs::Router.route@Egress"


def stored_discriminators(repo) -> list[str]:
    (text,) = repo.memory_files().values()
    return [a["discriminator"] for a in orjson.loads(text.split(b"---\n")[1])["anchors"]]


def test_reanchor_of_one_twin_rebinds_that_twin_and_keeps_the_other(repo):
    """Red team, round 21: with both trait impls stale, `--anchor ...@Egress` re-bound the Ingress
    anchor to Egress, and the file ended with two Egress anchors: Ingress was lost."""
    repo.write("src/router.rs", ROUTER)
    repo.commit("router")
    mid = repo.remember("Both directions must use the same rotation so replies hash to one bucket", INGRESS, EGRESS)
    repo.replace("src/router.rs", "rotate_left(7) ^ 0xdead", "rotate_left(9) ^ 0xdead")
    repo.replace("src/router.rs", "rotate_left(7) ^ 0xbeef", "rotate_left(9) ^ 0xbeef")
    out = repo.json("reanchor", mid, "--anchor", EGRESS)
    assert [(c["change"], c["was"], c["now"]) for c in out["data"]["changes"]] == [
        ("kept", INGRESS, None),
        ("rebound", EGRESS, EGRESS),
    ]
    assert stored_discriminators(repo) == ["Ingress", "Egress"]
    item = repo.check()[mid]
    assert [(a["status"], a["reason"]) for a in item["anchors"]] == [("stale", "body_edited"), ("active", None)]
    text = repo.run("reanchor", mid, "--anchor", INGRESS).stdout
    assert f"rebound  {INGRESS}" in text and f"kept     {EGRESS}" in text
    assert stored_discriminators(repo) == ["Ingress", "Egress"]
    assert repo.check()[mid]["status"] == "active"
