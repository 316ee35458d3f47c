"""Claude Code hooks: stdlib + the tether core only (never `mcp`), fail open, lazy imports.

Entry point: `main(event, raw=None)`, used by hooks/*.py through hooks/launcher.py and by
`tether hook EVENT`. ARCHITECTURE.md ("The hooks") says what each one does.
"""

from tether.surfaces.hooks.runner import main

__all__ = ["main"]
