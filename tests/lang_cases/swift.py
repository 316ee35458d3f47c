"""Swift: an async retrying fetch method on a URLSession client, swift-format-style edits."""

from .base import LangCase, cut

METHOD = """\
    func fetchWithRetry(_ url: URL, attempts: Int = 3) async throws -> (Data, HTTPURLResponse) {
        var delay: UInt64 = 500_000_000
        for attempt in 0..<attempts {
            var request = URLRequest(url: url, timeoutInterval: 30)
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            let (data, response) = try await session.data(for: request)
            if let http = response as? HTTPURLResponse, http.statusCode < 500 {
                last = http
                return (data, http)
            }
            try await Task.sleep(nanoseconds: delay << attempt)
        }
        throw FetchError.gaveUp("gave up on \\(url) after \\(attempts) attempts")
    }
"""

SOURCE = f"""\
import Foundation

enum FetchError: Error {{
    case gaveUp(String)
}}

final class Fetcher {{
    static let retries = 3

    private let session: URLSession
    private var last: HTTPURLResponse?

    init(session: URLSession = .shared) {{
        self.session = session
    }}

{METHOD}
    func close() {{
        last = nil
        session.invalidateAndCancel()
    }}
}}
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


SWIFT = LangCase(
    name="swift",
    path="Sources/Net/Fetcher.swift",
    other_path="Sources/Net/HTTPFetcher.swift",
    symbol="Fetcher.fetchWithRetry",
    source=SOURCE,
    cosmetic=_with(
        "        var delay: UInt64 = 500_000_000\n",
        "        // back off exponentially\n\n        var delay: UInt64 = 500_000_000 /* ns */\n",
    ).replace(
        "            var request = URLRequest(url: url, timeoutInterval: 30)\n",
        "            var request = URLRequest(\n                url: url,\n                timeoutInterval: 30\n            )\n",
    ),
    edited=_with(
        'request.setValue("application/json", forHTTPHeaderField: "Accept")',
        'request.setValue("application/xml", forHTTPHeaderField: "Accept")',
    ),
    edited_line='request.setValue("application/xml", forHTTPHeaderField: "Accept")',
    renamed=_with("    func fetchWithRetry(", "    func getWithBackoff("),
    new_symbol="Fetcher.getWithBackoff",
    without=cut(SOURCE, "    func fetchWithRetry(", "    func close()"),
    moved_to=f"import Foundation\n\nextension HTTPFetcher {{\n{METHOD}}}\n",
    moved_symbol="HTTPFetcher.fetchWithRetry",
    duplicated=_with("    func fetchWithRetry(", "    func fetchA(")
    + "\nextension Mirror {\n"
    + METHOD.replace("    func fetchWithRetry(", "    func fetchB(")
    + "}\n",
    trivial=_with("    func close() {", "    private func noop() {}\n\n    func close() {"),
    trivial_symbol="Fetcher.noop",
    trivial_renamed=_with("    func close() {", "    private func nothing() {}\n\n    func close() {"),
    real_edits=(
        ("literal", _with("timeoutInterval: 30)", "timeoutInterval: 60)")),
        ("operator", _with("http.statusCode < 500", "http.statusCode <= 500")),
        ("called name", _with("try await session.data(for: request)", "try await session.upload(for: request)")),
        (
            "statement order",
            _with(
                "            var request = URLRequest(url: url, timeoutInterval: 30)\n            request.setValue(",
                "            request.setValue(",
            ).replace(
                '"Accept")\n            let (data',
                '"Accept")\n            var request = URLRequest(url: url, timeoutInterval: 30)\n            let (data',
            ),
        ),
        ("range operator", _with("0..<attempts", "0...attempts")),
        ("argument label", _with("Task.sleep(nanoseconds: delay << attempt)", "Task.sleep(for: delay << attempt)")),
    ),
    cosmetic_edits=(
        (
            "doc comments",
            _with(
                "        var delay: UInt64 = 500_000_000\n",
                "        /// Backoff base, in nanoseconds.\n        var delay: UInt64 = 500_000_000 // tuned\n",
            ),
        ),
        ("blank lines", _with("            try await Task.sleep(", "\n            try await Task.sleep(")),
        (
            "wrapped parameters",
            _with(
                "fetchWithRetry(_ url: URL, attempts: Int = 3)",
                "fetchWithRetry(\n        _ url: URL,\n        attempts: Int = 3\n    )",
            ),
        ),
        (
            "redundant parentheses",
            _with("Task.sleep(nanoseconds: delay << attempt)", "Task.sleep(nanoseconds: (delay << attempt))"),
        ),
        ("semicolons", _with("                last = http\n", "                last = http;\n")),
    ),
)
