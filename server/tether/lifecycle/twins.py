"""Which of a name's twins (same qualified name: trait impls, overloads, accessor pairs) holds an
anchor, when some of them carry the anchored hash: an identical twin must never mask an edit of the
anchor's own twin, nor be guessed at when two of them could be where a relabelled twin went."""

from __future__ import annotations

from collections import namedtuple

from tether.anchor.disc import canonical, disc_matches


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
