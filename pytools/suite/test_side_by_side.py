# SPDX-License-Identifier: MIT
"""Unit tests of side_by_side.py: real programs (sh) stand in for the tests
(python3 -m unittest discover -s pytools -t .)."""

import os
import signal
import tempfile
import threading
import time
import unittest

from . import side_by_side


def tree_with(names):
    d = tempfile.mkdtemp()
    testdir = os.path.join(d, "test")
    os.makedirs(testdir)
    for n in names:
        with open(os.path.join(testdir, n + ".t"), "w") as f:
            f.write("#!/bin/sh\n")
        with open(os.path.join(testdir, n + ".c"), "w") as f:
            f.write("int main(void) { return 0; }\n")
    return d, testdir


class TestFirstPass(unittest.TestCase):
    def test_each_test_once_in_a_copy_without_sources_and_copies_removed(self):
        names = ["a", "b", "c", "d", "wq-aff"]
        root, testdir = tree_with(names)
        seen = []
        lock = threading.Lock()

        def attempt(workdir, name):
            with lock:
                seen.append((workdir, name, sorted(os.listdir(workdir))))
            time.sleep(0.05)  # long enough for the second worker to take some
            return {"kind": "pass", "secs": 0.05}

        done = []
        side_by_side.first_pass(
            testdir, names, {}, 2, attempt, lambda n, r: done.append(n), lambda: None
        )
        self.assertEqual(sorted(done), sorted(names))
        self.assertEqual(done[-1], "wq-aff")  # alone, after the others
        self.assertEqual(sorted(n for _, n, _ in seen), sorted(names))
        dirs = {w for w, _, _ in seen}
        self.assertEqual(len(dirs), 2)
        for w, _, listing in seen:
            if w != testdir:
                self.assertNotIn("a.c", listing)
                self.assertIn("a.t", listing)
        self.assertEqual(os.listdir(root), ["test"])

    def test_longest_known_first(self):
        hints = {"b": {"secs": 1.0}, "c": {"secs": 9.0}, "d": {"kind": "skip"}}
        self.assertEqual(side_by_side.longest_first(["a", "b", "c", "d"], hints), list("cbad"))

    def test_an_interrupt_kills_what_runs_and_stops_the_queue(self):
        names = ["a", "b", "c", "d", "e", "f"]
        _, testdir = tree_with(names)
        started = []
        killed = []

        def attempt(workdir, name):
            started.append(name)
            time.sleep(0.3)
            return {"kind": "pass"}

        def interrupt(signum, frame):
            raise KeyboardInterrupt  # as harness.py's SIGTERM handler does

        old = signal.signal(signal.SIGALRM, interrupt)
        try:
            signal.setitimer(signal.ITIMER_REAL, 0.1)
            with self.assertRaises(KeyboardInterrupt):
                side_by_side.first_pass(
                    testdir, names, {}, 2, attempt, lambda n, r: None, lambda: killed.append(1)
                )
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        time.sleep(0.4)  # the workers finish their current test and find the queue empty
        self.assertEqual(killed, [1])
        self.assertEqual(len(started), 2)


if __name__ == "__main__":
    unittest.main()
