"""Every row of the anchor lifecycle table (docs/format.md's), per language, through the real CLI."""

from __future__ import annotations

import pytest
from lang_cases import CASES, LangCase

from tether.anchor.extract import MAX_PARSE_BYTES

LANGS = sorted(CASES)


def _anchor(case: LangCase, symbol: str | None = None, path: str | None = None) -> str:
    return f"{path or case.path}::{symbol or case.symbol}"


@pytest.fixture(params=LANGS)
def case(request) -> LangCase:
    return CASES[request.param]


@pytest.fixture
def anchored(repo, case):
    """A committed repository with one memory anchored to the case's symbol."""
    repo.write(case.path, case.source)
    repo.commit("initial")
    mid = repo.remember("Retries back off exponentially; 5xx only, because 4xx never heal.", _anchor(case))
    return repo, case, mid


def test_untouched_code_is_active(anchored):
    repo, case, mid = anchored
    item = repo.only()
    assert (item["id"], item["status"], item["reason"]) == (mid, "active", None)
    assert item["anchors"][0]["symbol"] == case.symbol


def test_reformat_comments_and_blank_lines_stay_active(anchored):
    repo, case, _ = anchored
    repo.write(case.path, case.cosmetic)
    assert repo.only()["status"] == "active"


@pytest.mark.parametrize("which", range(6))
def test_cosmetic_edit_stays_active(anchored, which):
    repo, case, _ = anchored
    if which >= len(case.cosmetic_edits):
        pytest.skip("no such cosmetic edit for this language")
    label, text = case.cosmetic_edits[which]
    repo.write(case.path, text)
    assert repo.only()["status"] == "active", label


@pytest.mark.parametrize("which", range(6))
def test_real_edit_goes_stale(anchored, which):
    repo, case, _ = anchored
    if which >= len(case.real_edits):
        pytest.skip("no such real edit for this language")
    label, text = case.real_edits[which]
    repo.write(case.path, text)
    item = repo.only()
    assert (item["status"], item["reason"]) == ("stale", "body_edited"), label


def test_rename_is_followed(anchored):
    repo, case, _ = anchored
    repo.write(case.path, case.renamed)
    item = repo.only()
    a = item["anchors"][0]
    assert (item["status"], a["path"], a["symbol"]) == ("active", case.path, case.new_symbol)
    assert a["was"] == _anchor(case)


def test_move_to_another_file_is_followed(anchored):
    repo, case, _ = anchored
    repo.write(case.path, case.without)
    repo.write(case.other_path, case.moved_to)
    item = repo.only()
    a = item["anchors"][0]
    assert (item["status"], a["path"], a["symbol"]) == ("active", case.other_path, case.moved_symbol)


def test_body_edit_is_stale_with_a_diff(anchored):
    repo, case, _ = anchored
    repo.write(case.path, case.edited)
    item = repo.only()
    a = item["anchors"][0]
    assert (item["status"], item["reason"], a["reason"]) == ("stale", "body_edited", "body_edited")
    assert any(line.startswith("+") and case.edited_line in line for line in a["diff"].splitlines())


def test_revert_heals_with_full_confidence(anchored):
    repo, case, _ = anchored
    before = repo.only()["confidence"]
    repo.write(case.path, case.edited)
    assert repo.only()["confidence"] < before
    repo.git("checkout", "--", case.path)
    item = repo.only()
    assert (item["status"], item["confidence"]) == ("active", before)


def test_delete_invalidates_and_return_heals(anchored):
    repo, case, _ = anchored
    repo.write(case.path, case.without)
    item = repo.only()
    assert (item["status"], item["reason"]) == ("invalidated", "anchor_deleted")
    assert item["anchors"][0]["reason"] == "anchor_deleted"
    repo.write(case.path, case.source)
    assert repo.only()["status"] == "active"


def test_identical_bodies_elsewhere_are_ambiguous(anchored):
    repo, case, _ = anchored
    repo.write(case.path, case.duplicated)
    item = repo.only()
    assert (item["status"], item["reason"]) == ("stale", "ambiguous_anchor")
    assert len(item["anchors"][0]["candidates"]) == 2


def test_trivial_body_is_never_re_pointed(repo, case):
    repo.write(case.path, case.trivial)
    repo.commit()
    repo.remember("The no-op is a deliberate hook point for plugins.", _anchor(case, case.trivial_symbol))
    repo.write(case.path, case.trivial_renamed)
    item = repo.only()
    assert (item["status"], item["reason"]) == ("stale", "low_entropy")
    assert item["anchors"][0]["symbol"] == case.trivial_symbol
    repo.write(case.path, case.trivial)
    assert repo.only()["status"] == "active"


def test_file_anchor_edit_move_and_delete(repo, case):
    repo.write(case.path, case.source)
    repo.commit()
    repo.remember("This module owns all outbound HTTP.", case.path)
    repo.write(case.path, case.edited)
    item = repo.only()
    assert (item["status"], item["reason"]) == ("stale", "file_edited")
    repo.write(case.path, case.source)
    assert repo.only()["status"] == "active"
    repo.move(case.path, case.other_path)
    item = repo.only()
    assert (item["status"], item["anchors"][0]["path"]) == ("active", case.other_path)
    (repo.path / case.other_path).unlink()
    item = repo.only()
    assert (item["status"], item["reason"]) == ("invalidated", "anchor_deleted")


def test_losing_some_anchors_is_stale_anchor_lost(repo, case):
    repo.write(case.path, case.source)
    repo.write("docs/notes.txt", "Outbound HTTP goes through one module so retries live in one place.\n")
    repo.commit()
    repo.remember("Retries live in one place.", _anchor(case), "docs/notes.txt")
    repo.write(case.path, case.without)
    item = repo.only()
    assert (item["status"], item["reason"]) == ("stale", "anchor_lost")
    statuses = sorted(a["status"] for a in item["anchors"])
    assert statuses == ["active", "invalidated"]


@pytest.mark.parametrize("lang", ["python", "typescript", "go"])
def test_a_file_grown_past_the_parse_cap_is_stale_until_it_shrinks(repo, lang):
    """Found by a maintainer adding a reason: a code anchor in a file past the cap read `anchor_deleted`."""
    case = CASES[lang]
    repo.write(case.path, case.source)
    repo.commit("initial")
    repo.remember("Retries back off exponentially; 5xx only, because 4xx never heal.", _anchor(case))
    repo.write(case.path, case.source + "\n" * (MAX_PARSE_BYTES + 1))  # blank lines: cosmetic, but not parsed
    item = repo.only()
    assert (item["status"], item["reason"], item["anchors"][0]["symbol"]) == ("stale", "file_unparsable", case.symbol)
    repo.write(case.path, case.source)
    assert (repo.only()["status"], repo.only()["reason"]) == ("active", None)


def test_branch_switch_round_trip(anchored):
    repo, case, _ = anchored
    repo.commit("memory")
    before = repo.only()
    repo.git("checkout", "-q", "-b", "experiment")
    repo.write(case.path, case.edited)
    repo.commit("edit on a branch")
    assert repo.only()["status"] == "stale"
    repo.git("checkout", "-q", "main")
    after = repo.only()
    assert (after["status"], after["confidence"]) == ("active", before["confidence"])
