"""A programming lexicon for recall: the words a developer asks in, and the words code and memories use.

A question rarely uses a memory's words ("serve uploaded files from a folder" for a memory on
`send_from_directory`), so a query term also matches its group's other words, at ALT_WEIGHT of an
exact match. Two sources, both generic, neither any one codebase's:

- GROUPS: interchangeable words of everyday programming English (folder/directory, pick/choose/
  find, verb/method, array/list), written by tether's maintainers from general usage;
- PHRASES: multi-word forms that stand for one term ("timed out" -> timeout, "try again" -> retry),
  including the reason phrases of HTTP status codes as Python's `http.HTTPStatus` lists them
  ("see other" -> 303, "too many requests" -> 429).

Stdlib only and built on first use: the prompt hook's search imports it.
"""

from __future__ import annotations

import re

from tether.recall.text import CANONICAL, stem

ALT_WEIGHT = 0.5  # a group's other word counts half an exact match, in the score and in coverage

# One group per line: words that stand for one another in a question about code.
GROUPS = """
folder directory path
disk file
pick choose select find locate discover detect
upload multipart attachment
download fetch
send serve deliver
reply response answer
payload body content
verb method
resend retry reattempt
timeout hang stall
address url uri link href
splitter parse parser tokenize
hostname host domain
prefix scheme protocol
reuse pool keepalive
socket connection
compress gzip deflate zstd brotli compression
decompress decode inflate uncompress
certificate cert tls ssl
credential authorization password token secret
cookie session
rewind seek position
export serialize dump marshal render output
loader deserialize load unmarshal
serializer schema
attribute field property column
embedded nested inner child
array list sequence collection many bulk
dictionary dict mapping hashmap
validate validation validator check verify
reject invalid refuse
mandatory required
fallback default
unrecognized unknown extra unexpected
choice choices enum option
duration timedelta interval period elapsed
timestamp datetime epoch
numeric number decimal float integer
ordering order sort sorted
callback hook handler plugin
exclude omit skip
selection only subset include whitelist allowlist
blacklist denylist blocklist
alias rename renamed
legacy deprecated deprecation obsolete old
compatibility compat backward backwards
crash exception error traceback raise
keyword kwarg argument parameter arg
setting configuration option
concurrent concurrency thread race parallel
slow performance speed latency fast
warning warn log
casing case lowercase uppercase insensitive
duplicate copy clone
empty blank
beginning start begin
trailing end last
delete remove drop
create generate make
shutdown close release teardown
limit cap maximum max ceiling bound
escape quote sanitize encode
traversal escape
cache memo
app application
route routing endpoint rule url
middleware wsgi
test testing fixture
thread lock mutex
memory leak
encoding charset utf
unicode utf
""".strip()

# Phrases (lower case, words separated by single spaces in the query) and the term they stand for.
PHRASES = {
    "timed out": "timeout",
    "try again": "retry",
    "re sent": "retry",
    "re send": "retry",
    "sent again": "retry",
    "send again": "retry",
    "give up": "retry",
    "file name": "filename",
    "key word": "keyword",
    "rate limited": "429",
    "denial of service": "dos",
    "out of memory": "memory",
    "thread safe": "thread",
    "case insensitive": "insensitive",
    "case sensitive": "case",
    "look up": "lookup",
    "set up": "setup",
    "sign in": "login",
    "log in": "login",
    "on disk": "file",
}

# The reason phrases of HTTP status codes (Python's http.HTTPStatus, RFC 9110 and kin), copied as data
# so no import is paid on the hook's path. One-word phrases too common to mean a status are left out.
HTTP_STATUS = {
    "switching protocols": "101",
    "non authoritative information": "203",
    "no content": "204",
    "reset content": "205",
    "partial content": "206",
    "multiple choices": "300",
    "moved permanently": "301",
    "see other": "303",
    "not modified": "304",
    "use proxy": "305",
    "temporary redirect": "307",
    "permanent redirect": "308",
    "bad request": "400",
    "unauthorized": "401",
    "payment required": "402",
    "forbidden": "403",
    "not found": "404",
    "method not allowed": "405",
    "not acceptable": "406",
    "proxy authentication required": "407",
    "request timeout": "408",
    "precondition failed": "412",
    "request entity too large": "413",
    "payload too large": "413",
    "content too large": "413",
    "request uri too long": "414",
    "unsupported media type": "415",
    "range not satisfiable": "416",
    "expectation failed": "417",
    "misdirected request": "421",
    "unprocessable entity": "422",
    "unprocessable content": "422",
    "too early": "425",
    "upgrade required": "426",
    "precondition required": "428",
    "too many requests": "429",
    "request header fields too large": "431",
    "unavailable for legal reasons": "451",
    "internal server error": "500",
    "not implemented": "501",
    "bad gateway": "502",
    "service unavailable": "503",
    "gateway timeout": "504",
    "http version not supported": "505",
}

_groups: dict[str, tuple[str, ...]] | None = None
_phrases: dict[str, list[tuple[tuple[str, ...], str]]] | None = None  # first word -> (words, term)
_WORD = re.compile(r"[^\W_]+")


def _term(word: str) -> str:
    return stem(CANONICAL.get(word, word))


def alternates(term: str) -> tuple[str, ...]:
    """The other terms of `term`'s groups (search terms, stemmed as the index stores them)."""
    global _groups
    if _groups is None:
        built: dict[str, dict[str, None]] = {}
        for line in GROUPS.splitlines():
            members = list(dict.fromkeys(_term(w) for w in line.split()))
            for t in members:
                built.setdefault(t, {}).update(dict.fromkeys(m for m in members if m != t))
        _groups = {t: tuple(alts) for t, alts in built.items()}
    return _groups.get(term, ())


def phrase_terms(text: str) -> list[str]:
    """Terms the text's multi-word phrases stand for ("timed out", "tries again"), in order.
    Phrases are matched word by word after stemming, stop-words included, so every inflection counts."""
    global _phrases
    if _phrases is None:
        built: dict[str, list[tuple[tuple[str, ...], str]]] = {}
        for phrase, term in {**PHRASES, **HTTP_STATUS}.items():
            key = tuple(_term(w) for w in _WORD.findall(phrase))
            built.setdefault(key[0], []).append((key, term if term.isdigit() else _term(term)))
        for entries in built.values():
            entries.sort(key=lambda e: -len(e[0]))  # the longest phrase first
        _phrases = built
    words = [_term(w) for w in _WORD.findall(text.lower())]
    out = []
    for i, w in enumerate(words):
        for key, term in _phrases.get(w, ()):
            if tuple(words[i : i + len(key)]) == key:
                out.append(term)
                break
    return out
