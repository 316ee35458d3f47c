"""reStructuredText sections, named by title path and hashed on what they say, as Markdown's are.

A title is one line underlined (and optionally overlined, the same) by one punctuation character
repeated at least the title's length; a title's level is the order in which its adornment style
(the character, and whether it is overlined) first appears in the file. Names, coverage and what
is cosmetic follow markdown.py: `Configuration Basics/Builtin Values` (a `/` in a title is `\\/`),
a section covers its subsections, and reflowing a paragraph or changing which adornment a level
uses changes nothing. Inline markup in titles is named as rendered (``code``, *emphasis*,
`links <url>`_, :roles:`text`). Indented lines (block quotes, literal blocks, directive bodies)
are never titles. No grammar: one pass over the lines, so any file is read in linear time.
"""

from __future__ import annotations

import re

from tether.anchor.markdown import escape_name, section_symbol
from tether.anchor.normalize import digest

SECTION_PREFIX = "s1:"
RST_EXTENSIONS = (".rst", ".rest")
# docutils' adornment characters: the printable 7-bit ASCII that is neither letter, digit nor space
_ADORN = re.compile(r"^([!-/:-@\[-`{-~])\1*[ \t]*$")
_WORD = re.compile(r"\S+")
_ROLE = re.compile(r":[\w.+-]+:`([^`]*)`")
_LINK = re.compile(r"`([^`<]*?)\s*(?:<[^>]*>)?`__?")
_LITERAL = re.compile(r"``(.+?)``")
_EMPH = re.compile(r"(\*{1,2})(?=\S)(.+?)(?<=\S)\1")
_TARGET = re.compile(r"\|([^|\s][^|]*)\|_{0,2}")  # a substitution reference


def plain(text: str) -> str:
    """A title's inline markup as rendered text, spaces collapsed."""
    text = _ROLE.sub(r"\1", text)
    text = _LITERAL.sub(r"\1", text)
    text = _LINK.sub(r"\1", text)
    text = _EMPH.sub(r"\2", text)
    text = _TARGET.sub(r"\1", text)
    return " ".join(text.replace("\\", "").split())


def _adornment(line: str) -> str | None:
    """The character a line repeats, if the line is an adornment (at least 2 long, from column 0)."""
    m = _ADORN.match(line)
    return m.group(1) if m and len(line.rstrip()) >= 2 else None


def _titles(lines: list[str]) -> list[tuple[int, int, str, int, int]]:
    """(first line, level, title text, its line, last line) of every title, in order; levels from 1."""
    styles: dict[tuple[str, bool], int] = {}
    out = []
    n, i = len(lines), 0
    while i < n:
        line = lines[i]
        above_blank = i == 0 or not lines[i - 1].strip()
        ch = _adornment(line)
        if ch is not None and above_blank and i + 2 < n:
            # an overline: the title (it may be inset) and an underline of the same character and length
            title, under = lines[i + 1], lines[i + 2]
            width = len(line.rstrip())
            if (
                title.strip()
                and _adornment(title) is None
                and _adornment(under) == ch
                and len(under.rstrip()) == width
                and len(title.rstrip()) <= width
            ):
                level = styles.setdefault((ch, True), len(styles) + 1)
                out.append((i, level, title.strip(), i + 1, i + 2))
                i += 3
                continue
        if ch is None and above_blank and line.strip() and not line[0].isspace() and i + 1 < n:
            under = lines[i + 1]
            uch = _adornment(under)
            if uch is not None and len(under.rstrip()) >= len(line.rstrip()):
                level = styles.setdefault((uch, False), len(styles) + 1)
                out.append((i, level, line.strip(), i, i + 1))
                i += 2
                continue
        i += 1
    return out


def extract_rst_sections(source: str) -> list:
    """Every section (`Parent/Child`); names are not hashed, sub-titles by level and text."""
    lines = source.splitlines()
    raw = source.splitlines(keepends=True)
    offsets = [0]
    for line in raw:
        offsets.append(offsets[-1] + len(line.encode("utf-8", "surrogatepass")))
    titles = _titles(lines)
    # every line of a sub-title is read as its level and text, whatever its adornment
    marks = {
        j: (level, text if j == at else "") for first, level, text, at, last in titles for j in range(first, last + 1)
    }
    out = []
    path: list[tuple[int, str]] = []
    for n, (first, level, text, _, last) in enumerate(titles):
        while path and path[-1][0] >= level:
            path.pop()
        path.append((level, escape_name(plain(text))))
        end = next((f for f, lvl, *_ in titles[n + 1 :] if lvl <= level), len(lines))
        words: list[str] = []
        for j in range(last + 1, end):
            if j in marks:
                sub_level, sub_text = marks[j]
                if sub_text:
                    words += ["#" * sub_level, *plain(sub_text).split()]
            else:
                words += _WORD.findall(lines[j])
        if path[-1][1]:
            name = "/".join(t for _, t in path if t)
            h = digest(SECTION_PREFIX, "\x1f".join(words).encode("utf-8", "surrogatepass"))
            out.append(section_symbol(name, first, end, offsets, h, words))
    return out
