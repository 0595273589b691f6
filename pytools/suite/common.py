# SPDX-License-Identifier: MIT
"""What the harness's modules share: the modes, the outcome kinds, the
outcome records and how two are compared, and the provider's messages and
subprocess helpers (pytools/upstream/proc.py)."""

import os

from pytools import REPO
from pytools.upstream.proc import (
    build_env,
    capture,
    die,
    loud,
    rmtree,
    run_logged,
    say,
    warn,
)

from . import pairs

__all__ = [
    "say",
    "warn",
    "die",
    "loud",
    "build_env",
    "run_logged",
    "capture",
    "rmtree",
    "pairs",
    "REPO",
    "HARNESS_FORMAT",
    "TEST_MODES",
    "ALL_MODES",
    "DROPIN_MODES",
    "BINARY_MODES",
    "TRACED_ENV",
    "PASS",
    "SKIP",
    "FAIL",
    "TIMEOUT",
    "NOBUILD",
    "NA",
    "KINDS",
    "kernel_id",
    "fmt_outcome",
    "worse",
    "rec",
    "failing",
    "is_regression",
    "fmt_pairs",
]

# The format of results.json.
HARNESS_FORMAT = 1

TEST_MODES = ("reference", "source", "binary", "traced")
ALL_MODES = TEST_MODES + ("examples",)
DROPIN_MODES = ("source", "binary", "traced")
# "traced": the binary drop-in run again with our diagnostics switched on
# (a trace file per test, LIBURING_DEBUG=1, LIBURING_CHECK=1): diagnostics
# must change no outcome.
BINARY_MODES = ("binary", "traced")
TRACED_ENV = ("LIBURING_TRACE={tracedir}/{test}.trace", "LIBURING_DEBUG=1", "LIBURING_CHECK=1")

# Outcome kinds.
# A test's exit status for "skipped" (liburing's T_EXIT_SKIP).
SKIP_EXIT = 77
PASS, SKIP, FAIL, TIMEOUT, NOBUILD, NA = "pass", "skip", "fail", "timeout", "nobuild", "n/a"
KINDS = (PASS, SKIP, FAIL, TIMEOUT, NOBUILD, NA)


def kernel_id():
    u = os.uname()
    return "%s %s %s" % (u.release, u.version, u.machine)


def fmt_outcome(rec):
    if rec is None:
        return "-"
    kind, detail = rec["kind"], rec.get("detail")
    return "%s(%s)" % (kind, detail) if detail else kind


def worse(ours, ref):
    """Does outcome `ours` do worse than the reference outcome `ref`?"""
    if ours is None or ref is None or ours["kind"] == NA:
        return False
    if ref["kind"] == PASS:
        return ours["kind"] != PASS
    if ref["kind"] == SKIP:
        return ours["kind"] not in (PASS, SKIP)
    return False


def rec(kind, detail=None, secs=None, **extra):
    r = {"kind": kind}
    if detail:
        r["detail"] = detail
    if secs is not None:
        r["secs"] = round(secs, 2)
    r.update(extra)
    return r


def failing(r):
    return r["kind"] not in (PASS, SKIP)


def is_regression(ours, ref):
    """Worse than the reference's first pass, and not cleared by paired reruns."""
    return worse(ours, ref) and ours.get("verdict") not in pairs.NOT_REGRESSION


def fmt_pairs(r):
    """'pairs: 1) pass/fail(1) ours worse; 2) ...' for a record that was paired."""
    if not r.get("pairs"):
        return ""
    return "pairs (reference/ours): " + "; ".join(
        "%d) %s/%s %s" % (p["round"], p["reference"], p["ours"], p["call"]) for p in r["pairs"]
    )
