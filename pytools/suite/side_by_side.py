# SPDX-License-Identifier: MIT
"""A mode's first pass with several tests at once. Most of liburing's tests
sleep, wait on timers or on the kernel, so one test at a time leaves a CPU
idle for most of a mode's three minutes. Each worker runs its tests in a
directory of its own (a copy of the tree's test directory without the
sources), because some tests create files with fixed names where they run.

What a concurrent neighbour can disturb is judged alone afterwards: the
reference reruns its own failures and a drop-in mode reruns what did worse
than the reference as back-to-back pairs (runner.py), and those reruns never
run side by side."""

import os
import shutil
import threading

# What a worker's copy leaves out: sources and objects, never run.
_NOT_COPIED = shutil.ignore_patterns("*.c", "*.cc", "*.h", "*.o", "*.d", "output")


# Tests that read state the whole machine shares, run after the others, one
# at a time, with the reason.
ALONE = {
    "wq-aff": "takes its own pid + 2 to be its io-wq worker's: a process that a "
    "neighbour starts in between makes it skip",
    "iowait": "reads the machine's iowait time from /proc/stat",
    "min-timeout-wait": "times its waits to a few milliseconds",
}


def worker_dirs(testdir, count):
    """testdir itself for the first worker, fresh copies beside it for the others."""
    dirs = [testdir]
    for k in range(2, count + 1):
        copy = "%s-worker%d" % (testdir, k)
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(testdir, copy, symlinks=True, ignore=_NOT_COPIED)
        os.makedirs(os.path.join(copy, "output"), exist_ok=True)
        dirs.append(copy)
    return dirs


def longest_first(names, hints):
    """The order tests are handed out: the longest known first (from `hints`,
    name -> result record with "secs", e.g. the reference's results of this
    run), so that a long test does not start last and run alone; unknown ones
    keep their place after them."""
    known = sorted(
        (n for n in names if (hints.get(n) or {}).get("secs")),
        key=lambda n: -hints[n]["secs"],
    )
    seen = set(known)
    return known + [n for n in names if n not in seen]


def first_pass(testdir, names, hints, count, attempt, finished, kill_running):
    """Runs every test of `names` once with `count` workers: attempt(dir, name)
    gives its record, finished(name, record) is called with each, one at a
    time. Interrupted, it empties the queue and kill_running() ends the tests
    the workers are running."""
    dirs = worker_dirs(testdir, count)
    queue = longest_first([n for n in names if n not in ALONE], hints or {})
    queue.reverse()  # popped from the end
    lock = threading.Lock()

    def work(workdir):
        while True:
            with lock:
                if not queue:
                    return
                name = queue.pop()
            record = attempt(workdir, name)
            with lock:
                finished(name, record)

    threads = [threading.Thread(target=work, args=(d,), daemon=True) for d in dirs]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for name in names:
            if name in ALONE:
                finished(name, attempt(testdir, name))
    except BaseException:
        with lock:
            del queue[:]
        kill_running()
        raise
    finally:
        for d in dirs[1:]:
            shutil.rmtree(d, ignore_errors=True)
