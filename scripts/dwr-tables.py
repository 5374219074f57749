#!/usr/bin/env python3
"""dwr-tables.py -- the markdown tables of docs/dwr.md from the CSVs that
scripts/dwr-experiments.sh writes to docs/dwr/ (standard library only).

    scripts/dwr-tables.py [docs/dwr] [SIZE]     # prints every table to stdout

Machines are named "fixed N" (warp_size N, no DWR) and "DWR-N" (sub-warps of
warp_size threads, dwr_max_warp N).  Speedup = IPC / the baseline's IPC of
the same benchmark; averages over benchmarks are geometric means for
speedups and arithmetic means for the idle-cycle share (the
paper's bars are averages of the per-benchmark values); coalescing rates,
whose scale differs by benchmark (mu's L1D hits make it ~400), are compared
by the geometric mean of per-benchmark ratios.
"""
import csv, math, os, sys
from collections import defaultdict

d = sys.argv[1] if len(sys.argv) > 1 else "docs/dwr"
size = sys.argv[2] if len(sys.argv) > 2 else "small"
ORDER = ["bfs", "backprop", "cp", "pathfinder", "gaussian", "hotspot", "fwt", "mp", "mm", "mu", "nn", "nqu", "scan", "nw"]
MACHINES = ["fixed 8", "fixed 16", "fixed 32", "fixed 64", "DWR-16", "DWR-32", "DWR-64"]


def load(fig):
    p = os.path.join(d, "%s-%s.csv" % (fig, size))
    if not os.path.exists(p):
        return None
    return [r for r in csv.DictReader(open(p)) if r["status"] == "ok"]


def machine(r):
    dw = int(r.get("dwr_max_warp") or 0)
    return "DWR-%d" % dw if dw else "fixed %s" % r["warp_size"]


def f(r, k):
    v = r.get(k)
    return float(v) if v not in (None, "") else 0.0


def benches(rows):
    have = {r["bench"] for r in rows}
    return [b for b in ORDER if b in have] + sorted(have - set(ORDER))


def gmean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def amean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def table(head, rows):
    out = "| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n"
    for r in rows:
        out += "| " + " | ".join(r) + " |\n"
    return out


def per_machine(rows, key=machine, extra=lambda r: ()):
    m = {}
    for r in rows:
        m[(r["bench"],) + tuple(extra(r)) + (key(r),)] = r
    return m


def fig4(rows, cols=MACHINES, base="fixed 16"):
    m = per_machine(rows)
    bs = benches(rows)
    cols = [c for c in cols if any((b, c) in m for b in bs)]
    out = ""
    for title, stat in (("(a) coalescing rate (thread accesses / off-chip request)", "coalescing_rate"),
                        ("(b) idle-cycle share", "idle_cycle_share"),
                        ("(c) IPC normalized to fixed 16", "ipc")):
        body, acc = [], defaultdict(list)
        for b in bs:
            if (b, base) not in m:
                continue
            cells = []
            for c in cols:
                r = m.get((b, c))
                if not r:
                    cells.append("-")
                    continue
                v = f(r, stat)
                if stat == "ipc":
                    v /= f(m[(b, base)], "ipc")
                acc[c].append(v)
                cells.append("%.3f" % v)
            body.append([b] + cells)
        avg = amean if stat == "idle_cycle_share" else gmean
        body.append(["**%s**" % ("mean" if avg is amean else "geomean")] + ["**%.3f**" % avg(acc[c]) for c in cols])
        out += "\n" + title + "\n\n" + table(["benchmark"] + cols, body)
    return out, m, bs


def fig4_summary(m, bs):
    out = []
    def have(c):
        return [b for b in bs if (b, c) in m and (b, "DWR-64") in m]
    for c in ["fixed 8", "fixed 16", "fixed 32", "fixed 64"]:
        bb = have(c)
        if not bb:
            continue
        sp = gmean([f(m[(b, "DWR-64")], "ipc") / f(m[(b, c)], "ipc") for b in bb])
        idle = 1 - amean([f(m[(b, "DWR-64")], "idle_cycle_share") for b in bb]) / amean(
            [f(m[(b, c)], "idle_cycle_share") for b in bb])
        coal = gmean([f(m[(b, "DWR-64")], "coalescing_rate") / f(m[(b, c)], "coalescing_rate") for b in bb])
        out.append([c, "%+.1f%%" % (100 * (sp - 1)), "%.1f%%" % (100 * coal), "%+.1f%%" % (-100 * idle)])
    return table(["DWR-64 vs", "speedup (geomean)", "coalescing rate of DWR-64 / this (geomean)", "idle-cycle share of DWR-64 vs this (means)"], out)


def dwr_detail(m, bs):
    body = []
    for b in bs:
        r = m.get((b, "DWR-64"))
        if not r:
            continue
        syn, ign = f(r, "dwr_lat_synced"), f(r, "dwr_lat_ignored")
        iss = f(r, "dwr_lat_issues") or 1
        big = f(r, "dwr_issue_sub8")
        rel = f(r, "dwr_releases") or 1
        body.append([b, "%d" % syn, "%d" % ign, "%.1f%%" % (100 * ign / (syn + ign) if syn + ign else 0),
                     "%d" % f(r, "dwr_ilt_inserts"), "%.1f%%" % (100 * big / iss),
                     "%.1f%%" % (100 * f(r, "dwr_issue_sub1") / iss),
                     "%.1f" % (f(r, "dwr_sync_wait_cycles") / syn if syn else 0),
                     "%d / %d / %d" % (f(r, "dwr_release_mixed_pc"), f(r, "dwr_release_bar"), f(r, "dwr_release_exit"))])
    return table(["benchmark", "LAT syncs", "ILT-ignored", "ignored share", "ILT PCs", "LATs as 64-wide",
                  "LATs as 8-wide", "wait cycles / sync", "releases mixed-PC / bar.sync / exit"], body)


def fig1(rows):
    key = lambda r: (int(r["simd_width"]), int(r["warp_size"]))
    m = {(r["bench"], key(r)): r for r in rows}
    bs = benches(rows)
    base = (8, 16)
    body = []
    for w in (8, 16, 32):
        cells = []
        for ws in (8, 16, 32, 64):
            xs = [f(m[(b, (w, ws))], "ipc") / f(m[(b, base)], "ipc") for b in bs if (b, (w, ws)) in m and (b, base) in m]
            cells.append("%.3f" % gmean(xs) if xs else "-")
        body.append(["%d-wide" % w] + cells)
    return table(["SIMD width", "warp 8", "warp 16", "warp 32", "warp 64"], body)


def fig5(rows, dim, label):
    """IPC normalized to fixed 16 at the baseline value of `dim`; per benchmark and machine."""
    out = ""
    vals = sorted({r[dim] for r in rows}, key=lambda v: int(v))
    bs = benches(rows)
    m = {(r["bench"], r[dim], machine(r)): r for r in rows}
    basev = {"l1d_sets": "64", "simd_width": "8"}[dim]
    gaps = []
    for v in vals:
        cols = [c for c in MACHINES if any((b, v, c) in m for b in bs)]
        body = []
        for b in bs:
            if (b, basev, "fixed 16") not in m:
                continue
            base = f(m[(b, basev, "fixed 16")], "ipc")
            body.append([b] + ["%.3f" % (f(m[(b, v, c)], "ipc") / base) if (b, v, c) in m else "-" for c in cols])
        out += "\n%s %s\n\n" % (label, v) + table(["benchmark"] + cols, body)
        # the gap between the best DWR and the best fixed machine, per benchmark, geomean
        g = []
        for b in bs:
            fx = [f(m[(b, v, c)], "ipc") for c in cols if c.startswith("fixed") and (b, v, c) in m]
            dw = [f(m[(b, v, c)], "ipc") for c in cols if c.startswith("DWR") and (b, v, c) in m]
            if fx and dw:
                g.append(max(dw) / max(fx))
        gaps.append([label + " " + v, "%+.1f%%" % (100 * (gmean(g) - 1)) if g else "-"])
    out += "\n" + table([label, "best DWR vs best fixed (geomean)"], gaps)
    return out


def fig5c(rows):
    m = {(r["bench"], r["dwr_ilt_entries"]): r for r in rows}
    bs = benches(rows)
    body, acc = [], defaultdict(list)
    for b in bs:
        if (b, "32") not in m:
            continue
        cells = []
        for e in ("8", "16", "32"):
            r = m.get((b, e))
            v = f(r, "ipc") / f(m[(b, "32")], "ipc") if r else None
            if v is not None:
                acc[e].append(v)
            cells.append("%.4f (%d ignored, %d ILT evictions)" % (v, f(r, "dwr_lat_ignored"), f(r, "dwr_ilt_evictions"))
                         if r else "-")
        body.append([b] + cells)
    body.append(["**geomean**"] + ["**%.4f**" % gmean(acc[e]) for e in ("8", "16", "32")])
    return table(["benchmark", "8 entries (2x4)", "16 entries (4x4)", "32 entries (4x8)"], body)


def main():
    r4 = load("fig4")
    if r4:
        print("## Figure 4 (%s)" % size)
        t, m, bs = fig4(r4)
        print(t)
        print("\nSummary\n\n" + fig4_summary(m, bs))
        print("\nDWR-64 mechanism\n\n" + dwr_detail(m, bs))
    r2 = load("fig2")
    if r2:
        print("## Figure 2 (%s)" % size)
        print(fig4(r2, cols=["fixed 8", "fixed 16", "fixed 32", "fixed 64"])[0])
    r1 = load("fig1")
    if r1:
        print("## Figure 1 (%s): IPC normalized to 8-wide SIMD, 16-thread warps (geomean)\n" % size)
        print(fig1(r1))
    r5a = load("fig5a")
    if r5a:
        print("## Figure 5a (%s): IPC normalized to fixed 16 at 48 KB" % size)
        print(fig5(r5a, "l1d_sets", "L1D sets"))
    r5b = load("fig5b")
    if r5b:
        print("## Figure 5b (%s): IPC normalized to fixed 16 at 8-wide SIMD" % size)
        print(fig5(r5b, "simd_width", "SIMD width"))
    r5c = load("fig5c")
    if r5c:
        print("## Figure 5c (%s): DWR-64 IPC normalized to a 32-entry ILT\n" % size)
        print(fig5c(r5c))


main()
