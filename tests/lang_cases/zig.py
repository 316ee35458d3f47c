"""Zig: a retrying fetch method on a struct; zig-fmt-style edits."""

from .base import LangCase, cut

METHOD = """\
    pub fn fetchWithRetry(self: *Fetcher, url: []const u8, attempts: u32) !Response {
        var delay_ms: u64 = 500;
        var attempt: u32 = 0;
        while (attempt < attempts) : (attempt += 1) {
            const response = try self.client.get(url, .{ .timeout_ms = 30_000 });
            if (response.status < 500) {
                self.last = response;
                return response;
            }
            std.time.sleep(delay_ms * std.time.ns_per_ms);
            delay_ms *= 2;
        }
        std.log.warn("gave up on {s} after {d} attempts", .{ url, attempts });
        return error.GaveUp;
    }
"""

SOURCE = f"""\
const std = @import("std");
const http = @import("http.zig");

pub const retries: u32 = 3;

pub const Fetcher = struct {{
    client: *http.Client,
    last: ?http.Response = null,

{METHOD}
    pub fn close(self: *Fetcher) void {{
        self.client.deinit();
    }}
}};
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


ZIG = LangCase(
    name="zig",
    path="src/fetch.zig",
    other_path="src/net/retry.zig",
    symbol="Fetcher.fetchWithRetry",
    source=SOURCE,
    cosmetic=_with(
        "        var delay_ms: u64 = 500;\n",
        "        // back off exponentially\n\n        var delay_ms: u64 = 500; // doubled per attempt\n",
    ).replace(
        "            const response = try self.client.get(url, .{ .timeout_ms = 30_000 });\n",
        "            const response = try self.client.get(\n                url,\n                .{ .timeout_ms = 30_000 },\n            );\n",
    ),
    edited=_with(".timeout_ms = 30_000", ".timeout_ms = 60_000"),
    edited_line="const response = try self.client.get(url, .{ .timeout_ms = 60_000 });",
    renamed=_with("pub fn fetchWithRetry(", "pub fn getWithBackoff("),
    new_symbol="Fetcher.getWithBackoff",
    without=cut(SOURCE, "    pub fn fetchWithRetry", "    pub fn close"),
    moved_to=f'const std = @import("std");\n\npub const Retrying = struct {{\n{METHOD}}};\n',
    moved_symbol="Retrying.fetchWithRetry",
    duplicated=_with("pub fn fetchWithRetry(", "pub fn fetchA(")
    + f"\npub const Mirror = struct {{\n{METHOD.replace('pub fn fetchWithRetry(', 'pub fn fetchB(')}}};\n",
    trivial=SOURCE + "\nfn noop() void {}\n",
    trivial_symbol="noop",
    trivial_renamed=SOURCE + "\nfn nothing() void {}\n",
    real_edits=(
        ("literal", _with("var delay_ms: u64 = 500;", "var delay_ms: u64 = 250;")),
        ("operator", _with("response.status < 500", "response.status <= 500")),
        ("called name", _with("self.client.get(url", "self.client.head(url")),
        (
            "statement order",
            _with(
                "            std.time.sleep(delay_ms * std.time.ns_per_ms);\n            delay_ms *= 2;\n",
                "            delay_ms *= 2;\n            std.time.sleep(delay_ms * std.time.ns_per_ms);\n",
            ),
        ),
        ("error handling", _with("const response = try self.client", "const response = self.client")),
        ("string", _with('"gave up on {s} after {d} attempts"', '"gave up on {s} after {d} tries"')),
    ),
    cosmetic_edits=(
        (
            "comments",
            _with(
                "            delay_ms *= 2;\n",
                "            /// exponential backoff\n            delay_ms *= 2; // doubles\n",
            ),
        ),
        ("blank lines", _with("            delay_ms *= 2;\n", "\n            delay_ms *= 2;\n\n")),
        ("trailing commas", _with(".{ url, attempts }", ".{\n            url,\n            attempts,\n        }")),
        (
            "redundant parentheses",
            _with("std.time.sleep(delay_ms * std.time.ns_per_ms);", "std.time.sleep((delay_ms * std.time.ns_per_ms));"),
        ),
        ("spacing", _with("delay_ms *= 2;", "delay_ms  *=  2;")),
    ),
)
