"""The secret gate: find credentials in text before it is written to a shared, committed memory.

`scan(text, allow)` returns findings (rule, line, column, span) and never raises; callers refuse the
write and report the rule and position only, never the matched text. Rules (rules.py) run
most specific first; a span claimed by one rule is not reported again by a more generic one. A
line ending in a backslash is joined to the next before scanning (a key split for width is still
a key); positions are reported in the original text.

Allowlist: `.tether/allowlist`, committed with the memories, one entry per line, `#` starts a
comment (whole line or trailing):

    high_entropy            # a rule name: that rule is off for this repository
    sha256:9f86d08188...    # the SHA-256 (hex) of one exact string that may be stored

The exact string is the flagged token itself: the whole token for token rules, the value of a
`password = "value"` assignment, the password part of `scheme://user:password@host`, the whole
BEGIN..END block of a private key. Compute it with `printf %s 'the-string' | sha256sum`.
A span allowed either way also stops the generic rules (assignment, high_entropy) re-flagging it.

Tuned to let through what memories are full of: hex digests (git SHAs, `t1:`/`sha256:`/`h1:`
hashes), UUIDs, long snake_case/camelCase identifiers, base64 of text or code, URLs without
credentials, SSH public keys, certificates, data URIs, publishable keys, placeholders (`xoxb-xxx`,
`AKIA...EXAMPLE`, `<your-api-key>`, `${TOKEN}`).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from tether.errors import SecretDetected
from tether.files.private import credential_file  # noqa: F401  (the gate's other half, importable from here too)
from tether.files.read import Unreadable, read_regular_file
from tether.store.secrets.checks import WORDINESS_MAX  # noqa: F401
from tether.store.secrets.rules import RULES, candidates

ALLOWLIST_FILE = ".tether/allowlist"
MAX_ALLOWLIST_BYTES = 64 * 1024


@dataclass(frozen=True, slots=True)
class Finding:
    rule: str
    line: int  # 1-based
    column: int  # 1-based, in characters
    start: int
    end: int

    @property
    def description(self) -> str:
        return RULES[self.rule][0]


@dataclass(frozen=True, slots=True)
class Allowlist:
    rules: frozenset[str] = frozenset()
    digests: frozenset[str] = frozenset()
    invalid: tuple[tuple[int, str], ...] = ()  # (line number, why) for entries that mean nothing

    def allows(self, rule: str, value: str) -> bool:
        return rule in self.rules or (bool(self.digests) and fingerprint(value) in self.digests)


EMPTY = Allowlist()


def fingerprint(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8")).hexdigest()


_CONTINUATION = re.compile(r"\\\r?\n")


def _joined(text: str) -> tuple[str, list[int] | None]:
    """`text` with backslash-newlines removed, and each joined offset's offset in `text` (None: unchanged)."""
    if "\\\n" not in text and "\\\r\n" not in text:
        return text, None
    where: list[int]
    parts, where, last = [], [], 0
    for m in _CONTINUATION.finditer(text):
        parts.append(text[last : m.start()])
        where.extend(range(last, m.start()))
        last = m.end()
    parts.append(text[last:])
    where.extend(range(last, len(text) + 1))
    return "".join(parts), where


def _folded(text: str) -> tuple[str, list[int]] | None:
    """`text` as NFKC reads it, without format characters (zero-width spaces, bidi marks), and each
    folded offset's offset in `text`; None if that changes nothing. A key typed in full-width
    letters, or with a zero-width space inside, is still the key once copied out."""
    if text.isascii():
        return None
    out: list[str] = []
    where: list[int] = []
    for i, c in enumerate(text):
        if c.isascii():
            out.append(c)
            where.append(i)
        elif unicodedata.category(c) != "Cf":
            n = unicodedata.normalize("NFKC", c)
            out.append(n)
            where.extend([i] * len(n))
    folded = "".join(out)
    return None if folded == text else (folded, where + [len(text)])


def scan(text: str, allow: Allowlist = EMPTY) -> list[Finding]:
    """Every secret-looking span in `text` not allowed by `allow`, in reading order."""
    if not text:
        return []
    found = _scan(text, text, None, allow)
    folded = _folded(text)
    if folded is not None:
        seen = [(f.start, f.end) for f in found]
        found += [f for f in _scan(text, *folded, allow) if not any(a < f.end and f.start < b for a, b in seen)]
    return sorted(found, key=lambda f: f.start)


def _scan(text: str, view: str, origin: list[int] | None, allow: Allowlist) -> list[Finding]:
    """Findings in `view` (`text` itself, or a folded copy whose offset i is `origin[i]` in `text`)."""
    joined, where = _joined(view)
    found = []
    for rule, start, end in candidates(joined):  # claimed spans are not offered twice
        if allow.allows(rule, joined[start:end]):
            continue
        if where is not None:
            start, end = where[start], where[end - 1] + 1
        if origin is not None:
            start, end = origin[start], origin[end - 1] + 1
        line = text.count("\n", 0, start) + 1
        found.append(Finding(rule, line, start - (text.rfind("\n", 0, start) + 1) + 1, start, end))
    return found


def parse_allowlist(text: str) -> Allowlist:
    rules, digests, invalid = set(), set(), []
    for n, raw in enumerate(text.splitlines(), 1):
        entry = raw.split("#", 1)[0].strip()
        if not entry:
            continue
        if entry.lower().startswith("sha256:"):
            hexd = entry[7:].strip().lower()
            if re.fullmatch(r"[0-9a-f]{64}", hexd):
                digests.add(hexd)
            else:
                invalid.append((n, "sha256: needs 64 hex digits"))
        elif entry in RULES:
            rules.add(entry)
        else:
            invalid.append((n, f"unknown rule {entry[:40]!r}"))
    return Allowlist(frozenset(rules), frozenset(digests), tuple(invalid))


def load_allowlist(root: Path) -> Allowlist:
    """The committed allowlist. Anything but a regular file under the cap (a FIFO, a device, a
    link, a huge file) is not read: nothing is allowed, and the reason is an `invalid` entry."""
    try:
        data = read_regular_file(root / ALLOWLIST_FILE, MAX_ALLOWLIST_BYTES)[1]
    except Unreadable as e:
        return Allowlist(invalid=((0, f"{ALLOWLIST_FILE} ignored: {e.message}"),))
    except OSError:  # absent (the usual case) or unreadable: nothing is allowed
        return EMPTY
    return parse_allowlist(data.decode("utf-8", "replace"))


def refuse(root: Path, **fields: str | None) -> None:
    """Raise SecretDetected naming the first credential-looking span of `fields` (field, line,
    column, rule) under the repository's allowlist, never its text."""
    allow = load_allowlist(root)
    found = [(name, f) for name, text in fields.items() if text for f in scan(text, allow)]
    if not found:
        return
    name, f = found[0]
    more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
    raise SecretDetected(
        f"{name} line {f.line} col {f.column} looks like {f.description} (rule {f.rule}){more}; nothing was stored",
        field=name.split()[0],
        rule=f.rule,
        line=f.line,
        column=f.column,
        findings=[{"field": n, "rule": x.rule, "line": x.line, "column": x.column} for n, x in found],
    )
