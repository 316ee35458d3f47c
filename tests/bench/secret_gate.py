"""Secret gate: tether's rules, detect-secrets, and both, on a corpus tether did not write.

The corpus is tests/data/secret_corpus.json: the true- and false-positive cases of two peer scanners'
own test suites (gitleaks' rule definitions, detect-secrets' plugin tests and test data) re-typed as
data, the shapes of tether issue 20, and ordinary memory prose; its `about` says where each part came
from. Labels are the peers', except where a case carries `relabelled` (the reason a memory gate reads
it the other way); rows "(peers' labels, no relabels)" undo those. Cases a memory gate could
reasonably label the other way carry a `disputed` reason; rows "(undisputed)" leave them out.

Each case is scanned as a memory write would see it (`context`, else `text`):
  tether          tether.store.secrets.scan(text) with no allowlist: refused if it returns any finding
                  (what Tether.refuse_secrets turns into `secret_detected`)
  detect-secrets  detect_secrets.core.scan.scan_line on each line, under default_settings() (every
                  plugin, default filters, no verification): refused if any line yields a secret that
                  the CLI's `scan --string` would print as True (the entropy plugins' limit applies)
  combined        refused if either refuses; its time is the sum of both
Timings are per case (one scan of the whole text), the median of `REPEATS` runs, after one warm-up
pass; median and p95 are across cases.

Every case carries a `split` fixed by a hash of its text (held_out when sha256(text)[0] < 86, about a
third). Rules are tuned on train only: each scanner's figures are printed for train, held_out and
all, but misses and false positives are listed (by kind and source, the text redacted to its first
4 characters and its length) for tether on train only; held_out is reported as numbers, nothing more.

    python -m tests.bench secret_gate          # detect-secrets rows only where it is installed
"""

from __future__ import annotations

import hashlib
import statistics
import time
from collections import Counter
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path

import orjson

from tests.bench import ROOT, Table

CORPUS = ROOT / "tests" / "data" / "secret_corpus.json"
TARGET_REFUSED = 0.95
TARGET_FP = 0.03
REPEATS = 3
FAMILIES = ("gitleaks", "detect-secrets", "tether issue 20", "memory prose")
SPLITS = ("train", "held_out", "all")
HELD_OUT_BELOW = 86  # first byte of sha256(text): below it, the case is held out


def split_of(text: str) -> str:
    """The case's split, from its text alone: stable across relabels, reorders and added cases."""
    return "held_out" if hashlib.sha256(text.encode("utf-8")).digest()[0] < HELD_OUT_BELOW else "train"


def in_split(cases: list[dict], split: str) -> list[int]:
    return [i for i, c in enumerate(cases) if split == "all" or c["split"] == split]


Scanner = Callable[[str], bool]


def family(case: dict) -> str:
    src = case["source"]
    if src.startswith("gitleaks/"):
        return "gitleaks"
    if src.startswith("Yelp/detect-secrets"):
        return "detect-secrets"
    return src


def load(small: bool = False, path: Path = CORPUS) -> tuple[dict, list[dict]]:
    doc = orjson.loads(path.read_bytes())
    cases = doc["cases"]
    wrong = [i for i, c in enumerate(cases) if c.get("split") != split_of(c["text"])]
    if wrong:
        raise ValueError(
            f"{path.name}: {len(wrong)} cases carry a split other than their text's hash (first: #{wrong[0]})"
        )
    if small:  # a positive and a negative per family and split (prose has only negatives): a dozen cases
        picked: list[dict] = []
        for fam in FAMILIES:
            mine = [c for c in cases if family(c) == fam]
            for split in SPLITS[:2]:
                pos = [c for c in mine if c["secret"] and c["split"] == split]
                neg = [c for c in mine if not c["secret"] and c["split"] == split]
                picked += pos[:1] + neg[:1]
        cases = picked
    return doc["about"], cases


def scanned(case: dict) -> str:
    return case.get("context") or case["text"]


def redact(text: str) -> str:
    return f"{text[:4]!r}… ({len(text)} chars)"


def tether_scanner() -> Scanner:
    from tether.store.secrets import scan

    return lambda text: bool(scan(text))


def detect_secrets_scanner(stack: ExitStack) -> tuple[Scanner | None, str]:
    """scan_line per line under default settings, or None when detect-secrets is not installed."""
    try:
        from importlib.metadata import version

        from detect_secrets.core.scan import scan_line
        from detect_secrets.settings import default_settings
    except ImportError:
        return None, ""
    stack.enter_context(default_settings())
    from detect_secrets.settings import get_plugins

    by_type = {p.secret_type: p for p in get_plugins()}

    def refuses(text: str) -> bool:
        # scan_line is the adhoc-string path (`detect-secrets scan --string`): its eager search yields
        # every word to the entropy plugins and leaves the limit to the caller, which the CLI applies
        # through format_scan_result ("True" / "False (entropy)"); so does this gate
        return any(
            by_type[s.type].format_scan_result(s).startswith("True")
            for line in (text.splitlines() or [text])
            for s in scan_line(line)
        )

    return refuses, version("detect-secrets")


def measure(scanner: Scanner, cases: list[dict], repeats: int) -> tuple[list[bool], list[float]]:
    """(refused?, median seconds) per case; one untimed warm-up pass first."""
    texts = [scanned(c) for c in cases]
    for t in texts:
        scanner(t)
    verdicts, times = [], []
    for t in texts:
        runs = []
        for _ in range(repeats):
            start = time.perf_counter()
            v = scanner(t)
            runs.append(time.perf_counter() - start)
        verdicts.append(v)
        times.append(statistics.median(runs))
    return verdicts, times


def p95(xs: list[float]) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(round(0.95 * (len(xs) - 1))))]


def pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.1f}%)" if d else "0/0"


def _rate(n: int, d: int) -> float | None:
    return n / d if d else None


def peers_label(case: dict) -> bool:
    """The label the peer (or the corpus author) gave, before any relabel."""
    return case["secret"] != bool(case.get("relabelled"))


def figures(cases: list[dict], verdicts: list[bool], times: list[float]) -> dict:
    """The raw numbers for one scanner on one split."""
    pos = [v for c, v in zip(cases, verdicts) if c["secret"]]
    neg = [v for c, v in zip(cases, verdicts) if not c["secret"]]
    peer_pos = [v for c, v in zip(cases, verdicts) if peers_label(c)]
    peer_neg = [v for c, v in zip(cases, verdicts) if not peers_label(c)]
    und_pos = [v for c, v in zip(cases, verdicts) if c["secret"] and not c.get("disputed")]
    und_neg = [v for c, v in zip(cases, verdicts) if not c["secret"] and not c.get("disputed")]
    us = [t * 1e6 for t in times]
    return {
        "positives": len(pos),
        "refused": sum(pos),
        "negatives": len(neg),
        "false_positives": sum(neg),
        "refused_rate": _rate(sum(pos), len(pos)),
        "false_positive_rate": _rate(sum(neg), len(neg)),
        "undisputed_positives": len(und_pos),
        "undisputed_refused": sum(und_pos),
        "undisputed_negatives": len(und_neg),
        "undisputed_false_positives": sum(und_neg),
        "peers_positives": len(peer_pos),
        "peers_refused": sum(peer_pos),
        "peers_negatives": len(peer_neg),
        "peers_false_positives": sum(peer_neg),
        "median_us": statistics.median(us) if us else None,
        "p95_us": p95(us) if us else None,
    }


def report(title: str, cases: list[dict], verdicts: list[bool], times: list[float]) -> Table:
    """One scanner: positives refused, false positives and speed on train, held_out and all."""
    table = Table(title)
    for split in SPLITS:
        idx = in_split(cases, split)
        f = figures([cases[i] for i in idx], [verdicts[i] for i in idx], [times[i] for i in idx])
        table.data[split] = f
        if not idx:
            continue
        rr, fr = f["refused_rate"], f["false_positive_rate"]
        table.add(
            f"{split}: positives refused",
            pct(f["refused"], f["positives"]),
            f">= {TARGET_REFUSED:.0%}",
            rr is not None and rr >= TARGET_REFUSED,
        )
        table.add(
            f"{split}: false positives (negatives refused)",
            pct(f["false_positives"], f["negatives"]),
            f"<= {TARGET_FP:.0%}",
            fr is not None and fr <= TARGET_FP,
        )
        table.add(f"{split}: positives refused (undisputed)", pct(f["undisputed_refused"], f["undisputed_positives"]))
        table.add(
            f"{split}: false positives (undisputed)", pct(f["undisputed_false_positives"], f["undisputed_negatives"])
        )
        table.add(
            f"{split}: positives refused (peers' labels, no relabels)", pct(f["peers_refused"], f["peers_positives"])
        )
        table.add(
            f"{split}: false positives (peers' labels, no relabels)",
            pct(f["peers_false_positives"], f["peers_negatives"]),
        )
        table.add(
            f"{split}: median / p95 µs per scan",
            f"{f['median_us']:.0f} / {f['p95_us']:.0f}" if f["median_us"] is not None else "n/a",
        )
    return table


def failures(title: str, cases: list[dict], verdicts: list[bool]) -> Table:
    """Train only: by family, by kind, then every miss and false positive, redacted."""
    idx = in_split(cases, "train")
    pos = [(cases[i], verdicts[i]) for i in idx if cases[i]["secret"]]
    neg = [(cases[i], verdicts[i]) for i in idx if not cases[i]["secret"]]
    table = Table(title)
    for fam in FAMILIES:
        fp_ = [v for c, v in pos if family(c) == fam]
        fn_ = [v for c, v in neg if family(c) == fam]
        if fp_:
            table.add(f"{fam}: positives refused", pct(sum(fp_), len(fp_)))
        if fn_:
            table.add(f"{fam}: false positives", pct(sum(fn_), len(fn_)))
    miss_kinds = Counter(c["kind"] for c, v in pos if not v)
    all_kinds = Counter(c["kind"] for c, _ in pos)
    fp_kinds = Counter(c["kind"] for c, v in neg if v)
    if miss_kinds:
        table.notes.append(
            "misses by kind (missed/positives of that kind): "
            + ", ".join(
                f"{k} {n}/{all_kinds[k]}" for k, n in sorted(miss_kinds.items(), key=lambda kv: (-kv[1], kv[0]))
            )
        )
    if fp_kinds:
        table.notes.append(
            "false positives by kind: "
            + ", ".join(f"{k} {n}" for k, n in sorted(fp_kinds.items(), key=lambda kv: (-kv[1], kv[0])))
        )
    for label, rows in (("missed", [c for c, v in pos if not v]), ("false positive", [c for c, v in neg if v])):
        for c in sorted(rows, key=lambda c: (c["kind"], c["source"])):
            flag = " [disputed]" if c.get("disputed") else ""
            table.notes.append(f"{label}: {c['kind']} — {c['source']} — {redact(scanned(c))}{flag}")
    table.data = {"misses_by_kind": dict(miss_kinds), "false_positives_by_kind": dict(fp_kinds)}
    return table


def corpus_table(about: dict, cases: list[dict]) -> Table:
    table = Table(f"Secret corpus ({len(cases)} cases, {CORPUS.relative_to(ROOT)})")
    for fam in FAMILIES:
        mine = [c for c in cases if family(c) == fam]
        if mine:
            p = sum(c["secret"] for c in mine)
            table.add(f"{fam}: secret / not secret", f"{p} / {len(mine) - p}")
    for split in SPLITS:
        mine = [cases[i] for i in in_split(cases, split)]
        p = sum(c["secret"] for c in mine)
        table.add(f"{split}: secret / not secret", f"{p} / {len(mine) - p}")
    table.add(
        "disputed labels (secret / not secret)",
        f"{sum(1 for c in cases if c.get('disputed') and c['secret'])} / "
        f"{sum(1 for c in cases if c.get('disputed') and not c['secret'])}",
    )
    for split in SPLITS:
        mine = [cases[i] for i in in_split(cases, split) if cases[i].get("relabelled")]
        table.add(
            f"{split}: relabelled (now secret / now not secret)",
            f"{sum(1 for c in mine if c['secret'])} / {sum(1 for c in mine if not c['secret'])}",
        )
    table.add("generated from a peer's regex", str(sum(1 for c in cases if c.get("generated_from_regex"))))
    table.notes.append(about["what"])
    return table


def run(small: bool = False) -> list[Table]:
    about, cases = load(small)
    repeats = 1 if small else REPEATS
    tables = [corpus_table(about, cases)]
    t_verdicts, t_times = measure(tether_scanner(), cases, repeats)
    tables.append(report("Secret gate: tether (tether.store.secrets.scan)", cases, t_verdicts, t_times))
    tables.append(failures("Secret gate: tether on train — families and every failure", cases, t_verdicts))
    with ExitStack() as stack:
        ds, ds_version = detect_secrets_scanner(stack)
        if ds is None:
            tables[1].notes.insert(
                0, "detect-secrets is not installed (pip install detect-secrets): its rows are skipped"
            )
            return tables
        d_verdicts, d_times = measure(ds, cases, repeats)
    tables.append(
        report(f"Secret gate: detect-secrets {ds_version} (scan_line, default settings)", cases, d_verdicts, d_times)
    )
    tables.append(
        report(
            "Secret gate: tether or detect-secrets (refused if either refuses)",
            cases,
            [a or b for a, b in zip(t_verdicts, d_verdicts)],
            [a + b for a, b in zip(t_times, d_times)],
        )
    )
    return tables


def main() -> None:
    for table in run():
        print(table.markdown() + "\n")


if __name__ == "__main__":
    main()
