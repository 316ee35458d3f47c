"""The plugin's hook scripts, run as Claude Code runs them: edit log, citation crediting, status, compaction."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from hooktools import (
    FIXTURES,
    RECALL_TOOL,
    ROOT,
    billing_repo,
    context_of,
    failures,
    hook_env,
    payload,
    run_hook,
)

from tether.usage import ledger

SESSION = "0b7c2f4e-5d1a-4e8b-9c3d-2a6f8e1b4c70"


@pytest.fixture
def billing(repo):
    return billing_repo(repo)


@pytest.fixture
def env(repo, tmp_path):
    return hook_env(tmp_path, repo.path)


def sessions_dir(tether_home):
    dirs = list(tether_home.glob("state/*/sessions"))
    assert len(dirs) == 1, dirs
    return dirs[0]


def usage(tether_home) -> list[dict]:
    logs = list(tether_home.glob("state/*/usage.jsonl"))
    return [json.loads(line) for log in logs for line in log.read_text().splitlines()]


def credits(tether_home) -> list[dict]:
    return [e for e in usage(tether_home) if e["event"] == "credit"]


def recalled(repo, *ids: str, session: str = SESSION) -> None:
    """The session's MCP recall showed these memories: logged as the server logs it."""
    ledger.record(repo.path, "recall", ids, session)


def edit(repo, env, rel: str, fixture: str = "post_tool_use_edit.json", session: str = SESSION):
    data = payload(fixture, session=session, repo=str(repo.path), transcript="", file=str(repo.path / rel))
    return run_hook("PostToolUse", data, env, matcher_subject="Edit")


def stop(repo, env, message: str = "Done.", transcript: str = "", session: str = SESSION):
    data = payload("stop.json", session=session, repo=str(repo.path), transcript=transcript, message=message)
    return run_hook("Stop", data, env)


# -- PostToolUse -------------------------------------------------------------------------------
def test_post_tool_use_logs_the_edited_file_repo_relative(repo, billing, env, tether_home):
    proc = edit(repo, env, "src/billing.py")
    assert (proc.returncode, proc.stdout) == (0, b"")
    log = sessions_dir(tether_home) / f"{SESSION}.edits.jsonl"
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert [(e["path"], e["tool"], e["tool_use_id"]) for e in entries] == [
        ("src/billing.py", "Edit", "toolu_01EditBillingTotal")
    ]


def test_post_tool_use_refuses_paths_outside_the_root(repo, billing, env, tether_home, tmp_path):
    outside = tmp_path / "elsewhere.py"
    outside.write_text("x = 1\n")
    data = payload("post_tool_use_write.json", session=SESSION, repo=str(repo.path), transcript="", file=str(outside))
    proc = run_hook("PostToolUse", data, env, matcher_subject="Write")
    assert (proc.returncode, proc.stdout) == (0, b"")
    assert not list(tether_home.glob("state/*/sessions/*.edits.jsonl"))
    assert failures(tether_home, tmp_path / "plugin-data") == []


def test_post_tool_use_ignores_tools_that_edit_nothing(repo, billing, env, tether_home):
    data = payload("post_tool_use_mcp.json", session=SESSION, repo=str(repo.path), transcript="")
    proc = run_hook("PostToolUse", data, env)
    assert (proc.returncode, proc.stdout) == (0, b"")
    assert not list(tether_home.glob("state/*/sessions/*.edits.jsonl"))


def test_hooks_json_matches_only_edit_tools_for_post_tool_use():
    import re

    (group,) = json.loads((ROOT / "hooks" / "hooks.json").read_text())["hooks"]["PostToolUse"]
    assert [
        t for t in ("Edit", "Write", "MultiEdit", "NotebookEdit", "Read", "Bash") if re.fullmatch(group["matcher"], t)
    ] == ["Edit", "Write", "MultiEdit", "NotebookEdit"]


# -- Stop: citation crediting ------------------------------------------------------------------
def test_stop_credits_the_surfaced_memories_anchored_to_edited_files_and_prints_nothing(
    repo, billing, env, tether_home
):
    recalled(repo, billing["total"], billing["tax"], billing["backoff"])
    recalled(repo, billing["backoff"], session="another-session")
    assert edit(repo, env, "src/billing.py").returncode == 0
    edit(repo, env, "src/billing.py")  # the same file twice is one credit each
    proc = stop(repo, env)
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, b"", b"")
    (event,) = credits(tether_home)
    assert event["event"] == "credit" and event["session"] == SESSION
    assert sorted(event["ids"]) == sorted([billing["total"], billing["tax"]])
    assert event["prompt_id"] == "6d1f9a0e-2b7c-4c55-9b1e-0f3a2d4c8e71"


def test_stop_consumes_the_edit_log_so_the_next_turn_starts_clean(repo, billing, env, tether_home):
    recalled(repo, billing["backoff"])
    edit(repo, env, "src/retry.py")
    stop(repo, env)
    stop(repo, env)
    assert [e["ids"] for e in credits(tether_home)] == [[billing["backoff"]]]


def test_stop_never_credits_an_edited_files_memory_the_session_did_not_surface(repo, billing, env, tether_home):
    recalled(repo, billing["backoff"], session="another-session")  # surfaced, but to someone else
    edit(repo, env, "src/retry.py")
    stop(repo, env)
    assert credits(tether_home) == []


def test_stop_credits_from_the_transcript_when_no_edit_was_logged(repo, billing, env, tether_home, tmp_path):
    transcript = tmp_path / "transcript.jsonl"
    text = (FIXTURES / "transcript.jsonl").read_text()
    final = "Invoice totals now round per line."
    transcript.write_text(
        text.replace("{repo}", str(repo.path)).replace("{session}", SESSION).replace("{final}", final)
    )
    recalled(repo, billing["total"], billing["tax"], billing["backoff"])
    proc = stop(repo, env, message=final, transcript=str(transcript))
    assert (proc.returncode, proc.stdout) == (0, b"")
    # the earlier turn edited src/retry.py: only this turn's edits (src/billing.py) count
    (event,) = credits(tether_home)
    assert sorted(event["ids"]) == sorted([billing["total"], billing["tax"]])


def test_stop_credits_memories_cited_by_id_prefix(repo, billing, env, tether_home):
    short = billing["backoff"][:8]
    proc = stop(repo, env, message=f"I kept the 30 s cap, as tether:{short} says.")
    assert (proc.returncode, proc.stdout) == (0, b"")
    assert [e["ids"] for e in usage(tether_home)] == [[billing["backoff"]]]


def test_stop_with_nothing_edited_or_cited_records_nothing(repo, billing, env, tether_home):
    proc = stop(repo, env, message="Here is an explanation with a hash deadbeef and no memory.")
    assert (proc.returncode, proc.stdout) == (0, b"")
    assert usage(tether_home) == []


# -- SessionStart and PreCompact ---------------------------------------------------------------
def test_session_start_status_line_counts_memories_and_names_the_recall_tool(repo, billing, env, tmp_path):
    repo.replace("src/retry.py", "min(30, 2 ** attempt)", "min(60, 2 ** attempt)")
    data = payload("session_start_startup.json", session=SESSION, repo=str(repo.path), transcript="")
    proc = run_hook("SessionStart", data, env, matcher_subject="startup")
    assert proc.returncode == 0
    line = context_of(proc)
    assert json.loads(proc.stdout)["hookSpecificOutput"]["hookEventName"] == "SessionStart"
    assert "\n" not in line
    assert "3 memories" in line and "(1 stale)" in line
    assert RECALL_TOOL in line


def test_session_start_in_a_repository_without_memories_still_names_the_tools(repo, env):
    repo.write("a.py", "x = 1\n")
    data = payload("session_start_startup.json", session=SESSION, repo=str(repo.path), transcript="")
    line = context_of(run_hook("SessionStart", data, env, matcher_subject="startup"))
    assert "no memories" in line and RECALL_TOOL in line and "mcp__plugin_tether_tether__remember" in line


def test_session_start_after_compaction_prints_nothing_and_resets_dedup(repo, billing, env, tether_home):
    state = {
        "window": {billing["total"]: {"score": 9.0, "used": False}},
        "bypassed": [],
        "prompts": 1,
        "compactions": 0,
    }
    run_hook("PreCompact", payload("pre_compact.json", session=SESSION, repo=str(repo.path), transcript=""), env)
    sessions = sessions_dir(tether_home)
    (sessions / f"{SESSION}.json").write_text(json.dumps(state))
    data = payload("session_start_compact.json", session=SESSION, repo=str(repo.path), transcript="")
    proc = run_hook("SessionStart", data, env, matcher_subject="compact")
    assert (proc.returncode, proc.stdout) == (0, b"")
    after = json.loads((sessions / f"{SESSION}.json").read_text())
    assert after["window"] == {} and after["compactions"] == 1


def test_pre_compact_empties_the_dedup_window_of_ignored_pushes(repo, billing, env, tether_home):
    run_hook("PreCompact", payload("pre_compact.json", session=SESSION, repo=str(repo.path), transcript=""), env)
    sessions = sessions_dir(tether_home)
    window = {billing["total"]: {"score": 9.0, "used": False}, billing["tax"]: {"score": 5.0, "used": True}}
    state = {"window": window, "bypassed": ["src/billing.py"], "prompts": 3}
    (sessions / f"{SESSION}.json").write_text(json.dumps(state))
    proc = run_hook("PreCompact", payload("pre_compact.json", session=SESSION, repo=str(repo.path), transcript=""), env)
    assert (proc.returncode, proc.stdout) == (0, b"")
    after = json.loads((sessions / f"{SESSION}.json").read_text())
    # ignored pushes may come back (the model no longer sees them); a used one stays quiet all session
    assert after["window"] == {billing["tax"]: {"score": 5.0, "used": True}}
    assert after["bypassed"] == ["src/billing.py"] and after["prompts"] == 3


# -- the same handlers through the CLI ---------------------------------------------------------
def test_tether_hook_cli_runs_the_same_handlers(repo, billing, env, tether_home):
    recalled(repo, billing["backoff"])
    data = payload(
        "post_tool_use_edit.json",
        session=SESSION,
        repo=str(repo.path),
        transcript="",
        file=str(repo.path / "src/retry.py"),
    )
    proc = subprocess.run(
        [sys.executable, "-m", "tether", "hook", "PostToolUse"], input=data, capture_output=True, env=env, cwd=repo.path
    )
    assert (proc.returncode, proc.stdout) == (0, b"")
    proc = subprocess.run(
        [sys.executable, "-m", "tether", "hook", "Stop"],
        env=env,
        cwd=repo.path,
        capture_output=True,
        input=payload("stop.json", session=SESSION, repo=str(repo.path), transcript="", message="ok"),
    )
    assert (proc.returncode, proc.stdout) == (0, b"")
    assert [e["ids"] for e in credits(tether_home)] == [[billing["backoff"]]]


def test_tether_status_counts_memories_stale_and_quarantined(repo, billing):
    repo.replace("src/retry.py", "min(30, 2 ** attempt)", "min(60, 2 ** attempt)")
    repo.write(".tether/memories/broken--00000000.md", "not a memory")
    data = repo.json("status")["data"]
    assert (data["memories"], data["active"], data["stale"], data["invalidated"], data["quarantined"]) == (
        3,
        2,
        1,
        0,
        1,
    )
    text = repo.run("status").stdout
    assert "3 (2 active, 1 stale, 0 invalidated), 1 quarantined" in text


def test_a_hook_run_in_process_never_imports_mcp_or_tree_sitter(repo, billing, tmp_path):
    """The prompt hook's import budget: no MCP SDK ever, and no parser while the code is unchanged."""
    env = hook_env(tmp_path, repo.path)
    data = payload(
        "user_prompt_submit.json",
        session=SESSION,
        repo=str(repo.path),
        transcript="",
        prompt="why do invoice totals round each line to cents instead of rounding the grand total?",
    )
    run_hook("UserPromptSubmit", data, env)  # warm: index the anchored file once
    probe = (
        "import sys; sys.path.insert(0, sys.argv[1]); from tether.surfaces.hooks import main; "
        "main('UserPromptSubmit', sys.stdin.buffer.read()); "
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('mcp', 'tree_sitter', 'tree_sitter_language_pack')); "
        "print('IMPORTED', bad)"
    )
    proc = subprocess.run(
        [sys.executable, "-c", probe, str(ROOT / "server")],
        input=data.replace(SESSION.encode(), b"s2"),
        capture_output=True,
        env=env,
        cwd=tmp_path,
    )
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.decode()
    assert "tether-memory" in out and out.strip().endswith("IMPORTED []")


def test_stop_credits_what_this_turns_mcp_recall_showed_when_its_file_is_edited(
    repo, billing, env, tether_home, tmp_path
):
    """Claude Code gives MCP servers no session id: the transcript's recall result is what joins them."""

    def line(kind: str, uuid: str, content) -> str:
        role = "assistant" if kind == "assistant" else "user"
        return json.dumps(
            {"type": kind, "uuid": uuid, "sessionId": SESSION, "message": {"role": role, "content": content}}
        )

    result = json.dumps({"data": {"items": [{"id": billing["total"]}], "stale": [{"id": billing["tax"]}]}, "meta": {}})
    edit_input = {"file_path": str(repo.path / "src/billing.py"), "old_string": "a", "new_string": "total = 0"}
    transcript = tmp_path / "transcript.jsonl"
    transcript.write_text(
        "\n".join(
            [
                line("user", "u1", "Make invoice_total skip zero-quantity lines"),
                line(
                    "assistant", "a1", [{"type": "tool_use", "id": "t1", "name": RECALL_TOOL, "input": {"task": "x"}}]
                ),
                line(
                    "user",
                    "u2",
                    [{"type": "tool_result", "tool_use_id": "t1", "content": [{"type": "text", "text": result}]}],
                ),
                line("assistant", "a2", [{"type": "tool_use", "id": "t2", "name": "Edit", "input": edit_input}]),
                line("user", "u3", [{"type": "tool_result", "tool_use_id": "t2", "content": "ok"}]),
            ]
        )
        + "\n"
    )
    assert stop(repo, env, transcript=str(transcript)).returncode == 0
    # total was current in the recall; tax was listed stale (not served as current): not credited
    assert [e["ids"] for e in credits(tether_home)] == [[billing["total"]]]


VIEWS = """class View:
    methods = None

    @classmethod
    def as_view(cls, name):
        def view(**kwargs):
            return cls().dispatch_request(**kwargs)

        view.__name__ = name
        return view


class MethodView(View):
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.methods = {m.upper() for m in ("get", "post") if hasattr(cls, m)}
"""


def _turn(repo, tmp_path, *uses: tuple[str, dict]) -> str:
    """A transcript whose last turn made these tool calls."""

    def line(kind: str, uuid: str, content) -> str:
        role = "assistant" if kind == "assistant" else "user"
        return json.dumps(
            {"type": kind, "uuid": uuid, "sessionId": SESSION, "message": {"role": role, "content": content}}
        )

    lines = [line("user", "u0", "Let MethodView collect HEAD too")]
    for n, (name, inp) in enumerate(uses):
        lines.append(line("assistant", f"a{n}", [{"type": "tool_use", "id": f"t{n}", "name": name, "input": inp}]))
        lines.append(line("user", f"r{n}", [{"type": "tool_result", "tool_use_id": f"t{n}", "content": "ok"}]))
    path = tmp_path / "turn.jsonl"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_stop_credits_only_the_memories_whose_anchors_the_edited_lines_meet(repo, env, tether_home, tmp_path):
    repo.write("src/views.py", VIEWS)
    repo.commit()
    as_view = repo.remember("as_view builds a new instance per request.", "src/views.py::View.as_view")
    subclass = repo.remember(
        "MethodView collects methods at subclass time.", "src/views.py::MethodView.__init_subclass__"
    )
    recalled(repo, as_view, subclass)
    old, new = '("get", "post")', '("get", "post", "head")'
    repo.replace("src/views.py", old, new)
    edit(repo, env, "src/views.py")
    use = {"file_path": str(repo.path / "src/views.py"), "old_string": old, "new_string": new}
    assert stop(repo, env, transcript=_turn(repo, tmp_path, ("Edit", use))).returncode == 0
    assert [e["ids"] for e in credits(tether_home)] == [[subclass]]


def test_stop_credits_the_whole_file_where_the_edited_lines_cannot_be_told(repo, env, tether_home, tmp_path):
    repo.write("src/views.py", VIEWS)
    repo.commit()
    ids = [repo.remember("as_view builds a new instance per request.", "src/views.py::View.as_view")]
    ids.append(
        repo.remember("MethodView collects methods at subclass time.", "src/views.py::MethodView.__init_subclass__")
    )
    recalled(repo, *ids)
    repo.write("src/views.py", VIEWS + "\n# reviewed\n")
    use = {"file_path": str(repo.path / "src/views.py"), "content": VIEWS + "\n# reviewed\n"}
    assert stop(repo, env, transcript=_turn(repo, tmp_path, ("Write", use))).returncode == 0
    assert [sorted(e["ids"]) for e in credits(tether_home)] == [sorted(ids)]


def test_tether_hook_takes_the_event_as_the_hook_scripts_spell_it_and_fails_open_on_a_typo(tmp_path):
    """A red-team finding: `tether hook user_prompt_submit` (hooks/run.sh's spelling) exited 2."""
    import subprocess
    import sys

    for event, code in (("user_prompt_submit", 0), ("UserPromptSubmit", 0), ("no_such_event", 0)):
        proc = subprocess.run(
            [sys.executable, "-m", "tether", "--root", str(tmp_path), "hook", event],
            input=b'{"prompt": "hello"}',
            capture_output=True,
        )
        assert proc.returncode == code and proc.stdout == b""
        assert (b"unknown event" in proc.stderr) == (event == "no_such_event")


INVOICES = """def invoice_total(lines):
    total = sum(line.amount for line in lines)
    return round(total, 2)


def refund_window(order):
    days = 30 if order.region == "eu" else 14
    total = order.amount * 0 + days
    return round(total, 2)
"""


def _invoices(repo):
    repo.write("src/invoices.py", INVOICES)
    repo.commit()
    total = repo.remember("Invoice totals are rounded once, at the end.", "src/invoices.py::invoice_total")
    window = repo.remember("EU refund windows are 30 days by law.", "src/invoices.py::refund_window")
    recalled(repo, total, window)
    return total, window


def _logged_edit(repo, env, rel: str, old: str, new: str, replace_all: bool = False, tool_use_id: str = "toolu_x"):
    """PostToolUse for an Edit, as Claude Code sends it (only the log knows of it: no transcript)."""
    data = json.loads((FIXTURES / "post_tool_use_edit.json").read_text())
    path = str(repo.path / rel)
    data.update(session_id=SESSION, transcript_path="", cwd=str(repo.path), tool_use_id=tool_use_id)
    data["tool_input"] = {"file_path": path, "old_string": old, "new_string": new, "replace_all": replace_all}
    data["tool_response"]["filePath"] = path
    return run_hook("PostToolUse", json.dumps(data).encode(), env, matcher_subject="Edit")


def test_stop_without_a_transcript_credits_only_the_symbol_the_logged_edit_met(repo, env, tether_home):
    total, window = _invoices(repo)
    old, new = '"eu" else 14', '"eu" else 21'
    repo.replace("src/invoices.py", old, new)
    assert _logged_edit(repo, env, "src/invoices.py", old, new).returncode == 0
    assert stop(repo, env).returncode == 0
    assert [e["ids"] for e in credits(tether_home)] == [[window]]


def test_stop_credits_no_memory_for_an_edit_whose_text_the_file_holds_twice(repo, env, tether_home, tmp_path):
    total, window = _invoices(repo)
    old, new = "return round(total, 2)", "return round(total, 2)  # cents"
    text = INVOICES.replace(old, new, 1).replace("return round(total, 2)\n", new + "\n")  # both now hold it
    repo.write("src/invoices.py", text)
    use = {"file_path": str(repo.path / "src/invoices.py"), "old_string": old, "new_string": new}
    assert stop(repo, env, transcript=_turn(repo, tmp_path, ("Edit", use))).returncode == 0
    assert credits(tether_home) == []  # one of the two was edited: which, the file cannot say
    assert _logged_edit(repo, env, "src/invoices.py", old, new, replace_all=True).returncode == 0
    assert stop(repo, env).returncode == 0  # a replace_all edited every place it is
    assert [sorted(e["ids"]) for e in credits(tether_home)] == [sorted([total, window])]
