#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run liburing's own test suite (and examples) against our drop-in library.

Modes (see liburing-tests/README.md):
  reference  upstream's tests, built by upstream's build, on upstream's library
  source     the same test sources compiled against OUR headers, linked to OUR liburing.a
  binary     tests built against upstream's headers and liburing.so.2, run with OUR
             liburing.so.2 first on LD_LIBRARY_PATH
  examples   upstream's examples/ built against OUR headers + liburing.a (and, for the
             baseline, as upstream builds them), run on scratch files

Nothing from upstream is stored in the repository: the provider
(pytools/upstream/upstream.py) downloads the Debian source package into the
(git-ignored) cache directory and builds it there.

This file is the command line and the order of the steps; the steps live in
builds.py (the three builds), runner.py (running tests, reruns, pairs),
binproof.py (which library the binary mode loads), examples.py and report.py
(conclusions, report.txt, results.json, the summary).
"""

import argparse
import fcntl
import os
import re
import shutil
import signal
import sys
import time
import types

from pytools.upstream import upstream

from . import abi_check, check_findings, report
from .binproof import prove_binary
from .builds import Builds
from .common import (
    ALL_MODES,
    BINARY_MODES,
    DROPIN_MODES,
    NA,
    NOBUILD,
    REPO,
    TEST_MODES,
    build_env,
    die,
    kernel_id,
    say,
    warn,
)
from .examples import EXAMPLE_BENCH, run_examples
from .runner import Runner


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="liburing-tests/run.sh",
        description="Run liburing's own test suite against our drop-in liburing.",
    )
    ap.add_argument(
        "--stage",
        help="staged install of OUR library: <stage>/usr/include, <stage>/usr/lib (absolute path)",
    )
    ap.add_argument(
        "--stage-upstream",
        action="store_true",
        help="validate the harness: use upstream's own build/install as 'ours'",
    )
    ap.add_argument(
        "--modes",
        default=",".join(ALL_MODES),
        help="comma list of %s (default: all)" % ",".join(ALL_MODES),
    )
    ap.add_argument("--only", help="comma list of test (and example) names to run")
    ap.add_argument(
        "--shard",
        metavar="K/N",
        help="run share K of N of the tests (for N runs side by side, each "
        "with its own --cache); share 1 alone runs the header checks "
        "and the examples",
    )
    ap.add_argument(
        "--ours-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set NAME for the drop-in modes' runs only (not the reference), "
        "'{test}' in VALUE replaced by the test name; repeatable "
        "(e.g. LIBURING_TRACE=/tmp/t/{test}.trace)",
    )
    ap.add_argument("--abi-asserts", help="build/abi-assert.c: check it against upstream's headers")
    ap.add_argument(
        "--timeout",
        type=int,
        default=int(os.environ.get("LIBURING_TESTS_TIMEOUT", os.environ.get("TIMEOUT", "60"))),
        help="seconds per test before SIGINT (default 60; env LIBURING_TESTS_TIMEOUT)",
    )
    ap.add_argument(
        "--kill-after",
        type=int,
        default=10,
        help="seconds after SIGINT before SIGKILL (default 10)",
    )
    ap.add_argument(
        "--retries",
        type=int,
        default=2,
        help="reruns of a test failing on the reference (default 2)",
    )
    ap.add_argument(
        "--pair-rounds",
        type=int,
        default=3,
        help="back-to-back reference/ours pairs for a test doing worse on ours (default 3)",
    )
    ap.add_argument(
        "--pair-needed",
        type=int,
        default=2,
        help="pairs in which ours must do worse for a regression (default 2)",
    )
    ap.add_argument(
        "--retry-budget",
        type=int,
        default=600,
        help="seconds of reruns per mode after which nothing more is rerun (default 600)",
    )
    ap.add_argument("-j", "--jobs", type=int, default=2, help="make -j (default 2)")
    ap.add_argument(
        "--side-by-side",
        type=int,
        default=int(os.environ.get("LIBURING_TESTS_SIDE_BY_SIDE", "1")),
        metavar="N",
        help="tests run at once in a mode's first pass, each worker in its own "
        "copy of the test directory; reruns always run alone (default 1; env "
        "LIBURING_TESTS_SIDE_BY_SIDE)",
    )
    ap.add_argument(
        "--cache",
        default=os.path.join(REPO, ".cache", "liburing-tests"),
        help="cache directory (default <repo>/.cache/liburing-tests)",
    )
    ap.add_argument(
        "--rebuild", action="store_true", help="rebuild the reference tree even if it is up to date"
    )
    ap.add_argument(
        "--no-dmesg",
        action="store_true",
        help="do not fail tests that make the kernel log a warning",
    )
    ap.add_argument(
        "--no-bench",
        action="store_true",
        help="skip the 10 s benchmark examples (%s)" % ", ".join(EXAMPLE_BENCH),
    )
    ap.add_argument("-v", "--verbose", action="store_true", help="print every test result")
    args = ap.parse_args(argv)
    args.modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    for m in args.modes:
        if m not in ALL_MODES:
            ap.error("unknown mode %r" % m)
    args.only = (
        [
            n.strip()[:-2] if n.strip().endswith(".t") else n.strip()
            for n in args.only.split(",")
            if n.strip()
        ]
        if args.only
        else None
    )
    if args.side_by_side < 1:
        ap.error("--side-by-side takes N >= 1")
    if args.shard:
        k, _, n = args.shard.partition("/")
        if not (k.isdigit() and n.isdigit() and 1 <= int(k) <= int(n)):
            ap.error("--shard takes K/N with 1 <= K <= N")
        args.shard = (int(k), int(n))
    args.first_share = not args.shard or args.shard[0] == 1
    args.cache = os.path.abspath(args.cache)
    if args.stage:
        args.stage = os.path.abspath(args.stage)
    needs_stage = any(m in args.modes for m in ("source", "binary", "examples"))
    if args.stage_upstream and args.stage:
        ap.error("--stage and --stage-upstream are exclusive")
    if not 1 <= args.pair_needed <= args.pair_rounds:
        ap.error("--pair-needed must be between 1 and --pair-rounds")
    if needs_stage and not args.stage and not args.stage_upstream:
        ap.error("--stage DIR (or --stage-upstream) is required for modes source, binary, examples")
    return args


def lock(cache):
    """One harness run per cache at a time (the lock is held until exit)."""
    os.makedirs(cache, exist_ok=True)
    lockf = open(os.path.join(cache, ".lock"), "w")  # noqa: SIM115  (held until exit: the lock)
    try:
        fcntl.flock(lockf, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        say("another liburing-tests run holds %s; waiting" % lockf.name)
        fcntl.flock(lockf, fcntl.LOCK_EX)
    return lockf


def prepare(args):
    """Upstream's source and reference build (the provider), the ABI and header
    checks against its install, and the tests to run. Returns (builds, names)."""
    cache = args.cache
    os.makedirs(os.path.join(cache, "logs"), exist_ok=True)
    with open(os.path.join(cache, "logs", "fetch.log"), "a") as log:
        src, src_desc = upstream.source(cache, log)
    say("liburing source: %s" % src_desc)
    builds = Builds(args, src, cache)
    builds.reference(src_desc)
    args.src_desc = src_desc
    args.abi_ok = (
        abi_check.run(args.abi_asserts, os.path.join(builds.upstream_stage, "usr", "include"), say)
        if args.abi_asserts
        else None
    )
    if args.stage_upstream:
        args.stage = os.path.join(builds.upstream_stage)
        say("--stage-upstream: 'ours' is upstream's own install at %s" % args.stage)
    if args.stage:
        for p in ("usr/include/liburing.h", "usr/lib/liburing.a", "usr/lib/liburing.so.2"):
            if not os.path.exists(os.path.join(args.stage, p)):
                warn("stage %s lacks %s" % (args.stage, p))

    from . import header_checks  # provenance and SQE comparison of our installed headers

    args.header_fail = (
        0
        if args.stage_upstream or not args.stage or not args.first_share
        else header_checks.run(args.stage, builds.upstream_stage, src, cache)
    )
    all_tests = builds.tests()
    names = all_tests
    if args.only:
        unknown = [n for n in args.only if n not in all_tests]
        names = [n for n in all_tests if n in args.only]
        ex_names = set(builds.examples())
        unknown = [n for n in unknown if n not in ex_names]
        if unknown:
            die("unknown test name(s): %s" % ", ".join(unknown))
    if args.shard:
        names = shard_of(names, *args.shard)
    return builds, names


def shard_of(names, k, n):
    """Share k (1-based) of n: the list dealt out to shares 1..n, n..1, 1..n, ...
    so that neighbours in upstream's list spread over the shares."""
    return [x for i, x in enumerate(names) if min(i % (2 * n), 2 * n - 1 - i % (2 * n)) == k - 1]


def reuse_reference(run):
    """Reference results: run them, or reuse the stored ones when the reference
    mode was not asked for and they were produced under the same conditions."""
    if "reference" in run.modes or not any(m in run.modes for m in DROPIN_MODES):
        return
    stored = run.previous.get("reference") or {}
    smeta = run.previous.get("reference_meta") or {}
    if (
        smeta.get("kernel") == run.meta["kernel"]
        and smeta.get("source") == run.src_desc
        and all(n in stored for n in run.names)
    ):
        say(
            "reference: reusing stored results (same kernel and source; %s)"
            % smeta.get("when", "?")
        )
        run.results["reference"] = {n: stored[n] for n in run.names}
    else:
        say("reference: no stored results for this kernel/source; running it too")
        run.modes.insert(0, "reference")


def nobuild_reasons(builds, cache, internal):
    """For a mode and its tree: why a test has no binary (built alone for its
    own log first; in binary modes, n/a when it needs liburing.a internals)."""

    def of(mode, tree):
        def reason(name):
            logp = os.path.join(cache, "logs", mode, name + ".build.log")
            text = builds.rebuild_one(tree, name, logp)
            if os.path.exists(os.path.join(tree, "test", name + ".t")):
                return None  # built alone after all: run it
            if mode in BINARY_MODES:
                undef = set(re.findall(r"undefined reference to `([^']+)'", text))
                if undef and internal[0] and undef <= internal[0]:
                    return NA, "needs " + ",".join(sorted(undef))
            return NOBUILD, None

        return reason

    return of


def build_dropins(run, builds):
    """The source and binary trees the asked modes need (with --only, just
    what will run; otherwise everything upstream builds)."""
    args, names, modes = run.args, run.names, run.modes
    targets = [n + ".t" for n in names] if args.only or args.shard else None  # None: all
    ex_targets = []
    if args.only:
        ex_targets = [n for n in builds.examples() if n in args.only]
    run.want_examples = "examples" in modes and (not args.only or ex_targets) and args.first_share
    if "source" in modes or run.want_examples:
        run.trees["source"] = builds.source(args.stage, run.want_examples, targets, ex_targets)
    if any(m in modes for m in BINARY_MODES) and names:
        run.trees["binary"] = run.trees["traced"] = builds.binary(targets)
        run.internal[0] = upstream.internal_symbols(run.cache)


def run_tests(run, builds, runner):
    """Every asked test mode in order; the binary modes after proving which
    library they load."""
    args, names = run.args, run.names
    nobuild = nobuild_reasons(builds, run.cache, run.internal)
    for mode in TEST_MODES:
        if mode not in run.modes or not names:
            continue
        tree = run.trees[mode]
        os.makedirs(os.path.join(run.cache, "logs", mode), exist_ok=True)
        env = build_env()
        if mode in BINARY_MODES and names:
            lib = os.path.join(args.stage, "usr", "lib")
            env["LD_LIBRARY_PATH"] = lib + (
                ":" + env["LD_LIBRARY_PATH"] if env.get("LD_LIBRARY_PATH") else ""
            )
            if run.binary_proof is None:
                ok, evidence = prove_binary(tree, names, env, lib)
                run.binary_proof = {"ok": ok, "evidence": evidence}
                for line in evidence:
                    say("binary: " + line)
                if not ok:
                    warn("binary mode does NOT load our liburing.so.2 as intended")
        if mode == "traced":
            shutil.rmtree(runner.tracedir, ignore_errors=True)
            os.makedirs(runner.tracedir)
        run.results[mode] = runner.run_mode(
            mode, tree, names, env, run.results.get("reference"), nobuild(mode, tree), builds.ref
        )
        if mode == "traced":
            traces = os.listdir(runner.tracedir)
            size = sum(os.path.getsize(os.path.join(runner.tracedir, f)) for f in traces)
            say(
                "traced: %d trace files, %.0f MB (LIBURING_TRACE, LIBURING_DEBUG=1 and "
                "LIBURING_CHECK=1 set)" % (len(traces), size / 1e6)
            )
            if not os.environ.get("KEEP_TRACES"):
                shutil.rmtree(runner.tracedir, ignore_errors=True)
            run.unexpected_findings = check_findings.unexpected(
                os.path.join(run.cache, "logs", mode), names, check_findings.expected()
            )


def main(argv):
    args = parse_args(argv)
    t_start = time.time()
    args.lock = lock(args.cache)  # held until exit
    builds, names = prepare(args)
    state_path = os.path.join(args.cache, "results.json")
    run = types.SimpleNamespace(
        args=args,
        cache=args.cache,
        names=names,
        modes=list(args.modes),
        results={},
        ex_results={},
        trees={"reference": builds.ref},
        binary_proof=None,
        internal=[None],
        previous=report.load_json(state_path) or {},
        src_desc=args.src_desc,
        meta={"kernel": kernel_id(), "source": args.src_desc, "timeout": args.timeout},
        abi_ok=args.abi_ok,
        header_fail=args.header_fail,
        t_start=t_start,
        unexpected_findings=[],
    )
    reuse_reference(run)
    runner = Runner(args, args.cache)
    build_dropins(run, builds)
    run_tests(run, builds, runner)
    if run.want_examples:
        ex_names = builds.examples()
        if args.no_bench:
            ex_names = [n for n in ex_names if n not in EXAMPLE_BENCH]
        say("examples: running on upstream's build, then on ours")
        run.ex_results = run_examples(
            args, args.cache, builds.ref, run.trees["source"], ex_names, runner.kmsg
        )
    report.analyse(run)
    report.write_report(run)
    report.save_state(run, state_path)
    return report.print_outcome(run)


def on_sigterm(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, on_sigterm)
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
