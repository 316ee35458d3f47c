"""C#: an async retrying fetch method on a class built around HttpClient."""

from .base import LangCase, cut

METHOD = """\
    public async Task<HttpResponseMessage> FetchWithRetryAsync(string url, int attempts)
    {
        var delay = TimeSpan.FromMilliseconds(500);
        for (var attempt = 0; attempt < attempts; attempt++)
        {
            var response = await _client.GetAsync(url, CancellationToken.None).ConfigureAwait(false);
            if ((int)response.StatusCode < 500)
            {
                _last = response;
                return response;
            }
            await Task.Delay(delay * Math.Pow(2, attempt));
        }
        throw new HttpRequestException($"gave up on {url} after {attempts} attempts");
    }
"""

USINGS = """\
using System;
using System.Net.Http;
using System.Threading;
using System.Threading.Tasks;
"""

SOURCE = f"""\
{USINGS}
namespace Net.Http;

public sealed class Fetcher : IDisposable
{{
    public const int Retries = 3;

    private readonly HttpClient _client;
    private HttpResponseMessage? _last;

    public Fetcher(HttpClient client)
    {{
        _client = client;
    }}

{METHOD}
    public void Dispose()
    {{
        _last?.Dispose();
    }}
}}
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


CSHARP = LangCase(
    name="csharp",
    path="src/Net/Fetcher.cs",
    other_path="src/Net/HttpFetcher.cs",
    symbol="Fetcher.FetchWithRetryAsync",
    source=SOURCE,
    cosmetic=_with(
        "        var delay = TimeSpan.FromMilliseconds(500);\n",
        "        // back off exponentially\n\n        var delay = TimeSpan.FromMilliseconds(500); /* base */\n",
    ).replace(
        "            var response = await _client.GetAsync(url, CancellationToken.None).ConfigureAwait(false);\n",
        "            var response = await _client\n                .GetAsync(url, CancellationToken.None)\n                .ConfigureAwait(false);\n",
    ),
    edited=_with("CancellationToken.None", "CancellationToken.None, HttpCompletionOption.ResponseHeadersRead"),
    edited_line="var response = await _client.GetAsync(url, CancellationToken.None, HttpCompletionOption.ResponseHeadersRead).ConfigureAwait(false);",
    renamed=_with("Task<HttpResponseMessage> FetchWithRetryAsync(", "Task<HttpResponseMessage> GetWithBackoffAsync("),
    new_symbol="Fetcher.GetWithBackoffAsync",
    without=cut(SOURCE, "    public async Task<HttpResponseMessage> FetchWithRetryAsync", "    public void Dispose()"),
    moved_to=f"{USINGS}\nnamespace Net.Http;\n\ninternal sealed class HttpFetcher\n{{\n"
    "    private readonly HttpClient _client = new();\n    private HttpResponseMessage? _last;\n\n"
    f"{METHOD}}}\n",
    moved_symbol="HttpFetcher.FetchWithRetryAsync",
    duplicated=_with("Task<HttpResponseMessage> FetchWithRetryAsync(", "Task<HttpResponseMessage> FetchA(")
    + "\ninternal sealed class Mirror\n{\n"
    + METHOD.replace("Task<HttpResponseMessage> FetchWithRetryAsync(", "Task<HttpResponseMessage> FetchB(")
    + "}\n",
    trivial=_with("    public void Dispose()", "    private void Noop() { }\n\n    public void Dispose()"),
    trivial_symbol="Fetcher.Noop",
    trivial_renamed=_with("    public void Dispose()", "    private void Nothing() { }\n\n    public void Dispose()"),
    real_edits=(
        ("literal", _with("FromMilliseconds(500)", "FromMilliseconds(250)")),
        ("operator", _with("(int)response.StatusCode < 500", "(int)response.StatusCode <= 500")),
        ("called name", _with("await Task.Delay(", "await Task.Yield(")),
        (
            "statement order",
            _with(
                "                _last = response;\n                return response;\n",
                "                return response;\n                _last = response;\n",
            ),
        ),
        (
            "interpolation",
            _with('$"gave up on {url} after {attempts} attempts"', '$"gave up on {attempts} after {url} attempts"'),
        ),
        ("await", _with("            await Task.Delay(", "            Task.Delay(")),
    ),
    cosmetic_edits=(
        (
            "doc comments",
            _with(
                "        var delay = TimeSpan.FromMilliseconds(500);\n",
                "        /// <summary>Backoff base.</summary>\n        var delay = TimeSpan.FromMilliseconds(500); // tuned\n",
            ),
        ),
        ("blank lines", _with("            await Task.Delay(", "\n            await Task.Delay(")),
        (
            "wrapped parameters",
            _with(
                "FetchWithRetryAsync(string url, int attempts)",
                "FetchWithRetryAsync(\n        string url,\n        int attempts)",
            ),
        ),
        (
            "redundant parentheses",
            _with(
                "await Task.Delay(delay * Math.Pow(2, attempt));", "await Task.Delay((delay * (Math.Pow(2, attempt))));"
            ),
        ),
        (
            "braces on the same line",
            _with(
                "            if ((int)response.StatusCode < 500)\n            {\n",
                "            if ((int)response.StatusCode < 500) {\n",
            ),
        ),
    ),
)
