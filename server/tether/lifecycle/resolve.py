"""The anchor lifecycle: stored anchors + the code index -> status, reason, where it is now, diff.

Status is derived on every read and never stored, so a revert or a branch switch back heals a
memory with nothing to undo. The order of questions matters for honesty: the locator is asked
first, and an existing locator whose hash differs is an edit (stale), never followed elsewhere.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime

from tether.anchor.disc import disc_matches, twins_named
from tether.anchor.locator import locator
from tether.anchor.model import Symbol
from tether.index.code_index import FileRow
from tether.index.named import named_symbols
from tether.lifecycle.diff import compact_diff
from tether.lifecycle.entropy import (
    FILE_LOW_ENTROPY_BITS,
    LOW_ENTROPY_BITS,
    file_bits,
    symbol_bits,
    too_trivial_to_follow,
)
from tether.lifecycle.formats import in_current_format, outdated
from tether.lifecycle.lookups import IndexLookups
from tether.lifecycle.namesakes import kept_its_name, namesake_new_since, stood_there
from tether.lifecycle.rename import renamed_and_edited, renamed_throughout
from tether.lifecycle.status import Reason, Status
from tether.lifecycle.twins import namesake_among, own_label, own_slot_then, pick_twin, twins_beside
from tether.lifecycle.verdicts import Resolution, Verdict, combine, confidence
from tether.store.model import Anchor, Memory

# Why a file in place was not analyzed (FileFacts.skipped) that leaves its anchors unknown, not gone.
UNREAD = ("syntax", "too_large")


class Resolver(IndexLookups):
    """Resolves anchors against one index; sweeps the repository at most once, only if needed.

    `Resolver(index, with_diff=True, deadline=None)`: the constructor, the per-resolver caches and
    the index lookups are IndexLookups' (lookups.py); the decisions are here."""

    def memories(self, ms: Iterable[Memory], now: datetime | None = None) -> list[Verdict]:
        """`memory` of each, every file asked first and their symbols a batch at a time."""
        ms = list(ms)
        anchors = [a for m in ms for a in m.anchors]
        live = {a.path for a in anchors if (row := self._file_row(a.path)) is not None and row.skipped not in UNREAD}
        wanted = ((a.path, a.symbol) for a in anchors if a.type != "file" and a.symbol and a.path in live)
        self._named, self._named_at = named_symbols(self.index.conn, wanted), self.index.dirty
        return [self.memory(m, now) for m in ms]

    def memory(self, m: Memory, now: datetime | None = None) -> Verdict:
        results = [self.anchor(a, m.commit) for a in m.anchors]
        status, reason = combine(results)
        return Verdict(m, status, reason, tuple(zip(m.anchors, results)), confidence(m, status, now))

    def decided_here(self, a: Anchor, r: Resolution) -> bool:
        """Whether `r` (this resolver's answer for `a`, with_diff off) was decided by the anchored
        file alone: its index row and the name's one symbol there, no search of the repository, no
        git history (twins ask git; a follow, a deletion or a search depends on every file). Such an
        answer stands while that file is unchanged, so a listing keeps it (service/listing.py)."""
        if r.followed or r.path != a.path or outdated(a):
            return False
        row = self._file_row(a.path)
        if row is None:
            return False
        if a.type == "file":
            return r.status == Status.ACTIVE or r.reason == Reason.FILE_EDITED
        if row.skipped in UNREAD:
            return r.reason == Reason.FILE_UNPARSABLE
        cands = self._candidates(a)
        if len(cands) != 1 or (a.discriminator is not None and not own_label(a.discriminator, cands)):
            return False  # twins, or a label gone: `_symbol` asks git or searches
        if cands[0].hash == a.hash:
            return r.status == Status.ACTIVE  # found in place
        same = twins_named(a.discriminator, cands, lambda c: c.discriminator)
        return r.reason == Reason.BODY_EDITED and (len(same) == 1 or a.discriminator is None)  # edited in place

    def anchor(self, a: Anchor, commit: str | None = None) -> Resolution:
        if a.type == "file":
            return self._file(a, commit)
        if outdated(a):
            # most code hashes alike in both formats: read as written now, it is followed as ever
            now = self._symbol(in_current_format(a), commit)
            c = self._old_hashes.unchanged(a) if now.status != Status.ACTIVE else None
            if c is None:
                return now
            self._keep(a, c.start_byte, c.end_byte)
            return Resolution(Status.ACTIVE, None, a.path, c.qualname, c.discriminator, c.start_line, c.end_line)
        return self._symbol(a, commit)

    # -- symbols, sections, keys ------------------------------------------------------------
    def _symbol(self, a: Anchor, commit: str | None) -> Resolution:
        row = self._file_row(a.path)
        if row is not None and row.skipped in UNREAD:
            # a file that stopped parsing (a config mid-edit) or grew past the parse cap: its symbols
            # are unknown, not deleted, and searching elsewhere would call them gone; it heals when read
            return Resolution(Status.STALE, Reason.FILE_UNPARSABLE, a.path, a.symbol, a.discriminator)
        cands = self._candidates(a) if row else []
        here = [c for c in cands if c.hash == a.hash]
        beside, doubt = twins_beside(self.index.root, a, commit, here, cands)
        if doubt:
            specs = tuple(_spec(a.type, a.path, c.qualname, c.discriminator) for c in beside)
            return Resolution(
                Status.STALE, Reason.AMBIGUOUS_ANCHOR, a.path, a.symbol, a.discriminator, candidates=specs
            )
        if beside and len(beside) == len(here):
            # the anchored slot is gone, and every twin that holds its body held it beside it all
            # along: where the code stood, not where it went (a twin new since then beside them is a
            # relabelled slot or a copy, which limpet's peers call ambiguous, as pick_twin does)
            return self._follow(a, commit, beside) or self._gone(a, beside)
        if here:
            if a.discriminator is None and len(cands) > 1:
                mine = own_slot_then(self.index.root, a, commit, cands)
                if mine is not None and mine not in here:
                    # a unique anchor's own slot (an inherent method) edited, a copy of its old body
                    # pasted beside it as a twin (a trait impl): the slot is the anchor, edited there
                    return self._edited(a, commit, mine)
            pick = pick_twin(a.discriminator, here, cands)
            if pick.edited is not None:
                return self._edited(a, commit, pick.edited)
            if pick.ambiguous:
                specs = tuple(_spec(a.type, a.path, c.qualname, c.discriminator) for c in pick.ambiguous)
                return Resolution(
                    Status.STALE, Reason.AMBIGUOUS_ANCHOR, a.path, a.symbol, a.discriminator, candidates=specs
                )
            c = pick.found
            self._keep(a, c.start_byte, c.end_byte)
            return Resolution(Status.ACTIVE, None, a.path, c.qualname, c.discriminator, c.start_line, c.end_line)
        # the twin whose discriminator matches exactly (ordinal included) first, then loosely
        same = twins_named(a.discriminator, cands, lambda c: c.discriminator)
        if len(same) == 1 or (len(cands) == 1 and a.discriminator is None):
            c = (same or cands)[0]
            return self._edited(a, commit, c)
        followed = self._follow(a, commit)
        if followed is not None or not cands:
            return followed or Resolution(Status.INVALIDATED, Reason.ANCHOR_DELETED, a.path, a.symbol, a.discriminator)
        # the name survives but no twin matches: an edit to one of them; diff against the closest
        from difflib import SequenceMatcher

        old = self._old_text(a, commit)
        closest = max(
            cands,
            key=lambda c: SequenceMatcher(None, old or "", self._text(a.path, c) or "").ratio(),
        )
        return self._edited(a, commit, closest)

    def _edited(self, a: Anchor, commit: str | None, c, path: str | None = None) -> Resolution:
        path = path or a.path
        diff = None
        if self.with_diff:
            old = self._old_text(a, commit)
            new = self._text(path, c)
            if old is not None and new is not None:
                diff = compact_diff(old, new, path=path)
        return Resolution(
            Status.STALE,
            Reason.BODY_EDITED,
            path,
            c.qualname,
            c.discriminator,
            c.start_line,
            c.end_line,
            followed=path != a.path or c.qualname != a.symbol,
            diff=diff,
        )

    def _gone(self, a: Anchor, beside: list) -> Resolution:
        """The anchored slot gone, its body only in twins that held it beside it all along."""
        specs = tuple(_spec(a.type, a.path, c.qualname, c.discriminator) for c in beside)
        return Resolution(
            Status.INVALIDATED, Reason.ANCHOR_DELETED, a.path, a.symbol, a.discriminator, candidates=specs
        )

    def _follow(self, a: Anchor, commit: str | None = None, beside: Sequence[Symbol] = ()) -> Resolution | None:
        """Find the body by hash elsewhere (rename, move); None if it is nowhere. `beside`: twins in
        the anchor's file that held the body beside it at the anchored commit, never followed to."""
        edited_there = None
        stood = {(a.path, c.qualname, c.start_byte) for c in beside}
        there: Resolution | None = None  # where it was followed to before, if the body is still there
        for path, symbol, disc in self.index.follow(a):
            if self.index.file(path) is not None:
                for s in self.index.symbols(path, symbol):
                    if (path, s.qualname, s.start_byte) in stood:
                        continue
                    if s.hash == a.hash and there is None:
                        there = Resolution(
                            Status.ACTIVE, None, path, s.qualname, s.discriminator, s.start_line, s.end_line, True
                        )
                    elif disc_matches(disc, s.discriminator):
                        edited_there = (path, s)
        hits = self._search(a, self.index.find_symbols)
        if hits is not None and stood:
            hits = [(p, s) for p, s in hits if (p, s.qualname, s.start_byte) not in stood]
        if there is not None and (hits is None or len(hits) <= 1):
            # still the one place that holds it (as far as the last sweep knows): an identical copy
            # made since, there or elsewhere, makes it ambiguous below, as on a first read
            return there
        if hits is None:
            if edited_there is not None:
                return self._edited(a, commit, edited_there[1], edited_there[0])
            return Resolution(Status.STALE, Reason.SEARCH_INCOMPLETE, a.path, a.symbol, a.discriminator)
        if not hits:
            dirty = self.index.dirty
            found = self._not_found_as_written(a, commit, edited_there)
            # the looks above re-read files the index had older versions of: one may hold the body
            # exactly now (an edit undone since the last read), and then it was moved, not edited
            again = self._found_again(a) if self.index.dirty != dirty else []
            hits = [(p, s) for p, s in again if (p, s.qualname, s.start_byte) not in stood]
            if not hits:
                return found
        kept = kept_its_name(self.index, a, hits, commit)
        if kept is None and len(hits) > 1 and commit is not None:
            # followed only to a place new since the anchored commit: of a renamed twin (`open` of
            # `class << self` renamed `open_file`) and its namesake that stood there, the new name
            new = [(p, s) for p, s in hits if not stood_there(self.index.root, p, s.qualname, commit)]
            if len(new) == 1:
                hits = new
        if kept is None and len(hits) > 1 and not namesake_among(a.symbol, hits):
            if symbol_bits(self.index, *hits[0]) < LOW_ENTROPY_BITS:
                # a trivial body (`sort_keys = True`) gone, with look-alikes under other names: deleted
                return Resolution(Status.INVALIDATED, Reason.ANCHOR_DELETED, a.path, a.symbol, a.discriminator)
        if kept is None and len(hits) > 1:
            specs = tuple(_spec(a.type, p, s.qualname, s.discriminator) for p, s in hits)
            return Resolution(
                Status.STALE, Reason.AMBIGUOUS_ANCHOR, a.path, a.symbol, a.discriminator, candidates=specs
            )
        path, s = kept or hits[0]
        if kept is None and symbol_bits(self.index, path, s) < LOW_ENTROPY_BITS:
            return Resolution(
                Status.STALE,
                Reason.LOW_ENTROPY,
                a.path,
                a.symbol,
                a.discriminator,
                candidates=(_spec(a.type, path, s.qualname, s.discriminator),),
            )
        if kept is None and stood_there(self.index.root, path, s.qualname, commit):
            # an identical body that stood there when the memory was written is a twin, not where the
            # anchored code went: the anchored code is gone
            return Resolution(
                Status.INVALIDATED,
                Reason.ANCHOR_DELETED,
                a.path,
                a.symbol,
                a.discriminator,
                candidates=(_spec(a.type, path, s.qualname, s.discriminator),),
            )
        self.index.remember_follow(a, path, s.qualname, s.discriminator)
        return Resolution(Status.ACTIVE, None, path, s.qualname, s.discriminator, s.start_line, s.end_line, True)

    def _found_again(self, a: Anchor) -> list:
        """Where the index has the body now, each place's file re-read first (as `_search` does)."""
        for path in {p for p, _ in self.index.find_symbols(a.hash)}:
            self.index.file(path)
        return self.index.find_symbols(a.hash)

    def _not_found_as_written(self, a: Anchor, commit: str | None, edited_there) -> Resolution | None:
        """The body is nowhere as written: renamed throughout, or edited where it went, or gone (None)."""
        renamed = renamed_throughout(self.index, a, lambda now: self._resembles(a, now), commit)
        if renamed is not None:
            path, s = renamed
            self.index.remember_follow(a, path, s.qualname, s.discriminator)
            return Resolution(Status.ACTIVE, None, path, s.qualname, s.discriminator, s.start_line, s.end_line, True)
        if edited_there is not None:
            # renamed or moved earlier, edited since: stale where it went, not deleted
            return self._edited(a, commit, edited_there[1], edited_there[0])
        moved = self._moved_and_edited(a) or namesake_new_since(self.index, a, commit)
        if moved is not None:
            return self._edited(a, commit, moved[1], moved[0])
        went = renamed_and_edited(self.index, a, self._old_text(a, commit), commit)
        return self._edited(a, commit, went[1], went[0]) if went is not None else None

    # -- whole files ------------------------------------------------------------------------
    def _file(self, a: Anchor, commit: str | None) -> Resolution:
        row = self._file_row(a.path)
        if row is not None and row.hash == a.hash:
            self._keep(a, None, None)
            return Resolution(Status.ACTIVE, None, a.path)
        if row is not None:
            diff = None
            if self.with_diff and row.skipped not in ("binary",):
                old = self._old_text(a, commit)
                new = self.index.read_text(a.path)
                if old is not None and new is not None:
                    diff = compact_diff(old, new, align=False)
            return Resolution(Status.STALE, Reason.FILE_EDITED, a.path, diff=diff)
        moved: FileRow | Resolution | None  # a followed file's row, then the resolution of a move
        for path, _, _ in self.index.follow(a):
            moved = self.index.file(path)
            if moved is not None and moved.hash == a.hash:
                return Resolution(Status.ACTIVE, None, path, followed=True)
        hits = self._search(a, self.index.find_files)
        if hits is None:
            return Resolution(Status.STALE, Reason.SEARCH_INCOMPLETE, a.path)
        if not hits:
            moved = self._moved_file(a)
            if moved is not None:
                return moved
            return Resolution(Status.INVALIDATED, Reason.ANCHOR_DELETED, a.path)
        if len(hits) > 1:
            return Resolution(Status.STALE, Reason.AMBIGUOUS_ANCHOR, a.path, candidates=tuple(h.path for h in hits))
        if file_bits(self.index, hits[0].path) < FILE_LOW_ENTROPY_BITS:
            return Resolution(Status.STALE, Reason.LOW_ENTROPY, a.path, candidates=(hits[0].path,))
        self.index.remember_follow(a, hits[0].path, None, None)
        return Resolution(Status.ACTIVE, None, hits[0].path, followed=True)

    def too_trivial_to_follow(self, a: Anchor) -> bool:
        """Whether the anchored body is too trivial to be followed if it moves (asked at write time)."""
        return too_trivial_to_follow(self.index, a)

    # -- helpers ----------------------------------------------------------------------------
    def _moved_and_edited(self, a: Anchor):
        """A file moved and edited at once (`git mv` + edits): the same name in one file of the
        same base name elsewhere is that symbol, stale where it went. Only when its file is gone:
        a name alone is weak evidence, a name in a namesake file is not."""
        if self.index.file(a.path) is not None or not a.symbol:
            return None
        base = a.path.rpartition("/")[2]
        found = [
            (p, s)
            for p, s in self.index.find_named(a.symbol)
            if p.rpartition("/")[2] == base and disc_matches(a.discriminator, s.discriminator)
        ]
        if len(found) == 1 and self.index.file(found[0][0]) is not None:
            fresh = [
                s for s in self.index.symbols(found[0][0], a.symbol) if disc_matches(a.discriminator, s.discriminator)
            ]
            if len(fresh) == 1 and self._resembles(a, self._text(found[0][0], fresh[0])):
                return found[0][0], fresh[0]
        return None

    def _moved_file(self, a: Anchor) -> Resolution | None:
        """A whole file moved and edited at once: one namesake file elsewhere, stale there."""
        base = a.path.rpartition("/")[2]
        found = [r for r in self.index.find_basename(base) if r.path != a.path]
        if len(found) != 1 or self.index.file(found[0].path) is None:
            return None
        path = found[0].path
        new = self.index.read_text(path) if found[0].skipped != "binary" else None
        if not self._resembles(a, new):
            return None
        diff = compact_diff(self._old_text(a, None) or "", new or "", align=False) if self.with_diff else None
        return Resolution(Status.STALE, Reason.FILE_EDITED, path, followed=True, diff=diff)


def _spec(kind: str, path: str, qualname: str, disc: str | None) -> str:
    return locator(kind, path, qualname, disc or None)
