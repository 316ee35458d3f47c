"""The replay both history benches run: anchor at one release, check the next, judge each verdict.

For each pair of consecutive commits (A, B): check out A, anchor the symbols of the files A..B
changes, check out B, check, and judge every verdict with an oracle tether does not share (Python's
`ast`, acorn): an active memory must point at the anchored code, else it is a FALSE FRESH. Then A
is checked out again and every memory must be active (healed).
"""

from __future__ import annotations

import random
import re
import shutil
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from tests.bench import Table, git


class Oracle(Protocol):
    name: str  # how the tables name it: "ast", "acorn"

    def fingerprints(self, path: Path, queries: list[tuple[str, int, int]]) -> list[str | None]:
        """For each (name, first line, last line): the definition found there, normalized, or None."""

    def everywhere(self, repo: Path) -> Counter:
        """How many definitions of each fingerprint the checked-out tree holds."""

    def reset(self) -> None:
        """Forget what was read: a checkout happened."""


@dataclass(frozen=True)
class Plan:
    files: re.Pattern  # which changed files are anchored
    kinds: tuple[str, ...]  # which symbol kinds the oracle can locate
    per_pair: int  # memories per commit pair: one big release must not take all night
    per_file: int  # ... and one huge file must not fill the pair


def replay(title: str, repo: Path, oracle: Oracle | None, plan: Plan) -> Table:
    """Without an oracle the verdicts are counted but not judged (heals are still checked)."""
    from tether.anchor.extract import analyze
    from tether.service import Tether

    revs = git(repo, "rev-list", "--reverse", "HEAD").split()
    rng = random.Random(0)  # the same memories on every run
    tally: Counter = Counter()
    wrong: list[str] = []
    odd: list[str] = []  # what the oracle calls a cosmetic stale or a missed follow, to look into by hand
    unlocated: list[str] = []
    said = oracle.name if oracle else "the oracle"

    def checkout(rev: str) -> None:
        git(repo, "checkout", "-q", "--detach", rev)
        if oracle:
            oracle.reset()

    for a, b in zip(revs, revs[1:]):
        pair = f"{a[:8]}..{b[:8]}"
        checkout(a)
        shutil.rmtree(repo / ".tether", ignore_errors=True)
        changed = sorted(
            p for p in git(repo, "diff", "--name-only", "--no-renames", a, b).splitlines() if plan.files.search(p)
        )
        rng.shuffle(changed)  # spread the cap over the project, not over its first directory
        t = Tether(repo)
        anchored: dict[str, tuple[str, str | None]] = {}
        for rel in changed:
            path = repo / rel
            if not path.is_file() or len(anchored) >= plan.per_pair:
                continue
            syms = [s for s in analyze(rel, path.read_bytes()).symbols if s.kind in plan.kinds]
            fps = (
                oracle.fingerprints(path, [(s.qualname.rsplit(".", 1)[-1], s.start_line, s.end_line) for s in syms])
                if oracle
                else [None] * len(syms)
            )
            in_file = 0
            for s, fp in zip(syms, fps):
                if len(anchored) >= plan.per_pair or in_file >= plan.per_file:
                    break
                if oracle and fp is None:  # the oracle sees no such definition there: nothing to judge against
                    tally["not located by the oracle at anchoring"] += 1
                    unlocated.append(
                        f"left out: {rel}::{s.qualname} ({s.kind}, lines {s.start_line}-{s.end_line}, {pair})"
                    )
                    continue
                spec = f"{rel}::{s.qualname}" + (f"@{s.discriminator}" if s.discriminator else "")
                m = t.remember(f"Replay note {len(anchored)}.", [spec], force=True)
                anchored[m.id] = (spec, fp)
                in_file += 1
        t.close()

        checkout(b)
        t = Tether(repo)
        everywhere = None
        for v in t.check().verdicts:
            spec, fp = anchored[v.memory.id]
            ((anchor, r),) = v.anchors
            tally["memories"] += 1
            where = repo / (r.path or anchor.path)
            name = (r.symbol or anchor.symbol or "").rsplit(".", 1)[-1]
            now = (
                oracle.fingerprints(where, [(name, r.start_line, r.end_line)])[0]
                if oracle and where.is_file() and r.start_line
                else None
            )
            if v.status == "active":
                tally["active, followed" if r.followed else "active, in place"] += 1
                if oracle and now != fp:  # finding nothing there counts too: the claim is unverified
                    tally["FALSE FRESH"] += 1
                    how = f"{said} finds no such definition" if now is None else f"{said}: the code differs"
                    wrong.append(f"false fresh: {spec} -> {r.path}::{r.symbol}, {how} ({pair})")
                elif oracle and r.followed and r.symbol != anchor.symbol and _still_named(t, repo, oracle, anchor, fp):
                    tally["WRONG FOLLOW"] += 1  # a twin's identical body: right code, wrong place
                    wrong.append(
                        f"wrong follow: {spec} -> {r.path}::{r.symbol}, while {said} finds the "
                        f"anchored code under its own name ({pair})"
                    )
            elif v.status == "stale":
                tally[f"stale, {r.reason}"] += 1
                if oracle is not None and now == fp:
                    tally["oracle equal, yet stale"] += 1
                    odd.append(f"stale, {said} equal: {spec} -> {r.path}::{r.symbol} {r.reason} ({pair})")
            else:
                tally[f"{v.status}, {r.reason}"] += 1
                if oracle:
                    everywhere = oracle.everywhere(repo) if everywhere is None else everywhere
                    if everywhere[fp] == 1:
                        tally["deleted, one identical definition elsewhere"] += 1
                        odd.append(
                            f"missed follow: {spec} {v.status} {r.reason}, one {said}-identical "
                            f"definition {fp[:12]} exists ({pair})"
                        )
        t.close()

        checkout(a)
        t = Tether(repo)
        for v in t.check().verdicts:
            if v.status != "active":
                tally["HEAL FAILED"] += 1
                wrong.append(f"not healed: {anchored[v.memory.id][0]} {v.status} {v.reason} ({pair})")
        t.close()

    def judged(key: str) -> str:
        return str(tally[key]) if oracle else "not judged"

    table = Table(f"{title}, {len(revs)} commits")
    table.add(
        f"memories anchored ({', '.join(plan.kinds)} of the files each commit changed, at most "
        f"{plan.per_pair} a commit, {plan.per_file} a file)",
        f"{tally['memories']:,}",
    )
    if oracle:
        table.add(
            f"left out: a symbol {said} finds no definition of at its lines",
            f"{tally['not located by the oracle at anchoring']:,}",
        )
    for key in sorted(k for k in tally if k.startswith(("active", "stale", "invalidated"))):
        table.add(key, f"{tally[key]:,}")
    table.add(
        f"false fresh (active, but {said} says the code differs)",
        judged("FALSE FRESH"),
        "0",
        tally["FALSE FRESH"] == 0 if oracle else None,
    )
    table.add(
        "followed to another name while the anchored code still stands under its own (wrong follow)",
        judged("WRONG FOLLOW"),
        "0",
        tally["WRONG FOLLOW"] == 0 if oracle else None,
    )
    table.add(
        "not healed on checking the older commit out again", str(tally["HEAL FAILED"]), "0", tally["HEAL FAILED"] == 0
    )
    table.add(
        f"stale, though {said} calls the code unchanged (a cosmetic edit tether counts)",
        judged("oracle equal, yet stale"),
    )
    table.add(
        f"deleted, though one {said}-identical definition exists (missed follow)",
        judged("deleted, one identical definition elsewhere"),
    )
    if oracle is None:
        table.notes.append("no oracle here: verdicts counted, not judged")
    table.notes += (wrong + odd + unlocated)[:20]
    table.data = dict(tally)
    return table


def _still_named(t, repo: Path, oracle: Oracle, anchor, fp: str | None) -> bool:
    """Whether the anchored code still stands under the anchored name somewhere: then a follow
    to another name went to a twin (tether's index says where the name is, the oracle what is there)."""
    name = (anchor.symbol or "").rsplit(".", 1)[-1]
    for path, s in t.index.find_named(anchor.symbol):
        if (repo / path).is_file() and oracle.fingerprints(repo / path, [(name, s.start_line, s.end_line)])[0] == fp:
            return True
    return False
