"""Write-time checks: a near-duplicate on the same anchor is refused; a same-topic memory that
differs in a number (also one inside a word: col9, col10; or spelled out: three, five), a negation
or an opposite word (allows / denies, safe / unsafe, 30 seconds / 30 ms), the order of its words
(sqlite over postgres, postgres over sqlite) or, word for word alike, a symbol (`+` or `%20` for a
space) is kept but reported as a possible conflict, and the
new memory records it (`links.contradicts`) so recall marks both sides."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterable

from tether.recall.text import stem, terms
from tether.store.model import Memory

if TYPE_CHECKING:
    from tether.lifecycle.resolve import Resolver
    from tether.recall.search import MemoryIndex

DUPLICATE_SIMILARITY = 0.8  # Dice over stemmed terms; numbers and negations judged separately
TOPIC_SIMILARITY = 0.5
SAME_ORDER = 0.5  # Dice over consecutive term pairs: below it the same words say something else
_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.]*[A-Za-z_])")
_IN_WORD = re.compile(r"\b(?=\w*\d)(?=\w*[^\W\d_])\w+\b")  # col10, v2, utf8: a number inside a word
# A symbol a claim states (`+`, `%20`, `->`, `!=`): a run of signs other than a sentence's own
# punctuation, with the word it prefixes; punctuation and quotes around it are not part of it.
_SIGNS = re.compile(r"[^\w\s]+\w*")
_HYPHENATED = re.compile(r"(?<=[^\W\d_])-(?=[^\W\d_])")  # percent-encoding is a word, not a sign
_PUNCTUATION = ".,;:!?()[]{}\"'`"
_WITH_UNIT = re.compile(r"^(\d+(?:\.\d+)?)(?:ms|s|m|h|d|k|kb|mb|gb|x|px|%)$")  # 30s, 2kb: the number
# Words whose opposite in the other text makes the same words another claim (enabled / disabled),
# compared stemmed (allows / denies, enabled / disables); a word and its un- or non- form are opposites too.
_PAIRS = (
    ("enabled", "disabled"),
    ("true", "false"),
    ("before", "after"),
    ("min", "max"),
    ("minimum", "maximum"),
    ("increase", "decrease"),
    ("sync", "async"),
    ("allow", "deny"),
    ("always", "never"),
    ("above", "below"),
    ("inclusive", "exclusive"),
    ("ascending", "descending"),
    ("accept", "reject"),
    ("include", "exclude"),
    ("valid", "invalid"),
    ("correct", "incorrect"),
    ("secure", "insecure"),
    ("consistent", "inconsistent"),
    ("sensitive", "insensitive"),
    ("mutable", "immutable"),
    ("possible", "impossible"),
    ("required", "optional"),
    ("public", "private"),
)
# Units of one quantity: any two of a group are opposites (2 seconds / 2 minutes, 30 s / 30 ms).
_UNIT_GROUPS = (
    ("nanosecond", "microsecond", "millisecond", "second", "minute", "hour", "day", "week"),
    ("byte", "kilobyte", "megabyte", "gigabyte", "terabyte"),
)
_UNIT_WORDS = {
    "ns": "nanosecond",
    "us": "microsecond",
    "µs": "microsecond",
    "ms": "millisecond",
    "msec": "millisecond",
    "msecs": "millisecond",
    "s": "second",
    "sec": "second",
    "secs": "second",
    "min": "minute",
    "mins": "minute",
    "h": "hour",
    "hr": "hour",
    "hrs": "hour",
    "kb": "kilobyte",
    "kib": "kilobyte",
    "mb": "megabyte",
    "mib": "megabyte",
    "gb": "gigabyte",
    "gib": "gigabyte",
    "tb": "terabyte",
}
# a unit's abbreviation only right after a number: "30 s" is seconds, the s of "it's" is not
_ABBREVIATED = re.compile(r"(?<=\d)\s*(" + "|".join(sorted(_UNIT_WORDS, key=len, reverse=True)) + r")\b", re.IGNORECASE)
_NOT_OPPOSITES = frozenset({"unless"})  # un- + less: not the opposite of less
_UNITS = {
    **{w: n for n, w in enumerate(("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"))},
    **{
        w: n
        for n, w in enumerate(
            (
                "ten",
                "eleven",
                "twelve",
                "thirteen",
                "fourteen",
                "fifteen",
                "sixteen",
                "seventeen",
                "eighteen",
                "nineteen",
            ),
            10,
        )
    },
}
_TENS = {w: n for n, w in enumerate(("twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"), 2)}
# three, twenty-five, thirty one: a number spelled out is the number (three seconds vs five seconds)
_NUMBER_WORD = re.compile(
    r"\b(?:(" + "|".join(_TENS) + r")(?:[\s-](" + "|".join(list(_UNITS)[1:10]) + r"))?|(" + "|".join(_UNITS) + r"))\b",
    re.IGNORECASE,
)
NUMBER_WORDS = frozenset(_UNITS) | frozenset(_TENS)


def _stemmed_pairs() -> tuple[frozenset[str], ...]:
    pairs = [frozenset(stem(w) for w in p) for p in _PAIRS]
    for group in _UNIT_GROUPS:
        pairs += [frozenset((stem(a), stem(b))) for i, a in enumerate(group) for b in group[i + 1 :]]
    return tuple(pairs)


OPPOSITES = _stemmed_pairs()
_NUMBER_STEMS = frozenset(stem(w) for w in NUMBER_WORDS)
_NEGATION = re.compile(
    r"\b(?:not|no|never|none|nothing|neither|nor|without|cannot|can't|won't|don't|doesn't|isn't|aren't|"
    r"wasn't|weren't|shouldn't|mustn't|didn't|hasn't|haven't)\b",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Overlap:
    """An existing memory that overlaps a new one."""

    memory: Memory
    similarity: float
    reason: str  # duplicate | number_differs | negation_differs | order_differs | symbol_differs

    def to_dict(self) -> dict:
        return {
            "id": self.memory.id,
            "summary": self.memory.summary,
            "reason": self.reason,
            "similarity": round(self.similarity, 2),
        }


def _topic(text: str) -> set[str]:
    return {t for t in terms(text) if not t.isdigit() and t not in _NUMBER_STEMS}


def numbers(text: str) -> set[str]:
    """The numbers a text states: standalone (1,000 and 1000, 30.0 and 30 alike), spelled out (three
    is 3), with a unit (30s is 30), or inside a word (col10)."""
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)
    out = {_number(n) for n in _NUMBER.findall(text)}
    out |= {str(_spelled(m)) for m in _NUMBER_WORD.finditer(text)}
    for w in _IN_WORD.findall(text):
        unit = _WITH_UNIT.match(w.lower())
        out.add(_number(unit.group(1)) if unit else w.lower())
    return out


def symbols(text: str) -> set[str]:
    """The symbols a text states (`+`, `%20`, `->`), sentence punctuation left out."""
    out = set()
    for run in _SIGNS.findall(_HYPHENATED.sub("", text)):
        run = run.strip(_PUNCTUATION)
        if any(not (c.isalnum() or c == "_" or c in _PUNCTUATION) for c in run):
            out.add(run)
    return out


def _spelled(m: re.Match) -> int:
    tens, unit, alone = m.groups()
    if alone:
        return _UNITS[alone.lower()]
    return 10 * _TENS[tens.lower()] + (_UNITS[unit.lower()] if unit else 0)


def _number(n: str) -> str:
    if "." in n:
        n = n.rstrip("0").rstrip(".")
    return n.lstrip("0") or "0"


def opposed(a: str, b: str) -> bool:
    """Whether one text says a word whose opposite the other says instead (enabled / disabled,
    allows / denies, safe / unsafe, 30 s / 30 ms)."""
    x, y = _words(a), _words(b)
    return any(len(pair & x) == 1 and len(pair & y) == 1 and pair & x != pair & y for pair in _pairs_in(x | y))


def _words(text: str) -> set[str]:
    text = _ABBREVIATED.sub(lambda u: " " + _UNIT_WORDS[u.group(1).lower()], text.lower())
    return {stem(w) for w in re.findall(r"[a-zµ]+", re.sub(r"\bnon-(?=[a-z])", "non", text))}


def _pairs_in(words: set[str]) -> Iterable[frozenset[str]]:
    yield from OPPOSITES
    for w in words:  # unsafe / safe, nonblocking / blocking: a base of 3+ letters, so not undo / do
        for prefix in ("un", "non"):
            base = w[len(prefix) :]
            if w.startswith(prefix) and len(base) >= 3 and base in words and w not in _NOT_OPPOSITES:
                yield frozenset((w, base))


def negated(text: str) -> bool:
    return _NEGATION.search(text) is not None


def similarity(a: str, b: str) -> float:
    """Dice coefficient of the two texts' stemmed terms, numbers left out."""
    x, y = _topic(a), _topic(b)
    if not x or not y:
        return 0.0
    return 2 * len(x & y) / (len(x) + len(y))


def order_similarity(a: str, b: str) -> float:
    """Dice coefficient of the two texts' consecutive term pairs: the same words in another order
    score low."""
    x, y = _pairs(a), _pairs(b)
    if not x or not y:
        return 1.0
    return 2 * len(x & y) / (len(x) + len(y))


def _each_lacks(a: set[str], b: set[str]) -> bool:
    """Each side states one the other does not (a conflict), not one a subset of the other."""
    return bool(a - b) and bool(b - a)


def _pairs(text: str) -> set[tuple[str, str]]:
    seq = [t for t in terms(text) if not t.isdigit()]
    return set(zip(seq, seq[1:]))


def _restates(new: str, old: str) -> bool:
    """The new text is word for word part of the old one (its first sentence, say): nothing new said."""
    a, b = _flat(new), _flat(old)
    return len(a.split()) >= MIN_RESTATED_WORDS and a in b


MIN_RESTATED_WORDS = 5  # a few words ("see the docs") say too little to be called a copy


def _flat(text: str) -> str:
    return " ".join(text.lower().split()).rstrip(".!;: ")


def anchor_keys(m: Memory) -> set[tuple]:
    return {(a.type, a.path, a.symbol, a.discriminator) for a in m.anchors}


def where_now(resolver: Resolver) -> Callable[[Memory], set[tuple]]:
    """A memory's anchor keys where its anchors resolve now: a followed rename (fetch, now fetch_url)
    is where it went, so a memory written there meets it; an anchor found nowhere keeps its locator."""
    seen: dict[str, set[tuple]] = {}

    def keys(m: Memory) -> set[tuple]:
        if m.id not in seen:
            seen[m.id] = {
                # a discriminator only where the anchor had one: a lone function's signature is no label
                (
                    a.type,
                    r.path,
                    r.symbol or a.symbol,
                    r.discriminator if r.symbol and a.discriminator else a.discriminator,
                )
                if r.followed and r.path
                else (a.type, a.path, a.symbol, a.discriminator)
                for a, r in resolver.memory(m).anchors
            }
        return seen[m.id]

    return keys


def assess(
    new: Memory, existing: Iterable[Memory], keys_of: Callable[[Memory], set[tuple]] = anchor_keys
) -> tuple[Overlap | None, list[Overlap]]:
    """The near-duplicate on a shared anchor (if any) and the possible conflicts, most similar first.
    `keys_of`: an existing memory's anchors (`where_now`: where they resolve now)."""
    text = f"{new.summary}\n{new.body}"
    nums, neg = numbers(text), negated(text)
    keys = anchor_keys(new)
    duplicate: Overlap | None = None
    conflicts: list[Overlap] = []
    for old in existing:
        if old.id == new.id or not old.live:
            continue
        old_text = f"{old.summary}\n{old.body}"
        sim = similarity(text, old_text)
        if sim < TOPIC_SIMILARITY:
            continue
        old_nums = numbers(old_text)
        shared = keys & keys_of(old)
        if shared and _restates(text, old_text):
            # all the new one says, the old one says already (its first sentence, word for word)
            if duplicate is None or sim > duplicate.similarity:
                duplicate = Overlap(old, max(sim, DUPLICATE_SIMILARITY), "duplicate")
        elif nums - old_nums and old_nums - nums:  # each states a number the other does not: 20 vs 30
            conflicts.append(Overlap(old, sim, "number_differs"))
        elif neg != negated(old_text) or opposed(text, old_text):
            conflicts.append(Overlap(old, sim, "negation_differs"))
        elif sim >= DUPLICATE_SIMILARITY and order_similarity(new.body, old.body) < SAME_ORDER:
            conflicts.append(Overlap(old, sim, "order_differs"))
        elif sim >= DUPLICATE_SIMILARITY and _each_lacks(symbols(text), symbols(old_text)):
            # the same words with another sign where it matters: `+` for a space, or `%20`
            conflicts.append(Overlap(old, sim, "symbol_differs"))
        elif sim >= DUPLICATE_SIMILARITY and shared:
            if duplicate is None or sim > duplicate.similarity:
                duplicate = Overlap(old, sim, "duplicate")
    conflicts.sort(key=lambda o: -o.similarity)
    return duplicate, conflicts


def neighbours(index: MemoryIndex, m: Memory, ignore: Iterable[str] = (), top: int = 5) -> list[Memory]:
    """Current memories that could overlap `m`: those anchored to the same files, and the closest by text."""
    names = index.on_paths(a.path for a in m.anchors)
    names += [c.filename for c in index.search(f"{m.summary}\n{m.body}", sync=False).candidates[:top]]
    skip = {m.id, *ignore}
    out: dict[str, Memory] = {}
    for name in dict.fromkeys(names):
        got = index.read(name)
        if got is not None and got.id not in skip and got.live:
            out[got.id] = got
    return list(out.values())
