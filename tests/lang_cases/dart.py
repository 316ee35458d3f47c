"""Dart: a retrying fetch method beside named constructors and an accessor pair; dart-format edits."""

from .base import LangCase, cut

METHOD = """\
  Future<Response> fetchWithRetry(String url, {int attempts = retries}) async {
    var delay = const Duration(milliseconds: 500);
    for (var attempt = 0; attempt < attempts; attempt++) {
      final response = await client.get(Uri.parse(url)).timeout(const Duration(seconds: 30));
      if (response.statusCode < 500) {
        last = response;
        return response;
      }
      await Future.delayed(delay);
      delay *= 2;
    }
    throw StateError('gave up on $url after $attempts attempts');
  }
"""

SOURCE = f"""\
import 'package:http/http.dart';

const retries = 3;

class Fetcher {{
  final Client client;
  Response? last;

  Fetcher(this.client);
  Fetcher.withDefaults() : client = Client();

{METHOD}
  void close() {{
    client.close();
  }}
}}
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


DART = LangCase(
    name="dart",
    path="lib/src/fetcher.dart",
    other_path="lib/src/net/retrying_client.dart",
    symbol="Fetcher.fetchWithRetry",
    source=SOURCE,
    cosmetic=_with(
        "    var delay = const Duration(milliseconds: 500);\n",
        "    // back off exponentially\n\n    var delay = const Duration(milliseconds: 500); /* base */\n",
    ).replace(
        "      final response = await client.get(Uri.parse(url)).timeout(const Duration(seconds: 30));\n",
        "      final response = await client\n          .get(Uri.parse(url))\n          .timeout(const Duration(seconds: 30));\n",
    ),
    edited=_with("Duration(seconds: 30)", "Duration(seconds: 60)"),
    edited_line="final response = await client.get(Uri.parse(url)).timeout(const Duration(seconds: 60));",
    renamed=_with("fetchWithRetry(", "getWithBackoff("),
    new_symbol="Fetcher.getWithBackoff",
    without=cut(SOURCE, "  Future<Response> fetchWithRetry", "  void close()"),
    moved_to=f"import 'package:http/http.dart';\n\nimport '../fetcher.dart';\n\nclass RetryingClient {{\n{METHOD}}}\n",
    moved_symbol="RetryingClient.fetchWithRetry",
    duplicated=_with("fetchWithRetry(", "fetchA(")
    + f"\nclass Mirror {{\n{METHOD.replace('fetchWithRetry(', 'fetchB(')}}}\n",
    trivial=SOURCE + "\nvoid noop() {}\n",
    trivial_symbol="noop",
    trivial_renamed=SOURCE + "\nvoid nothing() {}\n",
    real_edits=(
        ("literal", _with("milliseconds: 500", "milliseconds: 250")),
        ("operator", _with("statusCode < 500", "statusCode <= 500")),
        ("called name", _with("client.get(Uri.parse(url))", "client.head(Uri.parse(url))")),
        (
            "statement order",
            _with(
                "      await Future.delayed(delay);\n      delay *= 2;\n",
                "      delay *= 2;\n      await Future.delayed(delay);\n",
            ),
        ),
        ("interpolated text", _with("'gave up on $url after", "'failed on $url after")),
        ("async marker", _with("{int attempts = retries}) async {", "{int attempts = retries}) {")),
    ),
    cosmetic_edits=(
        ("comments", _with("      delay *= 2;\n", "      /// exponential backoff\n      delay *= 2; // doubles\n")),
        ("blank lines", _with("      await Future.delayed(delay);\n", "\n      await Future.delayed(delay);\n\n")),
        ("trailing commas", _with("await Future.delayed(delay);", "await Future.delayed(\n        delay,\n      );")),
        (
            "quote style",
            _with("'gave up on $url after $attempts attempts'", '"gave up on ${url} after $attempts attempts"'),
        ),
        ("redundant parentheses", _with("if (response.statusCode < 500) {", "if ((response.statusCode < 500)) {")),
        (
            "annotation",
            _with("  Future<Response> fetchWithRetry(", "  @visibleForTesting\n  Future<Response> fetchWithRetry("),
        ),
    ),
)
