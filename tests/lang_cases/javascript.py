"""JavaScript: a retrying fetch method on an exported class, prettier-style edits."""

from .base import LangCase, cut

METHOD = """\
  async fetchWithRetry(url, attempts = RETRIES) {
    let delay = 500;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const response = await this.session.get(url, { timeout: 30000, mode: "cors" });
      if (response.status < 500) {
        this.listeners.forEach((listener) => listener(response));
        this.last = response;
        return response;
      }
      await sleep(delay * 2 ** attempt);
    }
    throw new Error(`gave up on ${url} after ${attempts} attempts`);
  }
"""

SOURCE = f"""\
import {{ sleep }} from "./time.js";

export const RETRIES = 3;

export class Fetcher {{
  constructor(session) {{
    this.session = session;
    this.listeners = [];
  }}

{METHOD}
  close() {{
    this.session.close();
  }}
}}
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


JAVASCRIPT = LangCase(
    name="javascript",
    path="src/fetch.js",
    other_path="src/net/client.js",
    symbol="Fetcher.fetchWithRetry",
    source=SOURCE,
    cosmetic=_with(
        "    let delay = 500;\n", "    // back off exponentially\n\n    let delay = 500; /* ms */\n"
    ).replace(
        '      const response = await this.session.get(url, { timeout: 30000, mode: "cors" });\n',
        "      const response = await this.session.get(url, {\n        timeout: 30000,\n        mode: 'cors',\n      });\n",
    ),
    edited=_with("timeout: 30000", "timeout: 60000"),
    edited_line='const response = await this.session.get(url, { timeout: 60000, mode: "cors" });',
    renamed=_with("async fetchWithRetry(", "async getWithBackoff("),
    new_symbol="Fetcher.getWithBackoff",
    without=cut(SOURCE, "  async fetchWithRetry", "  close()"),
    moved_to=f"""\
import {{ sleep }} from "../time.js";
import {{ RETRIES }} from "../fetch.js";

export class HttpClient {{
{METHOD}}}
""",
    moved_symbol="HttpClient.fetchWithRetry",
    duplicated=_with("async fetchWithRetry(", "async fetchA(")
    + f"\nexport class Mirror {{\n{METHOD.replace('async fetchWithRetry(', 'async fetchB(')}}}\n",
    trivial=SOURCE + "\nexport function noop() {}\n",
    trivial_symbol="noop",
    trivial_renamed=SOURCE + "\nexport function nothing() {}\n",
    real_edits=(
        ("literal", _with("let delay = 500;", "let delay = 250;")),
        ("operator", _with("response.status < 500", "response.status <= 500")),
        ("called name", _with("this.session.get(", "this.session.post(")),
        (
            "statement order",
            _with(
                "        this.listeners.forEach((listener) => listener(response));\n        this.last = response;\n",
                "        this.last = response;\n        this.listeners.forEach((listener) => listener(response));\n",
            ),
        ),
        ("await dropped", _with("await sleep(", "sleep(")),
        ("template text", _with("`gave up on ${url}", "`giving up on ${url}")),
    ),
    cosmetic_edits=(
        ("comments", _with("      await sleep(", "      // exponential backoff\n      await sleep(/* ms */ ")),
        ("blank lines", _with("    let delay = 500;\n", "\n    let delay = 500;\n\n")),
        (
            "no semicolons",
            SOURCE.replace(METHOD, METHOD.replace(";\n", "\n")),
        ),
        ("quote style", _with('mode: "cors"', "mode: 'cors'")),
        (
            "arrow parameter parentheses",
            _with("((listener) => listener(response))", "(listener => listener(response))"),
        ),
        ("redundant parentheses", _with("sleep(delay * 2 ** attempt)", "sleep((delay * (2 ** attempt)))")),
    ),
)
