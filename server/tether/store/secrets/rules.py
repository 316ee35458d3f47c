"""The secret gate's rules: the table, most specific first, and the pass that runs it.

The table is the self-marked credentials (tokens.py: provider tokens, key blocks, JWTs), then the
ones told by their context: a vendor's name, a URL's password, an auth header, a command line, an
assignment, an XML element, and last any high-entropy run. Each entry is a `Rule` (rule.py).
`candidates` runs only the rules whose keywords occur in the text, and a span one rule claims is
never offered again by a later one.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from typing import Iterator

from tether.store.secrets import finders as F
from tether.store.secrets.checks import decode_b64, password_like, placeholder, reference
from tether.store.secrets.finders import SHALLOW, URL_BLIND, Span
from tether.store.secrets.rule import Rule
from tether.store.secrets.tokens import TOKEN_RULES


def _basic_auth(token: str) -> bool:
    raw = decode_b64(token)
    return raw is not None and b":" in raw


def _bearer(t: str) -> bool:
    return password_like(t, 16)


# -- the table ----------------------------------------------------------------------------------

RULES: dict[str, Rule] = {
    **TOKEN_RULES,
    "vendor_key": Rule(
        "a vendor's API key or secret, named by the vendor",
        F.VENDOR_RE,
        keywords=tuple(F.VENDORS),
        find=F.vendor_key,
        on_lower=True,
    ),
    "url_credentials": Rule(
        "a password in a URL",
        re.compile(r"\b[A-Za-z][A-Za-z0-9+.\-]{1,20}://[^\s:/@'\"<>`]{0,128}:([^\s/@'\"<>`]{1,256})@[A-Za-z0-9\[]"),
        1,
        lambda v: not placeholder(v) and not reference(v),
        ("://",),
    ),
    "basic_auth": Rule(
        "HTTP basic auth credentials",
        re.compile(r"\bBasic\s+([A-Za-z0-9+/]{8,}={0,2})(?![A-Za-z0-9+/=])"),
        1,
        _basic_auth,
        ("basic",),
    ),
    "bearer_token": Rule(
        "a bearer token", re.compile(r"(?i)\bBearer\s+([A-Za-z0-9\-._~+/]{16,}=*)"), 1, _bearer, ("bearer",)
    ),
    "auth_header": Rule(
        "a credential in an HTTP auth header",
        re.compile(
            r"(?i)(?<![\w-])(?:(?:proxy-)?authorization|x-api-key|api-key|x-auth-token|x-access-token|"
            r"private-token|x-jfrog-art-api|x-vault-token|x-api-token|api-token|x-auth-key|x-token|"
            r"ocp-apim-subscription-key)[ \t]*:[ \t]*(?!(?:basic|bearer)\b)"
            r"(?:(?:token|api-?token|apikey|key|sso-key|bot|otp|hmac|splunk)[ \t]+)?([^\s\"'`<>]{8,})"
        ),
        1,
        lambda v: password_like(v, 8),
        (
            "authorization",
            "api-key",
            "x-auth",
            "x-access",
            "private-token",
            "x-jfrog",
            "x-vault",
            "api-token",
            "x-token",
            "subscription-key",
        ),
    ),
    "curl_credentials": Rule("credentials passed to curl -u/--user", F.CURL, keywords=("curl",), find=F.curl_user),
    "command_password": Rule(
        "a password on a command line (mysql -p, redis-cli -a, --password)",
        F.CMD,
        keywords=(
            "mysql",
            "redis-cli",
            "sshpass",
            "docker",
            "--pass",
            "--db-pass",
            "--client-secret",
            "--api-key",
            "--apikey",
            "--auth-token",
            "--access-token",
        ),
        find=F.command,
    ),
    "netrc_password": Rule("a password in a .netrc entry", F.NETRC, keywords=("password",), find=F.netrc),
    "npmrc_auth": Rule("an .npmrc auth token or password", F.NPMRC, keywords=("_auth", "_password"), find=F.npmrc),
    "kubernetes_secret": Rule(
        "a value in a Kubernetes Secret's data", F.K8S_KIND, keywords=("secret",), find=F.kubernetes
    ),
    "password_prose": Rule(
        "a password told in prose (the password is ...)",
        re.compile(
            r"(?i)\b(?:password|passwd|passphrase|passcode)\s+(?:for\s+(?:[^\s,;.]{1,40}\s+){1,3}?)?(?:is|was)\s*:?\s+"
            r"[\"'`\u201c]?(?P<v>[^\s\"'`\u201d]{6,64}?)[\"'`\u201d.,;:!?)]*(?=\s|$)"
        ),
        "v",
        lambda v: password_like(v, 6),
        keywords=("pass",),
    ),
    "password_assignment": Rule(
        "a password or secret assigned a literal value",
        F.KW_RE,
        find=F.assignment,
        keywords=("pass", "pwd", "secret", "token", "key", "auth", "cred", "sas"),
        generic=True,
        on_lower=True,
    ),
    "password_element": Rule(
        "a password or secret as an XML element's text", F.XML, find=F.element, keywords=("</",), generic=True
    ),
    # found by the high_entropy pass (one look at each token-shaped run), listed for its description
    "encoded_credentials": Rule("base64 of credentials (user:password, a key)", None, generic=True),
    "high_entropy": Rule(
        "a high-entropy token (a key or password)",
        re.compile(r"(?<![A-Za-z0-9+/_\-])[A-Za-z0-9+/_\-]{12,}={0,2}(?![A-Za-z0-9+/_\-=])"),
        find=lambda text, m, depth, taken: F.high_entropy(text, m, depth, taken, candidates),  # looks inside base64
        generic=True,
    ),
}
_ALL_KEYWORDS = sorted({k for r in RULES.values() for k in r.keywords})
_ORDER = [(name, rule) for name, rule in RULES.items() if rule.pattern is not None]
_UNGATED = frozenset(i for i, (_, r) in enumerate(_ORDER) if not r.keywords)
_BY_KEYWORD = {k: frozenset(i for i, (_, r) in enumerate(_ORDER) if k in r.keywords) for k in _ALL_KEYWORDS}
_ASCII_LOWER = str.maketrans("ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz")


def candidates(text: str, depth: int = 0) -> Iterator[tuple[str, int, int]]:
    """(rule, start, end) of every real-looking match, most specific rules first; a span claimed by
    one rule is not offered again by a later one."""
    low = text.translate(_ASCII_LOWER)  # same length as text, so offsets carry over
    present = {k for k in _ALL_KEYWORDS if k in low}
    starts: list[int] = []  # claimed spans never overlap, so sorted starts order them
    ends: list[int] = []
    safe: list[Span] | None = None
    urls: list[Span] | None = None

    def taken(start: int, end: int) -> bool:
        i = bisect_left(starts, end)  # spans starting before `end`; the last of them is the only candidate
        return i > 0 and ends[i - 1] > start

    def claim(span: Span) -> None:
        i = bisect_left(starts, span[0])
        starts.insert(i, span[0])
        ends.insert(i, span[1])

    for i in sorted(_UNGATED.union(*(_BY_KEYWORD[k] for k in present))):  # rules whose keywords occur, in order
        name, rule = _ORDER[i]
        if depth and (rule.generic or name in SHALLOW):
            continue
        assert rule.pattern is not None  # _ORDER holds only the rules with a pattern
        for m in rule.pattern.finditer(low if rule.on_lower else text):
            found = name
            if rule.find is not None:
                span = rule.find(text, m, depth, taken)
                if span is not None and len(span) == 3:
                    found, span = span[0], span[1:]
            elif rule.valid is None or rule.valid(m.group(rule.group)):
                span = m.span(rule.group)
            else:
                span = None
            if span is None or _redacted(text, span[1]) or taken(*span):
                continue
            if not found:  # a rule recognised the shape and judged it harmless: claimed, not reported
                claim(span)
                continue
            if rule.generic:
                if safe is None:
                    safe = F.safe_spans(text)
                if any(a <= span[0] < b for a, b in safe):
                    continue
                if found in URL_BLIND:
                    if urls is None:
                        urls = [u.span() for u in F.URL.finditer(text)] if "://" in text else []
                    if any(a <= span[0] < b for a, b in urls):
                        continue
            claim(span)
            yield found, span[0], span[1]


def _redacted(text: str, end: int) -> bool:
    """`xoxp-5723...-####`, `ops_eyJzaWdu...`: what follows says the value was cut or masked."""
    nxt = text[end : end + 3]
    return nxt[:1] in ("#", "*", "…") or nxt == "..."
