"""Running the plugin's real hook scripts the way Claude Code does: the command from hooks/hooks.json
through a shell, a JSON payload from tests/fixtures/hooks/ on stdin, the plugin's env vars set."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "tests" / "fixtures" / "hooks"
HOOKS = json.loads((ROOT / "hooks" / "hooks.json").read_text())["hooks"]
RECALL_TOOL = "mcp__plugin_tether_tether__recall"

FIXTURE_FOR = {
    "SessionStart": "session_start_startup.json",
    "UserPromptSubmit": "user_prompt_submit.json",
    "PostToolUse": "post_tool_use_edit.json",
    "Stop": "stop.json",
    "PreCompact": "pre_compact.json",
}


def command_for(event: str, matcher_subject: str | None = None) -> str:
    """The command hooks.json runs for `event` (and the matcher subject: source or tool name)."""
    import re

    for group in HOOKS[event]:
        m = group.get("matcher")
        if m is None or matcher_subject is None or re.fullmatch(m, matcher_subject):
            return group["hooks"][0]["command"]
    raise AssertionError(f"no {event} hook matches {matcher_subject!r}")


def payload(fixture: str, **subs: str) -> bytes:
    """A fixture with `{name}` placeholders filled in (JSON-escaped, so any value is safe)."""
    text = (FIXTURES / fixture).read_text()
    for k, v in subs.items():
        text = text.replace("{" + k + "}", json.dumps(v)[1:-1])
    return text.encode()


def hook_env(tmp: Path, repo_path: Path | None, **extra: str) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TETHER_PUSH", "CLAUDE_"))}
    env.update(
        CLAUDE_PLUGIN_ROOT=str(ROOT),
        CLAUDE_PLUGIN_DATA=str(tmp / "plugin-data"),
        TETHER_VENV=sys.prefix,  # the test venv stands in for the plugin's (launcher.py honours it)
        TETHER_NO_AUTO_INSTALL="1",
        TETHER_MODEL_WHEEL="",  # a venv a test builds gets no 83 MB model unless the test asks for it
    )
    if repo_path is not None:
        env["CLAUDE_PROJECT_DIR"] = str(repo_path)
    env.update(extra)
    return {k: v for k, v in env.items() if v is not None}


def run_hook(event: str, data: bytes, env: dict, matcher_subject: str | None = None, cwd: Path | None = None):
    """The real hook script as a subprocess of `sh -c`, exactly as hooks.json spells it."""
    cmd = command_for(event, matcher_subject).replace("${CLAUDE_PLUGIN_ROOT}", str(ROOT))
    return subprocess.run(["sh", "-c", cmd], input=data, capture_output=True, env=env, cwd=cwd or ROOT, timeout=60)


def context_of(proc) -> str | None:
    """hookSpecificOutput.additionalContext from a hook's stdout, or None when it printed nothing."""
    out = proc.stdout.decode().strip()
    if not out:
        return None
    return json.loads(out)["hookSpecificOutput"]["additionalContext"]


def failures(tether_home: Path, data_dir: Path) -> list[dict]:
    """Every hook-failure record, from all repositories' state dirs and the plugin data dir."""
    out = []
    for log in [*tether_home.glob("state/*/hook-failures.jsonl"), data_dir / "hook-failures.jsonl"]:
        if log.exists():
            out += [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    return out


BILLING = '''def invoice_total(lines):
    """Sum invoice lines, each rounded to cents first."""
    total = 0
    for line in lines:
        total += round(line.amount * line.quantity, 2)
    return total


def tax_rate(region):
    table = {"eu": 0.2, "us": 0.07, "uk": 0.2}
    return table.get(region, 0.0)
'''

RETRY = """def backoff(attempt):
    delay = min(30, 2 ** attempt)
    return delay + 0.25 * attempt
"""

MEMORIES = {
    "total": (
        "Invoice totals round each line to cents before summing; auditors require per-line rounding, "
        "never round the grand total.",
        "src/billing.py::invoice_total",
        "decision",
    ),
    "tax": (
        "Tax rates come from the in-code table reviewed quarterly by finance; never fetch tax rates at runtime.",
        "src/billing.py::tax_rate",
        "convention",
    ),
    "backoff": (
        "Retry backoff is capped at 30 seconds because the payment gateway drops connections idle for "
        "more than 35 seconds.",
        "src/retry.py::backoff",
        "gotcha",
    ),
}

RELATED = "why do invoice totals round each line to cents instead of rounding the grand total?"
UNRELATED = "add a dark mode toggle to the settings page and make the header sticky"


def billing_repo(repo) -> dict[str, str]:
    """A committed repository with three memories on two files; returns {name: memory id}."""
    repo.write("src/billing.py", BILLING)
    repo.write("src/retry.py", RETRY)
    repo.commit("billing")
    return {name: repo.remember(text, anchor, kind=kind) for name, (text, anchor, kind) in MEMORIES.items()}
