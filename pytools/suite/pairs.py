# SPDX-License-Identifier: MIT
"""Paired reruns: did our library make a test fail, or did the machine?

The first pass runs every test on the reference and, minutes later, on ours.
Load that comes and goes in between (other builds on a shared CI machine) can
fail a timing-sensitive test on one side only: upstream's iowait.t, for one,
fails whenever CPU 0 is busy. So a test that did worse on ours is rerun as
pairs, the reference and then ours back to back, so that both members of a
pair see the same machine. Rounds go over all suspects in turn, spreading each
test's pairs over time.

Verdict after at most `rounds` pairs (default 3):
  env-sensitive    both members of some pair failed: the test fails on this
                   machine whatever the library, so it is not a regression;
  regression       otherwise, ours did worse than the reference of the same
                   pair in at least `needed` rounds (default 2);
  passed-on-rerun  otherwise (the first-pass failure did not repeat enough);
  unjudged         the rerun budget ran out before any pair, or after a pair
                   with ours worse (counted as a regression; a suspect whose
                   pairs so far all had ours as good is passed-on-rerun).

A regression needs every round played: a later pair may still show the
reference failing too. Pairs stop early only when the verdict cannot change
(a pair failing on both sides; too few rounds left for `needed`). This module
only decides; running a test and reporting belong to the harness.
"""

import time

# What one pair showed.
OURS_WORSE = "ours worse"
BOTH_FAIL = "both fail"
AS_GOOD = "ours as good"

# Verdicts.
REGRESSION = "regression"
ENV_SENSITIVE = "env-sensitive"
PASSED_ON_RERUN = "passed-on-rerun"
UNJUDGED = "unjudged"

# Verdicts that clear a test which did worse in the first pass.
NOT_REGRESSION = (ENV_SENSITIVE, PASSED_ON_RERUN)


def classify_pair(ref, ours, worse, failing):
    """One round: ours against the reference run just before it."""
    if worse(ours, ref):
        return OURS_WORSE
    if failing(ref) and failing(ours):
        return BOTH_FAIL
    return AS_GOOD


def decide(calls, rounds_left, needed):
    """The verdict from the rounds so far, or None while more rounds could change it."""
    if BOTH_FAIL in calls:
        return ENV_SENSITIVE
    n_worse = calls.count(OURS_WORSE)
    if rounds_left == 0:
        return REGRESSION if n_worse >= needed else PASSED_ON_RERUN
    if n_worse + rounds_left < needed:
        return PASSED_ON_RERUN
    return None


def out_of_budget(calls):
    """The verdict of a suspect whose remaining pairs the budget does not allow:
    cleared only if the pairs it had all showed ours as good as the reference."""
    if calls and OURS_WORSE not in calls:
        return PASSED_ON_RERUN
    return UNJUDGED


class PairJudge:
    """Runs the pairs for a set of suspects and returns a verdict for each.

    worse(ours, ref) and failing(rec) judge outcome records; run_pair(name, rnd)
    runs the reference then ours and returns (ref_rec, ours_rec, seconds).
    Once `budget` seconds of pairs have been spent, suspects still undecided
    are left `unjudged`."""

    def __init__(self, worse, failing, rounds=3, needed=2, budget=None):
        if needed > rounds:
            raise ValueError("needed (%d) > rounds (%d)" % (needed, rounds))
        self.worse, self.failing = worse, failing
        self.rounds, self.needed, self.budget = rounds, needed, budget

    def judge(self, suspects, run_pair, on_round=None):
        """Returns {name: {"verdict", "pairs": [{"round", "reference", "ours", "call",
        "ref_rec", "ours_rec"}]}}. on_round(name, rnd, pair_entry) is told every pair."""
        out = {n: {"verdict": None, "pairs": []} for n in suspects}
        spent = 0.0
        pending = list(suspects)
        for rnd in range(1, self.rounds + 1):
            still = []
            for name in pending:
                if self.budget is not None and spent >= self.budget:
                    out[name]["verdict"] = out_of_budget([p["call"] for p in out[name]["pairs"]])
                    continue
                t0 = time.time()
                ref, ours, _ = run_pair(name, rnd)
                spent += time.time() - t0
                entry = {
                    "round": rnd,
                    "ref_rec": ref,
                    "ours_rec": ours,
                    "call": classify_pair(ref, ours, self.worse, self.failing),
                }
                out[name]["pairs"].append(entry)
                if on_round:
                    on_round(name, rnd, entry)
                verdict = decide(
                    [p["call"] for p in out[name]["pairs"]], self.rounds - rnd, self.needed
                )
                if verdict:
                    out[name]["verdict"] = verdict
                else:
                    still.append(name)
            pending = still
        for name in pending:  # cannot happen: the last round decides; be strict anyway
            out[name]["verdict"] = out[name]["verdict"] or UNJUDGED
        return out


def best_ours(judged):
    """Ours' record from the last round where it was as good as the reference."""
    good = [p["ours_rec"] for p in judged["pairs"] if p["call"] == AS_GOOD]
    return good[-1] if good else None
