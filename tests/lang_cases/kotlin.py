"""Kotlin: a suspending retrying fetch method on a class around OkHttp, ktlint-style edits."""

from .base import LangCase, cut

METHOD = """\
    suspend fun fetchWithRetry(url: String, attempts: Int = RETRIES): Response {
        var delayMs = 500L
        repeat(attempts) { attempt ->
            val request = Request.Builder().url(url).header("Accept", "application/json").build()
            val response = client.newCall(request).execute()
            if (response.code < 500) {
                last = response
                return response
            }
            delay(delayMs * (1 shl attempt))
        }
        throw IOException("gave up on $url after $attempts attempts")
    }
"""

IMPORTS = """\
import java.io.IOException
import kotlinx.coroutines.delay
import okhttp3.OkHttpClient
import okhttp3.Request
import okhttp3.Response
"""

SOURCE = f"""\
package net.http

{IMPORTS}
const val RETRIES = 3

class Fetcher(private val client: OkHttpClient) : AutoCloseable {{
    private var last: Response? = null

{METHOD}
    override fun close() {{
        last?.close()
    }}
}}
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


KOTLIN = LangCase(
    name="kotlin",
    path="src/main/kotlin/net/http/Fetcher.kt",
    other_path="src/main/kotlin/net/http/HttpFetcher.kt",
    symbol="Fetcher.fetchWithRetry",
    source=SOURCE,
    cosmetic=_with(
        "        var delayMs = 500L\n",
        "        // back off exponentially\n\n        var delayMs = 500L /* base */\n",
    ).replace(
        '            val request = Request.Builder().url(url).header("Accept", "application/json").build()\n',
        '            val request = Request.Builder()\n                .url(url)\n                .header("Accept", "application/json")\n                .build()\n',
    ),
    edited=_with('.header("Accept", "application/json")', '.header("Accept", "application/xml")'),
    edited_line='val request = Request.Builder().url(url).header("Accept", "application/xml").build()',
    renamed=_with("suspend fun fetchWithRetry(", "suspend fun getWithBackoff("),
    new_symbol="Fetcher.getWithBackoff",
    without=cut(SOURCE, "    suspend fun fetchWithRetry(", "    override fun close()"),
    moved_to=f"package net.http\n\n{IMPORTS}\nclass HttpFetcher(private val client: OkHttpClient) {{\n"
    f"    private var last: Response? = null\n\n{METHOD}}}\n",
    moved_symbol="HttpFetcher.fetchWithRetry",
    duplicated=_with("suspend fun fetchWithRetry(", "suspend fun fetchA(")
    + "\nclass Mirror {\n"
    + METHOD.replace("suspend fun fetchWithRetry(", "suspend fun fetchB(")
    + "}\n",
    trivial=_with("    override fun close() {", "    private fun noop() {}\n\n    override fun close() {"),
    trivial_symbol="Fetcher.noop",
    trivial_renamed=_with("    override fun close() {", "    private fun nothing() {}\n\n    override fun close() {"),
    real_edits=(
        ("literal", _with("var delayMs = 500L", "var delayMs = 250L")),
        ("operator", _with("response.code < 500", "response.code <= 500")),
        ("called name", _with("            delay(delayMs", "            Thread.sleep(delayMs")),
        (
            "statement order",
            _with(
                "                last = response\n                return response\n",
                "                return response\n                last = response\n",
            ),
        ),
        ("infix function", _with("(1 shl attempt)", "(1 shr attempt)")),
        (
            "string template",
            _with('"gave up on $url after $attempts attempts"', '"gave up on $attempts after $url attempts"'),
        ),
    ),
    cosmetic_edits=(
        (
            "kdoc and comments",
            _with(
                "        var delayMs = 500L\n",
                "        /** Backoff base, in milliseconds. */\n        var delayMs = 500L // tuned\n",
            ),
        ),
        ("blank lines", _with("            delay(delayMs", "\n            delay(delayMs")),
        (
            "wrapped parameters with trailing comma",
            _with(
                "fetchWithRetry(url: String, attempts: Int = RETRIES)",
                "fetchWithRetry(\n        url: String,\n        attempts: Int = RETRIES,\n    )",
            ),
        ),
        ("redundant parentheses", _with("if (response.code < 500) {", "if ((response.code < 500)) {")),
        ("semicolons", _with("                last = response\n", "                last = response;\n")),
    ),
)
