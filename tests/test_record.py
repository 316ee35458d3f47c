"""The frozen value types (tether/record.py): what they promised as dataclasses, held for each."""

from __future__ import annotations

import copy
import pickle

import pytest

import tether.anchor.model
import tether.lifecycle.verdicts
import tether.store.files
import tether.store.model  # noqa: F401  (each module defines Records)
from tether.record import FrozenInstanceError, Record

TYPES = sorted(Record.__subclasses__(), key=lambda c: c.__qualname__)


def test_the_core_types_are_records():
    assert {c.__qualname__ for c in TYPES} >= {
        *("Memory", "Anchor", "Symbol", "FileFacts", "Resolution", "Verdict", "LinkProblem", "Quarantined"),
    }


def _one(cls: type[Record], start: int = 0) -> Record:
    """An instance whose every field holds its own position (positional order = __slots__)."""
    return cls(*range(start, start + len(cls.__slots__)))


@pytest.mark.parametrize("cls", TYPES, ids=lambda c: c.__qualname__)
def test_a_record_is_a_frozen_value(cls):
    r = _one(cls)
    assert r.values() == tuple(range(len(cls.__slots__)))  # each argument lands in its own field
    assert r == _one(cls) and hash(r) == hash(_one(cls)) and r != _one(cls, 1)
    assert (r == r.values()) is False  # a record is not its tuple
    with pytest.raises(FrozenInstanceError):
        setattr(r, cls.__slots__[0], "x")
    with pytest.raises(FrozenInstanceError):
        delattr(r, cls.__slots__[0])
    assert pickle.loads(pickle.dumps(r)) == r == copy.deepcopy(r) == copy.copy(r)
    changed = r.replace(**{cls.__slots__[-1]: "new"})
    assert changed.values() == (*r.values()[:-1], "new") and r.values()[-1] != "new"
    with pytest.raises(TypeError):
        r.replace(no_such_field=1)
    assert repr(r).startswith(f"{cls.__qualname__}({cls.__slots__[0]}=0, ")


def test_a_record_takes_its_fields_by_name_and_defaults():
    from tether.store.model import Anchor, Memory

    a = Anchor(type="file", path="a.py", hash="c:1", size=3)
    assert (a.symbol, a.discriminator, a.language) == (None, None, None)
    assert a.to_dict() == {"type": "file", "path": "a.py", "hash": "c:1", "size": 3}
    m = Memory("i", "fact", "s", "b", (a,), "t0", "t1", "t2")
    n = Memory("j", "fact", "s", "b", (a,), "t0", "t1", "t2")
    assert m.links == {} and m.links is not n.links  # a default dict of its own, as default_factory gave


def test_a_record_lists_two_fields_or_more():
    with pytest.raises(TypeError):

        class One(Record):
            __slots__ = ("only",)
