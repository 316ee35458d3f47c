"""Tokens a definition's value depends on outside its own node, by `Language.implied` name."""

from __future__ import annotations

from tether.anchor.go_consts import implied_tokens
from tether.anchor.rust_attributes import outer_attributes

HOOKS = {"go_consts": implied_tokens, "rust_attributes": outer_attributes}
