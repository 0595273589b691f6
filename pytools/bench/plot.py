#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Plots of a `make bench` run (needs matplotlib; bench/bench.sh runs this
with the venv it installs under .cache/).

  python3 -m pytools.bench.plot DIR

DIR/ratios.png             ours ÷ liburing per row (bar: median of the
                           per-round ratios; whisker:
                           smallest-largest per-round ratio) next to the A/A
                           ratio, with the ±3 % band
DIR/instructions.png       user-space instructions per op, ours ÷ liburing
DIR/pingpong-latency.png   round-trip latency distributions (CDF) of the last
                           timed round, per connection count and ring flavour
DIR/defer-taskrun.png      DEFER_TASKRUN ÷ default ring on the seed's server
                           workload, per shape and library (p50, p99, req/s)
"""

import csv
import os
import re
import statistics
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from PIL import Image  # noqa: E402  (a dependency of matplotlib)

from . import report  # noqa: E402


def save(fig, path):
    """Writes the figure as a 64-colour palette PNG: the plots hold a few flat
    colours, and a third of the bytes keeps committed runs small."""
    fig.savefig(path, dpi=110)
    plt.close(fig)
    im = Image.open(path).convert("RGB")
    im.quantize(colors=64, method=Image.Quantize.MEDIANCUT).save(path, optimize=True)


def num(v):
    try:
        return float(v)
    except (TypeError, ValueError):
        return None


def load_summary(d):
    with open(os.path.join(d, "summary.csv"), newline="") as f:
        return list(csv.DictReader(f))


def ratio_plot(d, rows):
    labels = [r["row"] for r in rows][::-1]
    rows = rows[::-1]
    ratio = [num(r["ratio"]) for r in rows]
    lo = [num(r["ratio"]) - num(r["pair_min"]) for r in rows]
    hi = [num(r["pair_max"]) - num(r["ratio"]) for r in rows]
    aa = [num(r["aa"]) or 1.0 for r in rows]
    aalo = [(num(r["aa"]) or 1.0) - (num(r["aa_min"]) or 1.0) for r in rows]
    aahi = [(num(r["aa_max"]) or 1.0) - (num(r["aa"]) or 1.0) for r in rows]
    y = list(range(len(rows)))
    fig, ax = plt.subplots(figsize=(9, 0.32 * len(rows) + 1.5))
    ax.axvspan(0.97, 1.03, color="#dddddd", label="±3 %")
    ax.barh(
        [v + 0.2 for v in y],
        [v - 1 for v in ratio],
        left=1,
        height=0.4,
        xerr=[lo, hi],
        color="#2b7bba",
        label="ours ÷ liburing",
        error_kw={"lw": 0.8},
    )
    ax.barh(
        [v - 0.2 for v in y],
        [v - 1 for v in aa],
        left=1,
        height=0.4,
        xerr=[aalo, aahi],
        color="#aaaaaa",
        label="A/A: liburing ÷ liburing",
        error_kw={"lw": 0.8},
    )
    ax.axvline(1.0, color="black", lw=0.8)
    ax.set_yticks(y)
    ax.set_yticklabels(labels, fontsize=8)
    ax.set_xlabel("time ratio (main figure of the row; < 1: faster than liburing)")
    ax.legend(loc="lower right", fontsize=8)
    ax.set_title("uring-rs ÷ liburing 2.15: median of the per-round ratios")
    fig.tight_layout()
    save(fig, os.path.join(d, "ratios.png"))


def instructions_plot(d, rows):
    rows = [r for r in rows if num(r.get("ir.ours")) and num(r.get("ir.liburing"))][::-1]
    if not rows:
        return
    y = list(range(len(rows)))
    ratio = [num(r["ir.ours"]) / num(r["ir.liburing"]) for r in rows]
    fig, ax = plt.subplots(figsize=(9, 0.3 * len(rows) + 1.5))
    colours = ["#c0392b" if v > 1.0005 else "#27ae60" for v in ratio]
    ax.barh(y, [v - 1 for v in ratio], left=1, color=colours)
    ax.axvline(1.0, color="black", lw=0.8)
    for yi, v, r in zip(y, ratio, rows, strict=True):
        ax.text(
            max(v, 1) + 0.002,
            yi,
            "%.3f (%.0f / %.0f)" % (v, num(r["ir.ours"]), num(r["ir.liburing"])),
            va="center",
            fontsize=7,
        )
    ax.set_yticks(y)
    ax.set_yticklabels([r["row"] for r in rows], fontsize=8)
    ax.set_xlabel("user-space instructions per op, ours ÷ liburing (callgrind)")
    lo = min(ratio + [1.0])
    hi = max(ratio + [1.0])
    ax.set_xlim(lo - 0.02, hi + 0.08)
    ax.set_title("Instructions per op (red: ours executes more)")
    fig.tight_layout()
    save(fig, os.path.join(d, "instructions.png"))


def read_latencies(path):
    with open(path) as f:
        return sorted(int(line) for line in f if line.strip())


def latency_plot(d):
    lat_dir = os.path.join(d, "latency")
    if not os.path.isdir(lat_dir):
        return
    conns_list, rings = (1, 32), ("default", "coop", "defer")
    fig, axes = plt.subplots(len(conns_list), len(rings), figsize=(13, 7), sharey=True)
    drawn = False
    for i, conns in enumerate(conns_list):
        for j, ring in enumerate(rings):
            ax = axes[i][j]
            base = re.sub(r"\W+", "_", "pingpong/%d conn %s" % (conns, ring))
            for side, colour in (("ours", "#2b7bba"), ("liburing", "#e67e22")):
                path = os.path.join(lat_dir, "%s-%s.txt" % (base, side))
                if not os.path.exists(path):
                    continue
                v = read_latencies(path)
                if not v:
                    continue
                us = [x / 1e3 for x in v]
                frac = [(k + 1) / len(us) for k in range(len(us))]
                ax.plot(us, frac, color=colour, lw=1.2, label=side)
                drawn = True
            ax.set_xscale("log")
            ax.set_title(
                "%d connection%s, %s ring" % (conns, "s" if conns > 1 else "", ring), fontsize=9
            )
            ax.grid(True, which="both", lw=0.3)
            if i == len(conns_list) - 1:
                ax.set_xlabel("round-trip latency (µs, log)")
            if j == 0:
                ax.set_ylabel("fraction of round trips ≤ x")
            if ax.get_lines():
                ax.legend(fontsize=8, loc="lower right")
    fig.suptitle("TCP loopback ping-pong, 64-byte messages: latency CDF (last round)")
    fig.tight_layout()
    if drawn:
        save(fig, os.path.join(d, "pingpong-latency.png"))
    else:
        plt.close(fig)


def defer_taskrun_plot(d):
    raw = report.load(d)[0]
    eff = report.taskrun_effects(raw)
    shapes = [s for s, e in eff.items() if e["ours"]["p50_ns"]]
    if not shapes:
        return
    keys = (("p50_ns", "p50 latency"), ("p99_ns", "p99 latency"), ("ops_per_s", "requests/s"))
    sides = (("ours", "#2b7bba"), ("liburing", "#e67e22"), ("liburing-aa", "#aaaaaa"))
    fig, axes = plt.subplots(1, len(keys), figsize=(14, 0.5 * len(shapes) + 2), sharey=True)
    for ax, (key, title) in zip(axes, keys, strict=True):
        for j, (side, colour) in enumerate(sides):
            y, mid, lo, hi = [], [], [], []
            for i, shape in enumerate(shapes[::-1]):
                r = eff[shape][side][key]
                if not r:
                    continue
                m = statistics.median(r)
                y.append(i + (1 - j) * 0.25)
                mid.append(100 * (m - 1))
                lo.append(100 * (m - min(r)))
                hi.append(100 * (max(r) - m))
            ax.barh(
                y,
                mid,
                height=0.25,
                xerr=[lo, hi],
                color=colour,
                error_kw={"lw": 0.8},
                label="liburing (A/A)" if side == "liburing-aa" else side,
            )
        ax.axvline(0, color="black", lw=0.8)
        ax.axvspan(-3, 3, color="#dddddd", zorder=0)
        # one slow round (a burst of load from elsewhere) can stretch a whisker
        # to +1000 %: cut there so the medians stay readable
        ax.set_xlim(-100, 150)
        ax.set_title(
            "%s: DEFER_TASKRUN vs default%s"
            % (title, "" if key == "ops_per_s" else " (< 0: faster)"),
            fontsize=9,
        )
        ax.set_xlabel("% change, median of rounds (whisker: min–max)", fontsize=8)
        ax.grid(True, axis="x", lw=0.3)
    axes[0].set_yticks(range(len(shapes)))
    axes[0].set_yticklabels(shapes[::-1], fontsize=8)
    axes[-1].legend(fontsize=8, loc="lower right")
    fig.suptitle("Seed 002 workload: io_uring server, client threads, getpid calls per request")
    fig.tight_layout()
    save(fig, os.path.join(d, "defer-taskrun.png"))


def main(d):
    defer_taskrun_plot(d)
    rows = load_summary(d)
    ratio_plot(d, rows)
    instructions_plot(d, rows)
    latency_plot(d)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
