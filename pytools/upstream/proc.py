# SPDX-License-Identifier: MIT
"""Messages and subprocesses for the provider of upstream liburing and its
callers (the liburing-tests harness, packaging/): one way to say, fail, run a
logged command and capture one."""

import os
import shutil
import subprocess
import sys

# The prefix of warnings and errors, and where progress goes (the provider's
# command line sends it to stderr: its stdout is the path it prints).
PREFIX = "liburing-tests"
OUT = sys.stdout


def say(msg=""):
    print(msg, file=OUT, flush=True)


def warn(msg):
    print("%s: %s" % (PREFIX, msg), file=sys.stderr, flush=True)


def die(msg, code=2):
    warn("error: " + msg)
    sys.exit(code)


def loud(msg):
    bar = "!" * 78
    for stream in (OUT, sys.stderr) if OUT is not sys.stderr else (sys.stderr,):
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
    rc = subprocess.call(
        cmd,
        cwd=cwd,
        env=env or build_env(),
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    log.write("[exit %d]\n" % rc)
    log.flush()
    if check and rc != 0:
        die("command failed (exit %d): %s\n  see %s" % (rc, " ".join(cmd), log.name))
    return rc


def capture(cmd, cwd=None, env=None):
    p = subprocess.run(
        cmd,
        cwd=cwd,
        env=env or build_env(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        errors="replace",
    )
    return p.returncode, p.stdout


def rmtree(path):
    if os.path.islink(path) or os.path.isfile(path):
        os.unlink(path)
    elif os.path.isdir(path):
        shutil.rmtree(path)
