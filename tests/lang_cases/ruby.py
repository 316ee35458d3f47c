"""Ruby: a retrying fetch method in a namespaced class, RuboCop-style edits."""

from .base import LangCase, cut

METHOD = """\
    def fetch_with_retry(url, attempts: 3)
      delay = 0.5
      attempts.times do |attempt|
        response = @client.get(url, timeout: 30, headers: { 'Accept' => 'application/json' })
        if response.status < 500
          @last = response
          return response
        end
        sleep(delay * (2**attempt))
      end
      raise FetchError, "gave up on #{url} after #{attempts} attempts"
    end
"""

SOURCE = f"""\
# frozen_string_literal: true

require 'net/http'

module Net
  class Fetcher
    RETRIES = 3

    def self.build(base_url)
      new(HTTPClient.new(base_url: base_url))
    end

    def initialize(client)
      @client = client
    end

{METHOD}
    def close
      @last = nil
    end
  end
end
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


RUBY = LangCase(
    name="ruby",
    path="lib/net/fetcher.rb",
    other_path="lib/net/http_fetcher.rb",
    symbol="Net.Fetcher.fetch_with_retry",
    source=SOURCE,
    cosmetic=_with(
        "      delay = 0.5\n",
        "      # back off exponentially\n\n      delay = 0.5 # seconds\n",
    ).replace(
        "        response = @client.get(url, timeout: 30, headers: { 'Accept' => 'application/json' })\n",
        "        response = @client.get(\n          url,\n          timeout: 30,\n          headers: {'Accept' => 'application/json'},\n        )\n",
    ),
    edited=_with("@client.get(url, timeout: 30,", "@client.get(url, timeout: 60,"),
    edited_line="response = @client.get(url, timeout: 60, headers:",
    renamed=_with("    def fetch_with_retry(", "    def get_with_backoff("),
    new_symbol="Net.Fetcher.get_with_backoff",
    without=cut(SOURCE, "    def fetch_with_retry(", "    def close"),
    moved_to=f"# frozen_string_literal: true\n\nmodule Net\n  class HttpFetcher < Fetcher\n{METHOD}  end\nend\n",
    moved_symbol="Net.HttpFetcher.fetch_with_retry",
    duplicated=_with("    def fetch_with_retry(", "    def fetch_a(")
    + f"\nclass Mirror\n{METHOD.replace('    def fetch_with_retry(', '    def fetch_b(')}end\n",
    trivial=_with("    def close\n", "    def noop; end\n\n    def close\n"),
    trivial_symbol="Net.Fetcher.noop",
    trivial_renamed=_with("    def close\n", "    def nothing; end\n\n    def close\n"),
    real_edits=(
        ("literal", _with("delay = 0.5", "delay = 0.25")),
        ("operator", _with("response.status < 500", "response.status <= 500")),
        ("called name", _with("        sleep(delay", "        wait(delay")),
        (
            "statement order",
            _with(
                "          @last = response\n          return response\n",
                "          return response\n          @last = response\n",
            ),
        ),
        (
            "interpolation",
            _with('"gave up on #{url} after #{attempts} attempts"', '"gave up on #{attempts} after #{url} attempts"'),
        ),
        (
            "raw quotes",
            _with('"gave up on #{url} after #{attempts} attempts"', "'gave up on #{url} after #{attempts} attempts'"),
        ),
    ),
    cosmetic_edits=(
        (
            "comments",
            _with(
                "        sleep(delay * (2**attempt))\n",
                "        # exponential\n        sleep(delay * (2**attempt)) # doubled\n",
            ),
        ),
        ("blank lines", _with("        sleep(delay", "\n        sleep(delay")),
        (
            "call without parentheses",
            _with("        sleep(delay * (2**attempt))\n", "        sleep delay * (2**attempt)\n"),
        ),
        ("redundant parentheses", _with("if response.status < 500", "if (response.status < 500)")),
        ("quote style", _with("{ 'Accept' => 'application/json' }", '{ "Accept" => "application/json" }')),
        (
            "block style",
            _with("      attempts.times do |attempt|\n", "      attempts.times { |attempt|\n").replace(
                "        sleep(delay * (2**attempt))\n      end\n", "        sleep(delay * (2**attempt))\n      }\n"
            ),
        ),
    ),
)
