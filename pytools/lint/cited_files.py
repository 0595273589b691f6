# SPDX-License-Identifier: MIT
"""Every repository file that a comment or a document names must exist.

A citation is a path of two or more components whose last one ends in one
of a source file's extensions (`src/capi/queue.rs`, `../src/ffi.c`), found
anywhere in a tracked text file. It names this repository when its first
component is a top-level directory of it (read from the repository root)
or it starts with `./` or `../`; it resolves when the tracked file exists,
read from the repository root or from the citing file's directory
(a manifest's `src/main.rs`). A path whose first component is the name of
a folder deeper in the tree (`queue/tests.rs`) resolves when a tracked
file's path ends with it. Left alone: placeholders (a
component in capitals, `capi-tests/NAME.c`), build outputs (under
build/, target/, .cache/: not top-level directories of the repository),
paths in liburing's own tree that a comment names as liburing's
(LIBURING_PATHS), dated records of past runs (RECORDS), which name the
files of their day, and this file and its tests.

  python3 -m pytools.lint.cited_files     (make lint; exits 1 on a stale name)
"""

import fnmatch
import os
import re
import subprocess
import sys

from pytools import REPO

EXTENSIONS = {"rs", "c", "h", "cpp", "sh", "py", "md", "txt", "toml", "map", "in", "groups"}
EXTENSIONS |= {"tsv", "json", "mk", "lock", "1", "2", "3", "7"}
# liburing's source tree, named by the comments that compare with it.
LIBURING_PATHS = {
    "src/include/liburing.h",
    "src/syscall.h",
    "../src/syscall.h",
    "test/runtests.sh",
}
# What the build and the tools write: no citation of them is checked.
OUTPUT_DIRS = {"build", "target", ".cache"}
# Reports of a past run, kept as they were written.
RECORDS = (
    "docs/bench/20*/*",
    "docs/tests/*-experiment.txt",
    "docs/tests/coverage-summary.txt",
    # This check and its tests, whose examples name missing files on purpose.
    "pytools/lint/*cited_files.py",
)

CITATION = re.compile(r"(?<![\w./+$@:-])((?:\.\.?/)*[\w+-][\w.+-]*(?:/[\w.+-]+)+)")
PLACEHOLDER = re.compile(r"^[A-Z][A-Z_]*[A-Z](\.|$)")


def tracked_files(repo):
    out = subprocess.run(
        ["git", "-C", repo, "ls-files", "-z"], capture_output=True, check=True
    ).stdout
    return [f for f in out.decode().split("\0") if f]


def parents(path):
    while "/" in path:
        path = path.rsplit("/", 1)[0]
        yield path


def citations(text):
    """(line number, path) of every candidate citation in text."""
    for number, line in enumerate(text.splitlines(), 1):
        for match in CITATION.finditer(line):
            path = match.group(1).rstrip(".")
            name = path.rsplit("/", 1)[-1]
            if "." not in name or name.rsplit(".", 1)[1] not in EXTENSIONS:
                continue
            if any(PLACEHOLDER.match(part) for part in path.split("/")):
                continue
            yield number, path


def stale(files, read):
    """(citing file, line, path) for every citation of a missing file.
    files: the tracked paths; read(path): its text, or None if not text."""
    present = set(files)
    top = {f.split("/", 1)[0] for f in files if "/" in f}
    dir_names = {d.rsplit("/", 1)[-1] for f in files for d in parents(f)} - OUTPUT_DIRS
    found = []
    for citing in files:
        if any(fnmatch.fnmatch(citing, pattern) for pattern in RECORDS):
            continue
        text = read(citing)
        if text is None:
            continue
        here = os.path.dirname(citing)
        for number, path in citations(text):
            if path in LIBURING_PATHS:
                continue
            beside = os.path.normpath(os.path.join(here, path))
            first = path.split("/", 1)[0]
            if path.startswith(("./", "../")):
                resolves = beside in present
            elif first in top:
                resolves = path in present or beside in present
            elif first in dir_names:
                # A path inside a crate or folder (`queue/tests.rs`): some
                # tracked file ends with it.
                resolves = beside in present or any(f.endswith("/" + path) for f in present)
            else:
                continue
            if not resolves:
                found.append((citing, number, path))
    return found


def read_text(repo):
    def read(path):
        try:
            with open(os.path.join(repo, path), encoding="utf-8") as f:
                return f.read()
        except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
            return None

    return read


def main():
    found = stale(tracked_files(REPO), read_text(REPO))
    for citing, number, path in found:
        print("%s:%d: names %s, which does not exist" % (citing, number, path))
    if found:
        print("cited_files: %d stale file names" % len(found), file=sys.stderr)
        return 1
    print("ok: every file name cited in comments and documents exists")
    return 0


if __name__ == "__main__":
    sys.exit(main())
