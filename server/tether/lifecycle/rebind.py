"""Re-binding: where a memory's anchors are now (`reanchor`), and for `reanchor --anchor` which stored
anchors the given ones re-bind, the others kept as they are."""

from __future__ import annotations

from collections.abc import Iterable

from tether.anchor.disc import canonical, disc_matches
from tether.errors import InvalidInput
from tether.lifecycle.resolve import Resolver
from tether.lifecycle.status import Reason, Status
from tether.lifecycle.verdicts import Resolution
from tether.store.model import Anchor, Memory

Change = tuple[str, str, "str | None"]  # ("rebound" | "kept", stored spec, new spec or None)


def merge_anchors(old: Iterable[tuple[Anchor, Resolution]], given: list[Anchor]) -> tuple[list[Anchor], list[Change]]:
    """The anchors after a `reanchor --anchor`, from the stored ones with how each resolves now.
    Each given anchor replaces the stored one it names: the same locator, or the place that anchor
    resolves to now (a followed rename), or a stored anchor that is not active now with the same
    symbol (it moved), or the only such one in that file (it was renamed). The others are kept.
    A lone anchor is replaced by a lone spec; a spec that names no stored anchor is refused."""
    old = tuple(old)
    if len(old) == 1 and len(given) == 1:
        return list(given), [("rebound", old[0][0].spec(), given[0].spec())]
    taken: dict[int, Anchor] = {}
    for g in given:
        i = _named(old, g, [j for j in range(len(old)) if j not in taken])
        if i is None:
            stored = ", ".join(a.spec() for a, _ in old)
            raise InvalidInput(
                f"{g.spec()} names none of the memory's anchors ({stored}): name one of them where it is "
                "now, or supersede the memory to change what it is about",
                path=g.path,
            )
        taken[i] = g
    out: list[Anchor] = []
    changes: list[Change] = []
    for i, (a, _) in enumerate(old):
        out.append(taken.get(i, a))
        changes.append(("rebound", a.spec(), taken[i].spec()) if i in taken else ("kept", a.spec(), None))
    return out, changes


def _named(old: tuple[tuple[Anchor, Resolution], ...], g: Anchor, free: list[int]) -> int | None:
    """The stored anchor (by index, among `free`) that the given anchor `g` names, if any. A stored
    anchor with g's very locator is the one it names (Router.route@Egress never re-binds @Ingress);
    a discriminator only one side gives matches any; two that differ name other twins."""
    exact = [i for i, (a, _) in enumerate(old) if _key(a) == _key(g)]
    if exact:
        return next((i for i in exact if i in free), None)
    for i in free:
        a, r = old[i]
        if (a.type, a.path, a.symbol) == (g.type, g.path, g.symbol) and _same_twin(a.discriminator, g):
            return i
    for i in free:
        a, r = old[i]
        disc = r.discriminator if r.path else a.discriminator
        if (a.type, r.path or a.path, r.symbol or a.symbol) == (g.type, g.path, g.symbol) and _same_twin(disc, g):
            return i
    lost = [i for i in free if old[i][1].status != Status.ACTIVE]
    moved = [i for i in lost if g.type != "file" and (old[i][0].type, old[i][0].symbol) == (g.type, g.symbol)]
    if len(moved) == 1:
        return moved[0]
    renamed = [i for i in lost if (old[i][0].type, old[i][0].path) == (g.type, g.path)]
    return renamed[0] if len(renamed) == 1 else None


def _key(a: Anchor) -> tuple:
    return (a.type, a.path, a.symbol, canonical(a.discriminator or None))


def _same_twin(disc: str | None, g: Anchor) -> bool:
    """Whether a stored discriminator and the given anchor's may name the same twin."""
    return not disc or not g.discriminator or disc_matches(disc, g.discriminator)


def current_specs(r: Resolver, m: Memory) -> list[str]:
    """Specs naming where each anchor of `m` is now (a plain `reanchor`, a `supersede` that keeps
    the anchors); refuses anchors that cannot be placed."""
    specs = []
    for a in m.anchors:
        res = r.anchor(a, m.commit)
        if res.status == Status.INVALIDATED or res.reason in (Reason.AMBIGUOUS_ANCHOR, Reason.LOW_ENTROPY):
            hint = f" (candidates: {', '.join(res.candidates)})" if res.candidates else ""
            raise InvalidInput(
                f"anchor {a.spec()} is {res.reason}: pass anchors to say where it is now{hint}",
                candidates=list(res.candidates),
            )
        disc = res.discriminator if a.discriminator else None
        specs.append(Anchor(a.type, res.path or a.path, a.hash, a.size, res.symbol or a.symbol, disc).spec())
    return specs
