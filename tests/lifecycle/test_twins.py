"""Twins through the real CLI, per language (tests/lifecycle/twin_cases.py): every typeable form
anchors its own twin, a bare name is refused with every form, an edit stales one twin only."""

from __future__ import annotations

import orjson
import pytest
from twin_cases import ALL, Twins


@pytest.fixture(params=list(ALL.values()), ids=list(ALL))
def twins(request, repo) -> Twins:
    """Each case's source committed in a fresh repository."""
    t = request.param
    repo.write(t.path, t.source)
    repo.commit("twins")
    return t


def _forms(t: Twins) -> list[str]:
    return [f"{t.path}::{t.name}@{d}" for d in t.discs]


def test_bare_name_is_refused_with_every_typeable_form(repo, twins):
    t = twins
    if t.implementation is not None:  # overload signatures and one implementation: the bare name is it
        mid = repo.remember("The one that runs.", f"{t.path}::{t.name}")
        assert repo.check()[mid]["anchors"][0]["discriminator"] == t.discs[t.implementation]
        return
    proc = repo.run("remember", "Which one?", "--anchor", f"{t.path}::{t.name}", "--json", check=False)
    assert proc.returncode == 2
    err = orjson.loads(proc.stdout)["error"]
    assert (err["code"], err["candidates"]) == ("anchor_ambiguous", _forms(t))
    assert repo.memory_files() == {}


def test_each_typeable_form_anchors_its_own_twin(repo, twins):
    t = twins
    ids = [repo.remember(f"Twin {i} of {t.name}.", form) for i, form in enumerate(_forms(twins))]
    items = repo.check()
    for mid, disc in zip(ids, t.discs):
        item = items[mid]
        a = item["anchors"][0]
        assert (item["status"], a["symbol"], a["discriminator"]) == ("active", t.name, disc)


def test_whitespace_in_discriminator_is_forgiven(repo, twins):
    t = twins
    typed, which = t.spaced
    mid = repo.remember("Typed loosely.", f"{t.path}::{t.name}@{typed}")
    a = repo.check()[mid]["anchors"][0]
    assert (a["status"], a["symbol"], a["discriminator"]) == ("active", t.name, t.discs[which])


def test_editing_one_twin_stales_only_its_memory(repo, twins):
    t = twins
    ids = [repo.remember(f"Twin {i} of {t.name}.", form) for i, form in enumerate(_forms(twins))]
    old, new, edited = t.edit
    repo.replace(t.path, old, new)
    items = repo.check()
    got = [(items[mid]["status"], items[mid]["reason"]) for mid in ids]
    want = [("stale", "body_edited") if i == edited else ("active", None) for i in range(len(ids))]
    assert got == want
    a = items[ids[edited]]["anchors"][0]
    assert (a["symbol"], a["discriminator"]) == (t.name, t.discs[edited])
    assert any(line.startswith("+") and new in line for line in a["diff"].splitlines())
