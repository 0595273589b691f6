# SPDX-License-Identifier: MIT
"""The traced mode's LIBURING_CHECK findings against the classified list.

Every finding liburing's suite may show is classified in
docs/tests/check-findings.md (deliberate, or true and harmless) and listed as
a `test kind` pair in liburing-tests/expected-check-findings.txt. A finding
whose pair is not listed is new: it fails the run until it is classified
(a false positive is fixed in the checker instead). A listed pair that does
not show is fine: several depend on timing (whether a CQ overflows).

Three kinds depend on how fast the test runs against the kernel: a CQ
overflows, a buffer group runs dry, or a request is still in flight when its
user_data comes again, only when the test's own reaping falls behind. An
unlisted finding of those kinds is printed to be classified but does not fail
the run, which a loaded machine must not turn red; any other kind fails it."""

import os
import re

from pytools import REPO

EXPECTED = os.path.join(REPO, "liburing-tests", "expected-check-findings.txt")
# The first line of a finding: `uring-check: <kind>: ring N ...` (its `why:`
# and `fix:` lines are indented after the prefix).
FINDING = re.compile(r"^uring-check: ([a-z][a-z0-9-]*): ")
# The kinds whose findings depend on timing (see above).
LOAD_DEPENDENT = frozenset(("cq-overflow", "enobufs", "user-data-reuse"))


def expected(path=EXPECTED):
    """The listed (test, kind) pairs."""
    pairs = set()
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                test, kind = line.split()
                pairs.add((test, kind))
    return pairs


def kinds_in(text):
    """{kind: count} of the findings in one test's output."""
    found = {}
    for line in text.splitlines():
        m = FINDING.match(line)
        if m:
            found[m.group(1)] = found.get(m.group(1), 0) + 1
    return found


def unexpected(logdir, names, allowed):
    """[(test, kind, count)] of the findings in the logs of `names` (the
    tests this run ran) whose pair is not in `allowed`."""
    out = []
    for name in names:
        try:
            with open(os.path.join(logdir, name + ".log"), errors="replace") as f:
                text = f.read()
        except FileNotFoundError:
            continue
        for kind, n in sorted(kinds_in(text).items()):
            if (name, kind) not in allowed:
                out.append((name, kind, n))
    return out
