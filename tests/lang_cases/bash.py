"""Bash: a deploy script's retrying fetch function; shfmt-style and spelling-only edits."""

from .base import LangCase, cut

FUNCTION = """\
fetch_with_retry() {
  local url="$1" attempts="${2:-$RETRIES}" delay=1
  for ((attempt = 1; attempt <= attempts; attempt++)); do
    if curl --fail --silent --max-time 30 "$url" -o "$OUT"; then
      LAST_URL="$url"
      return 0
    fi
    echo "attempt $attempt failed for $url" >&2
    sleep "$delay"
    delay=$((delay * 2))
  done
  return 1
}
"""

SOURCE = f"""\
#!/usr/bin/env bash
set -euo pipefail

readonly RETRIES=3
OUT="${{TMPDIR:-/tmp}}/release.tar.gz"

{FUNCTION}
cleanup() {{
  rm -f "$OUT"
}}

trap cleanup EXIT
fetch_with_retry "https://example.com/release.tar.gz"
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


BASH = LangCase(
    name="bash",
    path="scripts/deploy.sh",
    other_path="scripts/lib/net.sh",
    symbol="fetch_with_retry",
    source=SOURCE,
    cosmetic=_with(
        '  local url="$1" attempts="${2:-$RETRIES}" delay=1\n',
        '  # back off exponentially\n\n  local url="$1" attempts="${2:-$RETRIES}" delay=1   # seconds\n',
    ).replace(
        '    if curl --fail --silent --max-time 30 "$url" -o "$OUT"; then\n',
        '    if curl --fail --silent \\\n      --max-time 30 "$url" -o "$OUT"\n    then\n',
    ),
    edited=_with("--max-time 30", "--max-time 60"),
    edited_line='if curl --fail --silent --max-time 60 "$url" -o "$OUT"; then',
    renamed=_with("fetch_with_retry() {", "download_with_backoff() {"),
    new_symbol="download_with_backoff",
    without=cut(SOURCE, "fetch_with_retry() {", "cleanup() {"),
    moved_to=f"#!/usr/bin/env bash\n# shared network helpers\n\n{FUNCTION}",
    moved_symbol="fetch_with_retry",
    duplicated=_with("fetch_with_retry() {", "fetch_a() {")
    + "\n"
    + FUNCTION.replace("fetch_with_retry() {", "fetch_b() {"),
    trivial=SOURCE + "\nnoop() {\n  :\n}\n",
    trivial_symbol="noop",
    trivial_renamed=SOURCE + "\nnothing() {\n  :\n}\n",
    real_edits=(
        ("literal", _with("delay=1\n", "delay=2\n")),
        ("operator", _with("attempt <= attempts", "attempt < attempts")),
        ("called name", _with('    sleep "$delay"\n', '    wait "$delay"\n')),
        (
            "statement order",
            _with('    sleep "$delay"\n    delay=$((delay * 2))\n', '    delay=$((delay * 2))\n    sleep "$delay"\n'),
        ),
        ("quoting", _with('    sleep "$delay"\n', "    sleep '$delay'\n")),  # no expansion in single quotes
        ("redirect", _with('failed for $url" >&2', 'failed for $url" >&1')),
    ),
    cosmetic_edits=(
        ("comment", _with("      return 0\n", "      return 0  # the tarball is complete\n")),
        ("blank lines", _with('    sleep "$delay"\n', '\n    sleep "$delay"\n\n')),
        ("function keyword", _with("fetch_with_retry() {", "function fetch_with_retry {")),
        ("semicolons and line breaks", _with('"$url" -o "$OUT"; then', '"$url" -o "$OUT"\n    then')),
        ("indentation", _with('      LAST_URL="$url"\n      return 0\n', '          LAST_URL="$url"\n\treturn 0\n')),
    ),
)
