#!/usr/bin/env python3
"""dwr-tables.py -- the markdown tables of docs/dwr.md from the CSVs that
scripts/dwr-experiments.sh writes to docs/dwr/ (standard library only).

    scripts/dwr-tables.py [docs/dwr] [SIZE]     # prints every table to stdout
    scripts/dwr-tables.py docs/dwr headline [docs/dwr.md]
        # the opening table of docs/dwr.md: every headline number of the paper
        # beside ours (Figure 4 and 2 at paper size from fig4-paper-*.csv,
        # the rest from FIG-paper.csv where it exists, else from the small-size CSVs);
        # with a file, replaces the text between its '<!-- dwr-tables:KEY -->'
        # and '<!-- /dwr-tables -->' markers instead of printing (KEY: headline,
        # fig4-paper, and FIG-paper for each figure of PAPER_FIGS: its tables
        # at paper size, with how its runs that are Figure 4 runs compare)

Machines are named "fixed N" (warp_size N, no DWR) and "DWR-N" (sub-warps of
warp_size threads, dwr_max_warp N).  Speedup = IPC / the baseline's IPC of
the same benchmark; averages over benchmarks are geometric means for
speedups and arithmetic means for the idle-cycle share (the
paper's bars are averages of the per-benchmark values); coalescing rates,
whose scale differs by benchmark (mu's L1D hits make it ~400), are compared
by the geometric mean of per-benchmark ratios.
"""
import csv, math, os, re, sys
from collections import defaultdict

d = sys.argv[1] if len(sys.argv) > 1 else "docs/dwr"
size = sys.argv[2] if len(sys.argv) > 2 else "small"
HEADLINE = size == "headline"
ORDER = ["bfs", "backprop", "cp", "pathfinder", "gaussian", "hotspot", "fwt", "mp", "mm", "mu", "nnc", "nqu", "scan", "nw"]
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


# ---- the opening table of docs/dwr.md ("headline"): paper numbers beside ours ----

FIXED = ["fixed 8", "fixed 16", "fixed 32", "fixed 64"]
PAPER_ILT = {"bfs": 7, "mp": 36, "mu": 3, "nnc": 17, "nw": 3}  # Table 1: ignored LATs of DWR-64 (0 elsewhere)
# Table 1: LATs per benchmark (static)
PAPER_LAT = {"bfs": 15, "backprop": 17, "cp": 5, "pathfinder": 9, "gaussian": 11, "hotspot": 20, "fwt": 7, "mp": 54,
             "mm": 7, "mu": 11, "nnc": 17, "nqu": 10, "scan": 5, "nw": 26}
LAT_RE = re.compile(r"^\s*(@!?%\w+\s+)?(ld|ldu|st)\.(global|local|param)\b")


def static_lats(b, param=True):
    """LAT instructions (ld/ldu/st to global, local, param: dwr.c's LATs; param=False: not param) in the member's PTX"""
    root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench", b)
    n = 0
    for x in sorted(os.listdir(root)) if os.path.isdir(root) else []:
        if x.endswith(".ptx"):
            n += sum(1 for line in open(os.path.join(root, x))
                     if LAT_RE.match(line) and (param or LAT_RE.match(line).group(3) != "param"))
    return n


def load_csv(name):
    p = os.path.join(d, name)
    return [r for r in csv.DictReader(open(p)) if r["status"] == "ok"] if os.path.exists(p) else []


def provenance():
    """docs/dwr/COMMITS: 'CSV COMMIT DATE ...' lines written by scripts/dwr-fig4-paper.sh."""
    p = os.path.join(d, "COMMITS")
    return {w[0]: w[1] for w in (l.split() for l in open(p)) if len(w) > 1} if os.path.exists(p) else {}


def pc(x):
    return "%+.1f%%" % (100 * (x - 1))


def verdict(paper, ours, tol):
    """'yes' when every value is within tol (same units) of the paper's, 'direction' when
    every sign agrees, else 'no'."""
    if all(abs(a - b) <= tol for a, b in zip(paper, ours)):
        return "yes"
    if all((a > 0) == (b > 0) for a, b in zip(paper, ours)):
        return "direction only"
    return "**no**"


def share(r, k):
    """a scheduler-cycle counter as a share of all scheduler cycles (derived.c's sched_cycles)"""
    tot = sum(f(r, c) for c in ("issue_cycles", "stall_control", "stall_data", "stall_structural", "stall_held",
                                "stall_barrier", "stall_exit", "stall_fetch", "stall_idle"))
    return f(r, k) / tot if tot else 0.0


def member_gaps(rows, dim):
    """(value of dim, benchmark) -> best DWR IPC / best fixed IPC - 1"""
    out = {}
    for v in sorted({r[dim] for r in rows}, key=int):
        for b in benches(rows):
            fx = [f(r, "ipc") for r in rows if r["bench"] == b and r[dim] == v and machine(r).startswith("fixed")]
            dw = [f(r, "ipc") for r in rows if r["bench"] == b and r[dim] == v and machine(r).startswith("DWR")]
            if fx and dw:
                out[(v, b)] = max(dw) / max(fx) - 1
    return out


def gaps(rows, dim):
    """per value of dim: the geomean over benchmarks of best DWR IPC / best fixed IPC"""
    m = member_gaps(rows, dim)
    out = {}
    for v in sorted({r[dim] for r in rows}, key=int):
        g = [1 + x for (vv, _), x in m.items() if vv == v]
        out[v] = gmean(g) - 1 if g else float("nan")
    return out


def member_gap_text(rows, dim, values):
    """'per member, best DWR / best fixed at V1 / V2 / ...: mp +2.0 / +0.6 / +0.1%, ...'"""
    m = member_gaps(rows, dim)
    return "per member at %s: %s" % (" / ".join(values), "; ".join(
        "%s %s" % (b, " / ".join("%+.1f%%" % (100 * m[(v, b)]) if (v, b) in m else "-" for v in values))
        for b in benches(rows)))


FIG4_PAPER = ["fig4-paper-subset.csv", "fig4-paper-subset-8-64.csv", "fig4-paper-rest.csv", "fig4-paper-mp.csv"]


def load_fig4_paper():
    """the paper-size Figure 4 rows of every part; a job in a later file replaces the same job (id) of an earlier one"""
    rows = {}
    for x in FIG4_PAPER:
        for r in load_csv(x):
            rows[r["job_id"]] = r
    return list(rows.values())


def load_pref(fig):
    """a figure's rows at paper size (FIG-paper.csv) when that CSV exists, else at small size: (rows, size)"""
    r = load_csv("%s-paper.csv" % fig)
    return (r, "paper") if r else (load_csv("%s-small.csv" % fig), "small")


def same_runs(rows, fig4_key):
    """rows of another paper-size figure that are runs of the Figure 4 grid (the same member, machine and
    settings; fig4_key maps a row to its Figure 4 machine, or None): (rows matched, rows equal in every
    column both CSVs have but the job id and the settings' columns, columns compared, differences)"""
    m = per_machine(load_fig4_paper())
    n = same = 0
    cols, diffs = set(), []
    for r in rows:
        c = fig4_key(r)
        g = m.get((r["bench"], c)) if c else None
        if not g:
            continue
        n += 1
        shared = [k for k in r if k in g and k not in ("job_id", "dwr_max_warp", "simd_width", "dwr_ilt_entries",
                                                       "dwr_ilt_ways")]
        cols |= set(shared)
        bad = ["%s %s: %s %s vs %s" % (r["bench"], c, k, r[k], g[k]) for k in shared if r[k] != g[k]]
        diffs += bad
        same += not bad
    return n, same, len(cols), diffs


def same_runs_text(fig, rows, fig4_key):
    n, same, ncols, diffs = same_runs(rows, fig4_key)
    if not n:
        return ""
    return ("%d of %s's %d runs are runs of the Figure 4 grid at paper size (same member, machine and settings); "
            "%d of them equal fig4-paper-*.csv's in all %d columns both CSVs have%s." % (
                n, fig, len(rows), same, ncols, "" if not diffs else "; differences: " + "; ".join(diffs[:10])))


def sgn(pct):
    """a signed percentage with one decimal, never '-0.0%'"""
    return "%+.1f%%" % (round(pct, 1) + 0.0)


ABL = [("DWR", {"dwr_sync_latency": "24", "dwr_combine_distance": "0", "dwr_ilt_arrival": "false"}),
       ("sync free", {"dwr_sync_latency": "0", "dwr_combine_distance": "0", "dwr_ilt_arrival": "false"}),
       ("waits only", {"dwr_sync_latency": "0", "dwr_combine_distance": "1", "dwr_ilt_arrival": "false"}),
       ("ILT arrival", {"dwr_sync_latency": "24", "dwr_combine_distance": "0", "dwr_ilt_arrival": "true"})]


def fig5b_ablation_data():
    """fig5b-ablation-paper.csv by (bench, SIMD width): the best fixed machine and the four variants of the
    best DWR machine (experiments/dwr-fig5b-ablation.spec); None without the CSV"""
    rows = load_csv("fig5b-ablation-paper.csv")
    if not rows:
        return None
    out = {}
    for b in benches(rows):
        for w in sorted({int(r["simd_width"]) for r in rows if r["bench"] == b}):
            mine = [r for r in rows if r["bench"] == b and int(r["simd_width"]) == w]
            fixed = [r for r in mine if machine(r).startswith("fixed")]
            best = min(fixed, key=lambda r: f(r, "cycles"))
            dwr = [r for r in mine if not machine(r).startswith("fixed") and
                   all(r.get(k) == v for k, v in ABL[0][1].items())]
            var = {}
            if dwr:  # the best DWR machine of the width and its ablations
                dm = machine(min(dwr, key=lambda r: f(r, "cycles")))
                for name, want in ABL:
                    hit = [r for r in mine if machine(r) == dm and all(r.get(k) == v for k, v in want.items())]
                    if hit:
                        var[name] = hit[0]
            out[(b, w)] = (best, var)
    return out


def fig5b_ablation():
    """the table of docs/dwr.md's 'Figure 5b: where DWR's deficit goes' and its decomposition"""
    data = fig5b_ablation_data()
    if not data:
        return "Not yet run (experiments/dwr-fig5b-ablation.spec).\n"
    prov = provenance().get("fig5b-ablation-paper.csv")
    out = ("From %s%s, %d runs; cycles relative to the best fixed machine of the width (lower is better), "
           "sub-warp cycles waiting at partner barriers in parentheses.\n\n" % (
               os.path.join(d, "fig5b-ablation-paper.csv"), " (" + prov + ")" if prov else "",
               len(load_csv("fig5b-ablation-paper.csv"))))
    body, dec = [], []
    for (b, w), (best, var) in sorted(data.items(), key=lambda kv: (ORDER.index(kv[0][0]) if kv[0][0] in ORDER else 99,
                                                                     kv[0][1])):
        c0 = f(best, "cycles")
        dm = machine(var["DWR"]) if "DWR" in var else "-"
        body.append([b, str(w), "%s, %d cycles" % (machine(best), c0), dm] +
                    ["%s (%.2fM)" % (sgn(100 * (f(var[n], "cycles") / c0 - 1)), f(var[n], "dwr_sync_wait_cycles") / 1e6)
                     if n in var else "-" for n, _ in ABL])
        if all(n in var for n in ("DWR", "sync free", "waits only")):
            cd, cs, cw = (f(var[n], "cycles") for n in ("DWR", "sync free", "waits only"))
            dec.append([b, str(w), sgn(100 * (cd / c0 - 1)), sgn(100 * (cd - cs) / c0),
                        sgn(100 * (cs - cw) / c0), sgn(100 * (cw - c0) / c0)])
    out += table(["benchmark", "SIMD width", "best fixed", "DWR machine"] + [n for n, _ in ABL], body)
    out += ("\nDWR's deficit split (percent of the best fixed machine's cycles; the three parts add up to it): "
            "the sync operation = DWR - sync free; combining = sync free - waits only (negative: combining "
            "gains); the partner waits = waits only - best fixed.\n\n")
    out += table(["benchmark", "SIMD width", "DWR - best fixed", "sync operation", "combining", "partner waits"], dec)
    return out


def fig5b_ablation_cause():
    """the Fig. 5b headline row's cause from the ablation, or None"""
    data = fig5b_ablation_data()
    if not data:
        return None
    def pts(b, fn):
        return " / ".join(fn(*data[(b, w)]) for w in (8, 16, 32) if (b, w) in data)
    def rel(best, var, n):
        return sgn(100 * (f(var[n], "cycles") / f(best, "cycles") - 1)) if n in var else "-"
    def comb(best, var):
        return sgn(100 * (f(var["sync free"], "cycles") - f(var["waits only"], "cycles")) / f(best, "cycles"))
    return ("measured by ablation (fig5b-ablation-paper.csv; 8 / 16 / 32-wide): nnc's loss is the partner barrier's "
            "24-cycle sync operation: made free, DWR is %s from the best fixed machine (its 16-thread CTAs hold "
            "one sub-warp at 16- and 32-wide, so nothing waits for a partner); mu's is the partner waits: with "
            "the sync free and never combining, mu is %s slower than the best fixed machine, and combining "
            "changes that by %s" % (pts("nnc", lambda best, var: rel(best, var, "sync free")),
                                     pts("mu", lambda best, var: rel(best, var, "waits only")),
                                     pts("mu", comb)))


def fig5a_ablation_rows():
    """MU at 12 and 48 KB: fig5a-paper.csv's fixed 8 / fixed 64 / DWR (8-thread sub-warps, 32-entry ILT) runs and
    fig5a-ablation-paper.csv's DWR runs without the ILT, as (label, row) by L1D sets; None without the ablation"""
    abl, base = load_csv("fig5a-ablation-paper.csv"), load_csv("fig5a-paper.csv")
    if not abl or not base:
        return None
    out = {}
    for sets in ("32", "64"):
        rs = []
        for r in base:
            if r["bench"] == "mu" and r["l1d_sets"] == sets and (
                    machine(r) in ("fixed 8", "fixed 64") or (r["warp_size"] == "8" and machine(r) in ("DWR-32", "DWR-64"))):
                rs.append((machine(r) + (", ILT 32" if machine(r).startswith("DWR") else ""), r))
        rs += [(machine(r) + ", no ILT", r) for r in abl if r["bench"] == "mu" and r["l1d_sets"] == sets]
        out[sets] = rs
    return out


def fig5a_ablation():
    """the table of docs/dwr.md's 'Figure 5a: MU at 12 KB'"""
    data = fig5a_ablation_rows()
    if not data:
        return "Not yet run (experiments/dwr-fig5a-ablation.spec).\n"
    prov = provenance().get("fig5a-ablation-paper.csv")
    out = ("MU, paper size; the ILT-less runs from %s%s, the others from %s. Single: LAT instructions issued as one "
           "sub-warp, of all LAT instructions issued.\n\n" % (
               os.path.join(d, "fig5a-ablation-paper.csv"), " (" + prov + ")" if prov else "",
               os.path.join(d, "fig5a-paper.csv")))
    body = []
    for sets, kb in (("32", "12 KB"), ("64", "48 KB")):
        best = min(f(r, "cycles") for lab, r in data[sets] if lab.startswith("fixed"))
        for lab, r in data[sets]:
            lat = f(r, "dwr_lat_issues")
            body.append([kb, lab, "%d" % f(r, "cycles"), "%.3f" % (f(r, "cycles") / best), "%.3f" % f(r, "l1d_hit_rate"),
                         "%d" % f(r, "offchip_requests"), "%.2f" % f(r, "coalescing_rate"),
                         "%.2f" % f(r, "dram_bw_utilization"),
                         "%.1f%% of %d" % (100 * f(r, "dwr_issue_sub1") / lat, lat) if lat else "-",
                         "%.1fM" % (f(r, "dwr_sync_wait_cycles") / 1e6) if lat else "-"])
    return out + table(["L1D", "machine", "cycles", "/ best fixed", "L1D hit rate", "off-chip requests",
                        "coalescing rate", "DRAM utilization", "LATs issued single", "partner-wait cycles"], body)


def fig5a_ablation_cause():
    """the Fig. 5a headline row's cause for MU at 12 KB from the ablation, or None"""
    data = fig5a_ablation_rows()
    if not data:
        return None
    k = {lab: r for lab, r in data["32"]}
    need = ("fixed 8", "fixed 64", "DWR-64, ILT 32", "DWR-64, no ILT")
    if any(n not in k for n in need):
        return None
    f8, f64, dw, dn = (k[n] for n in need)
    return ("mu at 12 KB, measured (fig5a-ablation-paper.csv): memory-bound on every machine (DRAM utilization "
            "%.2f-%.2f), fixed 64 wins by coalescing (%.2f accesses per off-chip request, fixed 8 %.2f); DWR-64 issues "
            "%.1f%% of its LATs as single sub-warps (the ILT ignores them) and coalesces like fixed 8 (%.2f); without "
            "the ILT it combines (%.1f%% single) but still coalesces %.2f and runs %s slower than with it" % (
                min(f(r, "dram_bw_utilization") for r in (f8, f64, dw)), max(f(r, "dram_bw_utilization") for r in (f8, f64, dw)),
                f(f64, "coalescing_rate"), f(f8, "coalescing_rate"),
                100 * f(dw, "dwr_issue_sub1") / f(dw, "dwr_lat_issues"), f(dw, "coalescing_rate"),
                100 * f(dn, "dwr_issue_sub1") / f(dn, "dwr_lat_issues"), f(dn, "coalescing_rate"),
                sgn(100 * (f(dn, "cycles") / f(dw, "cycles") - 1)).lstrip("+")))


def headline():
    files = [x for x in FIG4_PAPER if os.path.exists(os.path.join(d, x))]
    rows4 = load_fig4_paper()
    m = per_machine(rows4)
    full = [b for b in benches(rows4) if all((b, c) in m for c in MACHINES)]
    prov = provenance()
    T = []

    def add(claim, paper, ours, ok, cause):
        T.append([claim, paper, ours, ok, cause])

    def sp(b, c, base):
        return f(m[(b, c)], "ipc") / f(m[(b, base)], "ipc")

    n = "%d members, paper size" % len(full)
    # Figure 4c and the abstract: speed-ups
    s64 = [gmean([sp(b, "DWR-64", c) for b in full]) for c in FIXED]
    dram = {b: f(m[(b, "fixed 8")], "dram_bw_utilization") for b in full}
    hi = [b for b in full if dram[b] >= 0.4]
    lo = [b for b in full if dram[b] < 0.4]
    add("Fig. 4c: DWR-64 speed-up over fixed 8 / 16 / 32 / 64 (average of 14)", "+8% / +8% / +11% / +18%",
        " / ".join(pc(x) for x in s64) + " (geomean, %s)" % n, verdict([8, 8, 11, 18], [100 * (x - 1) for x in s64], 3),
        "measured: DWR-64's gain over fixed 8 follows fixed 8's DRAM bandwidth utilization: %s on the %d members "
        "at >= 0.4 (%s), %s on the %d below (mean utilization %.2f); the paper's premise, small warps pressuring "
        "memory, holds on few of our inputs" % (pc(gmean([sp(b, "DWR-64", "fixed 8") for b in hi])) if hi else "-",
                                               len(hi), ", ".join(hi), pc(gmean([sp(b, "DWR-64", "fixed 8") for b in lo]))
                                               if lo else "-", len(lo), amean([dram[b] for b in full])))
    best = {c: max(full, key=lambda b: sp(b, "DWR-64", c)) for c in FIXED}
    mx = [sp(best[c], "DWR-64", c) for c in FIXED]
    add("Abstract: DWR outperforms static warp sizes by up to 1.7x to 2.28x", "1.7x-2.28x",
        "DWR-64, best member over fixed 8 / 16 / 32 / 64: " + " / ".join(
            "%.2fx (%s)" % (x, best[c]) for x, c in zip(mx, FIXED)), "**no**" if max(mx) < 1.5 else "direction only",
        "measured: the largest gain over fixed 64 is where fixed 64 diverges (SIMD efficiency of %s: fixed 64 %.2f, "
        "DWR-64 %.2f); over fixed 8 only memory-bound members gain (DRAM utilization of %s under fixed 8: %.2f; "
        "Fig. 4c row)" % (best["fixed 64"], f(m[(best["fixed 64"], "fixed 64")], "simd_efficiency"),
                          f(m[(best["fixed 64"], "DWR-64")], "simd_efficiency"), best["fixed 8"],
                          dram[best["fixed 8"]]))
    add("Sec. VII: DWR's returns over fixed 8, up to 116%", "up to +116%", "DWR-64: up to %s (%s)" % (
        pc(mx[0]), best["fixed 8"]), "**no**" if mx[0] < 1.5 else "direction only",
        "measured: the coalescing rate DWR-64 restores is at most %.2fx fixed 8's (%s), and fixed 8's DRAM "
        "utilization peaks at %.2f (%s)" % (
            max(f(m[(b, "DWR-64")], "coalescing_rate") / f(m[(b, "fixed 8")], "coalescing_rate") for b in full),
            max(full, key=lambda b: f(m[(b, "DWR-64")], "coalescing_rate") / f(m[(b, "fixed 8")], "coalescing_rate")),
            max(dram.values()), max(full, key=lambda b: dram[b])))
    close = [b for b in full if f(m[(b, "DWR-64")], "ipc") >= 0.97 * max(f(m[(b, c)], "ipc") for c in FIXED)]
    add("Fig. 4c: DWR-64 performs close to the best fixed machine in most members", "most",
        "within 3%% of the best fixed machine on %d of %d" % (len(close), len(full)),
        "yes" if 2 * len(close) > len(full) else "**no**", "")
    # Figure 4a: coalescing
    c64 = gmean([f(m[(b, "DWR-64")], "coalescing_rate") / f(m[(b, "fixed 64")], "coalescing_rate") for b in full])
    c8 = gmean([f(m[(b, "DWR-64")], "coalescing_rate") / f(m[(b, "fixed 8")], "coalescing_rate") for b in full])
    add("Fig. 4a: DWR-64's coalescing rate / fixed 64's; over fixed 8", "97%; +14%",
        "%.1f%%; %s (geomean of per-member ratios)" % (100 * c64, pc(c8)),
        verdict([97, 14], [100 * c64, 100 * (c8 - 1)], 3) if abs(100 * c64 - 97) <= 3 else "**no**",
        "" if abs(100 * c64 - 97) <= 3 and abs(100 * (c8 - 1) - 14) <= 3 else
        "measured: DWR-64 coalesces like fixed 64, as in the paper; the difference is fixed 8's own rate, %.1f%% of "
        "fixed 64's here (geomean) against about 85%% (97/114) in the paper" % (100 * gmean(
            [f(m[(b, "fixed 8")], "coalescing_rate") / f(m[(b, "fixed 64")], "coalescing_rate") for b in full])))
    # Figure 4b: idle cycles
    idle = {c: amean([f(m[(b, c)], "idle_cycle_share") for b in full]) for c in MACHINES}
    red = [100 * (idle["DWR-64"] / idle[c] - 1) for c in FIXED]
    st = [b for b in full if "stall_data" in m[(b, "DWR-64")] and "stall_data" in m[(b, "fixed 8")]]
    cause = "hypothesis: partner-barrier waits (no stall breakdown in these CSVs)"
    if st:
        def wait(b):
            return f(m[(b, "DWR-64")], "dwr_sync_wait_cycles") / f(m[(b, "DWR-64")], "warp_cycles")
        didle = amean([f(m[(b, "DWR-64")], "idle_cycle_share") - f(m[(b, "fixed 8")], "idle_cycle_share") for b in st])
        dd = {k: amean([share(m[(b, "DWR-64")], "stall_" + k) - share(m[(b, "fixed 8")], "stall_" + k) for b in st])
              for k in ("data", "barrier", "fetch", "exit")}
        worst = max(st, key=wait)
        cause = ("measured on the %d members with a stall breakdown (DWR-64 - fixed 8, mean share of scheduler "
                 "cycles): idle %+.3f = scoreboard waits (data) %+.3f, all warps at a barrier %+.3f, fetch %+.3f, "
                 "exit %+.3f; sub-warps spend %.1f%% of their resident cycles waiting for partners "
                 "(dwr_sync_wait_cycles / warp_cycles, mean; most %s, %.1f%%). That the partner waits leave too few "
                 "unlocked sub-warps to cover the scoreboard waits is a hypothesis" % (
                     len(st), didle, dd["data"], dd["barrier"], dd["fetch"], dd["exit"],
                     100 * amean([wait(b) for b in st]), worst, 100 * wait(worst)))
    rank = sorted(MACHINES, key=lambda c: idle[c]).index("DWR-64") + 1
    add("Fig. 4b: idle cycles of DWR-64 vs fixed 8 / 16 / 32 / 64", "-26% / -12% / -17% / -25%",
        " / ".join("%+.1f%%" % x for x in red) + " (ratio of mean shares)", verdict([-26, -12, -17, -25], red, 3), cause)
    add("Fig. 4b: DWR-64 has the lowest mean idle-cycle share", "lowest of 7",
        "rank %d of 7 (%.3f; fixed 8 %.3f)" % (rank, idle["DWR-64"], idle["fixed 8"]), "yes" if rank == 1 else "**no**",
        "as the row above")
    # Figure 2 at paper size: the fixed machines of the Figure 4 runs (the same runs)
    f2 = [b for b in ("backprop", "cp", "hotspot", "mu") if b in full]
    if len(f2) == 4:
        rel = {(b, c): sp(b, c, "fixed 16") for b in f2 for c in FIXED}
        co = [gmean([f(m[(b, c)], "coalescing_rate") for b in f2]) for c in FIXED]
        add("Fig. 2a: coalescing rises with the warp size, little beyond 32 (BKP, CP, HSPT, MU)", "rises, saturates",
            "geomean 8 / 16 / 32 / 64: " + " / ".join("%.1f" % x for x in co),
            "yes" if co[1] > co[0] and co[3] / co[2] < 1.05 else "partly", "saturates at 16 here: 16 threads x 4 bytes "
            "fill one 64-byte line")
        ok = [rel[("backprop", "fixed 64")] > rel[("backprop", "fixed 8")],
              rel[("mu", "fixed 64")] < rel[("mu", "fixed 8")],
              max(FIXED, key=lambda c: rel[("hotspot", c)]) == "fixed 16",
              max(rel[("cp", c)] for c in FIXED) / min(rel[("cp", c)] for c in FIXED) < 1.05]
        add("Fig. 2c: BKP gains with the warp size, MU loses, HSPT best at 16, CP insensitive",
            "as stated", "IPC / fixed 16 at 8, 32, 64: " + "; ".join(
                "%s %s" % (b, " / ".join("%.2f" % rel[(b, c)] for c in ("fixed 8", "fixed 32", "fixed 64"))) for b in f2),
            "yes" if all(ok) else "%d of 4" % sum(ok), "" if all(ok) else "claims that fail: " + ", ".join(
                x for x, o in zip(("BKP gains", "MU loses", "HSPT best at 16", "CP within 5%"), ok) if not o) +
            ("" if ok[1] else "; measured: MU is memory-bound at paper size, its mean memory latency falls from %.0f "
             "cycles (fixed 8) to %.0f (fixed 64) with %.1f%% fewer off-chip requests (DRAM utilization %.2f -> %.2f); "
             "DWR-64 issues %.1f%% of mu's LATs 8-wide (the ILT lets %.1f%% of the arrivals pass unsynchronized), so it keeps fixed 8's requests "
             "(%.1f%% more than fixed 64) and reaches %.2fx fixed 64" % (
                 f(m[("mu", "fixed 8")], "mem_latency"), f(m[("mu", "fixed 64")], "mem_latency"),
                 100 * (1 - f(m[("mu", "fixed 64")], "offchip_requests") / f(m[("mu", "fixed 8")], "offchip_requests")),
                 f(m[("mu", "fixed 8")], "dram_bw_utilization"), f(m[("mu", "fixed 64")], "dram_bw_utilization"),
                 100 * f(m[("mu", "DWR-64")], "dwr_issue_sub1") / (f(m[("mu", "DWR-64")], "dwr_lat_issues") or 1),
                 100 * f(m[("mu", "DWR-64")], "dwr_lat_ignored") / ((f(m[("mu", "DWR-64")], "dwr_lat_ignored") +
                                                                     f(m[("mu", "DWR-64")], "dwr_lat_synced")) or 1),
                 100 * (f(m[("mu", "DWR-64")], "offchip_requests") / f(m[("mu", "fixed 64")], "offchip_requests") - 1),
                 sp("mu", "DWR-64", "fixed 64"))))
        add("Fig. 2b: small warps hide MU's idle cycles; BKP's lost coalescing adds idle cycles at 8",
            "MU idle 8 < 64; BKP idle 8 > 64", "MU %.3f vs %.3f; BKP %.3f vs %.3f" % (
                f(m[("mu", "fixed 8")], "idle_cycle_share"), f(m[("mu", "fixed 64")], "idle_cycle_share"),
                f(m[("backprop", "fixed 8")], "idle_cycle_share"), f(m[("backprop", "fixed 64")], "idle_cycle_share")),
            "yes" if f(m[("mu", "fixed 8")], "idle_cycle_share") < f(m[("mu", "fixed 64")], "idle_cycle_share") and
            f(m[("backprop", "fixed 8")], "idle_cycle_share") > f(m[("backprop", "fixed 64")], "idle_cycle_share")
            else "partly", "hypothesis for BKP: fixed 8 sends %.0f%% more off-chip requests than fixed 64 (coalescing "
            "%.1f vs %.1f) yet idles less, its 8x more warps hiding the waits; not separated by an ablation" % (
                100 * (f(m[("backprop", "fixed 8")], "offchip_requests") / f(m[("backprop", "fixed 64")],
                                                                             "offchip_requests") - 1),
                f(m[("backprop", "fixed 8")], "coalescing_rate"), f(m[("backprop", "fixed 64")], "coalescing_rate"))
            if f(m[("backprop", "fixed 8")], "idle_cycle_share") <= f(m[("backprop", "fixed 64")], "idle_cycle_share")
            else "")
    # Figure 1: 8-wide at paper size from the same runs, wider SIMD from fig1-paper.csv, else small
    w8 = {c: gmean([sp(b, c, "fixed 16") for b in full]) for c in FIXED}
    r1, s1 = load_pref("fig1")
    wide = ""
    if r1:
        k = {(r["bench"], r["simd_width"], r["warp_size"]): f(r, "ipc") for r in r1}
        for w in ("16", "32"):
            ws = [x for x in ("16", "32", "64") if int(x) >= int(w)]
            g = {x: gmean([k[(b, w, x)] / k[(b, "8", "16")] for b in benches(r1) if (b, w, x) in k]) for x in ws}
            wide += "; %s-wide (%s): best warp %s" % (w, s1 + " size" if s1 == "paper" else s1,
                                                     max(ws, key=lambda x: g[x]))
    n8 = "paper size"
    if s1 == "paper":  # Figure 1's own runs: all 14 members (Figure 4's may lack one)
        w8 = {c: gmean([k[(b, "8", c.split()[1])] / k[(b, "8", "16")] for b in benches(r1)]) for c in FIXED}
        n8 = "paper size, %d members" % len(benches(r1))
    b8 = max(FIXED, key=lambda c: w8[c])
    add("Fig. 1: for every SIMD width, warps of 1-2x the SIMD width perform best", "1-2x",
        "8-wide (%s): best warp %s (IPC / warp 16: %s)%s" % (
            n8, b8.split()[1], " / ".join("%.3f" % w8[c] for c in FIXED), wide),
        "yes" if b8 in ("fixed 8", "fixed 16") else "**no**", "")
    # Figure 5: each figure at paper size once its CSV exists, else small
    (r5a, s5a), (r5b, s5b), (r5c, s5c) = load_pref("fig5a"), load_pref("fig5b"), load_pref("fig5c")
    lab = {"small": "**small size**: ", "paper": ""}
    if r5a:
        g = gaps(r5a, "l1d_sets")
        add("Fig. 5a: best DWR over best fixed at 12 / 48 / 192 KB L1D (NNC, MP, MU)", "+4% / +8% / +24%",
            lab[s5a] + "%s / %s / %s" % tuple("%+.1f%%" % (100 * g[v]) for v in ("32", "64", "128")),
            verdict([4, 8, 24], [100 * g[v] for v in ("32", "64", "128")], 3),
            "hypothesis (small size): mp's and mu's partner waits; not yet measured at paper size"
            if s5a == "small" else
            "measured, best DWR / best fixed " + member_gap_text(r5a, "l1d_sets", ("32", "64", "128")) +
            " (L1D sets; 32 = 12 KB, 64 = 48 KB, 128 = 192 KB); " +
            ((fig5a_ablation_cause() + "; why mp and nnc move was not measured") if fig5a_ablation_cause()
             else "why each member moves was not measured"))
    if r5b:
        g = gaps(r5b, "simd_width")
        add("Fig. 5b: best DWR over best fixed at 8 / 16 / 32-wide SIMD (NNC, MP, MU)", "+8% / +7% / +5%",
            lab[s5b] + "%s / %s / %s" % tuple("%+.1f%%" % (100 * g[v]) for v in ("8", "16", "32")),
            verdict([8, 7, 5], [100 * g[v] for v in ("8", "16", "32")], 3),
            "hypothesis (small size): wider sub-warps leave fewer sub-warps per SM to hide partner waits "
            "(mu's idle share 0.133 -> 0.683, small)" if s5b == "small" else
            "measured, best DWR / best fixed " + member_gap_text(r5b, "simd_width", ("8", "16", "32")) +
            ": DWR gains only on mp; " + (fig5b_ablation_cause() or "why mu and nnc lose was not measured"))
    if r5c:
        k = {(r["bench"], r["dwr_ilt_entries"]): r for r in r5c}
        b5 = benches(r5c)
        g = [gmean([f(k[(b, e)], "ipc") / f(k[(b, "32")], "ipc") for b in b5]) for e in ("16", "8")]
        ev = {b: f(k[(b, "8")], "dwr_ilt_evictions") for b in b5}
        ign = {b: (f(k[(b, "8")], "dwr_lat_ignored"), f(k[(b, "32")], "dwr_lat_ignored")) for b in b5}
        ev_b = [b for b in b5 if ev[b]]
        add("Fig. 5c: 16- and 8-entry ILTs reach 99% of the 32-entry one", "99%",
            lab[s5c] + "%.1f%% / %.1f%%" % (100 * g[0], 100 * g[1]), "yes" if min(g) >= 0.99 else "**no**",
            "no ILT evicts at 8 entries on these inputs" if not ev_b else
            "measured: at 8 entries the ILT evicts on %s (%s) and lets %s LAT arrivals pass unsynchronized "
            "(32 entries: %s); IPC / 32 entries at 8 entries: %s" % (
                ", ".join(ev_b), ", ".join("%s %d" % (b, ev[b]) for b in ev_b),
                ", ".join("%s %d" % (b, ign[b][0]) for b in ev_b), ", ".join("%s %d" % (b, ign[b][1]) for b in ev_b),
                ", ".join("%s %.4f" % (b, f(k[(b, "8")], "ipc") / f(k[(b, "32")], "ipc")) for b in ev_b)))
    # Table 1 / Section IV.E: the ILT
    ins = {b: f(m[(b, "DWR-64")], "dwr_ilt_inserts") for b in full}
    users = [b for b in full if ins[b] > 0]
    add("Table 1, Sec. IV.E: members whose LATs the ILT ignores (DWR-64); most ILT PCs",
        "%s; 11 of 14 store none (Table 1 lists 5); MP most, 36" % ", ".join(
            "%s %d" % (b, PAPER_ILT[b]) for b in sorted(PAPER_ILT)),
        "%s; %d of %d store none; most %s (ILT insertions summed over SMs and launches)" % (
            ", ".join("%s %d" % (b, ins[b]) for b in sorted(users)), len(full) - len(users), len(full),
            max(full, key=lambda b: ins[b])),
        "yes" if set(users) == set(PAPER_ILT) else "partly",
        "members: ours %s, paper %s" % (", ".join(sorted(users)), ", ".join(sorted(PAPER_ILT))))
    lat = {b: static_lats(b) for b in ORDER}
    add("Table 1: LATs per member (static)", ", ".join("%s %d" % (b, PAPER_LAT[b]) for b in ORDER),
        ", ".join("%s %d" % (b, lat[b]) for b in ORDER) + " (without ld.param: %s)" % ", ".join(
            "%s %d" % (b, static_lats(b, False)) for b in ORDER), "%d of 14 equal" % sum(lat[b] == PAPER_LAT[b] for b in ORDER),
        "measured where the original runs here (docs/workloads.md, DWR table; PTX without ld.param): cp and nqu "
        "have exactly the counts of GPGPU-Sim's ISPASS-2009 CP (cuda_short) and NQU, which are not the paper's either; "
        "for the others, that our ports' PTX (nvcc of today, parameters read by ld.param) is not the paper's "
        "binaries is a hypothesis, not compared instruction by instruction")
    add("Abstract, Sec. IV.E: area overhead below 1%", "<1%", "not modelled", "-", "warpsim has no area model")
    srcs = ", ".join("%s%s" % (os.path.join(d, x), " (" + prov[x] + ")" if x in prov else "") for x in files)
    missing = sorted(set(ORDER) - set(full))
    own = [(x, n) for x, n, r in (("fig2-paper.csv", "Figure 2's 16 runs rerun on their own", load_csv("fig2-paper.csv")),
                                  ("fig1-paper.csv", "Figure 1", r1 if s1 == "paper" else None),
                                  ("fig5a-paper.csv", "Figure 5a", r5a if s5a == "paper" else None),
                                  ("fig5b-paper.csv", "Figure 5b", r5b if s5b == "paper" else None),
                                  ("fig5c-paper.csv", "Figure 5c", r5c if s5c == "paper" else None)) if r]
    small = [n for n, s in (("the wider SIMD widths of Figure 1", s1), ("Figure 5a", s5a), ("Figure 5b", s5b),
                            ("Figure 5c", s5c)) if s == "small"]
    head = ("Paper size unless marked: Figure 4 and 2 from %s (%d of 14 members%s)%s%s. 'yes': within 3 points of "
            "the paper (or as stated); 'direction only': same sign.\n\n" % (
                srcs, len(full), "; missing: " + ", ".join(missing) if missing else "",
                "".join("; %s: %s%s" % (n, os.path.join(d, x), " (" + prov[x] + ")" if x in prov else "")
                        for x, n in own),
                "; %s from the small-size CSVs" % ", ".join(small) if small else ""))
    return head + table(["claim (paper)", "paper", "warpsim", "reproduces", "cause (measured) or hypothesis"], T)


def fig4_paper():
    """Figure 4 at paper size: the three tables, the summary, the mechanism and where DWR-64's idle cycles go"""
    rows4 = load_fig4_paper()
    t, m, bs = fig4(rows4)
    out = t + "\nSummary\n\n" + fig4_summary(m, bs) + "\nDWR-64 mechanism\n\n" + dwr_detail(m, bs)
    body = []
    for b in bs:
        r8, r64 = m.get((b, "fixed 8")), m.get((b, "DWR-64"))
        if not r8 or not r64 or "stall_barrier" not in r64:
            continue
        wc = f(r64, "warp_cycles") or 1
        body.append([b, "%+.1f%%" % (100 * (f(r64, "ipc") / f(r8, "ipc") - 1)),
                     "%.3f / %.3f" % (f(r8, "idle_cycle_share"), f(r64, "idle_cycle_share")),
                     "%.3f / %.3f" % (share(r8, "stall_data"), share(r64, "stall_data")),
                     "%.3f / %.3f" % (share(r8, "stall_barrier"), share(r64, "stall_barrier")),
                     "%.1f%%" % (100 * f(r64, "dwr_sync_wait_cycles") / wc),
                     "%.1f%%" % (100 * f(r64, "warp_barrier_cycles") / wc),
                     "%.2f" % f(r8, "dram_bw_utilization")])
    if body:
        out += ("\nWhere DWR-64's idle cycles go (against fixed 8; shares of scheduler cycles, a cycle without issue "
                "counted under the highest-ranked reason among its warps; sub-warp cycles as shares of warp_cycles)\n\n" +
                table(["benchmark", "DWR-64 over fixed 8", "idle share fixed 8 / DWR-64",
                       "of it scoreboard waits (stall_data)", "all warps at a barrier (stall_barrier)", "sub-warp cycles waiting for partners",
                       "sub-warp cycles at bar.sync", "DRAM utilization fixed 8"], body))
    f2 = [r for r in rows4 if r["bench"] in ("backprop", "cp", "hotspot", "mu") and machine(r) in FIXED]
    r2 = load_csv("fig2-paper.csv")
    if r2:
        out += ("\n#### Figure 2 at paper size\n\nIts own sweep, %s (its tables: [Figure 2 (paper size)](#figure-2-paper-size)). "
                "%s\n" % (os.path.join(d, "fig2-paper.csv"), same_runs_text("fig2-paper.csv", r2, machine)))
    elif {r["bench"] for r in f2} == {"backprop", "cp", "hotspot", "mu"}:
        out += ("\n#### Figure 2 at paper size (BKP, CP, HSPT, MU: the fixed machines of the runs above)\n" +
                fig4(f2, cols=FIXED)[0])
    return out


def ilt_base(r):
    """Figure 5c's 32-entry, 8-way ILT is the default one: that row is Figure 4's DWR-64 run"""
    return machine(r) if (r.get("dwr_ilt_entries"), r.get("dwr_ilt_ways")) == ("32", "8") else None


def paper_fig(fig):
    """the tables of one figure at paper size (FIG-paper.csv), for docs/dwr.md's 'Tables' beside the small ones"""
    rows = load_csv("%s-paper.csv" % fig)
    if not rows:
        return "Not yet run at paper size.\n"
    prov = provenance().get("%s-paper.csv" % fig)
    out = "From %s%s, %d runs.\n" % (os.path.join(d, fig + "-paper.csv"), " (" + prov + ")" if prov else "", len(rows))
    if fig == "fig2":
        out += fig4(rows, cols=FIXED)[0]
        chk = same_runs_text("fig2-paper.csv", rows, machine)
    elif fig == "fig5c":
        out += "\n" + fig5c(rows)
        chk = same_runs_text("fig5c-paper.csv", rows, ilt_base)
    elif fig == "fig1":
        out += "\n" + fig1(rows)
        pts = [(w, ws) for w in (8, 16, 32) for ws in (8, 16, 32, 64) if ws >= w]
        k = {(r["bench"], int(r["simd_width"]), int(r["warp_size"])): f(r, "ipc") for r in rows}
        body = [[b] + ["%.3f" % (k[(b, w, ws)] / k[(b, 8, 16)]) if (b, w, ws) in k and (b, 8, 16) in k else "-"
                       for w, ws in pts] for b in benches(rows)]
        out += "\nPer member (IPC / 8-wide, warp 16; SIMD width / warp size)\n\n" + table(
            ["benchmark"] + ["%d / %d" % p for p in pts], body)
        chk = same_runs_text("fig1-paper.csv", rows, lambda r: machine(r) if r["simd_width"] == "8" else None)
    else:
        out += fig5(rows, {"fig5a": "l1d_sets", "fig5b": "simd_width"}[fig],
                    {"fig5a": "L1D sets", "fig5b": "SIMD width"}[fig])
        chk = ""
    return out + ("\n" + chk + "\n" if chk else "")


PAPER_FIGS = ["fig1", "fig2", "fig5a", "fig5b", "fig5c"]  # the figures whose paper-size tables docs/dwr.md has a section for


def fill(path, key, text):
    doc = open(path).read()
    new = re.sub(r"(<!-- dwr-tables:%s -->\n).*?(<!-- /dwr-tables -->)" % key,
                 lambda mo: mo.group(1) + text + mo.group(2), doc, flags=re.S)
    if new == doc and ("<!-- dwr-tables:%s -->" % key) not in doc:
        sys.exit("dwr-tables: no '<!-- dwr-tables:%s -->' marker in %s" % (key, path))
    open(path, "w").write(new)


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


if HEADLINE:
    t = "<!-- generated by scripts/dwr-tables.py docs/dwr headline -->\n" + headline()
    t2 = "<!-- generated by scripts/dwr-tables.py docs/dwr headline -->\n" + fig4_paper()
    if len(sys.argv) > 3:
        fill(sys.argv[3], "headline", t)
        fill(sys.argv[3], "fig4-paper", t2)
        for fg in PAPER_FIGS:
            fill(sys.argv[3], fg + "-paper", "<!-- generated by scripts/dwr-tables.py docs/dwr headline -->\n" +
                 paper_fig(fg))
        fill(sys.argv[3], "fig5b-ablation", "<!-- generated by scripts/dwr-tables.py docs/dwr headline -->\n" +
             fig5b_ablation())
        fill(sys.argv[3], "fig5a-ablation", "<!-- generated by scripts/dwr-tables.py docs/dwr headline -->\n" +
             fig5a_ablation())
    else:
        print(t + "\n## Figure 4 (paper size)\n" + t2)
        for fg in PAPER_FIGS:
            print("\n## %s (paper size)\n" % fg + paper_fig(fg))
        print("\n## Figure 5b ablation (paper size)\n" + fig5b_ablation())
        print("\n## Figure 5a ablation (paper size)\n" + fig5a_ablation())
else:
    main()
