#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The manual's checks (man/checks, the claims of make check-man) on the
kernels of kernels.sh (KERNELS_MAN=1, make check-man-kernels).

    python3 -m pytools.vm.kernels_man build OUR_USR UPSTREAM_USR DIR
        builds every man/checks/*.c as check-man does (pytools/man/claims.py
        build_one) against our install into DIR/ours and against upstream's
        into DIR/upstream, and writes DIR/cases.tsv (case, the release from
        which the manual states it), from `--list`
    python3 -m pytools.vm.kernels_man report OUT KERNEL...
        reads the guests' "@@man SIDE PROGRAM" ... "@@endman RC SECONDS"
        blocks (kernels-man-guest.sh) in OUT/console-KERNEL.log.txt, judges
        each case as check-man does (ok; not checkable here: the kernel
        cannot show the claim; anything else, or no result line: failed),
        writes OUT/man-report.md and prints a summary ending in
        `N passed, N failed` (passed: runs ok or not checkable). Exit 1
        when a run failed or a guest did not report a program.
"""

import os
import re
import subprocess
import sys

from pytools.man import claims

SIDES = ("ours", "upstream")


def build(our_usr, upstream_usr, out):
    rows = {}
    failed = False
    for side, usr in (("ours", our_usr), ("upstream", upstream_usr)):
        d = os.path.join(out, side)
        os.makedirs(d, exist_ok=True)
        for source in claims.SOURCES:
            exe = os.path.join(d, os.path.basename(source)[:-2])
            err = claims.build_one(source, usr, exe)
            if err is not None:
                print("%s does not build against %s:\n%s" % (source, usr, err))
                failed = True
                continue
            if side == "ours":
                env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(usr, "lib"))
                for line in claims_list(exe, env):
                    rows[line[0]] = (os.path.basename(exe), line[1])
    with open(os.path.join(out, "cases.tsv"), "w") as f:
        for case, (program, release) in rows.items():
            f.write("%s\t%s\t%s\n" % (program, case, release))
    print("%d cases in %d programs" % (len(rows), len(claims.SOURCES)))
    return 1 if failed else 0


def claims_list(exe, env):
    """(case, release) pairs of `exe --list` (it asks the kernel nothing)."""
    r = subprocess.run([exe, "--list"], capture_output=True, text=True, env=env)
    return [tuple((line.split() + ["-"])[:2]) for line in r.stdout.split("\n") if line.strip()]


def parse(path):
    """The kernel release, whether the guest finished, and
    {(side, program): (output, rc, seconds)} of one console log."""
    runs, kernel, done = {}, "?", False
    if not os.path.exists(path):
        return kernel, done, runs
    cur, text = None, []
    with open(path, errors="replace") as f:
        for line in f:
            line = line.rstrip("\n")
            if cur is not None:
                m = re.match(r"^@@endman (\d+) (\d+)$", line)
                if m:
                    runs[cur] = ("\n".join(text), int(m.group(1)), int(m.group(2)))
                    cur, text = None, []
                else:
                    text.append(line)
                continue
            w = line.split()
            if len(w) == 3 and w[0] == "@@man":
                cur = (w[1], w[2])
            elif w[:2] == ["@@", "kernel"] and len(w) > 2:
                kernel = w[2]
            elif w[:2] == ["@@", "done"]:
                done = True
    return kernel, done, runs


def report(out, kernels):
    with open(os.path.join(out, "man-checks", "cases.tsv")) as f:
        cases = [line.rstrip("\n").split("\t") for line in f if line.strip()]
    programs = sorted({p for p, _, _ in cases})
    md = [
        "<!-- SPDX-License-Identifier: MIT -->",
        "# The manual's checks on Debian's kernels (`make check-man-kernels`)",
        "",
        "Every case of `man/checks` (%d cases in %d programs), built against ours and against "
        "upstream liburing 2.15, run in the guest of each kernel: ok, not checkable here (the "
        "kernel cannot show the claim: it predates the release from which the manual states "
        "it, or lacks what the case needs), or failed." % (len(cases), len(programs)),
        "",
        "| kernel | release | wall s | runs | ok | not checkable | failed | ours ok/nc/failed "
        "| upstream ok/nc/failed |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    sections, summary = [], []
    total_pass = total_fail = 0
    for k in kernels:
        kernel, done, runs = parse(os.path.join(out, "console-%s.log.txt" % k))
        try:
            with open(os.path.join(out, "wall-%s" % k)) as f:
                wall = f.read().strip()
        except OSError:
            wall = "?"
        per_side = {s: {"ok": 0, "not checkable": 0, "failed": 0} for s in SIDES}
        failures, not_here, problems = [], {}, []
        if not done:
            problems.append("the guest did not finish")
        for side in SIDES:
            for program in programs:
                if (side, program) not in runs:
                    problems.append("%s on %s: no output" % (program, side))
                    continue
                output, rc, secs = runs[(side, program)]
                results = claims.parse_results(output)
                for p, case, _ in cases:
                    if p != program:
                        continue
                    v = results.get(
                        case, "FAIL printed no result (exit %d after %d s)" % (rc, secs)
                    )
                    kind = claims.verdict_kind(v)
                    per_side[side][kind] += 1
                    if kind == "failed":
                        failures.append((case, side, v))
                    elif kind == "not checkable":
                        not_here.setdefault(case, {})[side] = v
        c = {x: sum(per_side[s][x] for s in SIDES) for x in ("ok", "not checkable", "failed")}
        runs_n = sum(c.values())
        side_counts = [
            "%d/%d/%d" % tuple(per_side[s][x] for x in ("ok", "not checkable", "failed"))
            for s in SIDES
        ]
        md.append(
            "| %s | `%s` | %s | %d | %d | %d | %d | %s | %s |"
            % (k, kernel, wall, runs_n, c["ok"], c["not checkable"], c["failed"], *side_counts)
        )
        total_pass += c["ok"] + c["not checkable"]
        total_fail += c["failed"] + len(problems)
        summary.append(
            "%-5s %s: %d runs, %d ok, %d not checkable here, %d failed%s; %s s"
            % (
                k,
                kernel,
                runs_n,
                c["ok"],
                c["not checkable"],
                c["failed"],
                "; " + "; ".join(problems) if problems else "",
                wall,
            )
        )
        sec = ["", "## %s (`%s`)" % (k, kernel), ""]
        secs = ", ".join(
            "%s %s %d s" % (p, s, runs[(s, p)][2])
            for s in SIDES
            for p in programs
            if (s, p) in runs
        )
        sec.append("Wall time of the boot: %s s (%s)." % (wall, secs or "no program ran"))
        if problems:
            sec += ["", "Problems:", ""] + ["- %s" % x for x in problems]
        if failures:
            sec += ["", "Failed:", ""]
            sec += ["- `%s` (%s): %s" % x for x in sorted(failures)]
        if not_here:
            sec += ["", "Not checkable here (%d cases):" % len(not_here), ""]
            for case in sorted(not_here):
                vs = not_here[case]
                if len(set(vs.values())) == 1 and len(vs) == len(SIDES):
                    sec.append("- `%s`: %s" % (case, next(iter(vs.values()))[19:]))
                else:
                    sec.append(
                        "- `%s`: %s"
                        % (case, "; ".join("%s: %s" % (s, v[19:]) for s, v in sorted(vs.items())))
                    )
        sections += sec
        for case, side, v in sorted(failures):
            print("FAIL %s: %s (%s): %s" % (k, case, side, v))
        for p in problems:
            print("FAIL %s: %s" % (k, p))
    with open(os.path.join(out, "man-report.md"), "w") as f:
        f.write("\n".join(md + sections) + "\n")
    print()
    print("\n".join(summary))
    print("%d passed, %d failed" % (total_pass, total_fail))
    return 1 if total_fail else 0


def main(argv):
    if len(argv) == 4 and argv[0] == "build":
        return build(*argv[1:])
    if len(argv) >= 3 and argv[0] == "report":
        return report(argv[1], argv[2:])
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
