"""The shape of a secret-gate rule: one entry of the table in rules.py.

Each rule is (description, pattern, group, valid, keywords, find, generic, on_lower): the pattern
finds a candidate, `group` holds the secret, `valid(secret)` says whether it is real-looking (None:
always), `keywords` (lowercase) must occur in the text for the rule to run at all, `find(text,
match, depth, taken)` (finders.py) replaces group+valid for rules that need more than one look,
generic rules skip spans known to be harmless (data URIs, certificates, SSH public keys, SOPS
ciphertext), and `on_lower` patterns run on the ASCII-lowercased text.
"""

from __future__ import annotations

import re
from typing import Callable, NamedTuple

from tether.store.secrets.finders import Span


class Rule(NamedTuple):
    description: str
    pattern: "re.Pattern[str] | None"  # None: found by another rule's pass
    group: int | str = 0
    valid: "Callable[[str], bool] | None" = None
    keywords: tuple[str, ...] = ()
    find: "Callable[..., Span | tuple[str, int, int] | None] | None" = None  # (text, match, depth, taken)
    generic: bool = False
    on_lower: bool = False  # the pattern runs on the ASCII-lowercased text (same offsets)
