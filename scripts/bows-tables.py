#!/usr/bin/env python3
"""bows-tables.py -- the markdown tables of docs/bows.md (BOWS paper, issue 11)
from the CSVs that scripts/bows-experiments.sh writes to docs/bows/, plus an
SVG bar chart per figure (docs/bows/*.svg).  Standard library only.

    scripts/bows-tables.py [docs/bows]                  # prints every table to stdout, writes the SVGs
    scripts/bows-tables.py docs/bows docs/bows.md       # fills the tables between docs/bows.md's
                                                        # <!-- bows-tables:KEY --> and <!-- /bows-tables --> markers

The opening table of docs/bows.md (section "headline") puts every headline
number of the paper beside ours: at paper size from the paper-size CSVs
(fig9-paper-{fast,ht,gto}.csv, adaptive-paper.csv; HT's GTO pair falls back to
the statistics files of docs/bows/paper-ht/), at size small from the rest, each
cell naming its CSV and the commit that CSV was produced at (docs/bows/COMMITS).

Normalized execution time = cycles / the baseline's cycles of the same
benchmark (the paper's Figs. 9, 10, 15: lower is better); speed-up = its
inverse; energy the same with energy_j.  Averages over benchmarks are
geometric means.  The paper's numbers are printed beside ours.
"""
import csv, json, math, os, sys
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


def fig2_paper():
    """Fig. 2 at paper size: Fig. 9's paper-size runs under LRR, GTO and CAWA are Fig. 2's runs (the same
    benchmarks, size, configuration and policies; experiments/bows-fig2.spec's counters are a subset of
    bows-fig9.spec's), so the outcomes come from fig9-paper.csv, beside the small size's shares."""
    rows = load("fig9-paper")
    if not rows:
        return ""
    t = by(rows, "bench", "sched")
    small = by(load("fig2") or [], "bench", "sched")
    out = []
    for b in BOWS:
        for p in ["lrr", "gto-rotate", "cawa"]:
            if (b, p) not in t:
                continue
            sm = small.get((b, p))
            out.append([NAME[b], p] + outcome_cells(t[(b, p)]) +
                       [" / ".join(outcome_cells(sm)[1:]) if sm else "-"])
    return ("Share of lock acquire attempts (BH-ST: wait-exit attempts) by outcome at the paper's input sizes, "
            "GTX480; from %s (Fig. 9's LRR, GTO and CAWA runs); the last column is the size-small table above "
            "(success / intra / inter).\n\n" % src("fig9-paper.csv")
            + table(["benchmark", "policy", "attempts", "success", "intra-warp fail", "inter-warp fail",
                     "small: success / intra / inter"], out))


def paper_src(csv, gpu="GTX480"):
    """The provenance line of a paper-size figure: its CSV and commit (empty when the CSV is absent)."""
    if not load(csv):
        return ""
    return "%s, paper size; from %s.\n\n" % (gpu, src(csv + ".csv"))


def paper_src_set(pattern, parts, gpu="GTX480"):
    """paper_src for one table drawn from several CSVs, pattern % part for each part: named as one
    brace pattern ('table1-{h,m}-paper.csv') when they share a commit, else each with its own."""
    csvs = [pattern % p + ".csv" for p in parts if load(pattern % p)]
    if not csvs:
        return ""
    commits = {COMMIT.get(c, ("?", "?"))[0] for c in csvs}
    if len(commits) > 1 or len(csvs) < len(parts):
        return "%s, paper size; from %s.\n\n" % (gpu, src(*csvs))
    return "%s, paper size; from `%s.csv` @ %s.\n\n" % (gpu, pattern % ("{" + ",".join(parts) + "}"), commits.pop())


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
    nk = len([b for b in BOWS if (b, "lrr") in t])
    res += "BOWS over its base policy (geomean over the %d kernels):\n\n" % nk + table(
        ["", "speed-up (ours)", "speed-up (paper)", "energy saving (ours)", "energy saving (paper)",
         "dynamic-energy saving (ours)", "static share of BOWS energy (ours)", "dyn. instructions / (ours)",
         "best kernel speed-up (ours)"], out)
    return res


# ---------------------------------------------------------------- Figs. 10-13
DELAYS = [("fixed", "0"), ("fixed", "500"), ("fixed", "1000"), ("fixed", "3000"), ("fixed", "5000"), ("adaptive", "1000")]


def dlabel(k):
    return "adaptive" if k[0] == "adaptive" else k[1]


def fig10_rows(csv="fig10"):
    """Figs. 10-13's runs: (GTO's row per benchmark, BOWS's per (benchmark, delay kind, limit), the benchmarks
    in BOWS order that have a GTO row), from
    fig10.csv (else fig11-13.csv, the same runs) or, with csv="fig10-paper", the paper-size CSV."""
    rows = load(csv) or (load("fig11-13") if csv == "fig10" else None)
    if not rows:
        return None, None, []
    base = {r["bench"]: r for r in rows if r["sched"] == "gto-rotate"}
    bw = {(r["bench"], r["bows_delay"], r["bows_delay_limit"]): r for r in rows if r["sched"] == "bows:gto-rotate"}
    return base, bw, [b for b in BOWS if b in base]  # a benchmark without its GTO run is left out


def fig10(csv="fig10", sfx=""):
    base, bw, benches = fig10_rows(csv)
    if base is None:
        return ""
    out, vals = [], {}
    for b in benches:
        cells = []
        for k in DELAYS:
            r = bw.get((b,) + k)
            v = f(r, "cycles") / f(base[b], "cycles") if r else float("nan")
            vals[(NAME[b], dlabel(k))] = v
            cells.append("%.3f" % v)
        out.append([NAME[b]] + cells)
    out.append(["**geomean**"] + ["**%.3f**" % gmean([vals[(NAME[b], dlabel(k))] for b in benches]) for k in DELAYS])
    svg_bars("fig10%s.svg" % sfx, "fig10: BOWS(GTO) execution time normalized to GTO, by back-off delay limit",
             [NAME[b] for b in benches], [dlabel(k) for k in DELAYS], vals, "x GTO")
    return table(["benchmark"] + ["delay %s" % dlabel(k) for k in DELAYS], out)


def fig11(csv="fig10", sfx=""):
    base, bw, benches = fig10_rows(csv)
    if base is None:
        return ""
    out, vals = [], {}
    for b in benches:
        cells = ["0.0%"]
        for k in DELAYS:
            r = bw.get((b,) + k)
            tot = f(r, "bows_backed_off_warp_cycles") + f(r, "bows_normal_warp_cycles") if r else 0
            v = f(r, "bows_backed_off_warp_cycles") / tot if tot else float("nan")
            vals[(NAME[b], dlabel(k))] = v
            cells.append("%.1f%%" % (100 * v))
        out.append([NAME[b]] + cells)
    svg_bars("fig11%s.svg" % sfx, "fig11: fraction of warps at the scheduler that are backed off (BOWS over GTO)",
             [NAME[b] for b in benches], [dlabel(k) for k in DELAYS], vals, "backed-off share", ref=0)
    return table(["benchmark", "GTO"] + ["delay %s" % dlabel(k) for k in DELAYS], out)


def fig12(csv="fig10", sfx=""):
    base, bw, benches = fig10_rows(csv)
    if base is None:
        return ""
    out = []
    for b in benches:
        cols = [("GTO", base[b])] + [("delay " + dlabel(k), bw.get((b,) + k)) for k in DELAYS]
        cells = []
        for _, r in cols:
            c = outcome_cells(r) if r else ["-"] * 4
            cells.append("%s / %s / %s" % (c[1], c[2], c[3]) if c[1] != "-" else "-")
        out.append([NAME[b]] + cells)
    ratio = []
    for b in benches:
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


def fig13(csv="fig10", sfx=""):
    base, bw, benches = fig10_rows(csv)
    if base is None:
        return ""
    res = ""
    for metric, label, paper in [("warp_insts", "dynamic warp instructions", "/2.1 (geomean) vs GTO"),
                                 ("l1d_accesses", "L1D transactions", "-19% vs GTO"),
                                 ("simd_efficiency", "SIMD efficiency", "HT 3.4x, ATM 1.85x vs GTO")]:
        out, vals = [], {}
        for b in benches:
            cells = ["%.3f" % f(base[b], metric) if metric == "simd_efficiency" else "1"]
            for k in DELAYS:
                r = bw.get((b,) + k)
                v = f(r, metric) / f(base[b], metric) if r and f(base[b], metric) else float("nan")
                vals[(NAME[b], dlabel(k))] = v
                cells.append("%.3f" % v)
            out.append([NAME[b]] + cells)
        out.append(["**geomean**", ""] + ["**%.3f**" % gmean([vals[(NAME[b], dlabel(k))] for b in benches]) for k in DELAYS])
        res += "%s, BOWS normalized to GTO (paper: %s):\n\n" % (label.capitalize(), paper) + table(
            ["benchmark", "GTO" + (" (absolute)" if metric == "simd_efficiency" else "")] +
            ["delay %s" % dlabel(k) for k in DELAYS], out) + "\n"
        svg_bars("fig13-%s%s.svg" % (metric, sfx), "fig13: %s of BOWS(GTO), normalized to GTO" % label,
                 [NAME[b] for b in benches], [dlabel(k) for k in DELAYS], vals, "x GTO")
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


def t1_rows(suffix=""):
    """(bench, hash, width, threshold, history, share) -> row of the five Table I CSVs (suffix "-paper": paper size)"""
    rows = []
    for sub in ["h", "m", "t", "l", "sh"]:
        rows += load("table1-" + sub + suffix) or []
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


def table1(suffix=""):
    t = t1_rows(suffix)
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
def fig14(csv="fig14", suffix=""):
    rows = load(csv)
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
    svg_bars("fig14%s.svg" % suffix, "fig14%s: BOWS(GTO), 5000-cycle delay, normalized to GTO (sync-free)" % suffix,
             sorted(base), ["xor", "modulo"], vals, "x GTO")
    return table(["benchmark", "XOR: time", "XOR: false det./seen", "XOR: back-offs", "XOR: held stalls",
                  "MODULO: time", "MODULO: false det./seen", "MODULO: back-offs", "MODULO: held stalls"], out)


# ---------------------------------------------------------------- Fig. 16
def fig16(name="fig16", suffix=""):
    rows = load(name)
    if not rows:
        return ""
    failed = {(r["ht_buckets"], r["sched"]) for r in csv.DictReader(open(os.path.join(d, name + ".csv")))
              if r["status"] != "ok"}
    t = by(rows, "ht_buckets", "sched")
    out, vals = [], {}
    for nb in sorted({r["ht_buckets"] for r in rows} | {k[0] for k in failed}, key=int):
        cells = [nb]
        for base, bp in [("gto-rotate", "bows:gto-rotate"), ("lrr", "bows:lrr")]:
            r0, r1 = t.get((nb, base)), t.get((nb, bp))
            if not (r0 and r1):
                why = "failed: livelock" if (nb, base) in failed or (nb, bp) in failed else "-"
                cells += [why, "-", "-"]
                continue
            sp = f(r0, "cycles") / f(r1, "cycles")
            vals[(nb, bp)] = sp
            f0 = f(r0, "lock_fail_intra_warp") + f(r0, "lock_fail_inter_warp")
            f1 = f(r1, "lock_fail_intra_warp") + f(r1, "lock_fail_inter_warp")
            cells += ["%.2fx" % sp, "%.2fx" % (f(r0, "warp_insts") / f(r1, "warp_insts")),
                      "%.2f / %.2f" % (f0 / max(f0 + f(r0, "lock_acquire_success"), 1),
                                       f1 / max(f1 + f(r1, "lock_acquire_success"), 1))]
        out.append(cells)
    svg_bars("fig16%s.svg" % suffix, "fig16%s: HT, BOWS speed-up over its base policy by bucket count" % suffix,
             [k for k in sorted({r["ht_buckets"] for r in rows}, key=int)], ["bows:gto-rotate", "bows:lrr"], vals,
             "speed-up")
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


# ---------------------------------------------------------------- provenance
def commits():
    """docs/bows/COMMITS: CSV name -> (commit, size)."""
    out = {}
    p = os.path.join(d, "COMMITS")
    for line in open(p) if os.path.exists(p) else []:
        w = line.split()
        if len(w) >= 3 and not line.startswith("#"):
            out[w[0]] = (w[1], w[2])
    return out


COMMIT = commits()


def src(*csvs):
    """'fig9-paper-fast.csv @ 3acf86a, ...' for the CSVs a number comes from."""
    return ", ".join("`%s` @ %s" % (c, COMMIT.get(c, ("?", "?"))[0]) for c in sorted(set(csvs)))


# ---------------------------------------------------------------- paper-size Fig. 9 (several CSVs)
PAPER_FIG9 = ["fig9-paper", "fig9-paper-fast", "fig9-paper-ht", "fig9-paper-gto"]  # earlier ones win for a (bench, sched)


def paper_fig9():
    """(bench, sched) -> (row, csv name) from the paper-size Fig. 9 CSVs; HT's GTO pair from the statistics
    files of docs/bows/paper-ht/ (5be0aab) where fig9-paper-ht.csv lacks it."""
    t = {}
    for fig in PAPER_FIG9:
        for r in load(fig) or []:
            t.setdefault((r["bench"], r["sched"]), (r, fig + ".csv"))
    for sched in ["gto-rotate", "bows:gto-rotate"]:
        p = os.path.join(d, "paper-ht", sched.replace(":", "-") + ".json")
        if ("ht", sched) not in t and os.path.exists(p):
            j = json.load(open(p))
            r = {k: str(v) for k, v in list(j["stats"].items()) + list(j["derived"].items())}
            t[("ht", sched)] = (dict(r, bench="ht", sched=sched), "paper-ht")
    return t


def sched_shares(r):
    """issue / data-stall / structural-stall shares of the schedulers' cycles."""
    tot = f(r, "issue_cycles") + sum(f(r, k) for k in r if k.startswith("stall_"))
    return [f(r, k) / tot if tot else 0 for k in ("issue_cycles", "stall_data", "stall_structural")]


def fails(r):
    return f(r, "lock_fail_intra_warp") + f(r, "lock_fail_inter_warp")


def over(t, base, metric, benches=BOWS):
    """BOWS over `base` per kernel at paper size: {bench: base metric / BOWS metric}, and the CSVs used."""
    vals, used = {}, set()
    for b in benches:
        r0, r1 = t.get((b, base)), t.get((b, "bows:" + base))
        if r0 and r1 and f(r1[0], metric):
            vals[b] = f(r0[0], metric) / f(r1[0], metric)
            used |= {r0[1], r1[1]}
    return vals, sorted(used)


def kernels(vals):
    n = len(vals)
    return ("all %d kernels" % n if n == len(BOWS) else "%d of %d kernels (%s; not run: %s)" % (
        n, len(BOWS), ", ".join(NAME[b] for b in BOWS if b in vals),
        ", ".join(NAME[b] for b in BOWS if b not in vals)))


def per_kernel(vals, fmt="%.2fx"):
    return ", ".join(("%s " + fmt) % (NAME[b], vals[b]) for b in BOWS if b in vals)


def small_over(fig, base, metric):
    t = by(load(fig) or [], "bench", "sched")
    v = [f(t[(b, base)], metric) / f(t[(b, "bows:" + base)], metric) for b in BOWS if (b, "bows:" + base) in t]
    return gmean(v)


def reading_over(t, metric, c=("0.05", "0.8")):
    """{bench: GTO's metric / BOWS's} for BOWS(GTO) under the adaptive reading c (FRAC1, FRAC2) at paper size."""
    return {b: f(t[(b, "gto-rotate")][0], metric) / f(r, metric) for (b, cc), (r, _) in adaptive_paper_rows().items()
            if cc == c and (b, "gto-rotate") in t and f(r, metric)}


def moving_delay(t):
    """', where FRAC1 0.05 ... gives ...' from the adaptive readings at paper size, or ''."""
    ap = adaptive_paper_rows()
    v = {b: f(t[(b, "gto-rotate")][0], "cycles") / f(r, "cycles") for (b, c), (r, _) in ap.items()
         if c == ("0.05", "0.8") and (b, "gto-rotate") in t}
    return (", where FRAC1 0.05 (the limit moves) gives %.2fx over GTO (%s; row \"adaptive delay\" below)" % (
        gmean(list(v.values())), per_kernel(v)) if v else "")


def headline():
    """docs/bows.md's opening table: every headline number of the paper beside ours, paper size where we ran it."""
    t = paper_fig9()
    if not t:
        return ""
    rows = []
    POL = [("lrr", "LRR"), ("gto-rotate", "GTO"), ("cawa", "CAWA")]

    def fig9_row(what, paper, metric, base, cause):
        v, used = over(t, base, metric)
        if not v:
            return
        rows.append([what, paper, "**%.2fx** (%s)" % (gmean(list(v.values())), per_kernel(v)),
                     "paper, %s; %s" % (kernels(v), src(*used)), cause])

    stall = {b: sched_shares(t[(b, "gto-rotate")][0]) for b in BOWS if (b, "gto-rotate") in t}
    blocked = ", ".join("%s %.0f%%" % (NAME[b], 100 * stall[b][2]) for b in BOWS if b in stall)
    fig9_row("speed-up over CAWA (abstract, Fig. 9)", "1.5x", "cycles", "cawa",
             "measured: BOWS gains where the base policy's schedulers are blocked by a full memory pipeline "
             "(GTO's structural-stall share of scheduler cycles: %s); where they wait on data (BH-ST, NW) or locks "
             "are rarely contended (CP-DS, TSP) it removes instructions but not time (section \"Paper size: "
             "Fig. 9\"); and the literal adaptive rule keeps the delay at 1000 cycles%s. Why the paper's baselines "
             "leave more to gain than ours: hypothesis" % (blocked, moving_delay(t)))
    fig9_row("speed-up over LRR (Fig. 9)", "2.2x", "cycles", "lrr", "as the row above")
    fig9_row("speed-up over GTO (Fig. 9, conclusion)", "1.4x", "cycles", "gto-rotate", "as the rows above")
    st = [f(r, "energy_static_j") / f(r, "energy_j") for (b, p), (r, _) in t.items() if f(r, "energy_j")]
    en_cause = ("measured: the static term is %.0f-%.1f%% of our uncalibrated event-energy estimate "
                "(40 W for the whole chip), so energy follows time; the dynamic part follows the instruction "
                "count (section \"Energy estimate\")" % (100 * min(st), 100 * max(st)))
    for base, name, paper in [("cawa", "CAWA", "1.6x (abstract)"), ("lrr", "LRR", "2.3x"), ("gto-rotate", "GTO", "1.7x")]:
        v, used = over(t, base, "energy_j")
        vd, _ = over(t, base, "energy_dynamic_j")
        if v:
            rows.append(["energy saving over %s (Fig. 9)" % name, paper,
                         "**%.2fx** (dynamic energy %.2fx)" % (gmean(list(v.values())), gmean(list(vd.values()))),
                         "paper, %s; %s" % (kernels(v), src(*used)), en_cause])
    vd, used = over(t, "gto-rotate", "energy_dynamic_j")
    if vd:
        rows.append(["dynamic energy over GTO (conclusion)", "1.7x", "**%.2fx** (%s)" % (gmean(list(vd.values())),
                     per_kernel(vd)), "paper, %s; %s" % (kernels(vd), src(*used)),
                     "measured: follows the instructions removed (next row); the coefficients are not "
                     "calibrated against GPUWattch"])
    v, used = over(t, "gto-rotate", "warp_insts")
    if v:
        rows.append(["dynamic instructions, GTO / BOWS (Fig. 13a, conclusion)", "2.1x",
                     "**%.2fx** (%s)" % (gmean(list(v.values())), per_kernel(v)), "paper, %s; %s" % (kernels(v), src(*used)),
                     "measured: the 1000-cycle delay the literal adaptive rule keeps; with FRAC1 0.05 (the limit "
                     "moves, section \"Adaptive delay at paper size\") %.2fx (%s)" % (
                         gmean(list(reading_over(t, "warp_insts").values())), per_kernel(reading_over(t, "warp_insts")))])
    v, used = over(t, "gto-rotate", "l1d_accesses")
    if v:
        rows.append(["L1D transactions vs GTO (Fig. 13b; conclusion: memory accesses)", "-19%",
                     "**%+.1f%%** (%s)" % (100 * (1 / gmean(list(v.values())) - 1),
                                           ", ".join("%s %+.1f%%" % (NAME[b], 100 * (1 / v[b] - 1)) for b in BOWS if b in v)),
                     "paper, %s; %s" % (kernels(v), src(*used)),
                     "measured (code and counters): lock atomics go past our L1D to the L2 (`send_txn`, "
                     "`src/core/ldst.c`), so removing failed acquires removes no L1D transaction; BH-ST, which "
                     "polls with volatile loads, shows the reduction"])
    r0, r1 = t.get(("ht", "gto-rotate")), t.get(("ht", "bows:gto-rotate"))
    if r0 and r1:
        a0, a1 = r0[0], r1[0]
        share = lambda r: fails(r) / (fails(r) + f(r, "lock_acquire_success"))
        first = ("; failed first attempts (no back-off prevents them) %.0f%% of BOWS's failures" %
                 (100 * f(a1, "lock_fail_first") / fails(a1)) if a1.get("lock_fail_first") else "")
        ap = adaptive_paper_rows()
        moving = ["FRAC1 %s%s: %.2fx" % (c[0], "" if c[1] == "0.8" else ", FRAC2 " + c[1], fails(a0) / fails(r))
                  for (b, c), (r, _) in sorted(ap.items(), key=lambda x: (-float(x[0][1][0]), -float(x[0][1][1])))
                  if b == "ht" and c != LITERAL and fails(r)]
        if moving:
            first += ("; with the adaptive delay moving (section \"Adaptive delay at paper size\", measured): "
                      + ", ".join(moving))
        rows.append(["HT lock failures, GTO / BOWS (Fig. 12)", "10.8x",
                     "**%.2fx** fewer failed acquires (%.1f%% -> %.1f%% of attempts)" % (
                         fails(a0) / fails(a1), 100 * share(a0), 100 * share(a1)),
                     "paper; %s" % src(r0[1], r1[1], *(["adaptive-paper.csv"] if moving else [])),
                     "measured at size small at 3acf86a (section \"HT lock failures\"): identical delays make warps that "
                     "collided retry together (randomized delays, `bows_jitter=1`, reach 10.5x at 64 buckets; "
                     "fixed delays stop at 3.1x)%s; that the lockstep also bounds the paper-size run: hypothesis"
                     % first])
    v, used = over(t, "gto-rotate", "simd_efficiency")
    if v:
        rows.append(["SIMD efficiency, BOWS / GTO: HT, ATM (Sec. VI-A)", "3.4x, 1.85x",
                     "**%s**" % ", ".join("%s %.2fx" % (NAME[b], 1 / v[b]) for b in ("ht", "atm") if b in v),
                     "paper; %s" % src(*used),
                     "measured: rises with the failed acquires removed: with FRAC1 0.05 %s, with FRAC1 0.005 %s "
                     "(section \"Adaptive delay at paper size\")" % tuple(
                         ", ".join("%s %.2fx" % (NAME[b], 1 / v[b]) for b in ("ht", "atm") if b in v)
                         for v in (reading_over(t, "simd_efficiency"), reading_over(t, "simd_efficiency", ("0.005", "0.8"))))])
    r0, r1 = t.get(("bhst", "gto-rotate")), t.get(("bhst", "bows:gto-rotate"))
    if r0 and r1:
        rows.append(["BH-ST under BOWS: no speed-up, 17.8% less energy (Sec. VI)", "1.0x; -17.8%",
                     "**%.2fx; %+.1f%%** (dynamic %+.1f%%; instructions %.2fx fewer)" % (
                         f(r0[0], "cycles") / f(r1[0], "cycles"), 100 * (f(r1[0], "energy_j") / f(r0[0], "energy_j") - 1),
                         100 * (f(r1[0], "energy_dynamic_j") / f(r0[0], "energy_dynamic_j") - 1),
                         f(r0[0], "warp_insts") / f(r1[0], "warp_insts")),
                     "paper; %s" % src(r0[1], r1[1]),
                     "no speed-up as in the paper (waits on data: %.0f%% of GTO's scheduler cycles); energy: "
                     "measured, the static term (energy row above)" % (100 * stall["bhst"][1])])
    r = t.get(("tsp", "bows:gto-rotate"))
    if r:
        rows.append(["TSP: synchronization is ~0.03% of the instructions (Sec. VI)", "~0.03%",
                     "**%.2f%%** SIB executions of warp instructions" % (100 * f(r[0], "bows_sib_insts") / f(r[0], "warp_insts")),
                     "paper; %s" % src(r[1]), "counted as SIB executions, not the paper's (unstated) count"])
    f15p = by(load("fig15-paper") or [], "bench", "sched")
    if f15p:
        sp = [small_over("fig15-paper", b, "cycles") for b, _ in POL]
        ks = [b for b in BOWS if (b, "bows:lrr") in f15p]
        per = ", ".join("%s %.2fx" % (NAME[b], f(f15p[(b, "gto-rotate")], "cycles") / f(f15p[(b, "bows:gto-rotate")], "cycles"))
                        for b in ks if (b, "gto-rotate") in f15p and (b, "bows:gto-rotate") in f15p)
        rows.append(["GTX1080Ti speed-up over LRR / GTO / CAWA (Fig. 15)", "1.9x / 1.7x / 1.5x",
                     "**%.2fx / %.2fx / %.2fx** (over GTO: %s)" % (tuple(sp) + (per,)),
                     "paper, %s; %s" % (
                         "all 8 kernels" if len(ks) == len(BOWS) else "%d of 8 kernels (%s not run)" % (
                             len(ks), ", ".join(NAME[b] for b in BOWS if b not in ks)), src("fig15-paper.csv")),
                     "measured: as on the GTX480, BOWS gains most where GTO's schedulers are blocked by a full memory "
                     "pipeline (GTO's structural-stall share of scheduler cycles: %s) and not where they wait on data; "
                     "the literal adaptive rule raised the delay limit in %d windows (dropped it in %d), so it stays "
                     "at 1000 cycles; section \"Fig. 15 at paper size\"" % (
                         ", ".join("%s %.0f%%" % (NAME[b], 100 * sched_shares(f15p[(b, "gto-rotate")])[2])
                                   for b in ks if (b, "gto-rotate") in f15p),
                         sum(f(f15p[(b, "bows:gto-rotate")], "bows_delay_raises") for b in ks),
                         sum(f(f15p[(b, "bows:gto-rotate")], "bows_delay_drops") for b in ks))])
    sp = [small_over("fig15", b, "cycles") for b, _ in POL]
    if sp[0] == sp[0] and not f15p:
        rows.append(["GTX1080Ti speed-up over LRR / GTO / CAWA (Fig. 15)", "1.9x / 1.7x / 1.5x",
                     "**%.2fx / %.2fx / %.2fx**" % tuple(sp), "**small** (not run at paper size); %s" % src("fig15.csv"),
                     "hypothesis for paper size; measured at small: at most 2 warps per scheduler on 28 SMs x 4 "
                     "schedulers, so there is little to reorder (section \"Fig. 9 / 15\")"])
    ts = [(f(r, "bows_ddos_true_detected"), f(r, "bows_ddos_true_seen"), f(r, "bows_ddos_false_detected"),
           f(r, "bows_ddos_false_seen"), b, c) for (b, p), (r, c) in t.items() if p == "bows:gto-rotate"]
    if ts:
        tsdr = [x[0] / x[1] for x in ts if x[1]]
        fsdr = [x[2] / x[3] for x in ts if x[3]]
        rows.append(["DDOS on the busy-wait kernels: true / false spin detection rate (Table I, XOR m=k=8, BOWS(GTO))",
                     "TSDR 1, FSDR 0", "**TSDR %.3f, FSDR %.3f** (%s)" % (
                         sum(tsdr) / len(tsdr), sum(fsdr) / len(fsdr) if fsdr else 0,
                         ", ".join("%s %d/%d" % (NAME[x[4]], x[0], x[1]) for x in sorted(ts, key=lambda x: BOWS.index(x[4])))),
                     "paper, %s; %s" % (kernels({x[4]: 1 for x in ts}), src(*[x[5] for x in ts])),
                     "true SIBs confirmed / seen per SM, summed; causes measured at size small (next row)"])
    t1p = t1_rows("-paper")
    t1 = t1p or t1_rows()
    if t1:
        a = accuracy(t1, ("xor", "8", "4", "8", "0"))
        rows.append(["DDOS finds every busy-wait loop, no false detection (abstract; Table I, XOR m=k=8)",
                     "TSDR 1, FSDR 0", "**TSDR %s, FSDR %s**" % (a[0], a[2]),
                     ("paper, 21 kernels; %s" % src("table1-h-paper.csv")) if t1p else "**small**; %s" % src("table1-h.csv"),
                     "measured: NW1/NW2's waiting path has more `setp`s than l = 8 (4 of 4 found with l = 16); "
                     "BH-TB's CAS-failure retry never repeats a value (traced); bfs's false detection comes from "
                     "profiling the first active lane (traced)%s; section \"Table I\"" % (
                         " (the traces at size small)" if t1p else "")])
    fx14 = "fig14-paper" if load("fig14-paper") else "fig14"
    fx = load(fx14)
    if fx:
        base = {r["bench"]: r for r in fx if r["sched"] == "gto-rotate"}
        mod = [r for r in fx if r["sched"] == "bows:gto-rotate" and r["ddos_hash"] == "modulo"]
        m = gmean([f(r, "cycles") / f(base[r["bench"]], "cycles") for r in mod])
        ms = [r for r in mod if r["bench"] == "ms"]
        why = ("measured: ms's false detections (the paper's culprit) are confirmed late and back off 2 "
               "warps, none held (section \"Fig. 14\")")
        if ms and fx14 == "fig14-paper":
            r = ms[0]
            why = ("measured: DDOS confirms ms's false spin loops (the paper's culprit; %d of the %d it sees, per SM, "
                   "summed) and BOWS backs warps off %d times, but no warp is ever held (`bows_blocked` %d, `bows_held_warp_cycles` %d): every "
                   "backed-off warp's 5000-cycle delay had run out by the time it took the branch again; its "
                   "only cost is the back of the priority order; section \"Fig. 14\"" % (
                       f(r, "bows_ddos_false_detected"), f(r, "bows_ddos_false_seen"), f(r, "bows_backoffs"),
                       f(r, "bows_blocked"), f(r, "bows_held_warp_cycles")))
        rows.append(["BOWS + MODULO hashing on sync-free kernels (Fig. 14)", "2.1% slower",
                     "**%.2f%% %s**" % (100 * abs(m - 1), "slower" if m >= 1 else "faster"),
                     ("paper, all 13 kernels; %s" if fx14 == "fig14-paper" else "**small**; %s") % src(fx14 + ".csv"),
                     why])
    f16 = load("fig16")
    if f16:
        t16 = by(f16, "ht_buckets", "sched")
        nb = sorted({r["ht_buckets"] for r in f16}, key=int)
        sp = [f(t16[(n, "gto-rotate")], "cycles") / f(t16[(n, "bows:gto-rotate")], "cycles") for n in nb]
        ins = [f(t16[(n, "gto-rotate")], "warp_insts") / f(t16[(n, "bows:gto-rotate")], "warp_insts") for n in nb]
        f16p = load("fig16-paper")
        psz = ""
        if f16p:
            tp = by(f16p, "ht_buckets", "sched")
            nbp = sorted({r["ht_buckets"] for r in f16p}, key=int)
            psz = ("; paper size, %s buckets: %s over GTO, instructions %s; 16 and 64 buckets livelock, as they do on GPGPU-Sim 4.2 "
                   "(section \"Fig. 16\", at paper size)" % (
                       ", ".join(nbp),
                       ", ".join("%.2fx" % (f(tp[(n, "gto-rotate")], "cycles") / f(tp[(n, "bows:gto-rotate")], "cycles"))
                                 for n in nbp),
                       ", ".join("%.2fx" % (f(tp[(n, "gto-rotate")], "warp_insts") /
                                            f(tp[(n, "bows:gto-rotate")], "warp_insts")) for n in nbp)))
        rows.append(["HT contention, %s to %s buckets: speed-up; instructions (Fig. 16)" % (nb[0], nb[-1]),
                     "5x to 1.2x; 3.7x to 1.3x", "**%.2fx to %.2fx; %.2fx to %.2fx** (small)%s" % (
                         sp[0], sp[-1], ins[0], ins[-1], psz),
                     "**small**; %s%s" % (src("fig16.csv"), (", paper: " + src("fig16-paper.csv")) if f16p else ""),
                     "measured: from 256 buckets up the 1000-cycle minimum delay holds warps longer than needed "
                     "(256 buckets: a fixed 500-cycle delay 0.94x, none 0.99x, the adaptive 1000 0.81x; controlled "
                     "runs at a2dc679); at 16 buckets 98% of the attempts fail under BOWS as under GTO (why: not "
                     "measured); section \"Fig. 16\""])
    ap = adaptive_paper_rows()
    if ap:
        benches = [b for b in BOWS if (b, LITERAL) in ap and (b, "gto-rotate") in t]
        raises = sum(f(ap[(b, LITERAL)][0], "bows_delay_raises") for b in benches)
        best = {}  # reading -> {bench: speed-up over GTO}, for the readings under which some window raised the limit
        for (b, c), (r, _) in ap.items():
            if b in benches and c != LITERAL:
                best.setdefault(c, {})[b] = f(t[(b, "gto-rotate")][0], "cycles") / f(r, "cycles")
        best = {c: v for c, v in best.items() if any(f(ap[(b, c)][0], "bows_delay_raises") for b in v)}
        lit = {b: f(t[(b, "gto-rotate")][0], "cycles") / f(ap[(b, LITERAL)][0], "cycles") for b in benches}
        cells = ["FRAC1 %s: %.2fx (%s)" % (c[0] + ("" if c[1] == "0.8" else ", FRAC2 " + c[1]), gmean(list(v.values())),
                                          per_kernel(v)) for c, v in sorted(best.items(), key=lambda x: -float(x[0][0]))
                 if c[1] == "0.8"]
        rows.append(["adaptive delay limit (Fig. 5; Table II: FRAC1 0.5, FRAC2 0.8)", "adapts per window",
                     "**%d windows raise the limit** with FRAC1 0.5: adaptive = fixed 1000 cycles, %.2fx over GTO (%s). "
                     "Speed-up over GTO when it moves: %s" % (raises, gmean(list(lit.values())), per_kernel(lit),
                                                              "; ".join(cells)),
                     "paper, %s; %s" % (kernels(lit), src(*{s for (b, c), (r, s) in ap.items() if b in benches})),
                     "measured: SIB executions are %s of the warp instructions, never half; a smaller FRAC1 (the "
                     "readings in section \"Adaptive delay at paper size\") lets the limit rise: ATM gains, BH-ST "
                     "loses" % ", ".join("%s %.1f%%" % (NAME[b], 100 * f(ap[(b, LITERAL)][0], "bows_sib_insts") /
                                                       f(ap[(b, LITERAL)][0], "warp_insts")) for b in benches)])
    return ("Ours at **paper size** on the paper's GPU unless marked **small**; each cell names the committed CSV "
            "and the commit that produced it (`docs/bows/COMMITS`). Per-kernel values are BOWS over the base "
            "policy, geomean in bold.\n\n" + table(["the paper's number", "paper", "ours", "size; from", "why ours differs"],
                                                  rows))


def fig9_paper():
    """Fig. 9 at paper size: BOWS over each base policy per kernel (time / energy / instructions), and where
    GTO's schedulers spend their cycles."""
    t = paper_fig9()
    if not t:
        return ""
    out, g = [], defaultdict(list)
    for b in BOWS:
        if (b, "gto-rotate") not in t:
            continue
        cells = [NAME[b]]
        for base in ["lrr", "gto-rotate", "cawa"]:
            r0, r1 = t.get((b, base)), t.get((b, "bows:" + base))
            if not (r0 and r1):
                cells.append("not run")
                continue
            v = [f(r0[0], m) / f(r1[0], m) for m in ("cycles", "energy_j", "warp_insts")]
            g[base].append(v)
            cells.append("%.2fx / %.2fx / %.2fx" % tuple(v))
        cells.append("%.0f%% / %.0f%% / %.0f%%" % tuple(100 * x for x in sched_shares(t[(b, "gto-rotate")][0])))
        cells.append(", ".join(sorted({t[(b, p)][1] for p in ["lrr", "gto-rotate", "cawa"] if (b, p) in t})))
        out.append(cells)
    out.append(["**geomean** (kernels run)"] + ["%s (%d)" % (" / ".join("%.2fx" % gmean([v[i] for v in g[base]])
                                                                     for i in range(3)), len(g[base])) if g[base] else "-"
                                                for base in ["lrr", "gto-rotate", "cawa"]] + ["", ""])
    used = sorted({c for r, c in t.values()})
    return ("Time, energy and dynamic warp instructions, baseline / BOWS (higher is better for BOWS); the GTO column is "
            "where gto-rotate's schedulers spend their cycles (issuing, waiting on data, blocked by a full pipeline). "
            "From %s.\n\n" % src(*used)
            + table(["kernel", "BOWS over LRR: time / energy / instructions", "over GTO", "over CAWA",
                     "GTO: issue / data / structural stall share", "CSV"], out))


# ---------------------------------------------------------------- adaptive readings at paper size
LITERAL = ("0.5", "0.8")


def adaptive_paper_rows():
    """(bench, (frac1, frac2)) -> (row, csv): the literal reading from the paper-size Fig. 9 CSVs
    (bows:gto-rotate), the others from adaptive-paper.csv."""
    rows = load("adaptive-paper")
    if not rows:
        return {}
    out = {(r["bench"], (r["bows_frac1"], r["bows_frac2"])): (r, "adaptive-paper.csv") for r in rows}
    t = paper_fig9()
    for b in {r["bench"] for r in rows}:
        if (b, "bows:gto-rotate") in t:
            out[(b, LITERAL)] = t[(b, "bows:gto-rotate")]
    return out


SPIN_LEN = {"ht": "8", "atm": "8-13", "cpds": "8-13", "bhst": "7", "bhtb": "-"}  # warp insts of a failed iteration (PTX)


def adaptive_paper():
    ap = adaptive_paper_rows()
    if not ap:
        return ""
    t = paper_fig9()
    cols = sorted({c for _, c in ap}, key=lambda c: (-float(c[0]), -float(c[1])))
    benches = [b for b in BOWS if (b, LITERAL) in ap and (b, "gto-rotate") in t]
    out, sp = [], defaultdict(list)
    for b in benches:
        g, r0 = t[(b, "gto-rotate")][0], ap[(b, LITERAL)][0]
        cells = [NAME[b], SPIN_LEN.get(b, "-"), "%.2f%%" % (100 * f(r0, "bows_sib_insts") / f(r0, "warp_insts"))]
        for c in cols:
            r = ap.get((b, c))
            if not r:
                cells.append("-")
                continue
            r = r[0]
            w = f(r, "bows_delay_windows")
            fl, flg = fails(r) or f(r, "wait_exit_fail"), fails(g) or f(g, "wait_exit_fail")
            sp[c].append(f(g, "cycles") / f(r, "cycles"))
            cells.append("%.2fx; +%d/-%d; %d; %.2fx" % (f(g, "cycles") / f(r, "cycles"), f(r, "bows_delay_raises"),
                                                      f(r, "bows_delay_drops"), f(r, "bows_delay_limit_sum") / w if w else 0,
                                                      flg / fl if fl else float("nan")))
        out.append(cells)
    out.append(["**geomean speed-up**", "", ""] + ["**%.2fx**" % gmean(sp[c]) for c in cols])
    used = {s for (b, c), (r, s) in ap.items() if b in benches} | {t[(b, "gto-rotate")][1] for b in benches}
    return ("Each cell: BOWS's speed-up over GTO (gto-rotate; the paper's Fig. 9 metric); adaptive windows that "
            "raised / lowered the limit (summed over SMs); the average limit over those windows, cycles; failed lock "
            "acquires (BH-ST: failed wait exits) of GTO / of BOWS. GTX480, paper size, BOWS over gto-rotate with "
            "DDOS; from %s.\n\n" % src(*used)
            + table(["benchmark", "warp insts of a failed iteration (PTX)", "SIB share of warp insts (literal)"] +
                    ["FRAC1 %s, FRAC2 %s%s" % (c + (" (literal)" if c == LITERAL else "",)) for c in cols], out))


# ---------------------------------------------------------------- BH-ST and long delays (not a paper figure)
def bhst_delay():
    """BOWS(GTO) on BH-ST at paper size by fixed delay limit (experiments/bows-bhst-delay.spec): time, holds per warp
    and held cycles per warp against the delay (docs/bows.md, "BH-ST and long delays")."""
    rows = load("bhst-delay-paper")
    if not rows:
        return ""
    gto = [r for r in rows if r["sched"] == "gto-rotate"]
    if not gto:
        return ""
    g = f(gto[0], "cycles")
    out = [["GTO", "%d" % g, "1.000", "-", "-", "-", "-", "%.0f" % (f(gto[0], "wait_exit_fail") / f(gto[0], "warps")),
            "%.0f" % (f(gto[0], "warp_cycles") / f(gto[0], "warps"))]]
    for r in sorted((r for r in rows if r["sched"] != "gto-rotate"), key=lambda r: int(r["bows_delay_limit"])):
        D, c, w = int(r["bows_delay_limit"]), f(r, "cycles"), f(r, "warps")
        held = f(r, "bows_held_warp_cycles") / w
        out.append(["BOWS, delay %d" % D, "%d" % c, "%.3f" % (c / g), "%.2f" % ((c - g) / D) if D else "-",
                    "%.2f" % (f(r, "bows_blocked") / w), "%.0f" % held, "%.2f" % (held / D) if D else "-",
                    "%.0f" % (f(r, "wait_exit_fail") / w), "%.0f" % (f(r, "warp_cycles") / w)])
    return ("GTX480, paper size; from %s. Per warp: averages over the %d warps.\n\n" % (src("bhst-delay-paper.csv"),
                                                                                       int(f(gto[0], "warps"))) +
            table(["run", "cycles", "/ GTO", "(cycles - GTO) / delay", "holds per warp", "held cycles per warp",
                   "held cycles per warp / delay", "wait-exit fails per warp", "resident cycles per warp"], out))


size = open(os.path.join(d, "SIZE")).read().strip() if os.path.exists(os.path.join(d, "SIZE")) else "?"
SECTIONS = [("headline", "The paper's headline numbers beside ours", headline),
            ("fig9_paper", "Fig. 9 at paper size on GTX480", fig9_paper),
            ("fig2", "Fig. 2: lock acquire / wait-exit outcomes (GTX480)", fig2),
            ("fig2_paper", "Fig. 2 at paper size: lock acquire / wait-exit outcomes (GTX480)", fig2_paper),
            ("fig9", "Fig. 9: BOWS on GTX480 (paper: speed-up 2.2x/1.4x/1.5x, energy 2.3x/1.7x/1.6x)",
             lambda: fig9("fig9", ["2.2x", "1.4x", "1.5x"], ["2.3x", "1.7x", "1.6x"])),
            ("fig15", "Fig. 15: BOWS on GTX1080Ti (paper: speed-up 1.9x/1.7x/1.5x)",
             lambda: fig9("fig15", ["1.9x", "1.7x", "1.5x"], ["-", "-", "-"])),
            ("fig15_paper", "Fig. 15 at paper size: BOWS on GTX1080Ti (paper: speed-up 1.9x/1.7x/1.5x)",
             lambda: paper_src("fig15-paper", "GTX1080Ti") + fig9("fig15-paper", ["1.9x", "1.7x", "1.5x"], ["-", "-", "-"])),
            ("fig10", "Fig. 10: execution time of BOWS(GTO) by delay limit, normalized to GTO", fig10),
            ("fig11", "Fig. 11: backed-off share of the warps at the scheduler", fig11),
            ("fig12", "Fig. 12: lock outcomes success / intra-warp fail / inter-warp fail", fig12),
            ("fig13", "Fig. 13: dynamic overheads", fig13),
            ("fig10_paper", "Fig. 10 at paper size: BOWS(GTO) by delay limit, normalized to GTO",
             lambda: paper_src("fig10-paper") + fig10("fig10-paper", "-paper")),
            ("fig11_paper", "Fig. 11 at paper size: backed-off share", lambda: fig11("fig10-paper", "-paper")),
            ("fig12_paper", "Fig. 12 at paper size: lock outcomes", lambda: fig12("fig10-paper", "-paper")),
            ("fig13_paper", "Fig. 13 at paper size: dynamic overheads", lambda: fig13("fig10-paper", "-paper")),
            ("table1", "Table I: DDOS sensitivity (ours (paper))", table1),
            ("table1_paper", "Table I at paper size: DDOS sensitivity (ours (paper))",
             lambda: paper_src_set("table1-%s-paper", ["h", "m", "t", "l", "sh"]) + table1("-paper")),
            ("fig14", "Fig. 14: false detections on sync-free benchmarks, MODULO vs XOR, 5000-cycle delay", fig14),
            ("fig14_paper", "Fig. 14 at paper size: false detections on sync-free benchmarks, MODULO vs XOR",
             lambda: paper_src("fig14-paper") + fig14("fig14-paper", "-paper")),
            ("fig16", "Fig. 16: HT contention sweep", fig16),
            ("fig16_paper", "Fig. 16 at paper size: HT contention sweep",
             lambda: paper_src("fig16-paper") + fig16("fig16-paper", "-paper")),
            ("occupancy", "Occupancy: the small inputs on one SM (not a paper figure)", occupancy),
            ("adaptive", "Adaptive delay: FRAC1 and the maximum limit (not a paper figure)", adaptive),
            ("adaptive_paper", "Adaptive delay at paper size: readings of FRAC1 and FRAC2 (not a paper figure)",
             adaptive_paper),
            ("bhst_delay", "BH-ST and long delays at paper size (not a paper figure)", bhst_delay)]
bodies = {k: fn() for k, _, fn in SECTIONS}
if len(sys.argv) > 2:
    # fill: replace the text between '<!-- bows-tables:KEY -->' and '<!-- /bows-tables -->' in the given file
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    sys.dont_write_bytecode = True  # no scripts/__pycache__ in the tree
    import doc_tables
    doc_tables.fill(sys.argv[2], "bows", bodies)
    sys.exit(0)
print("<!-- generated by scripts/bows-tables.py from docs/bows/*.csv (size %s) -->\n" % size)
for k, title, _ in SECTIONS:
    if bodies[k]:
        print("### %s\n\n%s" % (title, bodies[k]))
