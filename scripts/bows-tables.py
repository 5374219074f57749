#!/usr/bin/env python3
"""bows-tables.py -- the markdown tables of docs/bows.md (BOWS paper, issue 11)
from the CSVs that scripts/bows-experiments.sh writes to docs/bows/, plus an
SVG bar chart per figure (docs/bows/*.svg).  Standard library only.

    scripts/bows-tables.py [docs/bows]                  # prints every table to stdout, writes the SVGs
    scripts/bows-tables.py docs/bows docs/bows.md       # fills the tables between docs/bows.md's
                                                        # <!-- bows-tables:KEY --> and <!-- /bows-tables --> markers

Normalized execution time = cycles / the baseline's cycles of the same
benchmark (the paper's Figs. 9, 10, 15: lower is better); speed-up = its
inverse; energy the same with energy_j.  Averages over benchmarks are
geometric means.  The paper's numbers are printed beside ours.
"""
import csv, math, os, sys
from collections import defaultdict

d = sys.argv[1] if len(sys.argv) > 1 else "docs/bows"
BOWS = ["ht", "atm", "bhtb", "bhst", "cpds", "nw1", "nw2", "tsp"]
NAME = {"ht": "HT", "atm": "ATM", "bhtb": "BH-TB", "bhst": "BH-ST", "cpds": "CP-DS", "nw1": "NW1", "nw2": "NW2",
        "tsp": "TSP"}


def load(fig):
    p = os.path.join(d, fig + ".csv")
    if not os.path.exists(p):
        return None
    return [r for r in csv.DictReader(open(p)) if r["status"] == "ok"]


def f(r, k):
    v = r.get(k)
    return float(v) if v not in (None, "") else 0.0


def gmean(xs):
    xs = [x for x in xs if x > 0]
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def table(head, rows):
    out = "| " + " | ".join(head) + " |\n|" + "---|" * len(head) + "\n"
    for r in rows:
        out += "| " + " | ".join(r) + " |\n"
    return out


def svg_bars(path, title, groups, series, values, ylabel, ref=1.0):
    """Grouped bar chart: values[(group, series)] -> float."""
    W, H, L, B, T = 900, 330, 60, 60, 30
    n, m = len(groups), len(series)
    vmax = max([v for v in values.values() if v == v] + [ref]) * 1.1
    gw = (W - L - 10) / max(n, 1)
    bw = gw * 0.8 / max(m, 1)
    col = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948", "#b07aa1", "#9c755f"]
    s = ['<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" font-family="sans-serif" font-size="11">' % (W, H),
         '<text x="%d" y="18" font-size="13">%s</text>' % (L, title)]
    y = lambda v: T + (H - T - B) * (1 - v / vmax)
    for k in range(5):
        v = vmax * k / 4
        s.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#ddd"/><text x="%d" y="%.1f" text-anchor="end">%.2f</text>'
                 % (L, W - 10, y(v), y(v), L - 4, y(v) + 4, v))
    s.append('<line x1="%d" x2="%d" y1="%.1f" y2="%.1f" stroke="#000" stroke-dasharray="4"/>' % (L, W - 10, y(ref), y(ref)))
    for i, g in enumerate(groups):
        x0 = L + i * gw + gw * 0.1
        for j, se in enumerate(series):
            v = values.get((g, se))
            if v is None or v != v:
                continue
            s.append('<rect x="%.1f" y="%.1f" width="%.1f" height="%.1f" fill="%s"><title>%s %s %.3f</title></rect>'
                     % (x0 + j * bw, y(v), bw, y(0) - y(v), col[j % len(col)], g, se, v))
        s.append('<text x="%.1f" y="%d" text-anchor="middle">%s</text>' % (L + i * gw + gw / 2, H - B + 14, g))
    for j, se in enumerate(series):
        s.append('<rect x="%d" y="%d" width="10" height="10" fill="%s"/><text x="%d" y="%d">%s</text>'
                 % (L + j * 130, H - 22, col[j % len(col)], L + j * 130 + 14, H - 13, se))
    s.append('<text x="12" y="%d" transform="rotate(-90 12 %d)" text-anchor="middle">%s</text>' % (H / 2, H / 2, ylabel))
    s.append("</svg>\n")
    open(os.path.join(d, path), "w").write("\n".join(s))


def by(rows, *keys):
    out = {}
    for r in rows:
        out[tuple(r[k] for k in keys)] = r
    return out


# ---------------------------------------------------------------- Fig. 2 / 12
def outcome_cells(r):
    a = f(r, "lock_acquire_success") + f(r, "lock_fail_intra_warp") + f(r, "lock_fail_inter_warp")
    w = f(r, "wait_exit_success") + f(r, "wait_exit_fail")
    if a:
        return ["%d" % a, "%.1f%%" % (100 * f(r, "lock_acquire_success") / a),
                "%.1f%%" % (100 * f(r, "lock_fail_intra_warp") / a), "%.1f%%" % (100 * f(r, "lock_fail_inter_warp") / a)]
    if w:
        return ["%d (wait)" % w, "%.1f%%" % (100 * f(r, "wait_exit_success") / w), "-",
                "%.1f%% (wait fail)" % (100 * f(r, "wait_exit_fail") / w)]
    return ["0", "-", "-", "-"]


def fig2():
    rows = load("fig2")
    if not rows:
        return ""
    t = by(rows, "bench", "sched")
    out = []
    for b in BOWS:
        for p in ["lrr", "gto-rotate", "cawa"]:
            if (b, p) in t:
                out.append([NAME[b], p] + outcome_cells(t[(b, p)]))
    return table(["benchmark", "policy", "attempts", "success", "intra-warp fail", "inter-warp fail"], out)


# ---------------------------------------------------------------- Fig. 9 / 15
def fig9(fig, paper_speed, paper_energy):
    rows = load(fig)
    if not rows:
        return ""
    t = by(rows, "bench", "sched")
    pol = ["lrr", "gto-rotate", "cawa", "bows:lrr", "bows:gto-rotate", "bows:cawa"]
    res = ""
    for metric, label in [("cycles", "execution time"), ("energy_j", "energy")]:
        out, vals = [], {}
        for b in BOWS:
            if (b, "lrr") not in t:
                continue
            base = f(t[(b, "lrr")], metric)
            cells = []
            for p in pol:
                r = t.get((b, p))
                v = f(r, metric) / base if r and base else float("nan")
                vals[(NAME[b], p)] = v
                cells.append("%.3f" % v)
            out.append([NAME[b]] + cells)
        out.append(["**geomean**"] + ["**%.3f**" % gmean([vals[(NAME[b], p)] for b in BOWS if (NAME[b], p) in vals])
                                        for p in pol])
        res += "Normalized %s (to LRR; lower is better):\n\n" % label + table(["benchmark"] + pol, out) + "\n"
        svg_bars("%s-%s.svg" % (fig, "time" if metric == "cycles" else "energy"),
                 "%s: normalized %s (to LRR)" % (fig, label), [NAME[b] for b in BOWS], pol, vals, "x LRR")
    # BOWS over its own base policy
    out = []
    for base, bp, ps, pe in [("lrr", "bows:lrr", paper_speed[0], paper_energy[0]),
                             ("gto-rotate", "bows:gto-rotate", paper_speed[1], paper_energy[1]),
                             ("cawa", "bows:cawa", paper_speed[2], paper_energy[2])]:
        sp = gmean([f(t[(b, base)], "cycles") / f(t[(b, bp)], "cycles") for b in BOWS if (b, bp) in t])
        en = gmean([f(t[(b, base)], "energy_j") / f(t[(b, bp)], "energy_j") for b in BOWS if (b, bp) in t])
        ins = gmean([f(t[(b, base)], "warp_insts") / f(t[(b, bp)], "warp_insts") for b in BOWS if (b, bp) in t])
        mx = max((f(t[(b, base)], "cycles") / f(t[(b, bp)], "cycles"), NAME[b]) for b in BOWS if (b, bp) in t)
        dy = gmean([f(t[(b, base)], "energy_dynamic_j") / f(t[(b, bp)], "energy_dynamic_j") for b in BOWS if (b, bp) in t])
        st = [f(t[(b, bp)], "energy_static_j") / f(t[(b, bp)], "energy_j") for b in BOWS if (b, bp) in t]
        out.append(["%s over %s" % (bp, base), "%.2fx" % sp, ps, "%.2fx" % en, pe, "%.2fx" % dy,
                    "%.1f-%.1f%%" % (100 * min(st), 100 * max(st)),
                    "%.2fx" % ins, "%.2fx (%s)" % mx])
    res += "BOWS over its base policy (geomean over the 8 kernels):\n\n" + table(
        ["", "speed-up (ours)", "speed-up (paper)", "energy saving (ours)", "energy saving (paper)",
         "dynamic-energy saving (ours)", "static share of BOWS energy (ours)", "dyn. instructions / (ours)",
         "best kernel speed-up (ours)"], out)
    return res


# ---------------------------------------------------------------- Figs. 10-13
DELAYS = [("fixed", "0"), ("fixed", "500"), ("fixed", "1000"), ("fixed", "3000"), ("fixed", "5000"), ("adaptive", "1000")]


def dlabel(k):
    return "adaptive" if k[0] == "adaptive" else k[1]


def fig10_rows():
    rows = load("fig10") or load("fig11-13")
    if not rows:
        return None, None
    base = {r["bench"]: r for r in rows if r["sched"] == "gto-rotate"}
    bw = {(r["bench"], r["bows_delay"], r["bows_delay_limit"]): r for r in rows if r["sched"] == "bows:gto-rotate"}
    return base, bw


def fig10():
    base, bw = fig10_rows()
    if base is None:
        return ""
    out, vals = [], {}
    for b in BOWS:
        cells = []
        for k in DELAYS:
            r = bw.get((b,) + k)
            v = f(r, "cycles") / f(base[b], "cycles") if r else float("nan")
            vals[(NAME[b], dlabel(k))] = v
            cells.append("%.3f" % v)
        out.append([NAME[b]] + cells)
    out.append(["**geomean**"] + ["**%.3f**" % gmean([vals[(NAME[b], dlabel(k))] for b in BOWS]) for k in DELAYS])
    svg_bars("fig10.svg", "fig10: BOWS(GTO) execution time normalized to GTO, by back-off delay limit",
             [NAME[b] for b in BOWS], [dlabel(k) for k in DELAYS], vals, "x GTO")
    return table(["benchmark"] + ["delay %s" % dlabel(k) for k in DELAYS], out)


def fig11():
    base, bw = fig10_rows()
    if base is None:
        return ""
    out, vals = [], {}
    for b in BOWS:
        cells = ["0.0%"]
        for k in DELAYS:
            r = bw.get((b,) + k)
            tot = f(r, "bows_backed_off_warp_cycles") + f(r, "bows_normal_warp_cycles") if r else 0
            v = f(r, "bows_backed_off_warp_cycles") / tot if tot else float("nan")
            vals[(NAME[b], dlabel(k))] = v
            cells.append("%.1f%%" % (100 * v))
        out.append([NAME[b]] + cells)
    svg_bars("fig11.svg", "fig11: fraction of warps at the scheduler that are backed off (BOWS over GTO)",
             [NAME[b] for b in BOWS], [dlabel(k) for k in DELAYS], vals, "backed-off share", ref=0)
    return table(["benchmark", "GTO"] + ["delay %s" % dlabel(k) for k in DELAYS], out)


def fig12():
    base, bw = fig10_rows()
    if base is None:
        return ""
    out = []
    for b in BOWS:
        cols = [("GTO", base[b])] + [("delay " + dlabel(k), bw.get((b,) + k)) for k in DELAYS]
        cells = []
        for _, r in cols:
            c = outcome_cells(r) if r else ["-"] * 4
            cells.append("%s / %s / %s" % (c[1], c[2], c[3]) if c[1] != "-" else "-")
        out.append([NAME[b]] + cells)
    ratio = []
    for b in BOWS:
        r0, r1 = base[b], bw.get((b, "adaptive", "1000"))
        f0 = f(r0, "lock_fail_intra_warp") + f(r0, "lock_fail_inter_warp")
        f1 = f(r1, "lock_fail_intra_warp") + f(r1, "lock_fail_inter_warp") if r1 else 0
        w0, w1 = f(r0, "wait_exit_fail"), f(r1, "wait_exit_fail") if r1 else 0
        if f0 and f1:
            ratio.append("%s %.2fx (%d / %d)" % (NAME[b], f0 / f1, f0, f1))
        elif w0 and w1:
            ratio.append("%s %.2fx (%d / %d wait fails)" % (NAME[b], w0 / w1, w0, w1))
    return (table(["benchmark"] + [c for c, _ in [("GTO", 0)] + [("delay " + dlabel(k), 0) for k in DELAYS]], out)
            + "\nFailed lock acquires (or wait-exit fails), GTO / BOWS adaptive: " + ", ".join(ratio) + "\n")


def fig13():
    base, bw = fig10_rows()
    if base is None:
        return ""
    res = ""
    for metric, label, paper in [("warp_insts", "dynamic warp instructions", "/2.1 (geomean) vs GTO"),
                                 ("l1d_accesses", "L1D transactions", "-19% vs GTO"),
                                 ("simd_efficiency", "SIMD efficiency", "HT 3.4x, ATM 1.85x vs GTO")]:
        out, vals = [], {}
        for b in BOWS:
            cells = ["%.3f" % f(base[b], metric) if metric == "simd_efficiency" else "1"]
            for k in DELAYS:
                r = bw.get((b,) + k)
                v = f(r, metric) / f(base[b], metric) if r and f(base[b], metric) else float("nan")
                vals[(NAME[b], dlabel(k))] = v
                cells.append("%.3f" % v)
            out.append([NAME[b]] + cells)
        out.append(["**geomean**", ""] + ["**%.3f**" % gmean([vals[(NAME[b], dlabel(k))] for b in BOWS]) for k in DELAYS])
        res += "%s, BOWS normalized to GTO (paper: %s):\n\n" % (label.capitalize(), paper) + table(
            ["benchmark", "GTO" + (" (absolute)" if metric == "simd_efficiency" else "")] +
            ["delay %s" % dlabel(k) for k in DELAYS], out) + "\n"
        svg_bars("fig13-%s.svg" % metric, "fig13: %s of BOWS(GTO), normalized to GTO" % label,
                 [NAME[b] for b in BOWS], [dlabel(k) for k in DELAYS], vals, "x GTO")
    return res


# ---------------------------------------------------------------- Table I
T1 = [  # (sub-table, label, hash, width, threshold, history, share, paper TSDR, DPR, FSDR, DPR)
    ("h", "XOR, m=k=4", "xor", "4", "4", "8", "0", "1", "0.041", "0.016", "0.006"),
    ("h", "XOR, m=k=8", "xor", "8", "4", "8", "0", "1", "0.041", "0", "-"),
    ("h", "MODULO, m=k=4", "modulo", "4", "4", "8", "0", "1", "0.041", "0.17", "0.014"),
    ("h", "MODULO, m=k=8", "modulo", "8", "4", "8", "0", "1", "0.041", "0.104", "0.001"),
    ("m", "m=k=2", "xor", "2", "4", "8", "0", "1", "0.042", "0.078", "0.062"),
    ("m", "m=k=3", "xor", "3", "4", "8", "0", "0.983", "0.074", "0.012", "0.008"),
    ("m", "m=k=4", "xor", "4", "4", "8", "0", "1", "0.041", "0.016", "0.006"),
    ("m", "m=k=8", "xor", "8", "4", "8", "0", "1", "0.041", "0", "0"),
    ("t", "t=2", "xor", "4", "2", "8", "0", "1", "0.03", "0.027", "0.016"),
    ("t", "t=4", "xor", "4", "4", "8", "0", "1", "0.041", "0.016", "0.006"),
    ("t", "t=8", "xor", "4", "8", "8", "0", "1", "0.075", "0.002", "0.002"),
    ("t", "t=12", "xor", "4", "12", "8", "0", "0.992", "0.105", "0.002", "0.003"),
    ("l", "l=1", "xor", "8", "4", "1", "0", "0", "0", "0", "0"),
    ("l", "l=2", "xor", "8", "4", "2", "0", "0", "0", "0", "0"),
    ("l", "l=4", "xor", "8", "4", "4", "0", "0.625", "0.032", "0", "0"),
    ("l", "l=8", "xor", "8", "4", "8", "0", "1", "0.041", "0", "0"),
    ("sh", "sh=0, m=k=4", "xor", "4", "4", "8", "0", "1", "0.041", "0.016", "0.006"),
    ("sh", "sh=0, m=k=8", "xor", "8", "4", "8", "0", "1", "0.041", "0", "0"),
    ("sh", "sh=1, m=k=4", "xor", "4", "4", "8", "1", "0.642", "0.211", "0.033", "0.023"),
    ("sh", "sh=1, m=k=8", "xor", "8", "4", "8", "1", "0.642", "0.211", "0.026", "0.003"),
]


def t1_rows():
    rows = []
    for sub in ["h", "m", "t", "l", "sh"]:
        rows += load("table1-" + sub) or []
    return {(r["bench"], r["ddos_hash"], r["ddos_width"], r["ddos_threshold"], r["ddos_history"],
             "1" if r["ddos_share"] in ("1", "true") else "0"): r for r in rows}


def accuracy(t, key):
    """Average over benchmarks of the per-benchmark rates (each benchmark's
    counts summed over its SMs)."""
    ts, td, fs, fd, tdpr, fdpr, fbench = [], [], [], [], [], [], []
    for (b, *k), r in t.items():
        if tuple(k) != key:
            continue
        if f(r, "bows_ddos_true_seen"):
            ts.append(f(r, "bows_ddos_true_detected") / f(r, "bows_ddos_true_seen"))
            if f(r, "bows_ddos_true_detected"):
                tdpr.append(f(r, "bows_ddos_true_dpr_ppm") / 1e6 / f(r, "bows_ddos_true_detected"))
        if f(r, "bows_ddos_false_seen"):
            fs.append(f(r, "bows_ddos_false_detected") / f(r, "bows_ddos_false_seen"))
            if f(r, "bows_ddos_false_detected"):
                fdpr.append(f(r, "bows_ddos_false_dpr_ppm") / 1e6 / f(r, "bows_ddos_false_detected"))
                fbench.append(NAME.get(b, b))
    avg = lambda x: "%.3f" % (sum(x) / len(x)) if x else "-"
    return avg(ts), avg(tdpr), avg(fs), avg(fdpr), ", ".join(sorted(fbench)) or "none"


def table1():
    t = t1_rows()
    if not t:
        return ""
    out, cur = [], None
    for sub, label, *key, pt, pd, pf, pfd in T1:
        a = accuracy(t, tuple(key))
        out.append([label, "%s (%s)" % (a[0], pt), "%s (%s)" % (a[1], pd), "%s (%s)" % (a[2], pf),
                    "%s (%s)" % (a[3], pfd), a[4]])
    res = table(["configuration", "avg TSDR (paper)", "avg DPR true (paper)", "avg FSDR (paper)",
                 "avg DPR false (paper)", "benchmarks with a false detection"], out)
    # per-benchmark detail at the paper's configuration and MODULO m=k=8
    det = []
    for b in sorted({k[0] for k in t}, key=lambda x: (x not in BOWS, BOWS.index(x) if x in BOWS else 0, x)):
        cells = [NAME.get(b, b)]
        for key in [("xor", "8", "4", "8", "0"), ("modulo", "8", "4", "8", "0"), ("xor", "4", "4", "8", "1")]:
            r = t.get((b,) + key)
            cells.append("%d/%d, %d/%d" % (f(r, "bows_ddos_true_detected"), f(r, "bows_ddos_true_seen"),
                                           f(r, "bows_ddos_false_detected"), f(r, "bows_ddos_false_seen")) if r else "-")
        det.append(cells)
    res += ("\nPer benchmark (true SIBs detected/seen, other backward branches detected/seen; per SM, summed):\n\n"
            + table(["benchmark", "XOR m=k=8, t=4, l=8", "MODULO m=k=8", "XOR m=k=4, time-shared"], det))
    return res


# ---------------------------------------------------------------- Fig. 14
def fig14():
    rows = load("fig14")
    if not rows:
        return ""
    base = {r["bench"]: r for r in rows if r["sched"] == "gto-rotate"}
    bw = {(r["bench"], r["ddos_hash"]): r for r in rows if r["sched"] == "bows:gto-rotate"}
    out, gx, gm, vals = [], [], [], {}
    for b in sorted(base):
        cells = [b]
        for h in ["xor", "modulo"]:
            r = bw.get((b, h))
            v = f(r, "cycles") / f(base[b], "cycles") if r else float("nan")
            (gx if h == "xor" else gm).append(v)
            vals[(b, h)] = v
            cells += ["%.4f" % v, "%d/%d" % (f(r, "bows_ddos_false_detected"), f(r, "bows_ddos_false_seen")),
                      "%d" % f(r, "bows_backoffs"), "%d" % f(r, "stall_held")]
        out.append(cells)
    out.append(["**geomean**", "**%.4f**" % gmean(gx), "", "", "", "**%.4f**" % gmean(gm), "", "", ""])
    svg_bars("fig14.svg", "fig14: BOWS(GTO), 5000-cycle delay, normalized to GTO (sync-free)", sorted(base),
             ["xor", "modulo"], vals, "x GTO")
    return table(["benchmark", "XOR: time", "XOR: false det./seen", "XOR: back-offs", "XOR: held stalls",
                  "MODULO: time", "MODULO: false det./seen", "MODULO: back-offs", "MODULO: held stalls"], out)


# ---------------------------------------------------------------- Fig. 16
def fig16():
    rows = load("fig16")
    if not rows:
        return ""
    t = by(rows, "ht_buckets", "sched")
    out, vals = [], {}
    for nb in sorted({r["ht_buckets"] for r in rows}, key=int):
        cells = [nb]
        for base, bp in [("gto-rotate", "bows:gto-rotate"), ("lrr", "bows:lrr")]:
            r0, r1 = t.get((nb, base)), t.get((nb, bp))
            if not (r0 and r1):
                cells += ["-"] * 3
                continue
            sp = f(r0, "cycles") / f(r1, "cycles")
            vals[(nb, bp)] = sp
            f0 = f(r0, "lock_fail_intra_warp") + f(r0, "lock_fail_inter_warp")
            f1 = f(r1, "lock_fail_intra_warp") + f(r1, "lock_fail_inter_warp")
            cells += ["%.2fx" % sp, "%.2fx" % (f(r0, "warp_insts") / f(r1, "warp_insts")),
                      "%.2f / %.2f" % (f0 / max(f0 + f(r0, "lock_acquire_success"), 1),
                                       f1 / max(f1 + f(r1, "lock_acquire_success"), 1))]
        out.append(cells)
    svg_bars("fig16.svg", "fig16: HT, BOWS speed-up over its base policy by bucket count", [k for k in sorted(
        {r["ht_buckets"] for r in rows}, key=int)], ["bows:gto-rotate", "bows:lrr"], vals, "speed-up")
    return table(["buckets", "BOWS/GTO speed-up", "GTO/BOWS dyn. insts", "lock fail rate GTO / BOWS",
                  "BOWS/LRR speed-up", "LRR/BOWS dyn. insts", "lock fail rate LRR / BOWS"], out)


# ---------------------------------------------------------------- adaptive study
def adaptive():
    rows = load("adaptive")
    if not rows:
        return ""
    t = {(r["bench"], r["bows_frac1"], r["bows_delay_max"]): r for r in rows}
    cols = sorted({(r["bows_frac1"], r["bows_delay_max"]) for r in rows}, key=lambda c: (-float(c[0]), int(c[1])))
    out = []
    for b in BOWS:
        r0 = t.get((b, "0.5", "10000"))
        cells = [NAME[b], "%.2f%%" % (100 * f(r0, "bows_sib_insts") / max(f(r0, "warp_insts"), 1)) if r0 else "-"]
        for c in cols:
            r = t.get((b,) + c)
            w = f(r, "bows_delay_windows") if r else 0
            cells.append("%.3f; +%d/-%d; %d" % (f(r, "cycles") / f(r0, "cycles"), f(r, "bows_delay_raises"),
                                                f(r, "bows_delay_drops"), f(r, "bows_delay_limit_sum") / w if w else 0)
                         if r and r0 else "-")
        out.append(cells)
    out.append(["**geomean time**", ""] + ["**%.3f**" % gmean([f(t[(b,) + c], "cycles") / f(t[(b, "0.5", "10000")], "cycles")
                                     for b in BOWS if (b,) + c in t and (b, "0.5", "10000") in t]) for c in cols])
    return ("Each cell: time normalized to FRAC1 0.5, max 10000 (the default); windows that raised / lowered "
            "the limit (summed over SMs); average limit over windows, cycles.\n\n"
            + table(["benchmark", "SIB share of warp insts"] + ["FRAC1 %s, max %s" % c for c in cols], out))


def occupancy():
    """BOWS on one SM (all CTAs of the small inputs on it) next to the same
    runs on 15 SMs (fig9)."""
    one, full = load("occupancy"), load("fig9")
    if not one or not full:
        return ""
    t1, t15 = by(one, "bench", "sched"), by(full, "bench", "sched")
    out = []
    for b in BOWS:
        cells = [NAME[b]]
        for t in (t15, t1):
            for base, bp in [("lrr", "bows:lrr"), ("gto-rotate", "bows:gto-rotate")]:
                r0, r1 = t.get((b, base)), t.get((b, bp))
                cells.append("%.2fx / %.2fx" % (f(r0, "cycles") / f(r1, "cycles"), f(r0, "warp_insts") / f(r1, "warp_insts"))
                             if r0 and r1 else "-")
            r0 = t.get((b, "gto-rotate"))
            a = f(r0, "lock_acquire_success") + f(r0, "lock_fail_intra_warp") + f(r0, "lock_fail_inter_warp")
            cells.append("%.1f%%" % (100 * (a - f(r0, "lock_acquire_success")) / a) if a else "-")
        out.append(cells)
    g = ["**geomean**"]
    for t in (t15, t1):
        for base, bp in [("lrr", "bows:lrr"), ("gto-rotate", "bows:gto-rotate")]:
            g.append("**%.2fx / %.2fx**" % (
                gmean([f(t[(b, base)], "cycles") / f(t[(b, bp)], "cycles") for b in BOWS if (b, bp) in t]),
                gmean([f(t[(b, base)], "warp_insts") / f(t[(b, bp)], "warp_insts") for b in BOWS if (b, bp) in t])))
        g.append("")
    out.append(g)
    return ("Each cell: speed-up / dynamic-instruction reduction of BOWS over its base policy.\n\n" + table(
        ["benchmark", "15 SMs: BOWS/LRR", "15 SMs: BOWS/GTO", "15 SMs: GTO lock fail rate",
         "1 SM: BOWS/LRR", "1 SM: BOWS/GTO", "1 SM: GTO lock fail rate"], out))


size = open(os.path.join(d, "SIZE")).read().strip() if os.path.exists(os.path.join(d, "SIZE")) else "?"
SECTIONS = [("fig2", "Fig. 2: lock acquire / wait-exit outcomes (GTX480)", fig2),
            ("fig9", "Fig. 9: BOWS on GTX480 (paper: speed-up 2.2x/1.4x/1.5x, energy 2.3x/1.7x/1.6x)",
             lambda: fig9("fig9", ["2.2x", "1.4x", "1.5x"], ["2.3x", "1.7x", "1.6x"])),
            ("fig15", "Fig. 15: BOWS on GTX1080Ti (paper: speed-up 1.9x/1.7x/1.5x)",
             lambda: fig9("fig15", ["1.9x", "1.7x", "1.5x"], ["-", "-", "-"])),
            ("fig10", "Fig. 10: execution time of BOWS(GTO) by delay limit, normalized to GTO", fig10),
            ("fig11", "Fig. 11: backed-off share of the warps at the scheduler", fig11),
            ("fig12", "Fig. 12: lock outcomes success / intra-warp fail / inter-warp fail", fig12),
            ("fig13", "Fig. 13: dynamic overheads", fig13),
            ("table1", "Table I: DDOS sensitivity (ours (paper))", table1),
            ("fig14", "Fig. 14: false detections on sync-free benchmarks, MODULO vs XOR, 5000-cycle delay", fig14),
            ("fig16", "Fig. 16: HT contention sweep", fig16),
            ("occupancy", "Occupancy: the small inputs on one SM (not a paper figure)", occupancy),
            ("adaptive", "Adaptive delay: FRAC1 and the maximum limit (not a paper figure)", adaptive)]
bodies = {k: fn() for k, _, fn in SECTIONS}
if len(sys.argv) > 2:
    # fill: replace the text between '<!-- bows-tables:KEY -->' and '<!-- /bows-tables -->' in the given file
    import re
    doc = open(sys.argv[2]).read()
    doc = re.sub(r"(<!-- bows-tables:(\w+) -->\n).*?(<!-- /bows-tables -->)",
                 lambda m: m.group(1) + bodies.get(m.group(2), "") + m.group(3), doc, flags=re.S)
    open(sys.argv[2], "w").write(doc)
    sys.exit(0)
print("<!-- generated by scripts/bows-tables.py from docs/bows/*.csv (size %s) -->\n" % size)
for k, title, _ in SECTIONS:
    if bodies[k]:
        print("### %s\n\n%s" % (title, bodies[k]))
