"""C++: an out-of-line retrying fetch method in a namespace, clang-format-style edits."""

from .base import LangCase, cut

METHOD = """\
Response Fetcher::fetch_with_retry(const std::string& url, int attempts) const {
    auto delay = std::chrono::milliseconds(500);
    for (int attempt = 0; attempt < attempts; ++attempt) {
        Response response = client_.get(url, std::chrono::seconds(kTimeoutSeconds));
        if (response.status() < 500) {
            last_ = response;
            return response;
        }
        std::this_thread::sleep_for(delay);
        delay *= 2;
    }
    throw std::runtime_error("gave up on " + url + " after " + std::to_string(attempts) + " attempts");
}
"""

INCLUDES = """\
#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
"""

SOURCE = f"""\
#include "net/fetcher.h"

{INCLUDES}
namespace net {{

namespace {{
constexpr int kTimeoutSeconds = 30;
}}  // namespace

Fetcher::Fetcher(HttpClient& client) : client_(client) {{}}

{METHOD}
void Fetcher::close() {{
    last_.reset();
}}

}}  // namespace net
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


CPP = LangCase(
    name="cpp",
    path="src/net/fetcher.cpp",
    other_path="src/net/http_fetcher.cc",
    symbol="net.Fetcher.fetch_with_retry",
    source=SOURCE,
    cosmetic=_with(
        "    auto delay = std::chrono::milliseconds(500);\n",
        "    // back off exponentially\n\n    auto delay = std::chrono::milliseconds(500); /* base */\n",
    ).replace(
        "Response Fetcher::fetch_with_retry(const std::string& url, int attempts) const {\n",
        "Response\nFetcher::fetch_with_retry(const std::string &url,\n                          int attempts) const\n{\n",
    ),
    edited=_with("std::chrono::seconds(kTimeoutSeconds)", "std::chrono::seconds(2 * kTimeoutSeconds)"),
    edited_line="Response response = client_.get(url, std::chrono::seconds(2 * kTimeoutSeconds));",
    renamed=_with("Response Fetcher::fetch_with_retry(", "Response Fetcher::get_with_backoff("),
    new_symbol="net.Fetcher.get_with_backoff",
    without=cut(SOURCE, "Response Fetcher::fetch_with_retry(", "void Fetcher::close("),
    moved_to=f'#include "net/http_fetcher.h"\n\n{INCLUDES}\nnamespace net {{\n\n'
    "constexpr int kTimeoutSeconds = 60;\n\n"
    + METHOD.replace("Response Fetcher::", "Response HttpFetcher::")
    + "\n}  // namespace net\n",
    moved_symbol="net.HttpFetcher.fetch_with_retry",
    duplicated=_with("Response Fetcher::fetch_with_retry(", "Response Fetcher::fetch_a(")
    + "\n"
    + METHOD.replace("Response Fetcher::fetch_with_retry(", "Response net::Mirror::fetch_b("),
    trivial=_with("void Fetcher::close() {", "void Fetcher::noop() {}\n\nvoid Fetcher::close() {"),
    trivial_symbol="net.Fetcher.noop",
    trivial_renamed=_with("void Fetcher::close() {", "void Fetcher::nothing() {}\n\nvoid Fetcher::close() {"),
    real_edits=(
        ("literal", _with("milliseconds(500)", "milliseconds(250)")),
        ("operator", _with("response.status() < 500", "response.status() <= 500")),
        ("called name", _with("std::this_thread::sleep_for(delay);", "std::this_thread::sleep_until(delay);")),
        (
            "statement order",
            _with(
                "        std::this_thread::sleep_for(delay);\n        delay *= 2;\n",
                "        delay *= 2;\n        std::this_thread::sleep_for(delay);\n",
            ),
        ),
        ("const qualifier", _with("int attempts) const {", "int attempts) {")),
        ("by value", _with("(const std::string& url, int attempts)", "(std::string url, int attempts)")),
    ),
    cosmetic_edits=(
        ("comments", _with("        delay *= 2;\n", "        /// exponential\n        delay *= 2;  // doubled\n")),
        (
            "blank lines",
            _with("        std::this_thread::sleep_for(delay);\n", "\n        std::this_thread::sleep_for(delay);\n\n"),
        ),
        (
            "wrapped arguments",
            _with(
                'throw std::runtime_error("gave up on " + url + " after " + std::to_string(attempts) + " attempts");',
                'throw std::runtime_error(\n        "gave up on " + url + " after " +\n        std::to_string(attempts) + " attempts");',
            ),
        ),
        ("redundant parentheses", _with("if (response.status() < 500) {", "if ((response.status() < 500)) {")),
        (
            "reference spacing",
            _with("(const std::string& url, int attempts)", "(const std::string &url, int attempts)"),
        ),
        ("braces on own line", _with("++attempt) {\n", "++attempt)\n    {\n")),
    ),
)
