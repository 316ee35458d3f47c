"""A scripted Anthropic Messages API on 127.0.0.1, for running the real Claude Code offline.

Claude Code calls `POST /v1/messages?beta=true` and always streams (SSE: message_start,
content_block_start / content_block_delta / content_block_stop, message_delta, message_stop). Every
request body is recorded; the reply comes from a script: a function of the request that returns the
assistant's content blocks (`text(...)`, `tool_use(...)`), or None for a plain "Done.".

`Script` is the usual shape: each user prompt (found by a phrase it contains) plays a list of turns,
one per request of the agent loop: the prompt's first request gets turn 0, the request carrying the
tool results of turn 0 gets turn 1, and so on; past the end, "Done.". Stdlib only.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

MODEL = "claude-sonnet-4-5"
COMPACT_ASK = "create a detailed summary of the conversation"  # in Claude Code 2.1.332's compaction request
COMPACT_SUMMARY = (
    "<analysis>Scripted.</analysis>\n<summary>The user and the assistant worked on this repository.</summary>"
)
_ids = itertools.count(1)


# -- replies --------------------------------------------------------------------------------------
def text(s: str) -> dict:
    return {"type": "text", "text": s}


def tool_use(name: str, input: dict, id: str | None = None) -> dict:
    return {"type": "tool_use", "id": id or f"toolu_e2e{next(_ids):06d}", "name": name, "input": input}


# -- what Claude Code sent ------------------------------------------------------------------------
@dataclass
class Request:
    """One recorded `POST /v1/messages`: the body as sent, and what the script answered."""

    path: str
    body: dict
    reply: list[dict] = field(default_factory=list)
    at: float = field(default_factory=time.time)  # when it arrived

    @property
    def messages(self) -> list[dict]:
        return self.body.get("messages", [])

    @property
    def tools(self) -> list[str]:
        return [t.get("name", "") for t in self.body.get("tools", []) or []]

    @property
    def is_agent(self) -> bool:
        """The main agent loop (it offers tools), not a side call such as a title or a summary."""
        return "Edit" in self.tools or any(t.startswith("mcp__") for t in self.tools)

    @property
    def is_compaction(self) -> bool:
        """Claude Code asking for the summary that replaces the conversation (`/compact`, or auto)."""
        return bool(self.messages) and COMPACT_ASK in user_texts(self.messages[-1])

    def raw(self) -> str:
        """The whole body as JSON text."""
        return json.dumps(self.body, ensure_ascii=False)

    def all_text(self) -> str:
        """Every text the model reads in this request, decoded: system prompt, messages, tool results."""
        parts = [self.system_text()]
        for m in self.messages:
            for b in blocks_of(m):
                parts.append(b.get("text", "") if b.get("type") == "text" else _text_of(b.get("content")))
        return "\n".join(parts)

    def system_text(self) -> str:
        s = self.body.get("system", "")
        return s if isinstance(s, str) else "\n".join(b.get("text", "") for b in s if isinstance(b, dict))

    def raw_calls(self) -> list[dict]:
        """Every tool_use block the assistant made in the conversation so far."""
        return [
            b
            for m in self.messages
            if m.get("role") == "assistant"
            for b in blocks_of(m)
            if b.get("type") == "tool_use"
        ]

    def new_results(self) -> list[dict]:
        """The tool_result blocks sent since the assistant's last message (system notes may follow them)."""
        last = max((i for i, m in enumerate(self.messages) if m.get("role") == "assistant"), default=-1)
        return [b for m in self.messages[last + 1 :] for b in blocks_of(m) if b.get("type") == "tool_result"]

    def call_named(self, tool_use_id: str) -> str | None:
        """The tool name of one earlier call, by its id."""
        return next((b["name"] for b in self.raw_calls() if b.get("id") == tool_use_id), None)

    def tool_results(self) -> dict[str, dict]:
        """tool_use_id -> {"text", "is_error"} for every tool result in the conversation so far."""
        out = {}
        for m in self.messages:
            for b in blocks_of(m):
                if b.get("type") == "tool_result":
                    out[b["tool_use_id"]] = {"text": _text_of(b.get("content")), "is_error": bool(b.get("is_error"))}
        return out


def blocks_of(message: dict) -> list[dict]:
    c = message.get("content")
    if isinstance(c, str):
        return [{"type": "text", "text": c}]
    return [b for b in c or [] if isinstance(b, dict)]


def _text_of(content: Any) -> str:
    if isinstance(content, str):
        return content
    return "".join(b.get("text", "") for b in content or [] if isinstance(b, dict) and b.get("type") == "text")


def user_texts(message: dict) -> str:
    return "\n".join(b.get("text", "") for b in blocks_of(message) if b.get("type") == "text")


# -- scripts --------------------------------------------------------------------------------------
Blocks = list[dict]  # one assistant message: its content blocks
Reply = Callable[[Request], "Blocks | None"]


class Script:
    """Prompts (by a phrase each contains) -> the assistant messages the model plays for it, in order.

    Each is a list of content blocks, or a callable that gets the request and returns one (so a
    reply can depend on an earlier tool result). Compaction requests get a fixed summary; side calls
    (no tools offered) are answered by `side(req)`.
    """

    def __init__(
        self, plays: dict[str, list[Blocks | Callable[[Request], Blocks]]] | None = None, side: Reply | None = None
    ) -> None:
        self.plays = dict(plays or {})
        self.side = side

    def add(self, phrase: str, *turns: Blocks | Callable[[Request], Blocks]) -> None:
        self.plays[phrase] = list(turns)

    def __call__(self, req: Request) -> Blocks | None:
        if req.is_compaction:
            return [text(COMPACT_SUMMARY)]
        if not req.is_agent:
            return self.side(req) if self.side else None
        msgs = req.messages
        for i in range(len(msgs) - 1, -1, -1):
            if msgs[i].get("role") != "user":
                continue
            said = user_texts(msgs[i])
            for phrase, turns in self.plays.items():
                if phrase in said:
                    step = sum(1 for m in msgs[i + 1 :] if m.get("role") == "assistant")
                    if step >= len(turns):
                        return None
                    turn = turns[step]
                    return turn(req) if callable(turn) else turn
        return None


# -- the server -----------------------------------------------------------------------------------
class ScriptedModel:
    """`with ScriptedModel(script) as m:` serves on m.url; m.requests holds every call, in order."""

    def __init__(self, script: Reply | None = None, record: Path | None = None) -> None:
        self.script: Reply = script or Script()
        self.record = record  # a JSONL file that gets every request and its reply, for debugging
        self.requests: list[Request] = []
        self.errors: list[str] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> ScriptedModel:
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._server.shutdown()
        self._server.server_close()

    # what the tests read
    def agent_requests(self) -> list[Request]:
        return [r for r in self.requests if r.is_agent]

    def tool_calls(self) -> list[dict]:
        """Every tool_use the script sent, in order."""
        return [b for r in self.requests for b in r.reply if b.get("type") == "tool_use"]

    def result_of(self, call: dict) -> dict:
        """The tool result Claude Code sent back for one scripted tool call (its text and is_error)."""
        for r in self.requests:
            found = r.tool_results().get(call["id"])
            if found is not None:
                return found
        raise AssertionError(f"no tool result came back for {call['name']} ({call['id']})")

    def results_for(self, tool: str) -> list[dict]:
        return [self.result_of(c) for c in self.tool_calls() if c["name"] == tool]

    def _answer(self, path: str, body: dict) -> list[dict]:
        req = Request(path, body)
        try:
            blocks = self.script(req)
        except Exception as e:  # a broken script must show up in the test, not hang Claude Code
            self.errors.append(f"{type(e).__name__}: {e}")
            blocks = None
        req.reply = list(blocks) if blocks else [text("Done.")]
        with self._lock:
            self.requests.append(req)
            if self.record is not None:
                with open(self.record, "a", encoding="utf-8") as f:
                    f.write(json.dumps({"path": path, "body": body, "reply": req.reply}) + "\n")
        return req.reply

    def _handler(self):
        model = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args) -> None:
                pass

            def do_POST(self) -> None:
                n = int(self.headers.get("content-length") or 0)
                raw = self.rfile.read(n)
                if not self.path.split("?")[0].endswith("/v1/messages"):
                    model.errors.append(f"unexpected endpoint POST {self.path}")
                    return self._json(
                        404, {"type": "error", "error": {"type": "not_found_error", "message": self.path}}
                    )
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    return self._json(
                        400, {"type": "error", "error": {"type": "invalid_request_error", "message": "bad json"}}
                    )
                blocks = model._answer(self.path, body)
                if body.get("stream"):
                    self._stream(body, blocks)
                else:
                    self._json(200, _message(body, blocks))

            def do_GET(self) -> None:
                model.errors.append(f"unexpected endpoint GET {self.path}")
                self._json(404, {"type": "error", "error": {"type": "not_found_error", "message": self.path}})

            def do_HEAD(self) -> None:
                self.send_response(200)
                self.send_header("content-length", "0")
                self.end_headers()

            def _json(self, status: int, obj: dict) -> None:
                data = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _stream(self, body: dict, blocks: list[dict]) -> None:
                self.send_response(200)
                self.send_header("content-type", "text/event-stream")
                self.send_header("cache-control", "no-cache")
                self.send_header("connection", "close")
                self.end_headers()
                for event, data in _events(body, blocks):
                    self.wfile.write(f"event: {event}\ndata: {json.dumps(data)}\n\n".encode())
                self.wfile.flush()
                self.close_connection = True

        return Handler


def _usage(out: int = 0) -> dict:
    return {"input_tokens": 100, "output_tokens": out, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}


def _stop_reason(blocks: list[dict]) -> str:
    return "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"


def _message(body: dict, blocks: list[dict]) -> dict:
    return {
        "id": f"msg_e2e{next(_ids):06d}",
        "type": "message",
        "role": "assistant",
        "model": body.get("model", MODEL),
        "content": blocks,
        "stop_reason": _stop_reason(blocks),
        "stop_sequence": None,
        "usage": _usage(10),
    }


def _events(body: dict, blocks: list[dict]):
    msg = dict(_message(body, blocks), content=[], stop_reason=None, usage=_usage(1))
    yield "message_start", {"type": "message_start", "message": msg}
    for i, b in enumerate(blocks):
        if b["type"] == "text":
            start = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": b["text"]}
        else:  # tool_use: the input arrives as JSON text in deltas, the start carries an empty one
            start = {"type": "tool_use", "id": b["id"], "name": b["name"], "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(b["input"])}
        yield "content_block_start", {"type": "content_block_start", "index": i, "content_block": start}
        yield "content_block_delta", {"type": "content_block_delta", "index": i, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop", "index": i}
    yield (
        "message_delta",
        {
            "type": "message_delta",
            "delta": {"stop_reason": _stop_reason(blocks), "stop_sequence": None},
            "usage": {"output_tokens": 10},
        },
    )
    yield "message_stop", {"type": "message_stop"}
