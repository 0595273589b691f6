#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Turns the raw figures of pytools/bench/run.py (DIR/*.csv) into DIR/report.md and
DIR/summary.csv (one line per row: medians, ratios, counts).

  python3 -m pytools.bench.report DIR

How a row is judged: the ratio is the median over the timed rounds of
ours / liburing of the row's main figure within each round (lower is better
for every main figure).  The A/A ratio is the same for liburing's second run
against its first, in the same rounds: what a library compared with itself
shows here.
A row is outside noise when its ratio lies outside the band of the A/A
per-round ratios (widened to at least 0.97-1.03).
"""

import csv
import os
import statistics
import sys

from . import workloads

SIDE_NAMES = {"ours": "ours", "liburing": "liburing", "liburing-aa": "liburing (A/A)"}


def read_csv(path):
    if not os.path.exists(path):
        return []
    with open(path, newline="") as f:
        return list(csv.DictReader(f))


def load(d):
    raw = {}
    for r in read_csv(os.path.join(d, "raw.csv")):
        try:
            v = float(r["value"])
        except ValueError:
            continue
        raw.setdefault(r["row"], {}).setdefault(r["side"], {}).setdefault(r["key"], {})[
            int(r["round"])
        ] = v
    counts = {(r["row"], r["side"]): r for r in read_csv(os.path.join(d, "counts.csv"))}
    funcs = {}
    for r in read_csv(os.path.join(d, "functions.csv")):
        funcs.setdefault(r["row"], {}).setdefault(r["function"], {})[r["side"]] = r
    skipped = {r["row"]: r["reason"] for r in read_csv(os.path.join(d, "skipped.csv"))}
    info = {}
    with open(os.path.join(d, "machine.csv"), newline="") as f:
        for k, v in csv.reader(f):
            info[k] = v
    return raw, counts, funcs, skipped, info


def med(series):
    return statistics.median(series.values()) if series else None


def pair_ratios(a, b):
    return [a[k] / b[k] for k in a if k in b and b[k]]


def per_op(c, num, den):
    try:
        return float(c[num]) / float(c[den])
    except (KeyError, ValueError, ZeroDivisionError, TypeError):
        return None


def analyse(row, raw, counts):
    key = row["primary"][0]
    data = raw.get(row["id"], {})
    o = data.get("ours", {}).get(key, {})
    u = data.get("liburing", {}).get(key, {})
    a = data.get("liburing-aa", {}).get(key, {})
    if not o or not u:
        return None
    s = {"row": row["id"], "key": key, "ours": med(o), "liburing": med(u), "aa_value": med(a)}
    # Paired design: each round's runs met the same load, so the ratio is taken
    # within the round first, then the median over the rounds.
    pr = pair_ratios(o, u)
    s["ratio"] = statistics.median(pr)
    s["pair_min"], s["pair_max"] = min(pr), max(pr)
    ar = pair_ratios(a, u)
    s["aa"] = statistics.median(ar) if ar else None
    s["aa_min"], s["aa_max"] = (min(ar), max(ar)) if ar else (None, None)
    s["spread_ours"] = (max(o.values()) - min(o.values())) / s["ours"]
    s["spread_liburing"] = (max(u.values()) - min(u.values())) / s["liburing"]
    # the noise band: what liburing against itself showed in any round, and never
    # narrower than ±3 %
    s["noise_lo"] = min(0.97, s["aa_min"] if s["aa_min"] else 1.0)
    s["noise_hi"] = max(1.03, s["aa_max"] if s["aa_max"] else 1.0)
    if s["ratio"] > s["noise_hi"]:
        s["verdict"] = "ours slower, outside noise"
    elif s["ratio"] < s["noise_lo"]:
        s["verdict"] = "ours faster, outside noise"
    else:
        s["verdict"] = "within noise"
    for k in ["ops_per_s"] + row["extra"]:
        s[k + ".ours"] = med(data.get("ours", {}).get(k, {}))
        s[k + ".liburing"] = med(data.get("liburing", {}).get(k, {}))
    for side in ("ours", "liburing"):
        c = counts.get((row["id"], side), {})
        s["enters.%s" % side] = per_op(c, "enters", "enter_ops")
        s["ir.%s" % side] = per_op(c, "ir", "ir_ops")
    return s


def fmt(v, digits=None):
    if v is None:
        return "–"
    if digits is None:
        digits = 0 if abs(v) >= 100 else 2 if abs(v) < 10 else 1
    return "{:,.{d}f}".format(v, d=digits)


def fmt_ns(v):
    if v is None:
        return "–"
    if v >= 1e6:
        return "%.2f ms" % (v / 1e6)
    if v >= 1e4:
        return "%.1f µs" % (v / 1e3)
    return "%s ns" % fmt(v)


def both(s, key, f=fmt):
    return "%s / %s" % (f(s.get(key + ".ours")), f(s.get(key + ".liburing")))


def counts_cells(s):
    eo, el = s.get("enters.ours"), s.get("enters.liburing")
    io, il = s.get("ir.ours"), s.get("ir.liburing")
    enters = "%s / %s" % (fmt(eo, 3), fmt(el, 3))
    if io is not None and il:
        ir = "%s / %s (%.3f)" % (fmt(io, 1), fmt(il, 1), io / il)
    else:
        ir = "–"
    return enters, ir


def workload_table(rows, stats, skipped):
    extra = rows[0]["extra"]
    key = rows[0]["primary"][0]
    head = [
        "row",
        "%s ours" % key,
        "%s liburing" % key,
        "ratio [pairs min–max]",
        "A/A [min–max]",
        "spread ours / liburing",
        "verdict",
        "ops/s ours / liburing",
    ]
    head += ["%s ours / liburing" % k for k in extra]
    head += ["io_uring_enter per op ours / liburing", "user instr. per op ours / liburing"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for row in rows:
        s = stats.get(row["id"])
        if s is None:
            reason = skipped.get(row["id"], "no data")
            lines.append("| %s | skipped: %s |%s" % (row["label"], reason, " |" * (len(head) - 2)))
            continue
        ns_key = key.endswith("_ns")
        f = fmt_ns if ns_key else fmt
        enters, ir = counts_cells(s)
        cells = [
            row["label"],
            f(s["ours"]),
            f(s["liburing"]),
            "**%.3f** [%.3f–%.3f]" % (s["ratio"], s["pair_min"], s["pair_max"]),
            "%.3f [%.3f–%.3f]" % (s["aa"], s["aa_min"], s["aa_max"]) if s["aa"] else "–",
            "±%.0f %% / ±%.0f %%" % (50 * s["spread_ours"], 50 * s["spread_liburing"]),
            s["verdict"],
            both(s, "ops_per_s"),
        ]
        for k in extra:
            cells.append(both(s, k, fmt_ns if k.endswith("_ns") else fmt))
        cells += [enters, ir]
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def round_change(raw, row_id, base_id, side, key):
    """Median over the rounds of row/base - 1 for one library: both rows ran
    in the same round, seconds apart, so the load they met was alike."""
    a = raw.get(row_id, {}).get(side, {}).get(key, {})
    b = raw.get(base_id, {}).get(side, {}).get(key, {})
    r = pair_ratios(a, b)
    if not r:
        return "–"
    return "%+.1f %%" % (100.0 * (statistics.median(r) - 1))


def taskrun_section(stats, raw):
    lines = [
        "## DEFER_TASKRUN and COOP_TASKRUN against a default ring (ping-pong)",
        "",
        "Each change is the median over the timed rounds of (this ring ÷ default ring) "
        "for the same library and connection count, both measured in the same round "
        "(negative latency change = faster). Figures are medians over the rounds.",
        "",
        "| connections | library | ring | p50 | p99 | p99.9 | msgs/s | p50 vs default "
        "| p99 vs default | msgs/s vs default |",
        "|" + "---|" * 10,
    ]
    for conns in (1, 32):
        for side in ("ours", "liburing"):
            base_id = "pingpong/%d conn default" % conns
            for ring in ("default", "coop", "defer"):
                row_id = "pingpong/%d conn %s" % (conns, ring)
                s = stats.get(row_id)
                if not s or base_id not in stats:
                    continue

                def g(k, s=s, side=side):
                    return s.get("%s.%s" % (k, side))

                lines.append(
                    "| %d | %s | %s | %s | %s | %s | %s | %s | %s | %s |"
                    % (
                        conns,
                        side,
                        ring,
                        fmt_ns(g("p50_ns")),
                        fmt_ns(g("p99_ns")),
                        fmt_ns(g("p999_ns")),
                        fmt(g("ops_per_s")),
                        round_change(raw, row_id, base_id, side, "p50_ns"),
                        round_change(raw, row_id, base_id, side, "p99_ns"),
                        round_change(raw, row_id, base_id, side, "ops_per_s"),
                    )
                )
    return lines


def round_ratios(raw, row_id, base_id, side, key):
    """Per-round row/base ratios of one library (same round, seconds apart)."""
    return pair_ratios(
        raw.get(row_id, {}).get(side, {}).get(key, {}),
        raw.get(base_id, {}).get(side, {}).get(key, {}),
    )


def change_cell(r):
    if not r:
        return "–"
    return "%+.1f %% [%+.1f…%+.1f]" % (
        100 * (statistics.median(r) - 1),
        100 * (min(r) - 1),
        100 * (max(r) - 1),
    )


def effect_class(r):
    """'lower' / 'higher' when the median change passes ±3 % and every round
    agrees in sign, else 'none' (spread or size within what noise does here)."""
    if not r:
        return None
    m = statistics.median(r)
    if m < 0.97 and max(r) < 1.0:
        return "lower"
    if m > 1.03 and min(r) > 1.0:
        return "higher"
    return "none"


TASKRUN_SIDES = (("ours", "ours"), ("liburing", "liburing"), ("liburing-aa", "liburing (A/A)"))


def taskrun_effects(raw):
    """{shape label: {side: per-round p50 ratios defer/default}} of workload 8."""
    out = {}
    for shape_args in workloads.TASKRUN_SHAPES:
        shape = workloads.taskrun_label(*shape_args, "")
        base = "defer-taskrun/" + workloads.taskrun_label(*shape_args, "default")
        row = "defer-taskrun/" + workloads.taskrun_label(*shape_args, "defer")
        out[shape] = {
            side: {
                key: round_ratios(raw, row, base, side, key)
                for key in ("p50_ns", "p99_ns", "ops_per_s")
            }
            for side, _ in TASKRUN_SIDES
        }
    return out


def defer_taskrun_section(raw):
    lines = [
        "## DEFER_TASKRUN on the seed's server workload (workload 8)",
        "",
        "The seed (`002`) measured up to 50 % lower latency with DEFER_TASKRUN on a server "
        "answering 16 client threads, 2 KiB each way, doing other work between "
        "completions. Here the server makes *sys* getpid calls per request (the work "
        "during which the other connections' completions arrive as task work). Each "
        "change is DEFER_TASKRUN+SINGLE_ISSUER ÷ default ring of the same library, "
        "taken within each timed round (both ran seconds apart), as the median over "
        "the rounds [smallest…largest round]; negative latency change = DEFER_TASKRUN "
        "faster. *effect*: `lower`/`higher` when the median passes ±3 % and every round "
        "agrees, else `none`. The A/A line is liburing's second run in the same rounds: "
        "a second, independent estimate of liburing's effect.",
        "",
        "*IPIs/req*: rescheduling interrupts taken by the server's CPU per request "
        "(pinned shapes only: /proc/interrupts around the measured part; they include "
        "whatever else ran there).",
        "",
        "| shape | library | p50 default → defer | p50 change | p99 default → defer "
        "| p99 change | req/s default → defer | req/s change | IPIs/req default → defer "
        "| effect |",
        "|" + "---|" * 10,
    ]
    eff = taskrun_effects(raw)
    verdicts = []
    for shape_args in workloads.TASKRUN_SHAPES:
        shape = workloads.taskrun_label(*shape_args, "")
        base = "defer-taskrun/" + workloads.taskrun_label(*shape_args, "default")
        row = "defer-taskrun/" + workloads.taskrun_label(*shape_args, "defer")
        for side, name in TASKRUN_SIDES:

            def m(r, key, side=side):
                return med(raw.get(r, {}).get(side, {}).get(key, {}))

            e = eff[shape][side]
            if not e["p50_ns"]:
                continue
            ipis = "–"
            if m(base, "server_resched_per_op") is not None:
                ipis = "%s → %s" % (
                    fmt(m(base, "server_resched_per_op"), 3),
                    fmt(m(row, "server_resched_per_op"), 3),
                )
            lines.append(
                "| %s | %s | %s → %s | %s | %s → %s | %s | %s → %s | %s | %s | %s |"
                % (
                    shape,
                    name,
                    fmt_ns(m(base, "p50_ns")),
                    fmt_ns(m(row, "p50_ns")),
                    change_cell(e["p50_ns"]),
                    fmt_ns(m(base, "p99_ns")),
                    fmt_ns(m(row, "p99_ns")),
                    change_cell(e["p99_ns"]),
                    fmt(m(base, "ops_per_s")),
                    fmt(m(row, "ops_per_s")),
                    change_cell(e["ops_per_s"]),
                    ipis,
                    effect_class(e["p50_ns"]),
                )
            )
        o, u = eff[shape]["ours"]["p50_ns"], eff[shape]["liburing"]["p50_ns"]
        if o and u:
            same = effect_class(o) == effect_class(u)
            overlap = min(o) <= max(u) and min(u) <= max(o)
            verdicts.append(
                "- %s: ours %s (%s), liburing %s (%s): %s"
                % (
                    shape,
                    effect_class(o),
                    change_cell(o),
                    effect_class(u),
                    change_cell(u),
                    "same effect"
                    if same and overlap
                    else "same class, ranges apart"
                    if same
                    else "ranges overlap, classes differ (effect near the ±3 %% line)"
                    if overlap
                    else "different",
                )
            )
    lines += ["", "Does ours show liburing's effect (p50)?", ""] + verdicts
    return lines


def seed_section(stats, raw, skipped):
    """The seeds' claims against what this run measured, per library."""

    def g(row, key, side):
        s = stats.get(row)
        return s.get("%s.%s" % (key, side)) if s else None

    def primary(row, side):
        s = stats.get(row)
        return s.get(side) if s else None

    lines = [
        "## The seeds' claims against this run",
        "",
        "| seed | claim | ours | liburing | verdict |",
        "|---|---|---|---|---|",
    ]
    # 000/001: personality
    pers = {}
    for side in ("ours", "liburing"):
        r = round_ratios(
            raw, "personality/qd 64 personality", "personality/qd 64 none", side, "ns_per_op"
        )
        pers[side] = r
    nb = {
        side: round_ratios(
            raw,
            "personality/null_blk qd 128 personality",
            "personality/null_blk qd 128 none",
            side,
            "ns_per_op",
        )
        for side in ("ours", "liburing")
    }
    if nb["ours"] and nb["liburing"]:
        cells = [
            "null_blk QD 128, time per read with ÷ without personality: %s" % change_cell(nb[side])
            for side in ("ours", "liburing")
        ]
        verdict = "measured on null_blk: compare the two changes"
    else:
        cells = [
            "page-cache reads QD 64, time per read with ÷ without personality: %s"
            % change_cell(pers[side])
            for side in ("ours", "liburing")
        ]
        o, u = pers["ours"], pers["liburing"]
        alike = bool(o and u and min(o) <= max(u) and min(u) <= max(o))
        verdict = (
            "**not reproducible here**: this machine has no null_blk (its kernel has "
            "no modules); the rows we can run show the cost of a registered "
            "personality, %s (`BENCH_NULL_BLK=/dev/nullb0` adds the QD 128 rows "
            "where null_blk exists)"
            % (
                "not run in this run"
                if not (o and u)
                else "the two libraries' round ranges overlapping"
                if alike
                else "the two libraries' round ranges apart: see workload 7"
            )
        )
    lines.append(
        "| 000, 001 (personality / inline io_wq_work) | about +5 %% reads/s on null_blk "
        "at QD 128 (fio, 4 KiB O_DIRECT), +4.9 %% NOP IOPS: a kernel change | %s | "
        "%s | %s |" % (cells[0], cells[1], verdict)
    )
    # 002: DEFER_TASKRUN
    eff = taskrun_effects(raw)

    def median_change(r):
        return "%+.0f %%" % (100 * (statistics.median(r) - 1)) if r else "–"

    cells = [
        "p50 change with DEFER_TASKRUN (16 threads, 2 KiB): "
        + "; ".join(
            "%s: %s" % (shape.split(" KiB ")[1], median_change(e[side]["p50_ns"]))
            for shape, e in eff.items()
        )
        for side in ("ours", "liburing")
    ]
    o = [effect_class(e["ours"]["p50_ns"]) for e in eff.values() if e["ours"]["p50_ns"]]
    u = [effect_class(e["liburing"]["p50_ns"]) for e in eff.values() if e["liburing"]["p50_ns"]]
    agree = sum(1 for a, b in zip(o, u, strict=False) if a == b)
    lines.append(
        "| 002 (DEFER_TASKRUN) | up to 50 %% lower latency, 16 client threads, 2 KiB "
        "each way, server working between completions | %s | %s | "
        "%s |"
        % (
            cells[0],
            cells[1],
            "ours and liburing classed alike in %d of %d shapes (the "
            "DEFER_TASKRUN section has the spreads)" % (agree, len(o))
            if o
            else "not run in this run",
        )
    )
    # 003: IRQ-driven block I/O (kernel side)
    r = "direct-read/qd 32"
    lines.append(
        "| 003 (IRQ-driven I/O, bio recycling) | about +13 %% IRQ-driven IOPS: a "
        "block-layer change | O_DIRECT QD 32 on virtio: %s/read | %s/read | "
        "kernel-side, library-neutral: ours ÷ liburing %s |"
        % (
            fmt_ns(primary(r, "ours")),
            fmt_ns(primary(r, "liburing")),
            "%.3f" % stats[r]["ratio"] if r in stats else "–",
        )
    )
    # 004: eventfd without quiescing
    cells = []
    for side in ("ours", "liburing"):
        cells.append(
            ", ".join(
                "%s: %s" % (k, fmt_ns(primary("eventfd/default, %d in flight" % k, side)))
                for k in (0, 1000, 10000)
            )
        )
    worst = [
        primary("eventfd/%s, %d in flight" % (ring, k), side)
        for ring in ("default", "defer")
        for k in (0, 1000, 10000)
        for side in ("ours", "liburing")
    ]
    worst = [w for w in worst if w is not None]
    lines.append(
        "| 004 (eventfd register without quiesce) | 15 ms → under 1 ms per register "
        "on a busy ring | register p50 by requests in flight: %s | %s | %s |"
        % (
            cells[0],
            cells[1],
            "not run in this run"
            if not worst
            else "reproduced: every register under 1 ms on both libraries (largest p50 "
            "%s), flat in the in-flight count" % fmt_ns(max(worst))
            if max(worst) < 1e6
            else "not reproduced: see workload 6",
        )
    )
    return lines


def functions_section(rows, funcs, counts):
    lines = [
        "## Library functions called by the measured loop (callgrind, exact)",
        "",
        "Inclusive user-space instructions per call of every liburing function the "
        "benchmark's own code calls inside bench_run() (inline header code is counted "
        "in the row totals above, not here).",
        "",
        "| row | function | calls per op | instr. per call ours | instr. per call liburing "
        "| ours − liburing |",
        "|---|---|---|---|---|---|",
    ]
    worse = []
    for row in rows:
        for fn, sides in sorted(funcs.get(row["id"], {}).items()):
            o, u = sides.get("ours"), sides.get("liburing")
            if not o or not u or not int(o["calls"]) or not int(u["calls"]):
                continue
            po = int(o["ir"]) / int(o["calls"])
            pu = int(u["ir"]) / int(u["calls"])
            cpo = int(o["calls"]) / int(o["ops"])
            lines.append(
                "| %s | `%s` | %s | %.1f | %.1f | %+.1f |"
                % (row["id"], fn, fmt(cpo, 3), po, pu, po - pu)
            )
            if po > pu + 0.05:
                worse.append((row["id"], fn, po, pu))
    return lines, worse


def main(d):
    raw, counts, funcs, skipped, info = load(d)
    rows = workloads.rows(os.path.join(d, "work"))
    stats = {}
    for row in rows:
        s = analyse(row, raw, counts)
        if s:
            stats[row["id"]] = s
    lines = ["# uring-rs against liburing 2.15: `make bench`", "", "| | |", "|---|---|"]
    for k in (
        "date",
        "nproc",
        "cpu",
        "memory",
        "kernel",
        "filesystem",
        "loadavg_start",
        "loadavg_end",
        "pairs",
        "quick",
        "seconds",
        "enter_counter",
    ):
        lines.append("| %s | %s |" % (k, info.get(k, "?")))
    lines += [
        "",
        "Every program in `bench/` is built twice from the same source: against our headers "
        "and `liburing.so.2`, and against upstream liburing 2.15's (built by the "
        "liburing-tests harness). Each timed round runs every row on ours, on liburing, and "
        "on liburing a second time (the **A/A** run: liburing against itself, the noise "
        "floor of this machine at that moment); the order of the three rotates from round "
        "to round. Figures are medians over the rounds. **ratio** = the median over the rounds of "
        "ours ÷ liburing of the row's main figure within a round (lower is better; the "
        "runs of one round met the same load), with the smallest and largest per-round "
        "ratio; **spread** = half the max−min range over the rounds, "
        "relative to the median. A row is *outside noise* when its ratio lies outside the "
        "range of the per-round A/A ratios (widened to at least 0.97–1.03). "
        "`io_uring_enter` calls per op come from a separate pass (%s: the calls the "
        "measuring process makes between two marker syscalls around the measured loop); "
        % (info.get("enter_counter", "?"))
        + "user-space instructions per op from a separate "
        "callgrind pass of the same measured loop (exact and repeatable, so the shorter "
        "runs suffice). Both counts are exact for the deterministic rows (NOP, reads at "
        "QD 1, eventfd); where completions arrive at the pace of another process "
        "(ping-pong with 32 connections, multishot recv) the number of completions "
        "reaped per wait, hence enters and instructions per op, depends on timing and "
        "differs from run to run for either library.",
        "",
    ]
    lines += seed_section(stats, raw, skipped) + [""]
    n_rows = len(stats)
    slower = [s for s in stats.values() if s["verdict"].startswith("ours slower")]
    faster = [s for s in stats.values() if s["verdict"].startswith("ours faster")]
    over = [s for s in stats.values() if s["ratio"] > 1.03]
    ir_worse = [
        s
        for s in stats.values()
        if s.get("ir.ours") is not None
        and s.get("ir.liburing")
        and s["ir.ours"] > s["ir.liburing"] * 1.0005
    ]
    enters_diff = [
        s
        for s in stats.values()
        if s.get("enters.ours") is not None
        and s.get("enters.liburing") is not None
        and abs(s["enters.ours"] - s["enters.liburing"]) > 0.02 * max(s["enters.liburing"], 1e-9)
    ]
    lines += [
        "## Summary",
        "",
        "- rows measured: %d; skipped: %d (%s)"
        % (n_rows, len(skipped), "; ".join("%s: %s" % kv for kv in skipped.items()) or "none"),
        "- median ratio ≤ 1.03: %d of %d rows; ratio > 1.03: %s"
        % (
            n_rows - len(over),
            n_rows,
            ", ".join("%s (%.3f, A/A %.3f)" % (s["row"], s["ratio"], s["aa"] or 0) for s in over)
            or "none",
        ),
        "- outside noise, ours slower: %s"
        % (", ".join("%s (%.3f)" % (s["row"], s["ratio"]) for s in slower) or "none"),
        "- outside noise, ours faster: %s"
        % (", ".join("%s (%.3f)" % (s["row"], s["ratio"]) for s in faster) or "none"),
        "- user instructions per op above liburing's: %s"
        % (
            ", ".join(
                "%s (%.1f vs %.1f)" % (s["row"], s["ir.ours"], s["ir.liburing"]) for s in ir_worse
            )
            or "none"
        ),
        "- io_uring_enter calls per op differing by more than 2 %%: %s"
        % (
            ", ".join(
                "%s (%.3f vs %.3f)" % (s["row"], s["enters.ours"], s["enters.liburing"])
                for s in enters_diff
            )
            or "none"
        ),
        "",
    ]
    for wl, title in workloads.WORKLOAD_TITLES.items():
        wrows = [r for r in rows if r["workload"] == wl]
        lines += ["## " + title, ""] + workload_table(wrows, stats, skipped) + [""]
    lines += taskrun_section(stats, raw) + [""]
    lines += defer_taskrun_section(raw) + [""]
    flines, fworse = functions_section(rows, funcs, counts)
    lines += flines + [""]
    if fworse:
        by_fn = {}
        for _r, fn, po, pu in fworse:
            by_fn.setdefault(fn, []).append(po - pu)
        lines += [
            "Library functions costing ours more instructions per call than liburing: "
            + "; ".join(
                "`%s` +%.1f to +%.1f in %d rows" % (fn, min(d), max(d), len(d))
                for fn, d in sorted(by_fn.items())
            )
            + ".",
            "",
        ]
    lines += [
        "## Files",
        "",
        "- `raw.csv`: every timed run (row, side, round, key, value)",
        "- `counts.csv`: io_uring_enter calls and user instructions of the counting "
        "passes, with the ops they covered",
        "- `functions.csv`: per library function: calls and inclusive instructions",
        "- `summary.csv`: the medians and ratios of these tables",
        "- `callgrind-nop-batch1-{ours,liburing}.out`: the callgrind profile of the NOP "
        "batch-1 loop (`callgrind_annotate --inclusive=yes FILE`)",
        "- `ratios.png`, `instructions.png`, `pingpong-latency.png`, `defer-taskrun.png`: "
        "the plots",
        "",
        "A run committed under `docs/bench/` keeps this report and the plots only "
        "(`bench/publish.sh`); the CSV files and callgrind profiles stay in `build/`.",
        "",
    ]
    for p in ("ratios.png", "instructions.png", "pingpong-latency.png", "defer-taskrun.png"):
        if os.path.exists(os.path.join(d, p)):
            lines.append("![%s](%s)" % (p, p))
    with open(os.path.join(d, "report.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    keys = sorted({k for s in stats.values() for k in s})
    with open(os.path.join(d, "summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        for row in rows:
            if row["id"] in stats:
                w.writerow(stats[row["id"]])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
