"""Namesake evidence for an anchor whose body was found elsewhere, or whose name was: whether a
hit is the anchored file moved (its name in a namesake of the vanished file), or the anchored
name moved and rewritten at once. Git says what stood where when the memory was written."""

from __future__ import annotations

from tether.anchor.disc import twins_named
from tether.index.code_index import CodeIndex
from tether.lifecycle.diff import names_at
from tether.store.model import Anchor


def kept_its_name(index: CodeIndex, a: Anchor, hits: list, commit: str | None):
    """The one hit with the anchor's name in a namesake of its vanished file: the file moved
    (`git mv pkg src/pkg`), and name and file name vouch for a body too common (or too often
    copied) to follow by its hash alone. Asked of git: that namesake must not have held the
    name when the memory was written (then it was a neighbour, not where the file went)."""
    if not a.symbol or commit is None or index.file(a.path) is not None:
        return None
    base = a.path.rpartition("/")[2]
    named = [(p, s) for p, s in hits if s.qualname == a.symbol and p.rpartition("/")[2] == base]
    same = twins_named(a.discriminator, named, lambda h: h[1].discriminator)
    if len(same) != 1:
        return None
    root = index.root
    if a.symbol not in names_at(root, commit, a.path) or a.symbol in names_at(root, commit, same[0][0]):
        return None
    return same[0]


def stood_there(root, path: str, qualname: str, commit: str | None) -> bool:
    """Whether `path` held `qualname` at the anchored commit (asked of git; unknown: False)."""
    return commit is not None and qualname in names_at(root, commit, path)


def namesake_new_since(index: CodeIndex, a: Anchor, commit: str | None):
    """Moved and rewritten at once (`AppContext` to a new file, `push` rewritten): the anchored
    qualified name in exactly one other file, one that did not hold it at the anchored commit,
    is where it went, however large the edit. Needs git and a qualified name (`Class.method`)."""
    if commit is None or not a.symbol or "." not in a.symbol:
        return None
    found = [(p, s) for p, s in index.find_named(a.symbol) if p != a.path]
    if len({p for p, _ in found}) != 1:
        return None
    same = twins_named(a.discriminator, found, lambda h: h[1].discriminator) or (found if len(found) == 1 else [])
    if len(same) != 1 or stood_there(index.root, same[0][0], a.symbol, commit):
        return None
    return same[0]
