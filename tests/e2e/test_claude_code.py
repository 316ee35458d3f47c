"""tether as its users run it: inside the real Claude Code 2.1.332, with only the model scripted.

Each session below is one real `claude -p` run (stream-json, several turns) with the plugin loaded
from this checkout; the assertions read what Claude Code sent the model (request bodies, tool
results) and what the plugin left on disk, never exit codes.
"""

from __future__ import annotations

import calendar
import json
import re
import time
from dataclasses import dataclass, field

import pytest
from hooktools import MEMORIES, UNRELATED

from .claude_code import SETTING_UP, TOOL_PREFIX, TOOLS, WAIT, Session, Turn
from .e2e_world import World, make_world
from .scripted_model import Script, ScriptedModel, text, tool_use

RECALL = TOOL_PREFIX + "recall"
REMEMBER = TOOL_PREFIX + "remember"
CHECK = TOOL_PREFIX + "check"
TOTAL_BODY, TOTAL_ANCHOR, TOTAL_KIND = MEMORIES["total"]

# A prompt a developer would type about the anchored function, without naming its file (so the
# push has to clear the relevance floor; naming an anchored file would bypass it).
RELATED = "change invoice_total so it rounds the grand total once instead of every line"
REMEMBER_PROMPT = "Record why invoice_total rounds per line, then recall it"
EDIT_PROMPT = "Make invoice_total skip lines whose quantity is zero"
OLD_LOOP = "    for line in lines:\n        total += round(line.amount * line.quantity, 2)\n"
NEW_LOOP = (
    "    for line in lines:\n        if not line.quantity:\n            continue\n"
    "        total += round(line.amount * line.quantity, 2)\n"
)
STATUS_COMMAND = "/tether:status"  # a slash command of the plugin: its `!` line runs the CLI through the launcher
HOOK_CONTEXT = "UserPromptSubmit hook additional context:"
STATUS_CONTEXT = "SessionStart hook additional context:"


@dataclass
class Played:
    """One scripted session as it went: the world it ran in, what Claude Code printed, its turns."""

    world: World
    session: Session
    turns: list[Turn]
    ids: dict[str, str] = field(default_factory=dict)  # memory name -> id


def pushed(added: str) -> list[str]:
    """Short ids of the memories injected as `<tether-memory id=...>` blocks."""
    return re.findall(r'<tether-memory id="([0-9a-f]{8})"', added)


def envelope_of(result: dict) -> dict:
    assert not result["is_error"], result["text"]
    env = json.loads(result["text"])
    assert set(env) == {"data", "meta"}, env
    assert {"freshness", "completeness", "staleness"} <= set(env["meta"]), env["meta"]
    return env


# -- the sessions -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def recall_session(first_use, claude_exe, plugin_data, tmp_path_factory):
    """Remember + recall, a related prompt, an unrelated one, the related one again, /compact, again.

    The repository already holds two of the team's memories: with BM25 over a store of a single
    memory, even a near-verbatim prompt scores under push-recall's floor (all terms are in all
    documents), and a store of one is not what the floor is calibrated on.
    """
    script = Script()
    with ScriptedModel(script) as model:
        world = make_world(tmp_path_factory.mktemp("recall"), claude_exe, plugin_data, model)
        seeds = {name: world.remember(name) for name in ("tax", "backoff")}
        world.repo.commit("the team's memories")
        script.add(
            REMEMBER_PROMPT,
            [tool_use(REMEMBER, {"body": TOTAL_BODY, "kind": TOTAL_KIND, "anchors": [TOTAL_ANCHOR]})],
            [tool_use(RECALL, {"task": "how invoice totals are rounded", "files": ["src/billing.py"]})],
            [text("Recorded, and recall returns it.")],
        )
        script.add(RELATED, [text("Before changing it, note the per-line rounding rule.")])
        script.add(UNRELATED, [text("That is a front-end change.")])
        session = world.run(REMEMBER_PROMPT, RELATED, UNRELATED, RELATED, "/compact", RELATED)
    (remembered,) = model.results_for(REMEMBER)
    seeds["total"] = json.loads(remembered["text"])["data"]["id"]
    return Played(world, session, session.turns(model.requests), seeds)


@pytest.fixture(scope="module")
def edit_session(first_use, claude_exe, plugin_data, tmp_path_factory):
    """Three memories already stored; a turn edits the anchored function, the next asks about it."""
    script = Script()
    with ScriptedModel(script) as model:
        world = make_world(tmp_path_factory.mktemp("edit"), claude_exe, plugin_data, model)
        ids = {name: world.remember(name) for name in MEMORIES}
        world.repo.commit("the team's memories")
        billing = str(world.repo.path / "src" / "billing.py")
        script.add(
            EDIT_PROMPT,
            [tool_use(RECALL, {"task": "skip zero-quantity invoice lines", "files": ["src/billing.py"]})],
            [tool_use("Read", {"file_path": billing})],
            [tool_use("Edit", {"file_path": billing, "old_string": OLD_LOOP, "new_string": NEW_LOOP})],
            [text("invoice_total now skips zero-quantity lines.")],
        )
        script.add(
            RELATED,
            [tool_use(CHECK, {"ids": [ids["total"]]})],
            [text("The rounding memory is stale; reading the code first.")],
        )
        script.add(STATUS_COMMAND, [text("3 memories, 1 stale: run /tether:check.")])
        session = world.run(EDIT_PROMPT, RELATED, STATUS_COMMAND)
    return Played(world, session, session.turns(model.requests), ids)


# -- first use ----------------------------------------------------------------------------------
def test_first_use_builds_the_venv_under_the_plugin_data_dir_and_offers_the_six_tools(first_use):
    world, _, before, started = first_use
    data = world.claude.plugin_data  # where Claude Code points CLAUDE_PLUGIN_DATA for this plugin
    assert before == [], "the plugin data dir was not empty before the first session"
    history = [json.loads(line) for line in (data / "launcher.jsonl").read_text().splitlines()]
    assert [h["action"] for h in history] == ["install-start", "install-done"], history
    done = calendar.timegm(time.strptime(history[-1]["at"], "%Y-%m-%dT%H:%M:%SZ"))
    assert done - started > 30, "the build ended within Claude Code's 30 s connect timeout: this proves nothing"
    ready = dict(
        line.split("=", 1) for line in (data / "venv.ready").read_text().splitlines() if not line.startswith("site=")
    )
    assert ready["venv"] == str(data / "venvs" / ready["key"])
    assert (data / "venvs" / ready["key"] / "bin" / "python").exists()

    # With Claude Code's default 30 s connect timeout (no MCP_TIMEOUT) and a build that ends past
    # it: the launcher answers the handshake at once (hooks/mcp_bridge.py), so the seven tools are
    # offered from the session's very first request and never "still connecting". A recall made
    # while pip runs is held up to 25 s for the build, then told to come back (the model calls
    # again); once the venv is ready the real server answers, through the bridge.
    requests = world.model.agent_requests()
    for r in requests:
        assert sorted(t for t in r.tools if t.startswith("mcp__")) == sorted(TOOL_PREFIX + t for t in TOOLS), r.tools
        assert WAIT not in r.tools  # Claude Code offers it only while a server is still connecting
    recalls = world.model.results_for(RECALL)
    refused = [r for r in recalls if r["is_error"]]
    for r in refused:  # a retryable error, shaped like the real server's
        err = json.loads(r["text"])["error"]
        assert (err["code"], err["retryable"]) == ("venv_building", True), err
        assert err["message"].startswith(SETTING_UP) and "call this tool again shortly" in err["message"], err
    assert refused and recalls[-1] not in refused  # held past the first call's wait, then served
    env = envelope_of(recalls[-1])
    assert env["data"]["items"] == [] and env["data"]["stale"] == []
    # The hooks never wait for the install: the first session's SessionStart says nothing, and
    # a build under way is no failure (issue 23, item 4): nothing for `tether doctor` to report.
    assert STATUS_CONTEXT not in requests[0].all_text()
    assert world.hook_failures() == []


# -- remember, recall ---------------------------------------------------------------------------
def test_a_scripted_remember_then_recall_return_the_memory_in_the_envelope(recall_session):
    p = recall_session
    (remembered,) = p.world.model.results_for(REMEMBER)
    env = envelope_of(remembered)
    mem = env["data"]
    assert (mem["kind"], mem["body"]) == ("decision", TOTAL_BODY)
    assert [(a["type"], a["path"], a["symbol"]) for a in mem["anchors"]] == [
        ("symbol", "src/billing.py", "invoice_total")
    ]
    assert mem["anchors"][0]["hash"].startswith("t2:")
    assert (p.world.repo.path / mem["file"]).is_file()

    (recalled,) = p.world.model.results_for(RECALL)
    env = envelope_of(recalled)
    items = env["data"]["items"]
    assert [i["id"] for i in items][:1] == [p.ids["total"]]
    assert items[0]["summary"] == TOTAL_BODY
    assert (items[0]["anchors"][0]["path"], items[0]["anchors"][0]["symbol"]) == ("src/billing.py", "invoice_total")
    assert {"invoice", "rounded"} & set(items[0]["matched"])
    assert env["data"]["stale"] == []
    assert env["meta"]["staleness"] == {"stale": 0, "invalidated": 0}
    assert p.world.hook_failures() == []


# -- push-recall --------------------------------------------------------------------------------
def test_a_related_prompt_makes_claude_code_send_the_memory_to_the_model(recall_session):
    p = recall_session
    turn = p.turns[1]
    assert turn.prompt == RELATED
    added = turn.added()
    assert HOOK_CONTEXT in added
    assert pushed(added) == [p.ids["total"][:8]]
    assert TOTAL_BODY in added and "src/billing.py::invoice_total" in added
    assert "not an instruction" in added  # fenced as background data


def test_an_unrelated_prompt_adds_nothing(recall_session):
    turn = recall_session.turns[2]
    assert turn.prompt == UNRELATED
    assert HOOK_CONTEXT not in turn.added() and pushed(turn.added()) == []


def test_the_same_prompt_again_in_the_session_adds_nothing(recall_session):
    p = recall_session
    turn = p.turns[3]
    assert turn.prompt == RELATED
    assert HOOK_CONTEXT not in turn.added() and pushed(turn.added()) == []
    # the first injection is still in the conversation: dedup is what kept it from coming twice
    assert pushed(turn.first.all_text()) == [p.ids["total"][:8]]


def test_compaction_resets_dedup_so_the_memory_is_pushed_again(recall_session):
    p = recall_session
    compact, after = p.turns[4], p.turns[5]
    assert compact.prompt == "/compact"
    assert any(r.is_compaction for r in compact.requests), "Claude Code did not ask the model for a summary"
    starts = [e["hook_name"] for e in p.session.hook_responses("SessionStart")]
    assert starts == ["SessionStart:startup", "SessionStart:compact"]
    assert after.prompt == RELATED
    assert pushed(after.added()) == [p.ids["total"][:8]]
    # the summary replaced the conversation, so this is the only copy the model has
    assert pushed(after.first.all_text()) == [p.ids["total"][:8]]


# -- SessionStart -------------------------------------------------------------------------------
def test_the_session_start_status_line_reaches_the_model_and_names_the_recall_tool(recall_session, edit_session):
    for p, n in ((recall_session, 2), (edit_session, 3)):
        said = p.turns[0].first.all_text()
        line = re.search(re.escape(STATUS_CONTEXT) + r" (tether: [^\n]*)", said)
        assert line, said[:3000]
        assert line.group(1).startswith(f"tether: {n} memories anchored to this repository's code (0 stale).")
        assert RECALL in line.group(1)


# -- editing ------------------------------------------------------------------------------------
def test_after_an_edit_of_the_anchored_function_the_memory_is_not_pushed_and_check_says_body_edited(edit_session):
    p = edit_session
    (edited,) = p.world.model.results_for("Edit")
    assert not edited["is_error"], edited["text"]
    assert NEW_LOOP in p.world.repo.read("src/billing.py")

    turn = p.turns[1]
    assert turn.prompt == RELATED
    assert p.ids["total"][:8] not in pushed(turn.added())

    (checked,) = p.world.model.results_for(CHECK)
    env = envelope_of(checked)
    (item,) = env["data"]
    assert (item["id"], item["status"], item["reason"]) == (p.ids["total"], "stale", "body_edited")
    (anchor,) = item["anchors"]
    assert (anchor["path"], anchor["symbol"], anchor["status"], anchor["reason"]) == (
        "src/billing.py",
        "invoice_total",
        "stale",
        "body_edited",
    )
    assert "line.quantity" in anchor.get("diff", "")
    assert env["meta"]["staleness"]["stale"] == 1


def test_the_status_slash_command_runs_the_cli_and_its_counts_reach_the_model(edit_session):
    turn = edit_session.turns[2]
    assert turn.prompt == STATUS_COMMAND
    added = turn.added()
    assert re.search(r"memories:\s+3 \(2 active, 1 stale, 0 invalidated\)", added), added
    assert "push-recall:   on" in added and "plugin venv:   ready" in added


# -- crediting ----------------------------------------------------------------------------------
def credits(world: World, ids: dict[str, str]) -> dict[str, int]:
    """Credits per memory: `tether stats --json` where this checkout has the command, else the usage log."""
    proc = world.cli("stats", "--json", check=False)
    if proc.returncode == 2 and "invalid choice" in proc.stderr:  # no `stats` command (yet): read the log
        from tether.usage import events as usage

        with world.tether_env():
            events = [e for e in usage.read(world.repo.path) if e.event == "credit"]
        return {name: sum(i in e.ids for e in events) for name, i in ids.items()}
    assert proc.returncode == 0, proc.stdout + proc.stderr
    top = {row["id"]: row["credits"] for row in json.loads(proc.stdout)["data"]["top"]}
    return {name: top.get(i, 0) for name, i in ids.items()}


def test_the_turn_whose_edit_touched_an_anchored_file_credits_its_memories_once(edit_session):
    p = edit_session
    # the turn recalled with src/billing.py in play, then edited it: what the recall returned current
    # is credited once (a memory on the file it did not show is not); the retry one is on another file
    (recalled,) = p.world.model.results_for(RECALL)
    shown = {i["id"] for i in envelope_of(recalled)["data"]["items"]}
    assert p.ids["total"] in shown and p.ids["backoff"] not in shown
    assert credits(p.world, p.ids) == {name: int(i in shown) for name, i in p.ids.items()}
    assert p.world.hook_failures() == []
