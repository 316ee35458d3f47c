"""CLI handler for `stats`, and its terminal rendering (counts first, bars where they read faster)."""

from __future__ import annotations

from tether.anchor.locator import locator
from tether.errors import InvalidInput
from tether.lifecycle.views import envelope
from tether.surfaces.cli.args import Add, repository
from tether.surfaces.cli.output import Result
from tether.usage.stats import DAYS, TOP, report

SPARK = "▁▂▃▄▅▆▇█"
BAR = "█"
BAR_WIDTH = 24
MAX_DAYS = 366
SHOW = 5  # memories listed per quadrant and in the backlog; --json has them all
MEANING = {
    "working": "surfaced, adds what the code does not say",
    "redundant": "surfaced, but the code already says it",
    "dormant": "never surfaced, adds something (kept)",
    "prunable": "never surfaced, the code already says it: safe to prune",
}


def register(add: Add) -> None:
    s = add("stats", "memories by kind and status, use, tokens saved, and which memories earn their keep")
    s.add_argument("--days", type=int, default=DAYS, metavar="N", help=f"days of use to chart (1-{MAX_DAYS})")
    s.add_argument("--top", type=int, default=TOP, metavar="N", help="memories listed by use")
    s.set_defaults(handler=stats)


def stats(args) -> Result:
    if not 1 <= args.days <= MAX_DAYS or args.top < 0:
        raise InvalidInput(f"--days must be between 1 and {MAX_DAYS}, --top at least 0")
    t = repository(args)
    data = report(t, days=args.days, top=args.top)
    counts = {k: data["memories"]["by_status"][k] for k in ("stale", "invalidated")}
    return Result(envelope(data, t.freshness(), **counts), render(data, str(t.root)))


def render(d: dict, root: str) -> str:
    m, u, tok = d["memories"], d["usage"], d["usage"]["tokens"]
    st = m["by_status"]
    lines = [
        f"tether stats for {root}",
        f"memories    {m['total']}: {st['active']} active, {st['stale']} stale, {st['invalidated']} invalidated; "
        f"{m['quarantined']} quarantined",
        "  by kind   " + ", ".join(f"{k} {n}" for k, n in m["by_kind"].items()),
    ]
    if tok["served"]:
        lines.append(
            f"recall      {u['recalls']} recall{_s(u['recalls'])} served {tok['served']:,} tokens in place of "
            f"{tok['replaced']:,} of anchored code in {tok['files']:,} file read{_s(tok['files'])}: {tok['ratio']:g}x"
        )
    else:
        lines.append(f"recall      {u['recalls']} recalls")
    lines.append(
        f"push        {u['pushes']} push{'es' if u['pushes'] != 1 else ''} injected {tok['pushed']:,} tokens; "
        f"{u['credits']} credit{_s(u['credits'])}"
    )
    day = d["daily"]
    total = day["total"]
    lines.append(
        f"use         {sparkline(total)}  {len(total)} days to {day['to']}, "
        f"{sum(total)} events, peak {max(total, default=0)}/day"
    )
    lines.append(
        f"quadrants   (the code already says it: >= {d['restates']['threshold']:.0%} of a memory's terms "
        "are in its anchored code)"
    )
    q = d["quadrants"]
    biggest = max((len(v) for v in q.values()), default=0)
    for name, rows in q.items():
        lines.append(f"  {name:<10}{len(rows):>3}  {bar(len(rows), biggest):<{BAR_WIDTH}}  {MEANING[name]}")
    for row in q["prunable"][:SHOW]:
        lines.append(f"    {row['id'][:8]}  said {row['said']:.0%}  {row['summary']}")
    if d["top"]:
        lines.append("top by use  pushes/recalls/credits")
        for row in d["top"]:
            lines.append(f"  {row['id'][:8]}  {row['pushes']}/{row['recalls']}/{row['credits']:<4} {row['summary']}")
    backlog = d["stale"]["memories"]
    if backlog:
        reasons = ", ".join(f"{r} {n}" for r, n in d["stale"]["reasons"].items())
        lines.append(
            f"stale       {len(backlog)} to review ({reasons}): /tether:check, then reanchor, supersede or retire"
        )
        for row in backlog[:SHOW]:
            where = ", ".join(
                locator(a["type"], a["path"], a["symbol"], a.get("discriminator")) for a in row["anchors"]
            )
            lines.append(
                f"  {row['status']:<11} {row['id'][:8]}  {row['reason'] or '':<16} {row['summary']}  [{where}]"
            )
    return "\n".join(lines)


def sparkline(values: list[int]) -> str:
    """One character per value, scaled to the peak; a day with nothing is a dot, not the lowest bar."""
    peak = max(values, default=0)
    if not peak:
        return "·" * len(values)
    return "".join("·" if v == 0 else SPARK[min(len(SPARK) - 1, (v * len(SPARK) - 1) // peak)] for v in values)


def bar(n: int, biggest: int) -> str:
    if not n or not biggest:
        return ""
    return BAR * max(1, round(n * BAR_WIDTH / biggest))


def _s(n: int) -> str:
    return "" if n == 1 else "s"
