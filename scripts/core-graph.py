#!/usr/bin/env python3
"""core-graph.py -- the call and include graph of src/core: which module's
functions each core .c file calls (a module is a .c file; a header's static
inline functions count as the header's own node, e.g. warpstate.h), which
core/ and gpu/ headers each file includes, and the circles (strongly
connected components of more than one module) in the call graph.  Exit
status 1 if the core calls in a circle or includes a gpu/ header (the core
is below the GPU: docs/design.md).

  scripts/core-graph.py [REPO_ROOT]"""
import os, re, sys
root = sys.argv[1] if len(sys.argv) > 1 else "."
d = os.path.join(root, "src/core")
def strip(t):
    t = re.sub(r"/\*.*?\*/", " ", t, flags=re.S)
    return re.sub(r"//[^\n]*", " ", t)
owner = {}
files = sorted(os.listdir(d))
for f in files:
    t = strip(open(os.path.join(d, f)).read())
    if f.endswith(".c"):
        for m in re.finditer(r"^(?!static)[a-z_][^;{}()\n]*?\b([a-z_0-9]+)\(", t, re.M):
            owner[m.group(1)] = f[:-2]
    elif f.endswith(".h"):
        for m in re.finditer(r"^static inline [^;{}()\n]*?\b([a-z_0-9]+)\(", t, re.M):
            owner[m.group(1)] = f
edges = {}
for f in files:
    if not f.endswith(".c"):
        continue
    m = f[:-2]
    t = strip(open(os.path.join(d, f)).read())
    for fn, o in owner.items():
        if o != m and re.search(r"\b%s\(" % re.escape(fn), t):
            edges.setdefault(m, {}).setdefault(o, []).append(fn)
print("== calls: caller -> callee (functions) ==")
for a in sorted(edges):
    for b in sorted(edges[a]):
        print(f"{a} -> {b}: {' '.join(sorted(edges[a][b]))}")
print("== includes of core/ and gpu/ headers ==")
for f in files:
    inc = re.findall(r'#include "((?:core|gpu)/[a-z_]+\.h)"', open(os.path.join(d, f)).read())
    print(f"{f}: {' '.join(inc)}")
# strongly connected components (Tarjan)
nodes = sorted(set(edges) | {b for a in edges for b in edges[a]})
idx, low, stack, on, sccs, n = {}, {}, [], set(), [], [0]
def visit(v):
    idx[v] = low[v] = n[0]; n[0] += 1; stack.append(v); on.add(v)
    for w in edges.get(v, {}):
        if w not in idx:
            visit(w); low[v] = min(low[v], low[w])
        elif w in on:
            low[v] = min(low[v], idx[w])
    if low[v] == idx[v]:
        c = []
        while True:
            w = stack.pop(); on.discard(w); c.append(w)
            if w == v:
                break
        if len(c) > 1:
            sccs.append(sorted(c))
for v in nodes:
    if v not in idx:
        visit(v)
print("== circles in the call graph ==")
for c in sccs:
    print("circle: " + " ".join(c))
if not sccs:
    print("none")
up = [f for f in files if re.search(r'#include "gpu/', open(os.path.join(d, f)).read())]
print("== core files including gpu/ headers ==")
print(" ".join(up) if up else "none")
sys.exit(1 if sccs or up else 0)
