#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Seeded lockstep differential fuzzer: our liburing-ffi.so.2 against upstream's.

    python3 -m pytools.capi.fuzz --driver BIN --ours LIB --upstream LIB [--seed N] [--seconds S]
                                 [--steps K] [--out DIR]
    python3 -m pytools.capi.fuzz --driver BIN --ours LIB --upstream LIB --replay FILE
    python3 -m pytools.capi.fuzz ... --selftest

For each seed (N, N+1, ... until S seconds are used) a random sequence of K
API operations is generated (reproducibly, from the seed alone) and fed line
by line to two driver processes, one per library; after every operation the
two result lines must be equal.  The same sequence is also run with upstream
on both sides: where upstream disagrees with itself the step depends on
timing, and a divergence of ours at or after that step is counted as noise.
A divergence that upstream-vs-upstream does not show, and that repeats, is
real: the sequence is shrunk (delta debugging) and written to DIR with both
outputs, and the exit status is 1.

--selftest lets the driver resize rings with unsubmitted SQEs (a deliberate
difference from liburing, see README): the fuzzer must find and shrink it.
"""

import argparse
import os
import random
import subprocess
import sys
import time

# ---- setup flags (values of the kernel ABI) ----
IOPOLL, SQPOLL, CQSIZE, CLAMP = 1 << 0, 1 << 1, 1 << 3, 1 << 4
R_DISABLED, SUBMIT_ALL, COOP_TASKRUN, TASKRUN_FLAG = 1 << 6, 1 << 7, 1 << 8, 1 << 9
SQE128, CQE32, SINGLE_ISSUER, DEFER_TASKRUN = 1 << 10, 1 << 11, 1 << 12, 1 << 13
NO_MMAP, NO_SQARRAY, CQE_MIXED = 1 << 14, 1 << 16, 1 << 18
# ---- SQE flags ----
IO_DRAIN, IO_LINK, IO_HARDLINK, ASYNC, CQE_SKIP_SUCCESS = 1 << 1, 1 << 2, 1 << 3, 1 << 4, 1 << 6

SQE_KINDS = {  # kind number in driver.c: weight
    0: 30,  # nop
    12: 5,  # nop with injected failure
    3: 8,  # socket read (waits for data)
    4: 8,  # socket write
    1: 6,  # pipe read (waits for data)
    2: 4,  # pipe write
    5: 8,  # timeout
    6: 4,  # timeout remove
    7: 4,  # cancel
    8: 3,  # link timeout
    9: 4,  # poll add
    10: 3,  # poll remove
    11: 5,  # read into a registered buffer
    13: 5,  # recv into a provided buffer (buffer ring)
}


def pick(rng, weighted):
    keys = list(weighted)
    return rng.choices(keys, weights=[weighted[k] for k in keys])[0]


def gen_setup(rng, sqpoll):
    base = rng.choice(
        [
            0,
            0,
            0,
            NO_SQARRAY,
            SQE128,
            CQE32,
            CQE_MIXED,
            DEFER_TASKRUN | SINGLE_ISSUER,
            DEFER_TASKRUN | SINGLE_ISSUER,
            COOP_TASKRUN | TASKRUN_FLAG,
            SUBMIT_ALL,
            NO_MMAP,
            R_DISABLED,
            SINGLE_ISSUER,
            CQSIZE,
            CLAMP,
        ]
    )
    for _ in range(rng.choice([0, 0, 1, 2])):
        base |= rng.choice(
            [
                NO_SQARRAY,
                SQE128,
                CQE32,
                SUBMIT_ALL,
                COOP_TASKRUN,
                CQSIZE,
                TASKRUN_FLAG,
                CLAMP,
                NO_MMAP,
                IOPOLL,
            ]
        )
    if sqpoll and rng.random() < 0.2:
        base |= SQPOLL
    if rng.random() < 0.02:
        base |= 1 << rng.randrange(21, 31)  # an unknown flag
    entries = rng.choice([1, 2, 4, 8, 8, 16, 32, 0, 70000])
    cq = rng.choice([0, 2, 8, 16, 64, 4096]) if base & CQSIZE else 0
    return f"setup {entries} {base} {cq}"


def gen_sqe(rng, with_async, timers):
    kind = pick(rng, SQE_KINDS)
    ud = rng.randrange(1, 48)
    flags = 0
    r = rng.random()
    if r < 0.10:
        flags |= IO_LINK
    elif r < 0.13:
        flags |= IO_HARDLINK
    elif r < 0.16:
        flags |= IO_DRAIN
    elif r < 0.19 and with_async:
        flags |= ASYNC
    elif r < 0.24:
        flags |= CQE_SKIP_SUCCESS
    if kind in (5, 8):  # timeouts: a = ms, b = count
        # Timers firing (1 ms) race with everything else: only with --timers.
        a = rng.choice([1, 10000, 10000, 10000]) if timers else 10000
        b = rng.randrange(0, 4)
    elif kind in (6, 7, 10):  # a = target user_data
        a, b = rng.randrange(1, 48), rng.randrange(0, 2)
    else:
        a, b = rng.randrange(0, 70000), rng.randrange(0, 9000)
    return f"sqe {kind} {ud} {flags} {a} {b}"


def gen_ops(seed, steps, sqpoll=False, with_async=False, timers=False):
    rng = random.Random(seed)
    ops = [gen_setup(rng, sqpoll)]
    table = {
        "sqe": 36,
        "submit": 8,
        "submit_wait_timeout": 3,
        "submit_get_events": 2,
        "get_events": 2,
        "peek": 5,
        "seen": 5,
        "wait_timeout": 2,
        "wait_cqes": 1,
        "wait_if_ready": 3,
        "batch": 4,
        "drain": 2,
        "state": 4,
        "setup": 1,
        "exit": 0.3,
        "reg_files": 1,
        "unreg_files": 0.5,
        "upd_files": 1,
        "reg_bufs": 1,
        "unreg_bufs": 0.5,
        "reg_eventfd": 0.5,
        "unreg_eventfd": 0.3,
        "read_eventfd": 0.5,
        "reg_ring_fd": 0.5,
        "unreg_ring_fd": 0.3,
        "reg_personality": 0.3,
        "unreg_personality": 0.3,
        "probe": 0.3,
        "setup_buf_ring": 0.5,
        "free_buf_ring": 0.3,
        "buf_ring_head": 0.5,
        "resize": 0.7,
        "enable": 0.5,
        "pipe_fill": 2,
        "submit_wait_min": 1,
        "wait_cqes_min": 0.7,
        "reg_files_sparse": 0.4,
        "alloc_range": 0.4,
        "reg_bufs_sparse": 0.4,
        "upd_bufs": 0.5,
        "eventfd_toggle": 0.4,
        "restrict": 0.4,
        "sync_cancel": 0.5,
        "buf_add": 1.5,
        "unreg_buf_ring": 0.3,
        "iowait": 0.3,
        "sqring_wait": 0.3,
        "max_workers": 0.2,
    }
    while len(ops) < steps:
        op = pick(rng, table)
        if op == "setup":
            ops.append(gen_setup(rng, sqpoll))
        elif op == "sqe":
            ops.append(gen_sqe(rng, with_async, timers))
        elif op == "submit_wait_timeout":
            ops.append(f"{op} {rng.randrange(0, 4)} {rng.choice([0, 1, 20])}")
        elif op in ("wait_timeout", "drain"):
            ops.append(f"{op} {rng.choice([0, 1, 20])}")
        elif op == "wait_cqes":
            ops.append(f"{op} {rng.randrange(0, 4)} {rng.choice([0, 1, 20])}")
        elif op == "batch":
            ops.append(f"{op} {rng.choice([1, 2, 4, 16, 256])} {rng.randrange(0, 2)}")
        elif op in ("reg_files", "reg_bufs", "upd_files", "reg_eventfd"):
            ops.append(f"{op} {rng.randrange(0, 10)}")
        elif op == "unreg_personality":
            ops.append(f"{op} {rng.randrange(-1, 4)}")
        elif op == "setup_buf_ring":
            ops.append(f"{op} {rng.randrange(0, 4)} {rng.randrange(0, 6)}")
        elif op == "buf_ring_head":
            ops.append(f"{op} {rng.randrange(0, 4)}")
        elif op == "resize":
            ops.append(f"{op} {rng.randrange(0, 6)} {rng.randrange(0, 8)}")
        elif op in ("submit_wait_min", "wait_cqes_min"):
            ops.append(
                f"{op} {rng.randrange(0, 4)} {rng.choice([0, 1, 20])} {rng.choice([0, 100, 1000])}"
            )
        elif op in ("reg_files_sparse", "reg_bufs_sparse"):
            ops.append(f"{op} {rng.choice([0, 1, 4, 16])}")
        elif op == "alloc_range":
            ops.append(f"{op} {rng.randrange(0, 20)} {rng.randrange(0, 20)}")
        elif op == "upd_bufs":
            ops.append(f"{op} {rng.randrange(0, 6)}")
        elif op in ("eventfd_toggle", "restrict", "iowait"):
            ops.append(f"{op} {rng.randrange(0, 2)}")
        elif op == "sync_cancel":
            ops.append(
                f"{op} {rng.choice([rng.randrange(1, 48), 100, 101, 102, 103])} "
                f"{rng.choice([0, 1, 20])}"
            )
        elif op == "buf_add":
            ops.append(f"{op} {rng.randrange(0, 33)} {rng.randrange(0, 64)}")
        elif op == "unreg_buf_ring":
            ops.append(f"{op} {rng.randrange(0, 4)}")
        elif op == "max_workers":
            ops.append(f"{op} {rng.choice([0, 1, 4])} {rng.choice([0, 2, 8])}")
        elif op == "pipe_fill":
            ops.append(f"{op} {rng.choice([1, 10, 100, 4096])}")
        else:
            ops.append(op)
    return ops


class Driver:
    def __init__(self, driver, lib, env):
        self.p = subprocess.Popen(
            [driver, lib],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
            env=env,
        )

    def send(self, op):
        try:
            self.p.stdin.write(op + "\n")
            self.p.stdin.flush()
        except (BrokenPipeError, OSError):
            pass

    def recv(self):
        line = self.p.stdout.readline()
        if not line:
            rc = self.p.wait()
            return f"<driver ended, status {rc}: {self.p.stderr.read().strip()[:200]}>"
        return line.rstrip("\n")

    def close(self):
        try:
            self.p.stdin.close()
        except OSError:
            pass
        try:
            self.p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()


def lockstep(args, lib_a, lib_b, ops, env, keep=False):
    """Run ops on two drivers; returns (first divergent step or None, steps run, outputs)."""
    a, b = Driver(args.driver, lib_a, env), Driver(args.driver, lib_b, env)
    outs_a, outs_b = [], []
    div = None
    try:
        for i, op in enumerate(ops):
            a.send(op)
            b.send(op)
            la, lb = a.recv(), b.recv()
            if keep:
                outs_a.append(la)
                outs_b.append(lb)
            if la != lb:
                div = i
                if not keep:
                    outs_a, outs_b = [la], [lb]
                break
            if la.startswith("<driver ended"):
                div = i
                break
    finally:
        a.close()
        b.close()
    steps = (div + 1) if div is not None else len(ops)
    return div, steps, (outs_a, outs_b)


def shrink(args, ops, env, budget):
    """Delta debugging: a smallest-found sub-sequence on which ours and upstream still
    diverge (checked twice, so timing noise is not kept)."""
    calls = [0]

    def diverges(seq):
        if calls[0] >= budget:
            return False
        calls[0] += 2
        return (
            lockstep(args, args.ours, args.upstream, seq, env)[0] is not None
            and lockstep(args, args.ours, args.upstream, seq, env)[0] is not None
        )

    n = 2
    while len(ops) >= 2:
        chunk = max(1, len(ops) // n)
        reduced = False
        for start in range(0, len(ops), chunk):
            cand = ops[:start] + ops[start + chunk :]
            if cand and diverges(cand):
                ops, n, reduced = cand, max(n - 1, 2), True
                break
        if not reduced:
            if n >= len(ops):
                break
            n = min(n * 2, len(ops))
    return ops, calls[0]


def write_case(args, seed, ops, env):
    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, f"seed-{seed}.ops")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(ops) + "\n")
    div, _, (oa, ob) = lockstep(args, args.ours, args.upstream, ops, env, keep=True)
    with open(path + ".diff", "w", encoding="utf-8") as f:
        for i, op in enumerate(ops[: len(oa)]):
            mark = "  " if oa[i] == ob[i] else "!!"
            f.write(f"{mark} {op}\n     ours:     {oa[i]}\n     upstream: {ob[i]}\n")
    return path, div, oa, ob


def replay(args, env):
    with open(args.replay, encoding="utf-8") as f:
        ops = [line.strip() for line in f if line.strip()]
    div, _, (oa, ob) = lockstep(args, args.ours, args.upstream, ops, env, keep=True)
    for i, op in enumerate(ops[: len(oa)]):
        mark = "  " if oa[i] == ob[i] else "!!"
        print(f"{mark} {op}\n     ours:     {oa[i]}\n     upstream: {ob[i]}")
    print("diverges at step", div if div is not None else "-")
    return 1 if div is not None else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--driver", required=True)
    ap.add_argument("--ours", required=True)
    ap.add_argument("--upstream", required=True)
    ap.add_argument("--seed", type=int, default=int(os.environ.get("FUZZ_SEED", "1")))
    ap.add_argument("--seconds", type=float, default=float(os.environ.get("FUZZ_SECONDS", "30")))
    ap.add_argument("--steps", type=int, default=int(os.environ.get("FUZZ_STEPS", "400")))
    ap.add_argument("--max-seeds", type=int, default=int(os.environ.get("FUZZ_MAX_SEEDS", "0")))
    ap.add_argument("--sqpoll", action="store_true", help="also set up SQPOLL rings")
    ap.add_argument(
        "--async",
        dest="with_async",
        action="store_true",
        help="also use IOSQE_ASYNC (completion order then depends on io-wq)",
    )
    ap.add_argument("--timers", action="store_true", help="also use 1 ms timeouts")
    ap.add_argument("--out", default=os.environ.get("FUZZ_OUT", "fuzz-out"))
    ap.add_argument("--replay")
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--shrink-budget", type=int, default=400)
    args = ap.parse_args()

    env = dict(os.environ)
    env.pop("LD_PRELOAD", None)
    env.pop("LD_LIBRARY_PATH", None)
    if args.selftest:
        env["FUZZ_RESIZE_PENDING"] = "1"
    if args.replay:
        return replay(args, env)

    t0 = time.monotonic()
    seed = args.seed
    seeds = steps_ou = steps_uu = 0
    uu_div = ou_div = noise = 0
    real = []
    while True:
        if args.max_seeds and seeds >= args.max_seeds:
            break
        if not args.max_seeds and seeds and time.monotonic() - t0 >= args.seconds:
            break
        ops = gen_ops(seed, args.steps, args.sqpoll, args.with_async, args.timers)
        d_ou, s_ou, (oa, ob) = lockstep(args, args.ours, args.upstream, ops, env)
        d_uu, s_uu, (ua, ub) = lockstep(args, args.upstream, args.upstream, ops, env)
        seeds += 1
        steps_ou += s_ou
        steps_uu += s_uu
        if d_uu is not None:
            uu_div += 1
            print(
                f"seed {seed}: upstream vs upstream diverge at step {d_uu} "
                f"({ops[d_uu]}): {ua[-1]!r} vs {ub[-1]!r}"
            )
        if d_ou is not None:
            ou_div += 1
            if d_uu is not None and d_uu <= d_ou:
                noise += 1
                print(
                    f"seed {seed}: ours vs upstream diverge at step {d_ou} ({ops[d_ou]}): "
                    f"{oa[-1]!r} vs {ob[-1]!r}: noise (upstream diverges from itself "
                    f"at step {d_uu})"
                )
            else:
                prefix = ops[: d_ou + 1]
                again = [lockstep(args, args.ours, args.upstream, prefix, env)[0] for _ in range(2)]
                self_ = [
                    lockstep(args, args.upstream, args.upstream, prefix, env)[0] for _ in range(2)
                ]
                if None in again or any(d is not None for d in self_):
                    noise += 1
                    print(
                        f"seed {seed}: ours vs upstream diverge at step {d_ou} "
                        f"({ops[d_ou]}): {oa[-1]!r} vs {ob[-1]!r}: noise (did not repeat "
                        f"{again}, upstream self {self_})"
                    )
                else:
                    small, calls = shrink(args, prefix, env, args.shrink_budget)
                    path, d, sa, sb = write_case(args, seed, small, env)
                    # A real divergence repeats every time, and upstream agrees
                    # with itself every time, on the shrunk sequence.
                    ou = [lockstep(args, args.ours, args.upstream, small, env)[0] for _ in range(5)]
                    uu = [
                        lockstep(args, args.upstream, args.upstream, small, env)[0]
                        for _ in range(5)
                    ]
                    if None in ou or any(x is not None for x in uu):
                        os.remove(path)
                        os.remove(path + ".diff")
                        noise += 1
                        print(
                            f"seed {seed}: ours vs upstream diverge at step {d_ou} "
                            f"({ops[d_ou]}): noise (the shrunk case is unstable: "
                            f"ours/upstream {ou}, upstream/upstream {uu})"
                        )
                        seed += 1
                        continue
                    real.append((seed, d_ou, len(small), path))
                    print(
                        f"seed {seed}: REAL divergence at step {d_ou} ({ops[d_ou]}): "
                        f"ours {oa[-1]!r} vs upstream {ob[-1]!r}; shrunk to {len(small)} "
                        f"operations in {calls} runs: {path} (+ .diff); replay with "
                        f"--replay {path}"
                    )
        seed += 1

    secs = time.monotonic() - t0
    print(
        f"fuzz: seeds {args.seed}..{seed - 1} ({seeds}), {args.steps} operations each, {secs:.1f} s"
    )
    print(
        f"fuzz: ours vs upstream: {steps_ou} steps, {ou_div} seeds diverged "
        f"({noise} timing noise, {len(real)} real)"
    )
    print(f"fuzz: upstream vs upstream: {steps_uu} steps, {uu_div} seeds diverged")
    if args.selftest:
        ok = bool(real)
        print(
            "fuzz selftest:",
            "found and shrank the planted difference"
            if ok
            else "FAILED to find the planted difference",
        )
        return 0 if ok else 1
    return 1 if real else 0


if __name__ == "__main__":
    sys.exit(main())
