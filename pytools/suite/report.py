# SPDX-License-Identifier: MIT
"""What a run of the harness concluded: regressions, improvements and changes,
the report file (report.txt), the stored state (results.json) and the summary
on stdout ending with the "N passed, N failed, N skipped" line."""

import json
import os
import shutil
import time

from . import check_findings, pairs
from .builds import count_warnings
from .common import (
    BINARY_MODES,
    DROPIN_MODES,
    FAIL,
    HARNESS_FORMAT,
    KINDS,
    NA,
    NOBUILD,
    PASS,
    SKIP,
    TEST_MODES,
    TIMEOUT,
    fmt_outcome,
    fmt_pairs,
    is_regression,
    say,
)


def counts(results):
    c = {k: 0 for k in KINDS}
    for r in results.values():
        c[r["kind"]] += 1
    return c


def summary_line(mode, results, regressions=None, flaky=0):
    c = counts(results)
    s = "%s: %d pass, %d skip, %d fail, %d timeout, %d nobuild" % (
        mode,
        c[PASS],
        c[SKIP],
        c[FAIL],
        c[TIMEOUT],
        c[NOBUILD],
    )
    if mode in BINARY_MODES or c[NA]:
        s += ", %d n/a" % c[NA]
    s += " of %d" % len(results)
    if regressions is not None:
        s += "; %d regressions" % len(regressions)
        env = sum(1 for r in results.values() if r.get("verdict") == pairs.ENV_SENSITIVE)
        notes = (["%d flaky" % flaky] if flaky else []) + (
            ["%d environment-sensitive" % env] if env else []
        )
        if notes:
            s += " (%s)" % ", ".join(notes)
    return s


def env_sensitive_lines(mode, results, indent):
    """Tests that failed on the reference too when run back to back with ours:
    the rounds, the log and the end of both members' output of that pair."""
    out = []
    for n, r in results.items():
        if r.get("verdict") != pairs.ENV_SENSITIVE:
            continue
        ev = r.get("env_evidence") or {}
        out.append(
            "%s%s/%s: environment-sensitive (fails on the reference too); %s"
            % (indent, mode, n, fmt_pairs(r))
        )
        out.append("%s  log: %s" % (indent, r.get("log")))
        for side, whose in (("reference", "the reference's"), ("ours", "ours'")):
            out.append("%s  pair %s, %s output ends:" % (indent, ev.get("round"), whose))
            out += ["%s    | %s" % (indent, line) for line in ev.get(side) or ["(nothing)"]]
    return out


def table(rows, header):
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    fmt = "  ".join("%%-%ds" % w for w in widths)
    out = [fmt % tuple(header), fmt % tuple("-" * w for w in widths)]
    out += [(fmt % tuple(r)).rstrip() for r in rows]
    return out


def cell(r):
    if r is None:
        return "-"
    s = fmt_outcome(r)
    if r.get("flaky"):
        s += " FLAKY"
    elif r.get("verdict") == pairs.ENV_SENSITIVE:
        s += " ENV"
    elif r.get("attempts"):
        s += " (x%d)" % len(r["attempts"])
    return s


def load_json(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


# --------------------------------------------------------------------------- conclusions


def analyse(run):
    """run.regressions and run.improvements per drop-in mode (and examples),
    run.changes since the stored previous run."""
    names, results, ex = run.names, run.results, run.ex_results
    ref = results.get("reference", {})
    regressions, improvements = {}, {}
    for mode in DROPIN_MODES:
        if mode not in results:
            continue
        regressions[mode] = [n for n in names if is_regression(results[mode][n], ref.get(n))]
        improvements[mode] = [
            n
            for n in names
            if ref.get(n)
            and ref[n]["kind"] not in (PASS, SKIP)
            and results[mode][n]["kind"] in (PASS, SKIP)
        ]
    if ex:
        regressions["examples"] = [
            n for n in ex["ours"] if is_regression(ex["ours"][n], ex["reference"].get(n))
        ]
    changes = []
    for mode in TEST_MODES:
        if mode in results and mode in run.modes:
            old = run.previous.get(mode) or {}
            for n in names:
                if n in old and fmt_outcome(old[n]) != fmt_outcome(results[mode][n]):
                    changes.append(
                        "%s/%s: %s -> %s"
                        % (mode, n, fmt_outcome(old[n]), fmt_outcome(results[mode][n]))
                    )
    if ex:
        old = run.previous.get("examples") or {}
        for side in ex:
            for n, r in ex[side].items():
                o = (old.get(side) or {}).get(n)
                if o and fmt_outcome(o) != fmt_outcome(r):
                    changes.append(
                        "examples-%s/%s: %s -> %s" % (side, n, fmt_outcome(o), fmt_outcome(r))
                    )
    run.regressions, run.improvements, run.changes = regressions, improvements, changes


def mode_results(run, mode):
    """(ours' results, the reference's) of a drop-in mode or "examples"."""
    if mode == "examples":
        return run.ex_results["ours"], run.ex_results["reference"]
    return run.results.get(mode), run.results.get("reference", {})


def regression_lines(run):
    lines = []
    for mode in run.regressions:
        res, base = mode_results(run, mode)
        lines += ["", "regressions %s (%d):" % (mode, len(run.regressions[mode]))]
        for n in run.regressions[mode]:
            r = res[n]
            lines.append(
                "  %s: reference %s, ours %s%s"
                % (
                    n,
                    fmt_outcome(base.get(n)),
                    fmt_outcome(r),
                    " [attempts: %s]" % ", ".join(r["attempts"]) if r.get("attempts") else "",
                )
            )
            if r.get("pairs"):
                lines.append("    " + fmt_pairs(r))
        flaky = [n for n in (res or {}) if res[n].get("flaky")]
        if flaky:
            lines.append("  flaky (passed on retry): " + ", ".join(flaky))
        lines += env_sensitive_lines(mode, res or {}, "  ")
        paired = [n for n in (res or {}) if res[n].get("pairs")]
        if paired:
            lines.append("  paired reruns (reference then ours, back to back):")
            lines += [
                "    %s: %s -> %s" % (n, fmt_pairs(res[n]), res[n]["verdict"]) for n in paired
            ]
        if run.improvements.get(mode):
            lines.append(
                "  better than reference: "
                + ", ".join("%s (%s)" % (n, fmt_outcome(res[n])) for n in run.improvements[mode])
            )
    return lines


def summaries(run):
    """The per-mode summary lines, the note and the final CI line."""
    results, ex, names = run.results, run.ex_results, run.names
    summary = []
    for mode in TEST_MODES:
        if mode in results and names:
            reg = run.regressions.get(mode)
            flk = sum(1 for r in results[mode].values() if r.get("flaky"))
            line = summary_line(mode, results[mode], reg, flk)
            if mode == "reference" and mode not in run.modes:
                line += " (stored)"
            summary.append(line)
    if ex:
        summary.append(
            summary_line("examples", ex["ours"], run.regressions["examples"])
            + " [upstream build: %s]" % summary_line("x", ex["reference"])[3:]
        )
    # CI line: both drop-in modes (+ examples built against ours).
    # "failed" counts regressions (what the exit status judges); tests that
    # fail on upstream liburing here too are not ours to pass, and are
    # listed as such next to the skips rather than hidden.
    tot_pass = tot_fail = tot_skip = tot_shared = 0
    for key in ("source", "binary", "traced", "examples"):
        res = ex.get("ours") if key == "examples" else results.get(key)
        if not res:
            continue
        for n, r in res.items():
            if r["kind"] == PASS:
                tot_pass += 1
            elif n in run.regressions.get(key, []):
                tot_fail += 1
            elif r["kind"] in (SKIP, NA):
                tot_skip += 1
            else:
                tot_shared += 1
    final = "%d passed, %d failed, %d skipped" % (tot_pass, tot_fail, tot_skip + tot_shared)
    note = (
        "(drop-in modes: %d skipped or n/a, %d not passing on upstream liburing "
        "here either, counted with the skipped)" % (tot_skip, tot_shared)
    )
    return summary, note, final


def write_report(run):
    """report.txt in the cache; keeps on `run` what the stdout summary repeats."""
    args, results, ex, names = run.args, run.results, run.ex_results, run.names
    run.shown_modes = [m for m in TEST_MODES if m in results]
    lines = [
        "liburing-tests report  %s" % time.strftime("%Y-%m-%d %H:%M:%S"),
        "kernel: %s" % run.meta["kernel"],
        "source: %s" % run.src_desc,
        "ours:   %s%s"
        % (args.stage, " (upstream itself: --stage-upstream)" if args.stage_upstream else ""),
        "ours run with: %s" % (" ".join(args.ours_env) or "(no extra environment)"),
        "timeout: %d s, reference retries: %d, pairs: a regression needs ours worse "
        "in %d of up to %d" % (args.timeout, args.retries, args.pair_needed, args.pair_rounds),
        "",
    ]
    if "reference" in results and "reference" not in run.modes:
        lines.append(
            "reference results reused from %s"
            % (run.previous.get("reference_meta") or {}).get("when", "?")
        )
    rows = []
    for n in names:
        row = [n] + [cell(results[m].get(n)) for m in run.shown_modes]
        row.append("%.1f" % max((results[m][n].get("secs") or 0) for m in run.shown_modes))
        rows.append(row)
    lines += table(rows, ["test"] + run.shown_modes + ["max s"])
    if ex:
        lines += ["", "examples (built against upstream / against ours):"]
        rows = [[n, cell(ex["reference"].get(n)), cell(ex["ours"].get(n))] for n in ex["ours"]]
        lines += table(rows, ["example", "upstream", "ours"])
    proof = run.binary_proof
    if proof:
        lines += ["", "binary mode library check: %s" % ("OK" if proof["ok"] else "FAILED")]
        lines += ["  " + e for e in proof["evidence"]]
    run.na = [
        (n, results["binary"][n].get("detail"))
        for n in names
        if "binary" in results and results["binary"][n]["kind"] == NA
    ]
    if run.na:
        lines += ["", "binary n/a (use liburing.a-only internals):"]
        lines += ["  %s: %s" % x for x in run.na]
    lines += regression_lines(run)
    run.warn_counts = {
        m: count_warnings(os.path.join(run.cache, "logs"), m)
        for m in ("reference", "source", "binary")
    }
    lines += [
        "",
        "compiler warnings in the last build logs: "
        + ", ".join("%s %s" % (m, "-" if n is None else n) for m, n in run.warn_counts.items()),
    ]
    prev_run = run.previous.get("last_run") or {}
    run.since = "since last run (%s, ours = %s)" % (
        prev_run.get("when", "?"),
        prev_run.get("stage", "?"),
    )
    lines += ["", "changes %s (%d):" % (run.since, len(run.changes))] + [
        "  " + c for c in run.changes
    ]
    run.summary, run.note, run.final = summaries(run)
    lines += ["", "summary:"] + ["  " + s for s in run.summary] + [run.note, run.final]
    run.report = os.path.join(run.cache, "report.txt")
    with open(run.report, "w") as f:
        f.write("\n".join(lines) + "\n")


def save_state(run, state_path):
    """results.json: every mode's latest outcome per test, the reference's
    conditions (for reuse), examples, and what the last run was."""
    meta, modes = run.meta, run.modes
    state = dict(run.previous)
    state["format"] = HARNESS_FORMAT
    for mode in TEST_MODES:
        if mode in run.results and mode in modes:
            merged = dict(state.get(mode) or {})
            merged.update(run.results[mode])
            state[mode] = merged
    if "reference" in modes:
        same = (state.get("reference_meta") or {}).get("kernel") == meta["kernel"] and (
            state.get("reference_meta") or {}
        ).get("source") == run.src_desc
        if not same:
            state["reference"] = dict(run.results["reference"])
        state["reference_meta"] = dict(meta, when=time.strftime("%Y-%m-%d %H:%M:%S"))
    if run.ex_results:
        ex_state = dict(state.get("examples") or {})
        for side, res in run.ex_results.items():
            merged = dict(ex_state.get(side) or {})
            merged.update(res)
            ex_state[side] = merged
        state["examples"] = ex_state
    state["last_run"] = dict(
        meta,
        when=time.strftime("%Y-%m-%d %H:%M:%S"),
        stage=run.args.stage,
        modes=modes,
        only=run.args.only,
    )
    if os.path.exists(state_path):
        shutil.copy2(state_path, state_path + ".prev")
    with open(state_path + ".tmp", "w") as f:
        json.dump(state, f, indent=1, sort_keys=True)
    os.replace(state_path + ".tmp", state_path)


def print_outcome(run):
    """The summary on stdout; returns the exit status."""
    results, ex, names, shown = run.results, run.ex_results, run.names, run.shown_modes
    say("")
    say("=" * 78)
    interesting = [
        n
        for n in names
        if any(results[m][n]["kind"] != PASS or results[m][n].get("attempts") for m in shown)
    ]
    if interesting:
        rows = [[n] + [cell(results[m].get(n)) for m in shown] for n in interesting]
        for line in table(rows, ["test (not pass everywhere)"] + shown):
            say(line)
        say(
            "(%d tests passed in every mode; full table: %s)"
            % (len(names) - len(interesting), run.report)
        )
    else:
        say("all %d tests passed in every mode (full table: %s)" % (len(names), run.report))
    if ex:
        say("")
        say(
            "examples: "
            + ", ".join(
                "%s %s/%s" % (n, fmt_outcome(ex["reference"].get(n)), fmt_outcome(r))
                for n, r in ex["ours"].items()
            )
        )
    proof = run.binary_proof
    if proof:
        say("")
        say("binary mode loads our library: %s" % ("yes" if proof["ok"] else "NO"))
        for e in proof["evidence"]:
            say("  " + e)
    if run.na:
        say("binary n/a: " + ", ".join("%s (%s)" % x for x in run.na))
    if run.warn_counts.get("source") and run.trees.get("source"):
        say(
            "source build: %d compiler warnings with our headers (reference build: %s); "
            "see %s"
            % (
                run.warn_counts["source"],
                run.warn_counts["reference"],
                os.path.join(run.cache, "logs", "build-source.log"),
            )
        )
    say("")
    if run.changes:
        say("changes %s (%d):" % (run.since, len(run.changes)))
        for c in run.changes[:60]:
            say("  " + c)
        if len(run.changes) > 60:
            say("  ... (%d more in %s)" % (len(run.changes) - 60, run.report))
    else:
        say("no changes since last run" if run.previous else "no previous run to compare with")
    nreg = sum(len(v) for v in run.regressions.values())
    say("")
    if nreg:
        say("REGRESSIONS (pass/skip on reference, worse on ours):")
        for mode, regs in run.regressions.items():
            res, base = mode_results(run, mode)
            for n in regs:
                say(
                    "  %s/%s: reference %s, ours %s"
                    % (mode, n, fmt_outcome(base.get(n)), fmt_outcome(res[n]))
                )
                if res[n].get("pairs") or res[n].get("note"):
                    say("    " + (fmt_pairs(res[n]) or res[n]["note"]))
    else:
        say("no regressions")
    env_lines = []
    for mode in run.regressions:
        res, _ = mode_results(run, mode)
        env_lines += env_sensitive_lines(mode, res or {}, "  ")
    if env_lines:
        say("")
        say(
            "ENVIRONMENT-SENSITIVE (failed on the reference too, run back to back with ours; "
            "not regressions):"
        )
        for line in env_lines:
            say(line)
    say("")
    if "FALLBACK" in run.src_desc:
        say("WARNING: tested against %s" % run.src_desc)
    for s in run.summary:
        say(s)
    say("harness time: %.0f s" % (time.time() - run.t_start))
    if run.abi_ok is False:
        say("ERROR: the Rust ABI tables disagree with upstream's headers (see the ABI check above)")
        nreg += 1
    if proof and not proof["ok"]:
        say("ERROR: binary mode did not run against our liburing.so.2")
        nreg += 1
    listed = os.path.relpath(check_findings.EXPECTED, check_findings.REPO)
    for test, kind, n, only_failed in getattr(run, "unexpected_findings", []):
        fails = check_findings.fails_the_run(kind, only_failed)
        if fails:
            why = ""
        elif kind in check_findings.LOAD_DEPENDENT:
            why = "; a kind that depends on timing, so not an error"
        else:
            why = "; printed only by runs that failed or timed out, which the harness judged"
        say(
            "%s: traced/%s: %d LIBURING_CHECK finding(s) %s, not in %s: classify it in "
            "docs/tests/check-findings.md (a false positive is fixed in the checker)%s"
            % ("ERROR" if fails else "NOTE", test, n, kind, listed, why)
        )
        nreg += fails
    say(run.note)
    say(run.final)
    if run.header_fail:
        say(
            "ERROR: %d header check(s) failed: provenance / sqe-compare output above"
            % run.header_fail
        )
    return 1 if nreg or run.header_fail else 0
