"""How much a memory is trusted: its source's base, faded by the time since it was last verified.

Stdlib only and import-light: the prompt hook ranks with `aged` before anything is resolved, and
the lifecycle applies the same curve (times the stale penalty) to what it serves.
"""

from __future__ import annotations

SOURCES = ("explicit", "verified")
BASE_CONFIDENCE = {"explicit": 0.8, "verified": 0.95}  # verified: a command re-checked it
BASE_CONFIDENCE_TOP = max(BASE_CONFIDENCE.values())
HALF_LIFE_DAYS = 180.0  # a memory unverified for six months counts half
DECAY_FLOOR = 0.2  # ... and never less than a fifth: old is not wrong
STALE_PENALTY = 0.6


def aged(base: float, age_days: float) -> float:
    """`base` faded by `age_days` since the memory was last verified."""
    return base * max(DECAY_FLOOR, 0.5 ** (max(0.0, age_days) / HALF_LIFE_DAYS))
