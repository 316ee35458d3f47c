"""The supersession graph, from links anyone can edit: which memories a live successor closes,
and which links are broken (a cycle, an id that names no memory).

A live memory that `supersedes` another closes it, even if the write that sets the old one's
`valid_to` was cut short by a crash: the successor is the truth. But a cycle (A supersedes B,
B supersedes A, by hand or by a bad merge) has no successor to believe: its links close nothing,
its memories stay visible, and `check` and `doctor` flag it. So does a `superseded_by` whose
target does not supersede the memory (a hand edit of one side): it closes nothing. Stdlib only: the prompt hook's index
sync calls `closed_by_successor`.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Mapping

CLOCK_SKEW_S = 300  # a time this far ahead of the clock is another machine's skew; further is a lie
LINK_KINDS = ("supersedes", "superseded_by", "contradicts", "supports")


def in_cycles(supersedes: Mapping[str, Iterable[str]]) -> set[str]:
    """Ids on a cycle of `supersedes` edges (Tarjan's strongly connected components, iterative)."""
    # only ids with an edge can be on a cycle: of 10,000 memories, most supersede nothing
    graph = {k: edges for k, v in supersedes.items() if v and (edges := [t for t in v if t in supersedes])}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: set[str] = set()
    counter = 0
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph.get(child, ()))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    top = stack.pop()
                    on_stack.discard(top)
                    component.append(top)
                    if top == node:
                        break
                if len(component) > 1 or node in graph.get(node, ()):
                    out.update(component)
    return out


def closed_by_successor(supersedes: Mapping[str, Iterable[str]], live: set[str]) -> dict[str, str]:
    """Superseded id -> the live successor that closes it; nothing on a cycle closes or is closed."""
    cyclic = in_cycles(supersedes)
    out: dict[str, str] = {}
    for successor, olds in supersedes.items():
        if successor not in live or successor in cyclic:
            continue
        for old in olds:
            if old not in cyclic and old != successor:
                out.setdefault(old, successor)
    return out


def superseded(memories) -> set[str]:
    """Ids of the memories (objects with `id`, `live`, `links`) that a live successor closes."""
    # only memories that supersede something have edges: of 10,000, a handful
    graph = {m.id: list(edges) for m in memories if (edges := m.links.get("supersedes"))}
    return set(closed_by_successor(graph, {m.id for m in memories if m.live}))


def closed_as(m, memories) -> tuple[str, list[str]] | None:
    """How a memory is closed, None while it is current: ("superseded", its successors' ids) or
    ("retired", [])."""
    gone = superseded(memories)
    if m.live and m.id not in gone:
        return None
    after = [x.id for x in memories if m.id in x.links.get("supersedes", ())]
    after += [i for i in m.links.get("superseded_by", ()) if i not in after]
    return ("superseded", after) if after or m.live else ("retired", [])


def current(memories: list) -> list:
    """The live memories that no live successor closes: what is believed now."""
    closed = superseded(memories)
    now = time.time()
    return [m for m in memories if m.in_force(now) and m.id not in closed]


def problems(links: Mapping[str, Mapping[str, Iterable[str]]]) -> list[tuple[str, str, str]]:
    """(memory id, problem, one line) for each broken link: `supersede_cycle`, `one_sided_link` (a
    `superseded_by` its target does not answer with `supersedes`), `missing_link`."""
    known = set(links)
    out = []
    cyclic = in_cycles({k: list(v.get("supersedes", ())) for k, v in links.items()})
    for mid in sorted(cyclic):
        others = [t for t in links[mid].get("supersedes", ()) if t in cyclic]
        out.append(
            (
                mid,
                "supersede_cycle",
                f"supersedes {', '.join(t[:8] for t in others)}, which leads back to "
                "it: the cycle closes nothing; supersede or retire one side",
            )
        )
    for mid in sorted(links):
        for target in links[mid].get("superseded_by", ()):
            if target in known and mid not in links[target].get("supersedes", ()):
                # only the successor's `supersedes` (or the memory's own valid_to) closes a memory
                out.append(
                    (
                        mid,
                        "one_sided_link",
                        f"superseded_by {target[:8]}, which does not supersede it: the link closes nothing; "
                        "supersede or retire it",
                    )
                )
        for kind in LINK_KINDS:
            for target in links[mid].get(kind, ()):
                if target not in known:
                    out.append(
                        (
                            mid,
                            "missing_link",
                            f"{kind} {target[:8]}, which is no memory here (deleted, or in a quarantined file)",
                        )
                    )
    return out


def chain(start, memories: list) -> list:
    """The supersession chain through `start`, oldest first: back along `supersedes`, then forward
    along `superseded_by` (or a successor's `supersedes`, if the write that links back was cut
    short); a cycle ends it."""
    by_id = {m.id: m for m in memories}
    out = [start]
    seen = {start.id}
    cur = start
    while cur.links.get("supersedes"):
        prev = by_id.get(cur.links["supersedes"][0])
        if prev is None or prev.id in seen:
            break
        out.insert(0, prev)
        seen.add(prev.id)
        cur = prev
    cur = start
    successors = {old: m for m in memories for old in m.links.get("supersedes", [])}
    while True:
        nxt = by_id.get((cur.links.get("superseded_by") or [None])[0] or "") or successors.get(cur.id)
        if nxt is None or nxt.id in seen:
            break
        out.append(nxt)
        seen.add(nxt.id)
        cur = nxt
    return out
