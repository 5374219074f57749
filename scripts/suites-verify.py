#!/usr/bin/env python3
"""suites-verify.py -- output checks for public-suite programs whose own check is
a separate comparison tool that cannot run here (scripts/suites.manifest, key
`verify`).  Exit 0 when the output matches, 1 when it does not (the first
difference on stderr), 2 on a usage error or an unreadable file.

  suites-verify.py cp-energy REF OUT
      The ISPASS-2009 / Parboil CP (coulombic potential) output: line 1 (grid
      size and atom count) equal; line 2, the checksum, within 0.5 % of the
      reference's; then 17 rows of floats, as many as the reference's, each
      within 0.005 or 0.5 % of it, whichever is larger.  The tolerances are
      those of the suite's tools/compare-output (Python 2, not run here).
"""
import sys


def fail(msg):
    sys.stderr.write("suites-verify.py: %s\n" % msg)
    sys.exit(1)


def read_lines(path):
    try:
        with open(path) as f:
            return [l.split() for l in f.read().splitlines()]
    except OSError as e:
        sys.stderr.write("suites-verify.py: cannot read %s: %s\n" % (path, e.strerror))
        sys.exit(2)


def floats(row, path, n):
    try:
        return [float(x) for x in row]
    except ValueError:
        fail("%s:%d: not a list of numbers" % (path, n))


def cp_energy(ref_path, out_path):
    ref, out = read_lines(ref_path), read_lines(out_path)
    if len(ref) < 19:
        sys.stderr.write("suites-verify.py: %s: %d lines, a CP reference has 19\n" % (ref_path, len(ref)))
        sys.exit(2)
    if len(out) < 19:
        fail("%s: %d lines, expected 19 (parameters, checksum, 17 rows)" % (out_path, len(out)))
    if out[0] != ref[0]:
        fail("line 1 (grid and atom count) is '%s', the reference's '%s'" % (" ".join(out[0]), " ".join(ref[0])))
    r, c = floats(ref[1], ref_path, 2), floats(out[1], out_path, 2)
    if len(r) != 1 or len(c) != 1:
        fail("line 2 is not one checksum")
    if abs(r[0] - c[0]) > 0.005 * abs(r[0]):
        fail("checksum %g, the reference's %g (more than 0.5 %% apart)" % (c[0], r[0]))
    for i in range(2, 19):
        r, c = floats(ref[i], ref_path, i + 1), floats(out[i], out_path, i + 1)
        if len(r) != len(c):
            fail("line %d has %d values, the reference's %d" % (i + 1, len(c), len(r)))
        for j, (a, b) in enumerate(zip(r, c)):
            d = abs(a - b)
            if not (d < 0.005 or d < 0.005 * abs(a)):
                fail("line %d, value %d: %g, the reference's %g" % (i + 1, j + 1, b, a))
    print("suites-verify.py: %s matches %s" % (out_path, ref_path))


CHECKS = {"cp-energy": (cp_energy, 2)}


def main(argv):
    if len(argv) < 2 or argv[1] not in CHECKS or len(argv) - 2 != CHECKS[argv[1]][1]:
        sys.stderr.write(__doc__)
        return 2
    CHECKS[argv[1]][0](*argv[2:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
