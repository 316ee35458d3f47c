"""Tokens for search: identifiers split into words, stop-words dropped, a light suffix stemmer.

The same function runs over indexed text and over queries, so `fetchWithRetry`, `fetch_with_retry`
and "fetch with retries" meet on the same terms. Pure and stdlib-only: the prompt hook imports it.
"""

from __future__ import annotations

import math
import re

# Runs of letters/digits; camel-case humps are split afterwards so the compound is still known.
_RUN = re.compile(r"[^\W_]+", re.UNICODE)
_HUMPS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_WORD_WITH_UNDERSCORES = re.compile(r"[^\W]+", re.UNICODE)

# English function words plus the filler of requests to an agent ("can you please look at ...").
# Negations are stop-words here; the write-time conflict check reads them from the raw text.
STOP_WORDS = frozenset(
    """
    a about above after again against all also am an and any are aren as at be because been before
    being below between both but by can cannot could couldn did didn do does doesn doing don done down
    during each else etc even ever every few for from further get gets getting go goes going gonna got
    had hadn has hasn have haven having he her here hers herself him himself his how however i if in
    into is isn it its itself just kind let lets like ll look looking make makes me might mine more most
    much must my myself need needs neither no nor not now of off ok okay on once one only or other our
    ours ourselves out over own please pretty re really s same see seem seems shall she should shouldn
    so some something still such sure t than thank thanks that the their theirs them themselves then
    there these they thing things think this those though through thus to too try trying under until
    up us ve very via want wants was wasn way we well were weren what whats when where whether which
    while who whom whose why will with within without won would wouldn yet you your yours yourself
    actually basically currently maybe probably quite rather right tell told used just anything
    anyone everything nothing someone somewhere instead already always anyway often sometimes usually
    again able anywhere everywhere come comes came happen happens happened stuff apparently
    suddenly quietly weird strange odd wonder know knows
    """.split()
)

# File extensions carry no meaning in a path: `decoder.py` is about decoding, not about Python.
PATH_NOISE = frozenset(
    "py pyi js jsx ts tsx mjs cjs go rs java kt rb md txt json yaml yml toml cfg ini c h cc cpp hpp cs php swift sh lib src".split()
)

# Developer shorthand and its long form index as the long form, so "tmp dir" meets "temporary
# directory" and "memoize" meets "cache". Whole words only; generic vocabulary, not any one codebase's.
CANONICAL = {
    "tmp": "temporary",
    "temp": "temporary",
    "dir": "directory",
    "dirs": "directory",
    "cfg": "configuration",
    "conf": "configuration",
    "config": "configuration",
    "env": "environment",
    "arg": "argument",
    "args": "arguments",
    "param": "parameter",
    "params": "parameters",
    "str": "string",
    "int": "integer",
    "buf": "buffer",
    "len": "length",
    "num": "number",
    "idx": "index",
    "init": "initialize",
    "conn": "connection",
    "req": "request",
    "resp": "response",
    "msg": "message",
    "err": "error",
    "exc": "exception",
    "func": "function",
    "fn": "function",
    "obj": "object",
    "val": "value",
    "attr": "attribute",
    "attrs": "attributes",
    "pkg": "package",
    "repo": "repository",
    "db": "database",
    "auth": "authentication",
    "sep": "separator",
    "src": "source",
    "dst": "destination",
    "dest": "destination",
    "addr": "address",
    "ctx": "context",
    "impl": "implementation",
    "memoize": "cache",
    "memoized": "cache",
    "memoizing": "cache",
    "memoization": "cache",
}

_NO_STRIP_S = ("ss", "us", "is", "os")
_DOUBLE_OK = frozenset("lsz")


def stem(word: str) -> str:
    """A light suffix stemmer: plural, -ing, -ed, -er, -ly and a trailing -e; stems keep 3+ letters."""
    w = word
    if len(w) <= 3 or not w.isalpha():
        return w
    for suffix, repl in (("ies", "y"), ("ied", "y"), ("sses", "ss"), ("ing", ""), ("ed", ""), ("es", ""), ("s", "")):
        if w.endswith(suffix):
            if suffix == "s" and w.endswith(_NO_STRIP_S):
                break
            if suffix == "es" and not w[:-2].endswith(("s", "x", "z", "ch", "sh")):
                continue  # distances -> distance (then -ance), not distanc; boxes -> box
            cut = w[: len(w) - len(suffix)] + repl
            if len(cut) >= 3:
                w = cut
                if suffix in ("ing", "ed") and len(w) >= 4 and w[-1] == w[-2] and w[-1] not in _DOUBLE_OK:
                    w = w[:-1]  # running -> run, stopped -> stop
                break
    for suffix in ("ers", "er", "ly", "ence", "ance"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            w = w[: -len(suffix)]
            break
    if w.endswith("e") and len(w) >= 4:
        w = w[:-1]
    return w


def words(text: str) -> list[str]:
    """Lower-case words of `text` with identifiers split; a compound also yields its joined form."""
    out: list[str] = []
    for run in _WORD_WITH_UNDERSCORES.findall(text if text.isascii() else _plain(text)):
        out.extend(_run_words(run))
    return out


# Scripts written without spaces (CJK, kana, hangul): a Latin word glued to them is a word of its own.
# Compiled on first use (re's cache keeps it): only non-ASCII text needs it, and compiling it was
# ~4 ms of every recall's start.
_SPACELESS = r"[\u2e80-\u9fff\u3040-\u30ff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]+|[^\u2e80-\u9fff\u3040-\u30ff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]+"


def _pieces(run: str) -> list[str]:
    out = []
    for piece in _RUN.findall(run):
        if piece.isascii():
            out.extend(_HUMPS.findall(piece))
        else:
            for part in re.findall(_SPACELESS, piece):
                out.extend(_HUMPS.findall(part) if part.isascii() else [part])
    return out


def _plain(text: str) -> str:
    """Text outside ASCII as the search index keeps its words: compatibility forms as plain letters
    (ﬁ, full-width Ｌａｔｉｎ) and every mark dropped: accents (café and cafe are one word) and the
    vowel signs of Thai or Devanagari, which would otherwise split their words in two."""
    import unicodedata  # only for text outside ASCII

    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.category(c).startswith("M"))


def _folded(part: str) -> str:
    """A word in one case: casefolded outside ASCII (Straße and strasse, final ς and σ are one word).
    FTS5 then folds nothing more, so the index keeps these very terms and a term's document count
    is looked up as it is written."""
    return part.lower() if part.isascii() else part.casefold()


def _run_words(run: str) -> list[str]:
    parts = _pieces(run)
    lowered = [_folded(p) for p in parts]
    if len(lowered) > 1:
        joined = "".join(lowered)
        if len(joined) <= 40:
            lowered.append(joined)
    return lowered


# A run's terms, remembered: prose repeats its words, and a sync after a `git pull` of thousands of
# memory files spends most of its time here otherwise. Bounded, so a flood of distinct tokens
# (a pasted log) cannot grow it without limit.
_TERMS: dict[str, tuple[str, ...]] = {}
_PATH_TERMS: dict[str, tuple[str, ...]] = {}
_TERMS_MAX = 200_000


def terms(text: str, path: bool = False) -> list[str]:
    """Search terms: split, stop-words and one-letter noise dropped, stemmed. Order is kept."""
    out: list[str] = []
    cache = _PATH_TERMS if path else _TERMS
    get, extend = cache.get, out.extend
    for run in _WORD_WITH_UNDERSCORES.findall(text if text.isascii() else _plain(text)):
        got = get(run)
        if got is None:
            got = tuple(
                stem(CANONICAL.get(w, w))
                for w in _run_words(run)
                if not (w in STOP_WORDS or (len(w) < 2 and not w.isdigit()) or (path and w in PATH_NOISE))
            )
            if len(cache) >= _TERMS_MAX:
                cache.clear()
            cache[run] = got
        extend(got)
    return out


# Words every function body has: keywords and builtins of the common languages say nothing about
# what one piece of code is for.
CODE_NOISE = frozenset(
    """
    def class return self cls none true false null nil undefined raise raises try except finally lambda
    yield async await import export from elif pass assert del global nonlocal isinstance len str int
    float bool dict list tuple set bytes object super print type var const let function new this throw
    catch void public private protected static final fn impl pub mut match struct enum interface func
    package namespace using begin end ok err
    """.split()
)
CODE_CHARS = 4000  # of each anchored text: the signature, the docstring and the start of the body
CODE_TERMS = 150  # distinct words at most: the field describes the code, it does not copy it


def code_terms(texts: list[str]) -> list[str]:
    """The code field: distinct words of the anchored texts (names split, docstrings, comments, the
    names called), first seen first, without keywords and builtins."""
    out: dict[str, None] = {}
    for text in texts:
        for t in terms(text[:CODE_CHARS]):
            if t not in CODE_NOISE and not t.isdigit():
                out[t] = None
                if len(out) >= CODE_TERMS:
                    return list(out)
    return list(out)


def unique(seq: list[str]) -> list[str]:
    return list(dict.fromkeys(seq))


# Words as a person typed them, for `matched`: identifiers stay whole, in any script (straße, café).
_RAW = re.compile(r"[^\W\d]\w*(?:\.[^\W\d]\w*)*|\d+[^\W\d]\w*|\d+(?:\.\d+)?")


def raw_terms(text: str) -> list[str]:
    """Significant words of a task as typed (identifiers and dotted names whole), in order, once each."""
    seen: dict[str, str] = {}
    for w in _RAW.findall(text):
        key = w.lower()
        if key in seen or key in STOP_WORDS or len(w) < 3:
            continue
        seen[key] = w
    return list(seen.values())


# Every character whose lower, upper or folded case holds an ASCII one (ß, İ, ı, ſ, K, ﬁ, ...): in
# a text with one of them, only the case-blind pattern says what it matched (a test derives the set).
CASE_TRAPS = "\xdf\u0130\u0131\u0149\u017f\u01f0\u1e96\u1e97\u1e98\u1e99\u1e9a\u1e9e\u212a\ufb00\ufb01\ufb02\ufb03\ufb04\ufb05\ufb06"


def found_verbatim(term: str, text: str) -> bool:
    """`term` occurs in `text` as a whole word, ignoring case: no letter, digit, underscore or mark
    (an accent, a vowel sign) of any script on either side, so `caf` is not found in `café`. A
    search where case rules are ASCII's; a case-blind pattern per term cost ~0.7 ms to compile."""
    if not term:
        return False
    if term.isascii() and (text.isascii() or not any(c in text for c in CASE_TRAPS)):
        want, hay = term.lower(), text.lower()
        spans = []
        at = hay.find(want)
        while at >= 0:
            spans.append((at, at + len(want)))
            at = hay.find(want, at + 1)
    else:  # Unicode's case rules (ß, K, İ): the pattern's; composed and decomposed forms alike
        import unicodedata  # only for text outside ASCII

        hay = unicodedata.normalize("NFC", text)
        spans = [m.span() for m in re.finditer(re.escape(unicodedata.normalize("NFC", term)), hay, re.IGNORECASE)]
    return any(
        not (start and _in_word(hay[start - 1])) and not (end < len(hay) and _in_word(hay[end])) for start, end in spans
    )


def _in_word(c: str) -> bool:
    if c.isascii():
        return c.isalnum() or c == "_"
    import unicodedata  # only for text outside ASCII

    return c.isalnum() or unicodedata.category(c).startswith("M")


def token_count(text: str) -> int:
    """tether's one token count, for budgets, receipts and the usage log: ceil(characters / 4)."""
    return math.ceil(len(text) / 4)
