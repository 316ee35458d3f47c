"""One small, real-looking program per language, in every shape the lifecycle table needs.

Each case is a set of whole-file variants so the tests read like a developer's edits:
`source` holds the anchored symbol; the other variants are that file after one kind of change.
"""

from __future__ import annotations

from .base import LangCase
from .go import GO
from .java import JAVA
from .javascript import JAVASCRIPT
from .python import PYTHON
from .rust import RUST
from .tsx import TSX
from .typescript import TYPESCRIPT

CASES: dict[str, LangCase] = {c.name: c for c in (PYTHON, JAVASCRIPT, TYPESCRIPT, TSX, GO, RUST, JAVA)}

__all__ = ["CASES", "LangCase"]
