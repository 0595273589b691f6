#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`make check-sanitize`: liburing's tests under AddressSanitizer and UBSan.

Two builds of the same test sources, both with -fsanitize=address,undefined:
  ours       our headers and our liburing.a (the harness's source mode);
  reference  upstream's headers and upstream's liburing.a.
Neither library is instrumented (ours is Rust; upstream's is built as
upstream builds it), so the two sides differ only in the library: a report
that the reference build of the same test also shows is the test's own (or
upstream's) and is listed, not blamed on us.

Each test runs on ours and then on the reference, back to back, with every
sanitizer report made fatal and also written to a file per process (so a test
that closes its stderr or forks cannot hide one). It fails the check when:
  - ours shows a report whose signature the reference's run of it lacks;
  - ours does worse than the reference and paired reruns (pairs.py, as in the
    main harness) confirm it.

The tests run are listed in sanitize-subset.txt (with why each is there), or
every test with --all. See README.md ("Sanitizers").
"""

import argparse
import fcntl
import glob
import os
import re
import resource
import shutil
import sys
import time

from pytools.upstream import upstream
from pytools.upstream.upstream import fresh_tree

from .builds import Builds
from .common import (
    NOBUILD,
    PASS,
    REPO,
    build_env,
    die,
    fmt_outcome,
    fmt_pairs,
    is_regression,
    rec,
    run_logged,
    say,
    worse,
)
from .report import cell, env_sensitive_lines, table
from .runner import Kmsg, judge_suspects, run_one

SUBSET = os.path.join(REPO, "liburing-tests", "sanitize-subset.txt")

SAN_CFLAGS = (
    "-g -O1 -Wall -Wextra -fsanitize=address,undefined "
    "-fno-omit-frame-pointer -fno-optimize-sibling-calls"
)

# Reports are fatal: ASan stops at the first error, UBSan's "runtime error"
# aborts the test instead of printing and going on. Leak checking stays on:
# upstream's tests that leak do so on the reference build too and are
# classified by comparison, while a leak only ours shows is ours.
SAN_ENV = {
    "ASAN_OPTIONS": "halt_on_error=1:detect_leaks=1:abort_on_error=0:exitcode=86:"
    "detect_stack_use_after_return=0:allow_addr2line=1",
    "UBSAN_OPTIONS": "halt_on_error=1:print_stacktrace=1:exitcode=87",
}

# Frames of the allocator itself, skipped when naming where a leak comes from.
ALLOC_FRAMES = re.compile(
    r"^(__interceptor_|___interceptor_)?(malloc|calloc|realloc|free|"
    r"posix_memalign|aligned_alloc|memalign|valloc|pvalloc|strdup|"
    r"strndup|operator new.*|__libc_.*)$"
)
FRAME = re.compile(r"^\s*#(\d+) 0x[0-9a-f]+ in (\S+)(?: (\S+))?")
ASAN_ERR = re.compile(
    r"ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|"
    r"ThreadSanitizer|MemorySanitizer): ?(\S*)"
)
UBSAN_ERR = re.compile(r"(\S+?):(\d+):(\d+): runtime error: (.*)")
LEAK = re.compile(r"(Direct|Indirect) leak of \d+ byte")


# The only heap memory our library allocates is the probe io_uring_get_probe*
# returns, which the caller frees with io_uring_free_probe. A test that never
# frees it leaks it on either build, but upstream (built without libc on
# x86_64: CONFIG_NOLIBC) allocates it with mmap, out of ASan's sight, so only
# ours can show it: bind-listen.t does this. Such a leak is the test's own.
PROBE_ALLOC = re.compile(r" in (uring::probe::get_probe\S*|io_uring_get_probe(_ring)?) ")
CALLER_PROBE_LEAK = "leak of a probe the test never freed (io_uring_free_probe)"
TESTS_OWN = (CALLER_PROBE_LEAK,)


def report_lines(text):
    """The lines that make a sanitizer report (what a reader scans for)."""
    return [l for l in text.splitlines() if ASAN_ERR.search(l) or UBSAN_ERR.search(l)]


def signatures(text):
    """The reports in a log, each as a short signature that is the same for
    the same defect in either build: kind and the first frame (or source
    line) outside the allocator, with directories and numbers left out."""
    sigs = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = UBSAN_ERR.search(line)
        if m:
            msg = re.sub(r"-?\b(0x[0-9a-f]+|\d+)\b", "N", m.group(4))
            sigs.append("ubsan %s:%s: %s" % (os.path.basename(m.group(1)), m.group(2), msg))
            continue
        m = ASAN_ERR.search(line)
        if m and m.group(1) != "LeakSanitizer":
            sigs.append(
                "%s %s in %s" % (m.group(1), m.group(2) or "?", first_frame(lines[i + 1 :]))
            )
            continue
        if LEAK.search(line):
            frames = lines[i + 1 : i + 12]
            if any(PROBE_ALLOC.search(f) for f in frames if FRAME.match(f)):
                sigs.append(CALLER_PROBE_LEAK)
                continue
            sigs.append(
                "leak (%s) from %s"
                % (LEAK.search(line).group(1).lower(), first_frame(lines[i + 1 :]))
            )
    return sigs


def first_frame(lines):
    """The first stack frame after a report's headline that is not the allocator."""
    for line in lines[:40]:
        m = FRAME.match(line)
        if not m:
            if line.strip() == "" or LEAK.search(line):
                break
            continue
        func = m.group(2)
        if ALLOC_FRAMES.match(func):
            continue
        return func
    return "?"


class SanitizedRun:
    """One side (ours or reference): its tree and how to run a test in it."""

    def __init__(self, side, tree, logdir, runner_args, kmsg):
        self.side, self.tree, self.logdir = side, tree, logdir
        self.args, self.kmsg = runner_args, kmsg
        self.testdir = os.path.join(tree, "test")
        os.makedirs(os.path.join(self.testdir, "output"), exist_ok=True)
        os.makedirs(logdir, exist_ok=True)

    def run(self, name, tag=""):
        base = os.path.join(self.logdir, name + (".%s" % tag if tag else ""))
        for old in glob.glob(base + ".san.*"):
            os.unlink(old)
        env = build_env()
        for key, val in SAN_ENV.items():
            env[key] = "%s:log_path=%s.san" % (val, base)
        if not os.path.exists(os.path.join(self.testdir, name + ".t")):
            return rec(NOBUILD)
        kind, detail, secs = run_one(
            ["./%s.t" % name],
            self.testdir,
            env,
            self.args.timeout,
            self.args.kill_after,
            base + ".log",
            self.kmsg,
            "%s.t [sanitize %s %s]" % (name, self.side, tag),
        )
        text = ""
        for path in [base + ".log"] + sorted(glob.glob(base + ".san.*")):
            with open(path, errors="replace") as f:
                text += f.read() + "\n"
        r = rec(kind, detail, secs)
        sigs = sorted(set(signatures(text)))
        if sigs:
            r["reports"] = sigs
            r["report_lines"] = report_lines(text)[:6]
        r["log"] = base + ".log"
        return r


def build_tree(builds, src, tree, log, cpp_include, liburing_a, targets, jobs):
    """A fresh configured copy of the source with `liburing_a` as its library
    and the tests built with the sanitizer flags."""
    fresh_tree(src, tree, log)
    if cpp_include:
        # Our headers alone: upstream's must not be found (as in source mode).
        os.rename(
            os.path.join(tree, "src", "include"),
            os.path.join(tree, "src", "include.upstream-hidden"),
        )
    shutil.copy2(liburing_a, os.path.join(tree, "src", "liburing.a"))
    cmd = ["make", "-j%d" % jobs, "-k", "V=1", "-C", "test", "CFLAGS=" + SAN_CFLAGS]
    if cpp_include:
        cmd.append("CPPFLAGS=-I" + cpp_include)
    run_logged(cmd + [n + ".t" for n in targets], log, cwd=tree, check=False)


def read_subset(path):
    """Test names from the subset file: the first word of each line; '#' comments."""
    names = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                names.append(line.split()[0])
    return names


def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="python3 -m pytools.suite.sanitize",
        description="liburing's tests under ASan+UBSan, ours vs upstream",
    )
    ap.add_argument("--stage", required=True, help="staged install of OUR library (absolute)")
    ap.add_argument("--all", action="store_true", help="every test, not the subset")
    ap.add_argument(
        "--subset",
        default=SUBSET,
        help="file listing the tests (default %s)" % os.path.relpath(SUBSET, REPO),
    )
    ap.add_argument("--only", help="comma list of test names (overrides the subset)")
    ap.add_argument(
        "--timeout",
        type=int,
        default=90,
        help="seconds per test (default 90: sanitized tests run slower)",
    )
    ap.add_argument("--kill-after", type=int, default=10)
    ap.add_argument("--pair-rounds", type=int, default=3)
    ap.add_argument("--pair-needed", type=int, default=2)
    ap.add_argument("--retry-budget", type=int, default=600)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    ap.add_argument("--cache", default=os.path.join(REPO, ".cache", "liburing-tests"))
    ap.add_argument("--no-dmesg", action="store_true")
    args = ap.parse_args(argv)
    args.stage = os.path.abspath(args.stage)
    args.cache = os.path.abspath(args.cache)
    args.rebuild = False
    return args


def main(argv):
    args = parse_args(argv)
    t_start = time.time()
    cache = args.cache
    logs = os.path.join(cache, "logs")
    os.makedirs(logs, exist_ok=True)
    # The same lock as the harness: both use the reference build in the cache.
    lockf = open(os.path.join(cache, ".lock"), "w")  # noqa: SIM115  (held until exit: the lock)
    try:
        fcntl.flock(lockf, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        say("another liburing-tests run holds %s; waiting" % lockf.name)
        fcntl.flock(lockf, fcntl.LOCK_EX)
    with open(os.path.join(logs, "fetch.log"), "a") as log:
        src, src_desc = upstream.source(cache, log)
    say("liburing source: %s" % src_desc)
    builds = Builds(args, src, cache)
    builds.reference(src_desc)  # upstream's liburing.a
    all_tests = builds.tests()
    if args.only:
        names = [
            n.strip()[:-2] if n.strip().endswith(".t") else n.strip()
            for n in args.only.split(",")
            if n.strip()
        ]
    elif args.all:
        names = all_tests
    else:
        names = read_subset(args.subset)
    unknown = [n for n in names if n not in all_tests]
    if unknown:
        die("unknown test name(s): %s" % ", ".join(unknown))

    ours_a = os.path.join(args.stage, "usr", "lib", "liburing.a")
    if not os.path.exists(ours_a):
        die("%s missing (run `make stage`)" % ours_a)
    trees = {
        "ours": os.path.join(builds.root, "sanitize-ours"),
        "reference": os.path.join(builds.root, "sanitize-reference"),
    }
    t0, cpu0 = time.time(), children_cpu()
    for side, tree in trees.items():
        logp = os.path.join(logs, "build-sanitize-%s.log" % side)
        say(
            "sanitize: building %d tests with %s against %s (log: %s)"
            % (
                len(names),
                "-fsanitize=address,undefined",
                "our headers + liburing.a" if side == "ours" else "upstream",
                logp,
            )
        )
        with open(logp, "w") as log:
            if side == "ours":
                build_tree(
                    builds,
                    src,
                    tree,
                    log,
                    os.path.join(args.stage, "usr", "include"),
                    ours_a,
                    names,
                    args.jobs,
                )
            else:
                build_tree(
                    builds,
                    src,
                    tree,
                    log,
                    None,
                    os.path.join(builds.ref, "src", "liburing.a"),
                    names,
                    args.jobs,
                )
    t_build = (time.time() - t0, children_cpu() - cpu0)

    kmsg = Kmsg(not args.no_dmesg and os.geteuid() == 0)
    sides = {
        side: SanitizedRun(side, tree, os.path.join(logs, "sanitize-" + side), args, kmsg)
        for side, tree in trees.items()
    }
    results = {"ours": {}, "reference": {}}
    t0, cpu0 = time.time(), children_cpu()
    say(
        "sanitize: running %d tests, each on ours then on the reference (timeout %d s)"
        % (len(names), args.timeout)
    )
    for i, name in enumerate(names, 1):
        ours = results["ours"][name] = sides["ours"].run(name)
        ref = results["reference"][name] = sides["reference"].run(name)
        if ours.get("reports") or ref.get("reports") or ours["kind"] != ref["kind"]:
            say(
                "  [sanitize %3d/%d] %-32s ours %s%s, reference %s%s"
                % (
                    i,
                    len(names),
                    name,
                    fmt_outcome(ours),
                    " (%d reports)" % len(ours["reports"]) if ours.get("reports") else "",
                    fmt_outcome(ref),
                    " (%d reports)" % len(ref["reports"]) if ref.get("reports") else "",
                )
            )
        elif i % 20 == 0:
            say("  [sanitize %3d/%d] ..." % (i, len(names)))

    # A test doing worse on ours with no report of its own to explain it: pairs.
    def run_pair(name, rnd):
        tag = "pair%d" % rnd
        return sides["reference"].run(name, tag), sides["ours"].run(name, tag), 0.0

    # (A test with reports on ours is judged by them instead: blamed or explained.)
    suspects = [
        n
        for n in names
        if results["ours"][n]["kind"] != NOBUILD
        and worse(results["ours"][n], results["reference"][n])
        and not results["ours"][n].get("reports")
    ]
    judge_suspects(
        args,
        "sanitize",
        suspects,
        results["ours"],
        run_pair,
        lambda n: os.path.join(logs, "sanitize-ours", n + ".pair<N>.log"),
    )
    t_run = (time.time() - t0, children_cpu() - cpu0)

    return report(args, names, results, t_build, t_run, time.time() - t_start)


def children_cpu():
    """User + system CPU seconds of every finished child process so far."""
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def ours_only(results, name):
    """Reports on ours that upstream's build of the test lacks, less those
    known to be the test's own (TESTS_OWN)."""
    ref = set(results["reference"][name].get("reports") or [])
    return [
        s for s in results["ours"][name].get("reports") or [] if s not in ref and s not in TESTS_OWN
    ]


def report(args, names, results, t_build, t_run, t_total):
    ours, ref = results["ours"], results["reference"]
    blamed = {n: ours_only(results, n) for n in names if ours_only(results, n)}
    shared = {n: ours[n]["reports"] for n in names if ours[n].get("reports") and n not in blamed}
    ref_only = {
        n: ref[n]["reports"] for n in names if ref[n].get("reports") and not ours[n].get("reports")
    }
    regressions = [
        n
        for n in names
        if ours[n]["kind"] != NOBUILD
        and not ours[n].get("reports")
        and is_regression(ours[n], ref[n])
    ]
    nobuild = [n for n in names if ours[n]["kind"] == NOBUILD]

    say("")
    say("=" * 78)
    rows = [
        [
            n,
            cell(ref[n]) + (" +reports" if ref[n].get("reports") else ""),
            cell(ours[n]) + (" +reports" if ours[n].get("reports") else ""),
        ]
        for n in names
        if ours[n]["kind"] != PASS
        or ref[n]["kind"] != PASS
        or ours[n].get("reports")
        or ref[n].get("reports")
    ]
    if rows:
        for line in table(rows, ["test (not clean on both)", "reference", "ours"]):
            say(line)
    for title, group in (
        ("reports on OURS only (failures)", blamed),
        (
            "reports that are the test's or upstream's own (upstream's build "
            "shows them too, or sanitize.py's TESTS_OWN)",
            shared,
        ),
        ("reports on the reference only", ref_only),
    ):
        if group:
            say("")
            say("%s:" % title)
            for n, sigs in group.items():
                side = ours if group is not ref_only else ref
                say("  %s: %s  (log %s)" % (n, "; ".join(sigs), side[n]["log"]))
                for line in side[n].get("report_lines") or []:
                    say("    | " + line.strip())
    if regressions:
        say("")
        say("worse on ours than on the reference under sanitizers:")
        for n in regressions:
            say(
                "  %s: reference %s, ours %s  %s"
                % (n, fmt_outcome(ref[n]), fmt_outcome(ours[n]), fmt_pairs(ours[n]))
            )
    env = env_sensitive_lines("sanitize", ours, "  ")
    if env:
        say("")
        say("environment-sensitive (failed on the reference too, back to back):")
        for line in env:
            say(line)
    if nobuild:
        say("")
        say("did not build against ours: %s (logs/build-sanitize-ours.log)" % ", ".join(nobuild))

    n_reports = sum(len(ours[n].get("reports") or []) for n in names)
    failed = sorted(set(blamed) | set(regressions) | set(nobuild))
    passed = sum(1 for n in names if ours[n]["kind"] == PASS and n not in failed)
    say("")
    say(
        "sanitize: %d tests (%s), ours: %d pass, %d with sanitizer reports (%d reports; %d "
        "only on ours), %d worse than reference, %d nobuild; reference: %d with reports"
        % (
            len(names),
            "all" if args.all else "subset" if not args.only else "--only",
            passed,
            sum(1 for n in names if ours[n].get("reports")),
            n_reports,
            len(blamed),
            len(regressions),
            len(nobuild),
            sum(1 for n in names if ref[n].get("reports")),
        )
    )
    # CPU seconds next to wall time: on a loaded machine the wall time says
    # little about what the same work takes in CI.
    say(
        "sanitize time: build %.0f s (%.0f CPU s), runs %.0f s (%.0f CPU s), total %.0f s"
        % (t_build[0], t_build[1], t_run[0], t_run[1], t_total)
    )
    say(
        "%d passed, %d failed, %d skipped"
        % (passed, len(failed), len(names) - passed - len(failed))
    )
    return 1 if failed else 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
