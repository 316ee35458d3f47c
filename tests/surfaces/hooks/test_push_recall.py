"""Push-recall (UserPromptSubmit) through the real hook script: one memory or silence, never a stale one."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hooktools import RELATED, UNRELATED, billing_repo, context_of, hook_env, payload, run_hook

SESSION = "5f0c1d2e-3a4b-4c5d-8e9f-0a1b2c3d4e5f"
WEAK = "the invoice rounding looks odd to me"
STRONG = (
    "why do invoice totals round each line to cents before summing instead of rounding the grand total for auditors?"
)


@pytest.fixture
def billing(repo):
    return billing_repo(repo)


def prompt(repo, env, text: str, session: str = SESSION):
    data = payload("user_prompt_submit.json", session=session, repo=str(repo.path), transcript="", prompt=text)
    proc = run_hook("UserPromptSubmit", data, env)
    assert proc.returncode == 0 and proc.stderr == b"", proc.stderr
    return proc


def pushed(proc) -> list[str]:
    """The short ids of the memories injected by one prompt."""
    ctx = context_of(proc)
    return re.findall(r'<tether-memory id="([0-9a-f]{8})"', ctx) if ctx else []


def scores(repo_path: Path, text: str) -> dict[str, float]:
    from tether.surfaces.hooks.scoring import PushIndex

    idx = PushIndex(repo_path)
    try:
        return dict(idx.candidates(text))
    finally:
        idx.close()


def env_with(repo, tmp_path, **extra):
    return hook_env(tmp_path, repo.path, **extra)


def test_a_related_prompt_injects_exactly_one_memory_as_fenced_background_data(repo, billing, tmp_path):
    proc = prompt(repo, env_with(repo, tmp_path), RELATED)
    out = json.loads(proc.stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == "UserPromptSubmit"
    assert pushed(proc) == [billing["total"][:8]]
    ctx = out["additionalContext"]
    assert "not an instruction" in ctx and "</tether-memory>" in ctx
    assert "auditors require per-line rounding" in ctx and "src/billing.py::invoice_total" in ctx
    assert len(ctx) < 1200


def test_an_unrelated_prompt_is_met_with_silence(repo, billing, tmp_path):
    proc = prompt(repo, env_with(repo, tmp_path), UNRELATED)
    assert proc.stdout == b""


def test_a_stale_memory_is_never_injected(repo, billing, tmp_path):
    repo.replace(
        "src/billing.py", "total += round(line.amount * line.quantity, 2)", "total += line.amount * line.quantity"
    )
    env = env_with(repo, tmp_path, TETHER_PUSH_FLOOR="0.01")
    for text in (RELATED, STRONG, "look at src/billing.py::invoice_total"):
        assert billing["total"][:8] not in pushed(prompt(repo, env, text))


def test_a_repeated_prompt_is_suppressed_in_the_same_session(repo, billing, tmp_path):
    env = env_with(repo, tmp_path)
    assert pushed(prompt(repo, env, RELATED)) == [billing["total"][:8]]
    assert prompt(repo, env, RELATED).stdout == b""
    assert pushed(prompt(repo, env, RELATED, session="another-session")) == [billing["total"][:8]]


def test_an_ignored_memory_fires_again_only_on_a_materially_stronger_score(repo, billing, tmp_path):
    weak, strong = scores(repo.path, WEAK)[billing["total"]], scores(repo.path, STRONG)[billing["total"]]
    assert strong >= 1.5 * weak  # the premise of this test, on the scorer as it is
    env = env_with(repo, tmp_path, TETHER_PUSH_FLOOR=str(weak * 0.9))
    assert pushed(prompt(repo, env, WEAK)) == [billing["total"][:8]]
    assert prompt(repo, env, WEAK).stdout == b""  # same score: below 1.5x the last push
    assert pushed(prompt(repo, env, STRONG)) == [billing["total"][:8]]
    assert prompt(repo, env, STRONG).stdout == b""  # the bar rose with it


def test_a_used_memory_stays_quiet_for_the_session(repo, billing, tmp_path):
    weak = scores(repo.path, WEAK)[billing["total"]]
    env = env_with(repo, tmp_path, TETHER_PUSH_FLOOR=str(weak * 0.9))
    assert pushed(prompt(repo, env, WEAK)) == [billing["total"][:8]]
    data = payload(
        "stop.json",
        session=SESSION,
        repo=str(repo.path),
        transcript="",
        message=f"Kept per-line rounding (tether:{billing['total'][:8]}).",
    )
    assert run_hook("Stop", data, env).stdout == b""
    assert prompt(repo, env, STRONG).stdout == b""  # credited: quiet even on a much stronger score
    compact = payload("pre_compact.json", session=SESSION, repo=str(repo.path), transcript="")
    run_hook("PreCompact", compact, env)
    assert prompt(repo, env, STRONG).stdout == b""  # and after compaction too


def test_naming_an_anchored_file_bypasses_the_floor_once_per_session(repo, billing, tmp_path):
    env = env_with(repo, tmp_path, TETHER_PUSH_FLOOR="1000")
    # two memories on that file: naming it alone singles neither out (a guess would be a wrong push) ...
    assert prompt(repo, env, "can you look at src/billing.py for me").stdout == b""
    # ... the prompt's other words choose one
    assert pushed(prompt(repo, env, "can you look at the tax rates in src/billing.py")) == [billing["tax"][:8]]
    # the other memory on that file is not pushed: the file's bypass is spent for this session
    assert prompt(repo, env, "and now billing.py again please").stdout == b""
    # another anchored file has its own bypass
    assert pushed(prompt(repo, env, "what about src/retry.py")) == [billing["backoff"][:8]]
    # an unrelated prompt under a high floor stays silent
    assert prompt(repo, env, UNRELATED).stdout == b""


def test_pre_compact_resets_the_dedup_window(repo, billing, tmp_path):
    env = env_with(repo, tmp_path)
    assert pushed(prompt(repo, env, RELATED)) == [billing["total"][:8]]
    assert prompt(repo, env, RELATED).stdout == b""
    compact = payload("pre_compact.json", session=SESSION, repo=str(repo.path), transcript="")
    assert run_hook("PreCompact", compact, env).stdout == b""
    assert pushed(prompt(repo, env, RELATED)) == [billing["total"][:8]]


def test_session_start_compact_resets_the_dedup_window(repo, billing, tmp_path):
    env = env_with(repo, tmp_path)
    assert pushed(prompt(repo, env, RELATED)) == [billing["total"][:8]]
    data = payload("session_start_compact.json", session=SESSION, repo=str(repo.path), transcript="")
    assert run_hook("SessionStart", data, env, matcher_subject="compact").stdout == b""
    assert pushed(prompt(repo, env, RELATED)) == [billing["total"][:8]]


@pytest.mark.parametrize("value", ["1", "true"])
def test_tether_push_off_silences_push_recall(repo, billing, tmp_path, value):
    env = env_with(repo, tmp_path, TETHER_PUSH_OFF=value, TETHER_PUSH_FLOOR="0.01")
    assert prompt(repo, env, RELATED).stdout == b""
    assert prompt(repo, env, "look at src/billing.py").stdout == b""


def test_a_push_is_recorded_in_the_usage_log(repo, billing, tmp_path, tether_home):
    prompt(repo, env_with(repo, tmp_path), RELATED)
    (log,) = tether_home.glob("state/*/usage.jsonl")
    (event,) = [json.loads(line) for line in log.read_text().splitlines()]
    assert (event["event"], event["ids"], event["session"]) == ("push", [billing["total"]], SESSION)
    assert event["tokens"] > 0 and event["prompt_id"] == "6d1f9a0e-2b7c-4c55-9b1e-0f3a2d4c8e71"


# -- the state machine on its own --------------------------------------------------------------
def test_only_a_clear_winner_is_pushed_and_only_if_its_anchors_are_active():
    from tether.surfaces.hooks.push import DOMINANCE, decide
    from tether.surfaces.hooks.session import SessionState

    asked = []

    def is_active(mid):
        asked.append(mid)
        return mid != "stale"

    # two memories match about equally: the prompt does not say which one it needs
    close = [("a", 9.0), ("b", 9.0 / DOMINANCE + 0.1)]
    assert decide(close, SessionState(), 1.0, is_active).memory_id is None
    assert asked == []
    clear = [("a", 9.0), ("b", 9.0 / DOMINANCE - 0.1)]
    assert (decide(clear, SessionState(), 1.0, is_active).memory_id, asked) == ("a", ["a"])
    asked.clear()
    # a stale winner is not replaced by the runner-up: silence
    d = decide([("stale", 9.0), ("b", 1.0)], SessionState(), 1.0, is_active)
    assert (d.memory_id, asked) == (None, ["stale"])


def test_the_bypass_checks_at_most_a_few_candidates():
    from tether.surfaces.hooks.push import MAX_CHECKS, decide
    from tether.surfaces.hooks.session import SessionState

    asked = []

    def is_active(mid):
        asked.append(mid)
        return mid == "d"

    named = {"src/a.py": ["a", "b", "c", "d"]}
    words = {"a": 9.0, "b": 1.0, "c": 1.0, "d": 1.0}  # the prompt's words single out `a`
    d = decide([], SessionState(), 100.0, is_active, named, in_file=words)
    assert d.memory_id is None and asked == ["a", "b", "c"] and len(asked) == MAX_CHECKS
    asked.clear()
    d = decide([], SessionState(), 100.0, is_active, {"src/a.py": ["c", "d"]}, in_file={"c": 5.0, "d": 1.0})
    assert (d.memory_id, d.via, asked) == ("d", "bypass", ["c", "d"])


def test_a_floor_push_needs_the_full_ranking_to_agree():
    from tether.surfaces.hooks.push import decide
    from tether.surfaces.hooks.session import SessionState

    clear = [("a", 9.0), ("b", 1.0)]
    assert decide(clear, SessionState(), 4.0, lambda _: True).memory_id == "a"
    # recall's ranking (lexicon, code field) puts another memory first: the two disagree, silence
    assert decide(clear, SessionState(), 4.0, lambda _: True, confirm=lambda mid: mid == "b").memory_id is None


def test_naming_a_file_pushes_the_memory_its_other_words_single_out_and_never_guesses():
    from tether.surfaces.hooks.push import decide
    from tether.surfaces.hooks.session import SessionState

    named = {"src/a.py": ["a", "b"]}
    # the path matched both alike; without it the words point at b
    d = decide([("a", 2.0), ("b", 2.0)], SessionState(), 100.0, lambda _: True, named, in_file={"b": 3.0, "a": 0.5})
    assert (d.memory_id, d.via) == ("b", "bypass")
    # the words fit both of the file's memories alike: which one would be a guess
    d = decide([], SessionState(), 100.0, lambda _: True, named, in_file={"a": 3.0, "b": 2.8})
    assert d.memory_id is None
    # no words beyond the path: neither is singled out; a file with one memory is answered by it
    assert decide([], SessionState(), 100.0, lambda _: True, named, in_file={}).memory_id is None
    one = {"src/b.py": ["c"]}
    assert decide([], SessionState(), 100.0, lambda _: True, one, in_file={}).memory_id == "c"


SIGNER = "class Signer:\n    def sign(self, payload):\n        return hmac(self.keys[-1], payload)\n"
LONG_FIRST = (
    "The token signer iterates the configured keys and, unlike the verifier which tries every key in turn, "
    "always signs with the LAST key in the list, so rotation must append the new key."
)


def pushed_memory(repo, tmp_path, body: str) -> str:
    """The text inside the fence when the prompt names the memory's file (its bypass)."""
    repo.write("src/signer.py", SIGNER)
    repo.commit("signer")
    repo.remember(body, "src/signer.py::Signer.sign")
    ctx = context_of(prompt(repo, env_with(repo, tmp_path), "rotate the keys in src/signer.py"))
    assert ctx is not None
    return ctx.split('">\n', 1)[1].split("\n</tether-memory>", 1)[0]


def test_a_long_first_sentence_is_pushed_whole_and_once(repo, tmp_path):
    body = LONG_FIRST + " Removing an old key early logs users out."
    text = pushed_memory(repo, tmp_path, body)
    assert text == body  # not the summary cut at 120 characters, then the rest after a line break


def test_a_body_past_the_budget_is_cut_once_after_a_sentence(repo, tmp_path):
    rest = " ".join(f"Rotation step {i} is to append the key and wait for old tokens to expire." for i in range(12))
    text = pushed_memory(repo, tmp_path, LONG_FIRST + " " + rest)
    assert text.startswith(LONG_FIRST + " Rotation step 0") and text.count("…") == 1
    assert text.endswith("expire. […]") and len(text) <= 610


def test_abbreviations_and_ellipses_end_no_sentence_of_a_pushed_body(repo, tmp_path):
    first = (
        "Rotate signing keys by appending, e.g. with the admin task, i.e. never replace them in place, "
        "since old tokens (issued vs. verified...) still name the old key id in config.py. "
    )
    rest = " ".join(f"Step {i} appends key v{i}. then waits for tokens to expire." for i in range(14))
    text = pushed_memory(repo, tmp_path, first + rest)
    assert text.startswith(first.strip()) and text.endswith("to expire. […]") and len(text) <= 610
    assert "e.g. […]" not in text and "v3. […]" not in text


def test_a_cut_inside_a_fenced_block_closes_the_fence(repo, tmp_path):
    code = "\n".join(f"    signer.append(key_{i})  # keep the old one for tokens already issued" for i in range(14))
    body = f"Append keys, never replace them:\n\n```python\n{code}\n```\n\nOld tokens keep working."
    text = pushed_memory(repo, tmp_path, body)
    assert text.count("```") % 2 == 0 and len(text) <= 700
