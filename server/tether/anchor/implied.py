"""Tokens a definition's value depends on outside its own node, by `Language.implied` name."""

from __future__ import annotations

from .go_consts import implied_tokens
from .rust_attributes import outer_attributes

HOOKS = {"go_consts": implied_tokens, "rust_attributes": outer_attributes}
