"""OCaml: a retrying fetch in a module; ocamlformat-style edits (leading `|`, `begin end`)."""

from .base import LangCase, cut

FUNCTION = """\
  let fetch_with_retry client ?(attempts = retries) url =
    let rec go attempt delay =
      match Client.get client ~timeout:30.0 url with
      | Ok response when response.status < 500 -> Ok response
      | Ok _ | Error _ when attempt < attempts ->
          Unix.sleepf delay;
          go (attempt + 1) (delay *. 2.0)
      | Ok _ | Error _ -> Error (Printf.sprintf "gave up on %s after %d attempts" url attempts)
    in
    go 1 0.5
"""

SOURCE = f"""\
open Net

let retries = 3

module Fetcher = struct
  type t = {{ client : Client.t; mutable last : Client.response option }}

{FUNCTION}
  let close t = Client.close t.client
end
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


OCAML = LangCase(
    name="ocaml",
    path="lib/fetch.ml",
    other_path="lib/net/retry.ml",
    symbol="Fetcher.fetch_with_retry",
    source=SOURCE,
    cosmetic=_with(
        "    let rec go attempt delay =\n",
        "    (* back off exponentially *)\n\n    let rec go attempt delay =\n",
    ).replace(
        "      match Client.get client ~timeout:30.0 url with\n      | Ok response",
        "      match\n        Client.get client ~timeout:30.0 url\n      with\n      Ok response",
    ),
    edited=_with("~timeout:30.0", "~timeout:60.0"),
    edited_line="match Client.get client ~timeout:60.0 url with",
    renamed=_with("let fetch_with_retry client", "let get_with_backoff client"),
    new_symbol="Fetcher.get_with_backoff",
    without=cut(SOURCE, "  let fetch_with_retry", "  let close t"),
    moved_to=f"open Net\n\nlet retries = 3\n\nmodule Retry = struct\n{FUNCTION}end\n",
    moved_symbol="Retry.fetch_with_retry",
    duplicated=_with("let fetch_with_retry client", "let fetch_a client")
    + f"\nmodule Mirror = struct\n{FUNCTION.replace('let fetch_with_retry client', 'let fetch_b client')}end\n",
    trivial=SOURCE + "\nlet noop () = ()\n",
    trivial_symbol="noop",
    trivial_renamed=SOURCE + "\nlet nothing () = ()\n",
    real_edits=(
        ("literal", _with("go 1 0.5", "go 1 0.25")),
        ("operator", _with("response.status < 500", "response.status <= 500")),
        ("called name", _with("Unix.sleepf delay", "Thread.delay delay")),
        (
            "statement order",
            _with(
                "          Unix.sleepf delay;\n          go (attempt + 1) (delay *. 2.0)\n",
                "          go (attempt + 1) (delay *. 2.0);\n          Unix.sleepf delay\n",
            ),
        ),
        (
            "case order",
            _with(
                "      | Ok response when response.status < 500 -> Ok response\n"
                "      | Ok _ | Error _ when attempt < attempts ->\n"
                "          Unix.sleepf delay;\n"
                "          go (attempt + 1) (delay *. 2.0)\n",
                "      | Ok _ | Error _ when attempt < attempts ->\n"
                "          Unix.sleepf delay;\n"
                "          go (attempt + 1) (delay *. 2.0)\n"
                "      | Ok response when response.status < 500 -> Ok response\n",
            ),
        ),
        ("labelled argument", _with("?(attempts = retries)", "?(attempts = 5)")),
    ),
    cosmetic_edits=(
        (
            "comments",
            _with("          Unix.sleepf delay;\n", "          (** wait *) Unix.sleepf delay; (* then retry *)\n"),
        ),
        ("blank lines", _with("    in\n    go 1 0.5\n", "    in\n\n    go 1 0.5\n")),
        (
            "begin end",
            _with(
                "          Unix.sleepf delay;\n          go (attempt + 1) (delay *. 2.0)\n",
                "          begin\n            Unix.sleepf delay;\n            go (attempt + 1) (delay *. 2.0)\n          end\n",
            ),
        ),
        (
            "redundant parentheses",
            _with("Error (Printf.sprintf", "(Error (Printf.sprintf").replace("url attempts)\n", "url attempts))\n"),
        ),
        ("first case bar", _with("      | Ok response when", "        Ok response when")),
    ),
)
