"""Claude Code hooks: stdlib + the tether core only (never `mcp`), fail open, lazy imports.

Entry point: `main(event, raw=None)`, used by hooks/*.py through hooks/launcher.py and by
`tether hook EVENT`. See DESIGN §7 for what each hook does.
"""

from .runner import main

__all__ = ["main"]
