"""GDScript: a retrying fetch on a `class_name` script; indentation-sensitive edits."""

from .base import LangCase, cut

METHOD = """\
func fetch_with_retry(url: String, attempts: int = RETRIES) -> Dictionary:
	var delay := 0.5
	for attempt in range(attempts):
		var response: Dictionary = await _http.request_json(url, timeout)
		if response.get("status", 0) < 500:
			_last = response
			return response
		await get_tree().create_timer(delay * pow(2, attempt)).timeout
	push_error("gave up on %s after %d attempts" % [url, attempts])
	return {}
"""

SOURCE = f"""\
class_name Fetcher
extends Node

signal fetched(url: String)

const RETRIES := 3

@export var timeout: float = 30.0
var _http := HttpJson.new()
var _last: Dictionary = {{}}


{METHOD}

func close() -> void:
	_http.close()
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


GDSCRIPT = LangCase(
    name="gdscript",
    path="scripts/fetcher.gd",
    other_path="scripts/net/retrying_http.gd",
    symbol="Fetcher.fetch_with_retry",
    source=SOURCE,
    cosmetic=_with(
        "\tvar delay := 0.5\n",
        "\t# back off exponentially\n\n\tvar delay := 0.5  # seconds\n",
    ).replace(
        '\tpush_error("gave up on %s after %d attempts" % [url, attempts])\n',
        "\tpush_error(\n\t\t'gave up on %s after %d attempts' % [\n\t\t\turl,\n\t\t\tattempts,\n\t\t]\n\t)\n",
    ),
    edited=_with("var delay := 0.5", "var delay := 1.0"),
    edited_line="var delay := 1.0",
    renamed=_with("func fetch_with_retry(", "func get_with_backoff("),
    new_symbol="Fetcher.get_with_backoff",
    without=cut(SOURCE, "func fetch_with_retry", "func close"),
    moved_to=f"class_name RetryingHttp\nextends RefCounted\n\nconst RETRIES := 3\n\n{METHOD}",
    moved_symbol="RetryingHttp.fetch_with_retry",
    duplicated=_with("func fetch_with_retry(", "func fetch_a(")
    + "\n\nclass Mirror:\n"
    + "".join(
        "\t" + line + "\n" if line else "\n"
        for line in METHOD.replace("func fetch_with_retry(", "func fetch_b(").splitlines()
    ),
    trivial=SOURCE + "\n\nfunc noop() -> void:\n\tpass\n",
    trivial_symbol="Fetcher.noop",
    trivial_renamed=SOURCE + "\n\nfunc nothing() -> void:\n\tpass\n",
    real_edits=(
        ("literal", _with('response.get("status", 0) < 500', 'response.get("status", 0) < 400')),
        ("operator", _with('response.get("status", 0) < 500', 'response.get("status", 0) <= 500')),
        ("called name", _with("push_error(", "push_warning(")),
        (
            "statement order",
            _with(
                "\t\t\t_last = response\n\t\t\treturn response\n",
                "\t\t\treturn response\n\t\t\t_last = response\n",
            ),
        ),
        (
            "dedent out of if",
            _with("\t\t\t_last = response\n\t\t\treturn response\n", "\t\t\t_last = response\n\t\treturn response\n"),
        ),
        (
            "indent into if",
            _with(
                "\t\t\treturn response\n\t\tawait get_tree()",
                "\t\t\treturn response\n\t\t\tawait get_tree()",
            ),
        ),
    ),
    cosmetic_edits=(
        ("comment", _with("\t\t\treturn response\n", "\t\t\treturn response  # 4xx never heals\n")),
        ("blank lines", _with("\tvar delay := 0.5\n", "\n\tvar delay := 0.5\n\n")),
        ("quote style", _with('response.get("status", 0)', "response.get('status', 0)")),
        (
            "redundant parentheses",
            _with("create_timer(delay * pow(2, attempt))", "create_timer((delay * pow(2, attempt)))"),
        ),
        ("indent width", SOURCE.replace(METHOD, METHOD.replace("\t", "    "))),
        ("trailing comma", _with("% [url, attempts])", "% [url, attempts,])")),
    ),
)
