"""Java: a retrying fetch method on a class built around java.net.http."""

from .base import LangCase, cut

METHOD = """\
    public HttpResponse<String> fetchWithRetry(String url, int attempts) throws IOException, InterruptedException {
        long delay = 500;
        for (int attempt = 0; attempt < attempts; attempt++) {
            HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build();
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() < 500) {
                last = response;
                return response;
            }
            Thread.sleep(delay * (1L << attempt));
        }
        throw new IOException("gave up on " + url + " after " + attempts + " attempts");
    }
"""

IMPORTS = """\
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
"""

SOURCE = f"""\
package net;

{IMPORTS}
public class Fetcher {{
    static final int RETRIES = 3;

    private final HttpClient client;
    private HttpResponse<String> last;

    public Fetcher(HttpClient client) {{
        this.client = client;
    }}

{METHOD}
    public void close() {{
        last = null;
    }}
}}
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


JAVA = LangCase(
    name="java",
    path="src/main/java/net/Fetcher.java",
    other_path="src/main/java/net/HttpFetcher.java",
    symbol="Fetcher.fetchWithRetry",
    source=SOURCE,
    cosmetic=_with(
        "        long delay = 500;\n",
        "        // back off exponentially\n\n        long delay = 500; /* ms */\n",
    ).replace(
        "            HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(30)).build();\n",
        "            HttpRequest request = HttpRequest\n                .newBuilder(URI.create(url))\n                .timeout(Duration.ofSeconds(30))\n                .build();\n",
    ),
    edited=_with("Duration.ofSeconds(30)", "Duration.ofSeconds(60)"),
    edited_line="HttpRequest request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(60)).build();",
    renamed=_with("HttpResponse<String> fetchWithRetry(", "HttpResponse<String> getWithBackoff("),
    new_symbol="Fetcher.getWithBackoff",
    without=cut(SOURCE, "    public HttpResponse<String> fetchWithRetry", "    public void close"),
    moved_to=f"package net;\n\n{IMPORTS}\nclass HttpFetcher {{\n    private HttpClient client;\n    private HttpResponse<String> last;\n\n{METHOD}}}\n",
    moved_symbol="HttpFetcher.fetchWithRetry",
    duplicated=_with("HttpResponse<String> fetchWithRetry(", "HttpResponse<String> fetchA(")
    + "\nclass Mirror {\n"
    + METHOD.replace("HttpResponse<String> fetchWithRetry(", "HttpResponse<String> fetchB(")
    + "}\n",
    trivial=_with("    public void close() {", "    void noop() {}\n\n    public void close() {"),
    trivial_symbol="Fetcher.noop",
    trivial_renamed=_with("    public void close() {", "    void nothing() {}\n\n    public void close() {"),
    real_edits=(
        ("literal", _with("long delay = 500;", "long delay = 250;")),
        ("operator", _with("response.statusCode() < 500", "response.statusCode() <= 500")),
        ("called name", _with("Thread.sleep(", "Thread.onSpinWait(")),
        (
            "statement order",
            _with(
                "                last = response;\n                return response;\n",
                "                return response;\n                last = response;\n",
            ),
        ),
        ("shift", _with("(1L << attempt)", "(1L >> attempt)")),
        (
            "modifier",
            _with(
                "    public HttpResponse<String> fetchWithRetry(", "    protected HttpResponse<String> fetchWithRetry("
            ),
        ),
    ),
    cosmetic_edits=(
        (
            "javadoc and comments",
            _with(
                "        long delay = 500;\n",
                "        /** Backoff base, in milliseconds. */\n        long delay = 500; // tuned\n",
            ),
        ),
        ("blank lines", _with("            Thread.sleep(", "\n            Thread.sleep(")),
        (
            "wrapped parameters",
            _with(
                "fetchWithRetry(String url, int attempts) throws",
                "fetchWithRetry(\n            String url,\n            int attempts\n    ) throws",
            ),
        ),
        (
            "redundant parentheses",
            _with("Thread.sleep(delay * (1L << attempt));", "Thread.sleep((delay * ((1L << attempt))));"),
        ),
        (
            "braces on own line",
            _with(
                "            if (response.statusCode() < 500) {\n",
                "            if (response.statusCode() < 500)\n            {\n",
            ),
        ),
    ),
)
