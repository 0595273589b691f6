# SPDX-License-Identifier: MIT
"""Unit tests of how runner.py starts a test program: a shell script stands
in for the test (python3 -m unittest discover -s pytools -t .)."""

import os
import signal
import tempfile
import unittest

from . import runner


class NoKernelLog:
    def mark(self, label):
        pass

    def bad_lines(self):
        return []


def run(script):
    with tempfile.TemporaryDirectory() as d:
        return runner.run_one(
            ["sh", "-c", script], d, None, 30, 5, os.path.join(d, "log"), NoKernelLog(), "test"
        )


class TestStart(unittest.TestCase):
    def test_sigint_is_default_even_when_the_harness_ignores_it(self):
        # As in a job a shell started with `&`: the test must still die of
        # SIGINT (fdinfo-sqpoll stops its children so).
        old = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            kind, detail, _ = run("kill -INT $$; exit 3")
        finally:
            signal.signal(signal.SIGINT, old)
        self.assertEqual((kind, detail), ("fail", "SIGINT"))

    def test_exit_77_is_a_skip(self):
        self.assertEqual(run("exit 77")[0], "skip")


if __name__ == "__main__":
    unittest.main()
