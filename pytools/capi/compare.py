#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Compare the bad-argument case outputs of upstream liburing and ours.

    python3 -m pytools.capi.compare UPSTREAM.txt OURS.txt ALLOW-LIST [--map liburing.map]

Each output line is "<n> <function>(<arguments>) -> <result>".  Cases are
matched by number and must name the same call.  A case whose results differ
passes only when an allow-list rule matches it (see allow-list.txt).
--map checks that every
symbol the version script exports is called by at least one case.
Exit status 0 when nothing is unexplained.
"""

import argparse
import fnmatch
import re
import sys


def read_cases(path):
    cases = {}
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            m = re.match(r"^(\d+) (.*)$", line)
            if m:
                cases[int(m.group(1))] = m.group(2)
    return cases


def read_rules(path):
    """[(section, upstream_glob, ours_glob, line_no)]"""
    rules, section = [], "deliberate"
    with open(path, encoding="utf-8") as f:
        for no, line in enumerate(f, 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            m = re.match(r"^\[(.+)\]$", line)
            if m:
                section = m.group(1)
                continue
            if "  =>  " not in line:
                sys.exit(f"{path}:{no}: a rule is '<upstream glob>  =>  <our glob>'")
            up, ours = (part.strip() for part in line.split("  =>  ", 1))
            rules.append((section, up, ours, no))
    return rules


def call_of(line):
    return line.split(" -> ", 1)[0]


def exported_symbols(map_path):
    with open(map_path, encoding="utf-8") as f:
        text = f.read()
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    names = set()
    for block in re.findall(r"global:(.*?)(?:local:|\})", text, flags=re.S):
        names.update(n.strip() for n in block.split(";") if n.strip())
    return names


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("upstream")
    ap.add_argument("ours")
    ap.add_argument("allow_list")
    ap.add_argument("--map")
    a = ap.parse_args()

    up, ours = read_cases(a.upstream), read_cases(a.ours)
    rules = read_rules(a.allow_list)
    used = {r[3]: 0 for r in rules}
    failures, counts = [], {"same": 0}

    if not up or len(up) != len(ours):
        failures.append(f"case counts differ: upstream {len(up)}, ours {len(ours)}")
    for n in sorted(set(up) | set(ours)):
        u, o = up.get(n), ours.get(n)
        if u is None or o is None or call_of(u) != call_of(o):
            failures.append(f"case {n} is not the same call: {u!r} vs {o!r}")
            continue
        if u == o:
            counts["same"] += 1
            continue
        rule = next(
            (r for r in rules if fnmatch.fnmatchcase(u, r[1]) and fnmatch.fnmatchcase(o, r[2])),
            None,
        )
        if rule:
            counts[rule[0]] = counts.get(rule[0], 0) + 1
            used[rule[3]] += 1
            print(
                f"allowed ({rule[0]}, rule line {rule[3]}): {n} {call_of(u)}\n"
                f"    upstream: {u.split(' -> ', 1)[1]}\n    ours:     {o.split(' -> ', 1)[1]}"
            )
        else:
            failures.append(
                f"case {n} differs: {call_of(u)}\n"
                f"    upstream: {u.split(' -> ', 1)[1]}\n"
                f"    ours:     {o.split(' -> ', 1)[1]}"
            )

    if a.map:
        called = {
            re.sub(r"^(FFI\(|exported_)", "", call_of(line)).split("(")[0].rstrip(")")
            for line in up.values()
        }
        missing = sorted(exported_symbols(a.map) - called)
        if missing:
            failures.append("exported functions no case calls: " + " ".join(missing))
        print(
            f"coverage: {len(exported_symbols(a.map) - set(missing))} of "
            f"{len(exported_symbols(a.map))} exported functions called"
        )

    for r in rules:
        if not used[r[3]]:
            print(
                f"note: allow-list rule on line {r[3]} ({r[0]}) matched nothing; "
                "remove it if the difference is gone"
            )
    summary = ", ".join(f"{v} {k}" for k, v in counts.items())
    print(f"{len(up)} cases: {summary}, {len(failures)} unexplained")
    for f in failures:
        print("FAIL " + f)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
