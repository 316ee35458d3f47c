"""Haskell: a retrying fetch, its signature and two equations one symbol; layout-sensitive edits."""

from .base import LangCase, cut

FUNCTION = """\
fetchWithRetry :: Int -> String -> IO (Either String Response)
fetchWithRetry attempts _ | attempts <= 0 = pure (Left "no attempts allowed")
fetchWithRetry attempts url = go 1
  where
    go n = do
      response <- httpGet url 30
      let failed = status response >= 500
      when failed $ do
        hPutStrLn stderr ("attempt " ++ show n ++ " failed for " ++ url)
        threadDelay (500000 * 2 ^ n)
      if not failed
        then pure (Right response)
        else if n >= attempts then pure (Left ("gave up on " ++ url)) else go (n + 1)
"""

SOURCE = f"""\
module Net.Fetch (fetchWithRetry, retries) where

import Control.Concurrent (threadDelay)
import Control.Monad (when)
import Net.Client (Response (..), httpGet)
import System.IO (hPutStrLn, stderr)

retries :: Int
retries = 3

-- | Fetch a URL, retrying server errors with exponential backoff.
{FUNCTION}
close :: Response -> IO ()
close = releaseBody
"""


def _with(old: str, new: str) -> str:
    assert old in SOURCE, old
    return SOURCE.replace(old, new)


HASKELL = LangCase(
    name="haskell",
    path="src/Net/Fetch.hs",
    other_path="src/Net/Retry.hs",
    symbol="fetchWithRetry",
    source=SOURCE,
    cosmetic=_with(
        "fetchWithRetry :: Int -> String -> IO (Either String Response)\n",
        "fetchWithRetry\n  :: Int -- ^ attempts\n  -> String -- ^ url\n  -> IO (Either String Response)\n",
    ).replace(
        "      let failed = status response >= 500\n",
        "\n      -- 4xx never heals\n      let failed = status response >= 500  {- retry only these -}\n\n",
    ),
    edited=_with("httpGet url 30", "httpGet url 60"),
    edited_line="response <- httpGet url 60",
    renamed=SOURCE.replace("fetchWithRetry ", "getWithBackoff "),
    new_symbol="getWithBackoff",
    without=cut(SOURCE, "fetchWithRetry ::", "close ::"),
    moved_to=f"module Net.Retry where\n\nimport Net.Client (Response (..), httpGet)\n\n{FUNCTION}",
    moved_symbol="fetchWithRetry",
    duplicated=SOURCE.replace("fetchWithRetry ", "fetchA ") + "\n" + FUNCTION.replace("fetchWithRetry ", "fetchB "),
    trivial=SOURCE + "\nnoop :: IO ()\nnoop = pure ()\n",
    trivial_symbol="noop",
    trivial_renamed=SOURCE + "\nnothing :: IO ()\nnothing = pure ()\n",
    real_edits=(
        ("literal", _with("(500000 * 2 ^ n)", "(250000 * 2 ^ n)")),
        ("operator", _with("status response >= 500", "status response > 500")),
        ("called name", _with("hPutStrLn stderr", "hPutStr stderr")),
        (
            "statement order",
            _with(
                '        hPutStrLn stderr ("attempt " ++ show n ++ " failed for " ++ url)\n'
                "        threadDelay (500000 * 2 ^ n)\n",
                "        threadDelay (500000 * 2 ^ n)\n"
                '        hPutStrLn stderr ("attempt " ++ show n ++ " failed for " ++ url)\n',
            ),
        ),
        (
            "dedent out of the inner do",
            _with("        threadDelay (500000 * 2 ^ n)\n", "      threadDelay (500000 * 2 ^ n)\n"),
        ),
        ("one equation of several", _with("| attempts <= 0 =", "| attempts < 0 =")),
    ),
    cosmetic_edits=(
        (
            "haddock and comments",
            _with("    go n = do\n", "    -- | one attempt, then the next\n    go n = do -- counts from 1\n"),
        ),
        ("blank lines", _with("fetchWithRetry attempts url = go 1\n", "\nfetchWithRetry attempts url = go 1\n\n")),
        ("redundant parentheses", _with("(500000 * 2 ^ n)", "(500000 * (2 ^ n))")),
        (
            "signature layout",
            _with(
                "fetchWithRetry :: Int -> String -> IO (Either String Response)\n",
                "fetchWithRetry ::\n  Int ->\n  String ->\n  IO (Either String Response)\n",
            ),
        ),
        (
            "if layout",
            _with(
                '        else if n >= attempts then pure (Left ("gave up on " ++ url)) else go (n + 1)\n',
                '        else if n >= attempts\n          then pure (Left ("gave up on " ++ url))\n          else go (n + 1)\n',
            ),
        ),
        (
            "explicit braces",
            _with(
                "      when failed $ do\n"
                '        hPutStrLn stderr ("attempt " ++ show n ++ " failed for " ++ url)\n'
                "        threadDelay (500000 * 2 ^ n)\n",
                "      when failed $ do {\n"
                '        hPutStrLn stderr ("attempt " ++ show n ++ " failed for " ++ url);\n'
                "        threadDelay (500000 * 2 ^ n) }\n",
            ),
        ),
    ),
)
