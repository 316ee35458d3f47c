"""Go: a retrying fetch method on a pointer receiver, gofmt-style edits."""

from .base import LangCase, cut

METHOD = """\
func (f *Fetcher) FetchWithRetry(url string, attempts int) (*http.Response, error) {
	delay := 500 * time.Millisecond
	for attempt := 0; attempt < attempts; attempt++ {
		resp, err := f.client.Get(url)
		if err == nil && resp.StatusCode < 500 {
			f.last = resp
			return resp, nil
		}
		time.Sleep(delay * time.Duration(1<<attempt))
	}
	return nil, fmt.Errorf("gave up on %s after %d attempts", url, attempts)
}
"""

SOURCE = f"""\
package net

import (
	"fmt"
	"net/http"
	"time"
)

const Retries = 3

type Fetcher struct {{
	client *http.Client
	last   *http.Response
}}

{METHOD}
func (f *Fetcher) Close() {{
	f.client.CloseIdleConnections()
}}
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


GO = LangCase(
    name="go",
    path="net/fetch.go",
    other_path="net/client.go",
    symbol="Fetcher.FetchWithRetry",
    source=SOURCE,
    cosmetic=_with(
        "\tdelay := 500 * time.Millisecond\n",
        "\t// back off exponentially\n\n\tdelay := 500 * time.Millisecond // base\n",
    ).replace(
        '\treturn nil, fmt.Errorf("gave up on %s after %d attempts", url, attempts)\n',
        '\treturn nil, fmt.Errorf(\n\t\t"gave up on %s after %d attempts",\n\t\turl,\n\t\tattempts,\n\t)\n',
    ),
    edited=_with("f.client.Get(url)", "f.client.Head(url)"),
    edited_line="resp, err := f.client.Head(url)",
    renamed=_with(") FetchWithRetry(", ") GetWithBackoff("),
    new_symbol="Fetcher.GetWithBackoff",
    without=cut(SOURCE, "func (f *Fetcher) FetchWithRetry", "func (f *Fetcher) Close"),
    # same package, another file: the usual Go move
    moved_to=f'package net\n\nimport (\n\t"fmt"\n\t"net/http"\n\t"time"\n)\n\n{METHOD}',
    moved_symbol="Fetcher.FetchWithRetry",
    duplicated=_with(") FetchWithRetry(", ") FetchA(")
    + "\n"
    + METHOD.replace("func (f *Fetcher) FetchWithRetry(", "func (f *Mirror) FetchB("),
    trivial=SOURCE + "\nfunc noop() {}\n",
    trivial_symbol="noop",
    trivial_renamed=SOURCE + "\nfunc nothing() {}\n",
    real_edits=(
        ("literal", _with("500 * time.Millisecond", "250 * time.Millisecond")),
        ("operator", _with("resp.StatusCode < 500", "resp.StatusCode <= 500")),
        ("logical operator", _with("err == nil && resp", "err == nil || resp")),
        ("called name", _with("time.Sleep(", "time.Wait(")),
        (
            "statement order",
            _with("\t\t\tf.last = resp\n\t\t\treturn resp, nil\n", "\t\t\treturn resp, nil\n\t\t\tf.last = resp\n"),
        ),
        ("value receiver", _with("func (f *Fetcher) FetchWithRetry(", "func (f Fetcher) FetchWithRetry(")),
    ),
    cosmetic_edits=(
        ("comments", _with("\t\ttime.Sleep(", "\t\t/* exponential */ time.Sleep( // backoff\n\t\t\t")),
        ("blank lines", _with("\tdelay := 500 * time.Millisecond\n", "\n\tdelay := 500 * time.Millisecond\n\n")),
        ("semicolons", _with("\t\t\tf.last = resp\n", "\t\t\tf.last = resp;\n")),
        ("spacing", _with("time.Duration(1<<attempt)", "time.Duration(1 << attempt)")),
        (
            "redundant parentheses",
            _with(
                "time.Sleep(delay * time.Duration(1<<attempt))", "time.Sleep((delay * time.Duration((1 << attempt))))"
            ),
        ),
        ("trailing comma", _with("url, attempts)\n}", "url, attempts,\n\t)\n}")),
    ),
)
