"""Rust: a retrying fetch method in an inherent impl, beside a trait impl; rustfmt-style edits."""

from .base import LangCase, cut

METHOD = """\
    pub fn fetch_with_retry(&mut self, url: &str, attempts: u32) -> Result<Response, Error> {
        let mut delay = Duration::from_millis(500);
        for _attempt in 0..attempts {
            let response = self.client.get(url).timeout(Duration::from_secs(30)).send()?;
            if response.status().as_u16() < 500 {
                self.last = Some(response.clone());
                return Ok(response);
            }
            sleep(delay);
            delay *= 2;
        }
        Err(Error::GaveUp(format!("gave up on {} after {} attempts", url, attempts)))
    }
"""

SOURCE = f"""\
use std::fmt;
use std::thread::sleep;
use std::time::Duration;

pub const RETRIES: u32 = 3;

pub struct Fetcher {{
    client: Client,
    last: Option<Response>,
}}

impl Fetcher {{
{METHOD}
    pub fn close(&mut self) {{
        self.last = None;
    }}
}}

impl fmt::Display for Fetcher {{
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {{
        write!(f, "Fetcher(last={{:?}})", self.last.as_ref().map(|r| r.status()))
    }}
}}
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


RUST = LangCase(
    name="rust",
    path="src/fetch.rs",
    other_path="src/net/client.rs",
    symbol="Fetcher.fetch_with_retry",
    source=SOURCE,
    cosmetic=_with(
        "        let mut delay = Duration::from_millis(500);\n",
        "        // back off exponentially\n\n        let mut delay = Duration::from_millis(500); /* base */\n",
    ).replace(
        "            let response = self.client.get(url).timeout(Duration::from_secs(30)).send()?;\n",
        "            let response = self\n                .client\n                .get(url)\n                .timeout(Duration::from_secs(30))\n                .send()?;\n",
    ),
    edited=_with("Duration::from_secs(30)", "Duration::from_secs(60)"),
    edited_line="let response = self.client.get(url).timeout(Duration::from_secs(60)).send()?;",
    renamed=_with("pub fn fetch_with_retry(", "pub fn get_with_backoff("),
    new_symbol="Fetcher.get_with_backoff",
    without=cut(SOURCE, "    pub fn fetch_with_retry", "    pub fn close"),
    moved_to=f"use std::thread::sleep;\nuse std::time::Duration;\n\nuse crate::fetch::Fetcher;\n\nimpl Fetcher {{\n{METHOD}}}\n",
    moved_symbol="Fetcher.fetch_with_retry",
    duplicated=_with("pub fn fetch_with_retry(", "pub fn fetch_a(")
    + f"\nimpl Mirror {{\n{METHOD.replace('pub fn fetch_with_retry(', 'pub fn fetch_b(')}}}\n",
    trivial=SOURCE + "\nfn noop() {}\n",
    trivial_symbol="noop",
    trivial_renamed=SOURCE + "\nfn nothing() {}\n",
    real_edits=(
        ("literal", _with("from_millis(500)", "from_millis(250)")),
        ("operator", _with("as_u16() < 500", "as_u16() <= 500")),
        ("called name", _with("self.client.get(url)", "self.client.head(url)")),
        (
            "statement order",
            _with(
                "            sleep(delay);\n            delay *= 2;\n",
                "            delay *= 2;\n            sleep(delay);\n",
            ),
        ),
        ("error propagation", _with(".send()?;", ".send().unwrap();")),
        (
            "macro argument",
            _with(
                'format!("gave up on {} after {} attempts", url, attempts)',
                'format!("gave up on {} after {} attempts", attempts, url)',
            ),
        ),
    ),
    cosmetic_edits=(
        (
            "comments",
            _with(
                "            sleep(delay);\n",
                "            /// exponential backoff\n            sleep(/* base */ delay);\n",
            ),
        ),
        ("blank lines", _with("            sleep(delay);\n", "\n            sleep(delay);\n\n")),
        ("trailing commas", _with('", url, attempts)))', '",\n            url,\n            attempts,\n        )))')),
        (
            "redundant parentheses",
            _with("if response.status().as_u16() < 500 {", "if (response.status().as_u16() < 500) {"),
        ),
        ("spacing", _with("for _attempt in 0..attempts {", "for _attempt in 0 .. attempts {")),
    ),
)
