# SPDX-License-Identifier: MIT
"""upstream's examples/ run on scratch files, on upstream's build and on
ours (also used by pytools/packaging/check_debian.py: the inputs and a checker)."""

import filecmp
import hashlib
import os
import re

from .common import FAIL, NOBUILD, PASS, SKIP, build_env, failing, rec, rmtree, worse
from .runner import judge_suspects, log_tail, run_one

EXAMPLE_BENCH = ("poll-bench", "rsrc-update-bench")


def example_plan(workdir):
    """Examples that need no network or devices: name -> (argv tail, checker)."""

    def f(name):
        return os.path.join(workdir, name)

    def same(*pairs):
        def check(out):
            for a, b in pairs:
                if not os.path.exists(f(b)):
                    return "%s not created" % b
                if not filecmp.cmp(f(a), f(b), shallow=False):
                    return "%s differs from %s" % (b, a)
            return None

        return check

    def bytes_read(size):
        def check(out):
            m = re.search(r"completed=(\d+), bytes=(\d+)", out)
            if not m or int(m.group(2)) != size:
                return "expected bytes=%d in output" % size
            return None

        return check

    def digest(out):
        with open(f("in1"), "rb") as fh:
            want = hashlib.sha256(fh.read()).hexdigest()
        if "AF_ALG" in out and ("not available" in out or "socket" in out):
            return "skip"
        return None if want in out else "sha256 digest not in output (want %s)" % want

    return {
        "io_uring-test": ([f("direct")], bytes_read(16384)),
        "io_uring-close-test": ([f("direct")], bytes_read(16384)),
        "io_uring-cp": ([f("in1"), f("out-cp")], same(("in1", "out-cp"))),
        "link-cp": ([f("in1"), f("out-link")], same(("in1", "out-link"))),
        # ucontext-cp sleeps 1 s after every 1 KiB block: small files.
        "ucontext-cp": (
            [f("small1"), f("out-uc1"), f("small2"), f("out-uc2")],
            same(("small1", "out-uc1"), ("small2", "out-uc2")),
        ),
        "kdigest": (["sha256", f("in1")], digest),
        "reg-wait": ([], None),
        "poll-bench": ([], None),
        "rsrc-update-bench": ([], None),
    }


def make_example_inputs(workdir):
    rmtree(workdir)
    os.makedirs(workdir)
    seed = hashlib.sha256(b"liburing-tests").digest()
    blob = bytearray()
    while len(blob) < (3 << 20) + 4567:
        seed = hashlib.sha256(seed).digest()
        blob += seed * 64
    with open(os.path.join(workdir, "in1"), "wb") as fh:
        fh.write(blob[: (3 << 20) + 4567])
    with open(os.path.join(workdir, "in2"), "wb") as fh:
        fh.write(blob[1000 : 1000 + 300 * 1024 + 17])
    with open(os.path.join(workdir, "small1"), "wb") as fh:
        fh.write(blob[7 : 7 + 2500])
    with open(os.path.join(workdir, "small2"), "wb") as fh:
        fh.write(blob[99 : 99 + 1500])
    with open(os.path.join(workdir, "direct"), "wb") as fh:
        fh.write(blob[:16384])


class ExampleRun:
    """The examples of one build (`tree`), run on scratch files of their own."""

    def __init__(self, args, cache, tree, label, kmsg):
        self.args, self.tree, self.label, self.kmsg = args, tree, label, kmsg
        self.exdir = os.path.join(tree, "examples")
        self.workdir = os.path.join(cache, "work", "examples-" + label)
        self.logdir = os.path.join(cache, "logs", "examples-" + label)
        rmtree(self.logdir)
        os.makedirs(self.logdir)
        make_example_inputs(self.workdir)
        self.plan = example_plan(self.workdir)

    def wanted(self, names):
        return [n for n in names if n in self.plan and (not self.args.only or n in self.args.only)]

    def logp(self, name, tag=""):
        return os.path.join(self.logdir, name + (".%s.log" % tag if tag else ".log"))

    def attempt(self, name, tag="", tail=False):
        """Runs one example; tag names a rerun's own log file."""
        if not os.path.exists(os.path.join(self.exdir, name)):
            return rec(NOBUILD)
        argv, check = self.plan[name]
        logp = self.logp(name, tag)
        for out in ("out-cp", "out-link", "out-uc1", "out-uc2"):
            rmtree(os.path.join(self.workdir, out))
        kind, detail, secs = run_one(
            [os.path.join(self.exdir, name)] + argv,
            self.exdir,
            build_env(),
            self.args.timeout,
            self.args.kill_after,
            logp,
            self.kmsg,
            "example %s [%s%s]" % (name, self.label, " " + tag if tag else ""),
        )
        with open(logp, errors="replace") as fh:
            out = fh.read()
        if kind == PASS and check:
            verdict = check(out)
            if verdict == "skip":
                kind = SKIP
            elif verdict:
                kind, detail = FAIL, verdict
        elif kind == FAIL and name == "kdigest" and "AF_ALG" in out:
            kind, detail = SKIP, "no AF_ALG hash"
        r = rec(kind, detail, secs)
        if tail and failing(r):
            r["tail"] = log_tail(logp, 0)
        return r

    def run_all(self, names):
        return {name: self.attempt(name) for name in self.wanted(names)}


def run_examples(args, cache, ref_tree, ours_tree, names, kmsg):
    """Examples on upstream's build, then on ours; ours' examples that did worse
    are rerun as pairs, like the tests. Returns {"reference": ..., "ours": ...}."""
    ref_run = ExampleRun(args, cache, ref_tree, "reference", kmsg)
    ours_run = ExampleRun(args, cache, ours_tree, "ours", kmsg)
    ref_results = ref_run.run_all(names)
    ours_results = ours_run.run_all(names)

    def run_pair(name, rnd):
        tag = "pair%d" % rnd
        return ref_run.attempt(name, tag, tail=True), ours_run.attempt(name, tag, tail=True), 0.0

    suspects = [n for n in ours_results if worse(ours_results[n], ref_results.get(n))]
    judge_suspects(
        args,
        "examples",
        suspects,
        ours_results,
        run_pair,
        lambda n: os.path.join(
            os.path.dirname(ours_run.logdir), "examples-{reference,ours}", n + ".pair<N>.log"
        ),
    )
    return {"reference": ref_results, "ours": ours_results}
