"""Lua: a retrying fetch method on a module table (LuaSocket-style), StyLua-style edits."""

from .base import LangCase, cut

METHOD = """\
function Fetcher:fetch_with_retry(url, attempts)
  local delay = 0.5
  for attempt = 1, attempts do
    local body, status = self.client.request({ url = url, method = "GET", headers = { accept = "application/json" } })
    if status and status < 500 then
      self.last = body
      self.status = status
      return body, status
    end
    socket.sleep(delay * 2 ^ (attempt - 1))
  end
  error(string.format("gave up on %s after %d attempts", url, attempts))
end
"""

SOURCE = f"""\
local socket = require("socket")

local Fetcher = {{}}
Fetcher.__index = Fetcher

Fetcher.RETRIES = 3

function Fetcher.new(client)
  return setmetatable({{ client = client, last = nil }}, Fetcher)
end

{METHOD}
function Fetcher:close()
  self.last = nil
end

return Fetcher
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


LUA = LangCase(
    name="lua",
    path="lua/net/fetcher.lua",
    other_path="lua/net/http_fetcher.lua",
    symbol="Fetcher.fetch_with_retry",
    source=SOURCE,
    cosmetic=_with(
        "  local delay = 0.5\n",
        "  -- back off exponentially\n\n  local delay = 0.5 --[[ seconds ]]\n",
    ).replace(
        '    local body, status = self.client.request({ url = url, method = "GET", headers = { accept = "application/json" } })\n',
        '    local body, status = self.client.request({\n      url = url,\n      method = "GET",\n      headers = { accept = "application/json" },\n    })\n',
    ),
    edited=_with('accept = "application/json"', 'accept = "application/xml"'),
    edited_line='local body, status = self.client.request({ url = url, method = "GET", headers = { accept = "application/xml" } })',
    renamed=_with("function Fetcher:fetch_with_retry(", "function Fetcher:get_with_backoff("),
    new_symbol="Fetcher.get_with_backoff",
    without=cut(SOURCE, "function Fetcher:fetch_with_retry(", "function Fetcher:close()"),
    moved_to='local socket = require("socket")\n\nlocal HttpFetcher = {}\n\n'
    + METHOD.replace("function Fetcher:", "function HttpFetcher:")
    + "\nreturn HttpFetcher\n",
    moved_symbol="HttpFetcher.fetch_with_retry",
    duplicated=_with("function Fetcher:fetch_with_retry(", "function Fetcher:fetch_a(").replace(
        "return Fetcher\n",
        METHOD.replace("function Fetcher:fetch_with_retry(", "function Mirror:fetch_b(") + "\nreturn Fetcher\n",
    ),
    trivial=_with("function Fetcher:close()", "local function noop() end\n\nfunction Fetcher:close()"),
    trivial_symbol="noop",
    trivial_renamed=_with("function Fetcher:close()", "local function nothing() end\n\nfunction Fetcher:close()"),
    real_edits=(
        ("literal", _with("local delay = 0.5", "local delay = 0.25")),
        ("operator", _with("status < 500", "status <= 500")),
        ("called name", _with("socket.sleep(", "socket.select(")),
        (
            "statement order",
            _with(
                "      self.last = body\n      self.status = status\n",
                "      self.status = status\n      self.last = body\n",
            ),
        ),
        ("method to function", _with("function Fetcher:fetch_with_retry(", "function Fetcher.fetch_with_retry(")),
        ("precedence", _with("delay * 2 ^ (attempt - 1)", "(delay * 2) ^ (attempt - 1)")),
    ),
    cosmetic_edits=(
        ("comments", _with("    socket.sleep(", "    -- exponential backoff\n    socket.sleep(")),
        ("blank lines", _with("    socket.sleep(", "\n    socket.sleep(")),
        ("quote style", _with('method = "GET"', "method = 'GET'")),
        ("redundant parentheses", _with("if status and status < 500 then", "if (status and (status < 500)) then")),
        ("trailing separator", _with('accept = "application/json" }', 'accept = "application/json", }')),
        ("semicolons", _with("      self.last = body\n", "      self.last = body;\n")),
    ),
)
