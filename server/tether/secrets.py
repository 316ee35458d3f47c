"""The secret gate: find credentials in text before it is written to a shared, committed memory.

`scan(text, allow)` returns findings (rule, line, column, span) and never raises; callers refuse the
write and report the rule and position only, never the matched text. Rules run most specific
first; a span claimed by one rule is not reported again by a more generic one.

Allowlist: `.tether/allowlist`, committed with the memories, one entry per line, `#` starts a
comment (whole line or trailing):

    high_entropy            # a rule name: that rule is off for this repository
    sha256:9f86d08188...    # the SHA-256 (hex) of one exact string that may be stored

The exact string is the flagged token itself: the whole token for token rules, the value of a
`password = "value"` assignment, the password part of `scheme://user:password@host`, the whole
BEGIN..END block of a private key. Compute it with `printf %s 'the-string' | sha256sum`.
A span allowed either way also stops the generic rules (assignment, high_entropy) re-flagging it.

Tuned to let through what memories are full of: hex digests (git SHAs, `t1:`/`sha256:` hashes),
UUIDs, long snake_case/camelCase identifiers, base64 of text or code, URLs without credentials.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import math
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from .credentials import credential_file  # noqa: F401  (the gate's other half, importable from here too)

ALLOWLIST_FILE = ".tether/allowlist"
WORDINESS_MAX = 0.6  # at or above: a name made of words, not a key


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


# -- validators: a regex finds a candidate, a validator says whether it is real-looking --------

_PLACEHOLDER = re.compile(
    r"(?ix)^(?:x+|\*+|\.+|-+|_+|\#+|0+|<[^>]*>|\[[^\]]*\]|\{\{.*\}\}|\$\{?[A-Za-z_]\w*\}?|%\(?\w+\)?s?|"
    r"(?:your|my|some|example|dummy|fake|test|sample|placeholder)[_\-]?\w*|"
    r"redacted|changeme|change[_\-]?me|secret|password|passwd|pass|none|null|nil|true|false|undefined|todo|tbd)$"
)
_CALL = re.compile(r"[A-Za-z_][\w.]*[(\[]")  # `os.getenv(`, `env[`: code, not a value
_PIECES = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")


def _is_reference(v: str) -> bool:
    """An environment variable, template slot or path, not a literal credential."""
    return v.startswith(("$", "%", "{", "<", "/", "./", "~", "(")) or "${" in v or "{{" in v or "://" in v


_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+")
_LOWER_PATH = re.compile(r"[a-z0-9_.\-]+(?:/[a-z0-9_.\-]+)+")  # base64 this long always has capitals


def _quoted_secret(v: str) -> bool:
    return (
        len(v) >= 6 and not any(c.isspace() for c in v) and not _PLACEHOLDER.match(v) and not _is_reference(v)
        and not re.fullmatch(r"[A-Z][A-Z0-9_]+", v) and not _LOWER_PATH.fullmatch(v)  # an env var's name, a path
    )


def _bare_secret(v: str) -> bool:
    """Unquoted values are usually code or prose; flag only password-shaped or machine-made ones."""
    if len(v) < 8 or _PLACEHOLDER.match(v) or _is_reference(v) or _CALL.match(v) or re.fullmatch(r"[\d.,]+", v):
        return False
    if _DOTTED_NAME.fullmatch(v) or _LOWER_PATH.fullmatch(v):
        return False  # `settings.API_KEY`, `prod/db/password`: where the secret is kept
    return bool(
        re.search(r"[A-Za-z]\d+[A-Za-z]|[A-Za-z]\d{2,}$", v)  # leetspeak, or word + digits
        or (re.search(r"[!@$%^&*+=?~]", v) and re.search(r"[A-Za-z]", v))
        or _looks_random(v, 12)
    )


def _entropy(s: str) -> float:
    n = len(s)
    return -sum(c / n * math.log2(c / n) for c in Counter(s).values())


def _decodes_to_text(token: str) -> bool:
    """Base64 of text or code (a config blob, a snippet) carries no key material of its own."""
    t = token.rstrip("=")
    t = t[: len(t) - len(t) % 4]
    if len(t) < 16:
        return False
    for alt in (None, b"-_"):
        try:
            raw = base64.b64decode(t, altchars=alt, validate=True)
        except (binascii.Error, ValueError):
            continue
        text = raw.decode("utf-8", "replace")
        printable = sum(1 for c in text if (c.isprintable() and c != "\ufffd") or c in "\n\r\t")
        if printable >= 0.95 * len(text):
            return True
    return False


# Letter pairs covering 90% of those in English-named code (measured on the Python stdlib). Names
# are made of words, so most of their pairs are here; random letters hit the set 26% of the time.
_COMMON_PAIRS = frozenset(
    "ab ac ad ag ai al am an ap ar as at au ba be bj bl bu by ca ce ch ci ck cl co cr ct da de di do ds du "
    "ea ec ed ee ef el em en ep er es et ex ey fa ff fi fo fr fu ge gs ha he hi ho ic id ie if ig il im in io "
    "ip ir is it iv iz ke la ld le lf li ll lo ls lt lu ly ma me mi mo mp na nc nd ne nf ng ni no ns nt nu ob "
    "oc od of ol om on op or os ot ou ow pa pe pl po pp pr pt qu ra re rg ri rm rn ro rr rs rt ru ry sa se sh "
    "si so sp ss st su sy ta te th ti to tr ts tt tu ty ue ul um un up ur us ut va ve wa wh wi wr xc xt yp yt ze".split()
)


def _wordiness(token: str) -> float:
    """Share of letter pairs inside word pieces that are common in names (acronyms like XMLRPC skipped)."""
    mixed = any(c.islower() for c in token)
    words = [p.lower() for p in _PIECES.findall(token) if not p.isdigit() and not (mixed and p.isupper() and len(p) > 2)]
    pairs = [w[i : i + 2] for w in words for i in range(len(w) - 1)]
    return sum(1 for p in pairs if p in _COMMON_PAIRS) / len(pairs) if pairs else 0.0


_WORD_SEGMENT = re.compile(r"[A-Z]+\d*|[a-z]+\d*|[A-Z][a-z]+\d*|\d+|v\d+")


def _looks_random(token: str, min_len: int = 20) -> bool:
    """Machine-made, not a name: letters and digits mixed, few word-like letter pairs, high entropy."""
    t = token.rstrip("=")
    if len(t) < min_len or re.fullmatch(r"[0-9a-fA-F_\-]+", t):  # hex digests and UUIDs are not keys
        return False
    if not any(c.isdigit() for c in t) or sum(c.isalpha() for c in t) < len(t) / 4:
        return False  # names without digits; numbers (`2.87290_85735e+4`)
    segments = re.split(r"[_\-/]+", t)
    if len(segments) > 1 and all(_WORD_SEGMENT.fullmatch(s) for s in segments if s):
        return False  # SCREAMING_SNAKE, kebab-case, path/like: separators between plain words
    pairs = list(zip(t, t[1:]))
    if sum(1 for a, b in pairs if ord(b) - ord(a) == 1) > len(pairs) / 2:
        return False  # an alphabet or a counting sequence
    if _wordiness(t) >= WORDINESS_MAX or _entropy(t) < min(3.6, 0.75 * math.log2(len(t))):
        return False
    return not _decodes_to_text(token)


def _basic_auth(token: str) -> bool:
    try:
        return b":" in base64.b64decode(token + "=" * (-len(token) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False


# -- rules: (description, pattern, group holding the secret, validator or None) ---------------

_Rule = tuple[str, "re.Pattern[str]", int, "Callable[[str], bool] | None"]
_B = r"(?<![A-Za-z0-9_\-])"  # token start: not inside a longer word
_E = r"(?![A-Za-z0-9_\-])"

RULES: dict[str, _Rule] = {
    "private_key": (
        "a private key",
        re.compile(
            r"-----BEGIN[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----(?:\s|\\n|[A-Za-z\-]+:[^\n]*)*"
            r"[A-Za-z0-9+/=]{16,}(?:[\s\S]{0,20000}?-----END[A-Z0-9 ]{0,40}PRIVATE KEY(?: BLOCK)?-----)?"
        ),
        0, None,
    ),
    "aws_access_key": ("an AWS access key id", re.compile(_B + r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}" + _E), 0, None),
    "aws_secret_key": (
        "an AWS secret access key",
        re.compile(r"(?i)aws.{0,20}?(?:secret|sk).{0,20}?[\s:=\"'>]([A-Za-z0-9/+]{40})(?![A-Za-z0-9/+=])"),
        1, None,
    ),
    "github_token": (
        "a GitHub token",
        re.compile(_B + r"(?:(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{50,255})" + _E), 0, None,
    ),
    "gitlab_token": ("a GitLab token", re.compile(_B + r"gl(?:pat|ptt|dt|rt|cbt|soat)-[A-Za-z0-9_\-]{20,}"), 0, None),
    "slack_token": ("a Slack token", re.compile(_B + r"(?:xox[abposre]|xapp)-[A-Za-z0-9\-]{10,}"), 0, None),
    "slack_webhook": (
        "a Slack webhook URL",
        re.compile(r"https?://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9_/\-]{20,}"), 0, None,
    ),
    "stripe_key": ("a Stripe secret key", re.compile(_B + r"(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,}"), 0, None),
    "google_api_key": ("a Google API key", re.compile(_B + r"AIza[0-9A-Za-z_\-]{35}" + _E), 0, None),
    "google_oauth_secret": ("a Google OAuth client secret", re.compile(_B + r"GOCSPX-[A-Za-z0-9_\-]{20,}"), 0, None),
    "anthropic_key": ("an Anthropic API key", re.compile(_B + r"sk-ant-[A-Za-z0-9_\-]{20,}"), 0, None),
    "openai_key": (
        "an OpenAI-style API key",
        re.compile(_B + r"sk-(?:proj-|svcacct-|admin-)?([A-Za-z0-9_\-]{20,})"), 0,
        lambda t: _looks_random(t.split("-", 1)[1].removeprefix("proj-").removeprefix("svcacct-").removeprefix("admin-")),
    ),
    "npm_token": ("an npm token", re.compile(_B + r"npm_[A-Za-z0-9]{36}" + _E), 0, None),
    "pypi_token": ("a PyPI token", re.compile(_B + r"pypi-AgE[A-Za-z0-9_\-]{50,}"), 0, None),
    "jwt": ("a JSON Web Token", re.compile(_B + r"eyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]*"), 0, None),
    "url_credentials": (
        "a password in a URL",
        re.compile(r"\b[A-Za-z][A-Za-z0-9+.\-]{1,20}://[^\s:/@'\"<>`]{0,128}:([^\s/@'\"<>`]{1,256})@[A-Za-z0-9\[]"),
        1, lambda v: not _PLACEHOLDER.match(v) and not _is_reference(v),
    ),
    "basic_auth": ("HTTP basic auth credentials", re.compile(r"\bBasic\s+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])"), 1, _basic_auth),
    "bearer_token": (
        "a bearer token",
        re.compile(r"(?i)\bBearer\s+([A-Za-z0-9\-._~+/]{20,}=*)"), 1, lambda t: _looks_random(t.replace(".", "")),
    ),
    "password_assignment": (
        "a password or secret assigned a literal value",
        re.compile(
            r"(?i)(?<![A-Za-z0-9_.\-])[A-Za-z0-9_.\-]{0,48}"
            r"(?:passw(?:or)?d|pwd|passphrase|secret|secret[_\-]?key|api[_\-]?key|access[_\-]?key|private[_\-]?key|token|credentials?)"
            r"[\"'`]?\]?(?:\s*:\s*[A-Za-z_][\w\[\]|., ]{0,40}?(?=\s*=[^=>]))?\s*(?::=|=>|=|:)\s*"
            r"(?:\"(?P<dq>[^\"\n]*)\"|'(?P<sq>[^'\n]*)'|`(?P<bq>[^`\n]*)`|(?P<bare>[^\s\"'`,;)}\]]+))"
        ),
        -1, None,  # group chosen below: the quoted or bare value
    ),
    "high_entropy": (
        "a high-entropy token (a key or password)",
        re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{20,}={0,2}(?![A-Za-z0-9+/_\-=])"), 0, None,
    ),
}

_HASH_LABEL = re.compile(r"(?i)(?:(?:sha\d*|md5|blake\w*|b3|t\d|c\d|oid|integrity)[:=]\s*[\"']?|;base64,)$")  # digest, data: URI
_SRI = re.compile(r"(?i)sha\d+-")
_URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.\-]{1,20}://[^\s<>\"'`)\]]+")


def _high_entropy_ok(text: str, m: re.Match[str], url_paths: list[tuple[int, int]]) -> bool:
    token = m.group(0)
    if _SRI.match(token) or _HASH_LABEL.search(text, max(0, m.start() - 16), m.start()):
        return False  # a labelled digest
    if _LOWER_PATH.fullmatch(token) or any(a <= m.start() < b for a, b in url_paths):
        return False  # a URL path (a doc id, a blob path); credentials in URLs have their own rules
    return _looks_random(token)


def _url_paths(text: str) -> list[tuple[int, int]]:
    spans = []
    for u in _URL.finditer(text):
        q = re.search(r"[?#]", u.group(0))
        spans.append((u.start(), u.start() + q.start() if q else u.end()))
    return spans


def _candidates(text: str) -> Iterator[tuple[str, int, int]]:
    """(rule, start, end) of every real-looking match, most specific rules first."""
    url_paths: list[tuple[int, int]] | None = None
    for rule, (_, pattern, group, valid) in RULES.items():
        for m in pattern.finditer(text):
            if rule == "password_assignment":
                g = next(k for k in ("dq", "sq", "bq", "bare") if m.group(k) is not None)
                value = m.group(g)
                if g == "bare":
                    value = value.rstrip(".:")
                    if not _bare_secret(value):
                        continue
                elif not _quoted_secret(value):
                    continue
                yield rule, m.start(g), m.start(g) + len(value)
                continue
            if rule == "high_entropy":
                if url_paths is None:
                    url_paths = _url_paths(text)
                if _high_entropy_ok(text, m, url_paths):
                    yield rule, m.start(), m.end()
                continue
            if valid is None or valid(m.group(group)):
                yield rule, m.start(group), m.end(group)


def scan(text: str, allow: Allowlist = EMPTY) -> list[Finding]:
    """Every secret-looking span in `text` not allowed by `allow`, in reading order."""
    if not text:
        return []
    claimed: list[tuple[int, int]] = []
    found = []
    for rule, start, end in _candidates(text):
        if any(start < b and a < end for a, b in claimed):
            continue
        claimed.append((start, end))
        if not allow.allows(rule, text[start:end]):
            line = text.count("\n", 0, start) + 1
            found.append(Finding(rule, line, start - (text.rfind("\n", 0, start) + 1) + 1, start, end))
    return sorted(found, key=lambda f: f.start)


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
    try:
        return parse_allowlist((root / ALLOWLIST_FILE).read_text("utf-8", "replace"))
    except OSError:  # absent (the usual case) or unreadable: nothing is allowed
        return EMPTY
