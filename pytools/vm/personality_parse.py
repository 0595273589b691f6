#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Reads the console log of personality.sh's guest and prints, per library,
the median ns per read without and with a registered personality and the
with/without ratio (the median of the per-round ratios, each taken between
runs of the same round, and their range), then ours against upstream liburing
the same way. Exit status 1 when the guest ran no rows."""

import statistics
import sys


def main(path):
    runs = {}  # (side, pers) -> {round: ns_per_op}
    notes = []
    with open(path, errors="replace") as f:
        for line in f:
            words = line.split()
            if not words or words[0] != "@@":
                continue
            if len(words) >= 2 and words[1] == "run" and len(words) >= 5:
                rnd, side, pers = int(words[2]), words[3], int(words[4])
                kv = dict(w.split("=", 1) for w in words[5:] if "=" in w)
                if "ns_per_op" not in kv:
                    notes.append(
                        "round %d %s personality=%d: %s" % (rnd, side, pers, " ".join(words[5:]))
                    )
                    continue
                runs.setdefault((side, pers), {})[rnd] = float(kv["ns_per_op"])
            elif words[1] != "done":
                notes.append(" ".join(words[1:]))
    for n in notes:
        print("guest: " + n)
    if not runs:
        print("no measured rows")
        return 1
    print("TCG emulation: absolute ns/read are meaningless; compare ratios only.")
    print(
        "%-9s %6s %14s %14s %10s %15s"
        % ("library", "rounds", "none ns/read", "pers ns/read", "with/none", "round range")
    )
    ratio = {}
    for side in ("ours", "upstream"):
        a, b = runs.get((side, 0), {}), runs.get((side, 1), {})
        per_round = [b[r] / a[r] for r in sorted(set(a) & set(b))]
        if not per_round:
            continue
        ratio[side] = {r: b[r] / a[r] for r in set(a) & set(b)}
        print(
            "%-9s %6d %14.0f %14.0f %10.3f %7.3f..%.3f"
            % (
                side,
                len(per_round),
                statistics.median(a.values()),
                statistics.median(b.values()),
                statistics.median(per_round),
                min(per_round),
                max(per_round),
            )
        )
    if len(ratio) == 2:
        for pers in (0, 1):
            o, u = runs[("ours", pers)], runs[("upstream", pers)]
            q = [o[r] / u[r] for r in sorted(set(o) & set(u))]
            print(
                "ours/liburing ns/read, personality=%d: %.3f [%.3f..%.3f]"
                % (pers, statistics.median(q), min(q), max(q))
            )
        common = sorted(set(ratio["ours"]) & set(ratio["upstream"]))
        q = [ratio["ours"][r] / ratio["upstream"][r] for r in common]
        print(
            "with/none ratio, ours / liburing's: %.3f [%.3f..%.3f]"
            % (statistics.median(q), min(q), max(q))
        )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
