"""TypeScript: a typed retrying fetch method on a class with a parameter property."""

from .base import LangCase, cut

METHOD = """\
  async fetchWithRetry(url: string | URL, attempts: number = RETRIES): Promise<Response> {
    let delay = 500;
    for (let attempt = 0; attempt < attempts; attempt++) {
      const response = await this.session.get(url, { timeout: 30_000, mode: "cors" });
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
import {{ sleep }} from "./time";
import type {{ Response, Session }} from "./session";

export const RETRIES = 3;

type Listener = (response: Response) => void;

export class Fetcher {{
  private last?: Response;
  private readonly listeners: Listener[] = [];

  constructor(private readonly session: Session) {{}}

{METHOD}
  close(): void {{
    this.session.close();
  }}
}}
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


TYPESCRIPT = LangCase(
    name="typescript",
    path="src/fetch.ts",
    other_path="src/net/client.ts",
    symbol="Fetcher.fetchWithRetry",
    source=SOURCE,
    cosmetic=_with(
        "    let delay = 500;\n", "    // back off exponentially\n\n    let delay = 500; /* ms */\n"
    ).replace(
        "  async fetchWithRetry(url: string | URL, attempts: number = RETRIES): Promise<Response> {\n",
        "  async fetchWithRetry(\n    url: string | URL,\n    attempts: number = RETRIES,\n  ): Promise<Response> {\n",
    ),
    edited=_with("timeout: 30_000", "timeout: 60_000"),
    edited_line='const response = await this.session.get(url, { timeout: 60_000, mode: "cors" });',
    renamed=_with("async fetchWithRetry(", "async getWithBackoff("),
    new_symbol="Fetcher.getWithBackoff",
    without=cut(SOURCE, "  async fetchWithRetry", "  close()"),
    moved_to=f"""\
import {{ sleep }} from "../time";
import {{ RETRIES }} from "../fetch";

export class HttpClient {{
  constructor(private readonly session: Session) {{}}

{METHOD}}}
""",
    moved_symbol="HttpClient.fetchWithRetry",
    duplicated=_with("async fetchWithRetry(", "async fetchA(")
    + f"\nexport class Mirror {{\n{METHOD.replace('async fetchWithRetry(', 'async fetchB(')}}}\n",
    trivial=SOURCE + "\nexport function noop(): void {}\n",
    trivial_symbol="noop",
    trivial_renamed=SOURCE + "\nexport function nothing(): void {}\n",
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
        ("parameter type", _with("url: string | URL,", "url: string,")),
        ("return type", _with("): Promise<Response> {", "): Promise<Response | undefined> {")),
    ),
    cosmetic_edits=(
        ("comments", _with("      await sleep(", "      // exponential backoff\n      await sleep(/* ms */ ")),
        ("blank lines", _with("    let delay = 500;\n", "\n    let delay = 500;\n\n")),
        ("no semicolons", SOURCE.replace(METHOD, METHOD.replace(";\n", "\n"))),
        ("quote style", _with('mode: "cors"', "mode: 'cors'")),
        (
            "arrow parameter parentheses",
            _with("((listener) => listener(response))", "(listener => listener(response))"),
        ),
        ("redundant type parentheses", _with("url: string | URL,", "url: (string | URL),")),
    ),
)
