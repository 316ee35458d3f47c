"""Go constants that spell no value of their own.

In `const ( A Kind = iota; B )` the constant `B` repeats `A`'s type and expression with its own
iota, so its own tokens are only its name, which the hash leaves out: every such constant hashed
alike and an edit to what it repeats, or a shift of its iota, left it fresh. Their hash takes what
they repeat, and every constant whose expression reads iota takes its place in the group.
"""

from __future__ import annotations

import re

from tether.anchor.languages import Language
from tether.anchor.normalize import token_stream
from tether.anchor.tokens import IMPLIED

_IOTA = re.compile(rb"(?<![\w])iota(?![\w])")


def implied_tokens(spec, lang: Language, source: bytes) -> list[bytes]:
    """What a `const_spec`'s value depends on beyond its own tokens; [] for anything else."""
    group = spec.parent
    if spec.type != "const_spec" or group is None:
        return []
    specs = [c for c in group.named_children if c.type == "const_spec"]
    at = next(i for i, c in enumerate(specs) if c.id == spec.id)
    out: list[bytes] = []
    valued = spec
    if spec.child_by_field_name("value") is None:
        valued = next((c for c in reversed(specs[:at]) if c.child_by_field_name("value") is not None), None)
        if valued is None:
            return []  # not Go (a syntax error): nothing to repeat
        for field in ("type", "value"):
            node = valued.child_by_field_name(field)
            if node is not None:
                out.append(IMPLIED + b"repeats " + field.encode())
                out += token_stream(node, lang, ())[0]
    value = valued.child_by_field_name("value")
    if at and _IOTA.search(source[value.start_byte : value.end_byte]):
        out.append(IMPLIED + b"iota=%d" % at)  # index 0 adds nothing: a lone `X = iota` hashes as before
    return out
