"""Nocetta's push-recall scenarios (test/recall/push-recall.test.ts, test/recall/push-recall-hook.test.ts and the
`hook user-prompt-submit` half of test/cli/cli.test.ts), re-typed against tether's real UserPromptSubmit hook:
the script hooks/hooks.json names, run through `sh -c` with real Claude Code payloads, in a real git repository.

Nocetta's `selectPushRecall` and `extractFilePaths` are pure functions; here each scenario is what a user sees
at the prompt: one memory injected, or silence. Nocetta's "anchor-gated" candidate is tether's floor bypass for
a prompt naming an anchored file; its "ack" is a Stop credit.
"""

from __future__ import annotations

import json
import os
import re
import shutil

import pytest
from hooktools import RELATED, UNRELATED, billing_repo, context_of, hook_env, payload, run_hook

SESSION = "9a7e2c41-3b5d-4f60-8e1a-2c4d6b8f0a13"
WEAK = "the invoice rounding seems off"
STRONG = (
    "why do invoice totals round each line to cents before summing, never rounding the grand total, as auditors "
    "require per-line rounding?"
)
BACKOFF = "why is the retry backoff capped at 30 seconds for the payment gateway connections?"
NEAR_TIE = (
    "why do invoice totals round per line, and why are tax rates never fetched at runtime but read from the "
    "in-code table?"
)


@pytest.fixture(scope="module")
def billing_template(tmp_path_factory):
    """hooktools.billing_repo built once per module (three memories on two files, committed), copied per test."""
    from conftest import Repo

    base = tmp_path_factory.mktemp("billing-template")
    saved = os.environ.get("TETHER_HOME")
    os.environ["TETHER_HOME"] = str(base / "home")
    try:
        r = Repo(base / "repo")
        ids = billing_repo(r)
    finally:
        if saved is None:
            os.environ.pop("TETHER_HOME", None)
        else:
            os.environ["TETHER_HOME"] = saved
    return r.path, ids


@pytest.fixture
def billing(repo, billing_template):
    src, ids = billing_template
    shutil.rmtree(repo.path)
    shutil.copytree(src, repo.path, symlinks=True)
    return dict(ids)


def prompt(repo, env, text: str, session: str = SESSION, cwd=None):
    data = payload("user_prompt_submit.json", session=session, repo=str(cwd or repo.path), transcript="", prompt=text)
    proc = run_hook("UserPromptSubmit", data, env)
    assert proc.returncode == 0 and proc.stderr == b"", proc.stderr
    return proc


def pushed(proc) -> list[str]:
    ctx = context_of(proc)
    return re.findall(r'<tether-memory id="([0-9a-f]{8})"', ctx) if ctx else []


def stop(repo, env, message: str, session: str = SESSION):
    data = payload("stop.json", session=session, repo=str(repo.path), transcript="", message=message)
    proc = run_hook("Stop", data, env)
    assert (proc.returncode, proc.stdout) == (0, b"")


def scores(repo, text: str) -> dict[str, float]:
    from tether.surfaces.hooks.scoring import PushIndex

    idx = PushIndex(repo.path)
    try:
        return dict(idx.candidates(text))
    finally:
        idx.close()


def env(repo, tmp_path, **extra):
    return hook_env(tmp_path, repo.path, **extra)


# -- test/recall/push-recall-hook.test.ts › extractFilePaths ----------------------------------------
def test_a_repo_relative_path_in_prose_bypasses_the_floor(repo, billing, tmp_path):
    """nocetta test/recall/push-recall-hook.test.ts › extractFilePaths › pulls a repo-relative path out of prose"""
    got = pushed(prompt(repo, env(repo, tmp_path, TETHER_PUSH_FLOOR="1000"), "please fix src/retry.py today"))
    assert got == [billing["backoff"][:8]]


def test_an_absolute_path_under_the_repo_counts_as_its_repo_relative_path(repo, billing, tmp_path):
    """nocetta test/recall/push-recall-hook.test.ts › extractFilePaths › normalizes an absolute path under the repo to
    repo-relative"""
    text = f"see {repo.path}/src/retry.py"
    assert pushed(prompt(repo, env(repo, tmp_path, TETHER_PUSH_FLOOR="1000"), text)) == [billing["backoff"][:8]]


@pytest.fixture
def paths_repo(repo):
    repo.write("etc/thing.conf", "listen = 8080\nworkers = 4\n")
    repo.write(
        "invoice.ts",
        "export function total(xs: number[]): number {\n  return xs.reduce((a, b) => a + b, 0) * 1.2;\n}\n",
    )
    repo.write("bar/foo.ts", "export function a(): number {\n  return computeSomething(1, 2, 3) + 7;\n}\n")
    repo.write("pkg/bar/foo.ts", "export function b(): number {\n  return computeOther(4, 5, 6) * 9;\n}\n")
    repo.write("pkg/main.ts", "export function m(): number {\n  return 1;\n}\n")
    repo.commit("paths")
    return {
        "conf": repo.remember(
            "The service listens on 8080 because the load balancer health check is hardwired to it.", "etc/thing.conf"
        ),
        "invoice": repo.remember(
            "Invoice totals include the 20 percent VAT multiplier required by the finance team.", "invoice.ts::total"
        ),
        "root": repo.remember(
            "Root helper a adds seven to the computed value for the legacy dashboard.", "bar/foo.ts::a"
        ),
        "pkg": repo.remember(
            "Package helper b multiplies by nine to convert units for the mobile app.", "pkg/bar/foo.ts::b"
        ),
    }


def test_a_relative_path_is_read_against_the_prompts_cwd(repo, paths_repo, tmp_path):
    """nocetta test/recall/push-recall-hook.test.ts › extractFilePaths › resolves a cwd-relative path against cwd, not
    the repo root (prompt `bar/foo.ts` with cwd `pkg/` names `pkg/bar/foo.ts`)"""
    got = pushed(
        prompt(
            repo, env(repo, tmp_path, TETHER_PUSH_FLOOR="1000"), "look at foo.ts in bar/foo.ts", cwd=repo.path / "pkg"
        )
    )
    assert got == [paths_repo["pkg"][:8]]


def test_an_absolute_path_outside_the_repo_never_bypasses_the_floor(repo, paths_repo, tmp_path):
    """nocetta test/recall/push-recall-hook.test.ts › extractFilePaths › drops paths that escape the repo
    (`edit /etc/thing.conf` names no file of the repository, whatever it anchors under etc/)"""
    assert prompt(repo, env(repo, tmp_path, TETHER_PUSH_FLOOR="1000"), "edit /etc/thing.conf").stdout == b""


def test_a_path_escaping_the_repo_never_bypasses_the_floor(repo, paths_repo, tmp_path):
    """nocetta test/recall/push-recall-hook.test.ts › extractFilePaths › drops paths that escape the repo
    (`../invoice.ts` from the repository root is outside it)"""
    assert prompt(repo, env(repo, tmp_path, TETHER_PUSH_FLOOR="1000"), "compare it with ../invoice.ts").stdout == b""


def test_a_bare_file_name_naming_one_anchored_file_bypasses_the_floor(repo, billing, tmp_path):
    """nocetta test/recall/push-recall-hook.test.ts › extractFilePaths › does not match a bare filename with no slash
    (an anchor path is never bare). tether differs on purpose (DIFFERENCES.md): a unique path suffix such as
    `retry.py` names its file."""
    got = pushed(prompt(repo, env(repo, tmp_path, TETHER_PUSH_FLOOR="1000"), "the retry.py file"))
    assert got == [billing["backoff"][:8]]


def test_a_path_in_a_markdown_link_counts_and_a_repeat_is_one_mention(repo, billing, tmp_path):
    """nocetta test/recall/push-recall-hook.test.ts › extractFilePaths › finds the path inside a markdown link and
    dedupes repeats"""
    e = env(repo, tmp_path, TETHER_PUSH_FLOOR="1000")
    got = pushed(prompt(repo, e, "[log](src/retry.py) and again src/retry.py"))
    assert got == [billing["backoff"][:8]]


# -- test/recall/push-recall-hook.test.ts › priorInjectionsFor ---------------------------------------
def test_without_a_session_id_prompts_still_share_one_dedup_window(repo, billing, tmp_path):
    """nocetta test/recall/push-recall-hook.test.ts › priorInjectionsFor › returns nothing without a session id (can't
    scope the dedup). tether differs (DIFFERENCES.md): session-less payloads share one window, so a repeat stays
    quiet."""
    e = env(repo, tmp_path)
    assert pushed(prompt(repo, e, RELATED, session="")) == [billing["total"][:8]]
    assert prompt(repo, e, RELATED, session="").stdout == b""


def test_dedup_is_per_session_and_a_credit_keeps_a_memory_quiet_in_its_session(repo, billing, tmp_path):
    """nocetta test/recall/push-recall-hook.test.ts › priorInjectionsFor › scopes to the session and carries score,
    source, and ack state"""
    assert scores(repo, STRONG)[billing["total"]] >= 1.5 * scores(repo, RELATED)[billing["total"]]  # premise
    e = env(repo, tmp_path)
    assert pushed(prompt(repo, e, RELATED)) == [billing["total"][:8]]
    assert pushed(prompt(repo, e, RELATED, session="other-session")) == [billing["total"][:8]]
    stop(repo, e, f"Kept per-line rounding (tether:{billing['total'][:8]}).")
    assert prompt(repo, e, STRONG).stdout == b""
    assert prompt(repo, e, STRONG, session="other-session").stdout != b""  # its own window: ignored, a stronger score


def test_a_credit_before_the_push_does_not_count_as_using_it(repo, billing, tmp_path):
    """nocetta test/recall/push-recall-hook.test.ts › priorInjectionsFor › an ack before the inject does not count (ack
    is a time-ordered proxy)"""
    weak = scores(repo, WEAK)[billing["total"]]
    assert scores(repo, STRONG)[billing["total"]] >= 1.5 * weak  # premise, on the scorer as it is
    e = env(repo, tmp_path, TETHER_PUSH_FLOOR=str(weak * 0.9))
    stop(repo, e, f"As tether:{billing['total'][:8]} says, rounding is per line.")
    assert pushed(prompt(repo, e, WEAK)) == [billing["total"][:8]]
    assert pushed(prompt(repo, e, STRONG)) == [billing["total"][:8]]  # ignored, not used: the rising bar applies


def test_compaction_resets_the_window(repo, billing, tmp_path):
    """nocetta test/recall/push-recall-hook.test.ts › priorInjectionsFor › compaction resets the window: injections
    before the marker stop counting"""
    e = env(repo, tmp_path)
    assert pushed(prompt(repo, e, RELATED)) == [billing["total"][:8]]
    assert prompt(repo, e, RELATED).stdout == b""
    data = payload("pre_compact.json", session=SESSION, repo=str(repo.path), transcript="")
    assert run_hook("PreCompact", data, e).stdout == b""
    assert pushed(prompt(repo, e, RELATED)) == [billing["total"][:8]]


# -- test/recall/push-recall.test.ts › selectPushRecall --------------------------------------------
def test_a_score_below_the_floor_is_silence(repo, billing, tmp_path):
    """nocetta test/recall/push-recall.test.ts › selectPushRecall › defaults to silence: a candidate at or below the
    floor never injects (below)"""
    s = scores(repo, RELATED)[billing["total"]]
    assert prompt(repo, env(repo, tmp_path, TETHER_PUSH_FLOOR=str(s + 0.01)), RELATED).stdout == b""


def test_a_score_exactly_at_the_floor_is_silence(repo, billing, tmp_path):
    """nocetta test/recall/push-recall.test.ts › selectPushRecall › defaults to silence: a candidate at or below the
    floor never injects (at)"""
    s = scores(repo, RELATED)[billing["total"]]
    assert prompt(repo, env(repo, tmp_path, TETHER_PUSH_FLOOR=repr(s)), RELATED).stdout == b""


def test_no_candidate_at_all_is_silence(repo, billing, tmp_path):
    """nocetta test/recall/push-recall.test.ts › selectPushRecall › no candidates at all: silence"""
    assert scores(repo, UNRELATED) == {}
    assert prompt(repo, env(repo, tmp_path), UNRELATED).stdout == b""


def test_at_most_one_memory_is_injected_and_only_a_clear_winner(repo, billing, tmp_path):
    """nocetta test/recall/push-recall.test.ts › selectPushRecall › injects the single strongest candidate above the
    floor — capped at one. tether also asks the winner to clear the runner-up by 1.4x (DIFFERENCES.md): two memories
    matching about equally are silence."""
    from tether.surfaces.hooks.push import DOMINANCE

    one = context_of(prompt(repo, env(repo, tmp_path), STRONG))
    assert one.count("<tether-memory ") == 1 and billing["total"][:8] in one
    s = scores(repo, NEAR_TIE)
    tax, total = s[billing["tax"]], s[billing["total"]]
    assert tax > total and tax < DOMINANCE * total  # premise: a near tie, on the scorer as it is
    assert (
        prompt(repo, env(repo, tmp_path, TETHER_PUSH_FLOOR=str(total * 0.9)), NEAR_TIE, session="s-tie").stdout == b""
    )


def test_a_used_memory_stays_quiet_even_on_a_much_higher_score(repo, billing, tmp_path):
    """nocetta test/recall/push-recall.test.ts › selectPushRecall › a node injected and later acked is suppressed
    permanently — even at a much higher score"""
    weak = scores(repo, WEAK)[billing["total"]]
    e = env(repo, tmp_path, TETHER_PUSH_FLOOR=str(weak * 0.9))
    assert pushed(prompt(repo, e, WEAK)) == [billing["total"][:8]]
    stop(repo, e, f"Used tether:{billing['total'][:8]}.")
    assert prompt(repo, e, STRONG).stdout == b""


def test_an_ignored_memory_stays_quiet_at_the_same_score(repo, billing, tmp_path):
    """nocetta test/recall/push-recall.test.ts › selectPushRecall › a node injected and ignored (no ack) stays
    suppressed at the same score"""
    e = env(repo, tmp_path)
    assert pushed(prompt(repo, e, RELATED)) == [billing["total"][:8]]
    assert prompt(repo, e, RELATED).stdout == b""


def test_an_ignored_memory_fires_again_once_its_score_clears_the_rising_bar(repo, billing, tmp_path):
    """nocetta test/recall/push-recall.test.ts › selectPushRecall › an ignored node re-fires once its score clears the
    rising bar (tether's bar is 1.5x the last pushed score, Nocetta's an additive margin: DIFFERENCES.md)"""
    weak = scores(repo, WEAK)[billing["total"]]
    assert scores(repo, STRONG)[billing["total"]] >= 1.5 * weak
    e = env(repo, tmp_path, TETHER_PUSH_FLOOR=str(weak * 0.9))
    assert pushed(prompt(repo, e, WEAK)) == [billing["total"][:8]]
    assert pushed(prompt(repo, e, STRONG)) == [billing["total"][:8]]
    assert prompt(repo, e, STRONG).stdout == b""  # and the bar rose with it


def test_a_memory_never_pushed_has_nothing_to_clear(repo, billing, tmp_path):
    """nocetta test/recall/push-recall.test.ts › selectPushRecall › a node never injected this session has no
    suppression to clear"""
    e = env(repo, tmp_path)
    assert pushed(prompt(repo, e, STRONG)) == [billing["total"][:8]]
    assert pushed(prompt(repo, e, BACKOFF)) == [billing["backoff"][:8]]


def test_naming_an_anchored_file_bypasses_the_floor(repo, billing, tmp_path):
    """nocetta test/recall/push-recall.test.ts › selectPushRecall › an anchor-gated candidate bypasses the floor
    entirely"""
    assert scores(repo, "what about src/retry.py").get(billing["backoff"], 0.0) < 1000
    got = pushed(prompt(repo, env(repo, tmp_path, TETHER_PUSH_FLOOR="1000"), "what about src/retry.py"))
    assert got == [billing["backoff"][:8]]


def test_naming_the_file_of_an_ignored_push_does_not_bring_it_back(repo, billing, tmp_path):
    """nocetta test/recall/push-recall.test.ts › selectPushRecall › an anchor match overrides a prior keyword injection
    that was ignored. tether differs on purpose (DIFFERENCES.md): the bypass lifts the floor, not the dedup window."""
    assert pushed(prompt(repo, env(repo, tmp_path), BACKOFF)) == [billing["backoff"][:8]]
    high = env(repo, tmp_path, TETHER_PUSH_FLOOR="1000")
    assert prompt(repo, high, "now look at src/retry.py").stdout == b""


def test_a_files_bypass_is_spent_once_per_session(repo, billing, tmp_path):
    """nocetta test/recall/push-recall.test.ts › selectPushRecall › an anchor match is suppressed once it has already
    surfaced via anchor this session"""
    e = env(repo, tmp_path, TETHER_PUSH_FLOOR="1000")
    assert pushed(prompt(repo, e, "what about src/retry.py")) == [billing["backoff"][:8]]
    assert prompt(repo, e, "and src/retry.py again").stdout == b""
    assert pushed(prompt(repo, e, "and src/retry.py again", session="fresh-session")) == [billing["backoff"][:8]]


def test_a_used_memory_is_not_brought_back_by_naming_its_file(repo, billing, tmp_path):
    """nocetta test/recall/push-recall.test.ts › selectPushRecall › an anchor match is suppressed after the memory was
    used, whatever the source"""
    e = env(repo, tmp_path)
    assert pushed(prompt(repo, e, BACKOFF)) == [billing["backoff"][:8]]
    stop(repo, e, f"Kept the cap (tether:{billing['backoff'][:8]}).")
    assert prompt(repo, env(repo, tmp_path, TETHER_PUSH_FLOOR="1000"), "open src/retry.py").stdout == b""


def test_a_spent_bypass_does_not_block_a_strong_match_on_another_memory(repo, billing, tmp_path):
    """nocetta test/recall/push-recall.test.ts › selectPushRecall › a suppressed anchor does not block a fresh keyword
    hit on another node"""
    assert pushed(prompt(repo, env(repo, tmp_path, TETHER_PUSH_FLOOR="1000"), "what about src/retry.py")) == [
        billing["backoff"][:8]
    ]
    got = pushed(prompt(repo, env(repo, tmp_path), STRONG + " (see src/retry.py too)"))
    assert got == [billing["total"][:8]]


def test_a_strong_match_wins_over_a_named_file(repo, billing, tmp_path):
    """nocetta test/recall/push-recall.test.ts › selectPushRecall › an anchor-gated candidate is preferred over a
    higher-scoring keyword-only one. tether differs on purpose (DIFFERENCES.md): the clear winner above the floor is
    pushed first; a named file's bypass only speaks when nothing clears the floor."""
    got = pushed(prompt(repo, env(repo, tmp_path), STRONG + " Also see src/retry.py"))
    assert got == [billing["total"][:8]]


def test_a_superseded_memory_is_never_pushed(repo, billing, tmp_path):
    """nocetta test/recall/push-recall.test.ts › selectPushRecall › current-only is inherited, never re-derived: a node
    the caller already filtered out cannot be picked"""
    repo.run(
        "supersede",
        billing["total"],
        "Invoice totals are computed by the ledger service now; this module only formats them.",
        "--reason",
        "moved",
    )
    e = env(repo, tmp_path, TETHER_PUSH_FLOOR="0.01")
    for text in (STRONG, RELATED, "look at src/billing.py"):
        assert billing["total"][:8] not in pushed(prompt(repo, e, text))


# -- test/cli/cli.test.ts › nocetta hook user-prompt-submit (push-recall) ---------------------------
def test_a_strong_hit_prints_valid_hook_json_naming_the_memory(repo, billing, tmp_path):
    """nocetta test/cli/cli.test.ts › nocetta hook user-prompt-submit (push-recall) › emits a valid hookSpecificOutput
    JSON on a strong, floor-clearing hit"""
    proc = prompt(repo, env(repo, tmp_path, TETHER_PUSH_FLOOR="0"), STRONG)
    out = json.loads(proc.stdout)["hookSpecificOutput"]
    assert out["hookEventName"] == "UserPromptSubmit"
    assert "tether" in out["additionalContext"] and billing["total"][:8] in out["additionalContext"]


def test_a_prompt_sharing_no_vocabulary_is_silent(repo, billing, tmp_path):
    """nocetta test/cli/cli.test.ts › nocetta hook user-prompt-submit (push-recall) › stays silent (empty stdout) on a
    prompt sharing no vocabulary with any memory"""
    proc = prompt(repo, env(repo, tmp_path), "completely unrelated words with zero overlap whatsoever")
    assert proc.stdout == b""


def test_malformed_stdin_is_a_silent_no_op(repo, billing, tmp_path):
    """nocetta test/cli/cli.test.ts › nocetta hook user-prompt-submit (push-recall) › degrades to a silent no-op on
    malformed stdin"""
    proc = run_hook("UserPromptSubmit", b"{ not json", env(repo, tmp_path))
    assert (proc.returncode, proc.stdout) == (0, b"")


def test_tether_push_off_silences_a_strong_hit(repo, billing, tmp_path):
    """nocetta test/cli/cli.test.ts › nocetta hook user-prompt-submit (push-recall) › NOCETTA_PUSH_OFF silences an
    otherwise-strong hit (TETHER_PUSH_OFF here)"""
    e = env(repo, tmp_path, TETHER_PUSH_FLOOR="0", TETHER_PUSH_OFF="1")
    assert prompt(repo, e, STRONG).stdout == b""


def test_a_stale_memory_never_injects_even_on_a_strong_match(repo, billing, tmp_path):
    """nocetta test/cli/cli.test.ts › nocetta hook user-prompt-submit (push-recall) › a dirty node never injects even
    with a strong keyword match — current-only is inherited from filterLive"""
    repo.replace(
        "src/billing.py", "total += round(line.amount * line.quantity, 2)", "total += line.amount * line.quantity"
    )
    e = env(repo, tmp_path, TETHER_PUSH_FLOOR="0.01")
    assert billing["total"][:8] not in pushed(prompt(repo, e, STRONG))
