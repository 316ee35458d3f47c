"""How long a hook may take, and how much of that it may spend sweeping the repository.

Claude Code kills a hook at its timeout (hooks/hooks.json gives each one a margin above these), so
a hook gives up on its own first; a first index of a large repository takes minutes, so a hook
sweeps for a share of its budget only and leaves the rest to a background index. Stdlib only.
"""

from __future__ import annotations

import time

from tether.settings import env_float

# Seconds a handler may run before it gives up on its own.
BUDGET = {"UserPromptSubmit": 8, "PostToolUse": 8, "Stop": 25, "PreCompact": 8, "SessionStart": 25}
# The share of its budget a hook may spend sweeping (TETHER_HOOK_SWEEP_S overrides, up to the max).
SWEEP_SHARE = 0.5
MAX_SWEEP_SHARE = 0.8
_sweep_until: float | None = None


def start(event: str) -> float:
    """The hook for `event` starts now: its sweep deadline is set; returns its whole budget."""
    global _sweep_until
    budget = BUDGET.get(event, 8)
    _sweep_until = time.monotonic() + sweep_seconds(budget)
    return budget


def sweep_deadline() -> float | None:
    """When a sweep started by this hook must stop (a `time.monotonic()` instant)."""
    return _sweep_until


def sweep_seconds(budget: float) -> float:
    return min(env_float("TETHER_HOOK_SWEEP_S", budget * SWEEP_SHARE, minimum=0.0), budget * MAX_SWEEP_SHARE)
