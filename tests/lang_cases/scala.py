"""Scala: a retrying fetch method on a class with a companion object, scalafmt-style edits."""

from .base import LangCase, cut

METHOD = """\
  def fetchWithRetry(url: String, attempts: Int = Fetcher.Retries): HttpResponse[String] = {
    var delay = 500.millis
    for (attempt <- 0 until attempts) {
      val request = HttpRequest.newBuilder(URI.create(url)).header("Accept", "application/json").build()
      val response = client.send(request, BodyHandlers.ofString())
      if (response.statusCode() < 500) {
        last = Some(response)
        return response
      }
      Thread.sleep((delay * math.pow(2, attempt)).toMillis)
    }
    throw new IOException(s"gave up on $url after $attempts attempts")
  }
"""

IMPORTS = """\
import java.io.IOException
import java.net.URI
import java.net.http.{HttpClient, HttpRequest, HttpResponse}
import java.net.http.HttpResponse.BodyHandlers
import scala.concurrent.duration._
"""

SOURCE = f"""\
package net.http

{IMPORTS}
object Fetcher {{
  val Retries = 3

  def apply(): Fetcher = new Fetcher(HttpClient.newHttpClient())
}}

class Fetcher(client: HttpClient) extends AutoCloseable {{
  private var last: Option[HttpResponse[String]] = None

{METHOD}
  override def close(): Unit = {{
    last = None
  }}
}}
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


SCALA = LangCase(
    name="scala",
    path="src/main/scala/net/http/Fetcher.scala",
    other_path="src/main/scala/net/http/HttpFetcher.scala",
    symbol="Fetcher.fetchWithRetry",
    source=SOURCE,
    cosmetic=_with(
        "    var delay = 500.millis\n",
        "    // back off exponentially\n\n    var delay = 500.millis /* base */\n",
    ).replace(
        '      val request = HttpRequest.newBuilder(URI.create(url)).header("Accept", "application/json").build()\n',
        '      val request = HttpRequest\n        .newBuilder(URI.create(url))\n        .header("Accept", "application/json")\n        .build()\n',
    ),
    edited=_with('.header("Accept", "application/json")', '.header("Accept", "application/xml")'),
    edited_line='val request = HttpRequest.newBuilder(URI.create(url)).header("Accept", "application/xml").build()',
    renamed=_with("  def fetchWithRetry(", "  def getWithBackoff("),
    new_symbol="Fetcher.getWithBackoff",
    without=cut(SOURCE, "  def fetchWithRetry(", "  override def close()"),
    moved_to=f"package net.http\n\n{IMPORTS}\nclass HttpFetcher(client: HttpClient) {{\n"
    f"  private var last: Option[HttpResponse[String]] = None\n\n{METHOD}}}\n",
    moved_symbol="HttpFetcher.fetchWithRetry",
    duplicated=_with("  def fetchWithRetry(", "  def fetchA(")
    + "\nclass Mirror(client: HttpClient) {\n"
    + METHOD.replace("  def fetchWithRetry(", "  def fetchB(")
    + "}\n",
    trivial=_with("  override def close(): Unit", "  private def noop(): Unit = ()\n\n  override def close(): Unit"),
    trivial_symbol="Fetcher.noop",
    trivial_renamed=_with(
        "  override def close(): Unit", "  private def nothing(): Unit = ()\n\n  override def close(): Unit"
    ),
    real_edits=(
        ("literal", _with("var delay = 500.millis", "var delay = 250.millis")),
        ("operator", _with("response.statusCode() < 500", "response.statusCode() <= 500")),
        ("called name", _with("      Thread.sleep(", "      Thread.onSpinWait(")),
        (
            "statement order",
            _with(
                "        last = Some(response)\n        return response\n",
                "        return response\n        last = Some(response)\n",
            ),
        ),
        ("range", _with("0 until attempts", "0 to attempts")),
        (
            "interpolator",
            _with('s"gave up on $url after $attempts attempts"', 'f"gave up on $url after $attempts attempts"'),
        ),
    ),
    cosmetic_edits=(
        (
            "scaladoc and comments",
            _with(
                "    var delay = 500.millis\n",
                "    /** Backoff base. */\n    var delay = 500.millis // tuned\n",
            ),
        ),
        ("blank lines", _with("      Thread.sleep(", "\n      Thread.sleep(")),
        (
            "wrapped parameters with trailing comma",
            _with(
                "fetchWithRetry(url: String, attempts: Int = Fetcher.Retries)",
                "fetchWithRetry(\n      url: String,\n      attempts: Int = Fetcher.Retries,\n  )",
            ),
        ),
        ("redundant parentheses", _with("if (response.statusCode() < 500) {", "if ((response.statusCode() < 500)) {")),
        ("semicolons", _with("        last = Some(response)\n", "        last = Some(response);\n")),
    ),
)
