# SPDX-License-Identifier: MIT
"""The manual's claims and their checks (part of make check-man).

A page ties a statement to a check with a roff comment beside it:

    .\\" @check NAME

(section 3 pages get it from a `[check: NAME]` marker in their source
prose, see tools/gen/src/man/roff.rs take_checks). NAME is a case of
man/checks/claims.c. This module

  - builds claims.c against this library's stage and against upstream
    liburing's stage, runs every case with each, and fails on a case that
    fails with either;
  - fails on a page that names a case claims.c does not have, and on a case
    that no page names;
  - prints each case that did not pass (the others only in the totals);
  - counts the claims of each page: every entry of ERRORS and every
    paragraph of RETURN VALUE is one, checked when a `@check` comment sits
    in it, unchecked with a reason when a `.\\" @unchecked REASON` comment
    does (a claim this machine cannot show: memory exhaustion, a sysctl
    that would change the whole machine, hardware); `@check` comments
    elsewhere (DESCRIPTION, NOTES) are counted as checked statements of
    their own. In sections 2, 3 and 7 every claim must be one or the other. The
    counts per section are printed, and per page for the pages of sections
    1, 2 and 7 and every page with a check; the whole table goes to
    MAN_DIR/claims.tsv.

A case that holds only from some kernel release says "not checkable here" on
an older kernel: it neither passes nor fails, and is printed as such.
"""

import os
import re
import subprocess
import tempfile

from pytools import REPO

MAN_DIR = os.path.join(REPO, "man")
# The check programs: claims.c (one case per claim of sections 2, 3 and 7),
# request_results.c (the RETURN VALUE of every SQE helper page) and
# function_results.c (the RETURN VALUE and ERRORS of the other section 3
# pages).
SOURCES = [
    os.path.join(MAN_DIR, "checks", n)
    for n in ("claims.c", "request_results.c", "function_results.c")
]
CHECK_RE = re.compile(r'^\.\\" @check (\S+)\s*$')


UNCHECKED_RE = re.compile(r'^\.\\" @unchecked (\S.*)$')
# Sections whose every ERRORS and RETURN VALUE claim must be checked or say
# (`.\" @unchecked REASON`) why it cannot be here.
ACCOUNTED_SECTIONS = ("2", "3", "7")


def page_claims(text):
    """The claims of one page's roff: a dict with claims, checked, explained
    (unchecked with a reason), other_checks, names (linked cases) and
    unaccounted (labels of claims neither checked nor explained)."""
    out = {"claims": 0, "checked": 0, "explained": 0, "other": 0, "names": [], "unaccounted": []}
    section = None
    cur = None  # the claim being read: label, has_text, checked, explained
    paragraph = 0

    def close():
        nonlocal cur
        if cur and cur["text"]:
            out["claims"] += 1
            if cur["checked"]:
                out["checked"] += 1
            elif cur["explained"]:
                out["explained"] += 1
            else:
                out["unaccounted"].append(cur["label"])
        cur = None

    def new(label):
        return {"label": label, "text": False, "checked": False, "explained": False}

    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = CHECK_RE.match(line)
        u = UNCHECKED_RE.match(line)
        if m:
            out["names"].append(m.group(1))
        if line.startswith(".SH "):
            close()
            section = line[4:].strip().strip('"')
            paragraph = 0
            continue
        if section == "ERRORS":
            if line.startswith(".TP"):
                close()
                nxt = lines[i + 1] if i + 1 < len(lines) else ""
                cur = new("ERRORS " + nxt.split(" ", 1)[-1].strip())
            elif line.startswith((".PP", ".SS")):
                close()
            elif m or u:
                if cur is not None:
                    cur["checked" if m else "explained"] = True
                elif m:
                    out["other"] += 1
            elif cur is not None and line and not line.startswith('.\\"'):
                cur["text"] = True
        elif section == "RETURN VALUE":
            if line.startswith((".PP", ".TP", ".IP", ".SS", ".LP", ".P")) and not (m or u):
                close()
            elif m or u:
                if cur is None:
                    paragraph += 1
                    cur = new("RETURN VALUE paragraph %d" % paragraph)
                cur["checked" if m else "explained"] = True
            elif line and not line.startswith('.\\"'):
                if cur is None:
                    paragraph += 1
                    cur = new("RETURN VALUE paragraph %d" % paragraph)
                cur["text"] = True
        elif m:
            out["other"] += 1
    close()
    return out


def build_and_run(stage_usr, label, tmp, failures):
    """The cases and {case: result line} of every program of SOURCES built
    against stage_usr."""
    cases, results = [], {}
    for source in SOURCES:
        c, r = build_and_run_one(source, stage_usr, label, tmp, failures)
        if c is None:
            return None, None
        cases += c
        results.update(r)
    return cases, results


def build_one(source, stage_usr, exe):
    """Builds one check program against stage_usr into exe, as check-man
    does (also used by pytools/vm/kernels_man.py for the kernels'
    guests): None, or the compiler's complaint."""
    stage_usr = os.path.abspath(stage_usr)
    cc = os.environ.get("CC", "cc")
    r = subprocess.run(
        [
            cc,
            "-std=gnu11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-I",
            os.path.join(stage_usr, "include"),
            source,
            "-o",
            exe,
            "-L",
            os.path.join(stage_usr, "lib"),
            "-luring",
            "-lpthread",
        ],
        capture_output=True,
        text=True,
    )
    return r.stderr if r.returncode else None


def list_cases(exe, env=None):
    """The case names a built check program lists (`--list`; it asks the
    kernel nothing)."""
    r = subprocess.run([exe, "--list"], capture_output=True, text=True, env=env)
    return [l.split()[0] for l in r.stdout.split("\n") if l.strip()]


def parse_results(out):
    """{case: verdict} from a check program's output lines "NAME: VERDICT"."""
    results = {}
    for line in out.split("\n"):
        if ": " in line:
            name, verdict = line.split(": ", 1)
            results[name] = verdict
    return results


def verdict_kind(v):
    """ok, not checkable (the kernel cannot show the claim), or failed."""
    if v == "ok":
        return "ok"
    if v.startswith("not checkable here"):
        return "not checkable"
    return "failed"


def build_and_run_one(source, stage_usr, label, tmp, failures):
    """The cases and {case: result line} of one check program."""
    stage_usr = os.path.abspath(stage_usr)
    exe = os.path.join(tmp, os.path.basename(source)[:-2] + "-" + label)
    err = build_one(source, stage_usr, exe)
    if err is not None:
        failures.append("claims: %s does not build against %s:\n%s" % (source, stage_usr, err))
        return None, None
    env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(stage_usr, "lib"))
    cases = list_cases(exe, env)
    rc = "a timeout"
    try:
        r = subprocess.run([exe], capture_output=True, text=True, env=env, cwd=tmp, timeout=120)
        out, rc = r.stdout, r.returncode
    except subprocess.TimeoutExpired as e:
        out = e.stdout.decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        failures.append(
            "claims (%s, %s): timed out after 120 s" % (os.path.basename(source), label)
        )
    results = parse_results(out)
    for c in cases:
        if c not in results:
            failures.append("claims (%s): case %s printed no result (exit %s)" % (label, c, rc))
    return cases, results


def check(man_dir, stage_usr, upstream_usr, page_paths, failures):
    rows = []
    linked = {}
    for p in page_paths:
        if os.path.islink(p):
            continue
        with open(p) as f:
            c = page_claims(f.read())
        sec = os.path.basename(os.path.dirname(p))[3:]
        page = os.path.basename(p)
        rows.append((sec, page, c["claims"], c["checked"], c["explained"], c["other"]))
        for n in c["names"]:
            linked.setdefault(n, []).append(page)
        if sec in ACCOUNTED_SECTIONS:
            for label in c["unaccounted"]:
                failures.append(
                    "claims: %s: %s is neither checked (@check) nor explained "
                    "(@unchecked REASON)" % (page, label)
                )

    with tempfile.TemporaryDirectory() as tmp:
        ours_cases, ours = build_and_run(stage_usr, "ours", tmp, failures)
        if upstream_usr and os.path.isdir(upstream_usr):
            up_cases, up = build_and_run(upstream_usr, "upstream", tmp, failures)
        else:
            up_cases, up = None, None
            failures.append("claims: no upstream liburing stage (%s)" % upstream_usr)
    cases = ours_cases or up_cases or []
    ran = passed = not_here = 0
    for c in cases:
        for label, res in (("ours", ours), ("upstream", up)):
            if res is None or c not in res:
                continue
            v = res[c]
            ran += 1
            if verdict_kind(v) == "ok":
                passed += 1
            elif verdict_kind(v) == "not checkable":
                not_here += 1
            else:
                failures.append(
                    "claims: %s (%s, linked from %s): %s"
                    % (c, label, ", ".join(linked.get(c, ["no page"])), v)
                )
            if v != "ok":
                print("    %-36s %-8s %s" % (c, label, v))
        if c not in linked:
            failures.append("claims: case %s is linked from no page" % c)
    for n, where in sorted(linked.items()):
        if n not in cases:
            failures.append(
                "claims: %s links check %s, which no program of man/checks "
                "has" % (", ".join(where), n)
            )

    with open(os.path.join(man_dir, "claims.tsv"), "w") as f:
        f.write("section\tpage\tclaims\tchecked\tunchecked_with_reason\tother_checked\n")
        for r in rows:
            f.write("%s\t%s\t%d\t%d\t%d\t%d\n" % r)
    for sec in "1237":
        mine = [r for r in rows if r[0] == sec]
        n, ck, ex = (sum(r[i] for r in mine) for i in (2, 3, 4))
        print(
            "  claims, section %s: %d pages, %d ERRORS/RETURN VALUE claims: %d checked, "
            "%d unchecked with a reason, %d unchecked%s; %d checked statements elsewhere"
            % (
                sec,
                len(mine),
                n,
                ck,
                ex,
                n - ck - ex,
                " (must be 0)" if sec in ACCOUNTED_SECTIONS else "",
                sum(r[5] for r in mine),
            )
        )
        for r in mine:
            # Section 3 has a page per function: only those with a reason.
            if sec != "3" or r[4]:
                print("    %-36s %3d claims, %3d checked, %2d with a reason, %2d elsewhere" % r[1:])
    print(
        "  claims: %d cases in man/checks, %d runs (ours and upstream): %d ok, "
        "%d not checkable here, %d failed; per-page table: %s/claims.tsv"
        % (len(cases), ran, passed, not_here, ran - passed - not_here, man_dir)
    )
