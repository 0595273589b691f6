# SPDX-License-Identifier: MIT
"""Unit tests of the traced mode's finding check (check_findings.py):
python3 -m unittest discover -s pytools -t ."""

import os
import tempfile
import unittest

from . import check_findings


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
        self.assertEqual(check_findings.kinds_in(text), {"cq-overflow": 2, "fork": 1})

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
            self.assertEqual(got, [("a", "enobufs", 1), ("b", "fork", 1)])

    def test_the_checked_in_list_parses(self):
        pairs = check_findings.expected()
        self.assertIn(("cq-overflow", "cq-overflow"), pairs)
        self.assertTrue(all(len(p) == 2 for p in pairs))


if __name__ == "__main__":
    unittest.main()
