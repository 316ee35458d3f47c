"""One small, real-looking program per language, in every shape the lifecycle table needs.

Each case is a set of whole-file variants so the tests read like a developer's edits:
`source` holds the anchored symbol; the other variants are that file after one kind of change.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class LangCase:
    name: str
    path: str  # where `source` lives
    other_path: str  # a second file in the same language, for moves
    symbol: str  # the anchored symbol, as a spec names it
    source: str
    cosmetic: str  # reformatted, comments and blank lines changed: same meaning
    edited: str  # one real change inside the symbol's body
    edited_line: str  # a line the diff must show as added
    renamed: str  # the symbol under a new name, body unchanged
    new_symbol: str  # its qualified name after the rename
    without: str  # the file with the symbol deleted
    moved_to: str  # `other_path`'s content holding the symbol after a move
    moved_symbol: str  # its qualified name there
    duplicated: str  # symbol renamed away and two identical copies under other names
    trivial: str  # the file with a trivial symbol `trivial_symbol` (low entropy body)
    trivial_symbol: str
    trivial_renamed: str  # that trivial symbol renamed
    # Cosmetic-vs-real pairs on the anchored symbol: each must keep or break the hash.
    real_edits: tuple[tuple[str, str], ...]  # (label, full file) that must go stale
    cosmetic_edits: tuple[tuple[str, str], ...]  # (label, full file) that must stay active


PYTHON_SOURCE = '''\
import time

RETRIES = 3


class Fetcher:
    """Fetches pages politely."""

    def fetch_with_retry(self, url, attempts=RETRIES):
        delay = 0.5
        for attempt in range(attempts):
            response = self.session.get(url, timeout=30)
            if response.status_code < 500:
                self.last = response
                return response
            time.sleep(delay * (2 ** attempt))
        raise RuntimeError(f"gave up on {url} after {attempts} attempts")

    def close(self):
        self.session.close()
'''

PYTHON = LangCase(
    name="python",
    path="src/fetch.py",
    other_path="src/net/client.py",
    symbol="Fetcher.fetch_with_retry",
    source=PYTHON_SOURCE,
    cosmetic=PYTHON_SOURCE.replace(
        "        delay = 0.5\n",
        "        # back off exponentially\n\n        delay = 0.5  # seconds\n",
    ).replace(
        "            response = self.session.get(url, timeout=30)\n",
        "            response = self.session.get(\n                url,\n                timeout=30,\n            )\n",
    ).replace('f"gave up on {url} after {attempts} attempts"', "f'gave up on {url} after {attempts} attempts'"),
    edited=PYTHON_SOURCE.replace("timeout=30", "timeout=60"),
    edited_line="response = self.session.get(url, timeout=60)",
    renamed=PYTHON_SOURCE.replace("def fetch_with_retry(", "def get_with_backoff("),
    new_symbol="Fetcher.get_with_backoff",
    without=PYTHON_SOURCE.replace(PYTHON_SOURCE[PYTHON_SOURCE.index("    def fetch_with_retry"):PYTHON_SOURCE.index("    def close")], ""),
    moved_to='''\
import time

RETRIES = 3


def fetch_with_retry(self, url, attempts=RETRIES):
    delay = 0.5
    for attempt in range(attempts):
        response = self.session.get(url, timeout=30)
        if response.status_code < 500:
            self.last = response
            return response
        time.sleep(delay * (2 ** attempt))
    raise RuntimeError(f"gave up on {url} after {attempts} attempts")
''',
    moved_symbol="fetch_with_retry",
    duplicated=PYTHON_SOURCE.replace("def fetch_with_retry(", "def fetch_a(")
    + '''

class Mirror:
    def fetch_b(self, url, attempts=RETRIES):
        delay = 0.5
        for attempt in range(attempts):
            response = self.session.get(url, timeout=30)
            if response.status_code < 500:
                self.last = response
                return response
            time.sleep(delay * (2 ** attempt))
        raise RuntimeError(f"gave up on {url} after {attempts} attempts")
''',
    trivial=PYTHON_SOURCE + "\n\ndef noop():\n    pass\n",
    trivial_symbol="noop",
    trivial_renamed=PYTHON_SOURCE + "\n\ndef nothing():\n    pass\n",
    real_edits=(
        ("literal", PYTHON_SOURCE.replace("delay = 0.5", "delay = 0.25")),
        ("operator", PYTHON_SOURCE.replace("status_code < 500", "status_code <= 500")),
        ("called name", PYTHON_SOURCE.replace("self.session.get(", "self.session.post(")),
        (
            "statement order",
            PYTHON_SOURCE.replace(
                "        delay = 0.5\n        for attempt in range(attempts):\n",
                "        for attempt in range(attempts):\n            delay = 0.5\n",
            ),
        ),
        (
            "dedent out of if",
            PYTHON_SOURCE.replace(
                "                self.last = response\n                return response\n",
                "                self.last = response\n            return response\n",
            ),
        ),
        (
            "indent into if",
            PYTHON_SOURCE.replace(
                "                return response\n            time.sleep(delay * (2 ** attempt))\n",
                "                return response\n                time.sleep(delay * (2 ** attempt))\n",
            ),
        ),
    ),
    cosmetic_edits=(
        ("comment", PYTHON_SOURCE.replace("        delay = 0.5\n", "        delay = 0.5  # tuned by hand\n")),
        ("blank lines", PYTHON_SOURCE.replace("        delay = 0.5\n", "\n        delay = 0.5\n\n")),
        ("docstring", PYTHON_SOURCE.replace("        delay = 0.5\n", '        """Retry 5xx with backoff."""\n        delay = 0.5\n')),
        ("quotes and wrapping", PYTHON_SOURCE.replace(
            'raise RuntimeError(f"gave up on {url} after {attempts} attempts")',
            "raise RuntimeError(\n            f'gave up on {url} after {attempts} attempts',\n        )",
        )),
        ("redundant parentheses", PYTHON_SOURCE.replace("time.sleep(delay * (2 ** attempt))", "time.sleep((delay * (2 ** attempt)))")),
    ),
)

CASES: dict[str, LangCase] = {"python": PYTHON}
