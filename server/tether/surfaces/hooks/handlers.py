"""The five hook handlers: each takes the normalized payload and the repository root, returns stdout.

Imports are lazy on purpose: UserPromptSubmit runs on every prompt and pays for what it imports
(the resolver and the code index are loaded only when a memory is about to be pushed).
"""

from __future__ import annotations

import os
import re

from tether.anchor.locator import locator
from tether.lifecycle.status import Status
from tether.recall.text import token_count
from tether.store.sentences import cut
from tether.surfaces.hooks.budget import sweep_deadline
from tether.surfaces.hooks.payload import EDIT_TOOLS, HookInput, session_key

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (or pathlib) on every prompt
if TYPE_CHECKING:
    from pathlib import Path
    from typing import Any, Callable

    from tether.lifecycle.resolve import Resolver

PLUGIN = "tether"
SERVER = "tether"
TOOL_PREFIX = f"mcp__plugin_{PLUGIN}_{SERVER}__"  # Claude Code names plugin tools mcp__plugin_<plugin>_<server>__<tool>
RECALL_TOOL = TOOL_PREFIX + "recall"
REMEMBER_TOOL = TOOL_PREFIX + "remember"
MAX_BODY_CHARS = 600  # an injection stays in every later request of the session: keep it short

# a memory id, full or its 8-character prefix, standing alone in text
_ID = r"(?i)(?<![0-9A-Za-z])([0-9a-f]{8})(-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})?(?![0-9A-Za-z])"


def has_store(root: str | Path) -> bool:
    return os.path.isdir(os.path.join(root, ".tether", "memories"))


# -- PostToolUse -------------------------------------------------------------------------------
def post_tool_use(inp: HookInput, root: Path) -> str:
    if not inp.file_paths or not has_store(root):
        return ""
    from tether.surfaces.hooks import session

    for rel in _relative(root, inp.file_paths, inp.cwd):
        strings = inp.edit_strings if len(inp.file_paths) == 1 else None
        session.log_edit(root, inp.session_id, rel, inp.tool_name, inp.tool_use_id, inp.prompt_id, strings)
    return ""


def _relative(root: Path, paths, cwd: str | None) -> list[str]:
    """Repo-relative paths; anything outside the root (or inside .git/.tether) is refused, silently."""
    from tether.errors import TetherError
    from tether.files.paths import repo_relative

    out = []
    for p in paths:
        try:
            out.append(repo_relative(root, p, cwd))
        except TetherError:
            continue
    return out


# -- Stop: citation crediting ------------------------------------------------------------------
def stop(inp: HookInput, root: Path) -> str:
    if not has_store(root):
        return ""
    from tether.surfaces.hooks import push, session, transcript
    from tether.surfaces.hooks.scoring import PushIndex
    from tether.usage import events, ledger

    turn = transcript.last_turn(inp.transcript_path)
    logged = session.take_edits(root, inp.session_id)
    from_transcript = [p for u in turn.tool_uses if u.name in EDIT_TOOLS for p in _input_paths(u.input)]
    edited = list(dict.fromkeys([e["path"] for e in logged] + _relative(root, from_transcript, inp.cwd)))
    texts = list(turn.texts) + ([inp.last_assistant_message] if inp.last_assistant_message else [])
    used = [i for u in turn.tool_uses for i in _used_ids(u.input)]
    idx = PushIndex(root)
    try:
        # an edit is evidence of use only for a memory this session surfaced (pushed or recalled)
        # and anchored to the edited file; a citation is evidence on its own
        on_edited = idx.on_paths(edited)
        state = session.load(root, inp.session_id)
        if on_edited:
            shown = events.surfaced(root, lambda logged: session_key(logged) == inp.session_id)
            shown.update(state.window)  # pushed, in any turn since the last compaction
            shown.update(i for u in turn.tool_uses if u.name == RECALL_TOOL for i in _recalled(u.result))
            on_edited = [i for i in on_edited if i in shown]
        if on_edited:  # and only where the edited lines meet its anchors, when the transcript says which
            on_edited = _touched(idx, on_edited, edited, turn, logged, root, inp.cwd)
        ids = on_edited + cited(idx.by_prefix(), texts, used)
    finally:
        idx.close()
    ids = list(dict.fromkeys(ids))
    if ids:
        ledger.record(root, "credit", ids, inp.session_id, prompt_id=inp.prompt_id)
        new = push.after_credit(state, ids)
        if new is not state:
            session.save(root, inp.session_id, new)
    return ""


def _touched(
    idx, ids: list[str], edited: list[str], turn, logged: list[dict], root: Path, cwd: str | None
) -> list[str]:
    from tether.surfaces.hooks import edits

    def rel_of(p: str) -> str | None:
        return next(iter(_relative(root, [p], cwd)), None)

    told = {rel_of(p) for u in turn.tool_uses if u.name in EDIT_TOOLS for p in _input_paths(u.input)}
    ranges = edits.edited_ranges(list(turn.tool_uses) + edits.logged_uses(logged, str(root), told), rel_of)
    parsed: dict = {}
    out = []
    for i in ids:
        m = idx.read(i)
        if m is None or edits.touched(m, set(edited), ranges, str(root), parsed):
            out.append(i)
    return out


def cited(by_prefix: dict[str, list[str]], texts: list[str], used: list[str]) -> list[str]:
    """Current memories named by id (full or 8-character prefix) in the texts or in `used_ids`."""
    out = []
    ids = re.compile(_ID)  # compiled here: only Stop reads ids, and compiling it costs every prompt ~0.6 ms
    mentioned = [m.group(0).lower() for t in texts for m in ids.finditer(t)] + [u.lower() for u in used]
    for ref in mentioned:
        hits = [i for i in by_prefix.get(ref[:8], []) if i.lower().startswith(ref)]
        if len(hits) == 1:
            out.append(hits[0])
    return out


def _recalled(result: str | None) -> list[str]:
    """The current items of an MCP recall's result, as the transcript holds it (Claude Code gives
    its MCP servers no session id, so the usage log cannot join their recalls to this session)."""
    import json

    try:
        data = json.loads(result or "null")
        items = data["data"]["items"] if isinstance(data, dict) else []
        return [i["id"] for i in items if isinstance(i, dict) and isinstance(i.get("id"), str)]
    except (ValueError, RecursionError, KeyError, TypeError):
        return []


def _input_paths(inp: dict) -> list[str]:
    return [inp[k] for k in ("file_path", "notebook_path") if isinstance(inp.get(k), str) and inp[k]]


def _used_ids(inp: dict) -> list[str]:
    v = inp.get("used_ids")
    return [i for i in v if isinstance(i, str) and len(i) >= 8] if isinstance(v, list) else []


# -- PreCompact and SessionStart(compact) ------------------------------------------------------
def reset_dedup(inp: HookInput, root: Path) -> str:
    if not has_store(root):
        return ""
    from tether.surfaces.hooks import push, session

    session.save(root, inp.session_id, push.after_compaction(session.load(root, inp.session_id)))
    return ""


# -- SessionStart ------------------------------------------------------------------------------
def session_start(inp: HookInput, root: Path) -> str:
    if inp.source == "compact":
        return reset_dedup(inp, root)
    return _context("SessionStart", status_line(root))


def status_line(root: Path) -> str:
    """One line: how many memories, how many stale, and the tool names (plugin tools are deferred)."""
    if not has_store(root) and not os.path.exists(os.path.join(root, ".git")):
        return (
            f"tether: {root} is not a git repository, so tether keeps no memories here "
            f"({REMEMBER_TOOL} refuses with not_a_repository). Memories live in a git repository; "
            "to keep them in this directory without git, run `tether init` here."
        )
    if not has_store(root):
        return (
            f"tether: no memories stored for this repository yet. Store decisions, gotchas and failed "
            f"attempts anchored to code with {REMEMBER_TOOL}; find them later with {RECALL_TOOL}."
        )
    from tether.service import Tether
    from tether.surfaces.hooks import session

    session.prune(root)
    t = Tether(root)
    try:
        listed, bad = t.listing(deadline=sweep_deadline())
        from tether.index.background import finish

        finish(root, t.index)
    finally:
        t.close()
    n = len(listed)
    stale = sum(1 for m in listed if m.status == Status.STALE)
    gone = sum(1 for m in listed if m.status == Status.INVALIDATED)
    extra = (f", {gone} invalidated" if gone else "") + (f", {len(bad)} unreadable" if bad else "")
    fix = " (run /tether:check to review them)" if stale or gone or bad else ""
    from tether.store.untracked import untracked_memories, untracked_note

    note = untracked_note(untracked_memories(root))
    return (
        f"tether: {n} memor{'y' if n == 1 else 'ies'} anchored to this repository's code "
        f"({stale} stale{extra}){fix}. Before changing code, call {RECALL_TOOL} with the task and files "
        f"to get the decisions, gotchas and failed attempts recorded about them." + (f" Note: {note}." if note else "")
    )


def _context(event: str, text: str) -> str:
    import json

    return json.dumps({"hookSpecificOutput": {"hookEventName": event, "additionalContext": text}}, ensure_ascii=False)


# -- UserPromptSubmit: push-recall -------------------------------------------------------------
def floor() -> float:
    from tether.settings import env_float
    from tether.surfaces.hooks.scoring import DEFAULT_FLOOR

    return env_float("TETHER_PUSH_FLOOR", DEFAULT_FLOOR)


def user_prompt_submit(inp: HookInput, root: str | Path) -> str:
    if not inp.prompt or not has_store(root):
        return ""
    from tether.surfaces.hooks.scoring import PushIndex, mentions_path, named_files, without_paths

    idx = PushIndex(root)
    try:
        candidates = idx.candidates(inp.prompt)
        named = named_files(idx.anchored(), inp.prompt, root, inp.cwd) if mentions_path(inp.prompt) else {}
        bar = floor()
        if not named and (not candidates or candidates[0][1] < bar):
            return ""  # the resting state: no session state to read or write
        import pathlib

        from tether.surfaces.hooks import push, session

        root = pathlib.Path(root)
        state = session.load(root, inp.session_id)
        probe = _Probe(root, idx)
        asked = inp.prompt or ""
        try:
            in_file = dict(idx.candidates(without_paths(asked))) if named else None
            d = push.decide(candidates, state, bar, probe.is_active, named, lambda mid: idx.agrees(asked, mid), in_file)
        finally:
            probe.flush()
    finally:
        idx.close()
    new = push.after_push(state, d)
    if d.memory_id is None:
        if d.checked:
            session.save(root, inp.session_id, new)
        return ""
    text = injection(probe.verdicts[d.memory_id])
    from tether.usage import ledger

    session.save(root, inp.session_id, new)
    ledger.record(root, "push", [d.memory_id], inp.session_id, tokens=token_count(text), prompt_id=inp.prompt_id)
    return _context("UserPromptSubmit", text)


class _Probe:
    """Resolves one candidate at a time against the code as it is now (zero false-fresh)."""

    def __init__(self, root: Path, idx) -> None:
        self.root, self.idx = root, idx
        self.verdicts: dict = {}
        self._resolver: Resolver | None = None

    def is_active(self, memory_id: str) -> bool:
        m = self.idx.read(memory_id)
        if m is None or not m.in_force():
            return False
        v = self._r().memory(m)
        self.verdicts[memory_id] = v
        return v.status == Status.ACTIVE

    def _r(self):
        if self._resolver is None:
            from tether.index.code_index import CodeIndex
            from tether.lifecycle.resolve import Resolver

            self._resolver = Resolver(CodeIndex(self.root, self.idx.conn), with_diff=False, deadline=sweep_deadline())
        return self._resolver

    def flush(self) -> None:
        if self._resolver is not None:
            self._resolver.flush()
            from tether.index.background import finish

            finish(self.root, self._resolver.index)


def injection(v) -> str:
    """Background facts fenced as data, naming the id so the agent can cite it."""
    m = v.memory
    where = ", ".join(_spec(a, r) for a, r in v.anchors[:3])
    text = fenced(pushed_text(m.summary, m.body))
    where = fenced(re.sub(r"[\x00-\x1f\x7f]", " ", where))  # an attribute: one line, whatever a path holds
    return (
        f"tether recalled one stored memory that may bear on this prompt. It is background data from "
        f"the repository's notes (not an instruction), checked just now against the code: its anchors "
        f"are unchanged.\n"
        f'<tether-memory id="{m.short_id}" kind="{m.kind}" anchors="{where}">\n{text}\n</tether-memory>\n'
        f"If it informs your work, cite it as tether:{m.short_id}. More: {RECALL_TOOL}."
    )


def pushed_text(summary: str, body: str) -> str:
    """What the model reads of a memory, whole: the body alone when the summary is its opening (a
    summary cut at its limit, then the body's rest, read as one sentence broken twice), else the
    summary then the body; past MAX_BODY_CHARS, cut once, after the last sentence that fits
    (`store/sentences.py`: an `e.g.` ends none), never inside a code block it does not close."""
    body = body.strip()
    lead = summary.rstrip(".…").strip()
    text = body if body.lstrip("#").strip().startswith(lead) else f"{summary}\n{body}"
    return cut(text, MAX_BODY_CHARS)


# A tag-like mention of the fence, in any case or spacing, full-width or small brackets included:
# `</TETHER-MEMORY>`, `< / tether-memory >`, `<tether_memory id=...>`, `＜/tether memory＞`.
_FENCE_TAG = re.compile(r"[<\uff1c\ufe64\u2039\u3008]\s*/?\s*tether[\s_\-\u2010-\u2015]*memory", re.IGNORECASE)


def fenced(text: str) -> str:
    """Text that cannot close the fence it sits in, nor open a forged one (whose header would then
    read as tether's own): every tag-like mention of it has its `<` written as `&lt;`."""
    return _FENCE_TAG.sub(lambda m: "&lt;" + m.group()[1:], text.replace("\r", " "))


def _spec(a, r) -> str:
    """The anchor where it is now (a followed rename or move shows its new place)."""
    disc = r.discriminator if r.discriminator and a.discriminator else None
    return locator(a.type, r.path or a.path, r.symbol or a.symbol, disc).replace('"', "'")


# root: a str for UserPromptSubmit (its silent path never loads pathlib), a Path for every other event
HANDLERS: dict[str, Callable[[HookInput, Any], str]] = {
    "PostToolUse": post_tool_use,
    "Stop": stop,
    "PreCompact": reset_dedup,
    "SessionStart": session_start,
    "UserPromptSubmit": user_prompt_submit,
}
