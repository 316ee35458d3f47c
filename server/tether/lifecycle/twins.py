"""Which of a name's twins (same qualified name: trait impls, overloads, accessor pairs) holds an
anchor, when some of them carry the anchored hash: an identical twin must never mask an edit of the
anchor's own twin, nor be guessed at when two of them could be where a relabelled twin went."""

from __future__ import annotations

from collections import namedtuple

from tether.anchor.disc import canonical, disc_matches
from tether.lifecycle.diff import slots_at
from tether.store.model import Anchor


class TwinPick(namedtuple("TwinPick", "found edited ambiguous", defaults=(None, None, ()))):
    """`found`: the twin holding the anchored body (active there); `edited`: the anchor's own twin,
    still under its label with another body (stale there); `ambiguous`: several twins hold the body
    and none under the anchor's label. At most one is set."""

    __slots__ = ()


def own_label(disc: str | None, items: list) -> list:
    """The items labelled exactly as the anchor (`""`: the twin with no discriminator)."""
    if disc == "":
        return [c for c in items if c.discriminator is None]
    return [c for c in items if canonical(c.discriminator) == canonical(disc)]


def pick_twin(disc: str | None, same: list, named: list) -> TwinPick:
    """`same`: the twins whose hash is the anchor's (at least one); `named`: all twins of the name.

    Under the anchor's own label: found there. The label still there with another body: that twin
    was edited, and an identical sibling elsewhere does not hide it (limpet's T2b). Otherwise the
    label moved (a renamed trait, an ordinal come or gone): one twin holding the body is it; two
    or more are ambiguous."""
    if disc is None:
        return TwinPick(found=same[0])
    own = own_label(disc, same)
    if own:
        return TwinPick(found=own[0])
    mine = own_label(disc, named)
    if len(mine) == 1:
        return TwinPick(edited=mine[0])
    loose = [c for c in same if disc_matches(disc, c.discriminator)]
    if len(loose) == 1:
        return TwinPick(found=loose[0])
    if len(same) == 1:
        return TwinPick(found=same[0])
    return TwinPick(ambiguous=tuple(loose or same))


def namesake_among(symbol: str | None, hits: list) -> bool:
    """Whether one of the (path, symbol) hits bears the anchor's last name (`b` of `A.b`)."""
    last = (symbol or "").rpartition(".")[2]
    return any(s.qualname.rpartition(".")[2] == last for _, s in hits)


def twins_beside(root, a: Anchor, commit: str | None, here: list, cands: list) -> tuple[list, bool]:
    """The twins holding the anchored body now that already held it at the anchored commit, under
    a label other than the anchor's, while the anchor's own label is gone (asked of git: the
    anchor's slot must have held the body then too, or the commit is no evidence); and whether
    they are told apart from the anchor by an ordinal only (`()#1` beside `()#2`, one of them
    deleted, the other now `()`): then which of them went is not known, and neither is followed."""
    if not here or commit is None or a.discriminator is None or own_label(a.discriminator, cands):
        return [], False
    mine = _label(a.discriminator or None)
    then = {(q, _label(d)) for q, d, h in slots_at(root, commit, a.path) if h == a.hash}
    if (a.symbol, mine) not in then:
        return [], False
    others = {(q, d) for q, d in then if d != mine}
    ordinal = [
        c
        for c in here
        if c.qualname == a.symbol
        and _base(_label(c.discriminator)) == _base(mine)
        and any(q == a.symbol and _base(d) == _base(mine) for q, d in others)
    ]
    if ordinal:
        return ordinal, True
    return [c for c in here if (c.qualname, _label(c.discriminator)) in others], False


def own_slot_then(root, a: Anchor, commit: str | None, cands: list):
    """The twin under the label the anchored symbol had at the anchored commit (asked of git),
    for an anchor stored without one because it was unique then; None if not exactly one."""
    if commit is None:
        return None
    then = [d for q, d, h in slots_at(root, commit, a.path) if q == a.symbol and h == a.hash]
    if len(then) != 1:
        return None
    mine = own_label(then[0] if then[0] is not None else "", cands)
    return mine[0] if len(mine) == 1 else None


def _label(disc: str | None) -> str | None:
    return canonical(disc) if disc else None


def _base(label: str | None) -> str | None:
    """A label without its ordinal (`()#2`: `()`)."""
    return label.split("#", 1)[0] if label else label
