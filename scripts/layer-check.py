#!/usr/bin/env python3
"""layer-check.py -- the include rules of docs/design.md ("The layers"): each
folder of src/ may include headers of the folders listed for it below and of
nothing else (a .def table may be included from anywhere; so may the header
of ids generated from a counter or parameter domain's .def, ID_HEADERS below,
and the public include/warpsim.h).  Prints every include that breaks a rule, and exits 1 if
there is one.

  scripts/layer-check.py [REPO_ROOT]"""
import os, re, sys

root = sys.argv[1] if len(sys.argv) > 1 else "."
ALLOWED = {
    "util": {"util"},
    "config": {"config", "util"},
    "stats": {"stats", "config", "util"},
    "ptx": {"ptx", "util"},
    "func": {"func", "ptx", "stats", "util"},
    "mem": {"mem", "config", "stats", "util"},
    "sched": {"sched", "config", "ptx", "util"},
    "core": {"core", "func", "mem", "sched", "stats", "config", "ptx", "util"},
    "gpu": {"gpu", "core", "func", "mem", "sched", "stats", "config", "ptx", "util"},
    # the command and the CUDA runtime use the public API (and the speed report)
    "cli": {"cli", "stats/speed.h"},
    "cudart": {"cudart", "stats/speed.h"},
}
# the id header of each counter domain (stats/stats.h) and parameter domain
# (config/config.h): an enum generated from the domain's .def, including only
# stats/stats.h or config/config.h, used wherever the counters or parameters are
ID_HEADERS = {
    "stats/counters.h", "mem/mem_counters.h", "core/core_counters.h",
    "config/params.h", "mem/mem_params.h", "core/core_params.h", "sched/sched_params.h", "stats/energy_params.h",
}
bad = 0
src = os.path.join(root, "src")
for folder in sorted(os.listdir(src)):
    allowed = ALLOWED.get(folder)
    if allowed is None:
        print(f"src/{folder}: no rule in scripts/layer-check.py (add one, and to docs/design.md)")
        bad += 1
        continue
    for f in sorted(os.listdir(os.path.join(src, folder))):
        path = os.path.join(src, folder, f)
        for n, line in enumerate(open(path, errors="replace"), 1):
            m = re.match(r'\s*#\s*include\s+"([^"]+)"', line)
            if not m:
                continue
            inc = m.group(1)
            if inc.endswith(".def") or inc in ID_HEADERS or inc == "warpsim.h" or "/" not in inc:
                continue  # a table or its ids, the public API, or a header of the same folder
            top = inc.split("/")[0]
            if top in allowed or inc in allowed:
                continue
            print(f"src/{folder}/{f}:{n}: includes {inc}: {folder}/ may include only "
                  f"{', '.join(sorted(allowed))}")
            bad += 1
print(f"layer-check: {bad} include{'s' if bad != 1 else ''} against the layering" if bad else
      "layer-check: every include follows the layering of docs/design.md")
sys.exit(1 if bad else 0)
