"""doc_tables.py -- the one refill of a paper page's generated sections,
shared by scripts/{baws,bows,kaws}-tables.py (standard library only).

A page marks each generated section as

    <!-- PAPER-tables:KEY -->
    ...generated text...
    <!-- /PAPER-tables -->

and fill() replaces the text between the markers with bodies[KEY]; a KEY the
script does not make is an error naming the page and the marker.  scripts/docs-tables-check.sh checks that
the committed pages equal what their scripts make of the committed CSVs."""
import re
import sys


def fill(path, paper, bodies):
    """Refill the PAPER-tables sections of the page at path from bodies; returns the keys found, in order."""
    doc = open(path).read()
    found = []

    def sub(m):
        found.append(m.group(2))
        if m.group(2) not in bodies:
            sys.exit("%s-tables: %s: unknown marker %s-tables:%s" % (paper, path, paper, m.group(2)))
        return m.group(1) + bodies[m.group(2)] + m.group(3)

    doc = re.sub(r"(<!-- %s-tables:([\w-]+) -->\n).*?(<!-- /%s-tables -->)" % (paper, paper), sub, doc, flags=re.S)
    open(path, "w").write(doc)
    return found
