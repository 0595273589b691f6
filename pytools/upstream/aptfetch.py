#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The one downloader: apt-get and apt-cache with a private state.

Every fetch from the Debian archive in this tree goes through here: liburing's
source package (upstream.py), Debian's liburing binaries (packaging/),
Debian 12's liburing 2.3 (capi-tests/compat/run.sh), Debian's crates
(tools/offline/check-offline.sh), the cross and VM packages
(tools/arch/vm/debs.sh) and rust-src (tools/arch/rust-src.sh). The mirror
is the one this machine's apt already uses, read from its deb822 sources
(never written here); lists, archives and
an empty dpkg status live in a state directory of the caller's, so nothing of
the machine's apt state is read or changed.

Library:  PrivateApt(state, suites, types="deb", arch=None).versions(pkg) ...
CLI:      python3 -m pytools.upstream.aptfetch STATE [--suite S]... [--types deb|deb-src] [--arch A]
                 [--max-age SECONDS] COMMAND ARGS...
  update                 refresh the lists
  download DEST PKG...   binary packages (PKG or PKG=VERSION) into DEST
  source DEST PKG=VER    a source package's files into DEST (not unpacked)
  versions PKG           the versions the suites have, newest first
  depends PKG            the first package PKG depends on
  missing PKG...         what installing PKG... would add to this machine
The lists are fetched when there are none, or when older than --max-age.
apt's own output goes to stderr (CLI) or the log file given (library).
"""

import argparse
import functools
import os
import re
import subprocess
import sys
import time

APT_SOURCE_FILES = ("/etc/apt/sources.list.d/debian.sources",)
COMPONENT = "main"


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
    """The Debian archive this machine uses: (URIs, Signed-By or None, file), or None.

    Taken from the main-archive stanza (the one whose suite has no '-updates',
    '-security' ... suffix) of the machine's own deb822 apt sources; falls back to a
    one-line `deb` entry of /etc/apt/sources.list."""
    candidates = list(APT_SOURCE_FILES)
    parts = "/etc/apt/sources.list.d"
    if os.path.isdir(parts):
        candidates += [
            os.path.join(parts, f) for f in sorted(os.listdir(parts)) if f.endswith(".sources")
        ]
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


def derive_security_archive():
    """The URI of the security archive this machine's deb822 apt sources name (a
    stanza whose suites end in -security), or None."""
    parts = "/etc/apt/sources.list.d"
    paths = list(APT_SOURCE_FILES)
    if os.path.isdir(parts):
        paths += [
            os.path.join(parts, f) for f in sorted(os.listdir(parts)) if f.endswith(".sources")
        ]
    for path in dict.fromkeys(paths):
        if not os.path.isfile(path):
            continue
        with open(path) as f:
            for st in parse_deb822(f.read()):
                uris = (field(st, "URIs") or "").split()
                if uris and any(
                    s.endswith("-security") for s in (field(st, "Suites") or "").split()
                ):
                    return uris[0]
    return None


class AptError(Exception):
    pass


@functools.total_ordering
class DebVersion:
    """Orders Debian version strings with dpkg itself."""

    def __init__(self, v):
        self.v = v

    def __lt__(self, other):
        return subprocess.call(["dpkg", "--compare-versions", self.v, "lt", other.v]) == 0

    def __eq__(self, other):
        return self.v == other.v


class PrivateApt:
    """apt with a private source list, lists, archives and dpkg status under `state`.

    suites: the suites of the private source; types: "deb" (binary packages)
    or "deb-src" (source packages); arch: the architecture of binary packages
    (default the machine's); log: an open file for apt's output (default stderr)."""

    def __init__(self, state, suites, types="deb", arch=None, log=None):
        self.state = os.path.abspath(state)
        self.suites, self.types, self.arch = tuple(suites), types, arch
        self.log = log
        self.parts = os.path.join(self.state, "sources.list.d")
        self.lists = os.path.join(self.state, "lists")
        self.archives = os.path.join(self.state, "archives")
        self.status = os.path.join(self.state, "status")
        self.sourcelist = os.path.join(self.state, "empty.list")
        self.origin = None

    def opts(self, status=None):
        o = [
            "-o",
            "Dir::Etc::SourceList=" + self.sourcelist,
            "-o",
            "Dir::Etc::SourceParts=" + self.parts,
            "-o",
            "Dir::Etc::Preferences=/dev/null",
            "-o",
            "Dir::Etc::PreferencesParts=/dev/null",
            "-o",
            "Dir::State::Lists=" + self.lists,
            "-o",
            "Dir::State::Status=" + (status or self.status),
            "-o",
            "Dir::Cache::Archives=" + self.archives,
            "-o",
            "Dir::Cache::pkgcache=",
            "-o",
            "Dir::Cache::srcpkgcache=",
            "-o",
            "APT::Sandbox::User=root",
            "-o",
            "Acquire::Languages=none",
            "-o",
            "APT::Get::List-Cleanup=false",
            # sid's Release file on a snapshot mirror is often past its
            # Valid-Until; signatures are still checked.
            "-o",
            "Acquire::Check-Valid-Until=false",
        ]
        if self.arch:
            o += ["-o", "APT::Architecture=" + self.arch, "-o", "APT::Architectures=" + self.arch]
        return o

    def configure(self):
        """Writes the private source (the machine's mirror, our suites); returns
        the file the mirror was read from."""
        if self.origin:
            return self.origin
        found = derive_archive()
        if not found:
            raise AptError(
                "cannot derive a Debian archive from this machine's apt "
                "configuration (%s)" % ", ".join(APT_SOURCE_FILES)
            )
        uris, signed_by, origin = found
        for d in (
            self.parts,
            os.path.join(self.lists, "partial"),
            os.path.join(self.archives, "partial"),
        ):
            os.makedirs(d, exist_ok=True)
        open(self.sourcelist, "w").close()
        if not os.path.exists(self.status):
            open(self.status, "w").close()
        for old in os.listdir(self.parts):  # ours alone
            os.unlink(os.path.join(self.parts, old))
        text = [
            "# Written by pytools/upstream/aptfetch.py from %s" % origin,
            "Types: " + self.types,
            "URIs: " + " ".join(uris),
            "Suites: " + " ".join(self.suites),
            "Components: " + COMPONENT,
        ]
        if self.arch:
            text.append("Architectures: " + self.arch)
        if signed_by:
            text.append("Signed-By: " + signed_by)
        with open(os.path.join(self.parts, "private.sources"), "w") as f:
            f.write("\n".join(text) + "\n")
        self.origin = origin
        return origin

    def _run(self, cmd, cwd=None, status=None, check=True):
        self.configure()
        full = [cmd[0], "-q"] + self.opts(status) + cmd[1:]
        out = self.log or sys.stderr
        if self.log:
            self.log.write("\n$ (cd %s && %s)\n" % (cwd or os.getcwd(), " ".join(full)))
            self.log.flush()
        env = dict(os.environ, LC_ALL="C")
        rc = subprocess.call(
            full,
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT if self.log else None,
        )
        if self.log:
            self.log.write("[exit %d]\n" % rc)
            self.log.flush()
        if check and rc != 0:
            raise AptError("%s failed (exit %d)" % (" ".join(cmd), rc))
        return rc

    def _query(self, cmd, status=None):
        self.configure()
        p = subprocess.run(
            [cmd[0]] + self.opts(status) + cmd[1:],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=dict(os.environ, LC_ALL="C"),
        )
        return p.returncode, p.stdout

    def lists_age(self):
        """Seconds since the lists were fetched, None when there are none."""
        try:
            times = [
                os.path.getmtime(os.path.join(self.lists, f))
                for f in os.listdir(self.lists)
                if "Packages" in f or "Sources" in f
            ]
        except OSError:
            return None
        return time.time() - max(times) if times else None

    def update(self, max_age=None):
        """Fetches the lists: always (max_age None), or when there are none or
        they are older than max_age seconds."""
        age = self.lists_age()
        if max_age is not None and age is not None and age <= max_age:
            return
        self._run(["apt-get", "update"])

    def versions(self, pkg):
        """The versions of source (deb-src) or binary package pkg, oldest first."""
        if self.types == "deb-src":
            rc, out = self._query(["apt-cache", "showsrc", pkg])
            vers, name = [], None
            for line in out.splitlines():
                if line.startswith("Package:"):
                    name = line.split(":", 1)[1].strip()
                elif line.startswith("Version:") and name == pkg:
                    vers.append(line.split(":", 1)[1].strip())
        else:
            rc, out = self._query(["apt-cache", "madison", pkg])
            vers = [
                l.split("|")[1].strip()
                for l in out.splitlines()
                if l.count("|") >= 2 and l.split("|")[0].strip() == pkg
            ]
        return sorted(set(vers), key=DebVersion) if rc == 0 else []

    def depends(self, pkg):
        rc, out = self._query(["apt-cache", "depends", pkg])
        for line in out.splitlines():
            if line.startswith("  Depends:"):
                return line.split()[1]
        return None

    def missing(self, pkgs):
        """What installing pkgs would add to this machine (its real dpkg status)."""
        rc, out = self._query(
            ["apt-get", "-s", "install", "--no-install-recommends"] + list(pkgs),
            status="/var/lib/dpkg/status",
        )
        return [l.split()[1] for l in out.splitlines() if l.startswith("Inst ")]

    def download(self, dest, pkgs, check=True):
        """Binary packages (name or name=version) into dest."""
        os.makedirs(dest, exist_ok=True)
        return self._run(["apt-get", "download"] + list(pkgs), cwd=dest, check=check)

    def source(self, dest, spec, check=True):
        """A source package's files (.dsc and tarballs) into dest, not unpacked."""
        os.makedirs(dest, exist_ok=True)
        return self._run(["apt-get", "source", "--download-only", spec], cwd=dest, check=check)


def main(argv):
    ap = argparse.ArgumentParser(
        prog="python3 -m pytools.upstream.aptfetch", description=__doc__.split("\n")[0]
    )
    ap.add_argument("state", help="private apt state directory")
    ap.add_argument("--suite", action="append", required=True, help="suite (repeatable)")
    ap.add_argument("--types", default="deb", choices=("deb", "deb-src"))
    ap.add_argument("--arch", help="architecture of binary packages")
    ap.add_argument("--max-age", type=int, help="refresh lists older than this (seconds)")
    ap.add_argument(
        "command", choices=("update", "download", "source", "versions", "depends", "missing")
    )
    ap.add_argument("args", nargs="*")
    a = ap.parse_args(argv)
    apt = PrivateApt(a.state, a.suite, a.types, a.arch)
    need = {"update": 0, "download": 2, "source": 2, "versions": 1, "depends": 1, "missing": 1}
    if len(a.args) < need[a.command] or (
        a.command in ("versions", "depends", "source") and len(a.args) != need[a.command]
    ):
        ap.error("wrong arguments for %s" % a.command)
    try:
        if a.command == "update":
            apt.update()
            return 0
        apt.update(a.max_age if a.max_age is not None else float("inf"))
        if a.command == "download":
            apt.download(a.args[0], a.args[1:])
        elif a.command == "source":
            apt.source(a.args[0], a.args[1])
        elif a.command == "versions":
            for v in reversed(apt.versions(a.args[0])):
                print(v)
        elif a.command == "depends":
            dep = apt.depends(a.args[0])
            if dep:
                print(dep)
        elif a.command == "missing":
            for p in apt.missing(a.args):
                print(p)
    except AptError as e:
        print("aptfetch.py: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
