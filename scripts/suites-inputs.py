#!/usr/bin/env python3
"""suites-inputs.py -- input files for public-suite programs whose suite does not
ship them in its repository (Rodinia's data/ is a separate download), in the
formats the programs read.  Called by the `input` lines of scripts/suites.manifest;
fixed seeds, so a file is the same on every machine.

  suites-inputs.py bfs N FILE            Rodinia bfs graph: N nodes, 1..9 random out-edges
                                         each (graphgen's degree range), source 0
  suites-inputs.py hotspot N TEMP POWER  Rodinia hotspot: N*N temperatures (322-345 K) and
                                         powers (0-0.0005 W), one value a line
  suites-inputs.py kmeans N F FILE       Rodinia kmeans text input: N lines "id f1 .. fF",
                                         features uniform in [0, 1)
  suites-inputs.py mriq K S FILE         Parboil mri-q input (file.cc's binary layout): int K,
                                         int X = S^3, then float kx, ky, kz [K], x, y, z [X]
                                         (the S^3 voxel grid in [-0.5, 0.5)), phiR, phiI [K]
"""
import random
import struct
import sys


def bfs(n, path):
    rnd = random.Random(1)
    edges = [[rnd.randrange(n) for _ in range(rnd.randint(1, 9))] for _ in range(n)]
    with open(path, "w") as f:
        f.write("%d\n" % n)
        start = 0
        for e in edges:
            f.write("%d %d\n" % (start, len(e)))
            start += len(e)
        f.write("\n0\n\n%d\n" % start)
        for e in edges:
            for d in e:
                f.write("%d %d\n" % (d, rnd.randint(1, 10)))


def hotspot(n, temp, power):
    rnd = random.Random(2)
    with open(temp, "w") as f:
        f.writelines("%.6f\n" % rnd.uniform(322.0, 345.0) for _ in range(n * n))
    with open(power, "w") as f:
        f.writelines("%.8f\n" % rnd.uniform(0.0, 0.0005) for _ in range(n * n))


def kmeans(n, nf, path):
    rnd = random.Random(3)
    with open(path, "w") as f:
        for i in range(n):
            f.write("%d %s\n" % (i + 1, " ".join("%.6f" % rnd.random() for _ in range(nf))))


def mriq(nk, side, path):
    rnd = random.Random(4)
    nx = side ** 3
    grid = [(i - side / 2) / side for i in range(side)]
    x = [grid[i % side] for i in range(nx)]
    y = [grid[(i // side) % side] for i in range(nx)]
    z = [grid[i // (side * side)] for i in range(nx)]
    k = [[rnd.uniform(-side / 2, side / 2) for _ in range(nk)] for _ in range(3)]
    phi = [[rnd.uniform(-1.0, 1.0) for _ in range(nk)] for _ in range(2)]
    with open(path, "wb") as f:
        f.write(struct.pack("<ii", nk, nx))
        for arr in k + [x, y, z] + phi:
            f.write(struct.pack("<%df" % len(arr), *arr))


def main(argv):
    try:
        if argv[1:2] == ["bfs"] and len(argv) == 4:
            return bfs(int(argv[2]), argv[3])
        if argv[1:2] == ["hotspot"] and len(argv) == 5:
            return hotspot(int(argv[2]), argv[3], argv[4])
        if argv[1:2] == ["kmeans"] and len(argv) == 5:
            return kmeans(int(argv[2]), int(argv[3]), argv[4])
        if argv[1:2] == ["mriq"] and len(argv) == 5:
            return mriq(int(argv[2]), int(argv[3]), argv[4])
    except (ValueError, OSError) as e:
        sys.exit("suites-inputs.py: %s" % e)
    sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
