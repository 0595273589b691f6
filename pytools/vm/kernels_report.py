#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Judges the amd64 kernels' guest runs (kernels.sh) and writes the report.

Usage: python3 -m pytools.vm.kernels_report OUT [--nobuild NAMES]
           [--nobuild-upstream NAMES] [--suite-desc TEXT] KERNEL...

Reads OUT/console-KERNEL.log.txt (the guest's rows, see guest-init.sh) and
OUT/wall-KERNEL, OUT/liburing/nobuild.txt; writes OUT/report.md (a table per
kernel) and prints a summary ending in `N passed, N failed`. Exit 1 when
anything failed:
  - a capi-test failing on ours (or not built against ours);
  - a capi-test passing on upstream's build and not on ours (same kernel);
  - one of liburing's tests doing worse in a drop-in mode than on the
    reference on that kernel, and not cleared by the paired reruns, judged
    by the liburing-tests harness's own rules (common.worse, pairs.PairJudge);
  - a boot that did not finish, or a kernel BUG/WARNING/Oops in its log.
"""

import argparse
import os
import re
import sys

from pytools.suite import pairs
from pytools.suite.common import FAIL, PASS, SKIP, TIMEOUT, failing, rec, worse

KERNEL_LOG = re.compile(
    r"^\[ *[0-9]+\.[0-9]+\] .*(kernel BUG at|WARNING:|BUG:|Oops:|Internal error)"
)


def kind(rc):
    rc = int(rc)
    if rc == 0:
        return PASS
    if rc == 77:
        return SKIP
    if rc in (124, 137):
        return TIMEOUT
    return FAIL


def parse(path):
    run = {
        "capi": {},
        "upstream": {},
        "unit": {},
        "lt": {},
        "pairs": {},
        "logs": {},
        "diag": [],
        "kernel": "?",
        "done": False,
        "kernlog": [],
    }
    if not os.path.exists(path):
        return run
    block, text = None, []
    with open(path, errors="replace") as f:
        for line in f:
            # tty-write-dpoll writes 8 KiB of NULs to the console, which
            # then lead the guest's next row.
            line = line.rstrip("\n").lstrip("\0")
            if block is not None:
                if line in ("@@endlog", "@@enddiag"):
                    if line == "@@endlog":
                        run["logs"][block] = text
                    else:
                        run["diag"].append((block, text))
                    block, text = None, []
                else:
                    text.append(line)
                continue
            if line.startswith("@@log "):
                block = line[6:]
                continue
            if line.startswith("@@diag "):
                block = line[7:]
                continue
            if KERNEL_LOG.search(line):
                run["kernlog"].append(line)
            w = line.split()
            if not w or w[0] != "@@":
                continue
            if len(w) >= 2 and w[1] == "done":
                run["done"] = True
            elif len(w) >= 3 and w[1] == "kernel":
                run["kernel"] = w[2]
            elif len(w) == 8 and w[1] == "unit":
                # "@@ unit BINARY PASSED FAILED SKIPPED RC SECONDS": one
                # Rust unit-test binary (kernels-guest.sh).
                run["unit"][w[2]] = tuple(int(x) for x in w[3:])
            elif len(w) == 7 and w[1] == "pair":
                _, _, mode, name, rnd, ref, ours = w
                run["pairs"].setdefault((mode, name), []).append((int(rnd), int(ref), int(ours)))
            elif len(w) == 4 and w[1] != "pagesize":
                name, rc, secs = w[1], w[2], w[3]
                r = rec(kind(rc), None if rc in ("0", "77") else "rc %s" % rc, float(secs))
                if name.startswith("upstream:"):
                    run["upstream"][name[9:]] = r
                elif name.startswith("liburing-"):
                    mode, _, test = name[9:].partition(":")
                    run["lt"].setdefault(mode, {})[test] = r
                else:
                    run["capi"][name] = r
    return run


def counts(results):
    c = {PASS: 0, FAIL: 0, SKIP: 0, TIMEOUT: 0}
    for r in results.values():
        c[r["kind"]] = c.get(r["kind"], 0) + 1
    return c


def judge_lt(run):
    """{(mode, name): verdict} for every drop-in result worse than the reference."""
    ref = run["lt"].get("reference", {})
    out = {}
    for mode in ("source", "binary"):
        for name, r in run["lt"].get(mode, {}).items():
            if name not in ref or not worse(r, ref[name]):
                continue
            recorded = sorted(run["pairs"].get((mode, name), []))
            if not recorded:
                out[(mode, name)] = pairs.UNJUDGED
                continue
            by_round = {rnd: (rec(kind(a)), rec(kind(b))) for rnd, a, b in recorded}
            judge = pairs.PairJudge(
                worse, failing, rounds=len(recorded), needed=min(2, len(recorded))
            )
            verdicts = judge.judge([name], lambda n, rnd, rounds=by_round: rounds[rnd] + (0.0,))
            out[(mode, name)] = verdicts[name]["verdict"]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("kernels", nargs="+")
    ap.add_argument("--nobuild", default="")
    ap.add_argument("--nobuild-upstream", default="")
    ap.add_argument("--suite-desc", default="")
    a = ap.parse_args()
    nobuild = a.nobuild.split()
    nobuild_up = a.nobuild_upstream.split()
    lt_nobuild = []
    p = os.path.join(a.out, "liburing", "nobuild.txt")
    if os.path.exists(p):
        with open(p) as f:
            lt_nobuild = [line.split(None, 2) for line in f if line.strip()]
    md = [
        "<!-- SPDX-License-Identifier: MIT -->",
        "# check-kernels report",
        "",
        "liburing's suite: %s; modes reference (upstream on upstream), source and binary "
        "drop-in (ours)." % a.suite_desc,
        "",
    ]
    if nobuild_up:
        md.append(
            "capi-tests that do not build against upstream's headers (ours only): %s"
            % ", ".join("`%s`" % n for n in nobuild_up)
        )
        md.append("")
    for m, n, why in lt_nobuild:
        md.append("- liburing %s `%s`: %s" % (m, n, why.strip()))
    total_pass = total_fail = 0
    summary = []
    table = [
        "| kernel | release | wall s | capi ours p/f/s | capi upstream p/f/s | "
        "suite reference | source | binary | regressions | fallback tests ours/upstream | "
        "failed |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for k in a.kernels:
        run = parse(os.path.join(a.out, "console-%s.log.txt" % k))
        try:
            with open(os.path.join(a.out, "wall-%s" % k)) as f:
                wall = f.read().strip()
        except OSError:
            wall = "?"
        fails = []
        for n in nobuild:
            fails.append("capi %s: does not compile" % n)
        for n, r in sorted(run["capi"].items()):
            if r["kind"] not in (PASS, SKIP):
                fails.append("capi %s: %s" % (n, r["kind"]))
        worse_than_up = [
            n
            for n, r in run["capi"].items()
            if n in run["upstream"] and worse(r, run["upstream"][n])
        ]
        for n in sorted(worse_than_up):
            if run["capi"][n]["kind"] in (PASS, SKIP):  # a skip where upstream passes
                fails.append("capi %s: %s on ours, pass on upstream" % (n, run["capi"][n]["kind"]))
        verdicts = judge_lt(run)
        regressions = sorted(x for x, v in verdicts.items() if v not in pairs.NOT_REGRESSION)
        for mode, n in regressions:
            fails.append("liburing %s %s: regression (%s)" % (mode, n, verdicts[(mode, n)]))
        unit_failed = []
        for n, (_, failed, _, rc, _) in sorted(run["unit"].items()):
            if failed or rc:
                unit_failed.append("unit %s: %d failed (rc %d)" % (n, failed, rc))
        # A failed unit test fails the run (KERNELS_UNIT_STRICT=0: listed
        # only, for a kernel whose tests are not yet mended).
        if os.environ.get("KERNELS_UNIT_STRICT", "1") != "0":
            fails += unit_failed
        if not run["done"]:
            fails.append("boot: the guest did not finish")
        for line in run["kernlog"]:
            fails.append("kernel log: %s" % line)
        cc, cu = counts(run["capi"]), counts(run["upstream"])
        passed = cc[PASS] + cc[SKIP]
        total_pass += passed
        total_fail += len(fails)
        summary.append(
            "%-5s %s: capi ours %d/%d/%d, upstream %d/%d/%d (pass/fail/skip); "
            "liburing %s; unit %s; %d regression(s); %s s; %d failed"
            % (
                k,
                run["kernel"],
                cc[PASS],
                cc[FAIL] + cc[TIMEOUT],
                cc[SKIP],
                cu[PASS],
                cu[FAIL] + cu[TIMEOUT],
                cu[SKIP],
                " ".join(
                    "%s %d/%d/%d"
                    % (
                        m,
                        counts(run["lt"].get(m, {}))[PASS],
                        counts(run["lt"].get(m, {}))[FAIL] + counts(run["lt"].get(m, {}))[TIMEOUT],
                        counts(run["lt"].get(m, {}))[SKIP],
                    )
                    for m in ("reference", "source", "binary")
                    if run["lt"].get(m)
                )
                or "not run",
                "%d/%d/%d" % tuple(sum(x[i] for x in run["unit"].values()) for i in range(3))
                if run["unit"]
                else "not run",
                len(regressions),
                wall,
                len(fails),
            )
        )
        pfs = lambda c: "%d/%d/%d" % (c[PASS], c[FAIL] + c[TIMEOUT], c[SKIP])  # noqa: E731
        fb_names = sorted(n for n in run["capi"] if n.startswith("fallback-"))
        table.append(
            "| %s | `%s` | %s | %s | %s | %s | %s | %s | %d | %s | %d |"
            % (
                k,
                run["kernel"],
                wall,
                pfs(cc),
                pfs(cu),
                pfs(counts(run["lt"].get("reference", {}))),
                pfs(counts(run["lt"].get("source", {}))),
                pfs(counts(run["lt"].get("binary", {}))),
                len(regressions),
                "%d/%d pass of %d"
                % (
                    sum(run["capi"][n]["kind"] == PASS for n in fb_names),
                    sum(run["upstream"].get(n, {}).get("kind") == PASS for n in fb_names),
                    len(fb_names),
                ),
                len(fails),
            )
        )
        retried = os.path.exists(os.path.join(a.out, "console-%s.log.1.txt" % k))
        md += [
            "",
            "## %s (`%s`)" % (k, run["kernel"]),
            "",
            "Wall time of the boot: %s s.%s"
            % (
                wall,
                " The first boot did not finish and was repeated (console-%s.log.1.txt)." % k
                if retried
                else "",
            ),
            "",
            "| | pass | fail | skip |",
            "|---|---|---|---|",
            "| capi-tests, ours | %d | %d | %d |" % (cc[PASS], cc[FAIL] + cc[TIMEOUT], cc[SKIP]),
            "| capi-tests, upstream's build | %d | %d | %d |"
            % (cu[PASS], cu[FAIL] + cu[TIMEOUT], cu[SKIP]),
        ]
        if run["unit"]:
            u = [sum(x[i] for x in run["unit"].values()) for i in range(3)]
            md.append("| Rust unit tests (%d binaries) | %d | %d | %d |" % (len(run["unit"]), *u))
        for m in ("reference", "source", "binary"):
            if run["lt"].get(m):
                c = counts(run["lt"][m])
                md.append(
                    "| liburing %s | %d | %d | %d |" % (m, c[PASS], c[FAIL] + c[TIMEOUT], c[SKIP])
                )
        md += ["", "Regressions against upstream on this kernel: %d." % len(regressions)]
        if verdicts:
            md += [
                "",
                "Drop-in results worse than the reference in the first pass, after paired reruns:",
                "",
            ]
            for (mode, n), v in sorted(verdicts.items()):
                md.append(
                    "- %s `%s`: %s (%s)"
                    % (
                        mode,
                        n,
                        v,
                        "; ".join("%d) %s/%s" % x for x in sorted(run["pairs"].get((mode, n), []))),
                    )
                )
        diff = sorted(
            n
            for n in run["capi"]
            if n in run["upstream"] and run["capi"][n]["kind"] != run["upstream"][n]["kind"]
        )
        if diff:
            md += ["", "capi-tests whose result differs between ours and upstream's build:", ""]
            md += [
                "- `%s`: ours %s, upstream %s"
                % (n, run["capi"][n]["kind"], run["upstream"][n]["kind"])
                for n in diff
            ]
        fb = sorted(n for n in run["capi"] if n.startswith("fallback-"))
        if fb:
            md += ["", "Fallback tests (ours / upstream's build; the path each took):", ""]
            for n in fb:
                path = [x for x in run["logs"].get(n, []) if x.startswith("path:")]
                md.append(
                    "- `%s`: %s / %s; %s"
                    % (
                        n,
                        run["capi"][n]["kind"],
                        run["upstream"].get(n, {"kind": "-"})["kind"],
                        path[0] if path else "",
                    )
                )
        # The policy switches (sysctl, group, seccomp): each case's return
        # codes and our LIBURING_DEBUG line, as the test printed them.
        for n, side, res in (
            ("policy-knobs", "ours", run["capi"]),
            ("upstream:policy-knobs", "upstream's build", run["upstream"]),
        ):
            if n in run["logs"]:
                kind_of = res.get(n.partition(":")[2] or n, {"kind": "-"})["kind"]
                md += ["", "`policy-knobs` on %s (%s):" % (side, kind_of), "", "```"]
                md += run["logs"][n] + ["```"]
        if unit_failed:
            md += [
                "",
                "Rust unit tests that failed on this kernel:",
                "",
            ]
            for n in sorted(run["unit"]):
                for line in run["logs"].get("unit:" + n, []):
                    m = re.match(r"thread '([^']*)' .*panicked at (\S+?):?$", line.strip())
                    if m:
                        md.append("- `%s` (%s): `%s`" % (m.group(1), n, m.group(2)))
        if fails:
            md += ["", "Failures:", ""] + ["- %s" % x for x in fails]
        for title, text in run["diag"]:
            md += ["", "`%s`:" % title, "", "```"] + (text or ["(nothing)"]) + ["```"]
        for x in fails:
            print("FAIL %s: %s" % (k, x))
    md[5:5] = table + [""]
    with open(os.path.join(a.out, "report.md"), "w") as f:
        f.write("\n".join(md) + "\n")
    print()
    print("\n".join(summary))
    print("%d passed, %d failed" % (total_pass, total_fail))
    return 1 if total_fail else 0


if __name__ == "__main__":
    sys.exit(main())
