"""The secret gate's structural finders: rules that need more than one regex to judge a candidate.

Each finder is called as `find(text, match, depth, taken)` by rules.candidates and returns
the secret's span, `(rule, start, end)` to report under another rule (the token pass reports
encoded_credentials and high_entropy), `("", start, end)` to claim a harmless span so that generic
rules leave it alone, or None. `taken(start, end)` says whether an earlier rule claimed the span.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Callable

from tether.store.secrets.checks import (
    decode_b64,
    fake,
    looks_random,
    password_like,
    placeholder,
    printable,
    reference,
)
from tether.store.secrets.names import _META, _NOT_SECRET, name_words, secret_name

Span = tuple[int, int]
Taken = Callable[[int, int], bool]  # does (start, end) overlap a span an earlier rule claimed?
Scan = Callable[[str, int], Iterator[tuple[str, int, int]]]  # the engine: (text, depth) -> (rule, start, end)
_UUID = r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}"


# -- vendor keys named by the vendor: `cloudflare: <37 hex>`, `HEROKU_KEY = <uuid>` -------------
# (vendor word in the name, the shape its keys have); gitleaks' rules pair them the same way
VENDORS: dict[str, str] = {
    "cloudflare": r"[a-f0-9]{37}|[A-Za-z0-9_\-]{40}",
    "heroku": _UUID,
    "sumo": r"su[A-Za-z0-9]{12}|[A-Za-z0-9]{64}",
    "discord": r"[a-f0-9]{64}|\d{17,20}|[A-Za-z0-9=_\-]{32}",
    "datadog": r"[a-z0-9]{40}|[a-f0-9]{32}",
    "twilio": r"[a-f0-9]{32}|SK[0-9a-fA-F]{32}",
    "mailchimp": r"[a-f0-9]{32}-us\d{1,2}",
    "mailgun": r"(?:key-)?[a-f0-9]{32}|[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}",
    "okta": r"00[\w=\-]{40}",
    "jfrog": r"[A-Za-z0-9]{64}|[A-Za-z0-9]{73}",
    "artifactory": r"[A-Za-z0-9]{64}|[A-Za-z0-9]{73}|AKC[A-Za-z0-9]{10,}",
    "alibaba": r"[a-z0-9]{30}",
    "hubspot": _UUID + r"|pat-[a-z0-9]{2,4}-" + _UUID,
    "snyk": _UUID,
    "algolia": r"[a-z0-9]{32}",
    "sendbird": r"[a-f0-9]{40}|" + _UUID,
    "asana": r"[0-9]{16}|[a-z0-9]{32}",
    "bitbucket": r"[a-z0-9]{32}|[a-z0-9=_\-]{64}",
    "dropbox": r"[a-z0-9]{15}|sl\.[A-Za-z0-9\-=_]{135}|[a-z0-9]{11}AAAAAAAAAA[a-z0-9\-_=]{43}",
    "facebook": r"[a-f0-9]{32}",
    "fastly": r"[A-Za-z0-9=_\-]{32}",
    "netlify": r"[A-Za-z0-9=_\-]{40,46}",
    "newrelic": r"[a-z0-9]{64}",
    "new_relic": r"[a-z0-9]{64}",
    "sentry": r"[a-f0-9]{64}",
    "travis": r"[a-z0-9]{22}",
    "twitter": r"[A-Za-z0-9]{25}|[A-Za-z0-9]{45}|[A-Za-z0-9]{50}|[0-9]{15,25}-[A-Za-z0-9]{20,40}|A{22}[A-Za-z0-9%]{80,100}",
    "twitch": r"[a-z0-9]{30}",
    "yandex": r"AQVN[A-Za-z0-9_\-]{35,38}|YC[A-Za-z0-9_\-]{38}|t1\.[A-Za-z0-9_\-]+=*\.[A-Za-z0-9_\-]{86}=*",
    "plaid": r"[a-z0-9]{24}|[a-z0-9]{30}|access-(?:sandbox|development|production)-" + _UUID,
    "linkedin": r"[a-z0-9]{14}|[a-z0-9]{16}",
    "mattermost": r"[a-z0-9]{26}",
    "gitter": r"[a-z0-9_\-]{40}",
    "launchdarkly": r"[a-z0-9=_\-]{40}",
    "contentful": r"[a-z0-9=_\-]{43}",
    "codecov": r"[a-z0-9]{32}",
    "confluent": r"[a-z0-9]{16}|[a-z0-9]{64}",
    "kucoin": r"[a-f0-9]{24}|" + _UUID,
    "intercom": r"[a-z0-9=_\-]{60}",
    "rapidapi": r"[a-z0-9_\-]{50}",
    "squarespace": _UUID,
    "cohere": r"[a-zA-Z0-9]{40}",
    "ibm": r"[A-Za-z0-9_\-]{44}",
    "cloudant": r"[a-z0-9]{64}|[a-z]{24}",
    "telegram": r"\d{5,16}:A[A-Za-z0-9_\-]{34}",
}
VENDOR_RE = re.compile("|".join(sorted(VENDORS, key=len, reverse=True)))
_VENDOR_TAIL = re.compile(
    r"[\w$.\-]{0,60}[\"']?[ \t]*(?:::?=|:=|\?=|\+=|=>|=|:|,|\|\|)[ \t]*[\"'`]?(?P<v>[\w.=~:%\-]{12,200})[\"'`]?(?![\w.=~%\-])"
)
_VENDOR_SHAPES = {v: re.compile(f"(?:{shape})") for v, shape in VENDORS.items()}


def vendor_key(text: str, m: re.Match[str], depth: int, taken: Taken) -> Span | None:
    """`m` is a vendor's name: it must start a word of the variable's name, whose value has that vendor's shape."""
    vendor, start = m.group(0), m.start()
    if start and text[start - 1].isalpha() and not (text[start - 1].islower() and text[start].isupper()):
        return None  # inside a word (`sumOfExposures` is not `sumo`), unless camelCase starts here
    word = text[start : m.end()]
    if re.search(r"[a-z][A-Z]", word):
        return None  # `sumOfExposures`: a camelCase boundary inside the vendor's name
    t = _VENDOR_TAIL.match(text, m.end())
    if t is None:
        return None
    v = t.group("v")
    if taken(*t.span("v")):
        return None
    return t.span("v") if _VENDOR_SHAPES[vendor].fullmatch(v) and not fake(v) else None


# -- commands and config files -----------------------------------------------------------------


def _unquote(v: str) -> str:
    return re.sub(r"[\"']", "", v)


CURL = re.compile(r"\bcurl\b[^\n]{0,2000}?[ \t](?:-u|--user)(?:=|[ \t]+)(?P<v>(?:\"[^\"\n]*\"|'[^'\n]*'|[^\s\"']+)+)")


def curl_user(text: str, m: re.Match[str], depth: int, taken: Taken) -> Span | None:
    v = _unquote(m.group("v")).strip()
    if ":" not in v or re.fullmatch(r"<[^<>]*>|\[[^\[\]]*\]|\$\{?\w+\}?", v):
        return None  # curl asks for the password; `<user:password>`
    user, _, pw = v.partition(":")
    if pw.startswith("{") and pw.endswith("}") and "$" not in pw:
        pw = pw[1:-1]  # --user "{id}":"{secret}", as IBM's docs write it
    if not pw:
        return m.span("v") if password_like(user, 8) else None  # `-u sk_live_x:`: the key is the user
    if reference(pw) or placeholder(pw) or "$" in pw[:1] or len(pw) < 4:
        return None
    return m.span("v")


CMD = re.compile(
    r"(?:\bmysql(?:dump|admin|sh|import|check)?\b[^\n]{0,500}?[ \t](?:-p(?=[^\s-])|--password=)"
    r"|\bredis-cli\b[^\n]{0,500}?[ \t](?:-a|--pass)[ \t]+"
    r"|\bsshpass[ \t]+-p[ \t]*"
    r"|\bdocker[ \t]+login\b[^\n]{0,500}?[ \t](?:-p|--password)(?:=|[ \t]+)"
    r"|(?<![\w-])--(?:password|passwd|pass|db-password|client-secret|api-key|apikey|auth-token|access-token)(?:=|[ \t]+))"
    r"(?P<v>\"[^\"\n]+\"|'[^'\n]+'|[^\s\"'|;&]+)"
)


def command(text: str, m: re.Match[str], depth: int, taken: Taken) -> Span | None:
    v = _unquote(m.group("v"))
    if v.startswith("-") or "$" in v or reference(v) or placeholder(v) or not password_like(v, 4):
        return None
    return m.span("v")


NETRC = re.compile(  # value: up to a quote or comma that closes the string the entry sits in
    r"(?i)\b(?:machine[ \t]+\S+|default)(?:\s+(?:login|account|port)[ \t]+\S+){0,3}\s+password[ \t]+(?P<v>[^\s\"',;]+)"
)


def netrc(text: str, m: re.Match[str], depth: int, taken: Taken) -> Span | None:
    v = m.group("v")
    return None if len(v) < 4 or reference(v) or placeholder(v) else m.span("v")


NPMRC = re.compile(r"(?<![\w-])_(?P<key>authToken|auth|password)[ \t]*=[ \t]*[\"']?(?P<v>[^\s\"']+)")


def npmrc(text: str, m: re.Match[str], depth: int, taken: Taken) -> Span | tuple[str, int, int] | None:
    """`_authToken=` holds a token; `_auth=` base64 of user:password; `_password=` base64 of a password."""
    v = m.group("v")
    if m.group("key") == "authToken":
        ok = password_like(re.sub(r"^npm_", "", v), 8)
    else:
        raw = decode_b64(v)
        text_ = printable(raw, 0.9) if raw else None
        ok = bool(text_) and (_user_pass(text_) if m.group("key") == "auth" else password_like(text_, 6))  # type: ignore[arg-type]  # a str here: bool(text_) does not narrow for mypy
        ok = ok or looks_random(v, 16)
    return m.span("v") if ok else ("", *m.span("v"))  # a placeholder: judged here, not again


# a Secret manifest: every value under data:/stringData: is one (the base64 ones 10+ characters)
K8S_KIND = re.compile(r"(?im)^[ \t]*[\"']?kind[\"']?[ \t]*:[ \t]*[\"']?secret[\"']?[ \t,]*$")
_K8S_DATA = re.compile(r"(?m)^([ \t]*)[\"']?(data|stringData)[\"']?[ \t]*:[ \t]*$")
_K8S_ITEM = re.compile(r"[ \t]*[\"']?[\w.\-]+[\"']?[ \t]*:[ \t]*(?P<v>.*?)[ \t]*$")


def kubernetes(text: str, m: re.Match[str], depth: int, taken: Taken) -> Span | None:
    for d in _K8S_DATA.finditer(text):
        indent, pos = len(d.group(1).expandtabs(4)), d.end() + 1
        block = False
        for line in text[pos:].split("\n"):
            start, pos = pos, pos + len(line) + 1
            body = line.strip()
            if not body or body.startswith("#"):
                continue
            if len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip()) <= indent:
                break
            if block:
                v, off = body, line.index(body)
            else:
                item = _K8S_ITEM.match(line)
                if not item:
                    continue
                v, off = item.group("v").strip("\"'"), item.start("v") + (1 if item.group("v")[:1] in "\"'" else 0)
                if v in ("|", ">", "|-", ">-", "|+"):
                    block = True
                    continue
            block = False
            b64 = re.fullmatch(r"[A-Za-z0-9+/]{10,}={0,2}", v)
            if (b64 if d.group(2) == "data" else password_like(v, 6)) and not reference(v):
                return start + off, start + off + len(v)
    return None


def _user_pass(text: str) -> bool:
    m = re.fullmatch(r"([A-Za-z0-9._@+\-]{1,100}):(\S{4,200})\s*", text)
    return bool(m) and not m.group(1).lower().startswith("http") and password_like(m.group(2), 6)  # type: ignore[union-attr]  # a match here: bool(m) does not narrow for mypy


def _encoded(token: str, scan: Scan) -> bool:
    """Base64 that decodes to user:password, or to text in which a specific rule finds a key
    (`scan`: the rule engine itself, handed in by rules.py, to look inside the decoded text)."""
    t = token.rstrip("=")
    if (
        len(t) < 12
        or len(t) % 4 == 1
        or "_" in t
        or "-" in t
        or not re.search(r"[\d+/=]", token)
        or not re.search(r"[A-Z]", t)
        or not re.search(r"[a-z]", t)
    ):
        return False
    raw = decode_b64(token)
    decoded = printable(raw, 0.9) if raw else None
    if not decoded or len(decoded) < 8:
        return False
    return _user_pass(decoded) or any(rule not in SHALLOW for rule, _, _ in scan(decoded, 1))


SHALLOW = {"high_entropy", "encoded_credentials", "password_assignment", "vendor_key"}  # not enough inside base64

# -- assignments: `name = value` where the name says the value is a credential ------------------

_KW = r"(?:pass|pwd|secret|token|key|auth|cred|sas)"
KW_RE = re.compile(_KW)  # runs on the lowercased text
_NAME_CH = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_$.-")
# after the keyword: the rest of the name, its closing quote, `: type`, the operator, the value
_ASSIGN_TAIL = re.compile(
    r"(?P<rest>[A-Za-z0-9_$.\-]{0,80})(?P<q>\\?[\"'`]?)(?:\[\])?\]?"
    r"(?:(?:[ \t]*:[ \t]*|[ \t]+)[A-Za-z_][\w\[\]|., *]{0,40}?(?=[ \t]*=[^=>~]))?"  # `password: str = `, Go's `x string =`
    r"(?P<op>[ \t]*(?:::?:?=|:=|\?=|\+=|\.=|\|\|=|=>|<-|=(?![=~>])|:(?![:/\\])|,)[ \t]*|[ \t]+(?=\\?[\"'`]))"
    r"(?P<block>[|>][-+]?[ \t]*\n[ \t]+)?"
    r"(?:\\?\"(?P<dq>[^\"\n\\]*)\\?\"|'(?P<sq>[^'\n]*)'|`(?P<bq>[^`\n]*)`|(?P<bare>[^\s\"'`,;]+))"
)


def assignment(text: str, m: re.Match[str], depth: int, taken: Taken) -> Span | None:
    """`m` is a keyword (pass, token, key...): widen it to the whole name, then read `= value`."""
    start, floor = m.start(), max(0, m.start() - 80)  # names are short; a longer run is not one
    while start > floor and text[start - 1] in _NAME_CH:
        start -= 1
    if start == floor and floor and text[floor - 1] in _NAME_CH:
        return None
    if start < m.start() and KW_RE.search(text[start : m.start()].lower()):
        return None  # not the name's first keyword: that one was (or will be) read
    t = _ASSIGN_TAIL.match(text, m.end())
    if t is None:
        return None
    g = next((k for k in ("dq", "sq", "bq", "bare") if t.group(k) is not None), "bare")
    if taken(t.start(g), t.end(g)):
        return None
    name = text[start : t.end("rest")]
    lq = text[start - 1 : start] if start else ""
    if t.group("q") and t.group("q")[-1:] != lq:
        return None  # a closing quote without its opening one
    if lq in ('"', "'") and not t.group("q") and t.group("op").strip() == ":":
        return None  # `"token:..."`: the word is inside a string's text, not a key
    return _judge(name, t, bool(t.group("q")))


def _judge(name: str, t: re.Match[str], quoted_name: bool) -> Span | None:
    strength = secret_name(name)
    if not strength:
        return None
    g = next((k for k in ("dq", "sq", "bq", "bare") if t.groupdict().get(k) is not None), "bare")
    value = t.group(g)
    op = t.groupdict().get("op")
    if op is not None:
        o = op.strip()
        if (o == "," and (not quoted_name or g == "bare")) or (not o and (g == "bare" or name.lower() == "pass")):
            return None  # `f(x, y)`; `("name", value)` and `name value` need the value quoted; "pass `x`" is a verb
        if o == ":" and g == "bare" and not t.group("block") and not quoted_name and not op.endswith((" ", "\t")):
            return None  # `io.jsonwebtoken:jjwt`: a coordinate, not `key: value`
    if g == "bare":
        value = _trim(value)
    if _PUBLISHABLE.match(value) or not password_like(value, 6 if strength == 2 else 8):
        return None
    return t.start(g), t.start(g) + len(value)


def element(text: str, m: re.Match[str], depth: int, taken: Taken) -> Span | None:
    return None if taken(*m.span("bare")) else _judge(m.group("name"), m, False)


XML = re.compile(
    r"(?i)<(?P<name>[\w$.:\-]*" + _KW + r"[\w$.:\-]*)(?:[ \t][^<>\n]*)?>\s*(?P<bare>[^<>\s]{6,300})\s*</(?P=name)>"
)
_PUBLISHABLE = re.compile(r"(?:pk_(?:live|test)_|pk\.[A-Za-z0-9_\-]{20,}\.[A-Za-z0-9_\-]{10,}|pubkey-[a-f0-9]{32}$)")


def _trim(v: str) -> str:
    v = v.rstrip(".:")
    for close, open_ in ((")", "("), ("]", "["), ("}", "{")):
        while v.endswith(close) and v.count(close) > v.count(open_):
            v = v[:-1]
    return v


# -- spans generic rules leave alone -----------------------------------------------------------

_SAFE = re.compile(
    r"data:[\w/+.\-]+(?:;[\w=.\-]+)*;base64,[A-Za-z0-9+/=]+(?:\r?\n[ \t]*[A-Za-z0-9+/=]{16,})*"  # wrapped data URI
    r"|-----BEGIN (?:CERTIFICATE|PUBLIC KEY|RSA PUBLIC KEY|PGP PUBLIC KEY BLOCK|PGP MESSAGE|PGP SIGNATURE|"
    r"SSH2 PUBLIC KEY|X509 CRL|(?:NEW )?CERTIFICATE REQUEST|ENCRYPTED MESSAGE)-----[\s\S]*?-----END [A-Z0-9 ]+-----"
    r"|(?:ssh-(?:rsa|dss|ed25519)|ecdsa-sha2-nistp\d{3}|sk-(?:ssh-ed25519|ecdsa-sha2-nistp256)@openssh\.com)"
    r"[ \t]+[A-Za-z0-9+/]{16,}={0,3}"  # an SSH public key
    r"|ENC\[(?:AES256_GCM|PKCS7),[^\]\n]*\]"  # SOPS ciphertext
    r"|\$ANSIBLE_VAULT;[^\n]*(?:\n[ \t]*[0-9a-f]+)+"
)
URL = re.compile(r"\b[A-Za-z][A-Za-z0-9+.\-]{1,20}://[^\s<>\"'`)\]]+")


def safe_spans(text: str) -> list[Span]:
    return [s.span() for s in _SAFE.finditer(text)]


URL_BLIND = {"high_entropy", "encoded_credentials"}  # a random run in a URL is a path or an id

# -- high entropy: a random token with nothing saying what it is --------------------------------

_HASH_LABEL = re.compile(
    r"(?i)(?:(?:sha\d*|md5|blake\w*|b3|t\d|c\d|h\d|oid|integrity|etag|digest|checksum)[:=]\s*[\"']?|;base64,)$"
)
_SRI = re.compile(r"(?i)sha\d+-")
_BEFORE = re.compile(r"([A-Za-z_$][\w$.\-]*)[\"'`]?\]?[ \t]*(?::=|=>|[:=])[ \t]*\\?[\"'`]?$")
_DOTTED_CH = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_.-")
_HTML_NAME = re.compile(r"""name=["']([\w\-\[\]]+)["'][^<>]*value=["']$""")


_OP_BEFORE = re.compile(r"(?::=|=>|[:=])[ \t]*\\?[\"'`]?$")


def _name_before(text: str, start: int) -> str | None:
    seg = text[max(text.rfind("\n", 0, start) + 1, start - 120) : start]
    if not _OP_BEFORE.search(seg, max(0, len(seg) - 8)):
        return None  # not `name = token`
    m = _BEFORE.search(seg, max(0, len(seg) - 100))
    if not m:
        return None
    if m.group(1) == "value":
        h = _HTML_NAME.search(seg)
        return h.group(1) if h else "value"
    return m.group(1)


def _meta_name(name: str) -> bool:
    """An id, a hash, a name, a public key: the value is an identifier, not a credential."""
    words = name_words(name)
    return bool(words) and (words[-1] in _META or any(w in _NOT_SECRET for w in words)) and not secret_name(name)


def high_entropy(text: str, m: re.Match[str], depth: int, taken: Taken, scan: Scan) -> tuple[str, int, int] | None:
    """One pass over token-shaped runs: base64 of credentials, else a random token nothing explains."""
    token, start = m.group(0), m.start()
    if taken(start, m.end()):
        return None
    wide, floor = start, max(0, start - 100)
    while wide > floor and text[wide - 1] in _DOTTED_CH:
        wide -= 1
    if wide < start and _PUBLISHABLE.match(text, wide):
        return None  # a segment of `pk.<id>.<sig>`: a publishable token
    if len(token) < 20 or (token[0] == "-" and token[1:2] == "-"):
        return ("encoded_credentials", *m.span()) if depth == 0 and _encoded(token, scan) else None
    if _SRI.match(token) or _HASH_LABEL.search(text, max(0, start - 16), start) or _PUBLISHABLE.match(token):
        return None  # a labelled digest, a publishable key
    if depth == 0 and _encoded(token, scan):
        return "encoded_credentials", *m.span()
    if re.fullmatch(r"[a-z0-9_.\-]+(?:/[a-z0-9_.\-]+)+", token) or not looks_random(token):
        return None
    if text[start - 1 : start] == "@" and text[m.end() : m.end() + 1] == ".":
        return None  # a host name in an e-mail address
    name = _name_before(text, start)
    return None if name and _meta_name(name) else ("high_entropy", *m.span())
