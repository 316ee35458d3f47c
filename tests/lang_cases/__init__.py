"""One small, real-looking program per language, in every shape the lifecycle table needs.

Each case is a set of whole-file variants so the tests read like a developer's edits:
`source` holds the anchored symbol; the other variants are that file after one kind of change.
"""

from __future__ import annotations

from .base import LangCase
from .bash import BASH
from .c import C
from .cpp import CPP
from .csharp import CSHARP
from .dart import DART
from .elixir import ELIXIR
from .gdscript import GDSCRIPT
from .go import GO
from .haskell import HASKELL
from .java import JAVA
from .javascript import JAVASCRIPT
from .kotlin import KOTLIN
from .lua import LUA
from .ocaml import OCAML
from .php import PHP
from .python import PYTHON
from .ruby import RUBY
from .rust import RUST
from .scala import SCALA
from .sql import SQL
from .svelte import SVELTE
from .swift import SWIFT
from .tsx import TSX
from .typescript import TYPESCRIPT
from .vue import VUE
from .zig import ZIG

CASES: dict[str, LangCase] = {c.name: c for c in (PYTHON, JAVASCRIPT, TYPESCRIPT, TSX, GO, RUST, JAVA)}
CASES.update({c.name: c for c in (C, CPP, CSHARP, RUBY, PHP, KOTLIN, SWIFT, SCALA, LUA)})
CASES.update({c.name: c for c in (BASH, ELIXIR, DART, ZIG, HASKELL, OCAML, GDSCRIPT, SQL, VUE, SVELTE)})

__all__ = ["CASES", "LangCase"]
