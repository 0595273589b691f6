#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The one provider of upstream liburing 2.15: its Debian source package
fetched (pytools/upstream/aptfetch.py, deb-src of sid/forky on this machine's mirror) and
unpacked, built by its own build (`./configure && make`, the tests too) and
installed into a stage, all cached. Every user of upstream asks here: the
liburing-tests harness, bench, check-differential, fuzz, check-man,
check-debian and tools/arch.

    python3 -m pytools.upstream.upstream [--cache DIR] source          prints the unpacked source tree
    python3 -m pytools.upstream.upstream [--cache DIR] [-j N] build    prints upstream's build tree
    python3 -m pytools.upstream.upstream [--cache DIR] [-j N] stage    prints the stage (DESTDIR: usr/include, usr/lib)
    python3 -m pytools.upstream.upstream [--cache DIR] --cached WHAT   prints it only if it is there already

Each makes sure what it prints exists (fetching and building when needed;
progress on stderr); with --cached nothing is fetched, built or written, and
the exit status is 1 when the path is not there yet (for tests that use
upstream when an earlier step made it, and skip a case otherwise).
LIBURING_SRC=/path/to/liburing-source stands in for the source package. The cache (default <repo>/.cache/liburing-tests):
  apt/  dl/<version>/  src/liburing_<version>/  build/reference/  stage-upstream/
  logs/fetch.log  logs/build-reference.log
"""

import argparse
import contextlib
import fcntl
import json
import os
import re
import shutil
import sys
import time

from pytools import REPO

from . import aptfetch  # the one downloader
from .proc import capture, die, loud, rmtree, run_logged, say

PIN_PACKAGE = "liburing"
# LIBURING_TESTS_PIN exists to exercise the fallback path; leave it unset.
PIN_VERSION = os.environ.get("LIBURING_TESTS_PIN") or "2.15-1"
SRC_SUITES = ("sid", "forky")
# Part of the build stamp: a change here rebuilds every cache's reference tree.
BUILD_FORMAT = 1

DEFAULT_CACHE = os.path.join(REPO, ".cache", "liburing-tests")


def reference_tree(cache):
    return os.path.join(cache, "build", "reference")


def stage_dir(cache):
    """Upstream's `make install DESTDIR=`: <stage>/usr/include, <stage>/usr/lib."""
    return os.path.join(cache, "stage-upstream")


@contextlib.contextmanager
def locked(cache):
    """One fetch or build of upstream at a time per cache."""
    os.makedirs(cache, exist_ok=True)
    with open(os.path.join(cache, ".upstream.lock"), "w") as lockf:
        try:
            fcntl.flock(lockf, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            say("another process is fetching or building upstream in %s; waiting" % cache)
            fcntl.flock(lockf, fcntl.LOCK_EX)
        yield


# --------------------------------------------------------------------------- source


def unpack_dsc(dsc, dest, log):
    rmtree(dest)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    if shutil.which("dpkg-source"):
        run_logged(["dpkg-source", "-x", dsc, dest], log, cwd=os.path.dirname(dsc))
        return
    # No dpkg-dev: take the upstream tarball (what dpkg-source would start from).
    d = os.path.dirname(dsc)
    tars = [f for f in os.listdir(d) if ".orig.tar." in f and not f.endswith(".asc")]
    if not tars:
        die("no upstream tarball next to %s" % dsc)
    tmp = dest + ".tmp"
    rmtree(tmp)
    os.makedirs(tmp)
    run_logged(["tar", "-xf", os.path.join(d, tars[0]), "-C", tmp], log)
    inner = os.listdir(tmp)
    os.rename(os.path.join(tmp, inner[0]) if len(inner) == 1 else tmp, dest)
    rmtree(tmp)


def source(cache, log):
    """Returns (path to an unpacked liburing source tree, description)."""
    local = os.environ.get("LIBURING_SRC")
    if local:
        local = os.path.abspath(local)
        if not os.path.isfile(os.path.join(local, "configure")) or not os.path.isdir(
            os.path.join(local, "test")
        ):
            die("LIBURING_SRC=%s is not a liburing source tree" % local)
        return local, "local tree " + local
    srcroot = os.path.join(cache, "src")
    pinned = os.path.join(srcroot, "%s_%s" % (PIN_PACKAGE, PIN_VERSION))
    if os.path.isfile(os.path.join(pinned, ".harness-unpacked")):
        return pinned, "Debian source package %s %s (cached)" % (PIN_PACKAGE, PIN_VERSION)
    with locked(cache):
        return fetch_source(cache, srcroot, log)


def fetch_source(cache, srcroot, log):
    for tool in ("apt-get", "apt-cache", "dpkg"):
        if not shutil.which(tool):
            die(
                "%s not found: cannot fetch the Debian source package; "
                "set LIBURING_SRC=/path/to/liburing-source" % tool
            )
    fetcher = aptfetch.PrivateApt(os.path.join(cache, "apt"), SRC_SUITES, types="deb-src", log=log)
    try:
        origin = fetcher.configure()
    except aptfetch.AptError as e:
        die("%s; set LIBURING_SRC=/path/to/liburing-source instead" % e)
    say(
        "fetching Debian source package %s=%s (deb-src %s, derived from %s)"
        % (PIN_PACKAGE, PIN_VERSION, "/".join(SRC_SUITES), origin)
    )
    vers = fetcher.versions(PIN_PACKAGE)
    if PIN_VERSION not in vers:
        fetcher.update()
        vers = fetcher.versions(PIN_PACKAGE)
    if not vers:
        die(
            "no %s source package found in %s (see %s)"
            % (PIN_PACKAGE, "/".join(SRC_SUITES), log.name)
        )
    version = PIN_VERSION
    if PIN_VERSION not in vers:
        version = vers[-1]
        loud(
            "%s %s is no longer available in %s.\nFalling back to the newest available "
            "version: %s.\nResults are NOT against the pinned release."
            % (PIN_PACKAGE, PIN_VERSION, "/".join(SRC_SUITES), version)
        )
    dl = os.path.join(cache, "dl", version)
    if fetcher.source(dl, "%s=%s" % (PIN_PACKAGE, version), check=False) != 0:
        die("apt-get source %s=%s failed (see %s)" % (PIN_PACKAGE, version, log.name))
    dscs = [f for f in os.listdir(dl) if f.endswith(".dsc")]
    if len(dscs) != 1:
        die("expected one .dsc in %s, found %s" % (dl, dscs))
    dest = os.path.join(srcroot, "%s_%s" % (PIN_PACKAGE, version))
    unpack_dsc(os.path.join(dl, dscs[0]), dest, log)
    with open(os.path.join(dest, ".harness-unpacked"), "w") as f:
        f.write(version + "\n")
    desc = "Debian source package %s %s" % (PIN_PACKAGE, version)
    if version != PIN_VERSION:
        desc += " (FALLBACK: pinned %s unavailable)" % PIN_VERSION
    return dest, desc


# --------------------------------------------------------------------------- build


def fresh_tree(src, tree, log):
    """A private copy of the source tree, cleaned and configured."""
    rmtree(tree)
    shutil.copytree(src, tree, symlinks=True, ignore=shutil.ignore_patterns(".git", ".harness-*"))
    run_logged(["make", "clean"], log, cwd=tree, check=False)
    run_logged(["./configure"], log, cwd=tree)


def build(cache, src, src_desc, jobs=2, rebuild=False):
    """Upstream's own build of src in reference_tree(cache) (library, examples,
    tests), installed into stage_dir(cache); kept while the source, CC and
    CFLAGS are the same. Returns the build tree."""
    ref, stage = reference_tree(cache), stage_dir(cache)
    key = {
        "src": src,
        "desc": src_desc,
        "cc": os.environ.get("CC"),
        "cflags": os.environ.get("CFLAGS"),
        "format": BUILD_FORMAT,
    }

    def same_source(k):
        # The same package whether it was fetched by this process or cached.
        return dict(k, desc=k.get("desc", "").replace(" (cached)", ""))

    stamp = os.path.join(ref, ".harness-stamp")
    with locked(cache):
        if not rebuild and os.path.isfile(stamp):
            try:
                with open(stamp) as f:
                    if same_source(json.load(f)) == same_source(key) and os.path.isdir(stage):
                        say("reference build: up to date (%s)" % ref)
                        return ref
            except (OSError, ValueError):
                pass
        t0 = time.time()
        logs = os.path.join(cache, "logs")
        os.makedirs(logs, exist_ok=True)
        logp = os.path.join(logs, "build-reference.log")
        j = "-j%d" % jobs
        with open(logp, "w") as log:
            say("reference build: ./configure && make %s (log: %s)" % (j, logp))
            fresh_tree(src, ref, log)
            run_logged(["make", j, "-C", "src"], log, cwd=ref)
            run_logged(["make", j, "-k"], log, cwd=ref, check=False)
            run_logged(["make", j, "-k", "-C", "test"], log, cwd=ref, check=False)
            rmtree(stage)
            run_logged(["make", "install", "DESTDIR=" + stage], log, cwd=ref)
        with open(stamp, "w") as f:
            json.dump(key, f)
        say("reference build: done in %.0f s" % (time.time() - t0))
    return ref


def shared_object(cache):
    """Upstream's liburing.so.2.x in its build tree."""
    d = os.path.join(reference_tree(cache), "src")
    for f in sorted(os.listdir(d)):
        if re.match(r"liburing\.so\.\d+\.\d+$", f):
            return os.path.join(d, f)
    die("upstream's liburing.so.2.x not found in %s" % d)


def internal_symbols(cache):
    """Symbols defined by upstream's liburing.a but not exported by its liburing.so."""
    a = os.path.join(reference_tree(cache), "src", "liburing.a")
    rc1, out_a = capture(["nm", "-g", "--defined-only", a])
    rc2, out_so = capture(["nm", "-D", "--defined-only", shared_object(cache)])
    if rc1 or rc2:
        return set()
    static = {l.split()[-1] for l in out_a.splitlines() if len(l.split()) == 3}
    dynamic = {l.split()[-1].split("@")[0] for l in out_so.splitlines() if len(l.split()) == 3}
    return static - dynamic


def provide(cache, what, jobs=2, rebuild=False):
    """The path `what` ("source", "build" or "stage") names, made sure to exist."""
    cache = os.path.abspath(cache)
    os.makedirs(os.path.join(cache, "logs"), exist_ok=True)
    with open(os.path.join(cache, "logs", "fetch.log"), "a") as log:
        src, desc = source(cache, log)
    if what == "source":
        return src
    ref = build(cache, src, desc, jobs, rebuild)
    return ref if what == "build" else stage_dir(cache)


def cached(cache, what):
    """The path `what` names if an earlier fetch or build made it, else None:
    the source once unpacked (or LIBURING_SRC), the build and the stage once
    the build's stamp is written (the stage is installed before it)."""
    cache = os.path.abspath(cache)
    if what == "source":
        local = os.environ.get("LIBURING_SRC")
        if local:
            path = os.path.abspath(local)
            return path if os.path.isdir(path) else None
        path = os.path.join(cache, "src", "%s_%s" % (PIN_PACKAGE, PIN_VERSION))
        return path if os.path.isfile(os.path.join(path, ".harness-unpacked")) else None
    ref = reference_tree(cache)
    if not os.path.isfile(os.path.join(ref, ".harness-stamp")):
        return None
    path = ref if what == "build" else stage_dir(cache)
    return path if os.path.isdir(path) else None


def main(argv):
    from . import proc

    proc.PREFIX, proc.OUT = "upstream", sys.stderr
    ap = argparse.ArgumentParser(
        prog="python3 -m pytools.upstream.upstream",
        description="Fetch, build and stage upstream liburing; print the path.",
    )
    ap.add_argument("what", choices=("source", "build", "stage"))
    ap.add_argument(
        "--cache",
        default=DEFAULT_CACHE,
        help="cache directory (default <repo>/.cache/liburing-tests)",
    )
    ap.add_argument("-j", "--jobs", type=int, default=2, help="make -j (default 2)")
    ap.add_argument("--rebuild", action="store_true", help="rebuild even if up to date")
    ap.add_argument(
        "--cached",
        action="store_true",
        help="print the path only if it exists already (exit 1 if not); never fetch or build",
    )
    args = ap.parse_args(argv)
    if args.cached:
        path = cached(args.cache, args.what)
        if path is None:
            return 1
        print(path)
        return 0
    print(provide(args.cache, args.what, args.jobs, args.rebuild))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
