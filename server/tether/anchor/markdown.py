"""Markdown sections and table rows, named by heading path, hashed on what they say.

Names: a section is its heading path, `Setup/Linux` (a `/` inside a heading is written `\\/`); a
table row is the path of the section it sits in plus its first cell, `Limits/timeout_s`. Headings
and first cells are named as rendered (inline code, emphasis, links reduced to their text), so the
name can be typed in a shell. `match_sections` also takes a unique tail (`#Linux`), any case, an
unescaped `/`, and GitHub's anchor slug (`#installing-on-linux`, as copied from a link).

A section covers its subsections, as its heading's link does when rendered: a memory on `#Setup`
is a claim about all of setup, and a new step under `Setup/Linux` can falsify it, so the parent
goes stale too (its diff shows which subsection moved). A sibling's edit never touches it; the
narrower claim is made by anchoring the subsection. A table row is hashed on its other cells,
each paired with its column header, so a memory on one row goes stale when that row changes, or
its columns are renamed, and not when another row does.

Cosmetic, in both: heading style (ATX or setext), table alignment padding and pipe spacing,
line wrapping, HTML comments; front matter and fenced code are never mistaken for headings.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from tether.anchor.model import Symbol
from tether.anchor.normalize import digest, information_bits

# m2: tables and sub-headings normalized, HTML comments dropped (m1 hashed raw words)
SECTION_PREFIX = "m2:"
ROW_PREFIX = "r1:"
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_DELIM_CELL = re.compile(r"^\s*(:?)-+(:?)\s*$")
_NOT_PARAGRAPH = re.compile(r"^(?: {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)| {0,3}>| {4}|\t)")
_BREAK = re.compile(r"^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$")
_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_WORD = re.compile(r"\S+")
_CODE_SPAN = re.compile(r"(`+)(.+?)\1")
_LINK = re.compile(r"!?\[([^\]]*)\](?:\([^)]*\)|\[[^\]]*\])")
_TAG = re.compile(r"</?[A-Za-z][^>]*>")
_EMPH = (
    re.compile(r"(\*{1,3})(?=\S)(.+?)(?<=\S)\1"),
    re.compile(r"(?<!\w)(_{1,3})(?=\S)(.+?)(?<=\S)\1(?!\w)"),
    re.compile(r"(~~)(?=\S)(.+?)(?<=\S)\1"),
)
_UNSLASH = re.compile(r"(?<!\\)/")


def plain(text: str) -> str:
    """Inline Markdown as rendered text: code spans, emphasis, links and tags reduced, spaces collapsed."""
    parts = _CODE_SPAN.split(text)
    out = []
    # split keeps (fence, code) pairs between the prose pieces
    for i in range(0, len(parts), 3):
        prose = _TAG.sub("", _LINK.sub(r"\1", parts[i]))
        for rx in _EMPH:
            prose = rx.sub(r"\2", prose)
        out.append(re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", prose))
        if i + 2 < len(parts):
            out.append(parts[i + 2].strip())
    return " ".join("".join(out).split())


def slug(text: str) -> str:
    """GitHub's heading anchor: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", plain(text).lower()).replace(" ", "-")


def _escape(name: str) -> str:
    return name.replace("/", "\\/")


escape_name = _escape  # reStructuredText names its sections the same way (rst.py)


def _cells(line: str) -> list[str]:
    """A table line's cells; `\\|` is a pipe inside a cell."""
    s = line.strip()
    s = s.removeprefix("|")
    if s.endswith("|") and not s.endswith("\\|"):
        s = s[:-1]
    return [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", s)]


def _classify(lines: list[str]) -> tuple[list[str], list[tuple[int, int, str, int]]]:
    """Per line: front, fence, code, blank, text, other, head, delim, row, heading, under; and headings.

    A heading is (first line, level, text, last line): setext headings span their text and rule.
    """
    n = len(lines)
    kinds = ["other"] * n
    start = 0
    if lines and lines[0].strip() in ("---", "+++"):  # YAML/JSON or TOML front matter
        close = ("---", "...") if lines[0].strip() == "---" else ("+++",)
        for i in range(1, n):
            if lines[i].strip() in close:
                start = i + 1
                kinds[:start] = ["front"] * start
                break
    heads: list[tuple[int, int, str, int]] = []
    fence: str | None = None
    i = start
    while i < n:
        line = lines[i]
        m = _FENCE.match(line)
        if fence is not None or m:
            kinds[i] = "fence" if m else "code"
            if m and fence is None:
                fence = m.group(1)[0] * len(m.group(1))
            elif m and m.group(1).startswith(fence or "") and not line.strip()[len(m.group(1)) :].strip():
                fence = None
            i += 1
            continue
        if not line.strip():
            kinds[i] = "blank"
        elif (a := _ATX.match(line)) is not None:
            kinds[i] = "heading"
            heads.append((i, len(a.group(1)), (a.group(2) or "").strip(), i))
        elif "|" in line and i + 1 < n and _is_delim(lines[i + 1], len(_cells(line))):
            kinds[i], kinds[i + 1] = "head", "delim"
            i += 2
            while i < n and "|" in lines[i] and not (_FENCE.match(lines[i]) or _ATX.match(lines[i])):
                kinds[i] = "row"
                i += 1
            continue
        elif (s := _SETEXT.match(line)) is not None and i > start and kinds[i - 1] == "text":
            first = i - 1
            while first > start and kinds[first - 1] == "text":
                first -= 1
            text = " ".join(ln.strip() for ln in lines[first:i])
            kinds[first : i + 1] = ["heading"] * (i - first) + ["under"]
            heads.append((first, 1 if s.group(1)[0] == "=" else 2, text, i))
        elif _BREAK.match(line):
            kinds[i] = "other"  # a thematic break: neither paragraph text nor a setext rule
        elif not _NOT_PARAGRAPH.match(line):
            kinds[i] = "text"
        i += 1
    return kinds, heads


def _is_delim(line: str, ncells: int) -> bool:
    cells = _cells(line)
    return "-" in line and len(cells) == ncells and all(_DELIM_CELL.match(c) for c in cells)


def _tokens(lines: list[str], kinds: list[str], lo: int, hi: int, heads: dict[int, tuple[int, str]]) -> list[str]:
    """The normalized words of lines lo..hi: what a section's hash and entropy are made of."""
    out: list[str] = []
    for i in range(lo, hi):
        k = kinds[i]
        if k in ("under", "blank", "front"):
            continue
        if k == "heading":
            if i in heads:  # a sub-heading: its level and rendered text, whatever its style
                level, text = heads[i]
                out += ["#" * level, *plain(text).split()]
        elif k == "delim":
            out.append("|")
            for c in _cells(lines[i]):
                m = _DELIM_CELL.match(c)
                out += [(m.group(1) + "-" + m.group(2)) if m else c, "|"]
        elif k in ("head", "row"):
            out.append("|")
            for c in _cells(lines[i]):
                out += [*c.split(), "|"]
        else:
            out += _WORD.findall(lines[i])
    return out


def extract_sections(source: str) -> list[Symbol]:
    """Every section (`Parent/Child`) and table row (`Section/first cell`); names are not hashed."""
    # comments blanked in place, newlines kept, so line numbers and byte offsets still hold
    source_nc = _COMMENT.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), source)
    lines = source_nc.splitlines()
    raw_lines = source.splitlines(keepends=True)
    offsets = [0]
    for line in raw_lines:
        offsets.append(offsets[-1] + len(line.encode("utf-8")))
    kinds, heads = _classify(lines)
    by_line = {first: (level, text) for first, level, text, _ in heads}
    out: list[Symbol] = []
    path: list[tuple[int, str]] = []
    names: list[str] = []
    for n, (i, level, text, last) in enumerate(heads):
        while path and path[-1][0] >= level:
            path.pop()
        path.append((level, _escape(plain(text))))
        names.append("/".join(t for _, t in path if t))  # an empty heading names nothing
        end = next((j for j, lvl, _, _ in heads[n + 1 :] if lvl <= level), len(lines))
        words = _tokens(lines, kinds, last + 1, end, by_line)
        if path[-1][1]:
            out.append(_symbol(names[-1], "section", i, end, offsets, digest(SECTION_PREFIX, _join(words)), words))
    starts = [h[0] for h in heads]
    header: list[str] = []
    for i, k in enumerate(kinds):
        if k == "head":
            header = [plain(c) for c in _cells(lines[i])]
        elif k == "row":
            cells = _cells(lines[i])
            key = plain(cells[0])
            if not key:
                continue
            cells = (cells + [""] * len(header))[: len(header)]
            rest = [" ".join(plain(c).split()) for c in cells[1:]]
            words = [w for c in rest for w in c.split()]
            h = digest(ROW_PREFIX, _join(f"{col}\x1e{c}" for col, c in zip(header[1:], rest)))
            at = bisect_right(starts, i) - 1
            name = f"{names[at]}/{_escape(key)}" if at >= 0 and names[at] else _escape(key)
            out.append(_symbol(name, "row", i, i + 1, offsets, h, words))
    out.sort(key=lambda s: s.start_byte)
    return out


def _join(words) -> bytes:
    return "\x1f".join(words).encode("utf-8", "surrogatepass")


def _symbol(name: str, kind: str, first: int, end: int, offsets: list[int], h: str, words: list[str]) -> Symbol:
    end = min(max(end, first + 1), len(offsets) - 1)
    return Symbol(name, None, kind, first + 1, end, offsets[first], offsets[end], h, round(information_bits(words), 1))


def section_symbol(name: str, first: int, end: int, offsets: list[int], h: str, words: list[str]) -> Symbol:
    """A section over lines first..end-1 (0-based; `offsets` are the lines' byte starts)."""
    return _symbol(name, "section", first, end, offsets, h, words)


def _split(name: str) -> list[str]:
    return [p.replace("\\/", "/") for p in _UNSLASH.split(name)]


def match_sections(symbols: list[Symbol], name: str) -> list[Symbol]:
    """What a typed `#name` means: exact, then tail, each as typed, any case, then as a GitHub slug."""
    exact = [s for s in symbols if s.qualname == name]
    if exact:
        return exact
    want = _split(name.strip("/"))
    paths = [(s, _split(s.qualname)) for s in symbols]
    for norm in (lambda x: x, str.casefold, lambda x: slug(x).strip("-")):
        w = [norm(x) for x in want]
        normed = [(s, [norm(x) for x in p]) for s, p in paths]
        full = [s for s, p in normed if p == w]
        if full:
            return full
        tail = [s for s, p in normed if len(p) > len(w) and p[-len(w) :] == w]
        if tail:
            return tail
    # a `/` inside a heading, typed without its backslash
    flat = name.casefold()
    return [s for s in symbols if (q := s.qualname.replace("\\/", "/").casefold()) == flat or q.endswith("/" + flat)]
