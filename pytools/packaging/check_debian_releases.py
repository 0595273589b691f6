#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""make check-debian-releases: packaging/debian/ on Debian 12, 13 and sid.

For each release (RELEASES=, default bookworm trixie sid), in a clean root of
that release (build_root.py: debootstrap --variant=buildd, cached under
.cache/check-debian/RELEASE-base; the stable ones with -updates and
-security), as a distribution maintainer would try it. Rows per release:

  build-deps   apt-get build-dep: the release's own toolchain (Debian 12:
               rustc-web and cargo-web through the Build-Depends'
               alternatives), with the versions it installed
  source       the orig tarball, then dpkg-buildpackage -S; on a stable
               release the tree first gets the changelog entry a backport
               upload has (2.15~rs...-1~bpo12+1, bookworm-backports)
  build        from the .dsc alone, as an unprivileged user, no network,
               the package's test included; the .debs and .dsc are then
               copied to .cache/check-debian/releases/RELEASE/ (printed)
  fields       Static-Built-Using names rustc (or rustc-web) and rust-libc
               at the installed versions; liburing-rs2 ships a symbols file
               and no ldconfig trigger; uring-rs-switch activates ldconfig
               and watches liburing2; the pkg-config files carry the RUNPATH
  switch-cycle the release's plocate (a program that sets up io_uring, with
               the release's liburing2) run after every step of: ours
               beside Debian's, the switch, liburing2 reinstalled, removed
               and installed under it, a liburing2 2.16 (Debian's package of
               the release repacked under 2.16's file names) installed under
               it, the switch removed, the release's liburing2 back, the
               switch installed and purged, ours purged. After every step:
               which file plocate maps as liburing.so.2 (device and inode of
               the mapping, packaging/checks/mapped-library.c) and that it
               set up a ring (strace), where liburing.so.2 and
               liburing-ffi.so.2 lead, each versioned file of liburing2 a
               link to ours while switched, every
               liburing entry `ldconfig -p` lists exists (the trigger ran,
               nobody else ran ldconfig), the diversions exactly while
               switched, and no dangling liburing link
  autopkgtest  debian/tests (capi and switch), autopkgtest's null backend
  dependent    packaging/checks/dependent/, a package of a program built
               with liburing-rs-dev's pkg-config flags that calls
               LIBURING_2.5 and 2.10 functions: its Depends, dpkg refusing
               it without liburing-rs2, and it running once that is there
  lintian      the release's lintian on the .debs and the .dsc: no error,
               every warning explained in WARNINGS_EXPLAINED

Ends with a table and "N passed, N failed". Options: --releases, --work.
"""

import argparse
import glob
import os
import re
import shutil
import subprocess
import sys
import time

from pytools import REPO

from . import build_root, check_debian
from .check_debian import FAIL, PASS, Report, clean_copy, output, say

RELEASES = ("bookworm", "trixie", "sid")
# The number in a backport's version (~bpo12+1) and the suite it is uploaded to.
BACKPORT = {"bookworm": ("12", "bookworm-backports"), "trixie": ("13", "trixie-backports")}
# The toolchain installed before apt-get build-dep, where apt alone would pick
# another: on Debian 13 apt satisfies `rustc:native (>= 1.85)` and
# `cargo:native` with rustc-web/cargo-web 1.96 from trixie-security (their
# versioned Provides) rather than trixie's own rustc and cargo 1.85, which a
# user of the release has (sid has no rustc-web; on Debian 12 rustc-web is
# the only rustc new enough).
RELEASE_TOOLCHAIN = {"trixie": ["rustc", "cargo", "libstd-rust-dev"]}
# Warnings of a release's lintian that are not faults of the packaging, and why.
WARNINGS_EXPLAINED = {
    ("bookworm", "unknown-field Static-Built-Using"): "Debian 12's dpkg (1.21) writes the "
    "field, its lintian 2.116 does not know it yet; trixie's and sid's lintian do",
}


def changelog_head():
    with open(os.path.join(REPO, "packaging", "debian", "changelog")) as f:
        text = f.read()
    m = re.search(r"^(\S+) \(([^)]+)\)", text, flags=re.M)
    date = re.search(r"^ -- .*?>  (.+)$", text, flags=re.M).group(1)
    return m.group(1), m.group(2), date, text


def add_backport_entry(tree, release):
    """The changelog entry a backport upload adds on top (devscripts' dch --bpo
    writes the same); returns the new version."""
    import email.utils

    number, suite = BACKPORT[release]
    source, version, date, text = changelog_head()
    new = "%s~bpo%s+1" % (version, number)
    # One day after the entry it backports: a changelog's dates only go forward.
    when = email.utils.format_datetime(
        email.utils.parsedate_to_datetime(date) + __import__("datetime").timedelta(days=1)
    )
    maint = re.search(r"^ -- (.*?>)  ", text, flags=re.M).group(1)
    entry = "%s (%s) %s; urgency=medium\n\n  * Rebuild for %s.\n\n -- %s  %s\n\n" % (
        source,
        new,
        suite,
        suite,
        maint,
        when,
    )
    with open(os.path.join(tree, "debian", "changelog"), "w") as f:
        f.write(entry + text)
    return new


# --------------------------------------------------------------------------- build


def build_release(root, release, work, log, report):
    """Tree, Build-Depends, source package, binary build from the .dsc.
    Returns (inside path of the unpacked .dsc, {package: .deb}, version) or None."""
    source, version, _, _ = changelog_head()
    upstream = version.split("-")[0]
    inside = "%s/%s-%s" % (build_root.BUILD_DIR, source, upstream)
    tree = root.path(inside)
    clean_copy(tree, log)
    shutil.copytree(
        os.path.join(tree, "packaging", "debian"), os.path.join(tree, "debian"), symlinks=True
    )
    if release in BACKPORT:
        version = add_backport_entry(tree, release)
    root.chroot(["chown", "-R", "%s:%s" % ((build_root.BUILD_USER,) * 2), build_root.BUILD_DIR])

    t0 = time.time()
    if release in RELEASE_TOOLCHAIN:
        root.chroot(["apt-get", "-q", "-y", "install"] + RELEASE_TOOLCHAIN[release])
    added = root.install_build_depends(inside)
    tools = ["rustc", "cargo", "rustc-web", "cargo-web", "libstd-rust-dev"]
    tools += ["libstd-rust-web-dev", "librust-libc-dev", "debhelper", "dpkg-dev"]
    have = [
        "%s %s" % (p, v) for p, v in ((p, root.version_of(p)) for p in tools) if v not in ("", "?")
    ]
    have += [
        root.capture(["sh", "-c", "%s --version | head -n 1" % t])[1].strip()
        for t in ("rustc", "cargo")
    ]
    report.add(
        "build-deps",
        PASS,
        time.time() - t0,
        "apt-get build-dep: %d packages (%s)" % (len(added), ", ".join(have)),
    )
    dsc = check_debian.source_package(root, source, version, inside, report)
    if not dsc:
        return None
    inside = "%s/dsc/%s-%s" % (build_root.BUILD_DIR, source, upstream)
    check_debian.make_dirs(root, os.path.dirname(inside))
    root.run_as(["dpkg-source", "-x", dsc, inside], "/")
    t0 = time.time()
    start = log.tell()
    rc = root.build(inside, "parallel=2")
    outdir = os.path.dirname(root.path(inside))
    debs = {
        p: (glob.glob(os.path.join(outdir, "%s_%s_*.deb" % (p, version))) or [None])[0]
        for p in check_debian.OUR_PACKAGES
    }
    if rc != 0 or not all(debs.values()):
        log.flush()
        with open(log.name, errors="replace") as f:
            f.seek(start)
            tail = "\n".join(f.read().strip().splitlines()[-10:])
        report.add("build", FAIL, time.time() - t0, "exit %d; last lines:\n%s" % (rc, tail))
        return None
    keep = os.path.join(work, "releases", release)
    shutil.rmtree(keep, ignore_errors=True)
    os.makedirs(keep)
    for f in glob.glob(os.path.join(outdir, "*")):
        if os.path.isfile(f):
            shutil.copy2(f, keep)
    for f in glob.glob(root.path("%s/%s_%s*" % (build_root.BUILD_DIR, source, upstream))):
        shutil.copy2(f, keep)
    report.add(
        "build",
        PASS,
        time.time() - t0,
        "%s from the .dsc, unshare --net, with the package's test; packages in %s"
        % (version, os.path.relpath(keep, REPO)),
    )
    return inside, debs, version


def check_fields(root, inside, debs, work, report):
    """What the build declared: Static-Built-Using, symbols, triggers, RUNPATH flags."""
    t0 = time.time()
    bad, lines = [], []
    std = root.capture(
        [
            "sh",
            "-c",
            'dpkg-query -S "$(rustc --print sysroot)"/lib/rustlib/*/lib/libcore-*.rlib',
        ]
    )[1]
    owners = sorted({ln.split(":")[0] for ln in std.splitlines() if ":" in ln})
    want = set()
    for pkg in owners + ["librust-libc-dev"]:
        rc, out = root.capture(
            ["dpkg-query", "-W", "-f", "${source:Package} (= ${source:Version})", pkg]
        )
        want.add(out.strip())
    for pkg in ("liburing-rs2", "liburing-rs-dev", "uring-info"):
        got = output(["dpkg-deb", "-f", debs[pkg], "Static-Built-Using"])[1].strip()
        if set(x.strip() for x in got.split(",")) != want:
            bad.append("%s Static-Built-Using '%s', expected %s" % (pkg, got, sorted(want)))
    lines.append(
        "Static-Built-Using: %s (the owners of libcore and the libc crate: %s)"
        % (", ".join(sorted(want)), ", ".join(owners + ["librust-libc-dev"]))
    )
    ctrl = os.path.join(work, "fields", root.suite)
    shutil.rmtree(ctrl, ignore_errors=True)
    os.makedirs(ctrl)
    for pkg in ("liburing-rs2", "uring-rs-switch"):
        subprocess.check_call(["dpkg-deb", "-e", debs[pkg], os.path.join(ctrl, pkg)])
    symbols = os.path.join(ctrl, "liburing-rs2", "symbols")
    if not os.path.isfile(symbols):
        bad.append("liburing-rs2 has no symbols file")
    else:
        with open(symbols) as f:
            text = f.read()
        heads = re.findall(r"^(\S+ \S+ \S+)", text, flags=re.M)
        lines.append(
            "liburing-rs2 symbols: %s, %d symbols" % ("; ".join(heads), text.count("@LIBURING_"))
        )
    if os.path.exists(os.path.join(ctrl, "liburing-rs2", "triggers")):
        bad.append("liburing-rs2 activates a trigger (its libraries are private)")
    with open(os.path.join(ctrl, "uring-rs-switch", "triggers")) as f:
        trig = sorted(ln.strip() for ln in f if ln.strip() and not ln.startswith("#"))
    want_trig = ["activate-noawait ldconfig", "interest-noawait /usr/share/doc/liburing2"]
    if trig != want_trig:
        bad.append("uring-rs-switch triggers %s" % trig)
    lines.append("uring-rs-switch triggers: %s" % "; ".join(trig))
    top = os.path.join(ctrl, "dev")
    subprocess.check_call(["dpkg-deb", "-x", debs["liburing-rs-dev"], top])
    for pc in glob.glob(os.path.join(top, "usr/lib/*/uring-rs/pkgconfig/*.pc")):
        with open(pc) as f:
            libs = re.search(r"^Libs: (.*)$", f.read(), flags=re.M).group(1)
        if "-Wl,-rpath,${libdir}" not in libs:
            bad.append("%s: Libs: %s" % (os.path.basename(pc), libs))
    lines.append("pkg-config Libs: -L${libdir} -Wl,-rpath,${libdir} -luring(-ffi)")
    report.add(
        "fields",
        FAIL if bad else PASS,
        time.time() - t0,
        "; ".join(lines + (["PROBLEMS: " + "; ".join(bad)] if bad else [])),
    )


# --------------------------------------------------------------------------- the switch cycle


def repack_as(deb, new_minor, dest):
    """Debian's liburing2 .deb repacked as a later release would ship it: its
    library files renamed to liburing*.so.2.NEW, the soname links pointing
    there, Version 2.NEW-0. Returns the new .deb."""
    top = os.path.join(dest, "repack")
    shutil.rmtree(top, ignore_errors=True)
    subprocess.check_call(["dpkg-deb", "-R", deb, top])
    for path in glob.glob(os.path.join(top, "usr/lib/*/liburing*.so.2.*")):
        name = os.path.basename(path)
        stem = name[: name.index(".so.2.") + len(".so.2")]
        new = os.path.join(os.path.dirname(path), "%s.%s" % (stem, new_minor))
        if os.path.islink(path):
            os.remove(path)
        else:
            os.rename(path, new)
        link = os.path.join(os.path.dirname(path), stem)
        if os.path.lexists(link):
            os.remove(link)
            os.symlink(os.path.basename(new), link)
    control = os.path.join(top, "DEBIAN", "control")
    with open(control) as f:
        text = f.read()
    text = re.sub(r"^Version: .*$", "Version: 2.%s-0" % new_minor, text, flags=re.M)
    with open(control, "w") as f:
        f.write(text)
    # md5sums name the files; the symbols file, shlibs and triggers stay as they are.
    files = []
    for d, _, names in os.walk(top):
        if "/DEBIAN" in d + "/" and d.startswith(os.path.join(top, "DEBIAN")):
            continue
        for n in names:
            p = os.path.join(d, n)
            if os.path.isfile(p) and not os.path.islink(p):
                files.append(os.path.relpath(p, top))
    with open(os.path.join(top, "DEBIAN", "md5sums"), "w") as f:
        for rel in sorted(files):
            f.write("%s  %s\n" % (output(["md5sum", os.path.join(top, rel)])[1].split()[0], rel))
    out = os.path.join(dest, "liburing2_2.%s-0_repacked.deb" % new_minor)
    subprocess.check_call(
        ["dpkg-deb", "--root-owner-group", "-b", top, out], stdout=subprocess.DEVNULL
    )
    shutil.rmtree(top)
    return out


def switch_cycle(root, debs, report):
    """The switch cycle under the release's plocate (the module's docstring)."""
    t0 = time.time()
    ma = output(["dpkg-architecture", "-qDEB_HOST_MULTIARCH"])[1].strip()
    lib = "/usr/lib/" + ma
    stage = "/tmp/cycle"
    os.makedirs(root.path(stage), exist_ok=True)
    for f in debs.values():
        shutil.copy2(f, root.path(stage))
    deb = {p: "%s/%s" % (stage, os.path.basename(f)) for p, f in debs.items()}

    def sh(cmd, net=False):
        return root.capture(["sh", "-c", cmd], net=net)

    # The release's plocate and liburing2 (and strace, gcc for the preload).
    root.chroot(["apt-get", "-q", "-y", "install", "plocate", "strace"])
    theirs_deb = sorted(glob.glob(os.path.join(root.archives, "liburing2_*.deb")))
    theirs_deb = [
        d for d in theirs_deb if "_%s" % root.version_of("liburing2").replace(":", "%3a") in d
    ]
    if not theirs_deb:
        root.chroot(["sh", "-c", "cd /var/cache/apt/archives && apt-get -q download liburing2"])
        theirs_deb = glob.glob(os.path.join(root.archives, "liburing2_*.deb"))
    shutil.copy2(theirs_deb[0], root.path(stage))
    deb["liburing2"] = "%s/%s" % (stage, os.path.basename(theirs_deb[0]))
    deb["liburing2-2.16"] = "%s/%s" % (
        stage,
        os.path.basename(repack_as(theirs_deb[0], "16", root.path(stage))),
    )
    theirs_version = root.version_of("liburing2")
    plocate_deb = glob.glob(
        os.path.join(
            root.archives, "plocate_%s_*.deb" % root.version_of("plocate").replace(":", "%3a")
        )
    )
    shutil.copy2(plocate_deb[0], root.path(stage))
    deb["plocate"] = "%s/%s" % (stage, os.path.basename(plocate_deb[0]))
    preload = stage + "/mapped-library.so"
    shutil.copy2(os.path.join(REPO, "packaging", "checks", "mapped-library.c"), root.path(stage))
    rc, out = sh("gcc -O2 -shared -fPIC -o %s %s/mapped-library.c" % (preload, stage))
    # plocate's database: the documentation directory, made once.
    rc2, out2 = sh("updatedb.plocate -U /usr/share/doc -l no -o %s/plocate.db" % stage)
    if rc or rc2:
        report.add("switch-cycle", FAIL, time.time() - t0, "setup: %s %s" % (out, out2))
        return

    def identity(path):
        """device:inode of the file path leads to (as the preload reports them)."""
        rc, out = sh('stat -L -c "%%d:%%i" "%s"' % path)
        return out.strip() if rc == 0 else "missing"

    def run_plocate(env=""):
        """The file plocate maps as liburing.so.2 (path, dev:inode), its exit
        status, and the io_uring_setup calls strace saw."""
        mapped = "%s/mapped.txt" % stage
        # plocate is setgid, and the loader ignores LD_PRELOAD in setgid
        # programs: a copy of the installed file without the bit runs.
        sh("rm -f %s %s/strace.txt && cp /usr/bin/plocate %s/plocate" % (mapped, stage, stage))
        rc, out = sh(
            "%s strace -E MAPPED_LIBRARY_OUT=%s -E LD_PRELOAD=%s -f -qq -e trace=io_uring_setup "
            "-o %s/strace.txt %s/plocate -d %s/plocate.db -l 1 copyright"
            % (env, mapped, preload, stage, stage, stage)
        )
        where = ["nothing"]
        if os.path.exists(root.path(mapped)):
            with open(root.path(mapped)) as f:
                where = f.read().split()
        with open(root.path(stage + "/strace.txt")) as f:
            setups = [ln for ln in f.read().splitlines() if "io_uring_setup(" in ln]
        ok_setups = [ln for ln in setups if re.search(r"= \d+$", ln)]
        return where, rc, out, len(ok_setups), len(setups)

    ours_file = "%s/uring-rs/liburing.so.2.15" % lib
    lines, failed = [], False

    def state(label, expect, versioned):
        """Checks of one state; expect 'debian' or 'ours'; versioned: Debian's
        library file name of the installed liburing2 (None: not installed)."""
        bad = []
        # ldconfig -p first: as the dpkg run (and its triggers) left the cache.
        rc, cache = sh("ldconfig -p | grep 'liburing'")
        for m in re.finditer(r"=> (\S+)", cache):
            if sh("test -e %s" % m.group(1))[0] != 0:
                bad.append("ldconfig -p lists %s, which does not exist" % m.group(1))
        cache_lines = sorted(set(ln.strip() for ln in cache.splitlines()))
        theirs_file = "%s/%s" % (lib, versioned) if versioned else None
        if expect == "ours":
            want_file = ours_file
        else:
            want_file = theirs_file
        if sh("command -v plocate")[0] != 0:
            got = "nothing (plocate is not installed)"
        elif want_file is None:
            got = "?"
            bad.append("no liburing2 file to expect")
        else:
            where, rc, out, good, tried = run_plocate()
            got = " ".join(where)
            want_id = identity(want_file)
            if len(where) != 2 or where[1] != want_id:
                bad.append("plocate maps %s, expected %s (%s)" % (got, want_file, want_id))
            if rc != 0:
                bad.append("plocate exit %d: %s" % (rc, out.strip()[-200:]))
            if good < 1:
                bad.append("plocate set up no ring (%d io_uring_setup calls)" % tried)
        # Where both soname links lead (liburing-ffi.so.2 nowhere, when Debian's
        # liburing2 has no liburing-ffi and the switch is not installed).
        ffi_theirs = theirs_file.replace("/liburing.so", "/liburing-ffi.so") if theirs_file else ""
        if sh("test -e %s" % ffi_theirs)[0] != 0:
            ffi_theirs = ""
        want_ffi = (
            ours_file.replace("/liburing.so", "/liburing-ffi.so")
            if expect == "ours"
            else ffi_theirs
        )
        for n, want in (("liburing.so.2", want_file), ("liburing-ffi.so.2", want_ffi)):
            path = sh("readlink -e %s/%s" % (lib, n))[1].strip()
            if want is not None and path != want:
                bad.append("%s leads to '%s', expected '%s'" % (n, path, want))
        rc, out = sh(
            "find -L %s %s/uring-rs-switch -maxdepth 1 -name 'liburing*' -type l 2>/dev/null"
            % (lib, lib)
        )
        if out.strip():
            bad.append("dangling: " + " ".join(out.split()))
        rc, out = sh("dpkg-divert --list '%s/liburing*'" % lib)
        diverted = {ln.split()[2] for ln in out.splitlines() if ln.endswith("by uring-rs-switch")}
        if expect == "ours":
            # The soname links and our 2.15 names, and the versioned files of the
            # liburing2 installed now, each of which then is a link to ours.
            rc, out = sh(
                "dpkg-query -L liburing2 2>/dev/null | grep -E '^%s/liburing(-ffi)?\\.so\\.2\\.[0-9.]+$'"
                % lib
            )
            want_div = {"%s/%s" % (lib, n) for n in check_debian.SWITCHED} | set(out.split())
            if diverted != want_div:
                bad.append("diversions %s, expected %s" % (sorted(diverted), sorted(want_div)))
            for path in set(out.split()) - {"%s/%s" % (lib, n) for n in check_debian.SWITCHED}:
                real = sh("readlink -f %s" % path)[1].strip()
                if not real.startswith("%s/uring-rs/" % lib):
                    bad.append("%s resolves to %s, not ours" % (path, real))
        elif diverted:
            bad.append("diversions left: %s" % sorted(diverted))
        return got, cache_lines, bad

    def versioned_name():
        rc, out = sh(
            "dpkg-query -L liburing2 2>/dev/null | grep -E '/liburing\\.so\\.2\\.[0-9.]+$'"
        )
        return os.path.basename(out.strip()) if rc == 0 and out.strip() else None

    steps = [
        ("Debian's liburing2 %s and plocate" % theirs_version, None, "debian"),
        (
            "liburing-rs2, -dev, uring-info beside it",
            "dpkg -i %s %s %s" % (deb["liburing-rs2"], deb["liburing-rs-dev"], deb["uring-info"]),
            "debian",
        ),
        ("uring-rs-switch installed", "dpkg -i %s" % deb["uring-rs-switch"], "ours"),
        ("liburing2 reinstalled under the switch", "dpkg -i %s" % deb["liburing2"], "ours"),
        (
            "liburing2 removed under the switch (plocate with it)",
            "dpkg -r plocate liburing2",
            "ours",
        ),
        (
            "liburing2 and plocate installed under the switch",
            "dpkg -i %s %s" % (deb["liburing2"], deb["plocate"]),
            "ours",
        ),
        (
            "liburing2 2.16 (repacked) under the switch",
            "dpkg -i %s" % deb["liburing2-2.16"],
            "ours",
        ),
        ("uring-rs-switch removed", "dpkg -r uring-rs-switch", "debian"),
        (
            "the release's liburing2 %s back" % theirs_version,
            "dpkg -i %s" % deb["liburing2"],
            "debian",
        ),
        (
            "uring-rs-switch again, then purged",
            "dpkg -i %s && dpkg -P uring-rs-switch" % deb["uring-rs-switch"],
            "debian",
        ),
        ("ours purged", "dpkg -P liburing-rs-dev uring-info liburing-rs2", "debian"),
    ]
    prev_cache = None
    for label, cmd, expect in steps:
        bad = []
        if cmd:
            rc, out = sh(cmd)
            if rc != 0:
                bad.append("%s: exit %d: %s" % (cmd, rc, out.strip()[-300:]))
        versioned = versioned_name()
        got, cache, problems = state(label, expect, versioned)
        bad += problems
        if label.startswith("liburing-rs2, -dev"):
            where, rc, out, good, _ = run_plocate("LD_LIBRARY_PATH=%s/uring-rs" % lib)
            if len(where) != 2 or where[1] != identity(ours_file) or good < 1:
                bad.append("LD_LIBRARY_PATH=%s/uring-rs: plocate maps %s" % (lib, " ".join(where)))
            else:
                got += "; with LD_LIBRARY_PATH=%s/uring-rs: %s" % (lib, " ".join(where))
        if label == "ours purged":
            rc, out = sh(
                "ls -d %s/uring-rs /usr/include/uring-rs /usr/share/uring-rs 2>/dev/null" % lib
            )
            if out.strip():
                bad.append("left behind: " + " ".join(out.split()))
        line = "%s: %s, plocate maps %s%s" % (
            label,
            expect,
            got,
            "" if not bad else "; FAILED: " + "; ".join(bad),
        )
        if cache != prev_cache:
            line += "\n        ldconfig -p: " + "; ".join(cache)
            prev_cache = cache
        lines.append(line)
        failed = failed or bool(bad)
    ids = "ours %s, Debian's liburing2 %s" % (ours_file, theirs_version)
    report.add(
        "switch-cycle",
        FAIL if failed else PASS,
        time.time() - t0,
        "%s; after each step: the file plocate maps as liburing.so.2 (device:inode of the "
        "mapping = that of the expected file), an io_uring_setup that succeeded, ldconfig -p "
        "entries all exist (no ldconfig run by the check), the diversions, no dangling link\n    "
        % ids
        + "\n    ".join(lines),
    )


# --------------------------------------------------------------------------- a dependent program


def dependent(root, debs, report):
    """packaging/checks/dependent built against liburing-rs-dev in the root, its
    Depends, installed without and with liburing-rs2."""
    t0 = time.time()
    stage = "/tmp/dependent"
    src = stage + "/uring-rs-dependent"
    shutil.rmtree(root.path(stage), ignore_errors=True)
    shutil.copytree(os.path.join(REPO, "packaging", "checks", "dependent"), root.path(src))
    for p in ("liburing-rs2", "liburing-rs-dev"):
        shutil.copy2(debs[p], root.path(stage))
    bad, lines = [], []

    def sh(cmd):
        return root.capture(["sh", "-c", cmd])

    root.chroot(["apt-get", "-q", "-y", "install", "pkgconf"], check=False) and root.chroot(
        ["apt-get", "-q", "-y", "install", "pkg-config"]
    )
    rc, out = sh("dpkg -i %s/liburing-rs2_*.deb %s/liburing-rs-dev_*.deb" % (stage, stage))
    if rc != 0:
        bad.append("dpkg -i ours: %s" % out.strip()[-300:])
    check_debian.make_dirs(root, stage)
    rc = root.run_as(["dpkg-buildpackage", "-b", "-uc", "-us"], src)
    built = glob.glob(root.path(stage + "/uring-rs-dependent_1_*.deb"))
    if rc != 0 or not built:
        report.add("dependent", FAIL, time.time() - t0, "dpkg-buildpackage exit %d" % rc)
        return
    name = "%s/%s" % (stage, os.path.basename(built[0]))
    # The same program linked without pkg-config's flags (-L only, no RUNPATH):
    # it gets the release's liburing2 at run time.
    rc, out = sh(
        "cd %s && cc -o plain uses-2.10.c -I/usr/include/uring-rs "
        "-L/usr/lib/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/uring-rs -luring && ./plain 2>&1 | tail -n 1"
        % src
    )
    plain = out.strip().splitlines()[-1] if out.strip() else "exit %d" % rc
    depends = output(["dpkg-deb", "-f", built[0], "Depends"])[1].strip()
    runpath = re.findall(
        r"RUNPATH.*\[(.*)\]", output(["readelf", "-d", root.path(src + "/uses-2.10")])[1]
    )
    lines.append("Depends: %s; RUNPATH %s" % (depends, runpath))
    lines.append("linked without the pkg-config flags, on the release's liburing2: %s" % plain)
    if not re.search(r"liburing-rs2 \(>= [^)]+\)", depends):
        bad.append("no versioned liburing-rs2 dependency")
    # Without liburing-rs2: dpkg must refuse to configure it.
    sh("dpkg -P liburing-rs-dev liburing-rs2")
    rc, out = sh("dpkg -i %s" % name)
    refusal = [ln.strip() for ln in out.splitlines() if "depends on" in ln or "not installed" in ln]
    lines.append("without liburing-rs2: dpkg -i exit %d: %s" % (rc, " / ".join(refusal)))
    if rc == 0:
        bad.append("dpkg -i succeeded without liburing-rs2")
    rc, out = sh("dpkg -i %s/liburing-rs2_*.deb && dpkg --configure -a && uses-2.10" % stage)
    lines.append("with it: exit %d: %s" % (rc, " / ".join(out.strip().splitlines()[-2:])))
    if rc != 0:
        bad.append("uses-2.10 with liburing-rs2 installed: exit %d" % rc)
    sh("dpkg -P uring-rs-dependent liburing-rs2")
    report.add(
        "dependent",
        FAIL if bad else PASS,
        time.time() - t0,
        "; ".join(lines + (["PROBLEMS: " + "; ".join(bad)] if bad else [])),
    )


# --------------------------------------------------------------------------- lintian


def lintian_findings(out, release):
    """lintian's output as {kind: {(package, tag)}}; a warning whose tag and
    first argument WARNINGS_EXPLAINED names for the release keeps the argument
    (unknown-field Static-Built-Using), so that only that field is explained."""
    found = {}
    for line in out.splitlines():
        # "W: package: tag [context]", "W: package: tag ARGUMENT [context]",
        # "I: source source: tag"
        m = re.match(r"^([EWIPXO]): (\S+?)(?: \w+)?: (\S+)( [^\[]\S*)?", line)
        if m:
            tag = m.group(3)
            if m.group(1) == "W" and (release, tag + (m.group(4) or "")) in WARNINGS_EXPLAINED:
                tag += m.group(4)
            found.setdefault(m.group(1), set()).add((m.group(2), tag))
    return found


def lintian(root, release, inside, debs, report):
    """The release's lintian on the .debs and the .dsc: errors and unexplained
    warnings fail; informational and pedantic tags are listed, not judged
    (check-debian judges sid's against Debian's own packages)."""
    t0 = time.time()
    root.chroot(["apt-get", "-q", "-y", "install", "lintian"])
    version = root.version_of("lintian")
    outdir = os.path.dirname(inside)
    dsc = glob.glob(root.path("%s/*.dsc" % build_root.BUILD_DIR))
    targets = ["%s/%s" % (outdir, os.path.basename(d)) for d in debs.values()]
    targets += ["%s/%s" % (build_root.BUILD_DIR, os.path.basename(d)) for d in dsc]
    rc, out = root.capture(
        ["lintian", "-I", "--pedantic", "--show-overrides", "--tag-display-limit", "0"] + targets
    )
    found = lintian_findings(out, release)
    errors = sorted(found.get("E", ()))
    unexplained, explained = [], []
    # Unreleased (sid's build has no backport entry on top): the entry that
    # uploads closes the ITP bug, as check-debian accepts it.
    unreleased = " UNRELEASED;" in changelog_head()[3].split("\n", 1)[0]
    for pkg, tag in sorted(found.get("W", ())):
        why = WARNINGS_EXPLAINED.get((release, tag))
        if not why and unreleased and release not in BACKPORT:
            why = check_debian.UNRELEASED_ONLY.get(tag)
        (explained if why else unexplained).append((pkg, tag, why))
    say("check-debian-releases: %s lintian %s:\n%s" % (release, version, out.strip() or "(clean)"))
    detail = "lintian %s -I --pedantic, .debs and .dsc: %d errors, %d warnings (%d explained)" % (
        version,
        len(errors),
        len(explained) + len(unexplained),
        len(explained),
    )
    detail += "; I %d, P %d, overridden %d" % tuple(len(found.get(k, ())) for k in "IPO")
    for pkg, tag, why in explained:
        detail += "\n    W %s: %s: %s" % (pkg, tag, why)
    for pkg, tag in errors:
        detail += "\n    E %s: %s" % (pkg, tag)
    for pkg, tag, _ in unexplained:
        detail += "\n    W %s: %s (NOT EXPLAINED)" % (pkg, tag)
    for kind in ("O", "I", "P"):
        tags = sorted({t for _, t in found.get(kind, ())})
        if tags:
            detail += "\n    %s: %s" % (kind, ", ".join(tags))
    report.add("lintian", FAIL if errors or unexplained else PASS, time.time() - t0, detail)


# --------------------------------------------------------------------------- main


def one_release(release, work, log, report):
    report.section = release + ":"
    t0 = time.time()
    root = build_root.BuildRoot(work, log, release)
    secs, how = root.ensure_base()
    root.fresh_root()
    report.add(
        "root",
        PASS,
        time.time() - t0,
        "debootstrap --variant=buildd %s: %s (%.0f s), fresh overlay" % (release, how, secs),
    )
    try:
        built = build_release(root, release, work, log, report)
        if not built:
            return
        inside, debs, version = built
        check_fields(root, inside, debs, work, report)
        switch_cycle(root, debs, report)
        check_debian.run_autopkgtest(root, inside, report)
        dependent(root, debs, report)
        lintian(root, release, inside, debs, report)
    finally:
        root.close()


def main(argv):
    ap = argparse.ArgumentParser(
        prog="python3 -m pytools.packaging.check_debian_releases",
        description=__doc__.split("\n")[0],
    )
    ap.add_argument("--work", default=os.path.join(REPO, ".cache", "check-debian"))
    ap.add_argument(
        "--releases",
        default=os.environ.get("RELEASES") or " ".join(RELEASES),
        help="space-separated (default: %s)" % " ".join(RELEASES),
    )
    args = ap.parse_args(argv)
    releases = args.releases.split()
    for r in releases:
        if r not in RELEASES:
            ap.error("unknown release %s (one of %s)" % (r, " ".join(RELEASES)))
    work, t_start = os.path.abspath(args.work), time.time()
    os.makedirs(work, exist_ok=True)
    report = Report()
    logp = os.path.join(work, "check-debian-releases.log")
    with open(logp, "w") as log:
        check_debian.install_tools(None, log)
        for release in releases:
            t0 = time.time()
            one_release(release, work, log, report)
            say("check-debian-releases: %s took %.0f s" % (release, time.time() - t0))
    report.table()
    for release in releases:
        keep = os.path.join(work, "releases", release)
        if os.path.isdir(keep):
            say("check-debian-releases: %s packages in %s" % (release, keep))
    say("check-debian-releases: %.0f s in all; log %s" % (time.time() - t_start, logp))
    failed = report.failed()
    if failed:
        say("check-debian-releases: FAILED: %s" % ", ".join(failed))
    say("%d passed, %d failed" % (len(report.rows) - len(failed), len(failed)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
