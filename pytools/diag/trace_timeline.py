#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Draw a LIBURING_TRACE JSON trace as a timeline, offline.

    python3 -m pytools.diag.trace_timeline TRACE.json OUT.html [--title TEXT]
    python3 -m pytools.diag.trace_timeline TRACE.utrace OUT.html   (a binary trace)

Writes one self-contained HTML page (an inline SVG, no script, nothing
fetched) with, per ring and thread: the calls that entered the kernel, the
requests from submission to completion (packed into lanes where they
overlap, coloured by opcode, labelled where wide enough), instant events
(CQ overflow, dry buffer groups) and the SQ and CQ fill counters. Any
browser shows it; `chromium --headless --screenshot` makes a PNG of it (the
README's picture). The Perfetto UI and chrome://tracing read the same file
when they can be reached.
"""

import argparse
import html
import json
import os
import subprocess
import sys

WIDTH = 1200
LEFT = 130  # room for the row labels
RIGHT = 20
LANE = 16
GAP = 6
PALETTE = [
    "#4e79a7",
    "#f28e2b",
    "#59a14f",
    "#e15759",
    "#76b7b2",
    "#edc948",
    "#b07aa1",
    "#ff9da7",
    "#9c755f",
    "#bab0ac",
]


def load(path):
    """The events of a Chrome trace-event file. The library leaves the array
    open (the format allows a missing `]`), and a process killed outright
    leaves zero bytes after its last event: both are closed here. A binary
    trace (LIBURING_TRACE_FORMAT=binary) is decoded first by `uring-info
    trace --json` ($URING_INFO, else uring-info on PATH)."""
    with open(path, "rb") as f:
        binary = f.read(8) == b"URTRACE1"
    if binary:
        tool = os.environ.get("URING_INFO", "uring-info")
        try:
            done = subprocess.run([tool, "trace", "--json", path], capture_output=True, text=True)
        except OSError as e:
            sys.exit(f"{path}: a binary trace, decoded by uring-info ({tool}: {e.strerror})")
        if done.returncode != 0:
            sys.exit(done.stderr.strip() or f"{tool} trace failed")
        text = done.stdout.rstrip()
    else:
        with open(path, encoding="utf-8") as f:
            text = f.read().replace("\0", "").rstrip()
    if not text.endswith("]"):
        text = text.rstrip(",") + "]"
    events = json.loads(text)
    if not isinstance(events, list):
        sys.exit(f"{path}: not a trace-event array")
    return events


def lanes(slices):
    """Greedy interval packing: the lane of each (start, end, event)."""
    ends = []
    placed = []
    for start, end, ev in sorted(slices, key=lambda s: (s[0], s[1])):
        for i, e in enumerate(ends):
            if e <= start:
                ends[i] = end
                placed.append((i, start, end, ev))
                break
        else:
            ends.append(end)
            placed.append((len(ends) - 1, start, end, ev))
    return placed, max(len(ends), 1)


def build(events, title):
    names = {}
    for ev in events:
        if ev.get("ph") == "M" and ev.get("name") == "process_name":
            names[ev["pid"]] = ev.get("args", {}).get("name", f"ring {ev['pid']}")
    timed = [ev for ev in events if "ts" in ev and ev.get("ph") != "M"]
    if not timed:
        sys.exit("the trace has no timed events")
    t0 = min(float(ev["ts"]) for ev in timed)
    t1 = max(float(ev["ts"]) + float(ev.get("dur", 0)) for ev in timed)
    span = max(t1 - t0, 1.0)
    scale = (WIDTH - LEFT - RIGHT) / span

    def x(ts):
        return LEFT + (float(ts) - t0) * scale

    colours = {}

    def colour(name):
        if name not in colours:
            colours[name] = PALETTE[len(colours) % len(PALETTE)]
        return colours[name]

    parts = []
    y = 40
    tracks = sorted({(ev["pid"], ev.get("tid", 0)) for ev in timed if ev.get("ph") in "XBEi"})
    for pid, tid in tracks:
        mine = [ev for ev in timed if ev["pid"] == pid and ev.get("tid", 0) == tid]
        requests = [
            (float(ev["ts"]), float(ev["ts"]) + float(ev.get("dur", 0)), ev)
            for ev in mine
            if ev.get("ph") == "X" and ev.get("cat") == "request"
        ]
        calls = [
            (float(ev["ts"]), float(ev["ts"]) + float(ev.get("dur", 0)), ev)
            for ev in mine
            if ev.get("ph") == "X" and ev.get("cat") != "request"
        ]
        instants = [ev for ev in mine if ev.get("ph") == "i"]
        label = f"{names.get(pid, f'ring {pid}')}, thread {tid % 100000}"
        parts.append(f'<text x="4" y="{y + 12}" class="track">{html.escape(label)}</text>')
        y += 18
        # Calls that entered the kernel (slices), then instant events.
        parts.append(f'<text x="4" y="{y + 11}" class="row">enters</text>')
        for start, end, ev in calls:
            w = max((end - start) * scale, 1.0)
            parts.append(
                f'<rect x="{x(start):.1f}" y="{y}" width="{w:.1f}" height="{LANE - 3}" '
                f'fill="#555"><title>{html.escape(ev["name"])}: '
                f"{end - start:.1f} us</title></rect>"
            )
        for ev in instants:
            xi = x(ev["ts"])
            parts.append(
                f'<path d="M{xi:.1f},{y} l4,{LANE - 3} l-8,0 z" fill="#d62728">'
                f"<title>{html.escape(ev['name'])}</title></path>"
            )
        y += LANE + 2
        placed, n = lanes(requests)
        parts.append(f'<text x="4" y="{y + 11}" class="row">requests</text>')
        for lane, start, end, ev in placed:
            w = max((end - start) * scale, 1.0)
            yy = y + lane * LANE
            args = ev.get("args", {})
            tip = (
                f"{ev['name']} user_data={args.get('user_data')} fd={args.get('fd')} "
                f"len={args.get('len')} res={args.get('res')}: {end - start:.1f} us"
            )
            parts.append(
                f'<rect x="{x(start):.1f}" y="{yy}" width="{w:.1f}" height="{LANE - 3}" '
                f'rx="2" fill="{colour(ev["name"])}"><title>{html.escape(tip)}</title></rect>'
            )
            if w > 7 * len(ev["name"]) + 6:
                parts.append(
                    f'<text x="{x(start) + 3:.1f}" y="{yy + 10}" class="slice">'
                    f"{html.escape(ev['name'])}</text>"
                )
        y += n * LANE + GAP
    # Counters (SQ and CQ fill), per ring, as step lines.
    counters = {}
    for ev in timed:
        if ev.get("ph") == "C":
            value = next(iter(ev.get("args", {}).values()), 0)
            counters.setdefault((ev["pid"], ev["name"]), []).append((float(ev["ts"]), float(value)))
    for (pid, name), points in sorted(counters.items()):
        points.sort()
        top = max(v for _, v in points) or 1.0
        h = 30
        ring = names.get(pid, f"ring {pid}").split(" (")[0]
        parts.append(
            f'<text x="4" y="{y + 12}" class="row">{html.escape(name)}, '
            f"{html.escape(ring)} (max {top:g})</text>"
        )
        d = []
        prev = None
        for ts, v in points:
            px, py = x(ts), y + h - v / top * h
            if prev is not None:
                d.append(f"L{px:.1f},{prev:.1f}")
            d.append(f"{'M' if not d else 'L'}{px:.1f},{py:.1f}")
            prev = py
        parts.append(f'<path d="{" ".join(d)}" fill="none" stroke="#1f77b4" stroke-width="1.5"/>')
        y += h + GAP
    # Time axis.
    step = 10 ** len(str(int(span))) / 10
    while span / step > 12:
        step *= 2
    ticks = []
    t = 0.0
    while t <= span:
        xt = LEFT + t * scale
        ticks.append(
            f'<line x1="{xt:.1f}" y1="28" x2="{xt:.1f}" y2="{y}" class="grid"/>'
            f'<text x="{xt:.1f}" y="24" class="tick">{t:g} us</text>'
        )
        t += step
    legend = []
    lx = LEFT
    for name, c in colours.items():
        legend.append(
            f'<rect x="{lx}" y="{y + 6}" width="10" height="10" fill="{c}"/>'
            f'<text x="{lx + 14}" y="{y + 15}" class="row">{html.escape(name)}</text>'
        )
        lx += 24 + 8 * len(name)
    height = y + 26
    svg = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{height}" '
        f'font-family="DejaVu Sans, sans-serif">'
        f"<style>.track{{font-size:12px;font-weight:bold}} .row{{font-size:11px;fill:#333}} "
        f".slice{{font-size:9px;fill:#fff}} .tick{{font-size:10px;fill:#666}} "
        f".grid{{stroke:#ddd;stroke-width:1}}</style>"
        f'<text x="4" y="14" class="track">{html.escape(title)}</text>'
        + "".join(ticks)
        + "".join(parts)
        + "".join(legend)
        + "</svg>"
    )
    return (
        f'<!DOCTYPE html>\n<html><head><meta charset="utf-8"><title>{html.escape(title)}'
        f"</title><style>body{{margin:0;background:#fff}}</style></head><body>{svg}"
        f"</body></html>\n"
    ), height


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("trace")
    ap.add_argument("out")
    ap.add_argument("--title", default=None)
    a = ap.parse_args()
    page, height = build(load(a.trace), a.title or a.trace)
    with open(a.out, "w", encoding="utf-8") as f:
        f.write(page)
    print(f"{a.out}: {WIDTH}x{height}")


if __name__ == "__main__":
    main()
