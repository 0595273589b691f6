#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""`make bench`: every workload of bench/ built against our library and
against upstream liburing 2.15 from the same C source, run interleaved, plus
an A/A run (liburing against itself) to show what noise is here.

  python3 -m pytools.bench.run --ours STAGE_USR --upstream STAGE_USR --out DIR [--pairs N] [--quick]
  python3 -m pytools.bench.run --smoke --ours STAGE_USR --out DIR      (each program once, tiny counts)

Three passes:
  timed      --pairs rounds; in each, every row runs once per library and once
             more on liburing (the A/A run), the order rotating every round;
  enters     each row once per library under perf (syscall tracepoints) or,
             lacking it, strace, counting the io_uring_enter calls the
             measuring process makes between its two marker syscalls;
  callgrind  each row once per library under callgrind, counting the
             user-space instructions of the measured function bench_run()
             (dumped on its entry and on its return: the second part is it).
Raw figures go to DIR/raw.csv, DIR/counts.csv and DIR/functions.csv;
pytools.bench.report turns them into DIR/report.md and pytools.bench.plot into DIR/*.png.
"""

import argparse
import csv
import os
import platform
import re
import shutil
import subprocess
import sys
import time

from pytools import REPO

from . import workloads

BENCH_DIR = os.path.join(REPO, "bench")

SIDES = ("ours", "liburing")  # built against each; "liburing-aa" reuses liburing's binaries


def say(msg):
    print(msg, flush=True)


def build(side, usr, bindir, cc):
    os.makedirs(bindir, exist_ok=True)
    inc, lib = os.path.join(usr, "include"), os.path.join(usr, "lib")
    for prog in workloads.PROGRAMS:
        srcs = [os.path.join(BENCH_DIR, prog + ".c")] + [
            os.path.join(BENCH_DIR, h) for h in workloads.HELPERS
        ]
        cmd = (
            [
                cc,
                "-O2",
                "-g",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-I" + inc,
                "-o",
                os.path.join(bindir, prog),
            ]
            + srcs
            + ["-L" + lib, "-Wl,-rpath," + lib, "-l:liburing.so.2", "-ldl", "-pthread"]
        )
        r = subprocess.run(cmd, capture_output=True, text=True)
        if r.returncode:
            sys.exit(
                "bench: building %s against %s failed:\n%s%s" % (prog, side, r.stdout, r.stderr)
            )


def clean_env(extra=None):
    env = {k: v for k, v in os.environ.items() if k not in ("LD_LIBRARY_PATH", "LD_PRELOAD")}
    env.update(extra or {})
    return env


def parse_result(text):
    """The program's result line as a dict; {'skip': reason} for a skip."""
    for line in text.splitlines():
        if line.startswith("skip="):
            return {"skip": line[len("skip=") :]}
        if line.startswith("lib="):
            return dict(w.split("=", 1) for w in line.split() if "=" in w)
    return None


def command(row, bindir, n):
    return [os.path.join(bindir, row["prog"])] + row["args"] + ["n=%d" % n]


def run_program(cmd, want_lib, env=None, prefix=(), timeout=300):
    r = subprocess.run(
        list(prefix) + cmd, capture_output=True, text=True, env=clean_env(env), timeout=timeout
    )
    res = parse_result(r.stdout)
    if r.returncode or res is None:
        raise RuntimeError(
            "%s exited %d: %s%s" % (" ".join(cmd), r.returncode, r.stdout, r.stderr[-2000:])
        )
    if "skip" not in res:
        got = os.path.realpath(os.path.dirname(res["lib"]))
        if got != os.path.realpath(want_lib):
            raise RuntimeError(
                "%s loaded %s, expected a library in %s" % (cmd[0], res["lib"], want_lib)
            )
    return res


# ---------------------------------------------------------------- enters
# The calls of the process that issued the two marker syscalls (getppid)
# around bench_run(), between them.  perf records the syscall tracepoints
# (cheap: the workload keeps its pace); without perf, strace traces the
# measuring process alone (not its forked peer), which slows it down.
def perf_usable(perf):
    if not perf:
        return False
    r = subprocess.run(
        [perf, "stat", "-e", "syscalls:sys_enter_io_uring_enter", "true"],
        capture_output=True,
        text=True,
    )
    return r.returncode == 0


def count_between_marks(events):
    """events: (pid, 'enter' | 'mark') in order."""
    marks, enters = {}, {}
    for pid, ev in events:
        if ev == "mark":
            marks[pid] = marks.get(pid, 0) + 1
        elif marks.get(pid) == 1:
            enters[pid] = enters.get(pid, 0) + 1
    for pid, k in marks.items():
        if k >= 2:
            return enters.get(pid, 0)
    raise RuntimeError("no marker pair found")


def perf_events(perf, data):
    r = subprocess.run(
        [perf, "script", "-i", data, "-F", "pid,event"], capture_output=True, text=True, check=True
    )
    for line in r.stdout.splitlines():
        w = line.split()
        if len(w) >= 2:
            yield w[0], "mark" if "getppid" in w[1] else "enter"


STRACE_LINE = re.compile(r"^(io_uring_enter|getppid)\(")


def strace_events(path):
    with open(path) as f:
        for line in f:
            m = STRACE_LINE.match(line)
            if m:
                yield "main", "mark" if m.group(1) == "getppid" else "enter"


def count_enters(cmd, want_lib, tmp, perf, strace):
    """(io_uring_enter calls in bench_run(), ops it did) or None."""
    if perf:
        data = os.path.join(tmp, "perf.data")
        res = run_program(
            cmd,
            want_lib,
            prefix=[
                perf,
                "record",
                "-q",
                "-e",
                "syscalls:sys_enter_io_uring_enter",
                "-e",
                "syscalls:sys_enter_getppid",
                "-o",
                data,
                "--",
            ],
        )
        return count_between_marks(perf_events(perf, data)), int(res["ops"])
    if strace:
        trace = os.path.join(tmp, "strace.txt")
        res = run_program(
            cmd, want_lib, prefix=[strace, "-qq", "-o", trace, "-e", "trace=io_uring_enter,getppid"]
        )
        return count_between_marks(strace_events(trace)), int(res["ops"])
    return None


# ---------------------------------------------------------------- callgrind
def callgrind_totals(path):
    with open(path) as f:
        for line in f:
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
    return 0


def dumped_after_bench_run(path):
    """Whether this callgrind part holds exactly one bench_run() call: the
    part dumped when it returned (--dump-before zeroed the counters when it
    was entered, calls included)."""
    with open(path) as f:
        for line in f:
            if line.startswith("desc: Trigger:"):
                return "--dump-after=bench_run" in line
            if line.startswith("fn="):
                break
    return False


NAMED = re.compile(r"^\((\d+)\)(?: (.*))?$")


def callgrind_library_calls(path):
    """{function: [calls, inclusive Ir]} of every io_uring function called from
    outside the library (from the benchmark's own code)."""
    names, out = {}, {}
    fn = cfn = None
    pending = None

    def name_of(spec):
        m = NAMED.match(spec)
        if not m:
            return spec
        if m.group(2) is not None:
            names[m.group(1)] = m.group(2)
        return names.get(m.group(1), spec)

    with open(path) as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("fn="):
                fn = name_of(line[3:])
            elif line.startswith("cfn="):
                cfn = name_of(line[4:])
            elif line.startswith("calls="):
                pending = int(line[6:].split()[0])
            elif pending is not None and line and (line[0].isdigit() or line[0] in "+-*"):
                ir = int(line.split()[1]) if len(line.split()) > 1 else 0
                lib_fn = cfn and (cfn.startswith("io_uring") or cfn.startswith("__io_uring"))
                from_lib = fn and (fn.startswith("io_uring") or fn.startswith("__io_uring"))
                if lib_fn and not from_lib:
                    acc = out.setdefault(cfn, [0, 0])
                    acc[0] += pending
                    acc[1] += ir
                pending = None
    return out


# ---------------------------------------------------------------- machine
def machine():
    def first(path, key):
        try:
            with open(path) as f:
                for line in f:
                    if line.startswith(key):
                        return line.split(":", 1)[1].strip()
        except OSError:
            pass
        return "?"

    fs = subprocess.run(["stat", "-f", "-c", "%T", BENCH_DIR], capture_output=True, text=True)
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "nproc": str(os.cpu_count()),
        "cpu": first("/proc/cpuinfo", "model name"),
        "memory": first("/proc/meminfo", "MemTotal"),
        "kernel": "%s %s" % (platform.release(), platform.version()),
        "filesystem": fs.stdout.strip() or "?",
        "loadavg_start": open("/proc/loadavg").read().split()[:3],
    }


# ---------------------------------------------------------------- main
def main():
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--ours", required=True, help="our staged install's usr/ directory")
    ap.add_argument("--upstream", help="upstream liburing's staged usr/ directory")
    ap.add_argument("--out", required=True)
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument(
        "--quick", action="store_true", help="3 rounds, a quarter of the ops: a fast, rougher pass"
    )
    ap.add_argument(
        "--smoke",
        action="store_true",
        help="build against ours and run every row once with tiny counts",
    )
    ap.add_argument("--only", help="comma list of workloads (e.g. nop,pingpong)")
    args = ap.parse_args()
    cc = os.environ.get("CC", "cc")
    out = os.path.abspath(args.out)
    os.makedirs(out, exist_ok=True)
    work = os.path.join(out, "work")
    os.makedirs(work, exist_ok=True)
    rows = workloads.rows(work)
    if args.only:
        wanted = set(args.only.split(","))
        rows = [r for r in rows if r["workload"] in wanted]
    usr = {"ours": os.path.abspath(args.ours)}
    if args.upstream:
        usr["liburing"] = os.path.abspath(args.upstream)
    for side, d in usr.items():
        if not os.path.isfile(os.path.join(d, "include", "liburing.h")):
            sys.exit("bench: %s has no include/liburing.h (%s)" % (d, side))
    bins = {side: os.path.join(out, "bin", side) for side in usr}
    libs = {side: os.path.join(d, "lib") for side, d in usr.items()}
    for side in usr:
        build(side, usr[side], bins[side], cc)

    if args.smoke:
        t0 = time.time()
        for row in rows:
            res = run_program(command(row, bins["ours"], row["n_smoke"]), libs["ours"])
            say(
                "bench smoke: %-32s %s"
                % (
                    row["id"],
                    "skip: " + res["skip"] if "skip" in res else "ok (%s ops)" % res["ops"],
                )
            )
        say("bench smoke: %d rows in %.1f s" % (len(rows), time.time() - t0))
        return 0
    if "liburing" not in usr:
        sys.exit("bench: --upstream is required (except with --smoke)")

    pairs = 3 if args.quick else args.pairs
    scale = 0.25 if args.quick else 1.0
    info = machine()
    info.update(pairs=pairs, quick=args.quick, ours=usr["ours"], liburing=usr["liburing"])
    t_start = time.time()
    lat_dir = os.path.join(out, "latency")
    os.makedirs(lat_dir, exist_ok=True)

    # ---- timed pass: ours, liburing, liburing again (A/A), order rotating
    rotations = [
        ("ours", "liburing", "liburing-aa"),
        ("liburing", "liburing-aa", "ours"),
        ("liburing-aa", "ours", "liburing"),
    ]
    raw = []
    skipped = {}
    for p in range(pairs):
        say("bench: timed round %d/%d (%.0f s so far)" % (p + 1, pairs, time.time() - t_start))
        for row in rows:
            if row["id"] in skipped:
                continue
            n = max(int(row["n"] * scale), row["n_smoke"])
            for side in rotations[p % 3]:
                binside = "ours" if side == "ours" else "liburing"
                env = None
                if row["workload"] == "pingpong" and p == pairs - 1 and side != "liburing-aa":
                    env = {
                        "BENCH_LAT_FILE": os.path.join(
                            lat_dir, "%s-%s.txt" % (re.sub(r"\W+", "_", row["id"]), side)
                        )
                    }
                res = run_program(command(row, bins[binside], n), libs[binside], env)
                if "skip" in res:
                    skipped[row["id"]] = res["skip"]
                    say("bench: %s skipped: %s" % (row["id"], res["skip"]))
                    break
                for k, v in res.items():
                    if k != "lib":
                        raw.append(
                            {"row": row["id"], "side": side, "round": p, "key": k, "value": v}
                        )

    # ---- counting passes: io_uring_enter calls, then instructions
    counts = []
    functions = []
    perf = shutil.which("perf")
    perf = perf if perf_usable(perf) else None
    strace = shutil.which("strace")
    valgrind = shutil.which("valgrind")
    info["enter_counter"] = (
        "perf (syscall tracepoints)"
        if perf
        else "strace (measuring process only)"
        if strace
        else "none"
    )
    tmp = os.path.join(out, "tmp")
    os.makedirs(tmp, exist_ok=True)
    if not perf and not strace:
        say(
            "bench: neither perf nor strace usable: io_uring_enter counts left out "
            "(apt-get install strace)"
        )
    if not valgrind:
        say("bench: valgrind not found: instruction counts left out (apt-get install valgrind)")
    for row in rows:
        if row["id"] in skipped:
            continue
        for side in SIDES:
            cmd = command(row, bins[side], row["n_count"])
            rec = {"row": row["id"], "side": side}
            got = count_enters(cmd, libs[side], tmp, perf, strace)
            if got:
                rec["enters"], rec["enter_ops"] = got
            if valgrind:
                for old in os.listdir(tmp):
                    if old.startswith("cg."):
                        os.unlink(os.path.join(tmp, old))
                res = run_program(
                    cmd,
                    libs[side],
                    prefix=[
                        valgrind,
                        "--tool=callgrind",
                        "--dump-before=bench_run",
                        "--dump-after=bench_run",
                        "--callgrind-out-file=" + os.path.join(tmp, "cg.%p"),
                    ],
                    timeout=900,
                )
                ir = 0
                per_fn = {}
                for name in os.listdir(tmp):
                    if not name.startswith("cg."):
                        continue
                    path = os.path.join(tmp, name)
                    if not dumped_after_bench_run(path):
                        continue
                    ir += callgrind_totals(path)
                    for fn, (calls, fir) in callgrind_library_calls(path).items():
                        acc = per_fn.setdefault(fn, [0, 0])
                        acc[0] += calls
                        acc[1] += fir
                    if row["id"] == "nop/batch 1":
                        shutil.copy(path, os.path.join(out, "callgrind-nop-batch1-%s.out" % side))
                rec["ir"] = ir
                rec["ir_ops"] = int(res["ops"])
                for fn, (calls, fir) in sorted(per_fn.items()):
                    functions.append(
                        {
                            "row": row["id"],
                            "side": side,
                            "function": fn,
                            "calls": calls,
                            "ir": fir,
                            "ops": int(res["ops"]),
                        }
                    )
            counts.append(rec)
        say("bench: counted %s" % row["id"])

    info["seconds"] = round(time.time() - t_start)
    with open("/proc/loadavg") as f:
        info["loadavg_end"] = f.read().split()[:3]
    write_csv(os.path.join(out, "raw.csv"), ["row", "side", "round", "key", "value"], raw)
    write_csv(
        os.path.join(out, "counts.csv"),
        ["row", "side", "enters", "enter_ops", "ir", "ir_ops"],
        counts,
    )
    write_csv(
        os.path.join(out, "functions.csv"),
        ["row", "side", "function", "calls", "ir", "ops"],
        functions,
    )
    write_csv(
        os.path.join(out, "skipped.csv"),
        ["row", "reason"],
        [{"row": k, "reason": v} for k, v in skipped.items()],
    )
    with open(os.path.join(out, "machine.csv"), "w", newline="") as f:
        w = csv.writer(f)
        for k, v in info.items():
            w.writerow([k, " ".join(v) if isinstance(v, list) else v])
    shutil.rmtree(tmp, ignore_errors=True)
    say("bench: measured in %d s" % info["seconds"])
    return 0


def write_csv(path, fields, recs):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for r in recs:
            w.writerow(r)


if __name__ == "__main__":
    sys.exit(main())
