"""tether PreCompact hook: reset the session's push-recall dedup window.

Thin on purpose: the launcher finds the plugin's venv and runs tether.surfaces.hooks; it always exits 0.
"""

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))  # for launcher.py, wherever this lives
from launcher import run_hook  # noqa: E402

run_hook("PreCompact")
