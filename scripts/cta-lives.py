#!/usr/bin/env python3
"""cta-lives.py -- each CTA's life on its SM, from a warp-phase trace (`warpsim run
... --trace F.json`): which CTAs set a run's length, and which CTAs shared their SM
while they ran.

  scripts/cta-lives.py TRACE.json [--top N] [--launch L] [--csv FILE]

Prints the launch's end (the last phase's end), then the N longest-lived CTAs (default
5): the SM it ran on, its first and last cycle, its life, its barrier phases (the
run phases of its warp 0: a CTA that passes B barriers has B + 1), and the CTAs that
were resident on the same SM during its life, with the cycles they overlapped it; a
co-resident CTA is marked "heavy" when its own phase count is in the top N.  That is
the measurement behind docs/baws.md's mg paragraphs: a kernel whose run is one heavy
CTA's chain of barrier phases is slowed by whatever else its SM holds, so the CTA
placement (which SM is free when the heavy CTA is dispatched) decides its cycles.
--csv writes one row per CTA (launch, cta, sm, start, end, life, phases).
--launch picks the launch (default: every launch in the trace, each on its own).
Exit status 2 on a file that is not a warpsim trace.
"""
import argparse
import collections
import csv
import json
import re
import statistics
import sys

NAME = re.compile(r"^CTA (\d+) warp (\d+)$")


def fail(msg):
    print(f"cta-lives.py: {msg}", file=sys.stderr)
    sys.exit(2)


def load(path):
    try:
        with open(path) as f:
            d = json.load(f)
    except (OSError, ValueError) as e:
        fail(f"{path}: cannot read a JSON trace: {e}")
    ev = d.get("traceEvents") if isinstance(d, dict) else None
    if not isinstance(ev, list):
        fail(f"{path}: no traceEvents: not a `warpsim run --trace` file")
    if (d.get("otherData") or {}).get("dropped_records"):
        print(f"cta-lives.py: warning: {path} dropped {d['otherData']['dropped_records']} records; lives may be short",
              file=sys.stderr)
    names = {}
    for e in ev:
        if e.get("ph") == "M" and e.get("name") == "thread_name":
            m = NAME.match(str((e.get("args") or {}).get("name", "")))
            if m:
                names[(e.get("pid"), e.get("tid"))] = (int(m.group(1)), int(m.group(2)))
    ctas = {}      # (launch, cta) -> [sm, start, end, phases]
    launch_of = {}  # (pid, tid) -> launch of the thread's latest run phase
    for e in ev:
        if e.get("ph") != "X":
            continue
        key = (e.get("pid"), e.get("tid"))
        if key not in names:
            continue
        cta, warp = names[key]
        args = e.get("args") or {}
        if "launch" in args:
            launch_of[key] = args["launch"]
        launch = launch_of.get(key, 0)
        ts, dur = e.get("ts"), e.get("dur")
        if not isinstance(ts, (int, float)) or not isinstance(dur, (int, float)):
            fail(f"{path}: a phase without ts/dur")
        c = ctas.setdefault((launch, cta), [e.get("pid"), ts, ts + dur, 0])
        c[1] = min(c[1], ts)
        c[2] = max(c[2], ts + dur)
        if e.get("cat") == "run" and warp == 0:
            c[3] += 1
    if not ctas:
        fail(f"{path}: no CTA phases in the trace")
    return ctas


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("trace")
    ap.add_argument("--top", type=int, default=5)
    ap.add_argument("--launch", type=int)
    ap.add_argument("--csv")
    a = ap.parse_args()
    if a.top < 1:
        fail("--top must be at least 1")
    ctas = load(a.trace)
    launches = sorted({l for l, _ in ctas})
    if a.launch is not None:
        if a.launch not in launches:
            fail(f"launch {a.launch} is not in the trace (launches: {', '.join(map(str, launches))})")
        launches = [a.launch]
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["launch", "cta", "sm", "start", "end", "life", "phases"])
            for (l, c), (sm, s, e, p) in sorted(ctas.items()):
                if l in launches:
                    w.writerow([l, c, sm, s, e, e - s, p])
    for l in launches:
        mine = {c: v for (ll, c), v in ctas.items() if ll == l}
        end = max(v[2] for v in mine.values())
        phases = sorted(v[3] for v in mine.values())
        heavy = {c for c, _ in sorted(mine.items(), key=lambda kv: (-kv[1][3], kv[0]))[:a.top]}
        print(f"launch {l}: {len(mine)} CTAs, last phase ends at cycle {end}; barrier phases per CTA: "
              f"median {statistics.median(phases):g}, max {phases[-1]}")
        longest = sorted(mine.items(), key=lambda kv: (-(kv[1][2] - kv[1][1]), kv[0]))[:a.top]
        for c, (sm, s, e, p) in longest:
            co = []
            for d, (sm2, s2, e2, p2) in sorted(mine.items()):
                if d == c or sm2 != sm:
                    continue
                ov = min(e, e2) - max(s, s2)
                if ov > 0:
                    co.append(f"{d}{'*' if d in heavy else ''}:{ov}")
            print(f"  CTA {c}: SM {sm}, cycles {s}-{e}, life {e - s}, phases {p}; "
                  f"co-resident (CTA:overlap, *heavy) {' '.join(co) if co else 'none'}")


if __name__ == "__main__":
    main()
