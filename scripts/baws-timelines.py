#!/usr/bin/env python3
"""baws-timelines.py -- the warp-phase timelines of the BAWS paper's Figures 3,
4 and 6 drawn from real runs (issue 24), with the numbers their text quotes.
Standard library only.

    scripts/baws-timelines.py [--warpsim build/warpsim] [--out docs/baws]

Every run is paper size on configs/gtx480.cfg (the paper's GPU), launch 1, SM 0:
  Figure 3  bt, the first CTA SM 0 ran (the paper's TB0), under LRR and GTO
  Figure 4  fwt, the first three CTAs SM 0 ran (TB0-TB2, 16 warps each, the
            paper's warps 0-47), under GTO (the paper's left) and LRR (right)
  Figure 6  bt, the first six CTAs SM 0 ran (TB0-TB5), under LRR, GTO,
            MWF(LRR)+CFF and BAWS (MWF(GTO)+CFF)
Each run is made twice with the same arguments: once with --trace and --stats
(the trace gives the numbers, the stats the run's cycles) and once with
--timeline (the picture); the CTAs drawn are chosen from the first run's trace.

Writes into --out: figN-POLICY.svg for each figure and policy, and
  timelines.csv       one row per drawn CTA and warp-phase: its start and
                      release, the first and last warp to arrive (the last is
                      the phase's critical warp), how long the first waits
                      (release - first arrival) and the phase's RTRU (eq. 1)
  timelines-ctas.csv  one row per drawn CTA: start, end, barrier and exit
                      waits summed over its warps, its longest first-warp
                      wait and in which phase, and the run's total cycles
  mg-ctas.csv         every CTA of mg (paper size, every SM) under LRR, GTO,
                      MWF(GTO) and BAWS: its SM, start, end and warp-phases --
                      where BAWS's loss on mg comes from (docs/baws.md)
Phases are numbered from 0 (the paper numbers them from 1).  Ties: the first
warp is the lowest-numbered of those arriving first, the last the
highest-numbered of those arriving last.  About 1.5 minutes on one core.
"""
import csv, json, os, subprocess, sys, tempfile
from collections import defaultdict

args = sys.argv[1:]
warpsim, out = "build/warpsim", "docs/baws"
while args:
    a = args.pop(0)
    if a == "--warpsim" and args:
        warpsim = args.pop(0)
    elif a == "--out" and args:
        out = args.pop(0)
    else:
        sys.exit("usage: scripts/baws-timelines.py [--warpsim build/warpsim] [--out docs/baws]")

SIZE, CONFIG, LAUNCH, SM = "paper", "configs/gtx480.cfg", 1, 0
# (figure, benchmark, number of CTAs drawn, [(sched, fetch, file tag)])
FIGURES = [
    ("fig3", "bt", 1, [("lrr", "rr", "lrr"), ("gto", "rr", "gto")]),
    ("fig4", "fwt", 3, [("gto", "rr", "gto"), ("lrr", "rr", "lrr")]),
    ("fig6", "bt", 6, [("lrr", "rr", "lrr"), ("gto", "rr", "gto"), ("mwf-lrr", "cff", "mwf-lrr-cff"),
                       ("mwf-gto", "cff", "baws")]),
]


def run(bench, sched, fetch, extra):
    cmd = [warpsim, "run", bench, "--size", SIZE, "--config", CONFIG, "--sched", sched, "--fetch", fetch,
           "--quiet"] + extra
    r = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("baws-timelines: %s failed (exit %d):\n%s" % (" ".join(cmd), r.returncode, r.stderr))


def phases(trace, sm=SM):
    """{cta: {phase: [(warp, start, arrive, end, sm)]}} of launch LAUNCH on SM sm (None: every SM), from a
    --trace file."""
    ev = json.load(open(trace))["traceEvents"]
    wait_end = {(e["pid"], e["tid"], e["ts"]): e["ts"] + e["dur"] for e in ev if e.get("cat") in ("barrier", "exit")}
    by = defaultdict(lambda: defaultdict(list))
    for e in ev:
        if e.get("cat") != "run" or (sm is not None and e["pid"] != sm) or e["args"]["launch"] != LAUNCH:
            continue
        arrive = e["ts"] + e["dur"]
        end = wait_end.get((e["pid"], e["tid"], arrive), arrive)
        by[e["args"]["cta"]][int(e["name"].split()[1])].append((e["args"]["warp"], e["ts"], arrive, end, e["pid"]))
    return by


def rtru(ws):
    T = [w[2] - w[1] for w in ws]
    m = max(T)
    return sum(m - t for t in T) / (len(T) * m) if m else 0.0


PH_COLS = ["figure", "bench", "size", "sched", "fetch", "launch", "sm", "cta", "phase", "ends_at", "start", "release",
           "warps", "first_warp", "first_arrive", "last_warp", "last_arrive", "first_wait", "rtru"]
CTA_COLS = ["figure", "bench", "size", "sched", "fetch", "launch", "sm", "cta", "start", "end", "phases",
            "barrier_wait_warp_cycles", "exit_wait_warp_cycles", "max_first_wait", "max_first_wait_phase",
            "run_cycles"]
os.makedirs(out, exist_ok=True)
MG_POLICIES = [("lrr", "rr"), ("gto", "rr"), ("mwf-gto", "rr"), ("mwf-gto", "cff")]
MG_COLS = ["bench", "size", "sched", "fetch", "launch", "cta", "sm", "start", "end", "phases", "run_cycles"]
ph_rows, cta_rows, mg_rows = [], [], []
with tempfile.TemporaryDirectory(prefix="baws-timelines.") as tmp:
    for fig, bench, nctas, pols in FIGURES:
        for sched, fetch, tag in pols:
            tr, st = os.path.join(tmp, "trace.json"), os.path.join(tmp, "stats.json")
            run(bench, sched, fetch, ["--trace", tr, "--stats", st])
            stats = json.load(open(st))
            if stats.get("trace_dropped"):
                sys.exit("baws-timelines: %s %s+%s dropped trace records" % (bench, sched, fetch))
            cycles = stats["stats"]["cycles"]
            by = phases(tr)
            # the first nctas CTAs SM 0 ran, in the order they started; CTAs are issued in id
            # order, so --timeline-ctas FIRST-LAST selects exactly these on SM 0
            ctas = sorted(by, key=lambda c: (min(w[1] for w in by[c][0]), c))[:nctas]
            if len(ctas) < nctas:
                sys.exit("baws-timelines: SM %d ran only %d CTAs of %s" % (SM, len(ctas), bench))
            svg = os.path.join(out, "%s-%s.svg" % (fig, tag))
            run(bench, sched, fetch, ["--timeline", svg, "--timeline-sm", str(SM), "--timeline-launch",
                                      str(LAUNCH), "--timeline-ctas", "%d-%d" % (min(ctas), max(ctas))])
            print("%s: %s %s+%s, SM %d CTAs %s, %d cycles" % (svg, bench, sched, fetch, SM,
                                                              ",".join(map(str, ctas)), cycles))
            key = [fig, bench, SIZE, sched, fetch, LAUNCH, SM]
            for c in ctas:
                last = max(by[c])
                bw = ew = 0
                worst = (-1, -1)
                for p in sorted(by[c]):
                    ws = by[c][p]
                    release = max(w[3] for w in ws)
                    first = min(ws, key=lambda w: (w[2], w[0]))
                    lastw = max(ws, key=lambda w: (w[2], w[0]))
                    waits = sum(w[3] - w[2] for w in ws)
                    if p == last:
                        ew += waits
                    else:
                        bw += waits
                    worst = max(worst, (release - first[2], -p))
                    ph_rows.append(key + [c, p, "exit" if p == last else "barrier", ws[0][1], release, len(ws),
                                          first[0], first[2], lastw[0], lastw[2], release - first[2],
                                          "%.4f" % rtru(ws)])
                start = min(w[1] for w in by[c][0])
                end = max(w[3] for w in by[c][last])
                cta_rows.append(key + [c, start, end, last + 1, bw, ew, worst[0], -worst[1], cycles])
    for sched, fetch in MG_POLICIES:
        tr, st = os.path.join(tmp, "trace.json"), os.path.join(tmp, "stats.json")
        run("mg", sched, fetch, ["--trace", tr, "--stats", st])
        cycles = json.load(open(st))["stats"]["cycles"]
        by = phases(tr, None)
        for c in sorted(by):
            ps = by[c]
            mg_rows.append(["mg", SIZE, sched, fetch, LAUNCH, c, ps[0][0][4], min(w[1] for w in ps[0]),
                            max(w[3] for w in ps[max(ps)]), len(ps), cycles])
        print("mg %s+%s: %d CTAs, %d cycles" % (sched, fetch, len(by), cycles))
for name, cols, rows in (("timelines.csv", PH_COLS, ph_rows), ("timelines-ctas.csv", CTA_COLS, cta_rows),
                         ("mg-ctas.csv", MG_COLS, mg_rows)):
    with open(os.path.join(out, name), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(cols)
        w.writerows(rows)
    print("%s: %d rows" % (os.path.join(out, name), len(rows)))
