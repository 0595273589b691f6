#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make check-debian: Debian can build this tree, two ways.

1. Debian's recipe (rows without prefix). A distribution switches libraries by
   building its existing recipe from the new source. This takes the debian/
   directory of Debian's liburing 2.15-1 source package (from
   pytools/upstream/upstream.py, or LIBURING_SRC), lays it over a clean copy
   of this tree (its git-tracked files as they are now), and runs the recipe
   unchanged here, with this machine's Rust: `dpkg-buildpackage -b -uc -us`.

2. Our packaging, as a buildd builds it (rows "sid:"). packaging/debian/ over
   a clean copy of the tree, built in a clean Debian sid root (build_root.py:
   debootstrap --variant=buildd, cached) where only its Build-Depends are
   installed: Debian's rustc and cargo, crates from the librust-*-dev packages
   (debian/rules points cargo at /usr/share/cargo/registry), an unprivileged
   user, no network (unshare --net), the tests of debian/rules included
   unless --nocheck. Its packages install beside Debian's liburing2 and
   liburing-dev (packaging/README.md), so (2) compares them path for path
   with Debian's mapped into the private directories. Steps of (2) only:

  source     the orig tarball (the tree without debian/, dated as the
             changelog entry), `dpkg-buildpackage -S`; the binary build then
             runs from the .dsc alone
  dbgsym     each stripped ELF file's build-id has its debug file in the
             -dbgsym package, and addr2line places an exported function
  switch-cycle  Debian's liburing2, ours beside it, uring-rs-switch, liburing2
             reinstalled / removed / installed under it, the switch removed,
             reinstalled and purged, ours purged: after each step which file
             liburing.so.2 and liburing-ffi.so.2 resolve to (sha256), before
             and after ldconfig, the diversions, nothing left behind, and
             upstream's nop.t run by the system's loader
  autopkgtest  debian/tests (capi-tests on the installed packages; the
             switch with a program built against Debian's liburing-dev)
             with autopkgtest's null backend in the root, no network
  clean      after the build, `debian/rules clean` gives back the unpacked .dsc
  noopt      DEB_BUILD_OPTIONS=noopt `debian/rules build` in that unpacked
             tree: the Rust crates at opt-level 0, src/ffi.c at -O0, and the
             test passing with the panic paths listed (CHECK_PANIC=no)
  reproducible  a second build from the .dsc in another path, as another
             user, umask 002, LC_ALL=C, another time zone, parallel=1: every
             .deb bit-identical (sha256) to the first (--no-repro: skipped)

Then, on the packages of each:

  paths      (1) every pattern of debian/*.install, *.manpages, *.examples matches
  symbols    dpkg-gensymbols: no new and no missing symbol against
             liburing2.symbols (check level 4): Debian's (1), ours (2, run in
             the sid root; pytools/packaging/symbols.py writes it from the version scripts)
  contents   `dpkg -c` of our liburing2 / liburing-dev lists the same files as
             Debian's own 2.15-1 binaries (man pages and examples aside), and
             every man page of Debian's liburing-dev is installed by ours too
             (by name and section; ours has more pages, which are listed)
  lintian    findings on our packages that Debian's own packages do not have
             (2: sid's lintian, installed in the sid root, on both, and on
             our .dsc: no E or W of ours)
  hardening  hardening-check on liburing.so.2.15: relro, bindnow, fortify as
             in Debian's build
  unpacked   our liburing2 (2: liburing-rs2) unpacked with dpkg -x into a
             scratch root; a NOP round trip and one liburing example run
             against it with LD_LIBRARY_PATH

(1) uses DEB_BUILD_OPTIONS=nocheck: the recipe's `make runtests` would run our
whole test suite (make test) a second time; CI runs it once already.

No allowed failure: the man pages liburing-dev.manpages lists are generated
by `make` (man/), so a missing one fails the build step like any other file.

Tools (debhelper, lintian, devscripts for hardening-check, debootstrap, ...)
are installed here with apt-get when missing. Everything goes to
.cache/check-debian.
"""

import argparse
import email.utils
import glob
import os
import re
import shutil
import subprocess
import sys
import time

from pytools import REPO
from pytools.suite import examples  # the example's inputs and checker
from pytools.upstream import (
    aptfetch,  # the one downloader
    proc,  # messages and subprocesses
    upstream,  # the source package, upstream's build
)
from pytools.upstream.proc import capture, die, rmtree, run_logged

from . import build_root  # the clean sid root

DEBIAN_VERSION = "2.15-1"
PACKAGES = ("liburing2", "liburing-dev")
# Our packaging's binary packages (packaging/README.md): the libraries and the
# development files beside Debian's, in private directories; uring-info; the
# opt-in switch. OUR_PAIRS: which of Debian's each one stands beside.
OUR_PACKAGES = ("liburing-rs2", "liburing-rs-dev", "uring-info", "uring-rs-switch")
OUR_PAIRS = {"liburing2": "liburing-rs2", "liburing-dev": "liburing-rs-dev"}
# Parts of the package contents that come from other work: compared, not required.
CONTENTS_ASIDE = ("usr/share/man/", "usr/share/doc/liburing-dev/examples/")
# What only our packaging ships, by design: the diagnostics object that
# LIBURING_DEBUG / LIBURING_TRACE load, and its archive for static programs.
CONTENTS_OURS_ONLY = ("/uring-rs", "/liburing-diag.a")
MAN_PREFIX = "usr/share/man/"


def man_pages(listing):
    """{NAME.SECTION} of the man pages in a dpkg -c listing (file or link,
    compressed or not)."""
    out = set()
    for p, kind in listing.items():
        # Debian's place, or the private one of our packages that install
        # beside Debian's (packaging/README.md).
        if p.startswith((MAN_PREFIX, "usr/share/uring-rs/man/")) and kind != "dir":
            base = p.rsplit("/", 1)[-1]
            out.add(base[:-3] if base.endswith(".gz") else base)
    return out


def man_differences(ours, theirs):
    """(pages only Debian's package has, pages only ours has), sorted."""
    a, b = man_pages(ours), man_pages(theirs)
    return sorted(b - a), sorted(a - b)


# The tools the checks run, and the Debian package that brings each.
TOOLS = {
    "dpkg-buildpackage": "dpkg-dev",
    "dh": "debhelper",
    "fakeroot": "fakeroot",
    "lintian": "lintian",
    "hardening-check": "devscripts",
    "debootstrap": "debootstrap",
}

PASS, FAIL = "PASS", "FAIL"

# lintian tags on our packages that come from Debian's recipe or this machine's
# tools rather than from our tree, and why. Anything else only on ours fails.
NOT_OURS = {
    "recommended-field": "Debian's debian/control sets no Priority; the newer dpkg-gencontrol "
    "that built Debian's own packages fills in 'optional', this machine's "
    "older one leaves it out",
}

# What the Rust code gives instead of a stack protector (reported with the
# hardening-check result; the C parts get -fstack-protector-strong from CFLAGS).
RUST_STACK = (
    "the Rust code has no stack canaries: stable rustc has no stack-protector "
    "option (-Z stack-protector is nightly-only) and CFLAGS do not reach rustc; "
    "safe Rust bounds-checks every indexed write, so the overflow a canary "
    "detects cannot happen there; "
    "liburing-ffi's C helpers are protected (%s)"
)

# Fortifiable libc functions the Rust library may import, and why fortify's
# checks would add nothing there: _FORTIFY_SOURCE guards C calls whose length
# the compiler cannot tie to the destination's size, while in Rust every one
# of these lengths comes from the destination itself.
RUST_FORTIFY_EXPLAINED = {
    "memcpy": "emitted by rustc for copies of typed values, length = the type's size",
    "memset": "emitted by rustc for zeroing typed values, length = the type's size",
    "read": "LIBURING_DEBUG/uring-info reading /proc and /sys into a slice, length = slice's",
    "getgroups": "LIBURING_DEBUG's io_uring_group check, length = the array's",
    "pread64": "checking the diagnostics object's ELF and program headers before it is "
    "loaded, into arrays, length = the array's",
    "realpath": "locating the diagnostics object next to the library, into a PATH_MAX array",
    "poll": "one pollfd on the stack with nfds = 1, before a diagnostic write to stderr",
}


def say(msg=""):
    print(msg, flush=True)


class Report:
    """One line per check, printed again as a table at the end."""

    def __init__(self):
        self.rows = []
        self.section = ""

    def add(self, name, verdict, secs, detail):
        name = self.section + name
        self.rows.append((name, verdict, secs, detail))
        say(
            "check-debian: %-14s %s (%.0f s)%s"
            % (name, verdict, secs, ": " + detail if detail else "")
        )

    def failed(self):
        return [r[0] for r in self.rows if r[1] == FAIL]

    def table(self):
        say("\ncheck-debian summary")
        for name, verdict, secs, detail in self.rows:
            say("  %-14s %-5s %5.0f s  %s" % (name, verdict, secs, detail))


def run(cmd, log, cwd=None, env=None):
    """Run a command with its output appended to log; returns the exit status."""
    return run_logged(cmd, log, cwd=cwd, env=env, check=False)


def output(cmd, cwd=None, env=None):
    return capture(cmd, cwd=cwd, env=env)


# --------------------------------------------------------------------------- inputs


def debian_dir(harness_cache, log):
    """Debian's debian/ directory of liburing 2.15-1 (harness cache or LIBURING_SRC)."""
    src, desc = upstream.source(harness_cache, log)
    d = os.path.join(src, "debian")
    if not os.path.isfile(os.path.join(d, "rules")):
        die("%s has no debian/rules (is it Debian's source package?)" % src)
    say("check-debian: debian/ from %s" % desc)
    return d


def clean_copy(dest, log):
    """The tree as git tracks it (working-tree contents), without build products."""
    rmtree(dest)
    os.makedirs(dest)
    rc, files = output(["git", "-C", REPO, "ls-files", "-z"])
    if rc != 0:
        die("not a git checkout: %s" % files.strip())
    for rel in files.split("\0"):
        if not rel or not os.path.lexists(os.path.join(REPO, rel)):
            continue  # deleted in the working tree
        os.makedirs(os.path.join(dest, os.path.dirname(rel)), exist_ok=True)
        shutil.copy2(os.path.join(REPO, rel), os.path.join(dest, rel), follow_symlinks=False)
    log.write("copied %d tracked files to %s\n" % (files.count("\0"), dest))


def install_tools(tree, log):
    """apt-get install what the recipe and the checks need, if anything is missing.

    tree: also the Build-Depends of tree's debian/control (None: the tools only)."""
    want = sorted({pkg for tool, pkg in TOOLS.items() if not shutil.which(tool)})
    rc, out = (
        output(["dpkg-checkbuilddeps"], cwd=tree)
        if tree and shutil.which("dpkg-checkbuilddeps")
        else (1, "")
    )
    m = re.search(r"Unmet build dependencies: (.*)", out)
    if m:
        # "debhelper-compat (= 13) procps" -> package names without versions.
        deps = re.sub(r"\([^)]*\)|<[^>]*>|\[[^\]]*\]", " ", m.group(1)).split()
        want += [d.split(":")[0] for d in deps if d != "|"]
    want = sorted(set("debhelper" if w == "debhelper-compat" else w for w in want))
    if not want:
        return []
    if os.geteuid() != 0:
        die("missing %s and not root: install them first" % " ".join(want))
    say("check-debian: installing %s" % " ".join(want))
    env = dict(proc.build_env(), DEBIAN_FRONTEND="noninteractive")
    # Other jobs may hold dpkg's lock for a while: wait for it rather than fail.
    cmd = [
        "apt-get",
        "install",
        "-y",
        "-q",
        "--no-install-recommends",
        "-o",
        "DPkg::Lock::Timeout=600",
    ] + want
    if run(cmd, log, env=env) != 0:
        run(["apt-get", "update", "-q"], log, env=env)
        if run(cmd, log, env=env) != 0:
            die("apt-get install %s failed (see %s)" % (" ".join(want), log.name))
    return want


def build_env():
    """A clean environment for the recipe: nothing of the caller's make or flags.

    rustup finds its toolchain through RUSTUP_HOME/CARGO_HOME, which default to
    $HOME; debhelper (compat 13) points HOME elsewhere during the build, so
    both are passed explicitly."""
    home = os.environ.get("HOME", "/root")
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": home,
        "LANG": "C.UTF-8",
        "LC_ALL": "C.UTF-8",
        "RUSTUP_HOME": os.environ.get("RUSTUP_HOME", os.path.join(home, ".rustup")),
        "CARGO_HOME": os.environ.get("CARGO_HOME", os.path.join(home, ".cargo")),
        "DEB_BUILD_OPTIONS": "nocheck parallel=2",
    }
    for key in ("RUSTUP_TOOLCHAIN", "TMPDIR"):
        if key in os.environ:
            env[key] = os.environ[key]
    return env


# --------------------------------------------------------------------------- build


def build(tree, log, report):
    """dpkg-buildpackage -b -uc -us; resumes once past a missing-man-page stop."""
    t0 = time.time()
    cmd = ["dpkg-buildpackage", "-b", "-uc", "-us"]
    say(
        "check-debian: DEB_BUILD_OPTIONS='nocheck parallel=2' %s (log: %s)"
        % (" ".join(cmd), log.name)
    )
    start = log.tell()
    rc = run(cmd, log, cwd=tree, env=build_env())
    if rc == 0:
        report.add("build", PASS, time.time() - t0, " ".join(cmd))
        return True
    log.flush()
    with open(log.name, errors="replace") as f:
        f.seek(start)
        text = f.read()
    tail = "\n".join(text.strip().splitlines()[-5:])
    report.add("build", FAIL, time.time() - t0, "exit %d; last lines:\n%s" % (rc, tail))
    return False


def check_paths(tree, debian_src, report):
    """Every line of the .install / .manpages / .examples files matches something."""
    t0 = time.time()
    staged = os.path.join(tree, "debian", "tmp")
    found, missing = 0, []
    for name in sorted(os.listdir(debian_src)):
        kind = name.rsplit(".", 1)[-1]
        if kind not in ("install", "manpages", "examples"):
            continue
        with open(os.path.join(debian_src, name)) as f:
            patterns = [ln.split()[0] for ln in f if ln.strip() and not ln.startswith("#")]
        for pat in patterns:
            # dh_install* look in the source tree, then in debian/tmp.
            hits = glob.glob(os.path.join(tree, pat)) + glob.glob(os.path.join(staged, pat))
            if hits:
                found += 1
            else:
                missing.append("%s: %s" % (name, pat))
    detail = "%d patterns found" % found
    if missing:
        detail += "; MISSING " + ", ".join(missing)
    verdict = FAIL if missing else PASS
    report.add("paths", verdict, time.time() - t0, detail)


def check_symbols(
    tree, report, version=DEBIAN_VERSION, runner=None, package="liburing2", private=None
):
    """dpkg-gensymbols at check level 4: any new or missing symbol fails.

    runner(cmd, cwd) -> (status, output) runs it (default: here, in tree).
    private: the libraries' directory inside the package when it is not a
    public one (dpkg-gensymbols then gets them with -e); the symbols file is
    liburing2.symbols either way, liburing2's exported API."""
    t0 = time.time()
    # (In the sid root the result goes to /tmp: the tree must stay as built, for
    # the clean check.)
    cmd = [
        "dpkg-gensymbols",
        "-p" + package,
        "-Pdebian/" + package,
        "-v" + version,
        "-c4",
        "-Idebian/liburing2.symbols",
        "-O%s/%s.symbols.generated" % ("/tmp" if private else "debian", package),
    ]
    if private:
        cmd += [
            "-edebian/%s/%s/%s" % (package, private, lib)
            for lib in ("liburing.so.2", "liburing-ffi.so.2")
        ]
    rc, out = (runner or (lambda c, d: output(c, cwd=d)))(cmd, tree)
    diff = [ln for ln in out.splitlines() if re.match(r"^[+-] ", ln)]
    say("check-debian: $ %s\n%s" % (" ".join(cmd), out.strip() or "(no output)"))
    if rc == 0 and not diff:
        report.add(
            "symbols",
            PASS,
            time.time() - t0,
            "dpkg-gensymbols -c4: no new, no missing symbol vs liburing2.symbols "
            "(liburing.so.2 and liburing-ffi.so.2)",
        )
    else:
        report.add(
            "symbols",
            FAIL,
            time.time() - t0,
            "dpkg-gensymbols exit %d, %d differing lines" % (rc, len(diff)),
        )


# --------------------------------------------------------------------------- Debian's binaries


def debian_debs(work, log):
    """Debian's own liburing2 and liburing-dev 2.15-1 .debs, downloaded once."""
    dest = os.path.join(work, "debian-debs")
    os.makedirs(dest, exist_ok=True)

    def present():
        return {
            p: glob.glob(os.path.join(dest, "%s_%s_*.deb" % (p, DEBIAN_VERSION))) for p in PACKAGES
        }

    have = present()
    if all(have.values()):
        return {p: v[0] for p, v in have.items()}
    fetcher = aptfetch.PrivateApt(os.path.join(work, "apt"), upstream.SRC_SUITES, log=log)
    pkgs = ["%s=%s" % (p, DEBIAN_VERSION) for p in PACKAGES]
    try:
        if fetcher.download(dest, pkgs, check=False) != 0:
            fetcher.update()
            if fetcher.download(dest, pkgs, check=False) != 0:
                return None
    except aptfetch.AptError as e:
        say("check-debian: %s" % e)
        return None
    have = present()
    return {p: v[0] for p, v in have.items()} if all(have.values()) else None


def deb_listing(deb):
    """dpkg -c as {path: kind}, kind 'dir', 'file' or '-> target'."""
    rc, out = output(["dpkg", "-c", deb])
    entries = {}
    for line in out.splitlines():
        parts = line.split(None, 5)
        if len(parts) < 6:
            continue
        mode, name = parts[0], parts[5]
        target = None
        if " -> " in name:
            name, target = name.split(" -> ", 1)
        name = name[2:] if name.startswith("./") else name
        name = name.rstrip("/")
        if not name:
            continue
        entries[name] = "dir" if mode[0] == "d" else ("-> " + target if target else "file")
    return entries


def beside_path(path, pkg, ma):
    """Where Debian's file path of pkg is in our side-by-side package (None: nowhere)."""
    ours = OUR_PAIRS[pkg]
    for deb, mine in (
        ("usr/share/doc/%s" % pkg, "usr/share/doc/%s" % ours),
        ("usr/include", "usr/include/uring-rs"),
        ("usr/lib/%s" % ma, "usr/lib/%s/uring-rs" % ma),
    ):
        if path == deb or path.startswith(deb + "/"):
            return mine + path[len(deb) :]
    return path


def compare_contents(ours, theirs, report, beside=False):
    """beside: ours are the side-by-side packages, Debian's paths map to the
    private directories (beside_path); else the same names and paths."""
    t0 = time.time()
    lines, differ = [], False
    ma = output(["dpkg-architecture", "-qDEB_HOST_MULTIARCH"])[1].strip()
    for pkg in PACKAGES:
        a = deb_listing(ours[OUR_PAIRS[pkg] if beside else pkg])
        b = deb_listing(theirs[pkg])
        if beside:
            b = {beside_path(p, pkg, ma): k for p, k in b.items()}
            # Directories our private ones nest in, on Debian's side too.
            for p in list(a):
                if a[p] == "dir" and p not in b and any(q.startswith(p + "/") for q in b):
                    b[p] = "dir"
        if beside:
            asides = CONTENTS_ASIDE + (
                "usr/share/uring-rs/",
                "usr/share/doc/liburing-rs-dev/examples/",
            )
            ours_only = ("/uring-rs/uring-rs", "/liburing-diag.a")
        else:
            asides, ours_only = CONTENTS_ASIDE, CONTENTS_OURS_ONLY

        def aside(p, asides=asides, ours_only=ours_only):
            return any(p.startswith(x) or (p + "/").startswith(x) for x in asides) or any(
                x in p for x in ours_only
            )

        only_ours = sorted(p for p in a if p not in b and not aside(p))
        only_theirs = sorted(p for p in b if p not in a and not aside(p))
        kinds = sorted(p for p in a if p in b and a[p] != b[p])
        same = len([p for p in a if p in b and a[p] == b[p] and not aside(p)])
        n_aside = (len([p for p in a if aside(p)]), len([p for p in b if aside(p)]))
        lines.append(
            "%s%s: %d paths identical; man pages/examples aside: ours %d, "
            "Debian's %d"
            % (OUR_PAIRS[pkg] + " beside " if beside else "", pkg, same, n_aside[0], n_aside[1])
        )
        for p in only_ours:
            lines.append("  only in ours:     %s" % p)
        for p in only_theirs:
            lines.append("  only in Debian's: %s" % p)
        for p in kinds:
            lines.append("  differs: %s: ours %s, Debian's %s" % (p, a[p], b[p]))
        missing_pages, extra_pages = man_differences(a, b)
        if man_pages(b):
            lines.append(
                "  man pages: Debian's %d, ours %d, %d of Debian's missing from ours; "
                "only in ours: %s"
                % (
                    len(man_pages(b)),
                    len(man_pages(a)),
                    len(missing_pages),
                    " ".join(extra_pages) or "none",
                )
            )
        for p in missing_pages:
            lines.append("  man page only in Debian's: %s" % p)
        differ = differ or bool(only_ours or only_theirs or kinds or missing_pages)
    if beside:
        differ = check_own_packages(ours, ma, lines) or differ
    report.add("contents", FAIL if differ else PASS, time.time() - t0, "\n    ".join(lines))


# What the two packages of ours that Debian has no counterpart for hold, besides
# their /usr/share/doc/<package>/ files (MA: the multiarch triplet).
OWN_CONTENTS = {
    "uring-info": {"usr/bin/uring-info": "file", "usr/share/man/man1/uring-info.1.gz": "file"},
    "uring-rs-switch": {
        "usr/lib/MA/liburing.so.2.15": "-> uring-rs/liburing.so.2.15",
        "usr/lib/MA/liburing.so.2": "-> liburing.so.2.15",
        "usr/lib/MA/liburing-ffi.so.2.15": "-> uring-rs/liburing-ffi.so.2.15",
        "usr/lib/MA/liburing-ffi.so.2": "-> liburing-ffi.so.2.15",
        # Why its ldconfig trigger is needed (packaging/README.md, The switch).
        "usr/share/lintian/overrides/uring-rs-switch": "file",
    },
}


def check_own_packages(ours, ma, lines):
    """uring-info and uring-rs-switch hold exactly OWN_CONTENTS; True if not."""
    differ = False
    for pkg, want in OWN_CONTENTS.items():
        want = {p.replace("MA", ma): k for p, k in want.items()}
        got = {
            p: k
            for p, k in deb_listing(ours[pkg]).items()
            if k != "dir" and not p.startswith("usr/share/doc/%s/" % pkg)
        }
        bad = sorted(set(got.items()) ^ set(want.items()))
        lines.append(
            "%s: %s"
            % (
                pkg,
                "exactly its %d files" % len(want)
                if not bad
                else "DIFFERS: " + ", ".join("%s %s" % kv for kv in bad),
            )
        )
        differ = differ or bool(bad)
    return differ


# Accepted only while packaging/debian/changelog's entry is UNRELEASED: the
# upload that releases it closes the ITP bug in that entry.
UNRELEASED_ONLY = {
    "initial-upload-closes-no-bugs": "the changelog entry is UNRELEASED, not "
    "an upload: the entry that uploads it "
    "closes the ITP bug"
}


def lintian_tags(debs, cache=None, runner=None):
    """lintian on the .debs: the set of 'X: package: tag' findings, and the raw text.

    With cache (a file), the output is kept there: Debian's packages do not change.
    runner(cmd) -> (status, output) runs lintian (default: this machine's)."""
    if cache and os.path.isfile(cache):
        with open(cache) as f:
            out = f.read()
    else:
        rc, out = (runner or output)(
            ["lintian", "-I", "--pedantic", "--tag-display-limit", "0"] + debs
        )
        if cache:
            with open(cache, "w") as f:
                f.write(out)
    tags = set()
    for line in out.splitlines():
        m = re.match(r"^([EWIPX]): (\S+?)(?: \w+)?: (\S+)", line)
        if m:
            tags.add("%s: %s: %s" % m.groups())
    return tags, out


def check_lintian(ours, theirs, report, beside=False, root=None, dsc=None):
    """Findings also present on Debian's own packages belong to its recipe, not to us.

    beside: ours are the side-by-side packages; a finding on liburing-rs2 counts
    as the same finding on liburing2 (OUR_PAIRS) for that comparison.
    root: run sid's lintian in the sid root (installed there), on both.
    dsc: our source package too (its path inside the root)."""
    t0 = time.time()
    runner, cache, names = (
        None,
        os.path.join(os.path.dirname(theirs[PACKAGES[0]]), "lintian.txt"),
        None,
    )
    if root:
        root.chroot(["apt-get", "-q", "-y", "install", "lintian"])
        version = root.version_of("lintian")
        cache = cache.replace(".txt", "-sid-%s.txt" % version)
        inside = "/tmp/lintian"
        os.makedirs(root.path(inside), exist_ok=True)
        for deb in list(ours.values()) + [theirs[p] for p in PACKAGES]:
            shutil.copy2(deb, root.path(inside))

        def names(debs):
            return ["%s/%s" % (inside, os.path.basename(d)) for d in debs]

        runner = root.capture
    mine = list(ours.values()) if beside else [ours[p] for p in PACKAGES]
    our_tags, text = lintian_tags(
        (names(mine) if names else mine) + ([dsc] if dsc else []), runner=runner
    )
    if beside:
        debian_name = {v: k for k, v in OUR_PAIRS.items()}
        our_tags = {
            "%s: %s: %s" % (lambda x, p, t: (x, debian_name.get(p, p), t))(*t.split(": ", 2))
            for t in our_tags
        }
    their = [theirs[p] for p in PACKAGES]
    their_tags, _ = lintian_tags(names(their) if names else their, cache=cache, runner=runner)
    say(
        "check-debian: lintian%s -I --pedantic on our packages:\n%s"
        % (" (sid's %s)" % version if root else "", text.strip() or "(clean)")
    )
    if beside:
        with open(os.path.join(REPO, "packaging", "debian", "changelog")) as f:
            unreleased = re.search(r"^\S+ \([^)]+\) UNRELEASED;", f.read(), flags=re.M)
        if unreleased:
            accepted = [t for t in our_tags if t.rsplit(": ", 1)[1] in UNRELEASED_ONLY]
            our_tags -= set(accepted)
            for t in sorted({t.rsplit(": ", 1)[1] for t in accepted}):
                say("check-debian: lintian %s: %s" % (t, UNRELEASED_ONLY[t]))
    shared = sorted(our_tags & their_tags)
    only_ours = sorted(our_tags - their_tags)
    explained = [t for t in only_ours if t.rsplit(": ", 1)[1] in NOT_OURS]
    ours_alone = [t for t in only_ours if t not in explained]
    serious = [t for t in ours_alone if t[0] in "EW"]
    detail = "%d findings on ours; also on Debian's own 2.15-1 packages: %s" % (
        len(our_tags),
        "; ".join(shared) or "none",
    )
    for tag in sorted({t.rsplit(": ", 1)[1] for t in explained}):
        detail += "; not from our tree: %s (%s: %s)" % (
            tag,
            ", ".join(t.split(": ")[1] for t in explained if t.endswith(": " + tag)),
            NOT_OURS[tag],
        )
    detail += "; ours alone: " + ("; ".join(ours_alone) or "none")
    report.add("lintian", FAIL if serious else PASS, time.time() - t0, detail)


def hardening(path):
    rc, out = output(["hardening-check", "--verbose", path])
    props = {"unprotected": []}
    for line in out.splitlines():
        m = re.match(r"^ ([A-Z][^:]+): (.*)$", line)
        if m:
            props[m.group(1)] = m.group(2)
        m = re.match(r"^\s+unprotected: (\S+)$", line)
        if m:
            props["unprotected"].append(m.group(1))
    return props, out


def check_hardening(tree, theirs, work, report, beside=False):
    t0 = time.time()
    arch = output(["dpkg-architecture", "-qDEB_HOST_MULTIARCH"])[1].strip()
    ours_so = os.path.join(tree, "debian", "liburing2", "usr", "lib", arch, "liburing.so.2.15")
    if beside:
        ours_so = os.path.join(
            tree, "debian", "liburing-rs2", "usr", "lib", arch, "uring-rs", "liburing.so.2.15"
        )
    root = os.path.join(work, "debian-root")
    rmtree(root)
    subprocess.check_call(["dpkg", "-x", theirs["liburing2"], root])
    their_so = os.path.join(root, "usr", "lib", arch, "liburing.so.2.15")
    ours, text = hardening(ours_so)
    their, their_text = hardening(their_so)
    ffi, ffi_text = hardening(ours_so.replace("liburing.so", "liburing-ffi.so"))
    say("check-debian: hardening-check on ours:\n%s\n%s" % (text.rstrip(), ffi_text.rstrip()))
    say(
        "check-debian: hardening-check on Debian's 2.15-1 (same flags, C code):\n%s"
        % their_text.rstrip()
    )
    problems = []
    for prop in ("Read-only relocations", "Immediate binding"):
        if not ours.get(prop, "").startswith("yes"):
            problems.append("%s: %s" % (prop, ours.get(prop)))
    fortify = "Fortify Source functions"
    unexplained = [f for f in ours["unprotected"] if f not in RUST_FORTIFY_EXPLAINED]
    explained = [
        "%s (%s)" % (f, RUST_FORTIFY_EXPLAINED[f])
        for f in ours["unprotected"]
        if f in RUST_FORTIFY_EXPLAINED
    ]
    if (
        not ours.get(fortify, "").startswith("yes")
        and unexplained
        and ours.get(fortify, "").split(",")[0] != their.get(fortify, "").split(",")[0]
    ):
        problems.append(
            "%s: ours '%s', Debian's '%s'" % (fortify, ours.get(fortify), their.get(fortify))
        )
    detail = (
        "relro %s, bindnow %s, fortify %s (Debian's: %s), stack protector %s "
        "(Debian's: %s)"
        % (
            ours.get("Read-only relocations"),
            ours.get("Immediate binding"),
            ours.get(fortify),
            their.get(fortify),
            ours.get("Stack protected"),
            their.get("Stack protected"),
        )
    )
    if explained:
        detail += "; fortifiable imports of the Rust code, explained: " + ", ".join(explained)
    if problems:
        detail += "; PROBLEMS: " + "; ".join(problems)
    if not ours.get("Stack protected", "").startswith("yes"):
        detail += "; " + RUST_STACK % (
            "liburing-ffi.so.2.15: Stack protected: %s" % ffi.get("Stack protected")
        )
    report.add("hardening", FAIL if problems else PASS, time.time() - t0, detail)


# --------------------------------------------------------------------------- run unpacked


def upstream_programs(harness_cache, src, work, log):
    """nop.t and io_uring-cp as built for upstream liburing, linked to liburing.so.2.

    nop.t comes from the harness's binary-mode tree (upstream's test built against
    upstream's liburing.so.2). The example is upstream's io_uring-cp built the
    same way: upstream's headers and liburing.so.2 from its install
    (pytools/upstream/upstream.py). Returns (nop, example) paths or None."""
    nop = os.path.join(harness_cache, "build", "binary", "test", "nop.t")
    up = os.path.join(upstream.provide(harness_cache, "stage"), "usr")
    if not os.path.exists(nop) or not os.path.isdir(os.path.join(up, "lib")):
        say(
            "check-debian: the harness has not built upstream's tests yet; "
            "running liburing-tests --modes binary --only nop"
        )
        stage = os.path.join(REPO, "build", "stage")
        run(
            [
                "sh",
                os.path.join(REPO, "liburing-tests", "run.sh"),
                "--stage",
                stage,
                "--modes",
                "binary",
                "--only",
                "nop",
                "--cache",
                harness_cache,
            ],
            log,
        )
    if not os.path.exists(nop):
        return None
    example = os.path.join(work, "io_uring-cp")
    rc = run(
        [
            os.environ.get("CC", "cc"),
            "-O2",
            "-D_GNU_SOURCE",
            "-I" + os.path.join(up, "include"),
            "-o",
            example,
            os.path.join(src, "examples", "io_uring-cp.c"),
            "-L" + os.path.join(up, "lib"),
            "-luring",
        ],
        log,
    )
    return (nop, example) if rc == 0 else None


def loads_from(prog, libdir, env):
    """Where the dynamic loader finds liburing.so.2 for prog."""
    rc, out = output([prog], env=dict(env, LD_TRACE_LOADED_OBJECTS="1"))
    m = re.search(r"liburing\.so\.2 => (\S+)", out)
    return m.group(1) if m else None


def check_unpacked(ours, work, harness_cache, src, log, report, scratch="root", beside=False):
    t0 = time.time()
    arch = output(["dpkg-architecture", "-qDEB_HOST_MULTIARCH"])[1].strip()
    root = os.path.join(work, scratch)
    rmtree(root)
    pkg = "liburing-rs2" if beside else "liburing2"
    subprocess.check_call(["dpkg", "-x", ours[pkg], root])
    libdir = os.path.join(root, "usr", "lib", arch, *(["uring-rs"] if beside else []))
    progs = upstream_programs(harness_cache, src, work, log)
    if not progs:
        report.add(
            "unpacked",
            FAIL,
            time.time() - t0,
            "could not get upstream's nop.t / io_uring-cp (see %s)" % log.name,
        )
        return
    nop, example = progs
    env = dict(proc.build_env(), LD_LIBRARY_PATH=libdir)
    results, ok = [], True
    for prog in (nop, example):
        got = loads_from(prog, libdir, env)
        if not got or not os.path.realpath(got).startswith(os.path.realpath(libdir)):
            results.append("%s loads %s, not the unpacked one" % (os.path.basename(prog), got))
            ok = False
    # The example's inputs and its checker are the harness's.
    data = os.path.join(work, "example-data")
    examples.make_example_inputs(data)
    args, checker = examples.example_plan(data)["io_uring-cp"]
    for label, cmd, check in (("nop.t", [nop], None), ("io_uring-cp", [example] + args, checker)):
        p = subprocess.run(
            cmd,
            cwd=os.path.dirname(cmd[0]),
            env=env,
            timeout=120,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            errors="replace",
        )
        problem = (
            "exit %d" % p.returncode if p.returncode != 0 else (check(p.stdout) if check else None)
        )
        results.append("%s %s" % (label, "ok" if not problem else "FAILED: " + problem))
        ok = ok and not problem
    report.add(
        "unpacked",
        PASS if ok else FAIL,
        time.time() - t0,
        "dpkg -x %s -> %s; LD_LIBRARY_PATH=%s (both programs load "
        "liburing.so.2 from there): %s"
        % (pkg, os.path.relpath(root, REPO), os.path.relpath(libdir, root), ", ".join(results)),
    )


# --------------------------------------------------------------------------- main


def their_debs(work, log, report, cache={}):  # noqa: B006  (the default is the run's cache)
    """Debian's own packages, downloaded once per run (a row in the report)."""
    if "debs" not in cache:
        t0 = time.time()
        theirs = cache["debs"] = debian_debs(work, log)
        report.add(
            "download",
            PASS if theirs else FAIL,
            time.time() - t0,
            "Debian's own %s %s: %s"
            % (
                " ".join(PACKAGES),
                DEBIAN_VERSION,
                " ".join(os.path.basename(d) for d in theirs.values())
                if theirs
                else "could not apt-get download (see %s)" % log.name,
            ),
        )
    return cache["debs"]


def compare_with_debian(
    tree, ours, work, args, src, log, report, scratch, beside=False, root=None, dsc=None
):
    """The checks on built packages that do not depend on how they were built.

    beside: ours are our own packaging's (OUR_PACKAGES), else Debian's names."""
    theirs = their_debs(work, log, report)
    if theirs:
        compare_contents(ours, theirs, report, beside)
        check_lintian(ours, theirs, report, beside, root, dsc)
        check_hardening(tree, theirs, work, report, beside)
    check_unpacked(ours, work, args.harness_cache, src, log, report, scratch, beside)


def debian_recipe(work, args, debian_src, log, report):
    """Debian's unchanged debian/ over our tree, built here with the machine's tools."""
    src = os.path.dirname(debian_src)
    # dpkg-buildpackage writes the .debs next to the tree: a directory of its own.
    out = os.path.join(work, "build")
    rmtree(out)
    tree = os.path.join(out, "liburing-%s" % DEBIAN_VERSION.split("-")[0])
    t0 = time.time()
    clean_copy(tree, log)
    shutil.copytree(debian_src, os.path.join(tree, "debian"), symlinks=True)
    installed = install_tools(tree, log)
    report.add(
        "setup",
        PASS,
        time.time() - t0,
        "tracked files + Debian's debian/; installed: %s"
        % (" ".join(installed) or "nothing (all present)"),
    )
    if build(tree, log, report):
        check_paths(tree, debian_src, report)
        check_symbols(tree, report)
        ours = {p: glob.glob(os.path.join(out, "%s_*.deb" % p))[0] for p in PACKAGES}
        compare_with_debian(tree, ours, work, args, src, log, report, "root")


def check_rustc_bound(report):
    """Build-Depends' rustc bound is the rust-version Cargo.toml declares."""
    t0 = time.time()
    with open(os.path.join(REPO, "packaging", "debian", "control")) as f:
        bound = re.search(r"\brustc(?::native)? \(>= ([0-9.]+)\)", f.read())
    with open(os.path.join(REPO, "Cargo.toml")) as f:
        declared = re.search(r'^rust-version\s*=\s*"([0-9.]+)"', f.read(), flags=re.M)
    bound = bound.group(1) if bound else None
    if not declared:
        report.add(
            "rustc-bound",
            PASS,
            time.time() - t0,
            "Build-Depends rustc (>= %s); Cargo.toml declares no rust-version to "
            "compare with" % bound,
        )
        return
    same = bound == declared.group(1)
    report.add(
        "rustc-bound",
        PASS if same else FAIL,
        time.time() - t0,
        "Build-Depends rustc (>= %s), Cargo.toml rust-version %s" % (bound, declared.group(1)),
    )


def our_packaging_in_sid(work, args, src, log, report):
    """packaging/debian/ built as a buildd builds it: a clean sid root with only the
    Build-Depends, Debian's rustc and crates, an unprivileged user, no network."""
    t0 = time.time()
    rc, out = output([sys.executable, "-m", "pytools.packaging.symbols", "--check"], cwd=REPO)
    report.add(
        "symbols-file",
        PASS if rc == 0 else FAIL,
        time.time() - t0,
        "; ".join(out.split("\n")).strip("; "),
    )
    check_rustc_bound(report)
    t0 = time.time()
    installed = install_tools(None, log)
    root = build_root.BuildRoot(work, log)
    secs, how = root.ensure_base()
    root.fresh_root()
    report.add(
        "root",
        PASS,
        time.time() - t0,
        "debootstrap --variant=buildd %s: %s (%.0f s), fresh overlay on it; "
        "installed here: %s"
        % (root.suite, how, secs, " ".join(installed) or "nothing (all present)"),
    )
    try:
        build_in_sid(root, work, args, src, log, report)
    finally:
        root.close()


def source_package(root, source, version, inside, report):
    """The orig tarball (the tree without debian/), then dpkg-buildpackage -S as the
    build user without network. Returns the .dsc's path inside the root, or None."""
    t0 = time.time()
    upstream = version.split("-")[0]
    top = os.path.basename(inside)
    orig = "%s_%s.orig.tar.xz" % (source, upstream)
    # Every file dated as the changelog entry (SOURCE_DATE_EPOCH), as a release
    # tarball made from a tag would be.
    with open(os.path.join(root.path(inside), "debian", "changelog")) as f:
        m = re.search(r"^ -- .*?>  (.+)$", f.read(), flags=re.M)
    epoch = int(email.utils.parsedate_to_datetime(m.group(1)).timestamp())
    rc = root.run_as(
        [
            "tar",
            "--sort=name",
            "--mtime=@%d" % epoch,
            "--owner=0",
            "--group=0",
            "--numeric-owner",
            "--exclude=%s/debian" % top,
            "-cJf",
            orig,
            top,
        ],
        build_root.BUILD_DIR,
    )
    rc = rc or root.build(inside, "", args=("-S", "-d"))
    dsc = "%s/%s_%s.dsc" % (build_root.BUILD_DIR, source, version)
    ok = rc == 0 and os.path.isfile(root.path(dsc))
    files = sorted(
        os.path.basename(f)
        for f in glob.glob(root.path("%s/%s_%s*" % (build_root.BUILD_DIR, source, upstream)))
    )
    report.add(
        "source",
        PASS if ok else FAIL,
        time.time() - t0,
        "dpkg-buildpackage -S: %s" % (" ".join(files) if ok else "exit %d" % rc),
    )
    return dsc if ok else None


def make_dirs(root, inside, user=build_root.BUILD_USER):
    """mkdir -p inside the root, the directories made owned by user."""
    root.chroot(["sh", "-c", 'mkdir -p "$0" && chown -R "$1:$1" "$0"', inside, user])


def run_autopkgtest(root, inside, report):
    """debian/tests against the built packages, autopkgtest's null backend in the
    sid root (Debian's liburing2 installed by the switch cycle, ours purged). The
    tools and the tests' Debian dependencies are installed first with network;
    the run itself has none (our packages come from autopkgtest's own local
    repository of the .debs)."""
    t0 = time.time()
    root.chroot(["apt-get", "-q", "-y", "install", "autopkgtest", "liburing-dev", "strace"])
    rc, out = root.capture(
        [
            "sh",
            "-c",
            'cd "$0" && exec autopkgtest --output-dir '
            '/tmp/autopkgtest-out -B ./*.deb "./$1/" -- null',
            os.path.dirname(inside),
            os.path.basename(inside),
        ]
    )
    summary = out.split("@@@@@@@@@@@@@@@@@@@@ summary", 1)[-1].splitlines()
    results = [ln.split()[:2] for ln in summary[1:] if re.match(r"^\S+\s+(PASS|FAIL|SKIP)", ln)]
    capi = re.search(r"^(\d+ passed, \d+ failed, \d+ skipped)$", out, flags=re.M)
    ok = rc == 0 and results and all(r[1] == "PASS" for r in results)
    report.add(
        "autopkgtest",
        PASS if ok else FAIL,
        time.time() - t0,
        "autopkgtest -- null, no network: %s%s%s"
        % (
            ", ".join(" ".join(r) for r in results) or "no results",
            " (capi-tests: %s)" % capi.group(1) if capi else "",
            ""
            if ok
            else "; exit %d; last lines:\n%s" % (rc, "\n".join(out.strip().splitlines()[-15:])),
        ),
    )


def clean_restores(root, dsc, inside, report):
    """After the build, debian/rules clean leaves the tree as dpkg-source -x gave it."""
    t0 = time.time()
    fresh = "%s/fresh/%s" % (build_root.BUILD_DIR, os.path.basename(inside))
    rc = root.run_as(["debian/rules", "clean"], inside)
    make_dirs(root, os.path.dirname(fresh))
    rc = rc or root.run_as(["dpkg-source", "-x", dsc, fresh], "/")
    rc2, out = root.capture(["diff", "-r", "--no-dereference", fresh, inside])
    same = rc == 0 and rc2 == 0
    report.add(
        "clean",
        PASS if same else FAIL,
        time.time() - t0,
        "after the build, debian/rules clean: the tree equals the unpacked .dsc"
        if same
        else "exit %d; differs:\n%s" % (rc, "\n".join(out.splitlines()[:12])),
    )
    return fresh


def build_noopt(root, inside, report):
    """DEB_BUILD_OPTIONS=noopt: `debian/rules build` (configure, build, the test)
    in a fresh tree as the build user, no network. The Rust crates must be
    compiled at opt-level 0 and the C file at -O0, and the test must pass,
    listing the panic paths an unoptimised build keeps (CHECK_PANIC=no)."""
    t0 = time.time()
    out = "/tmp/noopt.log"
    rc = root.chroot(
        ["sh", "-c", 'debian/rules build >"$0" 2>&1', out],
        net=False,
        user=build_root.BUILD_USER,
        cwd=inside,
        check=False,
        env=dict(build_root.BUILD_ENV, DEB_BUILD_OPTIONS="noopt parallel=2"),
    )
    with open(root.path(out), errors="replace") as f:
        text = f.read()
    # cargo --verbose (V=1) prints each rustc command: the library crate (uring),
    # where cargo leaves out "-C opt-level" at rustc's default, 0.
    lib = [ln for ln in text.splitlines() if "--crate-name uring " in ln]
    checks = {
        "uring-rs at opt-level 0": lib and not any(re.search(r"opt-level=[^0]", ln) for ln in lib),
        "src/ffi.c at -O0": re.search(r"gcc .*-O0 .*src/ffi\.c", text),
        "check-symbols listed panic paths (CHECK_PANIC=no)": "panic paths in liburing.o (CHECK_PANIC=no)"
        in text,
    }
    missing = [k for k, v in checks.items() if not v]
    ok = rc == 0 and not missing
    report.add(
        "noopt",
        PASS if ok else FAIL,
        time.time() - t0,
        "DEB_BUILD_OPTIONS=noopt debian/rules build: %s"
        % (
            ", ".join(checks)
            if ok
            else "exit %d; not seen: %s; last lines:\n%s"
            % (rc, ", ".join(missing) or "none", "\n".join(text.strip().splitlines()[-8:]))
        ),
    )


def reproducible(root, dsc, source, upstream, options, first, report):
    """A second build from the .dsc: another path, user, umask, locale, time zone and
    (later) time; SOURCE_DATE_EPOCH comes from the changelog in both. Every .deb
    (dbgsym ones included) must be bit-identical to the first build's."""
    t0 = time.time()
    inside = "%s/elsewhere/deeper/%s-%s" % (build_root.BUILD_DIR, source, upstream)
    user = "builder2"
    root.chroot(["useradd", "--no-create-home", "--home-dir", "/nonexistent", user], check=False)
    make_dirs(root, os.path.dirname(inside), user)
    root.run_as(["dpkg-source", "-x", dsc, inside], "/", user=user)
    rc = root.build(
        inside,
        options.replace("parallel=2", "parallel=1"),
        user=user,
        umask="002",
        env={"LANG": "C", "LC_ALL": "C", "TZ": "Etc/GMT-14"},
    )
    differ, same = [], 0
    for _name, deb in sorted(first.items()):
        other = os.path.join(os.path.dirname(root.path(inside)), os.path.basename(deb))
        if not os.path.isfile(other):
            differ.append("%s missing" % os.path.basename(deb))
        elif output(["sha256sum", deb])[1].split()[0] != output(["sha256sum", other])[1].split()[0]:
            differ.append(os.path.basename(deb))
        else:
            same += 1
    ok = rc == 0 and not differ
    report.add(
        "reproducible",
        PASS if ok else FAIL,
        time.time() - t0,
        "second build in %s as %s, umask 002, LC_ALL=C, TZ=Etc/GMT-14, parallel=1: "
        "%d of %d .debs bit-identical (sha256)%s"
        % (
            os.path.dirname(inside),
            user,
            same,
            len(first),
            "" if ok else "; build exit %d; DIFFER: %s" % (rc, " ".join(differ)),
        ),
    )


def build_in_sid(root, work, args, src, log, report):
    with open(os.path.join(REPO, "packaging", "debian", "changelog")) as f:
        m = re.search(r"^(\S+) \(([^)]+)\)", f.read(), flags=re.M)
    source, version = m.group(1), m.group(2)
    upstream = version.split("-")[0]
    inside = "%s/%s-%s" % (build_root.BUILD_DIR, source, upstream)
    tree = root.path(inside)
    clean_copy(tree, log)
    shutil.copytree(
        os.path.join(tree, "packaging", "debian"), os.path.join(tree, "debian"), symlinks=True
    )
    root.chroot(
        [
            "chown",
            "-R",
            "%s:%s" % (build_root.BUILD_USER, build_root.BUILD_USER),
            build_root.BUILD_DIR,
        ]
    )

    t0 = time.time()
    added = root.install_build_depends(inside)
    tools = ", ".join(
        "%s %s" % (p, root.version_of(p))
        for p in ("rustc", "cargo", "librust-libc-dev", "debhelper", "dpkg-dev")
    )
    report.add(
        "build-deps",
        PASS,
        time.time() - t0,
        "apt-get build-dep: %d packages added to the buildd base (%s)" % (len(added), tools),
    )

    t0 = time.time()
    reached, how = root.mirror_reachable_offline()
    report.add(
        "offline",
        FAIL if reached else PASS,
        time.time() - t0,
        "in the build's namespaces, a TCP connection to the mirror: %s" % how,
    )

    dsc = source_package(root, source, version, inside, report)
    if not dsc:
        return
    # The binary build from the .dsc alone, unpacked where nothing else is.
    inside = "%s/dsc/%s-%s" % (build_root.BUILD_DIR, source, upstream)
    tree = root.path(inside)
    make_dirs(root, os.path.dirname(inside))
    root.run_as(["dpkg-source", "-x", dsc, inside], "/")

    t0 = time.time()
    options = "nocheck parallel=2" if args.nocheck else "parallel=2"
    say(
        "check-debian: in sid, as %s, no network: DEB_BUILD_OPTIONS='%s' "
        "dpkg-buildpackage -b -uc -us (log: %s)" % (build_root.BUILD_USER, options, log.name)
    )
    start = log.tell()
    rc = root.build(inside, options)
    debs = {
        p: glob.glob(os.path.join(os.path.dirname(tree), "%s_%s_*.deb" % (p, version)))
        for p in OUR_PACKAGES
    }
    dbgsym = {
        p: glob.glob(os.path.join(os.path.dirname(tree), "%s-dbgsym_%s_*.deb" % (p, version)))
        for p in DBGSYM
    }
    extra = sorted(
        os.path.basename(d)
        for d in glob.glob(os.path.join(os.path.dirname(tree), "*.deb"))
        if not any(d in v for v in debs.values()) and not any(d in v for v in dbgsym.values())
    )
    detail = "unshare --net, from the .dsc alone"
    if rc != 0 or not all(debs.values()):
        log.flush()
        with open(log.name, errors="replace") as f:
            f.seek(start)
            tail = "\n".join(f.read().strip().splitlines()[-8:])
        report.add(
            "build", FAIL, time.time() - t0, "exit %d; %s; last lines:\n%s" % (rc, detail, tail)
        )
        return
    ours = {p: v[0] for p, v in debs.items()}
    # The root's files go when the next build starts: the packages are kept.
    keep = os.path.join(work, "packages")
    rmtree(keep)
    os.makedirs(keep)
    for f in glob.glob(os.path.join(os.path.dirname(tree), "*")) + glob.glob(
        root.path("%s/%s_%s*" % (build_root.BUILD_DIR, source, upstream))
    ):
        if os.path.isfile(f):
            shutil.copy2(f, keep)
    report.add(
        "build",
        PASS if not extra else FAIL,
        time.time() - t0,
        "%s; %s%s; the packages and the source package are in %s"
        % (
            " ".join(os.path.basename(d) for d in ours.values()),
            detail,
            "; UNEXPECTED packages: " + " ".join(extra) if extra else "",
            keep,
        ),
    )
    arch = output(["dpkg-architecture", "-qDEB_HOST_MULTIARCH"])[1].strip()
    check_dbgsym(ours, dbgsym, arch, work, report)
    check_symbols(
        inside,
        report,
        package="liburing-rs2",
        private="usr/lib/%s/uring-rs" % arch,
        runner=lambda cmd, cwd: root.capture(cmd, cwd=cwd),
    )
    compare_with_debian(
        tree, ours, work, args, src, log, report, "sid-unpacked", beside=True, root=root, dsc=dsc
    )
    theirs = their_debs(work, log, report)
    progs = upstream_programs(args.harness_cache, src, work, log)
    if theirs and progs:
        install_cycle(root, tree, ours, theirs, progs[0], work, report)
    else:
        report.add("switch-cycle", FAIL, 0, "no Debian liburing2 .deb or no nop.t")
    run_autopkgtest(root, inside, report)
    fresh = clean_restores(root, dsc, inside, report)
    build_noopt(root, fresh, report)
    if not args.no_repro:
        reproducible(
            root,
            dsc,
            source,
            upstream,
            options,
            dict(ours, **{p + "-dbgsym": v[0] for p, v in dbgsym.items() if v}),
            report,
        )


# --------------------------------------------------------------------------- debug symbols

# The ELF files of each package whose debug information dh_strip moves into
# <package>-dbgsym (MA: the multiarch triplet), and one function of each to
# symbolise. (liburing-diag.so is left out: its relink drops a constructor
# section, which takes the Rust code's DWARF with it, see the Makefile's
# relink_object; its -dbgsym file has the symbol table only.)
DBGSYM = {
    "liburing-rs2": {
        "usr/lib/MA/uring-rs/liburing.so.2.15": "io_uring_queue_init",
        "usr/lib/MA/uring-rs/liburing-ffi.so.2.15": "io_uring_prep_nop",
    },
    "uring-info": {"usr/bin/uring-info": None},
}


def check_dbgsym(ours, dbgsym, ma, work, report):
    """Each stripped file has a build-id, its -dbgsym package has the debug file
    for exactly that build-id (.build-id/xx/rest.debug) with DWARF in it, and
    addr2line on it names the source file of an exported function."""
    t0 = time.time()
    lines, bad = [], []
    for pkg, files in DBGSYM.items():
        if len(dbgsym.get(pkg, [])) != 1:
            bad.append("no %s-dbgsym package" % pkg)
            continue
        top = os.path.join(work, "dbgsym", pkg)
        rmtree(top)
        os.makedirs(top)
        subprocess.check_call(["dpkg", "-x", ours[pkg], top])
        subprocess.check_call(["dpkg", "-x", dbgsym[pkg][0], top])
        for rel, func in files.items():
            path = os.path.join(top, rel.replace("MA", ma))
            m = re.search(r"Build ID: ([0-9a-f]+)", output(["readelf", "-n", path])[1])
            if not m:
                bad.append("%s has no build-id" % rel)
                continue
            bid = m.group(1)
            debug = os.path.join(
                top, "usr", "lib", "debug", ".build-id", bid[:2], bid[2:] + ".debug"
            )
            sections = output(["readelf", "-SW", path])[1]
            if ".debug_info" in sections:
                bad.append("%s is not stripped" % rel)
            if (
                not os.path.isfile(debug)
                or ".debug_info" not in output(["readelf", "-SW", debug])[1]
            ):
                bad.append("%s: no DWARF at .build-id/%s/%s.debug" % (rel, bid[:2], bid[2:]))
                continue
            where = ""
            if func:
                sym = re.search(
                    r"^([0-9a-f]+) \S+ %s(@|$)" % func,
                    output(["nm", "-D", "--defined-only", path])[1],
                    flags=re.M,
                )
                loc = (
                    output(["addr2line", "-f", "-e", debug, "0x" + sym.group(1)])[1].split()
                    if sym
                    else []
                )
                if len(loc) < 2 or loc[1].startswith("??"):
                    bad.append("%s: addr2line cannot place %s" % (rel, func))
                    continue
                where = ", %s at %s" % (func, loc[1])
            lines.append(
                "%s: build-id %s..., %s-dbgsym%s" % (os.path.basename(rel), bid[:12], pkg, where)
            )
    report.add(
        "dbgsym",
        FAIL if bad else PASS,
        time.time() - t0,
        "; ".join(lines + ["PROBLEMS: " + "; ".join(bad)] if bad else lines),
    )


# --------------------------------------------------------------------------- switch cycle

SWITCHED = ("liburing.so.2", "liburing.so.2.15", "liburing-ffi.so.2", "liburing-ffi.so.2.15")


def install_cycle(root, tree, ours, theirs, nop, work, report):
    """In the sid root (as root, no network): Debian's liburing2, then ours beside it,
    the switch, Debian's upgraded and removed under it, the switch removed, ours
    purged; after each step, where liburing.so.2 and liburing-ffi.so.2 resolve (by
    content: the sha256 of Debian's file or ours), the diversions, an ldconfig run
    that must change nothing, and upstream's nop.t (linked against liburing.so.2)
    run by the system's loader. What piuparts would check, on the files that matter."""
    t0 = time.time()
    ma = output(["dpkg-architecture", "-qDEB_HOST_MULTIARCH"])[1].strip()
    lib = "/usr/lib/" + ma
    stage = "/tmp/cycle"
    os.makedirs(root.path(stage), exist_ok=True)
    for f in list(ours.values()) + [theirs["liburing2"], nop]:
        shutil.copy2(f, root.path(stage))
    deb = {p: "%s/%s" % (stage, os.path.basename(f)) for p, f in ours.items()}
    deb["liburing2"] = "%s/%s" % (stage, os.path.basename(theirs["liburing2"]))

    def digest(path):
        return output(["sha256sum", path])[1].split()[0]

    debian_root = os.path.join(work, "cycle-debian")
    rmtree(debian_root)
    subprocess.check_call(["dpkg", "-x", theirs["liburing2"], debian_root])
    want = {
        "debian": {
            n: digest(os.path.realpath(os.path.join(debian_root, lib[1:], n)))
            for n in ("liburing.so.2", "liburing-ffi.so.2")
        },
        "ours": {
            n: digest(
                os.path.realpath(
                    os.path.join(tree, "debian", "liburing-rs2", lib[1:], "uring-rs", n)
                )
            )
            for n in ("liburing.so.2", "liburing-ffi.so.2")
        },
    }

    def sh(cmd):
        return root.capture(["sh", "-c", cmd])

    def state(expect):
        """Problems with the state against expect ('debian' or 'ours')."""
        bad = []
        # nop.t first: as the dpkg run left the system, before any ldconfig.
        rc, out = sh("cd %s && ./%s" % (stage, os.path.basename(nop)))
        if rc != 0:
            bad.append("nop.t exit %d: %s" % (rc, out.strip()[-200:]))
        for again in (False, True):
            if again:
                sh("ldconfig")
            for n in ("liburing.so.2", "liburing-ffi.so.2"):
                rc, out = sh('sha256sum "$(readlink -f %s/%s)"' % (lib, n))
                got = out.split()[0] if rc == 0 and out.strip() else "missing"
                if got != want[expect][n]:
                    bad.append("%s%s is not %s's" % (n, " after ldconfig" if again else "", expect))
        rc, out = sh("dpkg-divert --list")
        diverted = sorted(
            ln.split()[2] for ln in out.splitlines() if ln.endswith("by uring-rs-switch")
        )
        expected = sorted("%s/%s" % (lib, n) for n in SWITCHED) if expect == "ours" else []
        if diverted != expected:
            bad.append("diversions %s, expected %s" % (diverted, expected))
        if expect == "ours":
            for n in SWITCHED:
                away = "%s/uring-rs-switch/%s" % (lib, n)
                rc, out = sh("test -e %s && echo present" % away)
                installed = sh("dpkg-query -W -f '${Status}' liburing2")[1]
                if installed.endswith(" installed") != ("present" in out):
                    bad.append(
                        "%s %s" % (away, "missing" if "present" not in out else "left behind")
                    )
        else:
            rc, out = sh("ls -d %s/uring-rs-switch 2>/dev/null" % lib)
            if out.strip():
                bad.append("%s/uring-rs-switch left behind" % lib)
        return bad

    steps = [
        ("Debian's liburing2", "dpkg -i %s" % deb["liburing2"], "debian"),
        (
            "liburing-rs2, -dev, uring-info beside it",
            "dpkg -i %s %s %s" % (deb["liburing-rs2"], deb["liburing-rs-dev"], deb["uring-info"]),
            "debian",
        ),
        ("uring-rs-switch", "dpkg -i %s" % deb["uring-rs-switch"], "ours"),
        ("liburing2 reinstalled under the switch", "dpkg -i %s" % deb["liburing2"], "ours"),
        ("liburing2 removed under the switch", "dpkg -r liburing2", "ours"),
        ("liburing2 installed under the switch", "dpkg -i %s" % deb["liburing2"], "ours"),
        ("uring-rs-switch removed", "dpkg -r uring-rs-switch", "debian"),
        (
            "uring-rs-switch again, then purged",
            "dpkg -i %s && dpkg -P uring-rs-switch" % deb["uring-rs-switch"],
            "debian",
        ),
        ("ours purged", "dpkg -P liburing-rs-dev uring-info liburing-rs2", "debian"),
    ]
    lines, failed = [], False
    for label, cmd, expect in steps:
        rc, out = sh(cmd)
        bad = ["%s: exit %d: %s" % (cmd, rc, out.strip()[-300:])] if rc != 0 else []
        bad += state(expect)
        if label == "liburing-rs2, -dev, uring-info beside it":
            rc, out = sh(
                "cd %s && LD_LIBRARY_PATH=%s/uring-rs LD_TRACE_LOADED_OBJECTS=1 ./%s"
                % (stage, lib, os.path.basename(nop))
            )
            if "%s/uring-rs/liburing.so.2" % lib not in out:
                bad.append("LD_LIBRARY_PATH=%s/uring-rs does not select ours" % lib)
            rc, out = sh(
                "cd %s && LD_LIBRARY_PATH=%s/uring-rs ./%s" % (stage, lib, os.path.basename(nop))
            )
            if rc != 0:
                bad.append("nop.t on ours via LD_LIBRARY_PATH: exit %d" % rc)
            rc, out = sh("uring-info >/dev/null")
            if rc != 0:
                bad.append("uring-info: exit %d" % rc)
        if label == "ours purged":
            rc, out = sh(
                "ls -d %s/uring-rs /usr/include/uring-rs /usr/share/uring-rs 2>/dev/null" % lib
            )
            if out.strip():
                bad.append("left behind: " + " ".join(out.split()))
        lines.append(
            "%s: %s %s" % (label, expect, "ok" if not bad else "FAILED: " + "; ".join(bad))
        )
        failed = failed or bool(bad)
    report.add(
        "switch-cycle",
        FAIL if failed else PASS,
        time.time() - t0,
        "after each step: liburing.so.2 and liburing-ffi.so.2 resolve to Debian's or "
        "our file (sha256), before and after ldconfig; the 4 diversions exactly when "
        "switched; nop.t runs (before ldconfig)\n    " + "\n    ".join(lines),
    )


def main(argv):
    ap = argparse.ArgumentParser(
        prog="python3 -m pytools.packaging.check_debian", description=__doc__.split("\n")[0]
    )
    ap.add_argument(
        "--work",
        default=os.path.join(REPO, ".cache", "check-debian"),
        help="scratch directory (default .cache/check-debian)",
    )
    ap.add_argument(
        "--harness-cache",
        default=os.path.join(REPO, ".cache", "liburing-tests"),
        help="liburing-tests cache: source package and upstream builds",
    )
    ap.add_argument(
        "--only",
        choices=("recipe", "sid"),
        help="one of the two builds: Debian's recipe here, or ours in sid",
    )
    ap.add_argument(
        "--no-repro",
        action="store_true",
        help="leave out the second (reproducibility) build in sid",
    )
    ap.add_argument(
        "--nocheck",
        action="store_true",
        help="sid build with DEB_BUILD_OPTIONS=nocheck (a buildd runs the tests)",
    )
    args = ap.parse_args(argv)
    work, t_start = os.path.abspath(args.work), time.time()
    os.makedirs(work, exist_ok=True)
    report = Report()
    logp = os.path.join(work, "check-debian.log")
    with open(logp, "w") as log:
        debian_src = debian_dir(args.harness_cache, log)
        if args.only in (None, "recipe"):
            debian_recipe(work, args, debian_src, log, report)
        if args.only in (None, "sid"):
            report.section = "sid:"
            our_packaging_in_sid(work, args, os.path.dirname(debian_src), log, report)
    report.table()
    for what, where in (
        ("Debian's recipe", os.path.join(work, "build")),
        ("packaging/debian/ in sid", os.path.join(work, "packages")),
    ):
        if glob.glob(os.path.join(where, "*.deb")):
            say("check-debian: the packages of %s are in %s" % (what, where))
    say("check-debian: %.0f s in all; log %s" % (time.time() - t_start, logp))
    failed = report.failed()
    if failed:
        say("check-debian: FAILED: %s" % ", ".join(failed))
    say("check-debian: %d passed, %d failed" % (len(report.rows) - len(failed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
