"""Small helpers for the limpet port: reading one memory's verdict out of `check --json`.

The scenarios come from limpet's published test suite (github.com/KSym04/limpet, tests/*.rs),
re-typed as facts about behaviour; these helpers only read what the real CLI prints.
"""

from __future__ import annotations

import orjson

# limpet's golden fixture (tests/anchor_golden.rs ORIGINAL), a Python function worth remembering.
SCORE = """
def compute_health_score(issues):
    critical = sum(1 for i in issues if i.level == "critical")
    total = len(issues)
    return 100 - critical * 10 - (total - critical) * 2
"""
SCORE_FACT = "health score subtracts 10 per critical issue, 2 per non-critical"


def verdict(repo, mid: str) -> tuple[str, str | None]:
    """(status, reason) of memory `mid` as `check` reports it now."""
    item = repo.check()[mid]
    return item["status"], item["reason"]


def anchor_of(repo, mid: str, i: int = 0) -> dict:
    """Anchor `i` of memory `mid` as it resolves now (path, symbol, discriminator, lines, was, ...)."""
    return repo.check()[mid]["anchors"][i]


def stored_anchors(repo, mid: str) -> list[dict]:
    """The anchors as the memory file stores them (hash, size, discriminator), via `show`."""
    return repo.json("show", mid)["data"]["memory"]["anchors"]


def remember_json(repo, text: str, *anchors: str, kind: str = "fact", extra: tuple[str, ...] = ()) -> tuple[int, dict]:
    """`remember --json` that may fail: (exit code, parsed envelope)."""
    args = ["remember", text, "--kind", kind, *extra]
    for a in anchors:
        args += ["--anchor", a]
    proc = repo.run(*args, "--json", check=False)
    return proc.returncode, orjson.loads(proc.stdout)


def recall(repo, task: str, *extra: str) -> dict:
    """`recall --json`'s envelope."""
    return repo.json("recall", task, *extra)


def recalled_ids(repo, task: str, *extra: str) -> list[str]:
    return [item["id"] for item in recall(repo, task, *extra)["data"]["items"]]


def state(repo, mid: str, i: int = 0) -> tuple[str, str | None, dict]:
    """(status, reason, anchor `i`) of memory `mid`, from one `check`."""
    item = repo.check()[mid]
    return item["status"], item["reason"], item["anchors"][i]
