# SPDX-License-Identifier: MIT
"""The binary drop-in's proof: which liburing.so.2 the tests really load."""

import os
import re
import signal
import subprocess
import time

from .common import capture
from .runner import killpg


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
    p = subprocess.Popen(
        [exe, "stdin"],
        cwd=testdir,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    paths = set()
    try:
        deadline = time.time() + 3
        while time.time() < deadline and p.poll() is None:
            try:
                with open("/proc/%d/maps" % p.pid) as f:
                    paths = {
                        l.split(None, 5)[5].strip()
                        for l in f
                        if len(l.split(None, 5)) == 6
                        and os.path.basename(l.split(None, 5)[5]).startswith("liburing.so")
                    }
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
    evidence.append(
        "loader resolution (LD_TRACE_LOADED_OBJECTS) of %d binaries: %s"
        % (
            checked,
            "all liburing.so.2 => %s" % want
            if not wrong
            else "%d WRONG: %s" % (len(wrong), "; ".join(wrong[:5])),
        )
    )
    ok = checked > 0 and not wrong
    probe = next(
        (
            n
            for n in ["nop", "probe", "version"] + list(names)
            if os.path.exists(os.path.join(testdir, n + ".t"))
        ),
        None,
    )
    if probe:
        rc, out = capture(["./%s.t" % probe], cwd=testdir, env=dict(env, LD_DEBUG="libs"))
        got = ld_debug_loaded(out)
        ok = ok and got is not None and os.path.realpath(got) == want
        evidence.append(
            "LD_DEBUG=libs run of %s.t (exit %d): liburing.so.2 loaded from %s"
            % (probe, rc, got or "NOTHING")
        )
    maps = live_maps(testdir, env)
    if maps:
        ok = ok and all(os.path.realpath(m) == want for m in maps)
        evidence.append("/proc/<pid>/maps of a running read-mshot-stdin.t: %s" % ", ".join(maps))
    return ok, evidence
