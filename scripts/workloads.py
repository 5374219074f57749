#!/usr/bin/env python3
"""workloads.py -- the fidelity tables of docs/workloads.md (issue 23, item 1): each
bundled benchmark beside the public program its paper ran, both through warpsim on
the paper's GPU configuration under LRR and GTO.

  scripts/workloads.py [--tables FILE] [--out FILE] [--work DIR] [--only KEY,...]
                       [--manifest FILE] [--src SUITE=DIR]... [--timeout SEC] [--no-run]

For every row of scripts/workloads.tables (one table per paper): OURS runs as
`warpsim run OURS --size paper --config CFG --sched lrr|gto --stats F.json`; the
ORIGINAL is built, given its input and run by scripts/suites.sh (`warpsim cuda
--summary`, its own check read), with scripts/workloads-nvcc.sh as nvcc so its PTX
can be read.  Both give the same summary JSON (every counter and derived metric
over all launches), from which each cell comes:

  launches      stats.kernels                   CTAs/launch   stats.ctas / launches
  threads/CTA   stats.warps / stats.ctas x warp_size (whole warps)
  CTAs/SM       occupancy.ctas_per_sm (of each kernel; a range when they differ)
  static bar.   bar/barrier.sync|red|arrive in the PTX of the kernels that ran
  LATs          ld/st/atom/red.global in the PTX of the kernels that ran
  dyn. bar.     stats.barriers (CTA barrier releases)
  warp insts    stats.warp_insts (of the LRR run)
  bar+exit      derived.barrier_stall_fraction + exit_stall_fraction (warp time)
  RTRU          derived.rtru_mean (BAWS eq. 1, mean over warp-phases)
  IPC, cycles   derived.ipc, stats.cycles;  GTO/LRR = cycles LRR / cycles GTO

Each run's cells are cached in WORK/runs/KEY.json, KEY a hash of the run's
command, the warpsim executable and the configuration file's contents (a
rebuilt simulator or an edited config file runs it again), so an interrupted
run resumes and a rerun only writes the page;
--no-run writes the page from the cache alone ("not run" where a run is missing),
--only runs the named tables only (the others from the cache).  At the end it
prints the CPU time of the runs it executed and of all runs behind the page.
"""
import argparse
import hashlib
import json
import os
import re
import resource
import shlex
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
POLICIES = ("lrr", "gto")


def die(msg):
    sys.stderr.write("workloads.py: error: %s\n" % msg)
    sys.exit(2)


# ---- the tables file ----------------------------------------------------------
def read_tables(path):
    papers = []
    with open(path) as f:
        for ln, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            w = line.split()
            where = "%s:%d" % (path, ln)
            if w[0] == "paper":
                if len(w) < 5:
                    die("%s: 'paper KEY CONFIG GPU TITLE' wanted" % where)
                papers.append(dict(key=w[1], config=w[2], gpu=w[3], title=" ".join(w[4:]), text=[], rows=[]))
            elif not papers:
                die("%s: '%s' before any 'paper' line" % (where, w[0]))
            elif w[0] == "text":
                papers[-1]["text"].append(" ".join(w[1:]))
            elif w[0] == "row":
                if len(w) < 4:
                    die("%s: 'row OURS ORIGINAL SIZE [KEY=VALUE]...' wanted" % where)
                vals = {}
                for kv in w[4:]:
                    if "=" not in kv:
                        die("%s: '%s' is not KEY=VALUE" % (where, kv))
                    k, v = kv.split("=", 1)
                    vals[k] = v
                orig = None if w[2] == "-" else w[2]
                if orig and ("/" not in orig or w[3] not in ("paper", "small")):
                    die("%s: ORIGINAL is SUITE/PROGRAM with a size paper or small" % where)
                papers[-1]["rows"].append(dict(ours=w[1], orig=orig, size=w[3], paper=vals, why=""))
            elif w[0] == "why":
                rows = [r for r in papers[-1]["rows"] if r["ours"] == w[1]]
                if not rows:
                    die("%s: 'why %s' before its row" % (where, w[1]))
                rows[-1]["why"] = " ".join(w[2:])
            else:
                die("%s: unknown key '%s' (paper text row why)" % (where, w[0]))
    return papers


def read_manifest(path):
    """{(suite, program): {"dir": DIR, "run": {size: command}}} of a suites.sh manifest"""
    progs, suite, cur = {}, None, None
    with open(path) as f:
        for line in f:
            w = line.strip().split(None, 1)
            if not w or w[0].startswith("#"):
                continue
            val = w[1] if len(w) > 1 else ""
            if w[0] == "suite":
                suite, cur = val, None
            elif w[0] == "program":
                cur = progs.setdefault((suite, val), {"dir": ".", "run": {}})
            elif cur is not None and w[0] == "dir":
                cur["dir"] = val
            elif cur is not None and w[0] == "run":
                size, _, cmd = val.partition(" ")
                cur["run"][size] = cmd.strip()
    return progs


# ---- PTX: static counts of the kernels that ran --------------------------------
BARRIER = re.compile(r"^\s*(?:@!?%\w+\s+)?(?:bar|barrier)(?:\.cta)?\.(?:sync|red|arrive)\b", re.M)
GLOBAL_MEM = re.compile(r"^\s*(?:@!?%\w+\s+)?(?:ld|st|atom|red)\.global\b", re.M)
ENTRY = re.compile(r"\.entry\s+([\w$]+)")


def ptx_entries(text):
    """{entry name: its text up to the next .entry/.func}"""
    out = {}
    marks = [(m.start(), m.group(1)) for m in ENTRY.finditer(text)]
    marks += [(m.start(), None) for m in re.finditer(r"^\s*\.(?:visible\s+|weak\s+)?func\b", text, re.M)]
    marks.sort()
    for i, (pos, name) in enumerate(marks):
        if name:
            end = marks[i + 1][0] if i + 1 < len(marks) else len(text)
            out.setdefault(name, "")
            out[name] += text[pos:end]
    return out


def fatbin_ptx(exe):
    """the PTX texts of an executable built with nvcc --no-compress ('' if none)"""
    try:
        data = subprocess.run(["objcopy", "-O", "binary", "--only-section=.nv_fatbin", exe, "/dev/stdout"],
                              capture_output=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return ""
    texts = [t.decode("latin-1") for t in data.split(b"\0") if b".version" in t and b".entry" in t]
    return "\n".join(t[t.index(".version"):] for t in texts)


def static_counts(ptx, kernels):
    """(barriers, global-memory instructions) summed over the kernels that ran, or (None, None)"""
    ents = ptx_entries(ptx)
    if not kernels or any(k not in ents for k in kernels):
        return None, None
    return (sum(len(BARRIER.findall(ents[k])) for k in kernels),
            sum(len(GLOBAL_MEM.findall(ents[k])) for k in kernels))


# ---- runs --------------------------------------------------------------------------
def cells(summary, warp_size):
    """the cells of a run from its summary JSON (the format of warpsim run --stats)"""
    st, dv = summary.get("stats", {}), summary.get("derived", {})
    occ = summary.get("occupancy", [])
    n = st.get("kernels", 0)
    return dict(launches=n, ctas=st.get("ctas", 0), warps=st.get("warps", 0),
                threads=round(st["warps"] / st["ctas"]) * warp_size if st.get("ctas") else None,
                ctas_sm=sorted({o.get("ctas_per_sm") for o in occ if o.get("ctas_per_sm") is not None}),
                kernels=[o["kernel"] for o in occ], dyn_bar=st.get("barriers", 0),
                warp_insts=st.get("warp_insts", 0), thread_insts=st.get("thread_insts", 0),
                cycles=st.get("cycles", 0), ipc=dv.get("ipc"),
                barexit=(dv.get("barrier_stall_fraction") or 0) + (dv.get("exit_stall_fraction") or 0),
                rtru=dv.get("rtru_mean"))


class Runner:
    def __init__(self, a):
        self.a = a
        self.cache = os.path.join(a.work, "runs")
        os.makedirs(self.cache, exist_ok=True)
        self.executed, self.cpu_new, self.running = 0, 0.0, True
        self.manifest = read_manifest(a.manifest)
        self.commit = git_commit(a.out)

    def model(self, config):
        """What a run's numbers depend on besides its command: the simulator and the config file's contents."""
        h = hashlib.sha1()
        for path in (self.a.warpsim, os.path.join(ROOT, config) if not os.path.isabs(config) else config):
            with open(path, "rb") as f:
                h.update(hashlib.sha1(f.read()).digest())
        return h.hexdigest()[:16]

    def cached(self, desc, fn, model):
        key = hashlib.sha1(json.dumps([desc, model]).encode()).hexdigest()[:16]
        path = os.path.join(self.cache, key + ".json")
        if os.path.exists(path):
            with open(path) as f:
                return json.load(f)
        if self.a.no_run or not self.running:
            return dict(status="not run")
        sys.stderr.write("workloads.py: running %s\n" % " ".join(desc))
        r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.time()
        res = fn()
        r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        res["cpu_s"] = round(r1.ru_utime - r0.ru_utime + r1.ru_stime - r0.ru_stime, 2)
        res["wall_s"] = round(time.time() - t0, 2)
        res["command"] = desc
        res["commit"] = self.commit
        self.executed += 1
        self.cpu_new += res["cpu_s"]
        sys.stderr.write("workloads.py:   %s, %.1f CPU s\n" % (res.get("status"), res["cpu_s"]))
        with open(path + ".tmp", "w") as f:
            json.dump(res, f, indent=1)
        os.replace(path + ".tmp", path)
        return res

    def warp_size(self, config):
        out = subprocess.run([self.a.warpsim, "config", "--config", config], capture_output=True, text=True)
        m = re.search(r"^warp_size = (\d+)", out.stdout, re.M)
        return int(m.group(1)) if m else 32

    def ours(self, name, size, config, policy):
        desc = [self.a.warpsim_name, "run", name, "--size", size, "--config", config, "--sched", policy]

        def run():
            out = os.path.join(self.a.work, "ours", "%s.%s.%s.%s.json" % (name, size, os.path.basename(config), policy))
            os.makedirs(os.path.dirname(out), exist_ok=True)
            try:
                p = subprocess.run(["nice", "-n", "10", self.a.warpsim, "run", name, "--size", size, "--config", config,
                                    "--sched", policy, "--stats", out, "--quiet"], capture_output=True, text=True,
                                   timeout=self.a.timeout or None, cwd=ROOT)
            except subprocess.TimeoutExpired:
                return dict(status="timeout", reason="no exit after %d s" % self.a.timeout)
            if not os.path.exists(out):
                return dict(status="run-failed", reason=(p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1])
            with open(out) as f:
                res = cells(json.load(f), self.warp_size(config))
            res["status"] = "ok" if p.returncode == 0 else "check-failed"
            with open(os.path.join(ROOT, "bench", name, "kernel.ptx")) as f:
                res["static_bar"], res["lats"] = static_counts(f.read(), res["kernels"])
            return res

        return self.cached(desc, run, self.model(config))

    def original(self, prog, size, config, policy):
        suite, name = prog.split("/", 1)
        desc = ["suites.sh", "--manifest", os.path.relpath(self.a.manifest, ROOT), "--suite", suite, "--program", name,
                "--size", size, "--config", config, "--sched", policy]
        entry = self.manifest.get((suite, name))
        if entry is None:
            die("%s is not in %s" % (prog, self.a.manifest))

        def run():
            work = os.path.join(self.a.work, "suites")
            csvp = os.path.join(work, "results.csv")
            cmd = [os.path.join(ROOT, "scripts", "suites.sh"), "--manifest", self.a.manifest, "--suite", suite,
                   "--program", name, "--size", size, "--config", config, "--sched", policy, "--work", work,
                   "--csv", csvp, "--timeout", str(self.a.timeout), "--nvcc",
                   os.path.join(ROOT, "scripts", "workloads-nvcc.sh"), "--warpsim", self.a.warpsim]
            for s in self.a.src:
                cmd += ["--src", s]
            env = dict(os.environ, WORKLOADS_NVCC=self.a.nvcc)
            p = subprocess.run(["nice", "-n", "10"] + cmd, capture_output=True, text=True, env=env, cwd=ROOT)
            if p.returncode == 2:
                return dict(status="suites-error", reason=(p.stderr.strip().splitlines() or ["exit 2"])[-1])
            import csv
            rows = [r for r in csv.DictReader(open(csvp)) if r["suite"] == suite and r["program"] == name
                    and r["sched"] == policy and r["config"] == os.path.basename(config)]
            if not rows:
                return dict(status="suites-error", reason="no row in %s" % csvp)
            row = rows[-1]
            res = dict(status=row["status"], verification=row["verification"], reason=row["reason"],
                       args=row["args"], size=row["size"])
            tag = re.sub(r"[^A-Za-z0-9_.+=-]", "_", "%s.%s.%s.%s.default.%s" % (
                suite, name, row["size"], policy, os.path.basename(config)))
            summ = os.path.join(work, "logs", tag + ".summary.json")
            if os.path.exists(summ) and row["status"] in ("ok", "check-failed"):
                with open(summ) as f:
                    res.update(cells(json.load(f), self.warp_size(config)))
                exe = shlex.split(row["args"])[0]
                ptx = fatbin_ptx(os.path.join(work, "src", suite, entry["dir"], exe))
                res["static_bar"], res["lats"] = static_counts(ptx, res["kernels"])
            return res

        return self.cached(desc, run, self.model(config))


def git_commit(page=None):
    """HEAD of this repository (short), '+' when its tracked files differ from it (the page this script
    writes, PAGE, not counted: a run of one table rewrites it before the next table's run starts)"""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=ROOT).stdout.strip()
        rel = os.path.relpath(page, ROOT) if page else ".."
        spec = [".", ":(exclude)" + rel] if not rel.startswith("..") else []
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no", "--"] + spec,
                               capture_output=True, text=True, cwd=ROOT).stdout.strip()
    except OSError:
        return "unknown"
    return (head + ("+" if dirty else "")) or "unknown"


# ---- the page -------------------------------------------------------------------
def num(v, fmt="{:,}"):
    return "n/a" if v is None else fmt.format(v)


def pct(v):
    return "n/a" if v is None else "%.1f%%" % (100 * v)


def ctas_sm(r):
    v = r.get("ctas_sm") or []
    return "n/a" if not v else str(v[0]) if len(v) == 1 else "%d-%d" % (v[0], v[-1])


COLS = ["kernel", "run", "input", "status", "launches", "CTAs/launch", "threads/CTA", "CTAs/SM", "static bar.",
        "LATs", "dyn. bar.", "warp insts", "bar+exit LRR", "bar+exit GTO", "RTRU LRR", "RTRU GTO", "IPC LRR",
        "IPC GTO", "cycles LRR", "cycles GTO", "GTO/LRR"]


def line(kernel, run, inp, rl, rg):
    ok = [r for r in (rl, rg) if r.get("status") in ("ok", "check-failed") and r.get("cycles")]
    if not ok:
        st = rl.get("status", "not run")
        why = rl.get("reason", "")
        return [kernel, run, inp, st + (": " + why.replace("|", "/")[:160] if why else "")] + [""] * (len(COLS) - 4)
    b = ok[0]
    status = "ok" if all(r.get("status") == "ok" for r in (rl, rg)) else "/".join(r.get("status", "?") for r in (rl, rg))
    if rl.get("verification") in ("pass", "fail", "none"):
        status += " (check: %s)" % rl["verification"]

    def both(key, f):
        return [f(r.get(key)) if r in ok else r.get("status", "n/a") for r in (rl, rg)]

    ratio = "%.3f" % (rl["cycles"] / rg["cycles"]) if rl in ok and rg in ok else "n/a"
    return ([kernel, run, inp, status, num(b["launches"]),
             num(b["ctas"] / b["launches"] if b["launches"] else None, "{:,.1f}").replace(".0", ""),
             num(b.get("threads")), ctas_sm(b), num(b.get("static_bar")), num(b.get("lats")), num(b["dyn_bar"]),
             num(b["warp_insts"])] + both("barexit", pct) + both("rtru", lambda v: num(v, "{:.3f}")) +
            both("ipc", lambda v: num(v, "{:.1f}")) + both("cycles", num) + [ratio])


def paper_line(kernel, vals):
    c = [""] * len(COLS)
    c[0], c[1], c[2] = kernel, "paper", vals.get("name", "")
    c[4] = vals.get("launches", "")
    c[5] = vals.get("ctas", "")
    c[6] = vals.get("threads", "")
    c[7] = vals.get("ctas_sm", "")
    c[9] = vals.get("lats", "")
    c[11] = vals.get("insts", "") and vals["insts"] + " (thread)"
    return c


def table(rows):
    out = ["| " + " | ".join(COLS) + " |", "|" + "---|" * len(COLS)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return out


def differs(ours, orig):
    """what differs between our kernel and its original, measured numbers only"""
    out = []
    for label, key in (("launches", "launches"), ("threads/CTA", "threads"), ("static barriers", "static_bar"),
                       ("LATs", "lats")):
        a, b = ours.get(key), orig.get(key)
        if a is not None and b is not None and a != b:
            out.append("%s %s vs %s" % (label, num(a), num(b)))
    if ours.get("launches") and orig.get("launches"):
        a, b = ours["ctas"] / ours["launches"], orig["ctas"] / orig["launches"]
        if abs(a - b) > 0.005 * max(a, b):
            out.append("CTAs/launch %s vs %s" % (num(a, "{:,.1f}"), num(b, "{:,.1f}")))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tables", default=os.path.join(ROOT, "scripts", "workloads.tables"))
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "workloads.md"))
    ap.add_argument("--work", default=os.path.join(ROOT, "build", "workloads"))
    ap.add_argument("--manifest", default=os.path.join(ROOT, "scripts", "suites.manifest"))
    ap.add_argument("--src", action="append", default=[], help="SUITE=DIR|URL for suites.sh (repeatable)")
    ap.add_argument("--only", default="", help="run only these tables (comma list of paper keys)")
    ap.add_argument("--timeout", type=int, default=600, help="limit per run in seconds (default 600)")
    ap.add_argument("--no-run", action="store_true", help="write the page from the cached runs only")
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", "nvcc"))
    ap.add_argument("--warpsim", default=os.environ.get("WARPSIM_BIN", os.path.join(ROOT, "build", "warpsim")))
    a = ap.parse_args()
    for k in ("tables", "out", "work", "manifest", "warpsim"):
        setattr(a, k, os.path.abspath(getattr(a, k)))
    a.warpsim_name = "warpsim"
    if not os.access(a.warpsim, os.X_OK):
        die("warpsim executable %s not found: run 'make' first" % a.warpsim)
    papers = read_tables(a.tables)
    only = set(filter(None, a.only.split(",")))
    unknown = only - {p["key"] for p in papers}
    if unknown:
        die("--only %s: no such table in %s" % (",".join(sorted(unknown)), a.tables))
    R = Runner(a)
    body, summary, cpu_all, made_at = [], [], 0.0, set()
    for P in papers:
        R.running = not only or P["key"] in only
        cfg = os.path.relpath(os.path.join(ROOT, P["config"]), ROOT) if not os.path.isabs(P["config"]) else P["config"]
        lines, notes, diffs = [], [], []
        ws = R.warp_size(cfg)
        for row in P["rows"]:
            k = row["ours"]
            osize = row["paper"].get("ours", "paper")
            ro = [R.ours(k, osize, cfg, pol) for pol in POLICIES]
            lines.append(line(k, "ours", osize, *ro))
            if row["orig"]:
                rg = [R.original(row["orig"], row["size"], cfg, pol) for pol in POLICIES]
                inp = "%s `%s`" % (row["size"], rg[0].get("args", "")) if rg[0].get("args") else row["size"]
                lines.append(line(k, row["orig"], inp, *rg))
            else:
                rg = []
                lines.append([k, "original", "", "not run" + (" [%d]" % (len(notes) + 1) if row["why"] else "")] +
                             [""] * (len(COLS) - 4))
            if row["why"]:
                notes.append(row["why"])
                if row["orig"]:
                    lines[-1][3] += " [%d]" % len(notes)
            vals = {x: v for x, v in row["paper"].items() if x != "ours"}
            if set(vals) - {"name"}:  # a line only where the paper gives a number
                lines.append(paper_line(k, vals))
            for r in ro + rg:
                cpu_all += r.get("cpu_s", 0)
                if r.get("status") != "not run":
                    made_at.add(r.get("commit", "unknown"))
            # what differs: measured numbers of ours against the original's, and against the paper's counts
            okk = lambda r: r.get("status") in ("ok", "check-failed") and r.get("cycles")
            d = []
            if all(map(okk, ro)) and rg and all(map(okk, rg)):
                d += differs(ro[0], rg[0])
                if row["size"] != "paper" or osize != "paper":
                    d.insert(0, "(ours at %s size, the original at its %s input)" % (osize, row["size"]))
                for pol, a_, b_ in zip(POLICIES, ro, rg):
                    if b_["barexit"] > 0 and abs(a_["barexit"] - b_["barexit"]) > 0.2 * b_["barexit"]:
                        d.append("bar+exit %s %s vs %s" % (pol.upper(), pct(a_["barexit"]), pct(b_["barexit"])))
                    elif b_["barexit"] == 0 and a_["barexit"] > 0.01:
                        d.append("bar+exit %s %s vs 0" % (pol.upper(), pct(a_["barexit"])))
            if okk(ro[0]):
                for key, mine, label in (("launches", ro[0]["launches"], "launches"),
                                         ("threads", ro[0].get("threads"), "threads/CTA"),
                                         ("ctas_sm", ro[0]["ctas_sm"][0] if len(ro[0]["ctas_sm"]) == 1 else None,
                                          "CTAs/SM")):
                    if key in vals and vals[key].isdigit() and mine is not None:
                        want = int(vals[key])
                        if key == "threads":  # ours are counted in whole warps
                            want = -(-want // ws) * ws
                        if want != mine:
                            d.append("%s %s vs paper %s" % (label, num(mine), vals[key]))
                if "ctas" in vals and ro[0]["launches"]:
                    mean = ro[0]["ctas"] / ro[0]["launches"]
                    each = [float(v) for v in vals["ctas"].split("/")]
                    # "6000/10000": one value per kernel when there are as many as launches
                    per_kernel = len(each) == ro[0]["launches"] and sum(each) == ro[0]["ctas"]
                    if not per_kernel and not any(abs(mean - v) < 0.5 for v in each):
                        d.append("CTAs/launch %s vs paper %s" % (num(mean, "{:,.1f}"), vals["ctas"]))
                if "lats" in vals and ro[0].get("lats") is not None:
                    total = vals["lats"].split("/")[-1]
                    if total.isdigit() and int(total) != ro[0]["lats"]:
                        d.append("LATs %d vs paper %s" % (ro[0]["lats"], total))
            if d:
                diffs.append("* **%s** (%s): %s." % (k, row["orig"] or "paper", "; ".join(d).replace("); ", ") ", 1)))
        body += ["", "## %s" % P["title"], "", "Configuration `%s` (%s); ours at the size shown, the original at "
                 "the manifest input shown." % (cfg, P["gpu"])]
        body += [""] + [" ".join(P["text"])] if P["text"] else []
        body += [""] + table(lines)
        if notes:
            body += [""] + ["[%d] %s" % (i + 1, n) for i, n in enumerate(notes)]
        summary += ["", "**%s** (%s):" % (P["title"].split(":")[0], P["gpu"]), ""]
        summary += diffs or ["* nothing measured differs (or nothing was measured)."]
    head = ["# Workload fidelity: the bundled kernels beside the programs their papers ran", "",
            "Generated by `scripts/workloads.py` (tables: `scripts/workloads.tables`) at commit %s from runs "
            "made at commit %s (`+`: with changes to tracked files; a run is cached in `build/workloads/runs/` by "
            "its command, the simulator and the config file); do not edit by hand. Issue 23, item 1." % (R.commit, ", ".join(sorted(made_at)) or "-"),
            "",
            "Each table: a bundled kernel (`ours`, `warpsim run NAME --size paper`), the public program its paper "
            "ran (built and run unmodified by `scripts/suites.sh` through `warpsim cuda`), and the paper's own "
            "numbers where it states them, on the paper's GPU configuration under LRR and GTO. How each cell is "
            "measured: `scripts/workloads.py`'s header. threads/CTA is warps per CTA x warp size (whole warps: a "
            "paper's count is rounded up to whole warps before it is compared); CTAs/launch is the mean over the "
            "launches; static bar. and LATs count the barrier and global-memory instructions "
            "in the PTX of the kernels that ran (n/a where the PTX is not readable); dyn. bar. counts CTA barrier "
            "releases; bar+exit is the warp-time share stalled at barriers and at the exit (BAWS Fig. 1); warp "
            "insts are the LRR run's; GTO/LRR is cycles LRR / cycles GTO (above 1: GTO faster). "
            "\"not run\" with a note: the original is not in `scripts/suites.manifest` or has no input that "
            "runs here in minutes.", "",
            "## What differs (measured)", "",
            "Rows where ours departs from the original by more than 20% (relative) on the barrier + exit stall "
            "share, or differs from the original or from the paper's numbers in a structural count (launches, "
            "CTAs per launch, threads per CTA, CTAs per SM, static barriers, LATs). Measured numbers only; ours "
            "first."]
    text = "\n".join(head + summary + body) + "\n"
    os.makedirs(os.path.dirname(a.out), exist_ok=True)
    with open(a.out + ".tmp", "w") as f:
        f.write(text)
    os.replace(a.out + ".tmp", a.out)
    print("workloads.py: wrote %s" % os.path.relpath(a.out, os.getcwd()))
    print("workloads.py: CPU time of the %d runs executed now: %.1f s; of all runs behind the page: %.1f s"
          % (R.executed, R.cpu_new, cpu_all))


if __name__ == "__main__":
    main()
