"""C: a retrying fetch function over a small HTTP client struct, clang-format-style edits."""

from .base import LangCase, cut

FUNCTION = """\
int fetch_with_retry(struct fetcher *f, const char *url, int attempts) {
    unsigned int delay_ms = 500;
    for (int attempt = 0; attempt < attempts; attempt++) {
        http_response *resp = http_get(f->client, url, TIMEOUT_SECONDS);
        if (resp != NULL && resp->status < 500) {
            f->last = resp;
            return resp->status;
        }
        http_response_free(resp);
        usleep(delay_ms * 1000);
        delay_ms *= 2;
    }
    fprintf(stderr, "gave up on %s after %d attempts: %s\\n", url, attempts, strerror(errno));
    return -1;
}
"""

INCLUDES = """\
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "http.h"
"""

SOURCE = f"""\
{INCLUDES}
#define TIMEOUT_SECONDS 30

static const int kRetries = 3;

struct fetcher {{
    http_client *client;
    http_response *last;
}};

{FUNCTION}
void fetcher_close(struct fetcher *f) {{
    http_response_free(f->last);
    f->last = NULL;
}}
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


C = LangCase(
    name="c",
    path="src/fetch.c",
    other_path="src/net/client.c",
    symbol="fetch_with_retry",
    source=SOURCE,
    cosmetic=_with(
        "    unsigned int delay_ms = 500;\n",
        "    /* back off exponentially */\n\n    unsigned int delay_ms = 500; // ms\n",
    ).replace(
        "int fetch_with_retry(struct fetcher *f, const char *url, int attempts) {\n",
        "int\nfetch_with_retry(struct fetcher* f,\n                 const char* url,\n                 int attempts)\n{\n",
    ),
    edited=_with("http_get(f->client, url, TIMEOUT_SECONDS)", "http_get(f->client, url, 2 * TIMEOUT_SECONDS)"),
    edited_line="http_response *resp = http_get(f->client, url, 2 * TIMEOUT_SECONDS);",
    renamed=_with("int fetch_with_retry(", "int get_with_backoff("),
    new_symbol="get_with_backoff",
    without=cut(SOURCE, "int fetch_with_retry(", "void fetcher_close("),
    moved_to=f'{INCLUDES}\n#include "fetch.h"\n\n{FUNCTION}',
    moved_symbol="fetch_with_retry",
    duplicated=_with("int fetch_with_retry(", "int fetch_a(")
    + "\n"
    + FUNCTION.replace("int fetch_with_retry(", "int fetch_b("),
    trivial=_with("void fetcher_close(", "static void noop(void) {}\n\nvoid fetcher_close("),
    trivial_symbol="noop",
    trivial_renamed=_with("void fetcher_close(", "static void nothing(void) {}\n\nvoid fetcher_close("),
    real_edits=(
        ("literal", _with("delay_ms = 500;", "delay_ms = 250;")),
        ("operator", _with("resp->status < 500", "resp->status <= 500")),
        ("called name", _with("usleep(delay_ms * 1000);", "sleep(delay_ms * 1000);")),
        (
            "statement order",
            _with(
                "        usleep(delay_ms * 1000);\n        delay_ms *= 2;\n",
                "        delay_ms *= 2;\n        usleep(delay_ms * 1000);\n",
            ),
        ),
        ("pointer to value", _with("            f->last = resp;\n", "            f->last = *resp;\n")),
        ("storage class", _with("int fetch_with_retry(", "static int fetch_with_retry(")),
    ),
    cosmetic_edits=(
        (
            "comments",
            _with(
                "        http_response_free(resp);\n",
                "        /* 5xx: retry */\n        http_response_free(resp); // owned\n",
            ),
        ),
        ("blank lines", _with("        usleep(delay_ms * 1000);\n", "\n        usleep(delay_ms * 1000);\n\n")),
        (
            "wrapped arguments",
            _with(
                '"gave up on %s after %d attempts: %s\\n", url, attempts, strerror(errno));',
                '"gave up on %s after %d attempts: %s\\n",\n            url,\n            attempts,\n            strerror(errno));',
            ),
        ),
        (
            "redundant parentheses",
            _with("if (resp != NULL && resp->status < 500)", "if ((resp != NULL) && (resp->status < 500))"),
        ),
        ("pointer spacing", _with("http_response *resp = ", "http_response* resp = ")),
        ("braces on own line", _with("attempt++) {\n", "attempt++)\n    {\n")),
    ),
)
