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
the run, which a loaded machine must not turn red; any other kind fails it.

The same holds for a finding printed only by a run of the test that failed or
timed out: under load a test can wait for a CQE that never comes (liburing's
multicqes_drain does), and the checker then rightly says why it hangs. That
run's outcome is judged by the harness itself (a regression, or flaky when its
reruns pass), so its findings are printed to be classified, not counted twice.
A finding also printed by a run that completed (passed or skipped) fails."""

import os
import re

from pytools import REPO

from .common import SKIP_EXIT

EXPECTED = os.path.join(REPO, "liburing-tests", "expected-check-findings.txt")
# The first line of a finding: `uring-check: <kind>: ring N ...` (its `why:`
# and `fix:` lines are indented after the prefix).
FINDING = re.compile(r"^uring-check: ([a-z][a-z0-9-]*): ")
# The kinds whose findings depend on timing (see above).
LOAD_DEPENDENT = frozenset(("cq-overflow", "enobufs", "user-data-reuse"))
# The harness's run markers in a test's log (runner.run_one): a header per run
# of the test and, after its output, the exit line.
RUN_HEADER = re.compile(r"^=== \S+\.t \[")
RUN_EXIT = re.compile(r"^=== exit (\S+) after [0-9.]+ s(.*)$")
# Exit statuses of a run that completed: passed, or skipped.
COMPLETED = ("0", str(SKIP_EXIT))


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


def findings_by_run(text):
    """[(kind, completed)] of the findings in a test's log, one per finding;
    completed says whether the run that printed it exited 0 or 77 (output
    outside the harness's markers counts as completed, the strict side)."""
    out = []
    pending = []  # findings of the run whose exit line is not read yet
    for line in text.splitlines():
        if RUN_HEADER.match(line):
            out += [(k, True) for k in pending]
            pending = []
            continue
        m = RUN_EXIT.match(line)
        if m:
            ok = m.group(1) in COMPLETED and "TIMEOUT" not in m.group(2)
            out += [(k, ok) for k in pending]
            pending = []
            continue
        m = FINDING.match(line)
        if m:
            pending.append(m.group(1))
    return out + [(k, True) for k in pending]


def unexpected(logdir, names, allowed):
    """[(test, kind, count, only_failed)] of the findings in the logs of
    `names` (the tests this run ran) whose pair is not in `allowed`;
    only_failed: every one came from a run that failed or timed out."""
    out = []
    for name in names:
        try:
            with open(os.path.join(logdir, name + ".log"), errors="replace") as f:
                text = f.read()
        except FileNotFoundError:
            continue
        counts = {}
        for kind, completed in findings_by_run(text):
            n, failed_only = counts.get(kind, (0, True))
            counts[kind] = (n + 1, failed_only and not completed)
        for kind, (n, failed_only) in sorted(counts.items()):
            if (name, kind) not in allowed:
                out.append((name, kind, n, failed_only))
    return out


def fails_the_run(kind, only_failed):
    """Whether an unlisted finding fails the traced mode (see the top)."""
    return kind not in LOAD_DEPENDENT and not only_failed
