"""Value checks for the secret gate: does a candidate look machine-made, a placeholder, a reference?

Rules (rules.py) find candidates with regexes; these functions judge them. They look at the
candidate only, never keep it, and never raise. Stdlib only.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections import Counter

WORDINESS_MAX = 0.6  # at or above: a name made of words, not a key

# -- placeholders, fakes, references -----------------------------------------------------------

_PLACEHOLDER = re.compile(
    r"(?ix)^(?:x+|\*+|\.+|-+|_+|\#+|0+|•+|<[^>]*>|\[[^\]]*\]|\{\{.*\}\}|\$\{?[A-Za-z_]\w*\}?|%\(?\w+\)?s?|%s|"
    r"(?:your|my|some|example|dummy|fake|test|sample|placeholder|insert|put|enter|replace)[_\-]?\w*|"
    r"\w*[_\-]?(?:here|goes[_\-]?here|placeholder)|"
    r"redacted|changeme|change[_\-]?me|change[_\-]?it|secret|password|passwd|pass|pwd|token|none|null|nil|true|false|"
    r"undefined|todo|tbd|foo|bar|baz|foobar|abc|abc123|123456|12345678|qwerty|letmein|admin|root|user|"
    r"username|xxx|yyy|zzz)[:.]?$"
)
_FAKE_WORDS = re.compile(
    r"(?i)example|dummy|fake|sample|placeholder|redacted|changeme|tooshort|notreal|xxxx|yourkey|your_?api"
)


_TRIGRAMS = [a[i : i + 3] for a in ("abcdefghijklmnopqrstuvwxyz", "0123456789") for i in range(len(a) - 2)]
_ASCENDING = re.compile("(?=(?:" + "|".join(_TRIGRAMS) + "))")  # where a run like abc or 456 starts (overlapping)
_REPEATS = re.compile(r"(.)\1{2,}")


def _ascending_cover(s: str) -> int:
    """Characters inside runs of 3+ consecutive letters or digits (abcd, 4567): the union of their trigrams."""
    total, end = 0, -1
    for m in _ASCENDING.finditer(s):
        i = m.start()
        total += 3 if i >= end else i + 3 - end
        end = i + 3
    return total


def _repeat_cover(s: str) -> int:
    return sum(m.end() - m.start() for m in _REPEATS.finditer(s))


_MASK = re.compile(r"([#*•.xX])\1{3,}|…")


def fake(v: str) -> bool:
    """Typed by a person, not a machine: x's, repeats, abc/123 runs, 'example', masks, too few distinct symbols."""
    if _FAKE_WORDS.search(v) or _MASK.search(v):
        return True
    body = re.sub(r"[^A-Za-z0-9]", "", v[:96])
    if len(body) < 4:
        return True
    low = body.lower()
    n = len(low)
    if len(set(low)) < min(6, 1 + n // 6):
        return True
    same, up = _repeat_cover(low), _ascending_cover(low)
    return same >= 0.4 * n or up >= 0.4 * n or same + up >= 0.55 * n


def placeholder(v: str) -> bool:
    return bool(_PLACEHOLDER.match(v)) or fake(v)


_TEMPLATE = re.compile(
    r"^(?:\$\{\{?[^}]*\}?\}|\$\(\(?.*\)\)?|\$[A-Za-z_]\w*|\$\d|\{\{.*\}\}|\{%.*%\}|<%.*%>|\{[\w.\- ]*\}|"
    r"%[A-Za-z_]\w*%|%\(\w+\)s|@[A-Za-z_]\w*@|#\{.*\}|<[^<>]*>|\[[A-Z_ \-]+\]|`[^`]*`)$"
)


def reference(v: str) -> bool:
    """The whole value is an environment variable, template slot, command substitution or path."""
    v = v.strip()
    if not v:
        return True
    if _TEMPLATE.match(v) or v.startswith(("${", "$(", "{{", "%(", "(", "[", "/", "./", "../", "~/")) or "://" in v:
        return True
    if (v[0], v[-1]) in (("<", ">"), ("{", "}"), ("[", "]")):
        return True  # <your key>, {SumoAccessKey}, [PASSWORD]
    return bool(re.match(r"^[A-Za-z_][\w.]*\s*[(\[]", v))  # os.getenv(...), env["X"], request.json['hey']


# -- randomness ---------------------------------------------------------------------------------


def entropy(s: str) -> float:
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values()) if n else 0.0


def decode_b64(token: str) -> bytes | None:
    t = token.rstrip("=")
    if len(t) % 4 == 1:
        return None
    for alt in (None, b"-_"):
        try:
            return base64.b64decode(t + "=" * (-len(t) % 4), altchars=alt, validate=True)
        except (binascii.Error, ValueError):
            continue
    return None


def printable(raw: bytes, share: float = 0.95) -> str | None:
    """The bytes as text when at least `share` of them is printable, else None."""
    text = raw.decode("utf-8", "replace")
    ok = sum(1 for c in text if (c.isprintable() and c != "\ufffd") or c in "\n\r\t")
    return text if text and ok >= share * len(text) else None


def decodes_to_text(token: str) -> bool:
    """Base64 of text or code (a config blob, a snippet) carries no key material of its own."""
    t = token.rstrip("=")
    t = t[: len(t) - len(t) % 4]
    if len(t) < 16:
        return False
    raw = decode_b64(t)
    return raw is not None and printable(raw) is not None


# Letter pairs covering 90% of those in English-named code (measured on the Python stdlib). Names
# are made of words, so most of their pairs are here; random letters hit the set 26% of the time.
_COMMON_PAIRS = frozenset(
    "ab ac ad ag ai al am an ap ar as at au ba be bj bl bu by ca ce ch ci ck cl co cr ct da de di do ds du "
    "ea ec ed ee ef el em en ep er es et ex ey fa ff fi fo fr fu ge gs ha he hi ho ic id ie if ig il im in io "
    "ip ir is it iv iz ke la ld le lf li ll lo ls lt lu ly ma me mi mo mp na nc nd ne nf ng ni no ns nt nu ob "
    "oc od of ol om on op or os ot ou ow pa pe pl po pp pr pt qu ra re rg ri rm rn ro rr rs rt ru ry sa se sh "
    "si so sp ss st su sy ta te th ti to tr ts tt tu ty ue ul um un up ur us ut va ve wa wh wi wr xc xt yp yt ze".split()
)
_PIECES = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def wordiness(token: str) -> float:
    """Share of letter pairs inside word pieces that are common in names (acronyms like XMLRPC skipped)."""
    mixed = any(c.islower() for c in token)
    words = [
        p.lower() for p in _PIECES.findall(token) if not p.isdigit() and not (mixed and p.isupper() and len(p) > 2)
    ]
    pairs = [w[i : i + 2] for w in words for i in range(len(w) - 1)]
    return sum(1 for p in pairs if p in _COMMON_PAIRS) / len(pairs) if pairs else 0.0


_WORD_SEGMENT = re.compile(r"[A-Z]+\d*|[a-z]+\d*|[A-Z][a-z]+\d*|\d+|v\d+")
_SEPARATORS = re.compile(r"[_\-/.]+")
HEXISH = re.compile(r"(?:0x)?[0-9a-fA-F_\-]+")


def looks_random(token: str, min_len: int = 20) -> bool:
    """Machine-made, not a name: letters and digits mixed, few word-like letter pairs, high entropy."""
    t = token.rstrip("=")
    if len(t) < min_len or HEXISH.fullmatch(t):  # hex digests and UUIDs are not keys without a name
        return False
    if not any(c.isdigit() for c in t) or sum(c.isalpha() for c in t) < len(t) / 4:
        return False  # names without digits; numbers (`2.87290_85735e+4`)
    segments = _SEPARATORS.split(t)
    if len(segments) > 1 and all(_WORD_SEGMENT.fullmatch(s) or HEXISH.fullmatch(s) for s in segments if s):
        return False  # SCREAMING_SNAKE, kebab-case, path/like, prefix-<uuid>: separators between words or hex
    if entropy(t) < min(3.6, 0.75 * math.log2(len(t))) or fake(t):
        return False  # an alphabet, a counting sequence, x's
    if len(t) >= 28 and len(set(t)) == len(t):
        return False  # every character once: a charset listing (random runs this long repeat one)
    return wordiness(t) < WORDINESS_MAX and not decodes_to_text(token)


_SPACE = re.compile(r"\s")


def password_like(v: str, min_len: int) -> bool:
    """A literal a person would choose as a password, or a machine-made value: not a word, code or path."""
    if len(v) < min_len or _SPACE.search(v) or _PLACEHOLDER.match(v) or reference(v):
        return False
    if re.fullmatch(r"[\d.,:+\-]+", v):
        return len(re.sub(r"\D", "", v)) >= 12 and not fake(v)  # long digit runs (ids of a kind); not numbers
    if re.fullmatch(r"[A-Z][A-Z0-9_]+", v) or re.fullmatch(r"[a-z0-9_.\-]+(?:/[a-z0-9_.\-]+)+", v):
        return False  # an environment variable's name; a path
    if re.fullmatch(r"[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+", v) and not re.search(r"\d", v):
        return False  # settings.API_KEY: where the secret is kept
    if fake(v):
        return False
    if HEXISH.fullmatch(v) and len(v) >= 16:
        return True  # named by context as a key (`secret_key_base: <hex>`)
    if v.isalpha() or re.fullmatch(r"[A-Za-z]+(?:[_\-.][A-Za-z]+)+", v):
        return not (v.islower() or v.isupper() or len(v) < 12 or wordiness(v) >= 0.5) and looks_random(v + "0", 12)
    return bool(
        re.search(r"[A-Za-z]\d|\d[A-Za-z]", v)  # letters and digits mixed: hunter2, Tiger7, 3mRI2Qu
        or (re.search(r"[^A-Za-z0-9_\-.]", v) and re.search(r"[A-Za-z]", v))  # symbols: P@ss!
        or looks_random(v, 12)
    )
