"""Where a sentence ends, one rule for the auto-summary and the pushed text."""

from __future__ import annotations

import pytest

from tether.store.memory import summarize
from tether.store.sentences import cut, first_sentence, sentence_ends


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("Use i.e. the cache. Then go.", "Use i.e. the cache."),
        ("Prefer a queue, e.g. Redis. It is already deployed.", "Prefer a queue, e.g. Redis."),
        ("Sockets, files, etc. are closed by the pool. Always.", "Sockets, files, etc. are closed by the pool."),
        ("Tabs vs. spaces: tabs. Decided.", "Tabs vs. spaces: tabs."),
        ("Ask Mr. Smith or Dr. Jones first. They own it.", "Ask Mr. Smith or Dr. Jones first."),
        ("The API moved to v3. the old one is gone. Yes.", "The API moved to v3. the old one is gone."),
        (
            "Settings live in config.py. the loader reads them once. Fine.",
            "Settings live in config.py. the loader reads them once.",
        ),
        ("It retries... then gives up. Always.", "It retries... then gives up."),
        ("Python 3.12 is required. 3.11 fails.", "Python 3.12 is required."),
        ('He said "stop." Then he left.', 'He said "stop."'),
        ("Really?! Yes.", "Really?!"),
        ("缓存已禁用。请勿启用", "缓存已禁用。"),
        ("No end at all", "No end at all"),
    ],
)
def test_the_first_sentence(text, first):
    assert first_sentence(text) == first


def test_summarize_reads_past_an_abbreviation():
    assert summarize("Use i.e. the read replica for reports. The primary is for writes.") == (
        "Use i.e. the read replica for reports."
    )


def test_no_sentence_ends_inside_a_fenced_block():
    text = "Run it:\n\n```\nmake build. Then test.\n```\nDone."
    assert [text[:e] for e in sentence_ends(text)] == ["Run it:\n\n```\nmake build. Then test.\n```\nDone."]


def test_cut_keeps_whole_sentences_and_else_the_first_one():
    text = "One sentence here. " + "Two " * 40 + "words. Three."
    assert cut(text, 60) == "One sentence here. […]"
    long_first = "word " * 30 + "end. Next."
    assert cut(long_first, 100) == long_first[: long_first.index("end.") + 4] + " […]"  # not mid-words
    assert cut("word " * 100, 50).endswith("word […]")  # no sentence end at all: a word boundary


def test_cut_inside_a_fence_closes_it():
    text = "Keep this:\n\n~~~~\n" + "line of code\n" * 30 + "~~~~\nAfter."
    assert cut(text, 120) == "Keep this: […]"  # the last whole block that fits
    out = cut(text[12:], 120)
    assert out.endswith("code\n~~~~\n[…]") and out.count("~~~~") == 2
