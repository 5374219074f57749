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
