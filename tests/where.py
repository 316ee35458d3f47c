"""Where the test suite's own files are, for tests in any folder under tests/."""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent  # the checkout
FIXTURES = TESTS / "fixtures"
DATA = TESTS / "data"
PACKAGE = ROOT / "server" / "tether"
