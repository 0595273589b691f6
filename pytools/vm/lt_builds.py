#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""liburing's tests for a guest, in the liburing-tests harness's three modes,
built by the harness's own code (pytools/suite/builds.py): reference
(upstream's build, from the provider), source (our headers and liburing.a)
and binary (linked to upstream's liburing.so.2, to run on ours).

Usage: python3 -m pytools.vm.lt_builds STAGE OUT [NAME...]     (no NAME: every test)

Copies each mode's NAME.t into OUT/MODE/ (debug sections stripped, as the
guest's memory holds them all) and writes OUT/nobuild.txt, one "MODE NAME
reason" line per test a mode could not build (binary: n/a when the test
needs liburing.a internals, as the harness says). The build trees go to
OUT/trees; upstream's source and reference build are the provider's, in
.cache/liburing-tests.
"""

import os
import shutil
import subprocess
import sys
import types

from pytools.suite.builds import Builds
from pytools.suite.common import say
from pytools.upstream import upstream


def main():
    stage, out = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    wanted = sys.argv[3:]
    cache = upstream.DEFAULT_CACHE
    os.makedirs(os.path.join(cache, "logs"), exist_ok=True)
    with open(os.path.join(cache, "logs", "fetch.log"), "a") as log:
        src, src_desc = upstream.source(cache, log)
    args = types.SimpleNamespace(jobs=2, rebuild=False, stage=stage)
    builds = Builds(args, src, cache)
    builds.reference(src_desc)
    names = builds.tests()
    if wanted:
        unknown = [n for n in wanted if n not in names]
        if unknown:
            sys.exit("lt_builds: not liburing tests: %s" % " ".join(unknown))
        names = [n for n in names if n in wanted]
    # Our own build trees, apart from the harness's (a `make test` may use those).
    builds.root = os.path.join(out, "trees")
    os.makedirs(builds.root, exist_ok=True)
    targets = [n + ".t" for n in names]
    trees = {
        "reference": builds.ref,
        "source": builds.source(stage, False, targets, []),
        "binary": builds.binary(targets),
    }
    internal = set(upstream.internal_symbols(cache))
    nobuild = []
    for mode, tree in trees.items():
        dest = os.path.join(out, mode)
        shutil.rmtree(dest, ignore_errors=True)
        os.makedirs(dest)
        for n in names:
            t = os.path.join(tree, "test", n + ".t")
            if os.path.exists(t):
                subprocess.run(
                    ["strip", "--strip-debug", "-o", os.path.join(dest, n + ".t"), t], check=True
                )
                continue
            reason = "does not build"
            if mode == "binary":
                logp = os.path.join(out, "trees", n + ".binary.log")
                text = builds.rebuild_one(tree, n, logp)
                if any(s in text for s in internal):
                    reason = "n/a: needs liburing.a internals"
            nobuild.append("%s %s %s" % (mode, n, reason))
    with open(os.path.join(out, "nobuild.txt"), "w") as f:
        f.write("".join(line + "\n" for line in nobuild))
    say(
        "liburing's tests for the guest: %d names, %d missing builds (%s)"
        % (len(names), len(nobuild), os.path.join(out, "nobuild.txt"))
    )


if __name__ == "__main__":
    main()
