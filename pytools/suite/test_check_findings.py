# SPDX-License-Identifier: MIT
"""Unit tests of the traced mode's finding check (check_findings.py):
python3 -m unittest discover -s pytools -t ."""

import os
import tempfile
import unittest

from . import check_findings, runner


class Findings(unittest.TestCase):
    def test_the_first_line_of_each_finding_counts_once(self):
        text = (
            "some test output\n"
            "uring-check: cq-overflow: ring 1 (fd 3), thread 7 (t), in io_uring_submit\n"
            "uring-check:   why: the CQ is full\n"
            "uring-check:   fix: reap sooner\n"
            "uring-check: cq-overflow: ring 2 (fd 4), thread 7 (t), in io_uring_submit\n"
            "uring-check: fork: ring 1 (fd 3), thread 8 (t), in io_uring_submit\n"
        )
        self.assertEqual(
            check_findings.findings_by_run(text),
            [("cq-overflow", True), ("cq-overflow", True), ("fork", True)],
        )

    def test_only_unlisted_pairs_of_tests_run_are_reported(self):
        with tempfile.TemporaryDirectory() as d:
            for name, text in {
                "a": "uring-check: fork: ring 1\nuring-check: enobufs: ring 1\n",
                "b": "uring-check: fork: ring 1\n",
                "not-run": "uring-check: fork: ring 1\n",
            }.items():
                with open(os.path.join(d, name + ".log"), "w") as f:
                    f.write(text)
            allowed = {("a", "fork"), ("c", "cq-overflow")}
            got = check_findings.unexpected(d, ["a", "b", "c"], allowed)
            self.assertEqual(got, [("a", "enobufs", 1, False), ("b", "fork", 1, False)])

    def test_a_finding_only_a_failed_run_printed_is_told_apart(self):
        # The shape of a flaky test's log: a first pass that timed out (and
        # printed why it hangs), then pairs of reruns that passed.
        log = (
            "=== t.t [traced]: ./t.t (cwd /x) at now\n"
            "uring-check: multishot-ended: ring 1 (fd 5), thread 9 (t), in a wait\n"
            "uring-check:   why: nothing more will complete\n"
            "=== exit -2 after 60.0 s (TIMEOUT)\n"
            "=== t.t [traced pair 1: reference]: ./t.t (cwd /y) at now\n"
            "=== exit 0 after 2.0 s\n"
            "=== t.t [traced pair 1: ours]: ./t.t (cwd /x) at now\n"
            "uring-check: fork: ring 1 (fd 5), thread 9 (t), in io_uring_submit\n"
            "=== exit 0 after 2.0 s\n"
            "=== t.t [traced pair 2: ours]: ./t.t (cwd /x) at now\n"
            "uring-check: owner-thread: ring 1 (fd 5), thread 9 (t), in a wait\n"
            "=== exit 1 after 2.0 s\n"
            "=== t.t [traced pair 3: ours]: ./t.t (cwd /x) at now\n"
            "uring-check: owner-thread: ring 1 (fd 5), thread 9 (t), in a wait\n"
            "=== exit 77 after 2.0 s\n"
        )
        self.assertEqual(
            check_findings.findings_by_run(log),
            [
                ("multishot-ended", False),
                ("fork", True),
                ("owner-thread", False),
                ("owner-thread", True),
            ],
        )
        with tempfile.TemporaryDirectory() as d:
            with open(os.path.join(d, "t.log"), "w") as f:
                f.write(log)
            got = check_findings.unexpected(d, ["t"], set())
        self.assertEqual(
            got,
            [
                ("t", "fork", 1, False),
                ("t", "multishot-ended", 1, True),
                ("t", "owner-thread", 2, False),
            ],
        )
        verdicts = {k: check_findings.fails_the_run(k, only) for _, k, _, only in got}
        self.assertEqual(verdicts, {"fork": True, "multishot-ended": False, "owner-thread": True})
        # A kind that depends on timing never fails, wherever it was printed.
        self.assertFalse(check_findings.fails_the_run("cq-overflow", False))

    def test_the_harness_writes_the_markers_this_parser_reads(self):
        # runner.run_one's header and exit lines, as it formats them.
        with tempfile.TemporaryDirectory() as d:
            logp = os.path.join(d, "t.log")
            script = os.path.join(d, "t.t")
            with open(script, "w") as f:
                f.write("#!/bin/sh\necho 'uring-check: fork: ring 1' >&2\nexit 3\n")
            os.chmod(script, 0o755)

            class NoKmsg:
                def mark(self, label):
                    pass

                def bad_lines(self):
                    return []

            runner.run_one(["./t.t"], d, dict(os.environ), 10, 1, logp, NoKmsg(), "t.t [traced]")
            with open(logp) as f:
                self.assertEqual(check_findings.findings_by_run(f.read()), [("fork", False)])

    def test_the_checked_in_list_parses(self):
        pairs = check_findings.expected()
        self.assertIn(("cq-overflow", "cq-overflow"), pairs)
        self.assertTrue(all(len(p) == 2 for p in pairs))


if __name__ == "__main__":
    unittest.main()
