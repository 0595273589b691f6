#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Checks the generated manual (make check-man):

    python3 -m pytools.man.check MAN_DIR STAGE_USR UPSTREAM_MAN_DIR [UPSTREAM_STAGE_USR]

  coverage    every exported symbol (src/liburing*.map), public function-like
              macro of the installed header (as `cc -E -dM` lists them) and
              the four io_uring syscalls resolve with `man -w -M MAN_DIR`;
  synopsis    MAN_DIR/synopsis-check.c (tools/gen writes it: every SYNOPSIS
              declaration again, after a use of each name) compiles with
              -Wall -Wextra -Werror against the installed header: a name
              the header lacks or a declaration that conflicts with it
              fails, and nothing reads the header but the compiler; each
              page whose SYNOPSIS returns a value has RETURN VALUE;
  lint        `mandoc -Tlint` and `groff -man -ww -z` print nothing;
  examples    every man/examples/*.c is shown in a page, compiles with
              -Wall -Wextra -Werror against STAGE_USR and runs (exit 0);
  provenance  no sentence of 8 or more words of our pages occurs in
              upstream's man pages (pytools/suite/provenance.py);
  reference   every name of the installed io_uring.h, io_uring/query.h
              and io_uring/bpf_filter.h is in a page and has a row in
              man/kernel-releases.tsv; each section 2 page names its whole
              family and explains every errno its call can fail with
              (pytools/man/coverage.py, which also prints words per section);
  claims      every `.\\" @check NAME` of a page names a case of a
              program in man/checks, every case is named by a page, and each
              passes (or is "not checkable here" on this kernel) built
              against STAGE_USR and against UPSTREAM_STAGE_USR (upstream
              liburing); ERRORS and RETURN VALUE claims counted, checked and
              unchecked, per page and section; in sections 2, 3 and 7 each
              must be checked or say why it cannot be (pytools/man/claims.py).
Figures are printed; the exit status is 1 when any check fails.
"""

import os
import re
import subprocess
import sys
import tempfile

from pytools import REPO
from pytools.suite import provenance

from . import claims, coverage

MAN_DIR = os.path.join(REPO, "man")
SYSCALLS = ["io_uring_setup", "io_uring_enter", "io_uring_enter2", "io_uring_register"]

# Function-like macros of liburing.h that get no page: the compiler hints
# the header defines for its own inline code (liburing documents them
# nowhere; a page outside the io_uring / IO_URING names would be a file
# Debian's liburing-dev.manpages does not list).
UNDOCUMENTED_MACROS = {"uring_likely", "uring_unlikely"}


def pages(man_dir):
    for sec in ("man1", "man2", "man3", "man7"):
        d = os.path.join(man_dir, sec)
        for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
            yield os.path.join(d, f)


def exported_symbols():
    """Names listed in the linker version scripts."""
    names = set()
    for path in ("src/liburing.map", "src/liburing-ffi.map"):
        with open(os.path.join(REPO, path)) as f:
            names.update(re.findall(r"^\s*([A-Za-z_]\w*);", f.read(), re.M))
    return sorted(names)


def public_macros(stage_usr):
    """The function-like macros a program including <liburing.h> gets that
    are ours to document: the preprocessor's own list (`cc -E -dM`), names
    with io_uring / IO_URING in them and no leading underscore."""
    cc = os.environ.get("CC", "cc")
    r = subprocess.run(
        [
            cc,
            "-E",
            "-dM",
            "-D_GNU_SOURCE",
            "-I",
            os.path.join(stage_usr, "include"),
            "-x",
            "c",
            "-",
        ],
        input="#include <liburing.h>\n",
        capture_output=True,
        text=True,
    )
    if r.returncode:
        raise RuntimeError("cc -E -dM <liburing.h> failed:\n" + r.stderr)
    names = set()
    for line in r.stdout.split("\n"):
        head = line.split(" ", 2)
        if len(head) > 1 and head[0] == "#define" and "(" in head[1]:
            name = head[1].split("(", 1)[0]
            if (
                "io_uring" in name.lower()
                and not name.startswith("_")
                and name not in UNDOCUMENTED_MACROS
            ):
                names.add(name)
    return sorted(names)


def check_coverage(man_dir, stage_usr, failures):
    symbols, macros = exported_symbols(), public_macros(stage_usr)
    wanted = [("3", n) for n in symbols + macros] + [("2", n) for n in SYSCALLS]
    missing = []
    for sec in ("2", "3"):
        group = [n for s, n in wanted if s == sec]
        r = subprocess.run(
            ["man", "-w", "-M", man_dir, sec] + group, capture_output=True, text=True
        )
        found = {os.path.basename(p).rsplit(".", 1)[0] for p in r.stdout.split()}
        # man -w prints the page a .so or link resolves to: check by name too.
        for n in group:
            path = os.path.join(man_dir, "man" + sec, "%s.%s" % (n, sec))
            if n not in found and not os.path.exists(path):
                missing.append("%s(%s)" % (n, sec))
        if r.returncode not in (0, 16):
            missing.append("man -w failed: " + r.stderr.strip()[:200])
    print(
        "  coverage: %d of %d names resolve (%d symbols, %d macros, %d syscalls)"
        % (len(wanted) - len(missing), len(wanted), len(symbols), len(macros), len(SYSCALLS))
    )
    for m in missing:
        failures.append("no page for " + m)


def synopsis_returns_value(text):
    """Whether a page's SYNOPSIS shows a declaration that is not void (the
    roff of our own pages: one `.B` line or a `.B "..."` line a parameter)."""
    m = re.search(r"^\.SH SYNOPSIS\n(.*?)^\.SH ", text, re.S | re.M)
    if not m:
        return False
    decls, cur = [], ""
    for l in m.group(1).split("\n"):
        if l.startswith(".B ") and "#include" not in l:
            cur += l[3:].strip().strip('"')
        elif l in (".PP", ".fi") and cur:
            decls.append(cur)
            cur = ""
    return any(not d.startswith("void ") for d in decls)


def check_synopsis(man_dir, stage_usr, failures):
    src = os.path.join(man_dir, "synopsis-check.c")
    with open(src) as f:
        code = f.read()
    declared = code.count("\t(void) ")
    defined = code.count("#ifndef ")
    cc = os.environ.get("CC", "cc")
    with tempfile.TemporaryDirectory() as tmp:
        r = subprocess.run(
            [
                cc,
                "-std=gnu11",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-c",
                "-I",
                os.path.join(stage_usr, "include"),
                src,
                "-o",
                os.path.join(tmp, "synopsis.o"),
            ],
            capture_output=True,
            text=True,
        )
    if r.returncode:
        failures.append(
            "synopsis: %s does not compile against %s/include:\n%s" % (src, stage_usr, r.stderr)
        )
    for path in pages(man_dir):
        if "/man3/" not in path or os.path.islink(path):
            continue
        with open(path) as f:
            text = f.read()
        if synopsis_returns_value(text) and not re.search(r"^\.SH RETURN VALUE$", text, re.M):
            failures.append("%s: no RETURN VALUE section" % path)
    print(
        "  synopsis: %d declarations and %d macros compiled against %s/include%s"
        % (declared, defined, stage_usr, "" if not r.returncode else ": FAILED")
    )


def check_lint(man_dir, failures):
    files = [p for p in pages(man_dir) if not os.path.islink(p)]
    r = subprocess.run(["mandoc", "-Tlint"] + files, capture_output=True, text=True)
    out = (r.stdout + r.stderr).strip().split("\n") if (r.stdout + r.stderr).strip() else []
    groff = []
    for p in files:
        g = subprocess.run(["groff", "-man", "-ww", "-z", p], capture_output=True, text=True)
        groff += [l for l in g.stderr.strip().split("\n") if l]
    print(
        "  lint: %d pages, mandoc -Tlint: %d messages, groff -ww: %d messages"
        % (len(files), len(out), len(groff))
    )
    failures += ["lint: " + l for l in out + groff]


def check_examples(man_dir, stage_usr, failures):
    shown = ""
    for p in pages(man_dir):
        if not os.path.islink(p):
            with open(p) as f:
                shown += f.read()
    compiled = ran = 0
    exdir = os.path.join(MAN_DIR, "examples")
    cc = os.environ.get("CC", "cc")
    with tempfile.TemporaryDirectory() as tmp:
        for f in sorted(os.listdir(exdir)):
            if not f.endswith(".c"):
                continue
            with open(os.path.join(exdir, f)) as fh:
                first_code = [l for l in fh.read().split("\n") if l.startswith("int main")]
            if not first_code or first_code[0] not in shown:
                failures.append("example %s is not shown in any page" % f)
            exe = os.path.join(tmp, f[:-2])
            r = subprocess.run(
                [
                    cc,
                    "-Wall",
                    "-Wextra",
                    "-Werror",
                    "-I",
                    os.path.join(stage_usr, "include"),
                    os.path.join(exdir, f),
                    "-o",
                    exe,
                    "-L",
                    os.path.join(stage_usr, "lib"),
                    "-luring",
                ],
                capture_output=True,
                text=True,
            )
            if r.returncode:
                failures.append("example %s does not compile:\n%s" % (f, r.stderr))
                continue
            compiled += 1
            env = dict(os.environ, LD_LIBRARY_PATH=os.path.join(stage_usr, "lib"))
            r = subprocess.run([exe], capture_output=True, text=True, env=env, cwd=tmp, timeout=60)
            if r.returncode:
                failures.append(
                    "example %s exited %d:\n%s%s" % (f, r.returncode, r.stdout, r.stderr)
                )
                continue
            ran += 1
            skipped = [l for l in r.stdout.split("\n") if l.startswith("skip")]
            if skipped:
                print("    %s: %s" % (f, skipped[0]))
    print("  examples: %d compiled, %d ran successfully" % (compiled, ran))


def check_provenance(man_dir, upstream_man, failures):
    if not os.path.isdir(upstream_man):
        failures.append("provenance: no upstream man pages at %s" % upstream_man)
        return
    corpus = []
    for f in sorted(os.listdir(upstream_man)):
        with open(os.path.join(upstream_man, f), errors="replace") as fh:
            corpus.append(provenance.man_page_text(fh.read()))
    ours = []
    for p in pages(man_dir):
        if not os.path.islink(p):
            with open(p) as f:
                text = f.read()
            # Prototypes and example code are facts and code, not prose.
            text = re.sub(r"^\.SH SYNOPSIS\n.*?(?=^\.SH )", "", text, flags=re.S | re.M)
            text = re.sub(r"^\.EX\n.*?^\.EE\n", "", text, flags=re.S | re.M)
            ours.append((p, provenance.man_page_text(text)))
    hits, checked = provenance.copied_sentences(ours, corpus)
    print(
        "  provenance: %d sentences of 8+ words checked against %d upstream pages: "
        "%d found there" % (checked, len(corpus), len(hits))
    )
    failures += ["provenance: %s: %s" % h for h in hits]


def main(argv):
    if len(argv) not in (3, 4):
        print(__doc__)
        return 2
    import shutil

    missing = [t for t in ("man", "mandoc", "groff") if not shutil.which(t)]
    if missing:
        print(
            "check-man: %s not installed (Debian: man-db, mandoc, groff-base; "
            ".ci/run installs them)" % ", ".join(missing)
        )
        return 1
    man_dir, stage_usr, upstream_man = argv[:3]
    upstream_usr = argv[3] if len(argv) > 3 else None
    failures = []
    counts = {s: len([p for p in pages(man_dir) if "/man%s/" % s in p]) for s in "1237"}
    print("check-man: %s" % ", ".join("%d files in section %s" % (counts[s], s) for s in "1237"))
    check_coverage(man_dir, stage_usr, failures)
    check_synopsis(man_dir, stage_usr, failures)
    check_lint(man_dir, failures)
    check_examples(man_dir, stage_usr, failures)
    check_provenance(man_dir, upstream_man, failures)
    coverage.sys_provenance = provenance
    coverage.check(man_dir, stage_usr, upstream_man, list(pages(man_dir)), failures)
    claims.check(man_dir, stage_usr, upstream_usr, list(pages(man_dir)), failures)
    for f in failures:
        print("FAIL " + f)
    print("check-man: %s" % ("%d failures" % len(failures) if failures else "ok"))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
