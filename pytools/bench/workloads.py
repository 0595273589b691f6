# SPDX-License-Identifier: MIT
"""The benchmark rows: which program runs with which arguments, and which
figure of its result line is the one the two libraries are compared on.

Every row is one command line of one program in bench/.  `n` is the number
of ops of a timed run; the callgrind and strace passes use `n_count` (they
are exact counts, so short runs suffice) and the smoke check `n_smoke`.

BENCH_NULL_BLK=/dev/nullb0 (a null_blk device, as the personality seeds used;
e.g. `modprobe null_blk nr_devices=1 completion_nsec=0`) adds the personality
rows at QD 128 with O_DIRECT reads of that device.
"""

import os

# key of the result line that the ratio ours/liburing is computed on,
# and whether a larger value is better
NS_PER_OP = ("ns_per_op", False)


def _row(workload, label, prog, args, n, n_count, n_smoke, primary=NS_PER_OP, extra=()):
    return {
        "id": "%s/%s" % (workload, label),
        "workload": workload,
        "label": label,
        "prog": prog,
        "args": list(args),
        "n": n,
        "n_count": n_count,
        "n_smoke": n_smoke,
        "primary": primary,
        "extra": list(extra),
    }


LATENCY = ("p50_ns", "p99_ns", "p999_ns")


# (client threads, bytes each way, getpid calls per request, pinned) of the
# DEFER_TASKRUN seed's server workload: its own shape (16 threads, 2 KiB) with
# the per-request system calls swept, first with the scheduler free to put
# clients and server on either CPU, then with the server on one CPU and the
# clients on the other (the seed's server had its cores to itself).
TASKRUN_SHAPES = (
    (16, 2048, 0, 0),
    (16, 2048, 32, 0),
    (16, 2048, 0, 1),
    (16, 2048, 32, 1),
    (16, 2048, 256, 1),
)


def taskrun_label(threads, msg, k, pin, ring):
    return " ".join(
        w
        for w in ("%d thr %d KiB %d sys" % (threads, msg // 1024, k), "pinned" if pin else "", ring)
        if w
    )


def rows(workdir):
    f = "file=%s/read-64m.dat" % workdir
    out = []
    for b, n in ((1, 300000), (8, 600000), (32, 800000), (128, 800000)):
        out.append(_row("nop", "batch %d" % b, "nop", ["batch=%d" % b], n, 4096, 256))
    for qd in (1, 16, 64):
        for mode in ("plain", "fixed"):
            out.append(
                _row(
                    "file-read",
                    "qd %d %s" % (qd, mode),
                    "file-read",
                    [f, "qd=%d" % qd, "mode=%s" % mode],
                    100000,
                    2000,
                    200,
                    extra=LATENCY,
                )
            )
    for qd, n in ((1, 2000), (32, 10000)):
        for poll in (0, 1):
            out.append(
                _row(
                    "direct-read",
                    "qd %d%s" % (qd, " iopoll" if poll else ""),
                    "direct-read",
                    [f, "qd=%d" % qd, "iopoll=%d" % poll],
                    n,
                    500,
                    64,
                    extra=LATENCY,
                )
            )
    for conns, n in ((1, 20000), (32, 40000)):
        for ring in ("default", "coop", "defer"):
            out.append(
                _row(
                    "pingpong",
                    "%d conn %s" % (conns, ring),
                    "pingpong",
                    ["conns=%d" % conns, "ring=%s" % ring],
                    n,
                    2000,
                    64,
                    extra=LATENCY,
                )
            )
    out.append(
        _row(
            "recv-mshot",
            "1 KiB msgs",
            "recv-mshot",
            ["msg=1024"],
            200000,
            20000,
            256,
            extra=("MB_per_s", "cqes_per_wait"),
        )
    )
    for ring in ("default", "defer"):
        for k in (0, 1000, 10000):
            out.append(
                _row(
                    "eventfd",
                    "%s, %d in flight" % (ring, k),
                    "eventfd-reg",
                    ["ring=%s" % ring, "inflight=%d" % k],
                    500,
                    50,
                    4,
                    primary=("reg_p50_ns", False),
                    extra=("reg_p99_ns", "unreg_p50_ns", "unreg_p99_ns"),
                )
            )
    for pers in (0, 1):
        out.append(
            _row(
                "personality",
                "qd 64 %s" % ("personality" if pers else "none"),
                "personality",
                [f, "qd=64", "personality=%d" % pers],
                100000,
                2000,
                200,
                extra=LATENCY,
            )
        )
    null_blk = os.environ.get("BENCH_NULL_BLK")
    if null_blk:
        for pers in (0, 1):
            out.append(
                _row(
                    "personality",
                    "null_blk qd 128 %s" % ("personality" if pers else "none"),
                    "personality",
                    ["file=" + null_blk, "device=1", "qd=128", "personality=%d" % pers],
                    200000,
                    2000,
                    200,
                    extra=LATENCY,
                )
            )
    for threads, msg, k, pin in TASKRUN_SHAPES:
        for ring in ("default", "defer"):
            out.append(
                _row(
                    "defer-taskrun",
                    taskrun_label(threads, msg, k, pin, ring),
                    "taskrun-server",
                    [
                        "threads=%d" % threads,
                        "msg=%d" % msg,
                        "syscalls=%d" % k,
                        "pin=%d" % pin,
                        "ring=%s" % ring,
                    ],
                    8000,
                    800,
                    64,
                    primary=("p50_ns", False),
                    extra=("p99_ns", "p999_ns", "server_resched_per_op"),
                )
            )
    return out


WORKLOAD_TITLES = {
    "nop": "1. NOP round trips (ops = NOPs)",
    "file-read": "2. Buffered 4 KiB random reads, page cache (ops = reads)",
    "direct-read": "3. O_DIRECT 4 KiB random reads (ops = reads)",
    "pingpong": "4. TCP loopback ping-pong, 64-byte messages (ops = round trips)",
    "recv-mshot": "5. Multishot recv + provided buffer ring, 1 KiB messages (ops = messages)",
    "eventfd": "6. Eventfd register/unregister with requests in flight (ops = register+unregister pairs)",
    "personality": "7. Personality cost, 4 KiB buffered reads at QD 64 (ops = reads)",
    "defer-taskrun": "8. DEFER_TASKRUN seed workload: io_uring server, client threads, "
    "per-request getpid calls (ops = requests; main figure p50)",
}

PROGRAMS = [
    "nop",
    "file-read",
    "direct-read",
    "pingpong",
    "recv-mshot",
    "eventfd-reg",
    "personality",
    "taskrun-server",
]
HELPERS = ["common.c", "readloop.c", "net.c"]
