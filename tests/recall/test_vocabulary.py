"""Recall when the question's words are not the memory's: the lexicon and the anchored code's own words."""

from __future__ import annotations

import shutil

from conftest import Repo

from tether.recall.lexicon import alternates, phrase_terms
from tether.recall.text import terms

SERVE = '''\
import os


def send_from_directory(directory, path, **kwargs):
    """Send a file from within a directory using send_file.

    This is a secure way to serve files from a folder, such as static
    files or uploads. Uses safe_join to ensure the path coming from the
    client is not maliciously crafted to point outside the directory.
    """
    path = safe_join(os.fspath(directory), path)
    return send_file(path, **kwargs)


def find_best_app(module):
    """Given a module instance this tries to find the best possible
    application in the module or raises an exception."""
    for attr in ("app", "application"):
        found = getattr(module, attr, None)
        if found is not None:
            return found
    raise LookupError(module)


def render_page(name):
    return "<html>" + name + "</html>"
'''


def recall_ids(repo, query: str) -> list[str]:
    out = repo.json("recall", query)
    return [item["id"] for item in out["data"]["items"]]


def seeded(repo) -> dict[str, str]:
    repo.write("app/helpers.py", SERVE)
    repo.commit("helpers")
    return {
        "serve": repo.remember(
            "Paths are joined with safe_join, never os.path.join: the client controls them",
            "app/helpers.py::send_from_directory",
        ),
        "pick": repo.remember(
            "The attribute names are tried in order app then application", "app/helpers.py::find_best_app"
        ),
        "page": repo.remember("The page shell is built by hand, not from a template", "app/helpers.py::render_page"),
    }


def test_a_question_in_the_codes_words_finds_the_memory_through_its_docstring(repo):
    ids = seeded(repo)
    # "uploads", "folder" and "static" are in the anchored function's docstring, not in the memory
    assert recall_ids(repo, "serve user uploads from a folder")[:1] == [ids["serve"]]


def test_a_synonym_from_the_lexicon_bridges_the_question_to_the_memory(repo):
    ids = seeded(repo)
    # pick ~ find (the lexicon): "pick" is nowhere in the repository, `find_best_app` is the anchor
    assert recall_ids(repo, "how does it pick")[:1] == [ids["pick"]]


def test_the_code_field_arrives_when_a_fresh_clone_first_resolves_its_anchors(repo, tmp_path, tether_home):
    ids = seeded(repo)
    repo.commit("memories")
    clone = tmp_path / "clone"
    repo.git("clone", "-q", str(repo.path), str(clone))
    shutil.rmtree(tether_home, ignore_errors=True)  # a teammate's machine: no cache at all
    theirs = Repo(clone)  # git init on a clone only re-reads it
    # before anything resolved the anchors, the docstring's words are unknown here ...
    assert ids["serve"] not in recall_ids(theirs, "static uploads")
    theirs.check()  # ... `check` (as SessionStart does) reads the anchored code once
    assert recall_ids(theirs, "static uploads")[:1] == [ids["serve"]]


def test_phrases_stand_for_one_term_in_any_inflection():
    assert phrase_terms("it timed out, so the client tries again") == ["timeout", "retry"]
    assert phrase_terms("we got a 303 See Other and then Too Many Requests") == ["303", "429"]
    assert phrase_terms("nothing of the sort here") == []


def test_the_lexicon_is_symmetric_and_in_the_index_terms_own_form():
    (folder,) = terms("folder")
    (directory,) = terms("directory")
    assert directory in alternates(folder) and folder in alternates(directory)
    assert alternates("zzzz") == ()


def test_an_answer_gives_the_best_match_whole_and_the_runners_up_in_brief(repo):
    seeded(repo)
    long = "The directory comes from configuration. It is never taken from the request, see the security review."
    repo.remember(long, "app/helpers.py::send_from_directory")
    second = "The directory of templates comes from configuration too. Reviewed with the rest."
    repo.remember(second, "app/helpers.py::render_page")
    items = repo.json("recall", "the directory from configuration")["data"]["items"]
    assert len(items) >= 2
    assert items[0]["body"] == long and items[0]["anchors"][0]["lines"]
    for item in items[1:]:  # by summary and anchor: `tether show ID` has the rest
        assert "body" not in item and item["truncated"] is True
        assert all("lines" not in a and a["path"] == "app/helpers.py" for a in item["anchors"])


def test_a_latin_word_glued_to_cjk_text_is_a_word_of_its_own():
    """A red-team finding: `为什么redirect后…` found nothing, the same with spaces found the memory."""
    assert "redirect" in terms("为什么redirect后请求方法变成了GET")
    assert "post" in terms("リダイレクトでPOSTがGETになる")
    assert terms("café naïve") == ["caf", "naiv"]  # accented Latin is not split; accents are folded


def test_the_code_field_is_filled_a_batch_per_search_until_every_memory_has_it(
    repo, tmp_path, tether_home, monkeypatch
):
    """After a pull of many memories, each search gives a bounded batch its code field (a hook's budget)."""
    import tether.recall.rows as rows
    from tether.recall.search import MemoryIndex

    ids = seeded(repo)
    repo.commit("memories")
    clone = tmp_path / "clone"
    repo.git("clone", "-q", str(repo.path), str(clone))
    shutil.rmtree(tether_home, ignore_errors=True)
    theirs = Repo(clone)
    theirs.check()  # snippets for all three anchors are cached; the index is not built yet
    monkeypatch.setattr(rows, "FILL_BATCH", 1)
    ix = MemoryIndex(clone)
    try:
        ix.sync()  # with the snippets there, a fresh index has every code field at once
        ix.conn.execute("UPDATE mems SET code_pending=1")  # as if indexed before the snippets came
        ix.conn.execute("INSERT OR REPLACE INTO meta(key, value) VALUES('code_seen', '0')")
        ix.conn.commit()
        pending = []
        for _ in range(5):
            ix.search("static uploads", sync=False)  # as the hook searches, after its own bounded sync
            pending.append(ix.conn.execute("SELECT count(*) FROM mems WHERE code_pending=1").fetchone()[0])
        assert pending[:3] == [2, 1, 0] and pending[-1] == 0
        assert ix.search("static uploads", sync=False).candidates[0].memory_id == ids["serve"]
    finally:
        ix.close()
