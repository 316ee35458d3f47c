"""Python: a retrying fetch method on a class."""

from .base import LangCase

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
    )
    .replace(
        "            response = self.session.get(url, timeout=30)\n",
        "            response = self.session.get(\n                url,\n                timeout=30,\n            )\n",
    )
    .replace('f"gave up on {url} after {attempts} attempts"', "f'gave up on {url} after {attempts} attempts'"),
    edited=PYTHON_SOURCE.replace("timeout=30", "timeout=60"),
    edited_line="response = self.session.get(url, timeout=60)",
    renamed=PYTHON_SOURCE.replace("def fetch_with_retry(", "def get_with_backoff("),
    new_symbol="Fetcher.get_with_backoff",
    without=PYTHON_SOURCE.replace(
        PYTHON_SOURCE[PYTHON_SOURCE.index("    def fetch_with_retry") : PYTHON_SOURCE.index("    def close")], ""
    ),
    moved_to="""\
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
""",
    moved_symbol="fetch_with_retry",
    duplicated=PYTHON_SOURCE.replace("def fetch_with_retry(", "def fetch_a(")
    + """

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
""",
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
        (
            "docstring",
            PYTHON_SOURCE.replace(
                "        delay = 0.5\n", '        """Retry 5xx with backoff."""\n        delay = 0.5\n'
            ),
        ),
        (
            "quotes and wrapping",
            PYTHON_SOURCE.replace(
                'raise RuntimeError(f"gave up on {url} after {attempts} attempts")',
                "raise RuntimeError(\n            f'gave up on {url} after {attempts} attempts',\n        )",
            ),
        ),
        (
            "redundant parentheses",
            PYTHON_SOURCE.replace("time.sleep(delay * (2 ** attempt))", "time.sleep((delay * (2 ** attempt)))"),
        ),
    ),
)
