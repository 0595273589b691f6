#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run liburing's own test suite (and examples) against our drop-in library.

Modes (see README.md):
  reference  upstream's tests, built by upstream's build, on upstream's library
  source     the same test sources compiled against OUR headers, linked to OUR liburing.a
  binary     tests built against upstream's headers and liburing.so.2, run with OUR
             liburing.so.2 first on LD_LIBRARY_PATH
  examples   upstream's examples/ built against OUR headers + liburing.a (and, for the
             baseline, as upstream builds them), run on scratch files

Nothing from upstream is stored in the repository: the Debian source package is
downloaded into the (git-ignored) cache directory.
"""

import argparse
import errno
import fcntl
import filecmp
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time

import abi_check
import pairs

PIN_PACKAGE = "liburing"
# LIBURING_TESTS_PIN exists to exercise the fallback path; leave it unset.
PIN_VERSION = os.environ.get("LIBURING_TESTS_PIN") or "2.15-1"
SRC_SUITES = ("sid", "forky")
SRC_COMPONENT = "main"
APT_SOURCE_FILES = ("/etc/apt/sources.list.d/debian.sources",)
HARNESS_FORMAT = 1

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

TEST_MODES = ("reference", "source", "binary", "traced")
ALL_MODES = TEST_MODES + ("examples",)
DROPIN_MODES = ("source", "binary", "traced")
# "traced": the binary drop-in run again with our diagnostics switched on
# (a trace file per test, LIBURING_DEBUG=1): tracing must change no outcome.
BINARY_MODES = ("binary", "traced")
TRACED_ENV = ("LIBURING_TRACE={tracedir}/{test}.trace", "LIBURING_DEBUG=1")

# Outcome kinds.
PASS, SKIP, FAIL, TIMEOUT, NOBUILD, NA = "pass", "skip", "fail", "timeout", "nobuild", "n/a"
KINDS = (PASS, SKIP, FAIL, TIMEOUT, NOBUILD, NA)

# Kernel log lines that upstream's runtests.sh treats as a failure of the test
# that was running when they appeared.
DMESG_BAD = (
    "kernel BUG at", "WARNING:", "BUG:", "Oops:", "possible recursive locking detected",
    "Internal error", "INFO: suspicious RCU usage",
    "INFO: possible circular locking dependency detected", "general protection fault:",
    "blktests failure",
)

VERBOSE = False


# --------------------------------------------------------------------------- utilities

def say(msg=""):
    print(msg, flush=True)


def warn(msg):
    print("liburing-tests: " + msg, file=sys.stderr, flush=True)


def die(msg, code=2):
    warn("error: " + msg)
    sys.exit(code)


def loud(msg):
    bar = "!" * 78
    for stream in (sys.stdout, sys.stderr):
        print(bar, file=stream)
        for line in msg.splitlines():
            print("!!! " + line, file=stream)
        print(bar, file=stream, flush=True)


def build_env():
    """Environment for upstream's makefiles: without the caller's make state."""
    env = dict(os.environ)
    for key in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES", "GNUMAKEFLAGS"):
        env.pop(key, None)
    env["LC_ALL"] = "C"
    return env


def run_logged(cmd, log, cwd=None, env=None, check=True):
    """Run cmd, appending its output to the open file `log`. Returns the exit code."""
    log.write("\n$ (cd %s && %s)\n" % (cwd or os.getcwd(), " ".join(cmd)))
    log.flush()
    rc = subprocess.call(cmd, cwd=cwd, env=env or build_env(), stdin=subprocess.DEVNULL,
                         stdout=log, stderr=subprocess.STDOUT)
    log.write("[exit %d]\n" % rc)
    log.flush()
    if check and rc != 0:
        die("command failed (exit %d): %s\n  see %s" % (rc, " ".join(cmd), log.name))
    return rc


def capture(cmd, cwd=None, env=None):
    p = subprocess.run(cmd, cwd=cwd, env=env or build_env(), stdin=subprocess.DEVNULL,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       universal_newlines=True, errors="replace")
    return p.returncode, p.stdout


def rmtree(path):
    if os.path.islink(path) or os.path.isfile(path):
        os.unlink(path)
    elif os.path.isdir(path):
        shutil.rmtree(path)


def kernel_id():
    u = os.uname()
    return "%s %s %s" % (u.release, u.version, u.machine)


def fmt_outcome(rec):
    if rec is None:
        return "-"
    kind, detail = rec["kind"], rec.get("detail")
    return "%s(%s)" % (kind, detail) if detail else kind


# --------------------------------------------------------------------------- apt / source

def parse_deb822(text):
    stanzas, cur, last = [], {}, None
    for raw in text.splitlines():
        if raw.startswith("#"):
            continue
        if not raw.strip():
            if cur:
                stanzas.append(cur)
            cur, last = {}, None
            continue
        if raw[0] in " \t" and last:
            cur[last] += "\n" + raw
            continue
        if ":" in raw:
            key, val = raw.split(":", 1)
            last = key.strip()
            cur[last] = val.strip()
    if cur:
        stanzas.append(cur)
    return stanzas


def field(stanza, name):
    for k, v in stanza.items():
        if k.lower() == name.lower():
            return v
    return None


def derive_archive():
    """Find the Debian archive this machine uses: (URIs, Signed-By or None).

    Taken from the main-archive stanza (the one whose suite has no '-updates',
    '-security' ... suffix) of the machine's own deb822 apt sources; falls back to a
    one-line `deb` entry of /etc/apt/sources.list."""
    candidates = list(APT_SOURCE_FILES)
    extra = sorted(f for f in os.listdir("/etc/apt/sources.list.d")
                   if f.endswith(".sources")) if os.path.isdir("/etc/apt/sources.list.d") else []
    candidates += [os.path.join("/etc/apt/sources.list.d", f) for f in extra]
    seen = set()
    for path in candidates:
        if path in seen or not os.path.isfile(path):
            continue
        seen.add(path)
        with open(path) as f:
            stanzas = parse_deb822(f.read())
        for st in stanzas:
            types = (field(st, "Types") or "").split()
            suites = (field(st, "Suites") or "").split()
            uris = (field(st, "URIs") or "").split()
            enabled = (field(st, "Enabled") or "yes").lower() != "no"
            if "deb" not in types or not uris or not enabled:
                continue
            if not any("-" not in s and "/" not in s for s in suites):
                continue
            return uris, field(st, "Signed-By"), path
    legacy = "/etc/apt/sources.list"
    if os.path.isfile(legacy):
        with open(legacy) as f:
            for line in f:
                m = re.match(r"\s*deb\s+(\[[^\]]*\]\s+)?(\S+)\s+(\S+)", line)
                if m and "-" not in m.group(3):
                    opts = m.group(1) or ""
                    sb = re.search(r"signed-by=(\S+?)[\s\]]", opts)
                    return [m.group(2)], (sb.group(1) if sb else None), legacy
    return None


class Apt:
    """apt-get / apt-cache with a private source list, lists and cache in our cache dir.

    types: the deb822 Types of the private source ("deb-src" for the source package;
    packaging/check_debian.py asks for "deb" to download Debian's binaries)."""

    def __init__(self, cache, types="deb-src"):
        self.types = types
        self.dir = os.path.join(cache, "apt")
        self.parts = os.path.join(self.dir, "sources.list.d")
        self.lists = os.path.join(self.dir, "lists")
        self.pkgcache = os.path.join(self.dir, "cache")
        self.sourcelist = os.path.join(self.dir, "empty.list")

    def opts(self):
        return ["-o", "Dir::Etc::sourcelist=" + self.sourcelist,
                "-o", "Dir::Etc::sourceparts=" + self.parts,
                "-o", "Dir::State::Lists=" + self.lists,
                "-o", "Dir::Cache=" + self.pkgcache,
                "-o", "APT::Sandbox::User=root",
                "-o", "Acquire::Languages=none",
                "-o", "APT::Get::List-Cleanup=false",
                # sid's Release file on a snapshot mirror is often past its
                # Valid-Until; signatures are still checked.
                "-o", "Acquire::Check-Valid-Until=false"]

    def configure(self):
        found = derive_archive()
        if not found:
            die("cannot derive a Debian archive from this machine's apt configuration "
                "(%s); set LIBURING_SRC=/path/to/liburing-source instead"
                % ", ".join(APT_SOURCE_FILES))
        uris, signed_by, origin = found
        for d in (self.parts, os.path.join(self.lists, "partial"),
                  os.path.join(self.pkgcache, "archives", "partial")):
            os.makedirs(d, exist_ok=True)
        open(self.sourcelist, "w").close()
        text = ["# Generated by liburing-tests from %s" % origin,
                "Types: " + self.types,
                "URIs: " + " ".join(uris),
                "Suites: " + " ".join(SRC_SUITES),
                "Components: " + SRC_COMPONENT]
        if signed_by:
            text.append("Signed-By: " + signed_by)
        with open(os.path.join(self.parts, "liburing-tests.sources"), "w") as f:
            f.write("\n".join(text) + "\n")
        return origin

    def update(self, log):
        run_logged(["apt-get", "-q"] + self.opts() + ["update"], log)

    def versions(self):
        rc, out = capture(["apt-cache"] + self.opts() + ["showsrc", PIN_PACKAGE])
        if rc != 0:
            return []
        vers, pkg = [], None
        for line in out.splitlines():
            if line.startswith("Package:"):
                pkg = line.split(":", 1)[1].strip()
            elif line.startswith("Version:") and pkg == PIN_PACKAGE:
                vers.append(line.split(":", 1)[1].strip())
        return sorted(set(vers), key=DebVersion)

    def download(self, version, dest, log):
        os.makedirs(dest, exist_ok=True)
        run_logged(["apt-get", "-q"] + self.opts() +
                   ["source", "--download-only", "%s=%s" % (PIN_PACKAGE, version)],
                   log, cwd=dest)


class DebVersion:
    """Orders Debian version strings with dpkg itself."""

    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        return subprocess.call(["dpkg", "--compare-versions", self.v, "lt", other.v]) == 0

    def __eq__(self, other):
        return self.v == other.v


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


def obtain_source(cache, log):
    """Returns (path to an unpacked liburing source tree, description)."""
    local = os.environ.get("LIBURING_SRC")
    if local:
        local = os.path.abspath(local)
        if not os.path.isfile(os.path.join(local, "configure")) or \
                not os.path.isdir(os.path.join(local, "test")):
            die("LIBURING_SRC=%s is not a liburing source tree" % local)
        return local, "local tree " + local
    srcroot = os.path.join(cache, "src")
    pinned = os.path.join(srcroot, "%s_%s" % (PIN_PACKAGE, PIN_VERSION))
    if os.path.isfile(os.path.join(pinned, ".harness-unpacked")):
        return pinned, "Debian source package %s %s (cached)" % (PIN_PACKAGE, PIN_VERSION)
    for tool in ("apt-get", "apt-cache", "dpkg"):
        if not shutil.which(tool):
            die("%s not found: cannot fetch the Debian source package; "
                "set LIBURING_SRC=/path/to/liburing-source" % tool)
    apt = Apt(cache)
    origin = apt.configure()
    say("fetching Debian source package %s=%s (deb-src %s, derived from %s)"
        % (PIN_PACKAGE, PIN_VERSION, "/".join(SRC_SUITES), origin))
    vers = apt.versions()
    if PIN_VERSION not in vers:
        apt.update(log)
        vers = apt.versions()
    if not vers:
        die("no %s source package found in %s (see %s)" % (PIN_PACKAGE, "/".join(SRC_SUITES),
                                                           log.name))
    version = PIN_VERSION
    if PIN_VERSION not in vers:
        version = vers[-1]
        loud("%s %s is no longer available in %s.\nFalling back to the newest available "
             "version: %s.\nResults are NOT against the pinned release."
             % (PIN_PACKAGE, PIN_VERSION, "/".join(SRC_SUITES), version))
    dl = os.path.join(cache, "dl", version)
    apt.download(version, dl, log)
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


# --------------------------------------------------------------------------- builds

PRINT_MK = """\
include Makefile
harness-print-%s:
\t@echo $(%s)
"""


def make_list(tree, subdir, var, cache):
    mk = os.path.join(cache, "print-%s.mk" % var)
    with open(mk, "w") as f:
        f.write(PRINT_MK % (var, var))
    rc, out = capture(["make", "-s", "--no-print-directory", "-C", os.path.join(tree, subdir),
                       "-f", mk, "harness-print-" + var])
    if rc != 0:
        die("cannot list %s of %s:\n%s" % (var, tree, out))
    return out.split()


def fresh_tree(src, tree, log):
    """A private copy of the source tree, cleaned and configured."""
    rmtree(tree)
    shutil.copytree(src, tree, symlinks=True,
                    ignore=shutil.ignore_patterns(".git", ".harness-*"))
    run_logged(["make", "clean"], log, cwd=tree, check=False)
    run_logged(["./configure"], log, cwd=tree)


def test_names(targets):
    return [t[:-2] for t in targets if t.endswith(".t")]


class Builds:
    def __init__(self, args, src, cache):
        self.args, self.src, self.cache = args, src, cache
        self.root = os.path.join(cache, "build")
        self.logs = os.path.join(cache, "logs")
        os.makedirs(self.root, exist_ok=True)
        os.makedirs(self.logs, exist_ok=True)
        self.ref = os.path.join(self.root, "reference")
        self.upstream_stage = os.path.join(cache, "stage-upstream")

    def jobs(self):
        return "-j%d" % self.args.jobs

    # ---- reference: upstream's own build
    def reference(self, src_desc):
        key = {"src": self.src, "desc": src_desc, "cc": os.environ.get("CC"),
               "cflags": os.environ.get("CFLAGS"), "format": HARNESS_FORMAT}
        stamp = os.path.join(self.ref, ".harness-stamp")
        if not self.args.rebuild and os.path.isfile(stamp):
            try:
                with open(stamp) as f:
                    if json.load(f) == key and os.path.isdir(self.upstream_stage):
                        say("reference build: up to date (%s)" % self.ref)
                        return
            except (OSError, ValueError):
                pass
        t0 = time.time()
        logp = os.path.join(self.logs, "build-reference.log")
        with open(logp, "w") as log:
            say("reference build: ./configure && make %s (log: %s)" % (self.jobs(), logp))
            fresh_tree(self.src, self.ref, log)
            run_logged(["make", self.jobs(), "-C", "src"], log, cwd=self.ref)
            run_logged(["make", self.jobs(), "-k"], log, cwd=self.ref, check=False)
            run_logged(["make", self.jobs(), "-k", "-C", "test"], log, cwd=self.ref, check=False)
            rmtree(self.upstream_stage)
            run_logged(["make", "install", "DESTDIR=" + self.upstream_stage], log, cwd=self.ref)
        with open(stamp, "w") as f:
            json.dump(key, f)
        say("reference build: done in %.0f s" % (time.time() - t0))

    def tests(self):
        return test_names(make_list(self.ref, "test", "test_targets", self.cache))

    def examples(self):
        return make_list(self.ref, "examples", "example_targets", self.cache)

    # ---- source drop-in: our headers, our liburing.a
    def source(self, stage, want_examples, targets, example_targets):
        tree = os.path.join(self.root, "source")
        logp = os.path.join(self.logs, "build-source.log")
        t0 = time.time()
        with open(logp, "w") as log:
            say("source build: tests against %s/usr/include + liburing.a (log: %s)"
                % (stage, logp))
            fresh_tree(self.src, tree, log)
            # Upstream's headers must not be visible: <liburing.h> and <liburing/*.h>
            # have to come from our include dir alone.
            os.rename(os.path.join(tree, "src", "include"),
                      os.path.join(tree, "src", "include.upstream-hidden"))
            # Upstream links ../src/liburing.a via -L../src -luring; put ours there.
            ours = os.path.join(stage, "usr", "lib", "liburing.a")
            if os.path.exists(ours):
                shutil.copy2(ours, os.path.join(tree, "src", "liburing.a"))
            else:
                warn("%s missing: every source-mode test will be 'nobuild'" % ours)
            cpp = "CPPFLAGS=-I" + os.path.join(stage, "usr", "include")
            if targets != []:
                run_logged(["make", self.jobs(), "-k", "V=1", "-C", "test", cpp] +
                           (targets or []), log, cwd=tree, check=False)
            if want_examples:
                run_logged(["make", self.jobs(), "-k", "V=1", "-C", "examples", cpp] +
                           example_targets, log, cwd=tree, check=False)
        say("source build: done in %.0f s" % (time.time() - t0))
        return tree

    # ---- binary drop-in: upstream headers, upstream liburing.so (run with ours)
    def binary(self, targets):
        tree = os.path.join(self.root, "binary")
        logp = os.path.join(self.logs, "build-binary.log")
        t0 = time.time()
        with open(logp, "w") as log:
            say("binary build: tests linked dynamically to upstream's liburing.so.2 (log: %s)"
                % logp)
            fresh_tree(self.src, tree, log)
            so = self.upstream_so()
            shutil.copy2(so, os.path.join(tree, "src", os.path.basename(so)))
            os.symlink(os.path.basename(so), os.path.join(tree, "src", "liburing.so"))
            if targets != []:
                run_logged(["make", self.jobs(), "-k", "V=1", "-C", "test"] +
                           self.extra_make(tree) + (targets or []), log, cwd=tree, check=False)
        say("binary build: done in %.0f s" % (time.time() - t0))
        return tree

    def upstream_so(self):
        d = os.path.join(self.ref, "src")
        for f in sorted(os.listdir(d)):
            if re.match(r"liburing\.so\.\d+\.\d+$", f):
                return os.path.join(d, f)
        die("upstream's liburing.so.2.x not found in %s" % d)

    def rebuild_one(self, tree, name, logp):
        """Build one test alone, to get its own log (after a -k build missed it)."""
        with open(logp, "w") as log:
            run_logged(["make", "V=1", "-C", "test", name + ".t"] + self.extra_make(tree), log,
                       cwd=tree, check=False)
        with open(logp) as f:
            return f.read()

    def extra_make(self, tree):
        if os.path.basename(tree) == "source":
            return ["CPPFLAGS=-I" + os.path.join(self.args.stage, "usr", "include")]
        if os.path.basename(tree) == "binary" and self.args.stage:
            # A test that execve()s another with an empty environment
            # (sqpoll-exec) loses LD_LIBRARY_PATH: the run path still names
            # our library, rather than whatever liburing.so.2 the system has.
            return ["LDFLAGS=-Wl,-rpath," + os.path.join(self.args.stage, "usr", "lib")]
        return []


def count_warnings(logs, mode):
    try:
        with open(os.path.join(logs, "build-%s.log" % mode), errors="replace") as f:
            return sum(1 for line in f if ": warning:" in line)
    except OSError:
        return None


def internal_symbols(ref_tree):
    """Symbols defined by upstream's liburing.a but not exported by its liburing.so."""
    a = os.path.join(ref_tree, "src", "liburing.a")
    so = [os.path.join(ref_tree, "src", f) for f in os.listdir(os.path.join(ref_tree, "src"))
          if re.match(r"liburing\.so\.\d+\.\d+$", f)]
    rc1, out_a = capture(["nm", "-g", "--defined-only", a])
    rc2, out_so = capture(["nm", "-D", "--defined-only", so[0]]) if so else (1, "")
    if rc1 or rc2:
        return set()
    static = {l.split()[-1] for l in out_a.splitlines() if len(l.split()) == 3}
    dynamic = {l.split()[-1].split("@")[0] for l in out_so.splitlines() if len(l.split()) == 3}
    return static - dynamic


# --------------------------------------------------------------------------- running

class Kmsg:
    """Kernel log watcher, like runtests.sh's dmesg check (root only)."""

    def __init__(self, enabled):
        self.fd = None
        if not enabled:
            return
        try:
            self.fd = os.open("/dev/kmsg", os.O_RDWR | os.O_NONBLOCK)
        except OSError:
            self.fd = None

    def mark(self, text):
        if self.fd is None:
            return
        try:
            os.lseek(self.fd, 0, os.SEEK_END)
            os.write(self.fd, ("Running test %s:\n" % text).encode())
        except OSError:
            pass

    def bad_lines(self):
        if self.fd is None:
            return []
        bad = []
        while True:
            try:
                rec = os.read(self.fd, 8192)
            except BlockingIOError:
                break
            except OSError as e:
                if e.errno == errno.EPIPE:  # overwritten records: keep reading
                    continue
                break
            if not rec:
                break
            msg = rec.decode("utf-8", "replace").split(";", 1)[-1].split("\n", 1)[0]
            if any(p in msg for p in DMESG_BAD):
                bad.append(msg)
        return bad


SIGNAMES = {getattr(signal, n): n for n in dir(signal)
            if n.startswith("SIG") and not n.startswith("SIG_") and isinstance(getattr(signal, n), int)}


def run_one(cmd, cwd, env, timeout, kill_after, logp, kmsg, label, append=False):
    """Runs one program like runtests.sh: returns (kind, detail, seconds)."""
    kmsg.mark(label)
    with open(logp, "a" if append else "w") as log:
        log.write("=== %s: %s (cwd %s) at %s\n" % (label, " ".join(cmd), cwd, time.ctime()))
        log.flush()
        t0 = time.time()
        try:
            p = subprocess.Popen(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=log,
                                 stderr=subprocess.STDOUT, start_new_session=True)
        except OSError as e:
            log.write("cannot execute: %s\n" % e)
            return FAIL, "exec", 0.0
        timed_out = False
        try:
            try:
                rc = p.wait(timeout)
            except subprocess.TimeoutExpired:
                timed_out = True
                killpg(p.pid, signal.SIGINT)
                try:
                    rc = p.wait(kill_after)
                except subprocess.TimeoutExpired:
                    killpg(p.pid, signal.SIGKILL)
                    rc = p.wait()
        finally:
            # Leftovers the test forked (and the test itself if we are interrupted).
            killpg(p.pid, signal.SIGKILL)
        secs = time.time() - t0
        log.write("=== exit %s after %.1f s%s\n" % (rc, secs, " (TIMEOUT)" if timed_out else ""))
        bad = kmsg.bad_lines()
        if bad:
            log.write("=== kernel log during the test:\n" + "\n".join(bad) + "\n")
    if timed_out:
        return TIMEOUT, None, secs
    if rc == 77:
        return SKIP, None, secs
    if rc != 0:
        return FAIL, (SIGNAMES.get(-rc, "sig%d" % -rc) if rc < 0 else str(rc)), secs
    if bad:
        return FAIL, "dmesg", secs
    return PASS, None, secs


def killpg(pgid, sig):
    try:
        os.killpg(pgid, sig)
    except OSError:
        pass


def worse(ours, ref):
    """Does outcome `ours` do worse than the reference outcome `ref`?"""
    if ours is None or ref is None or ours["kind"] == NA:
        return False
    if ref["kind"] == PASS:
        return ours["kind"] != PASS
    if ref["kind"] == SKIP:
        return ours["kind"] not in (PASS, SKIP)
    return False


def rec(kind, detail=None, secs=None, **extra):
    r = {"kind": kind}
    if detail:
        r["detail"] = detail
    if secs is not None:
        r["secs"] = round(secs, 2)
    r.update(extra)
    return r


def failing(r):
    return r["kind"] not in (PASS, SKIP)


def is_regression(ours, ref):
    """Worse than the reference's first pass, and not cleared by paired reruns."""
    return worse(ours, ref) and ours.get("verdict") not in pairs.NOT_REGRESSION


def log_tail(logp, start, lines=8):
    """The last lines a run appended to log file `logp` after byte offset `start`."""
    try:
        with open(logp, "rb") as f:
            f.seek(start)
            text = f.read().decode("utf-8", "replace")
    except OSError:
        return []
    return text.splitlines()[-lines:]


def judge_suspects(args, label, suspects, results, run_pair, log_of):
    """Paired reruns (pairs.py) of the tests of `label` (a drop-in mode or
    "examples") that did worse than the reference; each suspect's record in
    `results` is replaced by one carrying the verdict and every round."""
    if not suspects:
        return
    say("%s: %d did worse than the reference; rerunning as pairs (reference, then ours), "
        "up to %d rounds: %s" % (label, len(suspects), args.pair_rounds, " ".join(suspects)))
    judge = pairs.PairJudge(worse, failing, rounds=args.pair_rounds, needed=args.pair_needed,
                            budget=args.retry_budget)

    def told(name, rnd, p):
        say("  [%s pair %d] %-32s reference %s, ours %s: %s" % (
            label, rnd, name, fmt_outcome(p["ref_rec"]), fmt_outcome(p["ours_rec"]), p["call"]))

    judged = judge.judge(suspects, run_pair, told)
    for name in suspects:
        results[name] = apply_verdict(results[name], judged[name], log_of(name))
        say("  %s/%s: %s" % (label, name, results[name]["verdict"]))


def apply_verdict(first, judged, logp):
    """The record a suspect ends with: its first-pass failure (regression,
    env-sensitive, unjudged) or ours' passing rerun (passed-on-rerun), plus
    the pairs, ours' attempts and where the log is."""
    rounds = [{"round": p["round"], "reference": fmt_outcome(p["ref_rec"]),
               "ours": fmt_outcome(p["ours_rec"]), "call": p["call"]} for p in judged["pairs"]]
    verdict = judged["verdict"]
    best = pairs.best_ours(judged) if verdict == pairs.PASSED_ON_RERUN else None
    r = dict(best or first)
    r.pop("tail", None)
    if best:
        r["flaky"] = True
    r.update(verdict=verdict, pairs=rounds, log=logp,
             attempts=[fmt_outcome(first)] + [x["ours"] for x in rounds])
    if verdict == pairs.ENV_SENSITIVE:
        both = [p for p in judged["pairs"] if p["call"] == pairs.BOTH_FAIL][-1]
        r["env_evidence"] = {"round": both["round"],
                             "reference": both["ref_rec"].get("tail", []),
                             "ours": both["ours_rec"].get("tail", [])}
    if verdict == pairs.UNJUDGED:
        r["note"] = "retry budget exhausted"
    return r


def fmt_pairs(r):
    """'pairs: 1) pass/fail(1) ours worse; 2) ...' for a record that was paired."""
    if not r.get("pairs"):
        return ""
    return "pairs (reference/ours): " + "; ".join(
        "%d) %s/%s %s" % (p["round"], p["reference"], p["ours"], p["call"]) for p in r["pairs"])


class Runner:
    def __init__(self, args, cache):
        self.args = args
        self.cache = cache
        # The traced mode's trace files (one per test), removed after the run
        # unless KEEP_TRACES is set: the whole suite writes several hundred MB.
        self.tracedir = os.path.join(cache, "traces")
        self.kmsg = Kmsg(not args.no_dmesg and os.geteuid() == 0)

    def run_mode(self, mode, tree, names, env, ref_results, nobuild_reason, ref_tree=None):
        """The full pass of one mode, then its reruns: the reference reruns its own
        failures; a drop-in mode reruns what did worse than the reference as
        back-to-back pairs with the reference (tree `ref_tree`), see pairs.py."""
        testdir = os.path.join(tree, "test")
        logdir = os.path.join(self.cache, "logs", mode)
        os.makedirs(logdir, exist_ok=True)
        os.makedirs(os.path.join(testdir, "output"), exist_ok=True)
        ref_results = ref_results or {}

        extra = [] if mode == "reference" else list(self.args.ours_env)
        if mode == "traced":
            extra += [e.replace("{tracedir}", self.tracedir) for e in TRACED_ENV]

        def env_of(name):
            # --ours-env: extra variables for our runs only ({test}: the test name).
            if not extra:
                return env
            own = dict(env)
            for item in extra:
                key, _, value = item.partition("=")
                own[key] = value.replace("{test}", name)
            return own

        def attempt(name, label):
            return self.attempt(testdir, env_of(name), os.path.join(logdir, name + ".log"), name,
                                label, append=label != mode)

        results = {}
        t0 = time.time()
        say("%s: running %d tests (timeout %d s)" % (mode, len(names), self.args.timeout))
        for i, name in enumerate(names, 1):
            missing = None
            if not os.path.exists(os.path.join(testdir, name + ".t")):
                missing = nobuild_reason(name)
            if missing:
                results[name] = rec(*missing)
            else:
                results[name] = attempt(name, mode)
            self.progress(mode, i, len(names), name, results[name], ref_results.get(name))

        if mode == "reference":
            self.retry_own_failures(mode, names, results, attempt)
        else:
            ref_testdir = os.path.join(ref_tree, "test")
            os.makedirs(os.path.join(ref_testdir, "output"), exist_ok=True)

            def run_pair(name, rnd):
                logp = os.path.join(logdir, name + ".log")
                ref = self.attempt(ref_testdir, build_env(), logp, name,
                                   "%s pair %d: reference" % (mode, rnd), append=True, tail=True)
                ours = self.attempt(testdir, env_of(name), logp, name,
                                    "%s pair %d: ours" % (mode, rnd), append=True, tail=True)
                return ref, ours, 0.0

            suspects = [n for n in names if results[n]["kind"] not in (NOBUILD, NA) and
                        worse(results[n], ref_results.get(n))]
            judge_suspects(self.args, mode, suspects, results, run_pair,
                           lambda n: os.path.join(logdir, n + ".log"))
        say("%s: finished in %.0f s" % (mode, time.time() - t0))
        return results

    def attempt(self, testdir, env, logp, name, label, append, tail=False):
        """Runs ./<name>.t once; with tail, a failure keeps the end of its output."""
        start = os.path.getsize(logp) if append and os.path.exists(logp) else 0
        kind, detail, secs = run_one(["./%s.t" % name], testdir, env, self.args.timeout,
                                     self.args.kill_after, logp, self.kmsg,
                                     "%s.t [%s]" % (name, label), append=append)
        r = rec(kind, detail, secs)
        if tail and kind not in (PASS, SKIP):
            r["tail"] = log_tail(logp, start)
        return r

    def retry_own_failures(self, mode, names, results, attempt):
        """The reference reruns its failures, so that a flaky failure there does
        not hide a regression of ours. Rounds come after the full pass, spread in
        time rather than repeated back to back under the same load spike."""
        pending = [n for n in names if results[n]["kind"] not in (PASS, SKIP, NOBUILD, NA)]
        spent = 0.0
        for rnd in range(1, self.args.retries + 1):
            if not pending:
                break
            say("%s: retry round %d: %s" % (mode, rnd, " ".join(pending)))
            still = []
            for name in pending:
                r = results[name]
                if spent > self.args.retry_budget:
                    r["note"] = "retry budget exhausted"
                    continue
                r.setdefault("attempts", [fmt_outcome(r)])
                again = attempt(name, "%s retry %d" % (mode, rnd))
                spent += again.get("secs") or 0
                r["attempts"].append(fmt_outcome(again))
                if again["kind"] not in (PASS, SKIP):
                    still.append(name)
                else:
                    again["attempts"] = r["attempts"]
                    again["flaky"] = True
                    results[name] = again
                say("  [%s retry %d] %-32s %s" % (mode, rnd, name, fmt_outcome(again)))
            pending = still

    def progress(self, mode, i, n, name, r, ref):
        note = ""
        if r.get("attempts"):
            note = "  [attempts: %s%s]" % (", ".join(r["attempts"]),
                                           ", flaky" if r.get("flaky") else "")
        if VERBOSE or r["kind"] not in (PASS, SKIP) or r.get("attempts") or \
                (ref is not None and worse(r, ref)):
            say("  [%s %3d/%d] %-32s %s%s" % (mode, i, n, name, fmt_outcome(r), note))
        elif i % 50 == 0:
            say("  [%s %3d/%d] ..." % (mode, i, n))


# --------------------------------------------------------------------------- binary proof

def ld_debug_loaded(out, soname="liburing.so.2"):
    """The file the loader took for soname, from LD_DEBUG=libs output: the last
    'trying file=' after 'find library=<soname>' (the search stops at success)."""
    found, inside = None, False
    for line in out.splitlines():
        if "find library=" in line:
            inside = ("find library=%s " % soname) in line
            continue
        if inside and "trying file=" in line:
            found = line.split("trying file=", 1)[1].strip()
        elif inside and "search" not in line:
            inside = False
    return found


def live_maps(testdir, env):
    """Start read-mshot-stdin.t, which blocks reading a pipe we hold, and read the
    liburing files mapped into the live process from /proc/<pid>/maps."""
    exe = os.path.join(testdir, "read-mshot-stdin.t")
    if not os.path.exists(exe):
        return None
    p = subprocess.Popen([exe, "stdin"], cwd=testdir, env=env, stdin=subprocess.PIPE,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    paths = set()
    try:
        deadline = time.time() + 3
        while time.time() < deadline and p.poll() is None:
            try:
                with open("/proc/%d/maps" % p.pid) as f:
                    paths = {l.split(None, 5)[5].strip() for l in f
                             if len(l.split(None, 5)) == 6 and
                             os.path.basename(l.split(None, 5)[5]).startswith("liburing.so")}
            except OSError:
                break
            if paths:
                break
            time.sleep(0.01)
    finally:
        killpg(p.pid, signal.SIGKILL)
        p.stdin.close()
        p.wait()
    return sorted(paths)


def prove_binary(tree, names, env, stage_lib):
    """Which liburing.so.2 do the binary-mode tests get? Loader resolution of every
    binary, an LD_DEBUG=libs run, and /proc/<pid>/maps of a live test.
    Returns (ok, lines of evidence)."""
    testdir = os.path.join(tree, "test")
    want = os.path.realpath(os.path.join(stage_lib, "liburing.so.2"))
    evidence, wrong, checked = [], [], 0
    for name in names:
        exe = os.path.join(testdir, name + ".t")
        if not os.path.exists(exe):
            continue
        rc, out = capture([exe], cwd=testdir, env=dict(env, LD_TRACE_LOADED_OBJECTS="1"))
        m = re.search(r"liburing\.so\.2 => (\S+)", out)
        got = os.path.realpath(m.group(1)) if m else None
        checked += 1
        if got != want:
            wrong.append("%s -> %s" % (name, got or "not linked to liburing.so.2"))
    evidence.append("loader resolution (LD_TRACE_LOADED_OBJECTS) of %d binaries: %s"
                    % (checked, "all liburing.so.2 => %s" % want if not wrong else
                       "%d WRONG: %s" % (len(wrong), "; ".join(wrong[:5]))))
    ok = checked > 0 and not wrong
    probe = next((n for n in ["nop", "probe", "version"] + list(names)
                  if os.path.exists(os.path.join(testdir, n + ".t"))), None)
    if probe:
        rc, out = capture(["./%s.t" % probe], cwd=testdir, env=dict(env, LD_DEBUG="libs"))
        got = ld_debug_loaded(out)
        ok = ok and got is not None and os.path.realpath(got) == want
        evidence.append("LD_DEBUG=libs run of %s.t (exit %d): liburing.so.2 loaded from %s"
                        % (probe, rc, got or "NOTHING"))
    maps = live_maps(testdir, env)
    if maps:
        ok = ok and all(os.path.realpath(m) == want for m in maps)
        evidence.append("/proc/<pid>/maps of a running read-mshot-stdin.t: %s"
                        % ", ".join(maps))
    return ok, evidence


# --------------------------------------------------------------------------- examples

EXAMPLE_BENCH = ("poll-bench", "rsrc-update-bench")


def example_plan(workdir):
    """Examples that need no network or devices: name -> (argv tail, checker)."""
    def f(name):
        return os.path.join(workdir, name)

    def same(*pairs):
        def check(out):
            for a, b in pairs:
                if not os.path.exists(f(b)):
                    return "%s not created" % b
                if not filecmp.cmp(f(a), f(b), shallow=False):
                    return "%s differs from %s" % (b, a)
            return None
        return check

    def bytes_read(size):
        def check(out):
            m = re.search(r"completed=(\d+), bytes=(\d+)", out)
            if not m or int(m.group(2)) != size:
                return "expected bytes=%d in output" % size
            return None
        return check

    def digest(out):
        with open(f("in1"), "rb") as fh:
            want = hashlib.sha256(fh.read()).hexdigest()
        if "AF_ALG" in out and ("not available" in out or "socket" in out):
            return "skip"
        return None if want in out else "sha256 digest not in output (want %s)" % want

    return {
        "io_uring-test": ([f("direct")], bytes_read(16384)),
        "io_uring-close-test": ([f("direct")], bytes_read(16384)),
        "io_uring-cp": ([f("in1"), f("out-cp")], same(("in1", "out-cp"))),
        "link-cp": ([f("in1"), f("out-link")], same(("in1", "out-link"))),
        # ucontext-cp sleeps 1 s after every 1 KiB block: small files.
        "ucontext-cp": ([f("small1"), f("out-uc1"), f("small2"), f("out-uc2")],
                        same(("small1", "out-uc1"), ("small2", "out-uc2"))),
        "kdigest": (["sha256", f("in1")], digest),
        "reg-wait": ([], None),
        "poll-bench": ([], None),
        "rsrc-update-bench": ([], None),
    }


def make_example_inputs(workdir):
    rmtree(workdir)
    os.makedirs(workdir)
    seed = hashlib.sha256(b"liburing-tests").digest()
    blob = bytearray()
    while len(blob) < (3 << 20) + 4567:
        seed = hashlib.sha256(seed).digest()
        blob += seed * 64
    with open(os.path.join(workdir, "in1"), "wb") as fh:
        fh.write(blob[:(3 << 20) + 4567])
    with open(os.path.join(workdir, "in2"), "wb") as fh:
        fh.write(blob[1000:1000 + 300 * 1024 + 17])
    with open(os.path.join(workdir, "small1"), "wb") as fh:
        fh.write(blob[7:7 + 2500])
    with open(os.path.join(workdir, "small2"), "wb") as fh:
        fh.write(blob[99:99 + 1500])
    with open(os.path.join(workdir, "direct"), "wb") as fh:
        fh.write(blob[:16384])


class ExampleRun:
    """The examples of one build (`tree`), run on scratch files of their own."""

    def __init__(self, args, cache, tree, label, kmsg):
        self.args, self.tree, self.label, self.kmsg = args, tree, label, kmsg
        self.exdir = os.path.join(tree, "examples")
        self.workdir = os.path.join(cache, "work", "examples-" + label)
        self.logdir = os.path.join(cache, "logs", "examples-" + label)
        rmtree(self.logdir)
        os.makedirs(self.logdir)
        make_example_inputs(self.workdir)
        self.plan = example_plan(self.workdir)

    def wanted(self, names):
        return [n for n in names
                if n in self.plan and (not self.args.only or n in self.args.only)]

    def logp(self, name, tag=""):
        return os.path.join(self.logdir, name + (".%s.log" % tag if tag else ".log"))

    def attempt(self, name, tag="", tail=False):
        """Runs one example; tag names a rerun's own log file."""
        if not os.path.exists(os.path.join(self.exdir, name)):
            return rec(NOBUILD)
        argv, check = self.plan[name]
        logp = self.logp(name, tag)
        for out in ("out-cp", "out-link", "out-uc1", "out-uc2"):
            rmtree(os.path.join(self.workdir, out))
        kind, detail, secs = run_one([os.path.join(self.exdir, name)] + argv, self.exdir,
                                     build_env(), self.args.timeout, self.args.kill_after, logp,
                                     self.kmsg, "example %s [%s%s]" % (name, self.label,
                                                                      " " + tag if tag else ""))
        with open(logp, errors="replace") as fh:
            out = fh.read()
        if kind == PASS and check:
            verdict = check(out)
            if verdict == "skip":
                kind = SKIP
            elif verdict:
                kind, detail = FAIL, verdict
        elif kind == FAIL and name == "kdigest" and "AF_ALG" in out:
            kind, detail = SKIP, "no AF_ALG hash"
        r = rec(kind, detail, secs)
        if tail and failing(r):
            r["tail"] = log_tail(logp, 0)
        return r

    def run_all(self, names):
        return {name: self.attempt(name) for name in self.wanted(names)}


def run_examples(args, cache, ref_tree, ours_tree, names, kmsg):
    """Examples on upstream's build, then on ours; ours' examples that did worse
    are rerun as pairs, like the tests. Returns {"reference": ..., "ours": ...}."""
    ref_run = ExampleRun(args, cache, ref_tree, "reference", kmsg)
    ours_run = ExampleRun(args, cache, ours_tree, "ours", kmsg)
    ref_results = ref_run.run_all(names)
    ours_results = ours_run.run_all(names)

    def run_pair(name, rnd):
        tag = "pair%d" % rnd
        return ref_run.attempt(name, tag, tail=True), ours_run.attempt(name, tag, tail=True), 0.0

    suspects = [n for n in ours_results if worse(ours_results[n], ref_results.get(n))]
    judge_suspects(args, "examples", suspects, ours_results, run_pair,
                   lambda n: os.path.join(os.path.dirname(ours_run.logdir),
                                          "examples-{reference,ours}", n + ".pair<N>.log"))
    return {"reference": ref_results, "ours": ours_results}


# --------------------------------------------------------------------------- report

def counts(results):
    c = {k: 0 for k in KINDS}
    for r in results.values():
        c[r["kind"]] += 1
    return c


def summary_line(mode, results, regressions=None, flaky=0):
    c = counts(results)
    s = "%s: %d pass, %d skip, %d fail, %d timeout, %d nobuild" % (
        mode, c[PASS], c[SKIP], c[FAIL], c[TIMEOUT], c[NOBUILD])
    if mode in BINARY_MODES or c[NA]:
        s += ", %d n/a" % c[NA]
    s += " of %d" % len(results)
    if regressions is not None:
        s += "; %d regressions" % len(regressions)
        env = sum(1 for r in results.values() if r.get("verdict") == pairs.ENV_SENSITIVE)
        notes = (["%d flaky" % flaky] if flaky else []) + \
            (["%d environment-sensitive" % env] if env else [])
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
        out.append("%s%s/%s: environment-sensitive (fails on the reference too); %s"
                   % (indent, mode, n, fmt_pairs(r)))
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


# --------------------------------------------------------------------------- main

def parse_args(argv):
    ap = argparse.ArgumentParser(
        prog="liburing-tests/run.sh",
        description="Run liburing's own test suite against our drop-in liburing.")
    ap.add_argument("--stage", help="staged install of OUR library: <stage>/usr/include, "
                    "<stage>/usr/lib (absolute path)")
    ap.add_argument("--stage-upstream", action="store_true",
                    help="validate the harness: use upstream's own build/install as 'ours'")
    ap.add_argument("--modes", default=",".join(ALL_MODES),
                    help="comma list of %s (default: all)" % ",".join(ALL_MODES))
    ap.add_argument("--only", help="comma list of test (and example) names to run")
    ap.add_argument("--ours-env", action="append", default=[], metavar="NAME=VALUE",
                    help="set NAME for the drop-in modes' runs only (not the reference), "
                    "'{test}' in VALUE replaced by the test name; repeatable "
                    "(e.g. LIBURING_TRACE=/tmp/t/{test}.trace)")
    ap.add_argument("--abi-asserts", help="build/abi-assert.c: check it against upstream's headers")
    ap.add_argument("--timeout", type=int,
                    default=int(os.environ.get("LIBURING_TESTS_TIMEOUT",
                                               os.environ.get("TIMEOUT", "60"))),
                    help="seconds per test before SIGINT (default 60; env "
                         "LIBURING_TESTS_TIMEOUT)")
    ap.add_argument("--kill-after", type=int, default=10,
                    help="seconds after SIGINT before SIGKILL (default 10)")
    ap.add_argument("--retries", type=int, default=2,
                    help="reruns of a test failing on the reference (default 2)")
    ap.add_argument("--pair-rounds", type=int, default=3,
                    help="back-to-back reference/ours pairs for a test doing worse on ours "
                         "(default 3)")
    ap.add_argument("--pair-needed", type=int, default=2,
                    help="pairs in which ours must do worse for a regression (default 2)")
    ap.add_argument("--retry-budget", type=int, default=600,
                    help="seconds of reruns per mode after which nothing more is rerun "
                         "(default 600)")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="make -j (default 2)")
    ap.add_argument("--cache", default=os.path.join(REPO, ".cache", "liburing-tests"),
                    help="cache directory (default <repo>/.cache/liburing-tests)")
    ap.add_argument("--rebuild", action="store_true",
                    help="rebuild the reference tree even if it is up to date")
    ap.add_argument("--no-dmesg", action="store_true",
                    help="do not fail tests that make the kernel log a warning")
    ap.add_argument("--no-bench", action="store_true",
                    help="skip the 10 s benchmark examples (%s)" % ", ".join(EXAMPLE_BENCH))
    ap.add_argument("-v", "--verbose", action="store_true", help="print every test result")
    args = ap.parse_args(argv)
    args.modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    for m in args.modes:
        if m not in ALL_MODES:
            ap.error("unknown mode %r" % m)
    args.only = [n.strip()[:-2] if n.strip().endswith(".t") else n.strip()
                 for n in args.only.split(",") if n.strip()] if args.only else None
    args.cache = os.path.abspath(args.cache)
    if args.stage:
        args.stage = os.path.abspath(args.stage)
    needs_stage = any(m in args.modes for m in ("source", "binary", "examples"))
    if args.stage_upstream and args.stage:
        ap.error("--stage and --stage-upstream are exclusive")
    if not 1 <= args.pair_needed <= args.pair_rounds:
        ap.error("--pair-needed must be between 1 and --pair-rounds")
    if needs_stage and not args.stage and not args.stage_upstream:
        ap.error("--stage DIR (or --stage-upstream) is required for modes source, binary, "
                 "examples")
    return args


def main(argv):
    global VERBOSE
    args = parse_args(argv)
    VERBOSE = args.verbose
    t_start = time.time()
    cache = args.cache
    os.makedirs(cache, exist_ok=True)
    lockf = open(os.path.join(cache, ".lock"), "w")
    try:
        fcntl.flock(lockf, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        say("another liburing-tests run holds %s; waiting" % lockf.name)
        fcntl.flock(lockf, fcntl.LOCK_EX)

    os.makedirs(os.path.join(cache, "logs"), exist_ok=True)
    with open(os.path.join(cache, "logs", "fetch.log"), "a") as log:
        src, src_desc = obtain_source(cache, log)
    say("liburing source: %s" % src_desc)

    builds = Builds(args, src, cache)
    builds.reference(src_desc)
    abi_ok = abi_check.run(args.abi_asserts, os.path.join(builds.upstream_stage, "usr", "include"),
                           say) if args.abi_asserts else None
    if args.stage_upstream:
        args.stage = os.path.join(builds.upstream_stage)
        say("--stage-upstream: 'ours' is upstream's own install at %s" % args.stage)
    if args.stage:
        for p in ("usr/include/liburing.h", "usr/lib/liburing.a", "usr/lib/liburing.so.2"):
            if not os.path.exists(os.path.join(args.stage, p)):
                warn("stage %s lacks %s" % (args.stage, p))

    import header_checks  # provenance and SQE comparison of our installed headers
    header_fail = 0 if args.stage_upstream or not args.stage else \
        header_checks.run(args.stage, builds.upstream_stage, src, cache)
    all_tests = builds.tests()
    names = all_tests
    if args.only:
        unknown = [n for n in args.only if n not in all_tests]
        names = [n for n in all_tests if n in args.only]
        ex_names = set(builds.examples())
        unknown = [n for n in unknown if n not in ex_names]
        if unknown:
            die("unknown test name(s): %s" % ", ".join(unknown))

    state_path = os.path.join(cache, "results.json")
    previous = load_json(state_path) or {}
    meta = {"kernel": kernel_id(), "source": src_desc, "timeout": args.timeout}

    # Reference results: run them, or reuse the stored ones when the reference mode
    # was not asked for and they were produced under the same conditions.
    results = {}
    modes = list(args.modes)
    if "reference" not in modes and any(m in modes for m in DROPIN_MODES):
        stored = previous.get("reference") or {}
        smeta = previous.get("reference_meta") or {}
        if smeta.get("kernel") == meta["kernel"] and smeta.get("source") == src_desc and \
                all(n in stored for n in names):
            say("reference: reusing stored results (same kernel and source; %s)" %
                smeta.get("when", "?"))
            results["reference"] = {n: stored[n] for n in names}
        else:
            say("reference: no stored results for this kernel/source; running it too")
            modes.insert(0, "reference")

    runner = Runner(args, cache)
    trees = {"reference": builds.ref}
    internal = None

    def nobuild_reason(mode, tree):
        def reason(name):
            logp = os.path.join(cache, "logs", mode, name + ".build.log")
            text = builds.rebuild_one(tree, name, logp)
            if os.path.exists(os.path.join(tree, "test", name + ".t")):
                return None  # built alone after all: run it
            if mode in BINARY_MODES:
                undef = set(re.findall(r"undefined reference to `([^']+)'", text))
                if undef and internal and undef <= internal:
                    return NA, "needs " + ",".join(sorted(undef))
            return NOBUILD, None
        return reason

    # With --only, build just what will run; otherwise everything upstream builds.
    targets = [n + ".t" for n in names] if args.only else None  # None: all
    ex_targets = []
    if args.only:
        ex_targets = [n for n in builds.examples() if n in args.only]
    want_examples = "examples" in modes and (not args.only or ex_targets)
    if "source" in modes or want_examples:
        trees["source"] = builds.source(args.stage, want_examples, targets, ex_targets)
    if any(m in modes for m in BINARY_MODES) and names:
        trees["binary"] = trees["traced"] = builds.binary(targets)
        internal = internal_symbols(builds.ref)

    binary_proof = None
    for mode in TEST_MODES:
        if mode not in modes or not names:
            continue
        tree = trees[mode]
        os.makedirs(os.path.join(cache, "logs", mode), exist_ok=True)
        env = build_env()
        if mode in BINARY_MODES and names:
            lib = os.path.join(args.stage, "usr", "lib")
            env["LD_LIBRARY_PATH"] = lib + (":" + env["LD_LIBRARY_PATH"]
                                            if env.get("LD_LIBRARY_PATH") else "")
            if binary_proof is None:
                ok, evidence = prove_binary(tree, names, env, lib)
                binary_proof = {"ok": ok, "evidence": evidence}
                for line in evidence:
                    say("binary: " + line)
                if not ok:
                    warn("binary mode does NOT load our liburing.so.2 as intended")
        if mode == "traced":
            shutil.rmtree(runner.tracedir, ignore_errors=True)
            os.makedirs(runner.tracedir)
        results[mode] = runner.run_mode(mode, tree, names, env, results.get("reference"),
                                        nobuild_reason(mode, tree), builds.ref)
        if mode == "traced":
            traces = os.listdir(runner.tracedir)
            size = sum(os.path.getsize(os.path.join(runner.tracedir, f)) for f in traces)
            say("traced: %d trace files, %.0f MB (LIBURING_TRACE and LIBURING_DEBUG=1 set)"
                % (len(traces), size / 1e6))
            if not os.environ.get("KEEP_TRACES"):
                shutil.rmtree(runner.tracedir, ignore_errors=True)

    ex_results = {}
    if want_examples:
        ex_names = builds.examples()
        if args.no_bench:
            ex_names = [n for n in ex_names if n not in EXAMPLE_BENCH]
        say("examples: running on upstream's build, then on ours")
        ex_results = run_examples(args, cache, builds.ref, trees["source"], ex_names,
                                  runner.kmsg)

    # ------------------------------------------------------------------ analysis
    ref = results.get("reference", {})
    regressions, improvements = {}, {}
    for mode in DROPIN_MODES:
        if mode not in results:
            continue
        regressions[mode] = [n for n in names if is_regression(results[mode][n], ref.get(n))]
        improvements[mode] = [n for n in names if ref.get(n) and
                              ref[n]["kind"] not in (PASS, SKIP) and
                              results[mode][n]["kind"] in (PASS, SKIP)]
    if ex_results:
        regressions["examples"] = [n for n in ex_results["ours"]
                                   if is_regression(ex_results["ours"][n],
                                                    ex_results["reference"].get(n))]

    # changes since the last run
    changes = []
    for mode in TEST_MODES:
        if mode in results and mode in modes:
            old = previous.get(mode) or {}
            for n in names:
                if n in old and fmt_outcome(old[n]) != fmt_outcome(results[mode][n]):
                    changes.append("%s/%s: %s -> %s" % (mode, n, fmt_outcome(old[n]),
                                                        fmt_outcome(results[mode][n])))
    if ex_results:
        old = previous.get("examples") or {}
        for side in ex_results:
            for n, r in ex_results[side].items():
                o = (old.get(side) or {}).get(n)
                if o and fmt_outcome(o) != fmt_outcome(r):
                    changes.append("examples-%s/%s: %s -> %s" % (side, n, fmt_outcome(o),
                                                                 fmt_outcome(r)))

    # ------------------------------------------------------------------ report file
    shown_modes = [m for m in TEST_MODES if m in results]
    lines = ["liburing-tests report  %s" % time.strftime("%Y-%m-%d %H:%M:%S"),
             "kernel: %s" % meta["kernel"], "source: %s" % src_desc,
             "ours:   %s%s" % (args.stage, " (upstream itself: --stage-upstream)"
                               if args.stage_upstream else ""),
             "ours run with: %s" % (" ".join(args.ours_env) or "(no extra environment)"),
             "timeout: %d s, reference retries: %d, pairs: a regression needs ours worse "
             "in %d of up to %d" % (args.timeout, args.retries, args.pair_needed,
                                    args.pair_rounds), ""]
    if "reference" in results and "reference" not in modes:
        lines.append("reference results reused from %s" %
                     (previous.get("reference_meta") or {}).get("when", "?"))
    rows = []
    for n in names:
        row = [n] + [cell(results[m].get(n)) for m in shown_modes]
        row.append("%.1f" % max((results[m][n].get("secs") or 0) for m in shown_modes))
        rows.append(row)
    lines += table(rows, ["test"] + shown_modes + ["max s"])
    if ex_results:
        lines += ["", "examples (built against upstream / against ours):"]
        rows = [[n, cell(ex_results["reference"].get(n)), cell(ex_results["ours"].get(n))]
                for n in ex_results["ours"]]
        lines += table(rows, ["example", "upstream", "ours"])
    if binary_proof:
        lines += ["", "binary mode library check: %s" % ("OK" if binary_proof["ok"] else "FAILED")]
        lines += ["  " + e for e in binary_proof["evidence"]]
    na = [(n, results["binary"][n].get("detail")) for n in names
          if "binary" in results and results["binary"][n]["kind"] == NA]
    if na:
        lines += ["", "binary n/a (use liburing.a-only internals):"]
        lines += ["  %s: %s" % x for x in na]
    for mode in regressions:
        res = results.get(mode) if mode != "examples" else ex_results["ours"]
        base = ref if mode != "examples" else ex_results["reference"]
        lines += ["", "regressions %s (%d):" % (mode, len(regressions[mode]))]
        for n in regressions[mode]:
            r = res[n]
            lines.append("  %s: reference %s, ours %s%s" % (
                n, fmt_outcome(base.get(n)), fmt_outcome(r),
                " [attempts: %s]" % ", ".join(r["attempts"]) if r.get("attempts") else ""))
            if r.get("pairs"):
                lines.append("    " + fmt_pairs(r))
        flaky = [n for n in (res or {}) if res[n].get("flaky")]
        if flaky:
            lines.append("  flaky (passed on retry): " + ", ".join(flaky))
        lines += env_sensitive_lines(mode, res or {}, "  ")
        paired = [n for n in (res or {}) if res[n].get("pairs")]
        if paired:
            lines.append("  paired reruns (reference then ours, back to back):")
            lines += ["    %s: %s -> %s" % (n, fmt_pairs(res[n]), res[n]["verdict"])
                      for n in paired]
        if improvements.get(mode):
            lines.append("  better than reference: " + ", ".join(
                "%s (%s)" % (n, fmt_outcome(res[n])) for n in improvements[mode]))
    warn_counts = {m: count_warnings(os.path.join(cache, "logs"), m)
                   for m in ("reference", "source", "binary")}
    lines += ["", "compiler warnings in the last build logs: " +
              ", ".join("%s %s" % (m, "-" if n is None else n) for m, n in warn_counts.items())]
    prev_run = previous.get("last_run") or {}
    since = "since last run (%s, ours = %s)" % (prev_run.get("when", "?"),
                                                prev_run.get("stage", "?"))
    lines += ["", "changes %s (%d):" % (since, len(changes))] + ["  " + c for c in changes]
    summary = []
    for mode in TEST_MODES:
        if mode in results and names:
            reg = regressions.get(mode)
            flk = sum(1 for r in results[mode].values() if r.get("flaky"))
            line = summary_line(mode, results[mode], reg, flk)
            if mode == "reference" and mode not in modes:
                line += " (stored)"
            summary.append(line)
    if ex_results:
        summary.append(summary_line("examples", ex_results["ours"], regressions["examples"]) +
                       " [upstream build: %s]" % summary_line("x", ex_results["reference"])[3:])
    # CI line: both drop-in modes (+ examples built against ours).
    # "failed" counts regressions (what the exit status judges); tests that
    # fail on upstream liburing here too are not ours to pass, and are
    # listed as such next to the skips rather than hidden.
    tot_pass = tot_fail = tot_skip = tot_shared = 0
    for key in ("source", "binary", "traced", "examples"):
        res = ex_results.get("ours") if key == "examples" else results.get(key)
        if not res:
            continue
        for n, r in res.items():
            if r["kind"] == PASS:
                tot_pass += 1
            elif n in regressions.get(key, []):
                tot_fail += 1
            elif r["kind"] in (SKIP, NA):
                tot_skip += 1
            else:
                tot_shared += 1
    final = "%d passed, %d failed, %d skipped" % (tot_pass, tot_fail, tot_skip + tot_shared)
    note = ("(drop-in modes: %d skipped or n/a, %d not passing on upstream liburing "
            "here either, counted with the skipped)" % (tot_skip, tot_shared))
    lines += ["", "summary:"] + ["  " + s for s in summary] + [note, final]
    report = os.path.join(cache, "report.txt")
    with open(report, "w") as f:
        f.write("\n".join(lines) + "\n")

    # ------------------------------------------------------------------ state
    state = dict(previous)
    state["format"] = HARNESS_FORMAT
    for mode in TEST_MODES:
        if mode in results and mode in modes:
            merged = dict(state.get(mode) or {})
            merged.update(results[mode])
            state[mode] = merged
    if "reference" in modes:
        same = (state.get("reference_meta") or {}).get("kernel") == meta["kernel"] and \
               (state.get("reference_meta") or {}).get("source") == src_desc
        if not same:
            state["reference"] = dict(results["reference"])
        state["reference_meta"] = dict(meta, when=time.strftime("%Y-%m-%d %H:%M:%S"))
    if ex_results:
        ex_state = dict(state.get("examples") or {})
        for side, res in ex_results.items():
            merged = dict(ex_state.get(side) or {})
            merged.update(res)
            ex_state[side] = merged
        state["examples"] = ex_state
    state["last_run"] = dict(meta, when=time.strftime("%Y-%m-%d %H:%M:%S"), stage=args.stage,
                             modes=modes, only=args.only)
    if os.path.exists(state_path):
        shutil.copy2(state_path, state_path + ".prev")
    with open(state_path + ".tmp", "w") as f:
        json.dump(state, f, indent=1, sort_keys=True)
    os.replace(state_path + ".tmp", state_path)

    # ------------------------------------------------------------------ stdout
    say("")
    say("=" * 78)
    interesting = [n for n in names
                   if any(results[m][n]["kind"] != PASS or results[m][n].get("attempts")
                          for m in shown_modes)]
    if interesting:
        rows = [[n] + [cell(results[m].get(n)) for m in shown_modes] for n in interesting]
        for line in table(rows, ["test (not pass everywhere)"] + shown_modes):
            say(line)
        say("(%d tests passed in every mode; full table: %s)"
            % (len(names) - len(interesting), report))
    else:
        say("all %d tests passed in every mode (full table: %s)" % (len(names), report))
    if ex_results:
        say("")
        say("examples: " + ", ".join("%s %s/%s" % (n, fmt_outcome(ex_results["reference"].get(n)),
                                                   fmt_outcome(r))
                                     for n, r in ex_results["ours"].items()))
    if binary_proof:
        say("")
        say("binary mode loads our library: %s" % ("yes" if binary_proof["ok"] else "NO"))
        for e in binary_proof["evidence"]:
            say("  " + e)
    if na:
        say("binary n/a: " + ", ".join("%s (%s)" % x for x in na))
    if warn_counts.get("source") and trees.get("source"):
        say("source build: %d compiler warnings with our headers (reference build: %s); "
            "see %s" % (warn_counts["source"], warn_counts["reference"],
                        os.path.join(cache, "logs", "build-source.log")))
    say("")
    if changes:
        say("changes %s (%d):" % (since, len(changes)))
        for c in changes[:60]:
            say("  " + c)
        if len(changes) > 60:
            say("  ... (%d more in %s)" % (len(changes) - 60, report))
    else:
        say("no changes since last run" if previous else "no previous run to compare with")
    nreg = sum(len(v) for v in regressions.values())
    say("")
    if nreg:
        say("REGRESSIONS (pass/skip on reference, worse on ours):")
        for mode, regs in regressions.items():
            res = results.get(mode) if mode != "examples" else ex_results["ours"]
            base = ref if mode != "examples" else ex_results["reference"]
            for n in regs:
                say("  %s/%s: reference %s, ours %s" % (mode, n, fmt_outcome(base.get(n)),
                                                        fmt_outcome(res[n])))
                if res[n].get("pairs") or res[n].get("note"):
                    say("    " + (fmt_pairs(res[n]) or res[n]["note"]))
    else:
        say("no regressions")
    env_lines = []
    for mode in regressions:
        res = results.get(mode) if mode != "examples" else ex_results["ours"]
        env_lines += env_sensitive_lines(mode, res or {}, "  ")
    if env_lines:
        say("")
        say("ENVIRONMENT-SENSITIVE (failed on the reference too, run back to back with ours; "
            "not regressions):")
        for line in env_lines:
            say(line)
    say("")
    if "FALLBACK" in src_desc:
        say("WARNING: tested against %s" % src_desc)
    for s in summary:
        say(s)
    say("harness time: %.0f s" % (time.time() - t_start))
    if abi_ok is False:
        say("ERROR: the Rust ABI tables disagree with upstream's headers (see the ABI check above)")
        nreg += 1
    if binary_proof and not binary_proof["ok"]:
        say("ERROR: binary mode did not run against our liburing.so.2")
        nreg += 1
    say(note)
    say(final)
    if header_fail:
        say("ERROR: %d header check(s) failed: provenance / sqe-compare output above" % header_fail)
    return 1 if nreg or header_fail else 0


def on_sigterm(signum, frame):
    raise KeyboardInterrupt


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, on_sigterm)
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:
        sys.exit(130)
