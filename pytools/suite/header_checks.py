# SPDX-License-Identifier: MIT
"""The checks of our installed headers that need upstream's: run by harness.py
once upstream's build is installed in its stage.

  provenance.py   our header text is our own (see its docstring)
  sqe_compare.py  our inline helpers write and walk the rings byte for byte
                  as upstream's do
"""

import os

from . import provenance, sqe_compare


def run(stage, upstream_stage, src, cache):
    """Both checks; returns the number that failed."""
    ours = os.path.join(stage, "usr", "include")
    theirs = os.path.join(upstream_stage, "usr", "include")
    print("header checks: %s against %s" % (ours, theirs), flush=True)
    failed = 0
    if provenance.main([ours, theirs, os.path.join(src, "man")]):
        failed += 1
    if sqe_compare.main([ours, theirs, os.path.join(cache, "sqe-compare")]):
        failed += 1
    return failed
