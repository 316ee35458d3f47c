"""Recall in any script: a word with accents, a Turkish dotted capital, Greek with its final sigma,
German's ß, Devanagari's vowel signs, full-width letters and ligatures, CJK. Each is found as
typed and in its plain spelling; `matched` names only whole words of the memory."""

from __future__ import annotations

import sqlite3

import orjson
import pytest

from tether.files.paths import cache_dir
from tether.recall.text import terms

SRC = "def brew(beans):\n    return grind(beans)\n"
BODY = (
    "The café grinder runs before the naïve résumé step for İstanbul; the Straße feed keeps σίσυφος "
    "retries and 日本語 notes. Ølstue's ﬁlter stays, ＦＵＬＬＷＩＤＴＨ logs, डेटाबेस पूल."
)


@pytest.fixture
def brewed(repo):
    repo.write("src/brew.py", SRC)
    repo.commit("brew")
    mid = repo.remember(BODY, "src/brew.py::brew")
    return repo, mid


def _recall(repo, task: str) -> dict:
    return orjson.loads(repo.run("recall", task, "--json", env={"TETHER_SEMANTIC": "off"}).stdout)


@pytest.mark.parametrize(
    ("task", "matched"),
    [
        ("café grinder", ["café", "grinder"]),
        ("cafe", None),  # without its accent: found, though not verbatim
        ("naïve résumé", ["naïve", "résumé"]),
        ("naive resume", None),
        ("İstanbul", ["İstanbul"]),
        ("istanbul", ["istanbul"]),
        ("σίσυφος", ["σίσυφος"]),
        ("ΣΊΣΥΦΟΣ", ["ΣΊΣΥΦΟΣ"]),
        ("straße", ["straße"]),
        ("strasse", None),
        ("日本語", ["日本語"]),
        ("filter fullwidth", None),  # the ligature and the full-width letters, spelled plainly
        ("डेटाबेस", None),  # found whole; `matched` reads words without their vowel signs, so none
        ("caf résum bersetzung", None),  # fragments of the memory's words are no words of it
    ],
)
def test_a_word_in_any_script_finds_its_memory(brewed, task, matched):
    repo, mid = brewed
    items = _recall(repo, task)["data"]["items"]
    assert [i["id"] for i in items] == [mid], task
    assert items[0].get("matched") == matched


def test_the_search_index_keeps_the_terms_recall_looks_up(brewed):
    """Every term recall/text.py makes of a body is a term of the FTS5 index, as written: its
    document count (BM25's idf) is found for it, whatever the script."""
    repo, _ = brewed
    _recall(repo, "café")
    conn = sqlite3.connect(cache_dir(repo.path) / "cache.sqlite")
    vocabulary = {term for (term,) in conn.execute("SELECT term FROM mem_vocab")}
    conn.close()
    assert set(terms(BODY)) <= vocabulary
    assert {"caf", "naiv", "istanbul", "σισυφοσ", "strass", "日本語", "filt", "fullwidth"} <= set(terms(BODY))


def test_a_memory_file_rewritten_in_place_is_searched_by_its_new_words(repo):
    """Red team: `cp -p` of an older version over a memory file (an editor that writes in place does
    the same) leaves the directory's stamp alone; recall must still search the words now in it."""
    import time

    repo.write("src/brew.py", SRC)
    repo.commit("brew")
    mid = repo.remember("Alpha grinder setting for the brew path", "src/brew.py::brew")
    assert [i["id"] for i in _recall(repo, "alpha grinder")["data"]["items"]] == [mid]
    time.sleep(2.2)  # the directory older than any racy window: the next scan may trust its stamp
    assert [i["id"] for i in _recall(repo, "alpha grinder")["data"]["items"]] == [mid]
    (path,) = (repo.path / ".tether" / "memories").glob("*.md")
    text = path.read_text(encoding="utf-8")
    with open(path, "r+", encoding="utf-8") as f:  # in place: the same inode, the directory untouched
        f.write(text.replace("Alpha grinder", "Wombat kettle"))
    assert [i["id"] for i in _recall(repo, "wombat kettle")["data"]["items"]] == [mid]
    assert _recall(repo, "alpha")["data"]["items"] == []  # ("grinder" would find the anchored grind())
