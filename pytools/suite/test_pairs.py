# SPDX-License-Identifier: MIT
"""Unit tests of the paired-rerun verdicts (pairs.py), with scripted outcomes
instead of real test runs: python3 -m unittest discover -s pytools -t ."""

import unittest

from . import pairs


def worse(ours, ref):
    if ref["kind"] == "pass":
        return ours["kind"] != "pass"
    if ref["kind"] == "skip":
        return ours["kind"] not in ("pass", "skip")
    return False


def failing(r):
    return r["kind"] not in ("pass", "skip")


def scripted(script):
    """run_pair replaying {name: ["ref/ours", ...]} one round at a time."""
    calls = []

    def run_pair(name, rnd):
        ref, ours = script[name][rnd - 1].split("/")
        calls.append((name, rnd))
        return {"kind": ref}, {"kind": ours}, 0.0

    return run_pair, calls


def verdicts(script, **kw):
    run_pair, calls = scripted(script)
    judged = pairs.PairJudge(worse, failing, **kw).judge(list(script), run_pair)
    return {n: j["verdict"] for n, j in judged.items()}, calls


class PairVerdicts(unittest.TestCase):
    def test_ours_worse_twice_is_a_regression_after_every_round(self):
        v, calls = verdicts({"t": ["pass/fail", "pass/timeout", "pass/pass"]})
        self.assertEqual(v["t"], pairs.REGRESSION)
        self.assertEqual(len(calls), 3)

    def test_ours_worse_in_every_round_is_a_regression(self):
        v, _ = verdicts({"t": ["pass/fail"] * 3})
        self.assertEqual(v["t"], pairs.REGRESSION)

    def test_ours_worse_once_is_not(self):
        v, _ = verdicts({"t": ["pass/fail", "pass/pass", "pass/pass"]})
        self.assertEqual(v["t"], pairs.PASSED_ON_RERUN)

    def test_worse_in_rounds_one_and_three_is_a_regression(self):
        v, calls = verdicts({"t": ["pass/fail", "pass/pass", "pass/fail"]})
        self.assertEqual(v["t"], pairs.REGRESSION)
        self.assertEqual(len(calls), 3)

    def test_both_failing_is_environment_sensitive_at_once(self):
        # iowait.t on a busy CPU 0: the reference fails as well.
        v, calls = verdicts({"t": ["fail/fail", "fail/fail", "pass/pass"]})
        self.assertEqual(v["t"], pairs.ENV_SENSITIVE)
        self.assertEqual(len(calls), 1)

    def test_reference_failing_alone_does_not_count_against_ours(self):
        v, _ = verdicts({"t": ["fail/pass", "fail/pass", "pass/pass"]})
        self.assertEqual(v["t"], pairs.PASSED_ON_RERUN)

    def test_skip_on_ours_is_worse_than_a_passing_reference(self):
        v, _ = verdicts({"t": ["pass/skip", "pass/skip", "pass/skip"]})
        self.assertEqual(v["t"], pairs.REGRESSION)

    def test_a_pair_failing_on_both_sides_clears_two_worse_rounds(self):
        # A timing test that fails at random on both sides under load can be
        # unlucky twice; the reference failing back to back with ours shows it.
        v, _ = verdicts({"t": ["pass/fail", "pass/fail", "fail/fail"]})
        self.assertEqual(v["t"], pairs.ENV_SENSITIVE)

    def test_rounds_go_over_all_suspects_in_turn(self):
        _, calls = verdicts({"a": ["pass/fail"] * 3, "b": ["pass/pass"] * 3})
        self.assertEqual(calls, [("a", 1), ("b", 1), ("a", 2), ("b", 2), ("a", 3)])

    def test_exhausted_budget_leaves_suspects_unjudged(self):
        v, calls = verdicts({"a": ["pass/fail"] * 3, "b": ["pass/fail"] * 3}, budget=0)
        self.assertEqual(v, {"a": pairs.UNJUDGED, "b": pairs.UNJUDGED})
        self.assertEqual(calls, [])
        self.assertNotIn(pairs.UNJUDGED, pairs.NOT_REGRESSION)

    def test_budget_running_out_after_good_pairs_clears_the_test(self):
        # Round 1 takes the whole budget (the run_pair script spends no time,
        # so a budget of 0 after the first pair is modelled by a tiny one).
        run_pair, _ = scripted({"a": ["pass/pass"] * 3, "b": ["pass/fail"] * 3})
        judge = pairs.PairJudge(worse, failing, budget=1e-9)
        judged = judge.judge(["a", "b"], run_pair)
        self.assertEqual(judged["a"]["verdict"], pairs.PASSED_ON_RERUN)
        self.assertEqual(judged["b"]["verdict"], pairs.UNJUDGED)

    def test_best_ours_is_the_last_round_as_good_as_the_reference(self):
        run_pair, _ = scripted({"t": ["pass/fail", "skip/skip", "pass/pass"]})
        judged = pairs.PairJudge(worse, failing).judge(["t"], run_pair)["t"]
        self.assertEqual(judged["verdict"], pairs.PASSED_ON_RERUN)
        self.assertEqual(pairs.best_ours(judged), {"kind": "pass"})


if __name__ == "__main__":
    unittest.main()
