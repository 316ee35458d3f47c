"""Markdown sections: a heading and everything under it, named by its heading path."""

from __future__ import annotations

import re

from .model import Symbol
from .normalize import digest, information_bits

SECTION_PREFIX = "m1:"
_ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
_SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
_WORD = re.compile(r"\S+")


def _headings(lines: list[str]) -> list[tuple[int, int, str]]:
    """(line index, level, text) of every heading outside fenced code and front matter."""
    out: list[tuple[int, int, str]] = []
    fence: str | None = None
    start = 0
    if lines and lines[0].strip() == "---":  # YAML/JSON front matter
        for i in range(1, len(lines)):
            if lines[i].strip() in ("---", "..."):
                start = i + 1
                break
    for i in range(start, len(lines)):
        line = lines[i]
        m = _FENCE.match(line)
        if m:
            marker = m.group(1)
            if fence is None:
                fence = marker[0] * len(marker)
            elif marker.startswith(fence):
                fence = None
            continue
        if fence is not None:
            continue
        m = _ATX.match(line)
        if m:
            out.append((i, len(m.group(1)), (m.group(2) or "").strip()))
            continue
        s = _SETEXT.match(line)
        prev = lines[i - 1].strip() if i > start else ""
        if s and prev and not _ATX.match(lines[i - 1]) and (not out or out[-1][0] != i - 1):
            out.append((i - 1, 1 if s.group(1)[0] == "=" else 2, prev))
    return out


def extract_sections(source: str) -> list[Symbol]:
    """Every section, named `Parent/Child`; hashed on its content, not its heading, so renames follow."""
    lines = source.splitlines()
    heads = _headings(lines)
    offsets = [0]
    for line in source.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line.encode("utf-8")))
    out: list[Symbol] = []
    path: list[tuple[int, str]] = []
    for n, (i, level, text) in enumerate(heads):
        while path and path[-1][0] >= level:
            path.pop()
        path.append((level, text.replace("/", "\\/")))
        end = len(lines)
        for j, lvl, _ in heads[n + 1 :]:
            if lvl <= level:
                end = j
                break
        body_start = i + 1
        if i + 1 < len(lines) and _SETEXT.match(lines[i + 1]) and not _ATX.match(lines[i]):
            body_start = i + 2
        words = _WORD.findall("\n".join(lines[body_start:end]))
        out.append(
            Symbol(
                "/".join(t for _, t in path),
                None,
                "section",
                i + 1,
                max(end, i + 1),
                offsets[i],
                offsets[end],
                digest(SECTION_PREFIX, " ".join(words).encode("utf-8")),
                round(information_bits(words), 1),
            )
        )
    return out
