"""What a resolver asks of the code index, asked once: the base of `Resolver` (resolve.py).

A file's row and a name's candidates are kept per resolver; the repository is swept at most once,
and only when a hash must be found elsewhere; the text an anchor had then comes from the snippet
kept at an earlier read, or from git; the text of each active anchor is kept for later diffs.
"""

from __future__ import annotations

from tether.anchor.model import Symbol
from tether.index.background import running, wait
from tether.index.code_index import CodeIndex, FileRow
from tether.index.db import transaction
from tether.lifecycle.diff import alike, text_from_git
from tether.lifecycle.formats import OldHashes
from tether.store.model import Anchor

MAX_SNIPPET = 64_000
# How long a sweep's "not found anywhere" stands while nothing that could move the anchor changed.
SEARCH_TTL_S = 600.0
# How alike a namesake must be to the anchored text to count as it, moved and edited.
RESEMBLANCE = 0.6


class IndexLookups:
    """The index's answers a resolver needs, each asked once, and the snippets it keeps."""

    def __init__(self, index: CodeIndex, with_diff: bool = True, deadline: float | None = None) -> None:
        self.index = index
        self.with_diff = with_diff
        self.deadline = deadline  # when a sweep must stop (`time.monotonic()`); None: sweep to the end
        self._swept = False
        self._cut_short = False  # a sweep stopped at the deadline: "found nowhere" is not known
        self._snippets: dict[str, tuple[str, int | None, int | None]] = {}  # hash -> where to read it
        self._old_hashes = OldHashes(index)
        # each file's row, asked once per resolver (10,000 memories share 1,000 files) until a sweep
        self._rows: dict[str, FileRow | None] = {}
        # candidates asked in batches (`memories`): trusted while no file was re-read since
        self._named: dict[tuple[str, str], list[Symbol]] = {}
        self._named_at = -1

    def flush(self) -> None:
        """Persist snippets seen at their anchors, so later diffs have the 'then' side: the text of
        each active anchor whose hash has none kept yet, asked of the index in batches."""
        if not self._snippets:
            return
        wanted = list(self._snippets)
        have: set[str] = set()
        for i in range(0, len(wanted), 500):
            have.update(self.index.snippets_kept(wanted[i : i + 500]))
        texts = {}
        for h in wanted:
            if h not in have:
                path, start, end = self._snippets[h]
                text = self.index.read_text(path, start, end)
                if text is not None:
                    texts[h] = text
        self._snippets.clear()
        if texts:
            with transaction(self.index.conn):
                for h, text in texts.items():
                    self.index.keep_snippet(h, text)

    def _file_row(self, path: str) -> FileRow | None:
        if path not in self._rows:
            self._rows[path] = self.index.file(path)
        return self._rows[path]

    def _candidates(self, a: Anchor) -> list[Symbol]:  # the anchored name's symbols in the anchored file
        got = self._named.get((a.path, a.symbol)) if self._named_at == self.index.dirty else None  # type: ignore[arg-type]
        return list(got) if got is not None else self.index.symbols(a.path, a.symbol)

    def _search(self, a: Anchor, find):
        """Where else the anchored hash is, on an index brought up to date only when needed; None
        when that needed a sweep and the sweep stopped at the deadline (hits in part of the
        repository prove neither a unique match nor an absence).

        A body can only have moved away if its file changed (a move cuts it out) or git moved
        files; otherwise the last sweep's answer stands for a while, so a deleted anchor does not
        cost a repository sweep on every read. Hits are re-verified against the files either way.
        """
        stamp = self.index.search_stamp(a.path)
        if not self._swept and not self.index.searched(a.hash, stamp, SEARCH_TTL_S):
            self._sweep()
            if self._cut_short:
                return None
        hits = find(a.hash)
        if not self._swept:
            for path in {h[0] if isinstance(h, tuple) else h.path for h in hits}:
                self.index.file(path)
            hits = find(a.hash)
        self.index.record_search(a.hash, stamp)
        return hits

    def _sweep(self) -> None:
        if self._swept or self._cut_short:
            return
        if self.deadline is not None and running(self.index.root):
            # a background index is building it: a caller in a hurry would only race it for
            # the same files, and wait its whole deadline every time, until it is done
            self._cut_short = True
            return
        if self.deadline is None:
            wait(self.index.root)  # then the sweep below reads only what changed since
        done = self.index.sweep(deadline=self.deadline)
        self._rows.clear()
        self._named.clear()
        self._swept = bool(done["complete"])
        self._cut_short = not self._swept

    def _text(self, path: str, s) -> str | None:
        return self.index.read_text(path, s.start_byte, s.end_byte)

    def _keep(self, a: Anchor, start: int | None, end: int | None) -> None:
        if a.hash in self._snippets or (end is not None and start is not None and end - start > MAX_SNIPPET):
            return
        if a.type == "file" and a.size > MAX_SNIPPET:
            return
        self._snippets[a.hash] = (a.path, start, end)  # read at flush, if the index keeps none yet

    def _old_text(self, a: Anchor, commit: str | None) -> str | None:
        text = self.index.snippet(a.hash)
        if text is None:
            try:
                text = text_from_git(self.index.root, commit, a.path, a.hash, None if a.type == "file" else a.symbol)
            except (OSError, ValueError):  # git's own failures are handled inside: None
                text = None
        return text

    def _resembles(self, a: Anchor, now: str | None) -> bool:
        """Whether the text found looks like the anchored text then: a namesake that merely
        existed elsewhere all along must not be taken for the anchor moved."""
        return alike(self._old_text(a, None), now, RESEMBLANCE)
