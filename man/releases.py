# SPDX-License-Identifier: MIT
"""The kernel-release table man/kernel-releases.tsv: every name of the
kernel interface headers, the Linux release that added it, and what it
means (written by tools/gen from the uapi crate's release table; edit
uapi/src/releases.rs, not the file). The section 2 pages show it; the prep helper pages take their
"available since" notes from it."""

import os
import re

import roff

HERE = os.path.dirname(os.path.abspath(__file__))
TABLE = os.path.join(HERE, "kernel-releases.tsv")


class Row:
    def __init__(self, name, since, text):
        self.name, self.since, self.text = name, since, text


def load(path=TABLE):
    """Rows in file order; a malformed row is an error, not a silent gap."""
    rows = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 3 or not re.fullmatch(r"\d+\.\d+|-", cols[1]):
                raise ValueError("%s:%d: want NAME<TAB>RELEASE<TAB>TEXT" % (path, number))
            rows.append(Row(*cols))
    return rows


def since(rows):
    """name -> release, for the names that have one."""
    return {r.name: r.since for r in rows if r.since != "-"}


def version_key(release):
    return tuple(int(x) for x in release.split("."))


def render(rows, pattern):
    """The rows whose name matches `pattern` (a full match) as a .TP list:
    the name in bold with its release, then its text."""
    out = []
    for r in rows:
        if re.fullmatch(pattern, r.name):
            head = ".B " + r.name if r.since == "-" else \
                '.BR %s " (Linux %s)"' % (r.name, r.since)
            out += [".TP", head, roff.inline(r.text)]
    if not out:
        raise ValueError("no row of %s matches %s" % (TABLE, pattern))
    return out


def render_by_release(rows):
    """Every name with a release, grouped under the release that added it,
    oldest first."""
    by = {}
    for r in rows:
        if r.since != "-":
            by.setdefault(r.since, []).append(r.name)
    out = []
    for rel in sorted(by, key=version_key):
        out.append(".SS Linux %s" % rel)
        names = by[rel]
        for i, n in enumerate(names):
            out.append(".BR %s ," % n if i + 1 < len(names) else ".B %s" % n)
    return out
