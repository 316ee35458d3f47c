"""Twins in Elixir, Haskell, Dart, SQL, OCaml and Bash, through the real CLI.

Elixir functions are told apart by arity (`fetch/1`, `fetch/2`) and protocol implementations by
their `for:` type; Haskell instance methods by the instance type as spelled; Dart accessor pairs by
`get`/`set`; SQL overloads by argument list. OCaml shadowing and Bash per-branch definitions have
no spelling to tell them apart: ordinals. Zig and GDScript have no overloading; Vue and Svelte
twins are JavaScript's and TypeScript's.
"""

from __future__ import annotations

# The same four behaviours as test_twins.py, collected here over these languages' cases: pytest
# resolves their `twins` fixture in this module.
from test_twins import (  # noqa: F401
    Twins,
    test_bare_name_is_refused_with_every_typeable_form,
    test_each_typeable_form_anchors_its_own_twin,
    test_editing_one_twin_stales_only_its_memory,
    test_whitespace_in_discriminator_is_forgiven,
    twins_fixture,
)

TWINS = {
    "elixir-arity": Twins(
        "elixir",
        "lib/my_app/client.ex",
        """\
defmodule MyApp.Client do
  @default_timeout 30_000

  def fetch(url), do: fetch(url, @default_timeout)

  @spec fetch(String.t(), timeout()) :: {:ok, binary()} | {:error, term()}
  def fetch(url, timeout) when is_binary(url) do
    case HTTPClient.get(url, receive_timeout: timeout) do
      {:ok, %{status: 200, body: body}} -> {:ok, body}
      {:ok, %{status: status}} -> {:error, {:http, status}}
      error -> error
    end
  end

  def fetch(_url, _timeout), do: {:error, :bad_url}
end
""",
        "MyApp.Client.fetch",
        ("/1", "/2"),
        ("/ 2", 1),
        ("{:error, {:http, status}}", "{:error, {:status, status}}", 1),
    ),
    "elixir-protocol": Twins(
        "elixir",
        "lib/my_app/size.ex",
        """\
defprotocol MyApp.Size do
  def size(data)
end

defimpl MyApp.Size, for: Map do
  def size(map), do: map_size(map)
end

defimpl MyApp.Size, for: List do
  def size(list), do: length(list)
end
""",
        "MyApp.Size.size",
        ("/1", "Map", "List"),
        (" List ", 2),
        ("length(list)", "Enum.count(list)", 2),
    ),
    "haskell-instances": Twins(
        "haskell",
        "src/Render/Instances.hs",
        """\
module Render.Instances where

import Render (Render (..))

instance Render Bool where
  render True = "yes"
  render False = "no"

instance Render (Maybe a) where
  render Nothing = "-"
  render (Just _) = "some"
""",
        "Render.render",
        ("Bool", "(Maybe a)"),
        ("( Maybe a )", 1),
        ('render Nothing = "-"', 'render Nothing = "none"', 1),
    ),
    "dart-accessors": Twins(
        "dart",
        "lib/src/cache.dart",
        """\
class Cache {
  Duration _ttl = const Duration(minutes: 5);

  Duration get ttl => _ttl;

  set ttl(Duration value) {
    if (value.isNegative) throw ArgumentError.value(value, 'ttl');
    _ttl = value;
  }
}
""",
        "Cache.ttl",
        ("get", "set (Duration value)"),
        ("set(Duration value)", 1),
        ("value.isNegative", "value == Duration.zero", 1),
    ),
    "sql-overloads": Twins(
        "sql",
        "db/functions.sql",
        """\
CREATE FUNCTION billing.total_due(cust BIGINT) RETURNS BIGINT LANGUAGE sql AS $$
    SELECT COALESCE(SUM(amount_cents), 0) FROM billing.invoices WHERE customer_id = cust;
$$;

CREATE FUNCTION billing.total_due(cust BIGINT, since DATE) RETURNS BIGINT LANGUAGE sql AS $$
    SELECT COALESCE(SUM(amount_cents), 0) FROM billing.invoices
    WHERE customer_id = cust AND issued_on >= since;
$$;
""",
        "billing.total_due",
        ("(cust BIGINT)", "(cust BIGINT, since DATE)"),
        ("( cust BIGINT,since DATE )", 1),
        ("issued_on >= since", "issued_on > since", 1),
    ),
    "ocaml-shadowing": Twins(
        "ocaml",
        "lib/routes.ml",
        """\
let handlers = [ ("/health", Health.handle); ("/metrics", Metrics.handle) ]

let handlers = ("/admin", Admin.handle) :: handlers
""",
        "handlers",
        ("#1", "#2"),
        (" #2", 1),
        ('("/admin", Admin.handle)', '("/admin", Admin.guarded)', 1),
    ),
    "bash-branches": Twins(
        "bash",
        "scripts/lib/checksum.sh",
        """\
if [[ "$OSTYPE" == darwin* ]]; then
  sha() {
    shasum -a 256 "$1" | cut -d' ' -f1
  }
else
  sha() {
    sha256sum "$1" | cut -d' ' -f1
  }
fi
""",
        "sha",
        ("#1", "#2"),
        ("#2 ", 1),
        ("sha256sum \"$1\"", "sha256sum --binary \"$1\"", 1),
    ),
}


twins = twins_fixture(TWINS)
