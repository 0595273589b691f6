# SPDX-License-Identifier: MIT
"""Check the Rust ABI tables against upstream liburing's own headers.

build/abi-assert.c (written by `make abi-assert` from the uapi crate's tables)
holds one static assertion per fact: every constant's value, whether it is a
macro or an enumerator (and of which enum), each macro's C type, and the size,
alignment, member offsets, sizes and C types of every structure. Compiling it
with -I <upstream include dir>, as C and as C++17, checks all of them against the
liburing the harness has just built. A self-test then breaks one constant in a
scratch copy of those headers and expects the compile to fail, so a check that
silently stopped checking would be noticed.

Usage: python3 -m pytools.suite.abi_check ASSERT_FILE UPSTREAM_INCLUDE_DIR
"""

import os
import re
import shutil
import subprocess
import sys
import tempfile

COMPILERS = (
    ("C", ["cc", "-std=gnu11"]),
    ("C++17", ["c++", "-std=c++17", "-x", "c++"]),
)
# The constant the self-test breaks, and the value it gives it.
SELF_TEST_NAME = "IORING_SETUP_SQPOLL"
SELF_TEST_VALUE = "(1U << 30)"


def compile_all(assert_file, include_dir, workdir):
    """{language: (ok, first error line)} for the file against include_dir."""
    out = {}
    for lang, cmd in COMPILERS:
        obj = os.path.join(workdir, "abi-assert.o")
        p = subprocess.run(
            # ABI_LIBURING_2_15: leave out the names newer than liburing 2.15's
            # headers (tools/gen/src/c_headers/abi_assert.rs BEYOND_LIBURING_2_15).
            cmd
            + ["-Wall", "-Wextra", "-DABI_LIBURING_2_15", "-c", "-o", obj]
            + ["-I", include_dir, assert_file],
            capture_output=True,
            text=True,
        )
        errors = [l for l in p.stderr.splitlines() if "error" in l]
        out[lang] = (p.returncode == 0, errors[0] if errors else p.stderr.strip()[:300])
    return out


def figures(assert_file):
    with open(assert_file) as f:
        for line in f:
            m = re.search(r"abi-assert: (.*)", line)
            if m:
                return m.group(1)
    return "?"


def self_test(assert_file, include_dir, workdir):
    """True when a scratch copy with one wrong constant is rejected."""
    scratch = os.path.join(workdir, "include")
    shutil.copytree(include_dir, scratch, symlinks=True)
    header = os.path.join(scratch, "liburing", "io_uring.h")
    with open(header) as f:
        text = f.read()
    broken, n = re.subn(
        r"(#define[ \t]+%s[ \t]+)[^\n]*" % SELF_TEST_NAME, r"\g<1>" + SELF_TEST_VALUE, text, count=1
    )
    if n != 1:
        return None
    with open(header, "w") as f:
        f.write(broken)
    results = compile_all(assert_file, scratch, workdir)
    return all(not ok for ok, _ in results.values())


def run(assert_file, include_dir, say=print):
    """Runs the check and its self-test; prints the figures; True when both pass."""
    if not os.path.isfile(assert_file):
        say("ABI check: FAIL: %s missing (run `make abi-assert`)" % assert_file)
        return False
    with tempfile.TemporaryDirectory(prefix="abi-check-") as workdir:
        results = compile_all(assert_file, include_dir, workdir)
        caught = self_test(assert_file, include_dir, workdir)
    ok = all(r[0] for r in results.values())
    say(
        "ABI check against %s: %s; %s"
        % (
            include_dir,
            figures(assert_file),
            ", ".join("%s %s" % (lang, "ok" if r[0] else "FAIL") for lang, r in results.items()),
        )
    )
    for lang, (passed, err) in results.items():
        if not passed:
            say("  %s: %s" % (lang, err))
    if caught is None:
        say("ABI check self-test: %s not found as a macro in io_uring.h; not run" % SELF_TEST_NAME)
    else:
        say(
            "ABI check self-test (%s changed in a scratch copy): %s"
            % (
                SELF_TEST_NAME,
                "rejected, as it must be" if caught else "ACCEPTED: the check is broken",
            )
        )
    return ok and caught is not False


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(0 if run(sys.argv[1], sys.argv[2]) else 1)
