"""Numbers users set in the environment. Imported by hooks on every prompt: standard library only."""

from __future__ import annotations

import math
import os


def env_float(name: str, default: float, minimum: float = float("-inf")) -> float:
    """`name`'s value as a finite number not below `minimum`, else `default` (unset, garbage, NaN)."""
    try:
        value = float(os.environ.get(name, ""))
    except ValueError:
        return default
    return value if math.isfinite(value) and value >= minimum else default
