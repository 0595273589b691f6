# SPDX-License-Identifier: MIT
"""A clean Debian build root of one release, as a buildd uses one (for
pytools/packaging/check_debian*.py).

The base is `debootstrap --variant=buildd SUITE` (essential packages and
build-essential), made once and cached under .cache/check-debian/SUITE-base
(sid by default; bookworm and trixie for make check-debian-releases, whose
apt also reads SUITE-updates and SUITE-security, as a stable buildd's and a
server's do).
Every build copies it afresh, installs the package's Build-Depends and nothing
else (`apt-get build-dep` on the unpacked tree, no Recommends), and builds as an
unprivileged user inside a network namespace of its own: only what Debian
packaged, and no network. Downloaded .debs are kept in a cache of their own,
so a warm run downloads nothing.

The mirror is the one this machine's apt uses (pytools/upstream/aptfetch.py), read at
run time; sid's Release file can be older than apt's validity window there, so
the root's apt does not check Valid-Until.
"""

import os
import shutil
import subprocess
import time
import urllib.parse

from pytools.upstream import aptfetch
from pytools.upstream.proc import capture, die, rmtree, run_logged

SUITE = "sid"
# Releases that have -updates and -security suites beside the main one.
STABLE = ("bookworm", "trixie")
BUILD_USER = "builder"
# Inside the root: where the tree is unpacked, and the build's environment
# (a buildd's: nothing of the caller's, HOME that does not exist).
BUILD_DIR = "/build"
BUILD_ENV = {
    "PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
    "HOME": "/nonexistent",
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "DEB_BUILD_OPTIONS": "parallel=2",
}
APT_CONF = """\
// Written by pytools/packaging/build_root.py.
// sid's Release on the mirror may be older than apt's validity window.
Acquire::Check-Valid-Until "false";
// A buildd installs Build-Depends only, never what they recommend.
APT::Install-Recommends "false";
APT::Install-Suggests "false";
Acquire::Languages "none";
Dpkg::Use-Pty "false";
"""


class BuildRoot:
    def __init__(self, cache, log, suite=SUITE):
        self.cache = cache
        self.suite = suite
        self.base = os.path.join(cache, suite + "-base")
        # Each build's root: an overlay, the cached base below, the build's writes in
        # SUITE-upper (a copy of the 700 MB base would cost half a minute on a busy disk).
        self.root = os.path.join(cache, suite + "-root")
        self.upper = os.path.join(cache, suite + "-upper")
        self.overlay_work = os.path.join(cache, suite + "-overlay-work")
        self.archives = os.path.join(cache, suite + "-debs-cache")
        self.log = log

    # ------------------------------------------------------------ base

    def mirror(self):
        found = aptfetch.derive_archive()
        if not found:
            die("cannot derive a Debian mirror from this machine's apt sources")
        uris, signed_by, _ = found
        return uris[0], signed_by

    def ensure_base(self):
        """debootstrap once; returns (seconds spent, 'made' or 'cached')."""
        stamp = os.path.join(self.base, ".uring-rs-complete")
        if os.path.exists(stamp):
            return 0.0, "cached"
        t0 = time.time()
        rmtree(self.base)
        uri, signed_by = self.mirror()
        cmd = ["debootstrap", "--variant=buildd"]
        if signed_by:
            cmd.append("--keyring=" + signed_by)
        cmd += [self.suite, self.base, uri]
        if run_logged(cmd, self.log, check=False) != 0:
            die("debootstrap %s failed (see %s)" % (self.suite, self.log.name))
        self.configure_base(uri)
        self.chroot(
            ["useradd", "--create-home", "--home-dir", "/home/" + BUILD_USER, BUILD_USER],
            root=self.base,
        )
        self.chroot(["apt-get", "-q", "update"], root=self.base)
        self.chroot(["apt-get", "-q", "clean"], root=self.base)
        open(stamp, "w").close()
        return time.time() - t0, "made"

    def configure_base(self, uri):
        if self.suite in STABLE:
            security = aptfetch.derive_security_archive() or uri.rstrip("/") + "-security"
            with open(os.path.join(self.base, "etc", "apt", "sources.list"), "w") as f:
                f.write(
                    "deb %s %s main\ndeb %s %s-updates main\ndeb %s %s-security main\n"
                    % (uri, self.suite, uri, self.suite, security, self.suite)
                )
        with open(os.path.join(self.base, "etc", "apt", "apt.conf.d", "99uring-rs"), "w") as f:
            f.write(APT_CONF)
        # As Debian's build chroots: a throwaway root needs no fsync per unpacked file.
        with open(
            os.path.join(self.base, "etc", "dpkg", "dpkg.cfg.d", "uring-rs-unsafe-io"), "w"
        ) as f:
            f.write("force-unsafe-io\n")

    # ------------------------------------------------------------ running inside

    def chroot(self, argv, root=None, net=True, user=None, cwd="/", env=None, check=True):
        """argv inside the root, in mount (and without net: network) namespaces of its
        own, so /proc and the .deb cache are unmounted when it ends, whatever happens."""
        root = root or self.root
        # /sys too: the C API tests (autopkgtest) read CPU and device facts there.
        mounts = [
            "mount -t proc proc %s/proc" % sh_quote(root),
            "mount -t sysfs sysfs %s/sys" % sh_quote(root),
        ]
        if root == self.root:
            os.makedirs(self.archives, exist_ok=True)
            mounts.append(
                "mount --bind %s %s/var/cache/apt/archives"
                % (sh_quote(self.archives), sh_quote(root))
            )
        inner = ["chroot"]
        if user:
            inner.append("--userspec=%s:%s" % (user, user))
        inner += [root, "env", "-i"] + [
            "%s=%s" % kv
            for kv in sorted(
                (
                    env
                    or {
                        "PATH": BUILD_ENV["PATH"],
                        "LANG": "C.UTF-8",
                        "DEBIAN_FRONTEND": "noninteractive",
                    }
                ).items()
            )
        ]
        inner += ["sh", "-c", 'cd "$0" && exec "$@"', cwd] + argv
        script = " && ".join(mounts) + " && exec " + " ".join(sh_quote(a) for a in inner)
        unshare = ["unshare", "--mount", "--fork"] + ([] if net else ["--net"])
        rc = run_logged(unshare + ["sh", "-c", script], self.log, check=False)
        if check and rc != 0:
            die(
                "in the %s root: %s failed (exit %d, see %s)"
                % (self.suite, " ".join(argv), rc, self.log.name)
            )
        return rc

    def capture(self, argv, cwd="/", net=False):
        """argv inside the root (no network unless net), its output as text."""
        inner = [
            "chroot",
            self.root,
            "env",
            "-i",
            "PATH=" + BUILD_ENV["PATH"],
            "LANG=C.UTF-8",
            "DEBIAN_FRONTEND=noninteractive",
            "sh",
            "-c",
            'cd "$0" && exec "$@"',
            cwd,
        ] + argv
        script = "mount -t proc proc %s/proc && mount -t sysfs sysfs %s/sys && exec %s" % (
            sh_quote(self.root),
            sh_quote(self.root),
            " ".join(sh_quote(a) for a in inner),
        )
        unshare = ["unshare", "--mount", "--fork"] + ([] if net else ["--net"])
        return capture(unshare + ["sh", "-c", script])

    # ------------------------------------------------------------ one build

    def fresh_root(self):
        self.close()
        for d in (self.upper, self.overlay_work):
            rmtree(d)
        for d in (self.upper, self.overlay_work, self.root):
            os.makedirs(d, exist_ok=True)
        subprocess.check_call(
            [
                "mount",
                "-t",
                "overlay",
                "overlay",
                "-o",
                "lowerdir=%s,upperdir=%s,workdir=%s" % (self.base, self.upper, self.overlay_work),
                self.root,
            ]
        )
        # apt in the root resolves the mirror as this machine does (not during the build).
        resolv = os.path.join(self.root, "etc", "resolv.conf")
        if os.path.lexists(resolv):
            os.remove(resolv)
        shutil.copy2("/etc/resolv.conf", resolv)

    def close(self):
        """Unmounts the root (its writes stay in SUITE-upper until the next build)."""
        if os.path.ismount(self.root):
            subprocess.call(["umount", self.root])

    def path(self, inside):
        return os.path.join(self.root, inside.lstrip("/"))

    def install_build_depends(self, tree_inside):
        """apt-get build-dep on the unpacked tree: its Build-Depends, nothing else.
        Returns the packages that were installed."""
        before = self.installed()
        cmd = ["apt-get", "-q", "-y", "build-dep", tree_inside]
        if self.chroot(cmd, check=False) != 0:
            # The cached package lists may name versions the mirror has dropped.
            self.chroot(["apt-get", "-q", "update"])
            self.chroot(cmd)
            self.refresh_base_lists()
        return sorted(set(self.installed()) - set(before))

    def refresh_base_lists(self):
        lists = os.path.join("var", "lib", "apt", "lists")
        rmtree(os.path.join(self.base, lists))
        shutil.copytree(
            os.path.join(self.root, lists), os.path.join(self.base, lists), symlinks=True
        )

    def mirror_reachable_offline(self):
        """Can the build reach the mirror? (bash and coreutils' timeout are essential,
        so they are there.) Returns (reached, what happened)."""
        host = urllib.parse.urlsplit(self.mirror()[0]).hostname
        probe = (
            'if timeout 10 bash -c "exec 3<>/dev/tcp/$0/80" 2>/dev/null; '
            'then echo connected; else echo "failed: no TCP connection to its port 80"; fi'
        )
        rc, out = self.capture(["bash", "-c", probe, host])
        out = out.strip()
        return out == "connected", out

    def installed(self):
        rc, out = self.capture(["dpkg-query", "-W", "-f", "${Package}=${Version}\\n"])
        return [ln for ln in out.splitlines() if "=" in ln]

    def version_of(self, package):
        rc, out = self.capture(["dpkg-query", "-W", "-f", "${Version}", package])
        return out.strip() if rc == 0 else "?"

    def build(self, tree_inside, options, args=("-b",), user=BUILD_USER, umask="022", env=None):
        """dpkg-buildpackage <args> -uc -us as user, with umask, with no network;
        env: variables added to BUILD_ENV. Returns its exit status."""
        env = dict(BUILD_ENV, DEB_BUILD_OPTIONS=options, **(env or {}))
        return self.chroot(
            ["sh", "-c", 'umask "$0" && exec "$@"', umask, "dpkg-buildpackage"]
            + list(args)
            + ["-uc", "-us"],
            net=False,
            user=user,
            cwd=tree_inside,
            env=env,
            check=False,
        )

    def run_as(self, argv, cwd, user=BUILD_USER):
        """argv as user with no network, in cwd; returns its exit status."""
        return self.chroot(argv, net=False, user=user, cwd=cwd, env=BUILD_ENV, check=False)


def sh_quote(s):
    return "'" + s.replace("'", "'\\''") + "'"
