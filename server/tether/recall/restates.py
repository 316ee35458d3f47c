"""Whether the anchored code already says what a memory says: the share of its terms found there.

A memory's significant terms are `text.terms` of its text (the body, and the summary when the body
does not open with it): identifiers split, stop-words dropped, light stemming, each term once. The
code's terms are `text.terms` of the anchored source as it is now (comments, docstrings and
strings included) and of the anchored paths. `said` = |memory terms found in the code's terms| /
|memory terms|, and the code already says it when `said >= THRESHOLD`. A memory with no code to
compare with (every anchor gone) says something the code does not.

THRESHOLD is calibrated on tests/bench/data/restates.json: memories on standard-library code that
paraphrase it (what the function does, in its own names) against memories that add what it does
not say (why, what breaks, what was tried). `python -m tests.bench token_receipts` reports the
separation; see the comment on THRESHOLD for the numbers.
"""

from __future__ import annotations

from typing import Iterable

from tether.recall.text import CANONICAL, STOP_WORDS, stem, terms, unique, words

# Calibration (tests/bench/data/restates.json, 20 hand-labelled memories on stdlib code): the 8
# paraphrases score 0.75-1.00 (median 0.93), the 8 that add rationale 0.00-0.22 (median 0.11), and 4
# that restate the code and add one point of their own 0.32-0.53. 0.65 sits midway between those
# mixed memories (kept: they add something) and the paraphrases. Calling a memory redundant is the
# costly mistake, since it invites pruning. Of the 100 recall-benchmark memories, which are written
# from the stdlib's documentation, 16 score at or above it: their code's docstrings do say it.
THRESHOLD = 0.65


def memory_text(body: str, summary: str) -> str:
    head = summary.removesuffix("…").rstrip()
    return body if body.startswith(head) else f"{summary}\n{body}"


def memory_terms(text: str) -> list[str]:
    return unique(terms(text))


def code_terms(sources: Iterable[str], paths: Iterable[str] = ()) -> set[str]:
    out = set()
    for src in sources:
        out.update(terms(src))
    for p in paths:
        out.update(terms(p, path=True))
    return out


def said(text: str, code: set[str]) -> float:
    """The share of the memory's terms the code already contains; 0.0 with no code or no terms."""
    mine = memory_terms(text)
    if not mine or not code:
        return 0.0
    return round(sum(1 for t in mine if t in code) / len(mine), 3)


def missing(text: str, code: set[str], limit: int = 5) -> list[str]:
    """The memory's words whose terms the code does not contain, as written, in order: what it adds."""
    out: dict[str, str] = {}
    for w in words(text):
        if w in STOP_WORDS or (len(w) < 2 and not w.isdigit()):
            continue  # the filter of text.terms, kept here to report the word rather than its stem
        t = stem(CANONICAL.get(w, w))
        if t not in code and t not in out:
            out[t] = w
            if len(out) == limit:
                break
    return list(out.values())


def redundant(share: float) -> bool:
    return share >= THRESHOLD
