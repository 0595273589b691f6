# SPDX-License-Identifier: MIT
"""Running liburing's tests: one program as upstream's runtests.sh does
(timeout, exit 77 a skip, kernel log checked), a mode's full pass, the
reference's reruns of its own failures, and the paired reruns (pairs.py) of
what did worse on ours."""

import errno
import os
import signal
import subprocess
import threading
import time

from . import pairs, side_by_side
from .common import (
    FAIL,
    NA,
    NOBUILD,
    PASS,
    SKIP,
    SKIP_EXIT,
    TIMEOUT,
    TRACED_ENV,
    build_env,
    failing,
    fmt_outcome,
    rec,
    say,
    worse,
)

# Kernel log lines that upstream's runtests.sh treats as a failure of the test
# that was running when they appeared.
DMESG_BAD = (
    "kernel BUG at",
    "WARNING:",
    "BUG:",
    "Oops:",
    "possible recursive locking detected",
    "Internal error",
    "INFO: suspicious RCU usage",
    "INFO: possible circular locking dependency detected",
    "general protection fault:",
    "blktests failure",
)


class Kmsg:
    """Kernel log watcher, like runtests.sh's dmesg check (root only). With
    tests side by side, the log is read from where it stood when the first of
    the running tests started, and a line goes to the test that ends first."""

    def __init__(self, enabled):
        self.fd = None
        self.lock = threading.Lock()
        self.running = 0
        if not enabled:
            return
        try:
            self.fd = os.open("/dev/kmsg", os.O_RDWR | os.O_NONBLOCK)
        except OSError:
            self.fd = None

    def mark(self, text):
        if self.fd is None:
            return
        with self.lock:
            try:
                if self.running == 0:
                    os.lseek(self.fd, 0, os.SEEK_END)
                self.running += 1
                os.write(self.fd, ("Running test %s:\n" % text).encode())
            except OSError:
                pass

    def bad_lines(self):
        if self.fd is None:
            return []
        with self.lock:
            self.running = max(0, self.running - 1)
            return self._read_bad()

    def _read_bad(self):
        bad = []
        while True:
            try:
                rec = os.read(self.fd, 8192)
            except BlockingIOError:
                break
            except OSError as e:
                if e.errno == errno.EPIPE:  # overwritten records: keep reading
                    continue
                break
            if not rec:
                break
            msg = rec.decode("utf-8", "replace").split(";", 1)[-1].split("\n", 1)[0]
            if any(p in msg for p in DMESG_BAD):
                bad.append(msg)
        return bad


SIGNAMES = {
    getattr(signal, n): n
    for n in dir(signal)
    if n.startswith("SIG") and not n.startswith("SIG_") and isinstance(getattr(signal, n), int)
}


def default_signals():
    """In the test's child before exec: SIGINT and SIGQUIT at their defaults.
    A shell ignores both in the jobs it starts with `&` (check-arch runs its
    i386 suite shares that way), and an ignored signal stays ignored across
    exec. fdinfo-sqpoll stops each of its 1,000 children with SIGINT: ignored,
    every child ran its full sleep and the test took 53 s instead of 3."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGQUIT, signal.SIG_DFL)


def run_one(cmd, cwd, env, timeout, kill_after, logp, kmsg, label, append=False):
    """Runs one program like runtests.sh: returns (kind, detail, seconds)."""
    kmsg.mark(label)
    with open(logp, "a" if append else "w") as log:
        log.write("=== %s: %s (cwd %s) at %s\n" % (label, " ".join(cmd), cwd, time.ctime()))
        log.flush()
        t0 = time.time()
        try:
            p = subprocess.Popen(
                cmd,
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
                preexec_fn=default_signals,
            )
        except OSError as e:
            log.write("cannot execute: %s\n" % e)
            return FAIL, "exec", 0.0
        timed_out = False
        RUNNING.add(p.pid)
        try:
            try:
                rc = p.wait(timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                killpg(p.pid, signal.SIGINT)
                try:
                    rc = p.wait(kill_after)
                except subprocess.TimeoutExpired:
                    killpg(p.pid, signal.SIGKILL)
                    rc = p.wait()
        finally:
            # Leftovers the test forked (and the test itself if we are interrupted).
            killpg(p.pid, signal.SIGKILL)
            RUNNING.discard(p.pid)
        secs = time.time() - t0
        log.write("=== exit %s after %.1f s%s\n" % (rc, secs, " (TIMEOUT)" if timed_out else ""))
        bad = kmsg.bad_lines()
        if bad:
            log.write("=== kernel log during the test:\n" + "\n".join(bad) + "\n")
    if timed_out:
        return TIMEOUT, None, secs
    if rc == SKIP_EXIT:
        return SKIP, None, secs
    if rc != 0:
        return FAIL, (SIGNAMES.get(-rc, "sig%d" % -rc) if rc < 0 else str(rc)), secs
    if bad:
        return FAIL, "dmesg", secs
    return PASS, None, secs


# Process groups of the tests running now: an interrupted harness kills them
# all, including those that worker threads started (side_by_side.py).
RUNNING = set()


def kill_running():
    for pgid in list(RUNNING):
        killpg(pgid, signal.SIGKILL)


def killpg(pgid, sig):
    try:
        os.killpg(pgid, sig)
    except OSError:
        pass


def log_tail(logp, start, lines=8):
    """The last lines a run appended to log file `logp` after byte offset `start`."""
    try:
        with open(logp, "rb") as f:
            f.seek(start)
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return []
    return text.splitlines()[-lines:]


def judge_suspects(args, label, suspects, results, run_pair, log_of):
    """Paired reruns (pairs.py) of the tests of `label` (a drop-in mode or
    "examples") that did worse than the reference; each suspect's record in
    `results` is replaced by one carrying the verdict and every round."""
    if not suspects:
        return
    say(
        "%s: %d did worse than the reference; rerunning as pairs (reference, then ours), "
        "up to %d rounds: %s" % (label, len(suspects), args.pair_rounds, " ".join(suspects))
    )
    judge = pairs.PairJudge(
        worse, failing, rounds=args.pair_rounds, needed=args.pair_needed, budget=args.retry_budget
    )

    def told(name, rnd, p):
        say(
            "  [%s pair %d] %-32s reference %s, ours %s: %s"
            % (label, rnd, name, fmt_outcome(p["ref_rec"]), fmt_outcome(p["ours_rec"]), p["call"])
        )

    judged = judge.judge(suspects, run_pair, told)
    for name in suspects:
        results[name] = apply_verdict(results[name], judged[name], log_of(name))
        say("  %s/%s: %s" % (label, name, results[name]["verdict"]))


def apply_verdict(first, judged, logp):
    """The record a suspect ends with: its first-pass failure (regression,
    env-sensitive, unjudged) or ours' passing rerun (passed-on-rerun), plus
    the pairs, ours' attempts and where the log is."""
    rounds = [
        {
            "round": p["round"],
            "reference": fmt_outcome(p["ref_rec"]),
            "ours": fmt_outcome(p["ours_rec"]),
            "call": p["call"],
        }
        for p in judged["pairs"]
    ]
    verdict = judged["verdict"]
    best = pairs.best_ours(judged) if verdict == pairs.PASSED_ON_RERUN else None
    r = dict(best or first)
    r.pop("tail", None)
    if best:
        r["flaky"] = True
    r.update(
        verdict=verdict,
        pairs=rounds,
        log=logp,
        attempts=[fmt_outcome(first)] + [x["ours"] for x in rounds],
    )
    if verdict == pairs.ENV_SENSITIVE:
        both = [p for p in judged["pairs"] if p["call"] == pairs.BOTH_FAIL][-1]
        r["env_evidence"] = {
            "round": both["round"],
            "reference": both["ref_rec"].get("tail", []),
            "ours": both["ours_rec"].get("tail", []),
        }
    if verdict == pairs.UNJUDGED:
        r["note"] = "retry budget exhausted"
    return r


class Runner:
    def __init__(self, args, cache):
        self.args = args
        self.cache = cache
        # The traced mode's trace files (one per test), removed after the run
        # unless KEEP_TRACES is set: the whole suite writes several hundred MB.
        self.tracedir = os.path.join(cache, "traces")
        self.kmsg = Kmsg(not args.no_dmesg and os.geteuid() == 0)

    def run_mode(self, mode, tree, names, env, ref_results, nobuild_reason, ref_tree=None):
        """The full pass of one mode, then its reruns: the reference reruns its own
        failures; a drop-in mode reruns what did worse than the reference as
        back-to-back pairs with the reference (tree `ref_tree`), see pairs.py."""
        testdir = os.path.join(tree, "test")
        logdir = os.path.join(self.cache, "logs", mode)
        os.makedirs(logdir, exist_ok=True)
        os.makedirs(os.path.join(testdir, "output"), exist_ok=True)
        ref_results = ref_results or {}

        extra = [] if mode == "reference" else list(self.args.ours_env)
        if mode == "traced":
            extra += [e.replace("{tracedir}", self.tracedir) for e in TRACED_ENV]

        def env_of(name):
            # --ours-env: extra variables for our runs only ({test}: the test name).
            if not extra:
                return env
            own = dict(env)
            for item in extra:
                key, _, value = item.partition("=")
                own[key] = value.replace("{test}", name)
            return own

        def attempt(name, label):
            return self.attempt(
                testdir,
                env_of(name),
                os.path.join(logdir, name + ".log"),
                name,
                label,
                append=label != mode,
            )

        results = {}
        t0 = time.time()
        side = self.args.side_by_side
        say(
            "%s: running %d tests (timeout %d s%s)"
            % (mode, len(names), self.args.timeout, ", %d side by side" % side if side > 1 else "")
        )
        # Tests without a binary are settled first: the reason may rebuild one
        # in the tree, which the workers' copies must then contain.
        runnable = []
        for name in names:
            missing = None
            if not os.path.exists(os.path.join(testdir, name + ".t")):
                missing = nobuild_reason(name)
            if missing:
                results[name] = rec(*missing)
            else:
                runnable.append(name)
        done = [len(results)]

        def first_attempt(workdir, name):
            return self.attempt(
                workdir, env_of(name), os.path.join(logdir, name + ".log"), name, mode, append=False
            )

        def finished(name, r):
            results[name] = r
            done[0] += 1
            self.progress(mode, done[0], len(names), name, r, ref_results.get(name))

        if side > 1 and len(runnable) > 1:
            side_by_side.first_pass(
                testdir, runnable, ref_results, side, first_attempt, finished, kill_running
            )
        else:
            for name in runnable:
                finished(name, first_attempt(testdir, name))
        results = {n: results[n] for n in names}

        if mode == "reference":
            self.retry_own_failures(mode, names, results, attempt)
        else:
            ref_testdir = os.path.join(ref_tree, "test")
            os.makedirs(os.path.join(ref_testdir, "output"), exist_ok=True)

            def run_pair(name, rnd):
                logp = os.path.join(logdir, name + ".log")
                ref = self.attempt(
                    ref_testdir,
                    build_env(),
                    logp,
                    name,
                    "%s pair %d: reference" % (mode, rnd),
                    append=True,
                    tail=True,
                )
                ours = self.attempt(
                    testdir,
                    env_of(name),
                    logp,
                    name,
                    "%s pair %d: ours" % (mode, rnd),
                    append=True,
                    tail=True,
                )
                return ref, ours, 0.0

            suspects = [
                n
                for n in names
                if results[n]["kind"] not in (NOBUILD, NA) and worse(results[n], ref_results.get(n))
            ]
            judge_suspects(
                self.args,
                mode,
                suspects,
                results,
                run_pair,
                lambda n: os.path.join(logdir, n + ".log"),
            )
        say("%s: finished in %.0f s" % (mode, time.time() - t0))
        return results

    def attempt(self, testdir, env, logp, name, label, append, tail=False):
        """Runs ./<name>.t once; with tail, a failure keeps the end of its output."""
        start = os.path.getsize(logp) if append and os.path.exists(logp) else 0
        kind, detail, secs = run_one(
            ["./%s.t" % name],
            testdir,
            env,
            self.args.timeout,
            self.args.kill_after,
            logp,
            self.kmsg,
            "%s.t [%s]" % (name, label),
            append=append,
        )
        r = rec(kind, detail, secs)
        if tail and kind not in (PASS, SKIP):
            r["tail"] = log_tail(logp, start)
        return r

    def retry_own_failures(self, mode, names, results, attempt):
        """The reference reruns its failures, so that a flaky failure there does
        not hide a regression of ours. Rounds come after the full pass, spread in
        time rather than repeated back to back under the same load spike."""
        pending = [n for n in names if results[n]["kind"] not in (PASS, SKIP, NOBUILD, NA)]
        spent = 0.0
        for rnd in range(1, self.args.retries + 1):
            if not pending:
                break
            say("%s: retry round %d: %s" % (mode, rnd, " ".join(pending)))
            still = []
            for name in pending:
                r = results[name]
                if spent > self.args.retry_budget:
                    r["note"] = "retry budget exhausted"
                    continue
                r.setdefault("attempts", [fmt_outcome(r)])
                again = attempt(name, "%s retry %d" % (mode, rnd))
                spent += again.get("secs") or 0
                r["attempts"].append(fmt_outcome(again))
                if again["kind"] not in (PASS, SKIP):
                    still.append(name)
                else:
                    again["attempts"] = r["attempts"]
                    again["flaky"] = True
                    results[name] = again
                say("  [%s retry %d] %-32s %s" % (mode, rnd, name, fmt_outcome(again)))
            pending = still

    def progress(self, mode, i, n, name, r, ref):
        note = ""
        if r.get("attempts"):
            note = "  [attempts: %s%s]" % (
                ", ".join(r["attempts"]),
                ", flaky" if r.get("flaky") else "",
            )
        if (
            self.args.verbose
            or r["kind"] not in (PASS, SKIP)
            or r.get("attempts")
            or (ref is not None and worse(r, ref))
        ):
            say("  [%s %3d/%d] %-32s %s%s" % (mode, i, n, name, fmt_outcome(r), note))
        elif i % 50 == 0:
            say("  [%s %3d/%d] ..." % (mode, i, n))
