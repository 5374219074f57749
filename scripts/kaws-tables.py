#!/usr/bin/env python3
"""kaws-tables.py -- the markdown tables of docs/kaws.md from the CSVs that
scripts/kaws-experiments.sh writes to docs/kaws/ (standard library only).

    scripts/kaws-tables.py [docs/kaws]      # prints every table to stdout

Columns: LRR, GTO, KA, WS (lrr with warp_sharing=1) and KAWS.  IPC is
normalized to LRR per benchmark; "mean" is the arithmetic mean of the
per-benchmark ratios (the paper's "on average"), "geomean" the geometric mean.
Table 2: last-CTA time per kernel = last_cta_cycles / kernels; CTAs per kernel
= ctas / kernels.  Fig. 6: SM inactive cycles (summed over SMs) split into
idle / scoreboard / pipeline, each normalized to LRR's total inactive cycles.
"""
import csv, math, os, sys

d = sys.argv[1] if len(sys.argv) > 1 else "docs/kaws"
ORDER = ["streamcluster", "pathfinder", "bpt", "hotspot", "mriq", "qrg", "conv3d", "3mm", "resnet"]
SHORT = {"streamcluster": "SC", "pathfinder": "PF", "bpt": "BT", "hotspot": "HS", "mriq": "MRI", "qrg": "QRG",
         "conv3d": "3DCV", "3mm": "3MM", "resnet": "RN"}


def col(r):
    if r["sched"] == "lrr" and r.get("warp_sharing") == "1":
        return "WS"
    return r["sched"].upper()


def load(name):
    p = os.path.join(d, name + ".csv")
    if not os.path.exists(p):
        return None
    rows = [r for r in csv.DictReader(open(p)) if r["status"] == "ok"]
    return {(r["bench"], col(r)): r for r in rows}


def benches(t):
    have = {b for b, _ in t}
    return [b for b in ORDER if b in have] + sorted(have - set(ORDER))


def f(r, k):
    return float(r[k]) if r.get(k) not in (None, "") else 0.0


def means(vals):
    if not vals:
        return "-", "-"
    return "%.3f" % (sum(vals) / len(vals)), "%.3f" % math.exp(sum(math.log(v) for v in vals) / len(vals))


def fig5(name, title):
    t = load(name)
    if not t:
        return ""
    cols = ["GTO", "KA", "WS", "KAWS"]
    out = "**%s** -- IPC normalized to LRR\n\n" % title
    out += "| benchmark | kernels | CTAs/kernel | LRR IPC | " + " | ".join(cols) + " | KAWS/GTO | shared insts (KAWS) |\n"
    out += "|---|---:|---:|---:|" + "---:|" * (len(cols) + 2) + "\n"
    ratios = {c: [] for c in cols + ["KAWS/GTO"]}
    better = 0
    n = 0
    for b in benches(t):
        base = t.get((b, "LRR"))
        if not base:
            continue
        n += 1
        cells = []
        for c in cols:
            r = t.get((b, c))
            if not r:
                cells.append("-")
                continue
            s = f(r, "ipc") / f(base, "ipc")
            ratios[c].append(s)
            cells.append("%.3f" % s)
        kg = "-"
        if (b, "KAWS") in t and (b, "GTO") in t:
            v = f(t[(b, "KAWS")], "ipc") / f(t[(b, "GTO")], "ipc")
            ratios["KAWS/GTO"].append(v)
            kg = "%.3f" % v
        if (b, "KAWS") in t and f(t[(b, "KAWS")], "ipc") > f(base, "ipc"):
            better += 1
        k = t.get((b, "KAWS"))
        sh = "%.2f%%" % (100 * f(k, "warp_sharing_issues") / f(k, "warp_insts")) if k else "-"
        kern = f(base, "kernels")
        out += "| %s (%s) | %d | %.0f | %.1f | %s | %s | %s |\n" % (
            b, SHORT.get(b, b), kern, f(base, "ctas") / kern if kern else 0, f(base, "ipc"), " | ".join(cells), kg,
            sh)
    m = {c: means(ratios[c]) for c in ratios}
    out += "| **mean** | | | | " + " | ".join("**%s**" % m[c][0] for c in cols) + " | **%s** | |\n" % m["KAWS/GTO"][0]
    out += "| **geomean** | | | | " + " | ".join("**%s**" % m[c][1] for c in cols) + " | **%s** | |\n" % m["KAWS/GTO"][1]
    out += "\nKAWS IPC above LRR on %d of %d benchmarks.\n\n" % (better, n)
    return out


def table2(name, title):
    t = load(name)
    if not t:
        return ""
    out = "**%s** -- mean execution time (cycles) of the last-issued CTA of a kernel\n\n" % title
    out += "| benchmark | kernels | CTAs/kernel | GTO | KAWS | KAWS / GTO (%) | cycles KAWS / GTO (%) | last CTA / kernel time (GTO) |\n"
    out += "|---|---:|---:|---:|---:|---:|---:|---:|\n"
    vals = []
    for b in benches(t):
        g, k = t.get((b, "GTO")), t.get((b, "KAWS"))
        if not g or not k:
            continue
        kern = f(g, "kernels")
        lg, lk = f(g, "last_cta_cycles") / kern, f(k, "last_cta_cycles") / kern
        vals.append(lk / lg)
        out += "| %s (%s) | %d | %.0f | %.1f | %.1f | %.2f | %.2f | %.2f |\n" % (
            b, SHORT.get(b, b), kern, f(g, "ctas") / kern, lg, lk, 100 * lk / lg, 100 * f(k, "cycles") / f(g, "cycles"),
            f(g, "last_cta_cycles") / f(g, "cycles"))
    if vals:
        out += "| **average** | | | | | **%.2f** | |\n" % (100 * sum(vals) / len(vals))
    return out + "\n"


SM_KINDS = {"sm_inactive_idle": ["sm_inactive_idle"], "sm_inactive_scoreboard": ["sm_inactive_scoreboard"],
            "sm_inactive_pipeline": ["sm_inactive_pipeline"]}
# GPGPU-Sim's per-scheduler shader_cycle_distro[0..2] from warpsim's per-scheduler stall reasons
SCHED_KINDS = {"sm_inactive_idle": ["stall_idle", "stall_exit", "stall_barrier", "stall_fetch", "stall_control"],
               "sm_inactive_scoreboard": ["stall_data"], "sm_inactive_pipeline": ["stall_structural", "stall_held"]}


def fig6(name, title, per_sched=False):
    t = load(name)
    if not t:
        return ""
    m = SCHED_KINDS if per_sched else SM_KINDS
    t = {k: dict(r, **{n: str(sum(f(r, x) for x in m[n])) for n in m}) for k, r in t.items()}
    cols = [c for c in ["LRR", "GTO", "KAWS"] if any(k[1] == c for k in t)]
    what = ("scheduler-cycles without issue (GPGPU-Sim's per-scheduler idle / scoreboard / pipeline)" if per_sched
            else "SM inactive cycles (no scheduler of the SM issued): idle / scoreboard / pipeline")
    out = "**%s** -- %s, normalized to LRR's total\n\n" % (title, what)
    out += "| benchmark | " + " | ".join(cols) + " |\n|---|" + "---|" * len(cols) + "\n"
    pipe, tot, sb, share = [], [], [], []
    kinds = ["sm_inactive_idle", "sm_inactive_scoreboard", "sm_inactive_pipeline"]
    for b in benches(t):
        base = t.get((b, "LRR"))
        if not base:
            continue
        bt = sum(f(base, k) for k in kinds)
        share.append(f(base, "sm_inactive_pipeline") / bt)
        cells = []
        for c in cols:
            r = t.get((b, c))
            if not r:
                cells.append("-")
                continue
            cells.append(" / ".join("%.3f" % (f(r, k) / bt) for k in kinds))
        k = t.get((b, "KAWS"))
        if k:
            tot.append(sum(f(k, x) for x in kinds) / bt)
            if f(base, "sm_inactive_pipeline"):
                pipe.append(f(k, "sm_inactive_pipeline") / f(base, "sm_inactive_pipeline"))
            if f(base, "sm_inactive_scoreboard"):
                sb.append(f(k, "sm_inactive_scoreboard") / f(base, "sm_inactive_scoreboard"))
        out += "| %s (%s) | %s |\n" % (b, SHORT.get(b, b), " | ".join(cells))
    def pct(v):
        return "%+.2f%%" % (100 * (sum(v) / len(v) - 1)) if v else "-"
    out += ("\nKAWS vs LRR, mean over benchmarks: pipeline stalls %s (over %d benchmarks with any; pipeline stalls are "
            "%.2f%% of LRR's inactive cycles on average), scoreboard stalls %s, total inactive cycles %s.\n\n") % (
        pct(pipe), len(pipe), 100 * sum(share) / len(share) if share else 0, pct(sb), pct(tot))
    return out


print(fig5("fig5", "Fig. 5, TITAN X"))
print(table2("table2", "Table 2, TITAN X"))
print(fig6("fig6", "Fig. 6, TITAN X"))
print(fig6("fig6", "Fig. 6, TITAN X, per scheduler", True))
print(fig5("density", "Fig. 5 on a 2-SM TITAN X (kaws-density)"))
print(table2("density", "Table 2 on a 2-SM TITAN X (kaws-density)"))
print(fig6("density", "Fig. 6 on a 2-SM TITAN X (kaws-density), per scheduler", True))
print(fig5("gtx480", "Fig. 5 on GTX480"))
print(table2("gtx480", "Table 2 on GTX480"))
print(fig6("gtx480", "Fig. 6 on GTX480"))
print(fig6("gtx480", "Fig. 6 on GTX480, per scheduler", True))
