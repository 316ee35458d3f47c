"""Svelte: a retrying fetch in a plain `<script>` (JavaScript); markup edits are not its edits."""

from .base import LangCase, cut

JS_FUNCTION = """\
  async function fetchWithRetry(url, attempts = 3) {
    let delay = 500;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });
      if (response.status < 500) {
        return response.json();
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay *= 2;
    }
    throw new Error(`gave up on ${url} after ${attempts} attempts`);
  }
"""

SVELTE_SOURCE = f"""\
<script>
  import {{ onMount }} from 'svelte';

  export let url = '/releases';
  let releases = [];
  let error = null;

{JS_FUNCTION}
  onMount(async () => {{
    try {{
      releases = await fetchWithRetry(url);
    }} catch (e) {{
      error = String(e);
    }}
  }});
</script>

{{#if error}}
  <p class="error">{{error}}</p>
{{:else}}
  <ul>
    {{#each releases as release}}<li>{{release.name}}</li>{{/each}}
  </ul>
{{/if}}

<style>
  .error {{ color: #b00; }}
</style>
"""


def _svelte(old: str, new: str) -> str:
    assert old in SVELTE_SOURCE, old
    return SVELTE_SOURCE.replace(old, new)


SVELTE = LangCase(
    name="svelte",
    path="src/lib/Releases.svelte",
    other_path="src/lib/Mirrors.svelte",
    symbol="fetchWithRetry",
    source=SVELTE_SOURCE,
    cosmetic=_svelte("    let delay = 500;\n", "    // back off exponentially\n\n    let delay = 500 // ms\n").replace(
        "      const response = await fetch(url, { signal: AbortSignal.timeout(30_000) });\n",
        "      const response = await fetch(url, {\n        signal: AbortSignal.timeout(30_000),\n      });\n",
    ),
    edited=_svelte("AbortSignal.timeout(30_000)", "AbortSignal.timeout(60_000)"),
    edited_line="const response = await fetch(url, { signal: AbortSignal.timeout(60_000) });",
    renamed=_svelte("async function fetchWithRetry(", "async function getWithBackoff("),
    new_symbol="getWithBackoff",
    without=cut(SVELTE_SOURCE, "  async function fetchWithRetry", "  onMount("),
    moved_to=f"<script>\n  export let mirrors = [];\n\n{JS_FUNCTION}</script>\n\n<p>{{mirrors.length}} mirrors</p>\n",
    moved_symbol="fetchWithRetry",
    duplicated=_svelte("async function fetchWithRetry(", "async function fetchA(").replace(
        "\n  onMount(", "\n" + JS_FUNCTION.replace("function fetchWithRetry(", "function fetchB(") + "\n  onMount("
    ),
    trivial=_svelte("</script>\n", "  function noop() {}\n</script>\n"),
    trivial_symbol="noop",
    trivial_renamed=_svelte("</script>\n", "  function nothing() {}\n</script>\n"),
    real_edits=(
        ("literal", _svelte("let delay = 500;", "let delay = 250;")),
        ("operator", _svelte("response.status < 500", "response.status <= 500")),
        ("called name", _svelte("return response.json();", "return response.text();")),
        (
            "statement order",
            _svelte(
                "      await new Promise((resolve) => setTimeout(resolve, delay));\n      delay *= 2;\n",
                "      delay *= 2;\n      await new Promise((resolve) => setTimeout(resolve, delay));\n",
            ),
        ),
    ),
    cosmetic_edits=(
        ("markup", _svelte('  <p class="error">{error}</p>\n', '  <p class="error">Could not load: {error}</p>\n')),
        (
            "lines above the function",
            _svelte("  let error = null;\n", "  let error = null;\n  let loading = false;\n\n"),
        ),
        ("semicolons", _svelte("      delay *= 2;\n", "      delay *= 2\n")),
        ("redundant parentheses", _svelte("if (response.status < 500) {", "if ((response.status < 500)) {")),
    ),
)
