"""Push-recall floor calibration: which absolute score a memory must reach to be pushed unasked.

Related prompts are the recall-quality tasks (each names the one memory it needs); unrelated
prompts (data/push_prompts.json) are everyday development requests from other domains. Every
prompt is scored the way the UserPromptSubmit hook scores it (hooks.scoring.PushIndex). A push is
right only when the top candidate is the expected memory; any push on an unrelated prompt is
wrong. The floor is chosen on one half of the prompts (even positions) as the lowest score that
keeps pushes >= 90% right and unrelated pushes <= 1 in 40, with a 10% margin, then reported on
the other half, which it never saw.

Re-calibrate after changing the ranking formula in search.py or hooks/scoring.py:

    python -m tests.bench push_floor

then set DEFAULT_FLOOR in server/tether/hooks/scoring.py to the `chosen floor` it prints.
"""

from __future__ import annotations

from pathlib import Path

import orjson

from tests.bench import Table, workdir
from tests.bench.recall_quality import build_store, load

PROMPTS = Path(__file__).with_name("data") / "push_prompts.json"
PRECISION = 0.90
UNRELATED_RATE = 1 / 40
MARGIN = 1.10


def score_all(root: Path, ids: dict[str, str], prompts: list[str]) -> list[tuple[str | None, float]]:
    """The top candidate (memory key) and its push score, per prompt; 0 unless it beats the
    runner-up by push.DOMINANCE and the full ranking agrees (the hook pushes only a clear winner)."""
    from tether.surfaces.hooks.push import DOMINANCE, runner_up
    from tether.surfaces.hooks.scoring import PushIndex

    ix = PushIndex(root)
    try:
        out = []
        for p in prompts:
            found = ix.candidates(p)
            clear = bool(found) and found[0][1] >= DOMINANCE * runner_up(found) and ix.agrees(p, found[0][0])
            out.append((ids.get(found[0][0]), found[0][1]) if clear else (None, 0.0))
        return out
    finally:
        ix.close()


def outcome(related, expect, unrelated, floor: float) -> dict:
    pushed_rel = [(got, exp) for (got, s), exp in zip(related, expect) if s >= floor]
    right = sum(1 for got, exp in pushed_rel if got == exp)
    pushed_unrel = sum(1 for _, s in unrelated if s >= floor)
    pushes = len(pushed_rel) + pushed_unrel
    return {
        "floor": floor,
        "pushes": pushes,
        "right": right,
        "precision": right / pushes if pushes else 1.0,
        "recall": right / len(related) if related else 0.0,
        "unrelated_rate": pushed_unrel / len(unrelated) if unrelated else 0.0,
        "unrelated_pushes": pushed_unrel,
    }


def choose(related, expect, unrelated) -> float:
    """The lowest floor meeting both targets on this sample, raised by the margin."""
    for floor in sorted({round(s, 4) for _, s in related + unrelated if s > 0}):
        o = outcome(related, expect, unrelated, floor)
        if o["precision"] >= PRECISION and o["unrelated_rate"] <= UNRELATED_RATE:
            return round(floor * MARGIN, 2)
    return float("inf")


def run(small: bool = False) -> list[Table]:
    from tether.surfaces.hooks.scoring import DEFAULT_FLOOR

    doc = load(small)
    unrelated_prompts = orjson.loads(PROMPTS.read_bytes())["unrelated"]
    if small:
        unrelated_prompts = unrelated_prompts[:20]
    with workdir("push-floor") as base:
        root = base / "store"
        t, ids = build_store(root, doc["memories"])
        t.close()
        tasks = doc["tasks"]
        related = score_all(root, ids, [x["task"] for x in tasks])
        unrelated = score_all(root, ids, unrelated_prompts)
    expect = [x["expect"] for x in tasks]
    fit = (related[0::2], expect[0::2], unrelated[0::2])
    held = (related[1::2], expect[1::2], unrelated[1::2])
    chosen = choose(*fit)
    table = Table(
        f"Push-recall floor ({len(tasks)} related prompts, {len(unrelated_prompts)} unrelated, "
        f"{len(doc['memories'])} memories)"
    )
    table.add("chosen floor (calibration half, +10% margin)", f"{chosen:g}")
    table.add("floor in use (DEFAULT_FLOOR)", f"{DEFAULT_FLOOR:g}")
    for label, sample in (("held-out half", held), ("all prompts", tuple(a + b for a, b in zip(fit, held)))):
        o = outcome(*sample, DEFAULT_FLOOR)
        table.add(
            f"{label}: pushes that are the right memory",
            f"{o['precision']:.1%} ({o['right']}/{o['pushes']})",
            ">= 90%",
            o["precision"] >= PRECISION,
        )
        table.add(
            f"{label}: unrelated prompts pushed",
            f"{o['unrelated_pushes']}/{len(sample[2])}",
            "<= 1 in 40",
            o["unrelated_rate"] <= UNRELATED_RATE,
        )
        table.add(f"{label}: related prompts that get their memory", f"{o['recall']:.1%}")
    top_unrelated = sorted((s for _, s in unrelated), reverse=True)[:3]
    table.notes.append("highest unrelated scores: " + ", ".join(f"{s:.2f}" for s in top_unrelated))
    table.notes.append(
        "a missed push costs nothing (the agent can recall); a wrong one costs attention: the floor favours silence"
    )
    table.data = {"chosen": chosen, "floor": DEFAULT_FLOOR, "related": related, "unrelated": unrelated}
    return [table]


if __name__ == "__main__":
    for t in run():
        print(t.markdown())
