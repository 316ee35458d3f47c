"""PHP: a retrying fetch method on a PSR-4 class around a PSR-18 client, php-cs-fixer-style edits."""

from .base import LangCase, cut

METHOD = """\
    public function fetchWithRetry(string $url, int $attempts = 3): ResponseInterface
    {
        $delay = 500;
        for ($attempt = 0; $attempt < $attempts; $attempt++) {
            $request = $this->factory->createRequest('GET', $url)->withHeader('Accept', 'application/json');
            $response = $this->client->sendRequest($request);
            if ($response->getStatusCode() < 500) {
                $this->last = $response;
                return $response;
            }
            usleep($delay * 1000 * (2 ** $attempt));
        }
        throw new FetchException("gave up on {$url} after {$attempts} attempts");
    }
"""

SOURCE = f"""\
<?php

declare(strict_types=1);

namespace App\\Http;

use Psr\\Http\\Client\\ClientInterface;
use Psr\\Http\\Message\\RequestFactoryInterface;
use Psr\\Http\\Message\\ResponseInterface;

final class Fetcher
{{
    public const RETRIES = 3;

    private ?ResponseInterface $last = null;

    public function __construct(
        private ClientInterface $client,
        private RequestFactoryInterface $factory,
    ) {{
    }}

{METHOD}
    public function close(): void
    {{
        $this->last = null;
    }}
}}
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


PHP = LangCase(
    name="php",
    path="src/Http/Fetcher.php",
    other_path="src/Http/HttpFetcher.php",
    symbol="Fetcher.fetchWithRetry",
    source=SOURCE,
    cosmetic=_with(
        "        $delay = 500;\n",
        "        // back off exponentially\n\n        $delay = 500; /* ms */\n",
    ).replace(
        "            $request = $this->factory->createRequest('GET', $url)->withHeader('Accept', 'application/json');\n",
        "            $request = $this->factory\n                ->createRequest('GET', $url)\n                ->withHeader('Accept', 'application/json');\n",
    ),
    edited=_with("->withHeader('Accept', 'application/json')", "->withHeader('Accept', 'application/xml')"),
    edited_line="$request = $this->factory->createRequest('GET', $url)->withHeader('Accept', 'application/xml');",
    renamed=_with("public function fetchWithRetry(", "public function getWithBackoff("),
    new_symbol="Fetcher.getWithBackoff",
    without=cut(SOURCE, "    public function fetchWithRetry(", "    public function close()"),
    moved_to="<?php\n\nnamespace App\\Http;\n\nclass HttpFetcher extends Fetcher\n{\n" + METHOD + "}\n",
    moved_symbol="HttpFetcher.fetchWithRetry",
    duplicated=_with("public function fetchWithRetry(", "public function fetchA(")
    + "\nclass Mirror\n{\n"
    + METHOD.replace("public function fetchWithRetry(", "public function fetchB(")
    + "}\n",
    trivial=_with(
        "    public function close(): void", "    private function noop(): void {}\n\n    public function close(): void"
    ),
    trivial_symbol="Fetcher.noop",
    trivial_renamed=_with(
        "    public function close(): void",
        "    private function nothing(): void {}\n\n    public function close(): void",
    ),
    real_edits=(
        ("literal", _with("$delay = 500;", "$delay = 250;")),
        ("operator", _with("getStatusCode() < 500", "getStatusCode() <= 500")),
        ("called name", _with("usleep($delay", "sleep($delay")),
        (
            "statement order",
            _with(
                "                $this->last = $response;\n                return $response;\n",
                "                return $response;\n                $this->last = $response;\n",
            ),
        ),
        (
            "interpolation",
            _with('"gave up on {$url} after {$attempts} attempts"', '"gave up on {$attempts} after {$url} attempts"'),
        ),
        (
            "raw quotes",
            _with('"gave up on {$url} after {$attempts} attempts"', "'gave up on {$url} after {$attempts} attempts'"),
        ),
    ),
    cosmetic_edits=(
        (
            "comments",
            _with("            usleep(", "            # exponential backoff\n            /** doubled */ usleep("),
        ),
        ("blank lines", _with("            usleep(", "\n            usleep(")),
        ("quote style", _with("createRequest('GET', $url)", 'createRequest("GET", $url)')),
        (
            "redundant parentheses",
            _with("usleep($delay * 1000 * (2 ** $attempt));", "usleep((($delay * 1000) * (2 ** $attempt)));"),
        ),
        (
            "trailing comma",
            _with("->withHeader('Accept', 'application/json')", "->withHeader('Accept', 'application/json',)"),
        ),
        (
            "braces on the same line",
            _with(
                "    public function fetchWithRetry(string $url, int $attempts = 3): ResponseInterface\n    {\n",
                "    public function fetchWithRetry(string $url, int $attempts = 3): ResponseInterface {\n",
            ),
        ),
    ),
)
