#!/usr/bin/env python3
"""baws-tables.py -- the markdown tables of docs/baws.md from the CSVs that
scripts/baws-experiments.sh writes to docs/baws/ (standard library only).

    scripts/baws-tables.py [docs/baws]      # prints every table to stdout

Speedup = IPC / the baseline's IPC of the same benchmark (the specs' metric),
geometric mean over the benchmarks that ran under every column.
"""
import csv, math, os, sys
from collections import defaultdict

d = sys.argv[1] if len(sys.argv) > 1 else "docs/baws"

def load(fig):
    rows = [r for r in csv.DictReader(open(os.path.join(d, fig + ".csv"))) if r["status"] == "ok"]
    return rows

def key(r, extra=()):
    return "+".join([r["sched"], r["fetch"]] + [r[e] for e in extra])

def speedups(fig, base, cols, extra=(), order=None):
    rows = load(fig)
    ipc = {(r["bench"], key(r, extra)): float(r["ipc"]) for r in rows}
    benches = order or sorted({r["bench"] for r in rows})
    out = "| benchmark | " + " | ".join(cols) + " |\n|---|" + "---|" * len(cols) + "\n"
    logs = defaultdict(list)
    for b in benches:
        if (b, base) not in ipc:
            continue
        cells = []
        for c in cols:
            v = ipc.get((b, c))
            if v is None:
                cells.append("-")
            else:
                s = v / ipc[(b, base)]
                logs[c].append(math.log(s))
                cells.append("%.3f" % s)
        out += "| %s | %s |\n" % (b, " | ".join(cells))
    out += "| **geomean** | " + " | ".join(
        "**%.3f**" % math.exp(sum(logs[c]) / len(logs[c])) if logs[c] else "-" for c in cols) + " |\n"
    return out

def stall_breakdown(fig, base, cols):
    rows = load(fig)
    kinds = ["issue_cycles", "stall_control", "stall_data", "stall_structural", "stall_barrier", "stall_exit",
             "stall_fetch", "stall_idle", "stall_held"]
    kinds = [k for k in kinds if k in rows[0]]
    tot = defaultdict(lambda: defaultdict(float))
    for r in rows:
        for k in kinds:
            tot[key(r)][k] += float(r[k] or 0)
    basetot = sum(tot[base].values())
    out = "| policy | " + " | ".join(k.replace("stall_", "") for k in kinds) + " | total |\n|---|" + "---|" * (len(kinds) + 1) + "\n"
    for c in cols:
        t = tot[c]
        out += "| %s | %s | %.3f |\n" % (c, " | ".join("%.3f" % (t[k] / basetot) for k in kinds), sum(t.values()) / basetot)
    return out

print("## fig8 (over lrr+rr)\n")
print(speedups("fig8", "lrr+rr", ["tls+rr", "tls+cff", "gto+rr", "gto+cff", "mwf-lrr+rr", "mwf-lrr+cff", "mwf-gto+rr", "mwf-gto+cff"]))
print("## fig9 (over lrr+rr)\n")
print(speedups("fig9", "lrr+rr", ["mwf-lrr+rr", "mwf-lrr+fef", "mwf-lrr+cff"]))
print("## fig10 (stall breakdown, fractions of lrr+rr's scheduler-cycles, summed over the suite)\n")
print(stall_breakdown("fig10", "lrr+rr", ["lrr+rr", "gto+rr", "mwf-lrr+rr", "mwf-lrr+cff"]))
print("## fig12 (over gto+rr)\n")
print(speedups("fig12", "gto+rr", ["mwf-gto+cff", "saws+rr", "saws+cff"]))
print("## fig11 (over lrr+rr)\n")
print(speedups("fig11", "lrr+rr", ["gto+rr", "saws+rr", "mwf-gto+cff"]))
print("## ibuf (over lrr+rr, ibuf_depth 2)\n")
print(speedups("ibuf", "lrr+rr+2", ["lrr+rr+4", "gto+rr+2", "gto+rr+4", "gto+cff+2", "gto+cff+4", "mwf-gto+rr+2",
                                     "mwf-gto+rr+4", "mwf-gto+cff+2", "mwf-gto+cff+4"], extra=("ibuf_depth",)))

def occupancy():
    p = os.path.join(d, "occupancy.csv")
    if not os.path.exists(p):
        return ""
    rows = [r for r in csv.DictReader(open(p)) if r["status"] == "ok"]
    out = ("| CTAs/SM cap | mwf-gto+rr over gto | mwf-gto+cff over gto | barrier-idle share of scheduler cycles (gto) "
           "| barrier stall fraction (gto) |\n|---|---|---|---|---|\n")
    for cap in sorted({r["max_ctas_per_sm"] for r in rows}, key=int):
        rs = [r for r in rows if r["max_ctas_per_sm"] == cap]
        ipc = {(r["bench"], r["sched"] + "+" + r["fetch"]): float(r["ipc"]) for r in rs}
        cells = []
        for c in ["mwf-gto+rr", "mwf-gto+cff"]:
            l = [math.log(ipc[(b, c)] / ipc[(b, "gto+rr")]) for (b, k) in ipc if k == c and (b, "gto+rr") in ipc]
            cells.append("%.3f" % math.exp(sum(l) / len(l)) if l else "-")
        g = [r for r in rs if r["sched"] == "gto" and r["fetch"] == "rr"]
        sched = sum(float(r[k] or 0) for r in g for k in r if k == "issue_cycles" or k.startswith("stall_"))
        idle = sum(float(r["stall_barrier"] or 0) for r in g)
        bar = sum(float(r["barrier_stall_fraction"]) for r in g) / max(len(g), 1)
        out += "| %s | %s | %s | %.2f%% | %.3f |\n" % (cap, cells[0], cells[1], 100 * idle / sched if sched else 0, bar)
    return out

print("## occupancy (over gto+rr at the same cap)\n")
print(occupancy())
