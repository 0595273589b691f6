# SPDX-License-Identifier: MIT
"""Reference completeness of the manual (part of make check-man): the names
of the installed kernel interface headers, the families each section 2 page
must name, the errno values each system call can fail with, and words per
section, printed next to upstream liburing's figures on the same measure."""

import os
import re

from pytools import REPO

sys_provenance = None  # set by check.py (pytools/suite/provenance.py)

HEADERS = ("liburing/io_uring.h", "liburing/io_uring/query.h", "liburing/io_uring/bpf_filter.h")

# The errno values each system call itself can fail with (the kernel's
# io_uring/*.c), each of which its page's ERRORS section must explain.
SYSCALL_ERRNOS = {
    "io_uring_setup": "EFAULT EINVAL EMFILE ENFILE ENOMEM ENOSYS ENXIO EPERM",
    "io_uring_enter": "EAGAIN EBADF EBADFD EBADR EBUSY EEXIST EFAULT EINTR EINVAL ENXIO "
    "EOPNOTSUPP EOWNERDEAD ETIME",
    "io_uring_register": "EACCES EBADF EBADFD EBUSY EEXIST EFAULT EFBIG EINTR EINVAL EMFILE "
    "ENODEV ENOENT ENOMEM ENXIO EOPNOTSUPP EPERM ERANGE",
}


def header_names(include_dir):
    """Every #define and enum constant of the three headers, without the
    include guards, in header order: {header: [names]}."""
    out = {}
    for h in HEADERS:
        with open(os.path.join(include_dir, h)) as f:
            text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
        names = re.findall(r"^#define\s+(\w+)", text, re.M)
        for body in re.findall(r"enum\s*\w*\s*\{(.*?)\}", text, re.S):
            names += re.findall(r"^\s*(\w+)\s*(?:=|,|$)", body, re.M)
        out[h] = [n for n in names if not n.endswith("_H")]
    return out


def families(names):
    """The names each section 2 page must list, as the issue counts them."""
    allnames = [n for ns in names.values() for n in ns]
    return {
        "io_uring_setup": (
            "setup and feature flags",
            [n for n in allnames if n.startswith(("IORING_SETUP_", "IORING_FEAT_"))],
        ),
        "io_uring_enter": (
            "enter flags, opcodes and SQE flags",
            [
                n
                for n in allnames
                if n.startswith("IORING_ENTER_")
                or (n.startswith("IORING_OP_") and n != "IORING_OP_LAST")
                or (n.startswith("IOSQE_") and not n.endswith("_BIT"))
            ],
        ),
        "io_uring_register": (
            "IORING_(UN)REGISTER_* names (opcodes and their flags)",
            [n for n in allnames if re.match(r"IORING_(UN)?REGISTER_", n)],
        ),
    }


def page_text(path):
    with open(path) as f:
        return f.read()


TABLE = os.path.join(REPO, "man", "kernel-releases.tsv")


def release_names(path=TABLE):
    """The names of man/kernel-releases.tsv (written by tools/gen), in
    file order; a malformed row is an error, not a silent gap."""
    names = []
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 3 or not re.fullmatch(r"\d+\.\d+|-", cols[1]):
                raise ValueError("%s:%d: want NAME<TAB>RELEASE<TAB>TEXT" % (path, number))
            names.append(cols[0])
    return names


def mentioned(name, text):
    return re.search(r"(?<![\w])%s(?![\w])" % re.escape(name), text) is not None


def word_count(texts):
    return sum(len(sys_provenance.man_page_text(t).split()) for t in texts)


def check(man_dir, stage_usr, upstream_man, pages, failures):
    names = header_names(os.path.join(stage_usr, "include"))
    ours = {p: page_text(p) for p in pages if not os.path.islink(p)}
    everything = "\n".join(ours.values())
    upstream = {}
    if os.path.isdir(upstream_man):
        for f in sorted(os.listdir(upstream_man)):
            with open(os.path.join(upstream_man, f), errors="replace") as fh:
                upstream[f] = fh.read()
    theirs = "\n".join(upstream.values())

    # Every name, documented somewhere and with a release in the table.
    table = release_names()
    total = [n for ns in names.values() for n in ns]
    missing = [n for n in total if not mentioned(n, everything)]
    unlisted = [n for n in total if n not in table]
    stale = [n for n in table if n not in total]
    print(
        "  names: %d of %d header names documented (%s), %d with a kernel release row; "
        "liburing's pages: %d"
        % (
            len(total) - len(missing),
            len(total),
            ", ".join("%s %d" % (h.split("/")[-1], len(ns)) for h, ns in names.items()),
            len(total) - len(unlisted),
            sum(mentioned(n, theirs) for n in total),
        )
    )
    only_ours = [n for n in total if mentioned(n, everything) and not mentioned(n, theirs)]
    print("    documented here but in no liburing page: %d" % len(only_ours))
    failures += ["name %s is in no page" % n for n in missing]
    failures += ["name %s has no row in man/kernel-releases.tsv" % n for n in unlisted]
    failures += ["man/kernel-releases.tsv: %s is in no installed header" % n for n in stale]

    # Each section 2 page names its whole family and explains its errno values.
    for call, (what, family) in families(names).items():
        path = os.path.join(man_dir, "man2", call + ".2")
        text = ours.get(path, "")
        up = upstream.get(call + ".2", "")
        gaps = [n for n in family if not mentioned(n, text)]
        print(
            "  %s(2): %d of %d %s named; liburing's page: %d"
            % (
                call,
                len(family) - len(gaps),
                len(family),
                what,
                sum(mentioned(n, up) for n in family),
            )
        )
        failures += ["%s(2) does not name %s" % (call, n) for n in gaps]
        m = re.search(r"^\.SH ERRORS\n(.*?)^\.SH ", text, re.S | re.M)
        explained = set(re.findall(r"^\.B (E[A-Z0-9]+)$", m.group(1), re.M)) if m else set()
        wanted = SYSCALL_ERRNOS[call].split()
        unexplained = [e for e in wanted if e not in explained]
        print(
            "    errno values explained: %d of %d" % (len(wanted) - len(unexplained), len(wanted))
        )
        failures += ["%s(2): ERRORS does not explain %s" % (call, e) for e in unexplained]

    # Size and examples, with liburing's figures on the same measure.
    for sec in "237":
        mine = [t for p, t in ours.items() if "/man%s/" % sec in p]
        up = [t for f, t in upstream.items() if f.endswith("." + sec)]
        print("  words in section %s: %d (liburing: %d)" % (sec, word_count(mine), word_count(up)))
    with_example = [
        p for p, t in ours.items() if "/man3/" in p and re.search(r"^\.SH EXAMPLES?$", t, re.M)
    ]
    up_example = [
        f
        for f, t in upstream.items()
        if f.endswith(".3") and re.search(r"^\.SH EXAMPLES?$", t, re.M)
    ]
    print(
        "  section 3 pages with an example: %d (liburing: %d)"
        % (len(with_example), len(up_example))
    )
