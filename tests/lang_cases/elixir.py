"""Elixir: a multi-clause retrying fetch with its `@spec`, one symbol; mix-format-style edits."""

from .base import LangCase, cut

FUNCTION = """\
  @spec retry_delay(pos_integer(), map()) :: {:wait, non_neg_integer()} | :give_up | :done
  def retry_delay(attempt, _response) when attempt > @retries, do: :give_up

  def retry_delay(_attempt, %{status: 429, headers: headers}) do
    case List.keyfind(headers, "retry-after", 0) do
      {_, seconds} -> {:wait, String.to_integer(seconds) * 1000}
      nil -> {:wait, 30_000}
    end
  end

  def retry_delay(attempt, %{status: status}) when status >= 500 do
    Logger.warning("server error #{status} on attempt #{attempt}")
    pause = 500 * Integer.pow(2, attempt - 1)
    {:wait, min(pause, 30_000)}
  end

  def retry_delay(_attempt, _response), do: :done
"""

SOURCE = f"""\
defmodule MyApp.Backoff do
  @moduledoc "Decides when a failed request is worth another try."

  require Logger

  @retries 5

  @doc "How long to wait before attempt `attempt + 1`, or whether to stop."
{FUNCTION}
  def max_attempts, do: @retries
end
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


ELIXIR = LangCase(
    name="elixir",
    path="lib/my_app/backoff.ex",
    other_path="lib/my_app/http/retry.ex",
    symbol="MyApp.Backoff.retry_delay",
    source=SOURCE,
    cosmetic=_with(
        "  def retry_delay(_attempt, _response), do: :done\n",
        "  # anything else succeeded or failed for good\n\n  def retry_delay(_attempt, _response),\n    do: :done\n",
    ).replace(
        '    Logger.warning("server error #{status} on attempt #{attempt}")\n',
        '    Logger.warning(\n      "server error #{status} on attempt #{attempt}"\n    )\n',
    ),
    edited=_with("nil -> {:wait, 30_000}", "nil -> {:wait, 60_000}"),
    edited_line="nil -> {:wait, 60_000}",
    renamed=SOURCE.replace("retry_delay(", "next_pause("),
    new_symbol="MyApp.Backoff.next_pause",
    without=cut(SOURCE, "  @spec retry_delay", "  def max_attempts"),
    moved_to=f"defmodule MyApp.HTTP.Retry do\n  require Logger\n\n  @retries 5\n\n{FUNCTION}end\n",
    moved_symbol="MyApp.HTTP.Retry.retry_delay",
    duplicated=SOURCE.replace("retry_delay(", "delay_a(")
    + f"\ndefmodule MyApp.Mirror do\n{FUNCTION.replace('retry_delay(', 'delay_b(')}end\n",
    trivial=_with("  def max_attempts", "  def noop, do: nil\n\n  def max_attempts"),
    trivial_symbol="MyApp.Backoff.noop",
    trivial_renamed=_with("  def max_attempts", "  def nothing, do: nil\n\n  def max_attempts"),
    real_edits=(
        ("literal", _with("pause = 500 *", "pause = 250 *")),
        ("operator", _with("when status >= 500", "when status > 500")),
        ("called name", _with("Logger.warning(", "Logger.info(")),
        (
            "statement order",
            _with(
                '    Logger.warning("server error #{status} on attempt #{attempt}")\n'
                "    pause = 500 * Integer.pow(2, attempt - 1)\n",
                "    pause = 500 * Integer.pow(2, attempt - 1)\n"
                '    Logger.warning("server error #{status} on attempt #{attempt}")\n',
            ),
        ),
        (
            "one clause of several",
            _with("when attempt > @retries, do: :give_up", "when attempt >= @retries, do: :give_up"),
        ),
        (
            "clause order",
            _with("  def retry_delay(_attempt, _response), do: :done\n", "").replace(
                "  @spec retry_delay(pos_integer(), map()) :: {:wait, non_neg_integer()} | :give_up | :done\n",
                "  @spec retry_delay(pos_integer(), map()) :: {:wait, non_neg_integer()} | :give_up | :done\n"
                "  def retry_delay(_attempt, _response), do: :done\n",
            ),
        ),
    ),
    cosmetic_edits=(
        ("comment", _with("    pause = 500", "    # doubles each time, capped below\n    pause = 500")),
        (
            "blank lines",
            _with("  def retry_delay(attempt, %{status: status})", "\n\n  def retry_delay(attempt, %{status: status})"),
        ),
        (
            "call parentheses",
            _with(
                '    Logger.warning("server error #{status} on attempt #{attempt}")\n',
                '    Logger.warning "server error #{status} on attempt #{attempt}"\n',
            ),
        ),
        (
            "redundant parentheses",
            _with("pause = 500 * Integer.pow(2, attempt - 1)", "pause = 500 * (Integer.pow(2, attempt - 1))"),
        ),
        ("doc", _with('  @doc "How long to wait', '  @doc "The pause to take')),
    ),
)
