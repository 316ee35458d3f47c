"""Push-recall's decision, pure: which one memory (if any) a prompt earns, given the session so far.

Silence is the resting state. A memory is pushed only when all hold:
- it is the top candidate, its score clears the absolute floor, beats the runner-up's by
  DOMINANCE and the full recall ranking (lexicon and code field included) puts it first too; or
  the prompt names a file it is anchored to (its only memory, or the one the prompt's other words
  single out among several), and that file's once-per-session bypass is unspent;
- the session's dedup window allows it: a memory that was pushed and then used (credited by Stop)
  stays quiet for the session; one pushed and ignored comes back only on a materially stronger
  score (RISE x the score it was last pushed with);
- its anchors resolve as active right now (`is_active`, asked of one candidate at a time).
At most one memory per prompt. Compaction empties the window of pushed-and-ignored memories (the
model no longer sees their text); used ones stay quiet for the whole session.
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable, Iterable, Mapping, Sequence

from tether.surfaces.hooks.scoring import DEFAULT_FLOOR  # noqa: F401  (the floor lives with the score scale it is on)
from tether.surfaces.hooks.session import Seen, SessionState

RISE = 1.5  # an ignored memory re-fires only at >= 1.5x the score it was last pushed with
# Only a clear winner is pushed: the top score must be >= 1.4x the runner-up's. Two memories that
# match a prompt about equally mean the prompt does not say which one it needs (tests/bench/
# push_floor.py: at the floor, this gate turns 8 wrong pushes in 90 into 3 in 80).
DOMINANCE = 1.4
MAX_CHECKS = 3  # candidates whose anchors are resolved per prompt, at most (latency bound)

Candidate = tuple[str, float]  # (memory id, score), best first
Scorer = Callable[[str], list[Candidate]]


class Decision(
    namedtuple("Decision", "memory_id score via bypass_path checked", defaults=(None, 0.0, "none", None, ()))
):
    """What one prompt earns (a frozen record, a named tuple for the hook's start-up cost).

    memory_id: the memory to push, or None; score: its score; via: floor | bypass | none;
    bypass_path: the anchored file whose bypass it spent; checked: candidates whose anchors were
    resolved (and why not chosen).
    """

    __slots__ = ()


def runner_up(candidates: Sequence[Candidate]) -> float:
    return candidates[1][1] if len(candidates) > 1 else 0.0


def allowed(memory_id: str, score: float, window: Mapping[str, Seen]) -> bool:
    """The rising bar: used stays quiet; ignored needs RISE x its last score."""
    seen = window.get(memory_id)
    if seen is None:
        return True
    if seen.used:
        return False
    return score >= RISE * seen.score


def decide(
    candidates: Sequence[Candidate],
    state: SessionState,
    floor: float,
    is_active: Callable[[str], bool],
    named: Mapping[str, Sequence[str]] | None = None,
    confirm: Callable[[str], bool] | None = None,
    in_file: Mapping[str, float] | None = None,
) -> Decision:
    """`named`: anchored files the prompt names -> ids of live memories anchored there, in mention order.
    `confirm`: whether the full recall ranking puts this memory first too (a floor push must agree).
    `in_file`: scores of the prompt without its paths, to choose among a named file's memories
    (a path names every memory on its file alike); the candidates' scores when not given."""
    checked: list[str] = []

    def first_active(pool: Iterable[Candidate]) -> Candidate | None:
        for mid, score in pool:
            if len(checked) >= MAX_CHECKS:
                return None
            if not allowed(mid, score, state.window):
                continue
            checked.append(mid)
            if is_active(mid):
                return mid, score
        return None

    above = [c for c in candidates[:1] if c[1] > floor and c[1] >= DOMINANCE * runner_up(candidates)]  # above, not at
    above = [c for c in above if confirm is None or confirm(c[0])]
    hit = first_active(above)
    if hit:
        return Decision(hit[0], hit[1], "floor", checked=tuple(checked))
    scores = dict(candidates) if in_file is None else in_file
    for path, ids in (named or {}).items():
        if path in state.bypassed:
            continue
        pool = sorted(((i, scores.get(i, 0.0)) for i in dict.fromkeys(ids)), key=lambda c: -c[1])
        if len(pool) > 1 and not (pool[0][1] > 0 and pool[0][1] >= DOMINANCE * pool[1][1]):
            continue  # several memories on the file and the prompt's words single none out: a guess
        hit = first_active(pool)
        if hit:
            return Decision(hit[0], hit[1], "bypass", path, tuple(checked))
    return Decision(checked=tuple(checked))


def after_push(state: SessionState, d: Decision) -> SessionState:
    """The session after `d` was injected: the memory enters the window at its score."""
    if d.memory_id is None:
        return state.evolve(prompts=state.prompts + 1)
    window = dict(state.window)
    window[d.memory_id] = Seen(d.score, False)
    bypassed = state.bypassed + ((d.bypass_path,) if d.bypass_path else ())
    return state.evolve(window=window, bypassed=bypassed, prompts=state.prompts + 1)


def after_credit(state: SessionState, ids: Iterable[str]) -> SessionState:
    """Credited memories that were pushed are marked used: they stay quiet for the session."""
    window = dict(state.window)
    changed = False
    for i in ids:
        if i in window and not window[i].used:
            window[i] = Seen(window[i].score, True)
            changed = True
    return state.evolve(window=window) if changed else state


def after_compaction(state: SessionState) -> SessionState:
    used = {k: v for k, v in state.window.items() if v.used}
    return state.evolve(window=used, compactions=state.compactions + 1)
