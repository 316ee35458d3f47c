"""`tether demo`: the anchor lifecycle on a throwaway git repository, with the real CLI's output."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

SOURCE = '''\
import time


class Scanner:
    def scan(self, paths):
        """Scan files in batches."""
        batch = 50
        for start in range(0, len(paths), batch):
            self.submit(paths[start:start + batch])
            time.sleep(0.2)
'''

STEPS = [
    (
        "A memory anchored to the method it explains",
        None,
        [
            "remember",
            "Batch size is 50 because shared hosts kill requests that run longer than 30 s.",
            "--anchor",
            "src/scanner.py::Scanner.scan",
            "--kind",
            "decision",
        ],
    ),
    ("Nothing changed: active", None, ["check"]),
    ("Reformat and comment the code: still active", "reformat", ["check"]),
    ("Edit the body: stale, with the reason and the diff", "edit", ["check"]),
    ("Revert the edit: healed, confidence restored", "revert", ["check"]),
    ("Rename the method: the anchor follows", "rename", ["check"]),
    ("Move the class to another file: the anchor follows", "move", ["check"]),
    ("Delete the method: invalidated, kept as history", "delete", ["check"]),
    ("The CI gate", None, ["check", "--strict"]),
]


def _edit(repo: Path, step: str | None) -> str | None:
    src = repo / "src" / "scanner.py"
    if step == "reformat":
        src.write_text(
            SOURCE.replace("        batch = 50\n", "        # tuned on shared hosts\n        batch = 50\n\n")
        )
        return "add a comment and a blank line"
    if step == "edit":
        src.write_text(SOURCE.replace("batch = 50", "batch = 200"))
        return "sed -i 's/batch = 50/batch = 200/' src/scanner.py"
    if step == "revert":
        _git(repo, "checkout", "--", "src/scanner.py")
        return "git checkout -- src/scanner.py"
    if step == "rename":
        src.write_text(SOURCE.replace("def scan(", "def scan_batches("))
        return "rename Scanner.scan -> Scanner.scan_batches"
    if step == "move":
        (repo / "src" / "batching.py").write_text(src.read_text())
        src.write_text("")
        return "move class Scanner to src/batching.py"
    if step == "delete":
        moved = repo / "src" / "batching.py"
        text = moved.read_text()
        moved.write_text(text[: text.index("    def scan_batches")] + "    pass\n")
        return "delete Scanner.scan_batches"
    return None


def _git(repo: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)


def run(keep: bool = False, out=None) -> int:
    out = out or sys.stdout
    base = Path(tempfile.mkdtemp(prefix="tether-demo-"))
    repo = base / "shop"
    env = {
        **os.environ,
        "TETHER_HOME": str(base / "home"),
        "GIT_AUTHOR_NAME": "demo",
        "GIT_AUTHOR_EMAIL": "demo@example.com",
        "GIT_COMMITTER_NAME": "demo",
        "GIT_COMMITTER_EMAIL": "demo@example.com",
    }
    env.pop("TETHER_ROOT", None)
    try:
        (repo / "src").mkdir(parents=True)
        (repo / "src" / "scanner.py").write_text(SOURCE)
        _git(repo, "init", "-q")
        _git(repo, "add", "-A")
        subprocess.run(["git", "commit", "-q", "-m", "scanner"], cwd=repo, check=True, capture_output=True, env=env)
        print("# a throwaway repository with src/scanner.py:\n", file=out)
        print("\n".join("    " + line for line in SOURCE.splitlines()), file=out)
        for title, step, args in STEPS:
            what = _edit(repo, step)
            print(f"\n## {title}", file=out)
            if what:
                print(f"# {what}", file=out)
            shown = " ".join(a if " " not in a else repr(a) for a in args)
            print(f"$ tether {shown}", file=out)
            proc = subprocess.run(
                [sys.executable, "-m", "tether", *args], cwd=repo, env=env, capture_output=True, text=True
            )
            text = (proc.stdout + proc.stderr).rstrip()
            print(text, file=out)
            if proc.returncode:
                print(f"(exit {proc.returncode})", file=out)
        if keep:
            print(f"\nkept: {repo}", file=out)
        return 0
    finally:
        if not keep:
            shutil.rmtree(base, ignore_errors=True)
