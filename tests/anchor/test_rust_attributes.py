"""Rust: what an item's outer attributes and a macro's `;` mean is part of the item."""

from __future__ import annotations

import pytest

SRC = """\
use pyo3::prelude::*;

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderLine {
    pub sku: String,
    pub quantity: u32,
}

#[pymethods]
impl OrderLine {
    #[pyo3(signature = (sku, quantity=1))]
    fn split(&self, sku: String, quantity: u32) -> Vec<u32> {
        let mut parts = vec![0u32; 4];
        let weights = [1u32; 4];
        parts[0] = quantity * weights[0];
        parts
    }
}
"""


@pytest.mark.parametrize(
    "anchor, old, new",
    [
        ("OrderLine", 'rename_all = "camelCase"', 'rename_all = "snake_case"'),
        ("OrderLine", "#[derive(Debug, Clone, Serialize)]", "#[derive(Debug, Clone, Serialize, Deserialize)]"),
        (
            "OrderLine",
            "#[derive(Debug, Clone, Serialize)]\n",
            '#[derive(Debug, Clone, Serialize)]\n#[cfg(feature = "orders")]\n',
        ),
        ("OrderLine.split", "signature = (sku, quantity=1)", "signature = (sku, quantity=2)"),
        ("OrderLine.split", "vec![0u32; 4]", "vec![0u32, 4]"),
        ("OrderLine.split", "[1u32; 4]", "[1u32, 4]"),
    ],
    ids=["serde-option", "derive-added", "cfg-added", "pyo3-signature", "vec-repeat-to-list", "array-repeat-to-list"],
)
def test_an_edit_to_what_an_attribute_or_a_macro_says_is_stale_and_heals_on_revert(repo, anchor, old, new):
    repo.write("src/order.rs", SRC)
    repo.commit()
    mid = repo.remember("The Python binding and the wire format are both public API.", f"src/order.rs::{anchor}")
    repo.replace("src/order.rs", old, new)
    assert (repo.check()[mid]["status"], repo.check()[mid]["reason"]) == ("stale", "body_edited")
    repo.write("src/order.rs", SRC)
    assert repo.check()[mid]["status"] == "active"


def test_hints_doc_comments_and_layout_around_an_item_are_not_edits(repo):
    repo.write("src/order.rs", SRC)
    repo.commit()
    line = repo.remember("Field names are camelCase on the wire.", "src/order.rs::OrderLine")
    split = repo.remember("Four parts, because the warehouse has four docks.", "src/order.rs::OrderLine.split")
    repo.write(
        "src/order.rs",
        SRC.replace(
            "#[derive(Debug, Clone, Serialize)]\n",
            "/// One line of an order.\n#[must_use]\n#[allow(dead_code)]\n#[derive(Debug, Clone, Serialize)]\n",
        )
        .replace("    #[pyo3(", "    #[inline]\n    #[allow(clippy::needless_pass_by_value)]\n    #[pyo3(")
        .replace("vec![0u32; 4]", "vec![ 0u32 ; 4 ]"),
    )
    items = repo.check()
    assert (items[line]["status"], items[split]["status"]) == ("active", "active")
