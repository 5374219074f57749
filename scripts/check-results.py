#!/usr/bin/env python3
"""check-results.py -- `make check-results`: rerun a fixed sample of the
papers' documented runs and compare them with the committed CSVs, exactly.

The committed CSVs (docs/baws, docs/bows, docs/kaws, docs/dwr) are what the
papers' pages quote.  They are written by `warpsim sweep` + `warpsim collect`
from the specs under experiments/ (scripts/*-experiments.sh).  This script
reruns the sample that scripts/check-results.list names -- per CSV, the spec
it was made from with some spec lines replaced (a few benchmarks, the size the
CSV was made at) -- through the same sweep and collect, and compares every
column of every rerun row (job id, status, job fields, every statistic) with
the committed row of the same job id, as text.  A job id the CSV does not have
means the sample line no longer describes how the CSV was made (its spec
changed): also a failure.

    scripts/check-results.py [--bin build/warpsim] [--jobs N] [--list FILE]
                             [--only SUBSTRING] [--keep DIR]

Exit status 0 if every value matches, 1 if any differs (each difference is
printed with the CSV file, row, column, committed and new value), 2 for a
usage error, a bad list line or a failed sweep.  Standard library only.
"""
import argparse, csv, os, shutil, subprocess, sys, tempfile

# which script regenerates each paper's CSVs (the message for a mismatch), by the spec's prefix
REGEN = {
    "baws": "scripts/baws-experiments.sh",
    "bows": "scripts/bows-experiments.sh (small size; the paper-size CSVs: see docs/bows.md)",
    "kaws": "scripts/kaws-experiments.sh (SIZE=paper for the *-paper.csv files)",
    "dwr": "scripts/dwr-experiments.sh small (docs/dwr.md for the paper subset)",
}
SPEC_KEYWORDS = ("name", "bench", "size", "config", "sched", "fetch", "policy", "set", "fixed", "exclude",
                 "baseline", "stats", "metric", "timeout")


def usage_error(msg):
    print("check-results: " + msg, file=sys.stderr)
    sys.exit(2)


def read_list(path):
    """Lines 'CSV SPEC [KEYWORD=V1,V2 ...]'; '#' starts a comment."""
    entries = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            if len(words) < 2:
                usage_error("%s:%d: expected 'CSV SPEC [KEYWORD=V1,V2 ...]'" % (path, n))
            over = []
            for w in words[2:]:
                k, eq, v = w.partition("=")
                if not eq or k not in SPEC_KEYWORDS or not v:
                    usage_error("%s:%d: '%s' is not KEYWORD=V1,V2 with a spec keyword (%s)" %
                             (path, n, w, " ".join(SPEC_KEYWORDS)))
                over.append((k, v.split(",")))
            for p in words[:2]:
                if not os.path.isfile(p):
                    usage_error("%s:%d: no such file: %s" % (path, n, p))
            entries.append({"csv": words[0], "spec": words[1], "over": over, "line": n})
    return entries


def sample_spec(spec, over, name):
    """The spec's text with every line of each overridden keyword replaced by one line of the new values."""
    done, out = set(), []
    keys = dict(over)
    for line in open(spec):
        words = line.split("#", 1)[0].split()
        k = words[0] if words else ""
        if k == "name":
            line = "name %s\n" % name
        elif k in keys:
            if k in done:
                continue
            done.add(k)
            line = "%s %s\n" % (k, " ".join(keys[k]))
        out.append(line)
    for k, v in over:
        if k not in done:
            out.append("%s %s\n" % (k, " ".join(v)))
    return "".join(out)


def load_csv(path):
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    return (rows[0], rows[1:]) if rows else ([], [])


def compare(entry, out_dir, out):
    """Append each difference between the rerun CSV and the committed one to out; return the rows that differ."""
    head, rows = load_csv(entry["csv"])
    nhead, nrows = load_csv(out_dir + ".csv")
    where = "%s (list line %d)" % (entry["csv"], entry["line"])
    if not nrows:
        out.append("%s: the sample ran no job" % where)
        return 1
    missing = [c for c in head if c not in nhead]
    if missing:
        out.append("%s: the rerun has no column %s" % (where, ",".join(missing)))
        return 1
    # columns the committed CSV lacks (counters added since, which a stats glob picks up) are not compared
    idx = [nhead.index(c) for c in head]
    nrows = [[r[i] for i in idx] for r in nrows]
    committed = {r[0]: (i + 2, r) for i, r in enumerate(rows)}
    descs = dict(l.rstrip("\n").split("\t", 1) for l in open(os.path.join(out_dir, "jobs.txt")) if "\t" in l)
    bad = 0
    for r in nrows:
        desc = descs.get(r[0], "bench=" + r[2])
        if r[0] not in committed:
            out.append("%s: job %s (%s) is not in the CSV: the sample line does not describe how the CSV was made "
                       "(did its spec change?)" % (where, r[0], desc))
            bad += 1
            continue
        rowno, c = committed[r[0]]
        cols = [i for i, col in enumerate(head) if c[i] != r[i]]
        for i in cols:
            out.append("%s: row %d (job %s, %s): column %s: committed %s, now %s" %
                       (entry["csv"], rowno, r[0], desc, head[i], c[i] or "(empty)", r[i] or "(empty)"))
        bad += bool(cols)
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", default=os.environ.get("WARPSIM_BIN", "build/warpsim"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--list", default="scripts/check-results.list")
    ap.add_argument("--only", default="", help="check only the list lines whose CSV path contains this")
    ap.add_argument("--keep", help="write the sweeps here (default: a temporary directory, removed)")
    a = ap.parse_args()
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    entries = [e for e in read_list(a.list) if a.only in e["csv"]]
    work = a.keep or tempfile.mkdtemp(prefix="check-results.")
    os.makedirs(work, exist_ok=True)
    diffs, reuse, nruns = [], [], 0
    try:
        for i, e in enumerate(entries):
            name = "check-%02d-%s" % (i, os.path.basename(e["csv"])[:-4])
            spec = os.path.join(work, name + ".spec")
            with open(spec, "w") as f:
                f.write(sample_spec(e["spec"], e["over"], name))
            out = os.path.join(work, name)
            for cmd in ([a.bin, "sweep", spec, "--out", out, "--jobs", str(a.jobs), "--quiet"] + reuse,
                        [a.bin, "collect", out, "--output", out + ".csv"]):
                r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True)
                if r.returncode != 0:
                    sys.stderr.write(r.stdout)
                    print("check-results: %s (list line %d): failed: %s" % (e["csv"], e["line"], " ".join(cmd)),
                          file=sys.stderr)
                    return 2
            reuse += ["--reuse", out]
            _, nrows = load_csv(out + ".csv")
            nruns += len(nrows)
            bad = compare(e, out, diffs)
            print("check-results: %-34s %3d rows rerun, %s" % (e["csv"], len(nrows), "%d DIFFER" % bad if bad else "ok"),
                  flush=True)
    finally:
        if not a.keep:
            shutil.rmtree(work, ignore_errors=True)
    if diffs:
        for d in diffs:
            print("  " + d)
        bad = [e for e in entries if any(d.startswith(e["csv"]) for d in diffs)]
        papers = sorted({os.path.basename(e["spec"]).split("-")[0] for e in bad})
        print("check-results: %d values differ in %s." % (len(diffs), ", ".join(sorted({e["csv"] for e in bad}))))
        print("A change that moves a paper's numbers regenerates that paper's CSVs, reports and the numbers its page")
        print("quotes in the same commit, and says why in the commit message:")
        for p in papers:
            print("  %s: %s" % (p, REGEN.get(p, "the script that wrote it")))
        return 1
    print("check-results: %d rows of %d committed CSVs rerun, every value matches" % (nruns, len(entries)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
