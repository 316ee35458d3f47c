"""Where a memory's sentences end, and how its text is cut to a budget: one rule for the
auto-summary (`summarize`) and the text the prompt hook pushes.

A sentence ends at `.`, `!` or `?` (then any closing quotes or brackets) followed by whitespace and
anything but a lowercase letter (an uppercase letter, a digit, a quote, a symbol such as ✓, a line
break), or by the end of the text; or at a CJK `。！？`. Never at an ellipsis (`...`, `…`), an abbreviation (`e.g.`,
`i.e.`, `etc.`, `vs.`, `Mr.`, `Dr.`, an initial), nor before a lowercase word (`v3. the parser`,
`config.py. then`); never inside a fenced code block. Stdlib `re` only: the prompt hook imports it.
"""

from __future__ import annotations

import re

# lowercase, without the final dot: never the end of a sentence, whatever follows
ABBREVIATIONS = frozenset(
    "e.g i.e etc vs cf viz al approx incl esp resp fig eq ref vol no mr mrs ms dr prof sr jr st".split()
)
# Patterns as text, compiled on first use (re's cache keeps them): compiling them at import was
# ~0.6 ms of every read command's start, and most reads find their memories parsed already.
_PUNCT = r"[.!?]+|[\u3002\uff01\uff1f]"
_CLOSERS = "\"'\u201d\u2019\u00bb)]*_\u300d\u300f\uff09"
_OPENERS = "\"'\u201c\u2018\u00ab([`*_"
_TOKEN = r"\S+$"
_DOTTED = r"(?:[A-Za-z]\.)+[A-Za-z]"  # e.g, i.e, U.S, a.m
_FENCE = r" {0,3}(`{3,}|~{3,})(.*)"
# a line that starts a block of its own: the line before it ends where it may be cut
_BLOCK_START = r"\s*$| {0,3}(?:[-*+] |\d{1,9}[.)] |#|>|\|)"


def code_spans(text: str) -> list[tuple[int, int, str]]:
    """(start, end, fence) of each fenced code block, its fence lines included; an unclosed one
    runs to the end of the text."""
    spans: list[tuple[int, int, str]] = []
    pos, start, fence = 0, 0, ""
    for line in text.split("\n"):
        m = re.match(_FENCE, line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not m.group(2).strip():
                spans.append((start, pos + len(line), fence))
                fence = ""
        elif m:
            start, fence = pos, m.group(1)
        pos += len(line) + 1
    if fence:
        spans.append((start, len(text), fence))
    return spans


def _inside(spans: list[tuple[int, int, str]], i: int) -> tuple[int, int, str] | None:
    return next((s for s in spans if s[0] <= i < s[1]), None)


def _abbreviation(text: str, dot: int) -> bool:
    m = re.compile(_TOKEN).search(text, 0, dot)
    token = m.group().lstrip(_OPENERS) if m else ""
    return token.lower() in ABBREVIATIONS or bool(re.fullmatch(_DOTTED, token)) or (len(token) == 1 and token.isupper())


def sentence_ends(text: str) -> list[int]:
    """The offsets just past each sentence end (its closing quotes included), in order."""
    spans = code_spans(text)
    ends = []
    n = len(text)
    for m in re.finditer(_PUNCT, text):
        if _inside(spans, m.start()):
            continue
        p = m.group()
        j = m.end()
        while j < n and text[j] in _CLOSERS:
            j += 1
        if p in "\u3002\uff01\uff1f":
            ends.append(j)
            continue
        if "!" not in p and "?" not in p and len(p) > 1:
            continue  # an ellipsis
        k = j
        while k < n and text[k] in " \t":
            k += 1
        if k < n:
            nxt = text[k]
            if nxt not in "\r\n" and (k == j or nxt.islower()):
                continue  # `3.12`, `config.py`, or a lowercase word next
        if p == "." and _abbreviation(text, m.start()):
            continue
        ends.append(j)
    return ends


def first_sentence(text: str) -> str:
    """The text up to its first sentence end (the whole text when it has none)."""
    ends = sentence_ends(text)
    return text[: ends[0]] if ends else text


def _line_ends(text: str, spans: list[tuple[int, int, str]]) -> list[int]:
    """Line ends where a block ends: before a blank line, a list item, a heading, a quote, a table
    row or a fence; and the end of each fenced block. A wrapped line of prose is no end."""
    out = []
    pos = 0
    lines = text.split("\n")
    for i, line in enumerate(lines[:-1]):
        end = pos + len(line)
        pos = end + 1
        if _inside(spans, end) is None and (re.match(_BLOCK_START, lines[i + 1]) or re.match(_FENCE, lines[i + 1])):
            out.append(end)
    out += [s[1] for s in spans]
    return out


def cut(text: str, limit: int, mark: str = " […]") -> str:
    """`text` whole when it fits in `limit` characters, else cut once, `mark` appended: after the
    last sentence (or block) that fits; when none does, after the first sentence if it ends within
    twice the limit, else at a word boundary (a line's end in code). A cut inside a fenced code block closes the fence."""
    if len(text) <= limit:
        return text
    spans = code_spans(text)
    points = sorted(set(sentence_ends(text) + _line_ends(text, spans)))
    fitting = [p for p in points if 0 < p <= limit]
    if fitting:
        pos = fitting[-1]
    elif points and points[0] <= 2 * limit:
        pos = points[0]
    else:
        head = text[:limit]  # a word boundary; in code, a line's end
        pos = head.rfind("\n") if _inside(spans, limit) else max(head.rfind(" "), head.rfind("\n"))
        pos = pos if pos > 0 else limit
    head = text[:pos].rstrip()
    inside = _inside(spans, pos)
    if inside is not None:
        return head + "\n" + inside[2] + "\n" + mark.strip()
    return head + mark
