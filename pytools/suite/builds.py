# SPDX-License-Identifier: MIT
"""The builds of liburing's tests: upstream's own (the reference, from the
provider pytools/upstream/upstream.py), against our headers and liburing.a
(source drop-in), and against upstream's liburing.so.2 to run on ours
(binary drop-in)."""

import os
import shutil
import time

from pytools.upstream import upstream
from pytools.upstream.upstream import fresh_tree

from .common import capture, die, run_logged, say, warn

PRINT_MK = """\
include Makefile
harness-print-%s:
\t@echo $(%s)
"""


def make_list(tree, subdir, var, cache):
    mk = os.path.join(cache, "print-%s.mk" % var)
    with open(mk, "w") as f:
        f.write(PRINT_MK % (var, var))
    rc, out = capture(
        [
            "make",
            "-s",
            "--no-print-directory",
            "-C",
            os.path.join(tree, subdir),
            "-f",
            mk,
            "harness-print-" + var,
        ]
    )
    if rc != 0:
        die("cannot list %s of %s:\n%s" % (var, tree, out))
    return out.split()


def test_names(targets):
    return [t[:-2] for t in targets if t.endswith(".t")]


class Builds:
    def __init__(self, args, src, cache):
        self.args, self.src, self.cache = args, src, cache
        self.root = os.path.join(cache, "build")
        self.logs = os.path.join(cache, "logs")
        os.makedirs(self.root, exist_ok=True)
        os.makedirs(self.logs, exist_ok=True)
        self.ref = upstream.reference_tree(cache)
        self.upstream_stage = upstream.stage_dir(cache)

    def jobs(self):
        return "-j%d" % self.args.jobs

    # ---- reference: upstream's own build, from the provider
    def reference(self, src_desc):
        upstream.build(self.cache, self.src, src_desc, self.args.jobs, self.args.rebuild)

    def tests(self):
        return test_names(make_list(self.ref, "test", "test_targets", self.cache))

    def examples(self):
        return make_list(self.ref, "examples", "example_targets", self.cache)

    # ---- source drop-in: our headers, our liburing.a
    def source(self, stage, want_examples, targets, example_targets):
        tree = os.path.join(self.root, "source")
        logp = os.path.join(self.logs, "build-source.log")
        t0 = time.time()
        with open(logp, "w") as log:
            say("source build: tests against %s/usr/include + liburing.a (log: %s)" % (stage, logp))
            fresh_tree(self.src, tree, log)
            # Upstream's headers must not be visible: <liburing.h> and <liburing/*.h>
            # have to come from our include dir alone.
            os.rename(
                os.path.join(tree, "src", "include"),
                os.path.join(tree, "src", "include.upstream-hidden"),
            )
            # Upstream links ../src/liburing.a via -L../src -luring; put ours there.
            ours = os.path.join(stage, "usr", "lib", "liburing.a")
            if os.path.exists(ours):
                shutil.copy2(ours, os.path.join(tree, "src", "liburing.a"))
            else:
                warn("%s missing: every source-mode test will be 'nobuild'" % ours)
            cpp = "CPPFLAGS=-I" + os.path.join(stage, "usr", "include")
            if targets != []:
                run_logged(
                    ["make", self.jobs(), "-k", "V=1", "-C", "test", cpp] + (targets or []),
                    log,
                    cwd=tree,
                    check=False,
                )
            if want_examples:
                run_logged(
                    ["make", self.jobs(), "-k", "V=1", "-C", "examples", cpp] + example_targets,
                    log,
                    cwd=tree,
                    check=False,
                )
        say("source build: done in %.0f s" % (time.time() - t0))
        return tree

    # ---- binary drop-in: upstream headers, upstream liburing.so (run with ours)
    def binary(self, targets):
        tree = os.path.join(self.root, "binary")
        logp = os.path.join(self.logs, "build-binary.log")
        t0 = time.time()
        with open(logp, "w") as log:
            say(
                "binary build: tests linked dynamically to upstream's liburing.so.2 (log: %s)"
                % logp
            )
            fresh_tree(self.src, tree, log)
            so = upstream.shared_object(self.cache)
            shutil.copy2(so, os.path.join(tree, "src", os.path.basename(so)))
            os.symlink(os.path.basename(so), os.path.join(tree, "src", "liburing.so"))
            if targets != []:
                run_logged(
                    ["make", self.jobs(), "-k", "V=1", "-C", "test"]
                    + self.extra_make(tree)
                    + (targets or []),
                    log,
                    cwd=tree,
                    check=False,
                )
        say("binary build: done in %.0f s" % (time.time() - t0))
        return tree

    def rebuild_one(self, tree, name, logp):
        """Build one test alone, to get its own log (after a -k build missed it)."""
        with open(logp, "w") as log:
            run_logged(
                ["make", "V=1", "-C", "test", name + ".t"] + self.extra_make(tree),
                log,
                cwd=tree,
                check=False,
            )
        with open(logp) as f:
            return f.read()

    def extra_make(self, tree):
        if os.path.basename(tree) == "source":
            return ["CPPFLAGS=-I" + os.path.join(self.args.stage, "usr", "include")]
        if os.path.basename(tree) == "binary" and self.args.stage:
            # A test that execve()s another with an empty environment
            # (sqpoll-exec) loses LD_LIBRARY_PATH: the run path still names
            # our library, rather than whatever liburing.so.2 the system has.
            return ["LDFLAGS=-Wl,-rpath," + os.path.join(self.args.stage, "usr", "lib")]
        return []


def count_warnings(logs, mode):
    try:
        with open(os.path.join(logs, "build-%s.log" % mode), errors="replace") as f:
            return sum(1 for line in f if ": warning:" in line)
    except OSError:
        return None
