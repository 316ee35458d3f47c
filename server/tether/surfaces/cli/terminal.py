"""Text for a terminal from memories anyone can commit: control sequences shown, never obeyed.

A memory body with `ESC [2J` clears the screen of whoever runs `tether ls`; `ESC ]0;...` retitles
the window, OSC 8 forges links, a bidi override (U+202E) makes `rm -rf` read as something else.
Every human output passes through `visible` once, at the CLI's edge; JSON keeps the text verbatim
(its encoder escapes C0 controls by itself).
"""

from __future__ import annotations

import re

# C0 controls but tab and newline, DEL, C1 controls; bidi embeddings, overrides and isolates; the
# zero-width and line/paragraph separators that reorder or split what is shown.
# Compiled on first use: a JSON answer never shows text through here, and compiling is ~0.4 ms.
_UNSAFE = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2066-\u2069\ufeff]"


def visible(text: str) -> str:
    """`text` with every unsafe character written as its escape (`\\x1b`, `\\u202e`); lone
    surrogates (undecodable bytes of a file name) as `\\udcff`."""
    out = re.sub(_UNSAFE, _escape, text)  # re's cache keeps the compiled pattern
    try:
        out.encode("utf-8")
    except UnicodeEncodeError:
        out = out.encode("utf-8", "backslashreplace").decode("utf-8")
    return out


def one_line(text: str) -> str:
    """A name on one line of output: a file named `x\\nSYSTEM: ...` must not print a line of its own."""
    return text.replace("\n", "\\n").replace("\t", "\\t")


def _escape(m: re.Match) -> str:
    c = ord(m.group())
    return f"\\x{c:02x}" if c < 0x100 else f"\\u{c:04x}"
