#!/usr/bin/env python3
"""energy-compare.py -- warpsim's event-energy estimate beside GPGPU-Sim's power
model (AccelWattch, GPGPU-Sim 4.2) on the same runs (issue 27, item 4).
Standard library only.

    scripts/energy-compare.py [--warpsim build/warpsim] [--csv FILE] [--doc PAGE --key KEY] REFDIR...

Each REFDIR is a GPGPU-Sim reference of tests/correlation/CONFIG/ (BENCH_POLICY/)
made with POWER=XML by tests/correlation/make-refs.sh: its gpgpusim-out.txt
(per-kernel cycles, the core clock), its size file and accelwattch.txt (each
kernel's average power and components).  The warpsim side is the same
benchmark, size and policy on the configuration named by the directory's
correlate.conf (`config` line; without one, configs/gtx480.cfg as `warpsim
correlate`), run once per reference.

AccelWattch's energy of a launch is its average power times its cycles over
the core clock, summed over launches.  Its components are grouped as warpsim
groups its estimate: "static" = constant power (CONSTP) + static power
(STATICP) + the idle-SM power (IDLE_COREP), everything else "dynamic";
warpsim's static is energy_static_w x run time, its dynamic the event sum.

Prints one markdown table (per run, then per kernel GTO/LRR energy as the
papers report it, then the summary line); --csv writes the per-run rows;
--doc PAGE --key KEY puts the same text between PAGE's markers
`<!-- energy-tables:KEY -->` and `<!-- /energy-tables -->` (scripts/doc_tables.py).
"""
import csv, io, json, os, re, subprocess, sys, tempfile
from contextlib import redirect_stdout

STATIC_KEYS = ("gpu_avg_CONSTP", "gpu_avg_STATICP", "gpu_avg_IDLE_COREP")


def usage():
    sys.exit("usage: scripts/energy-compare.py [--warpsim build/warpsim] [--csv FILE] [--doc PAGE --key KEY] REFDIR...")


def read_accelwattch(path):
    """[(avg_power_W, static_W)] per launch, in launch order."""
    launches = []
    cur = None
    for line in open(path):
        m = re.match(r"kernel_avg_power = ([0-9.eE+-]+)", line)
        if m:
            cur = {"total": float(m.group(1)), "static": 0.0}
            launches.append(cur)
            continue
        m = re.match(r"(gpu_avg_[A-Z_]+P),? = (\S+)", line)
        if m and cur is not None and m.group(1) in STATIC_KEYS:
            cur["static"] += float(m.group(2))  # "-nan" when the launch had no power sample
    return [(l["total"], l["static"]) for l in launches]


def read_gpgpusim(path):
    """(per-launch cycles, core clock in MHz)"""
    cycles, clock = [], None
    for line in open(path):
        m = re.match(r"gpu_sim_cycle = (\d+)", line)
        if m:
            cycles.append(int(m.group(1)))
        m = re.match(r"-gpgpu_clock_domains\s+([0-9.]+):", line)
        if m and clock is None:
            clock = float(m.group(1))
    return cycles, clock


def config_of(refdir):
    conf = os.path.join(os.path.dirname(os.path.abspath(refdir)), "correlate.conf")
    for line in open(conf):
        f = line.split()
        if len(f) == 2 and f[0] == "config":
            return f[1]
    return "configs/gtx480.cfg"  # warpsim correlate's default, as tests/correlation/gpgpusim/correlate.conf has it


def run_warpsim(warpsim, bench, size, config, sched):
    with tempfile.TemporaryDirectory() as t:
        js = os.path.join(t, "stats.json")
        r = subprocess.run([warpsim, "run", bench, "--size", size, "--config", config, "--sched", sched, "--stats", js],
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            sys.exit(f"energy-compare: warpsim run {bench} {size} {sched} failed: {r.stderr.strip()[-300:]}")
        d = json.load(open(js))
    dv = d["derived"]
    return d["stats"]["cycles"] if "cycles" in d["stats"] else dv.get("cycles"), dv["energy_j"], dv["energy_static_j"]


def main():
    args = sys.argv[1:]
    warpsim, csv_out, doc, key, refs = "build/warpsim", None, None, None, []
    while args:
        a = args.pop(0)
        if a == "--warpsim" and args:
            warpsim = args.pop(0)
        elif a == "--csv" and args:
            csv_out = args.pop(0)
        elif a == "--doc" and args:
            doc = args.pop(0)
        elif a == "--key" and args:
            key = args.pop(0)
        elif a.startswith("-"):
            usage()
        else:
            refs.append(a.rstrip("/"))
    if not refs or (doc is None) != (key is None):
        usage()
    if doc is None:
        compare(warpsim, csv_out, refs)
        return
    text = io.StringIO()
    with redirect_stdout(text):
        compare(warpsim, csv_out, refs)
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import doc_tables
    # the page's other energy sections keep their text
    bodies = {m.group(1): m.group(2) for m in re.finditer(r"<!-- energy-tables:([\w-]+) -->\n(.*?)<!-- /energy-tables -->",
                                                          open(doc).read(), flags=re.S)}
    bodies[key] = text.getvalue()
    found = doc_tables.fill(doc, "energy", bodies)
    if key not in found:
        sys.exit(f"energy-compare: {doc} has no marker <!-- energy-tables:{key} -->")
    sys.stdout.write(text.getvalue())


def compare(warpsim, csv_out, refs):
    rows, skipped = [], []
    for ref in sorted(refs):
        name = os.path.basename(ref)
        bench, _, sched = name.rpartition("_")
        aw_path = os.path.join(ref, "accelwattch.txt")
        if not os.path.exists(aw_path):
            print(f"energy-compare: {ref}: no accelwattch.txt (make-refs.sh with POWER=...), skipped", file=sys.stderr)
            continue
        launches = read_accelwattch(aw_path)
        cycles, clock = read_gpgpusim(os.path.join(ref, "gpgpusim-out.txt"))
        if len(launches) != len(cycles) or not clock:
            sys.exit(f"energy-compare: {ref}: {len(launches)} power sections for {len(cycles)} launches")
        # a launch shorter than AccelWattch's sampling period gets no sample (power 0, components nan)
        nosample = [c for (p, st), c in zip(launches, cycles) if p == 0 or st != st]
        if nosample:
            skipped.append(f"{name}: AccelWattch has no power sample for {len(nosample)} of its {len(cycles)} launches "
                           f"({', '.join(str(c) for c in nosample)} cycles: shorter than its sampling period)")
            continue
        aw_j = sum(p * c / (clock * 1e6) for (p, _), c in zip(launches, cycles))
        aw_static_j = sum(s * c / (clock * 1e6) for (_, s), c in zip(launches, cycles))
        size = open(os.path.join(ref, "size")).read().strip() if os.path.exists(os.path.join(ref, "size")) else "paper"
        config = config_of(ref)
        w_cycles, w_j, w_static_j = run_warpsim(warpsim, bench, size, config, sched)
        rows.append({
            "bench": bench, "sched": sched, "size": size, "config": config,
            "gpgpusim_cycles": sum(cycles), "accelwattch_uj": aw_j * 1e6, "accelwattch_static_share": aw_static_j / aw_j,
            "accelwattch_dynamic_uj": (aw_j - aw_static_j) * 1e6, "accelwattch_avg_w": aw_j / (sum(cycles) / (clock * 1e6)),
            "warpsim_cycles": w_cycles, "warpsim_uj": w_j * 1e6, "warpsim_static_share": w_static_j / w_j,
            "warpsim_dynamic_uj": (w_j - w_static_j) * 1e6, "warpsim_avg_w": w_j / (w_cycles / (clock * 1e6)),
        })
    if not rows:
        sys.exit("energy-compare: no reference with accelwattch.txt")
    if csv_out:
        with open(csv_out, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()), lineterminator="\n")
            w.writeheader()
            for r in rows:
                w.writerow({k: (f"{v:.6g}" if isinstance(v, float) else v) for k, v in r.items()})
    print("| kernel | policy | size | AccelWattch energy (uJ) | its static share | its avg power (W) "
          "| warpsim energy (uJ) | its static share | its avg power (W) | warpsim / AccelWattch: energy | dynamic energy |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['bench']} | {r['sched']} | {r['size']} | {r['accelwattch_uj']:.1f} | {100 * r['accelwattch_static_share']:.0f}% "
              f"| {r['accelwattch_avg_w']:.1f} | {r['warpsim_uj']:.1f} | {100 * r['warpsim_static_share']:.0f}% "
              f"| {r['warpsim_avg_w']:.1f} | {r['warpsim_uj'] / r['accelwattch_uj']:.2f} "
              f"| {r['warpsim_dynamic_uj'] / r['accelwattch_dynamic_uj']:.2f} |")
    by = {}
    for r in rows:
        by.setdefault(r["bench"], {})[r["sched"]] = r
    pairs = [(b, v["lrr"], v["gto"]) for b, v in sorted(by.items()) if "lrr" in v and "gto" in v]
    if pairs:
        print()
        print("| kernel | energy LRR / GTO: AccelWattch | warpsim | dynamic energy LRR / GTO: AccelWattch | warpsim |")
        print("|---|---:|---:|---:|---:|")
        for b, l, g in pairs:
            print(f"| {b} | {l['accelwattch_uj'] / g['accelwattch_uj']:.3f} | {l['warpsim_uj'] / g['warpsim_uj']:.3f} "
                  f"| {l['accelwattch_dynamic_uj'] / g['accelwattch_dynamic_uj']:.3f} "
                  f"| {l['warpsim_dynamic_uj'] / g['warpsim_dynamic_uj']:.3f} |")
    for line in skipped:
        print(f"\nnot compared: {line}")
    n = len(rows)
    mape = sum(abs(r["warpsim_uj"] / r["accelwattch_uj"] - 1) for r in rows) / n * 100
    dmape = sum(abs(r["warpsim_dynamic_uj"] / r["accelwattch_dynamic_uj"] - 1) for r in rows) / n * 100
    print()
    print(f"{n} runs: energy MAPE {mape:.1f}%, dynamic-energy MAPE {dmape:.1f}%; static share: AccelWattch "
          f"{100 * min(r['accelwattch_static_share'] for r in rows):.0f}-{100 * max(r['accelwattch_static_share'] for r in rows):.0f}%, "
          f"warpsim {100 * min(r['warpsim_static_share'] for r in rows):.0f}-{100 * max(r['warpsim_static_share'] for r in rows):.0f}%")


if __name__ == "__main__":
    main()
