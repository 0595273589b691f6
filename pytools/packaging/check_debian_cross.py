#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make check-debian-cross: packaging/debian/ cross-built for arm64 and i386.

In the clean sid root of check-debian (build_root.py; a root of its own on the
same cached base and .deb cache), as sbuild cross-builds: the foreign
architectures added to dpkg, `crossbuild-essential-ARCH` and the C library of
ARCH installed, `apt-get build-dep -a ARCH` (Debian's rustc and cargo of the
build architecture, libstd-rust-dev and librust-libc-dev of ARCH), then
`dpkg-buildpackage -a ARCH -b -uc -us` as an unprivileged user without network.
debian/rules names the Rust target after DEB_HOST_RUST_TYPE and links
uring-info with the host's C compiler; its test (`make check-symbols`: symbol
versions, SONAMEs, needed libraries, no panic path) reads the cross-built
objects, so it runs in a cross build too. Rows per architecture:

  ARCH:deps      what the cross build installs, and how much it downloaded
  ARCH:build     the build, and the packages it made (the -dbgsym ones too)
  ARCH:elf       every ELF file of every package is ARCH's (readelf's machine
                 and class), each .deb says Architecture: ARCH, the libraries'
                 SONAMEs and versioned symbols are liburing's (dpkg-gensymbols
                 -a ARCH -c4 against liburing2.symbols) and need libc only,
                 and each stripped file's debug file is in its -dbgsym package
  i386:run       (i386 only: this kernel runs it) the i386 packages installed
                 in the root beside the amd64 system (multiarch), uring-info
                 run, and debian/tests/capi (the capi-tests, built with the
                 i686 cross compiler) against them

  arm64:vm       (arm64 only) the arm64 packages installed in the root
                 beside the amd64 system, debian/tests/capi compiling the
                 capi-tests against them (CAPI_BUILD_ONLY=1), and those tests
                 run on the installed files in an arm64 guest under
                 qemu-system-aarch64 (tools/arch/vm/packages.sh; qemu-user
                 has no io_uring)

Options: --arch (repeatable; default arm64 and i386), --work (default
.cache/check-debian, shared with check-debian: the base root and the .deb
cache). Prints one line per row and "N passed, N failed".
"""

import argparse
import glob
import os
import re
import shutil
import sys
import time

from pytools import REPO
from pytools.upstream.proc import rmtree

from . import build_root, check_debian
from .check_debian import FAIL, PASS, Report, clean_copy, output, say

ARCHES = ("arm64", "i386")
# readelf -h: the Machine and Class every ELF file of ARCH's packages has.
ELF_OF = {
    "arm64": ("AArch64", "ELF64"),
    "i386": ("Intel 80386", "ELF32"),
    "amd64": ("Advanced Micro Devices X86-64", "ELF64"),
}
# Architectures this machine's kernel runs (x86_64 runs i386 programs).
RUNNABLE = ("i386",)
# Architectures run in a guest under qemu-system (tools/arch/vm/packages.sh).
IN_VM = ("arm64",)


class CrossRoot(build_root.BuildRoot):
    """The sid root of check-debian under names of its own: the same cached base
    and .deb cache, another overlay (the two checks can follow each other
    without one undoing the other's root)."""

    def __init__(self, cache, log):
        super().__init__(cache, log)
        self.root = os.path.join(cache, "sid-cross-root")
        self.upper = os.path.join(cache, "sid-cross-upper")
        self.overlay_work = os.path.join(cache, "sid-cross-overlay-work")
        # apt's lists with the foreign architectures, kept between runs.
        self.lists_cache = os.path.join(cache, "sid-cross-lists")

    def add_architectures(self, arches):
        for arch in arches:
            self.chroot(["dpkg", "--add-architecture", arch])
        lists = self.path("/var/lib/apt/lists")
        if os.path.isdir(self.lists_cache):
            rmtree(lists)
            shutil.copytree(self.lists_cache, lists, symlinks=True)
        else:
            self.update_lists()

    def update_lists(self):
        self.chroot(["apt-get", "-q", "update"])
        rmtree(self.lists_cache)
        shutil.copytree(self.path("/var/lib/apt/lists"), self.lists_cache, symlinks=True)

    def apt(self, argv):
        """apt-get argv with network; once more after an update if it fails (the
        cached lists may name versions the mirror has dropped)."""
        cmd = ["apt-get", "-q", "-y"] + argv
        if self.chroot(cmd, check=False) != 0:
            self.update_lists()
            self.chroot(cmd)


def cache_bytes(root):
    return sum(os.path.getsize(f) for f in glob.glob(os.path.join(root.archives, "*.deb")))


def installed(root):
    """The installed packages, those of a foreign architecture as NAME:ARCH."""
    rc, out = root.capture(["dpkg-query", "-W", "-f", "${binary:Package}\\n"])
    return set(out.split())


def deps(root, arch, inside, report):
    """The cross toolchain, ARCH's C library and the Build-Depends for ARCH."""
    t0, before, had = time.time(), cache_bytes(root), installed(root)
    root.apt(["install", "crossbuild-essential-%s" % arch, "libc6-dev:%s" % arch])
    root.apt(["build-dep", "-a", arch, inside])
    added = sorted(installed(root) - had)
    foreign = [p for p in added if p.endswith(":" + arch)]
    report.add(
        "deps",
        PASS,
        time.time() - t0,
        "crossbuild-essential-%s, libc6-dev:%s, apt-get build-dep -a %s: %d packages "
        "(%d of %s: %s); %.0f MB downloaded"
        % (
            arch,
            arch,
            arch,
            len(added),
            len(foreign),
            arch,
            ", ".join(foreign),
            (cache_bytes(root) - before) / 1e6,
        ),
    )


def build(root, arch, inside, log, report):
    """dpkg-buildpackage -a ARCH; returns {package: .deb path} or None."""
    t0 = time.time()
    start = log.tell()
    rc = root.build(inside, "parallel=2", args=("-a" + arch, "-b"))
    debs = {
        os.path.basename(d).split("_")[0]: d
        for d in glob.glob(os.path.join(os.path.dirname(root.path(inside)), "*_%s.deb" % arch))
    }
    want = set(check_debian.OUR_PACKAGES) | {p + "-dbgsym" for p in check_debian.DBGSYM}
    if rc != 0 or set(debs) != want:
        log.flush()
        with open(log.name, errors="replace") as f:
            f.seek(start)
            tail = "\n".join(f.read().strip().splitlines()[-8:])
        report.add(
            "build",
            FAIL,
            time.time() - t0,
            "exit %d; packages %s, expected %s; "
            "last lines:\n%s" % (rc, sorted(debs), sorted(want), tail),
        )
        return None
    report.add(
        "build",
        PASS,
        time.time() - t0,
        "dpkg-buildpackage -a%s -b, unshare --net: %s"
        % (arch, " ".join(sorted(os.path.basename(d) for d in debs.values()))),
    )
    return debs


def elf_files(top):
    """The regular ELF files under top, relative paths."""
    found = []
    for d, _, names in os.walk(top):
        for n in names:
            p = os.path.join(d, n)
            if os.path.isfile(p) and not os.path.islink(p):
                with open(p, "rb") as f:
                    if f.read(4) == b"\x7fELF":
                        found.append(os.path.relpath(p, top))
    return sorted(found)


def check_elf(root, arch, inside, debs, work, report):
    t0 = time.time()
    machine, klass = ELF_OF[arch]
    top = os.path.join(work, "cross", arch)
    rmtree(top)
    bad, counted = [], 0
    for pkg, deb in sorted(debs.items()):
        field = output(["dpkg-deb", "-f", deb, "Architecture"])[1].strip()
        if field != arch:
            bad.append("%s: Architecture %s" % (pkg, field))
        dest = os.path.join(top, pkg)
        os.makedirs(dest)
        output(["dpkg-deb", "-x", deb, dest])
        for rel in elf_files(dest):
            head = output(["readelf", "-h", os.path.join(dest, rel)])[1]
            got = (re.search(r"Machine:\s+(.*)", head), re.search(r"Class:\s+(\S+)", head))
            got = tuple(m.group(1).strip() if m else "?" for m in got)
            counted += 1
            if got != (machine, klass):
                bad.append("%s: %s is %s %s" % (pkg, rel, *got))
    # Symbols of the built libraries (in debian/liburing-rs2 of the tree), as
    # check-debian checks the native ones, with ARCH's objdump.
    ma = output(["dpkg-architecture", "-a" + arch, "-qDEB_HOST_MULTIARCH"])[1].strip()
    private = "usr/lib/%s/uring-rs" % ma
    cmd = [
        "dpkg-gensymbols",
        "-a" + arch,
        "-pliburing-rs2",
        "-Pdebian/liburing-rs2",
        "-v" + check_debian.DEBIAN_VERSION,
        "-c4",
        "-Idebian/liburing2.symbols",
        "-O/tmp/liburing-rs2.%s.symbols" % arch,
    ] + [
        "-edebian/liburing-rs2/%s/%s" % (private, lib)
        for lib in ("liburing.so.2", "liburing-ffi.so.2")
    ]
    rc, out = root.capture(cmd, cwd=inside)
    if rc != 0 or re.search(r"^[+-] ", out, flags=re.M):
        bad.append(
            "dpkg-gensymbols -a%s exit %d:\n%s"
            % (
                arch,
                rc,
                "\n".join(ln for ln in out.splitlines() if re.match(r"^[+-] |dpkg-gensymbols", ln)),
            )
        )
    # SONAME and NEEDED: libc only, and the dbgsym files by build-id.
    libs = os.path.join(top, "liburing-rs2", private)
    for so, soname in (
        ("liburing.so.2.15", "liburing.so.2"),
        ("liburing-ffi.so.2.15", "liburing-ffi.so.2"),
    ):
        dyn = output(["readelf", "-d", os.path.join(libs, so)])[1]
        names = re.findall(r"\(SONAME\).*\[(.*)\]", dyn)
        needed = re.findall(r"\(NEEDED\).*\[(.*)\]", dyn)
        # (On arm64 also glibc's loader, as make check-symbols explains.)
        if names != [soname] or [n for n in needed if not n.startswith("ld-linux")] != [
            "libc.so.6"
        ]:
            bad.append("%s: SONAME %s, NEEDED %s" % (so, names, needed))
    # The files check-debian finds DWARF for natively (liburing-diag.so's
    # debug file has the symbol table only, see check_debian.DBGSYM).
    for pkg, files in check_debian.DBGSYM.items():
        dbg = os.path.join(top, pkg + "-dbgsym")
        for rel in (f.replace("MA", ma) for f in files):
            m = re.search(
                r"Build ID: ([0-9a-f]+)", output(["readelf", "-n", os.path.join(top, pkg, rel)])[1]
            )
            debug = m and os.path.join(
                dbg, "usr/lib/debug/.build-id", m.group(1)[:2], m.group(1)[2:] + ".debug"
            )
            if not debug or ".debug_info" not in output(["readelf", "-SW", debug])[1]:
                bad.append("%s: %s has no debug file with DWARF in %s-dbgsym" % (pkg, rel, pkg))
    report.add(
        "elf",
        FAIL if bad else PASS,
        time.time() - t0,
        "%d ELF files, all %s %s; Architecture: %s; dpkg-gensymbols -a%s -c4: no new, "
        "no missing symbol; SONAMEs liburing.so.2 / liburing-ffi.so.2, NEEDED libc.so.6 "
        "(and its loader) only; the debug files (by build-id, with DWARF) of %s in the "
        "-dbgsym packages%s"
        % (
            counted,
            klass,
            machine,
            arch,
            arch,
            ", ".join(os.path.basename(f) for files in check_debian.DBGSYM.values() for f in files),
            "" if not bad else "; PROBLEMS:\n    " + "\n    ".join(bad),
        ),
    )


def run_natively(root, arch, inside, debs, report):
    """ARCH's packages installed beside the amd64 system, then run."""
    t0 = time.time()
    stage = "/tmp/cross-%s" % arch
    os.makedirs(root.path(stage), exist_ok=True)
    for p in ("liburing-rs2", "liburing-rs-dev", "uring-info"):
        shutil.copy2(debs[p], root.path(stage))
    lines, bad = [], []
    # What debian/tests/control has the capi test depend on besides ours and
    # build-essential (the cross compilers are there for the build).
    root.apt(["install", "python3", "strace"])
    rc, out = root.capture(["sh", "-c", 'dpkg -i "$0"/*.deb', stage])
    if rc != 0:
        bad.append("dpkg -i: exit %d: %s" % (rc, out.strip()[-400:]))
    rc, out = root.capture(["uring-info"])
    lines.append("uring-info exit %d (%d lines)" % (rc, len(out.splitlines())))
    if rc != 0:
        bad.append("uring-info: exit %d: %s" % (rc, out.strip()[-400:]))
    # debian/tests/capi with DEB_HOST_ARCH: the multiarch directory and the
    # compiler of ARCH (autopkgtest's own cross mode sets the same variable).
    rc, out = root.capture(
        [
            "env",
            "DEB_HOST_ARCH=" + arch,
            "AUTOPKGTEST_TMP=%s/capi" % stage,
            "sh",
            "debian/tests/capi",
        ],
        cwd=inside,
    )
    counts = re.search(r"^(\d+ passed, \d+ failed, \d+ skipped)$", out, flags=re.M)
    lines.append("debian/tests/capi: %s" % (counts.group(1) if counts else "no counts"))
    lines += ["  " + ln for ln in out.splitlines() if re.match(r"^\S+\s+(FAIL|SKIP)\s", ln)]
    if rc != 0:
        bad.append(
            "debian/tests/capi exit %d; last lines:\n%s"
            % (rc, "\n".join(out.strip().splitlines()[-15:]))
        )
    report.add(
        "run",
        FAIL if bad else PASS,
        time.time() - t0,
        "dpkg -i liburing-rs2 liburing-rs-dev uring-info (%s) beside amd64, no network: "
        "%s%s" % (arch, "; ".join(lines), "" if not bad else "; PROBLEMS: " + "; ".join(bad)),
    )


def run_in_vm(root, arch, inside, debs, work, report):
    """arm64: the packages installed in the root (multiarch, beside amd64),
    debian/tests/capi compiling the capi-tests against them there
    (CAPI_BUILD_ONLY=1, the aarch64 cross compiler), then those tests run on
    the installed files in an arm64 guest under qemu-system-aarch64
    (tools/arch/vm/packages.sh)."""
    t0 = time.time()
    stage = "/tmp/cross-%s" % arch
    os.makedirs(root.path(stage), exist_ok=True)
    for p in ("liburing-rs2", "liburing-rs-dev", "uring-info"):
        shutil.copy2(debs[p], root.path(stage))
    bad, lines = [], []
    root.apt(["install", "python3"])
    rc, out = root.capture(["sh", "-c", 'dpkg -i "$0"/*.deb', stage])
    if rc != 0:
        bad.append("dpkg -i: exit %d: %s" % (rc, out.strip()[-400:]))
    rc, out = root.capture(
        [
            "env",
            "DEB_HOST_ARCH=" + arch,
            "CAPI_BUILD_ONLY=1",
            "AUTOPKGTEST_TMP=%s/capi" % stage,
            "sh",
            "debian/tests/capi",
        ],
        cwd=inside,
    )
    lines.append(
        "debian/tests/capi with CAPI_BUILD_ONLY=1: %s" % (out.strip().splitlines() or ["?"])[-1]
    )
    if rc != 0:
        bad.append("building the capi-tests: exit %d: %s" % (rc, out.strip()[-400:]))
        report.add("vm", FAIL, time.time() - t0, "; ".join(lines + bad))
        return
    vm_out = os.path.join(work, "cross", arch + "-vm")
    rc, out = output(
        [
            "sh",
            os.path.join(REPO, "tools", "arch", "vm", "packages.sh"),
            root.root,
            root.path(stage + "/capi/capi"),
            vm_out,
        ],
        cwd=REPO,
    )
    with open(os.path.join(work, "cross", arch + "-vm.txt"), "w") as f:
        f.write(out)
    summary = [ln for ln in out.splitlines() if ln.startswith("arm64 kernel")]
    lines.append(summary[0] if summary else "no summary")
    lines += ["  " + ln for ln in out.splitlines() if re.match(r"^\S+\s+FAIL\s", ln)]
    counts = re.search(r"^(\d+) passed, (\d+) failed$", out, flags=re.M)
    if rc != 0 or not counts or counts.group(2) != "0":
        bad.append(
            "packages.sh exit %d; last lines:\n%s" % (rc, "\n".join(out.strip().splitlines()[-12:]))
        )
    report.add(
        "vm",
        FAIL if bad else PASS,
        time.time() - t0,
        "dpkg -i liburing-rs2 liburing-rs-dev uring-info (%s) in the root; the capi-tests "
        "compiled there by debian/tests/capi, run on the installed files in an %s guest "
        "(qemu-system-aarch64, TCG; output in %s): %s%s"
        % (
            arch,
            arch,
            os.path.relpath(vm_out, REPO),
            "; ".join(lines),
            "" if not bad else "; PROBLEMS: " + "; ".join(bad),
        ),
    )


def main(argv):
    ap = argparse.ArgumentParser(
        prog="python3 -m pytools.packaging.check_debian_cross", description=__doc__.split("\n")[0]
    )
    ap.add_argument("--work", default=os.path.join(REPO, ".cache", "check-debian"))
    ap.add_argument(
        "--arch",
        action="append",
        choices=sorted(ELF_OF),
        help="host architecture to cross-build for (default: %s)" % " and ".join(ARCHES),
    )
    args = ap.parse_args(argv)
    arches = args.arch or list(ARCHES)
    work, t_start = os.path.abspath(args.work), time.time()
    os.makedirs(work, exist_ok=True)
    report = Report()
    logp = os.path.join(work, "check-debian-cross.log")
    with open(logp, "w") as log:
        check_debian.install_tools(None, log)
        root = CrossRoot(work, log)
        t0 = time.time()
        secs, how = root.ensure_base()
        root.fresh_root()
        try:
            root.add_architectures(arches)
            report.add(
                "root",
                PASS,
                time.time() - t0,
                "debootstrap --variant=buildd %s: %s (%.0f s), fresh overlay; dpkg "
                "--add-architecture %s" % (root.suite, how, secs, " ".join(arches)),
            )
            with open(os.path.join(REPO, "packaging", "debian", "changelog")) as f:
                m = re.search(r"^(\S+) \(([^)]+)\)", f.read(), flags=re.M)
            top = "%s-%s" % (m.group(1), m.group(2).split("-")[0])
            for arch in arches:
                report.section = arch + ":"
                inside = "%s/%s/%s" % (build_root.BUILD_DIR, arch, top)
                tree = root.path(inside)
                clean_copy(tree, log)
                shutil.copytree(
                    os.path.join(tree, "packaging", "debian"),
                    os.path.join(tree, "debian"),
                    symlinks=True,
                )
                root.chroot(
                    [
                        "chown",
                        "-R",
                        "%s:%s" % (build_root.BUILD_USER, build_root.BUILD_USER),
                        build_root.BUILD_DIR,
                    ]
                )
                deps(root, arch, inside, report)
                debs = build(root, arch, inside, log, report)
                if not debs:
                    continue
                check_elf(root, arch, inside, debs, work, report)
                if arch in RUNNABLE:
                    run_natively(root, arch, inside, debs, report)
                elif arch in IN_VM:
                    run_in_vm(root, arch, inside, debs, work, report)
        finally:
            root.close()
    report.table()
    say("check-debian-cross: %.0f s in all; log %s" % (time.time() - t_start, logp))
    failed = report.failed()
    if failed:
        say("check-debian-cross: FAILED: %s" % ", ".join(failed))
    say("check-debian-cross: %d passed, %d failed" % (len(report.rows) - len(failed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
