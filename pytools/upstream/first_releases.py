#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The first liburing release that has each name we export, read from
liburing's release tags, written as the Rust table the manual's HISTORY
sections use (tools/gen/src/man/first_release.rs).

    python3 -m pytools.upstream.first_releases LIBURING_GIT_DIR [OUT]

LIBURING_GIT_DIR is a clone (bare is fine) of liburing with its tags. For
every release tag (liburing-X.Y, release candidates left out), oldest
first: a function of the library (a name of our src/liburing.map) is
present when the tag's src/liburing.map exports it; an inline helper or
macro (a name only of our liburing-ffi.map) when the tag's
src/include/liburing.h, or a header under src/include/liburing/, declares,
defines or uses it outside a comment (or a version script exports it). The
table records the first such release, which file showed it, the later
releases that lack the name again, and a release whose liburing.h declared
a library function that its liburing.map did not export yet. Only facts are taken (names and the releases
that carry them); nothing of liburing's text is copied.

Without OUT the table is printed.
"""

import os
import re
import subprocess
import sys

from pytools import REPO

OUT_DEFAULT = os.path.join(REPO, "tools", "gen", "src", "man", "first_release.rs")
TAG_RE = re.compile(r"^liburing-(\d+)\.(\d+)$")
SYMBOL_RE = re.compile(r"^\s*([A-Za-z_]\w*);")


def git(gitdir, *args):
    return subprocess.run(
        ["git", "-C", gitdir, *args], capture_output=True, text=True, check=True
    ).stdout


def our_names(map_name):
    """Every name our version script src/<map_name> exports."""
    names = set()
    with open(os.path.join(REPO, "src", map_name)) as f:
        for line in f:
            s = SYMBOL_RE.match(line)
            if s and s.group(1) not in ("global", "local"):
                names.add(s.group(1))
    return names


def releases(gitdir):
    tags = []
    for t in git(gitdir, "tag").split():
        m = TAG_RE.match(t)
        if m:
            tags.append(((int(m.group(1)), int(m.group(2))), t))
    return [t for _, t in sorted(tags)]


def code_lines(text):
    """The lines of a C header outside comments (block and line)."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    return [re.sub(r"//.*", "", line) for line in text.split("\n")]


def present(gitdir, tag, names, library):
    """{name: file} for the names tag shows; {name: file} of the library
    functions (names in `library`) its headers declare although its
    liburing.map does not export them (a program could not link them)."""
    files = [
        p
        for p in git(gitdir, "ls-tree", "-r", "--name-only", tag).split("\n")
        if p == "src/include/liburing.h"
        or (p.startswith("src/include/liburing/") and p.endswith(".h"))
    ]
    found = {}
    words = {}
    for p in files:
        for line in code_lines(git(gitdir, "show", "%s:%s" % (tag, p))):
            for w in re.findall(r"\b([A-Za-z_]\w*)\s*\(", line):
                words.setdefault(w, os.path.basename(p))
            d = re.match(r"\s*#\s*define\s+([A-Za-z_]\w*)", line)
            if d:
                words.setdefault(d.group(1), os.path.basename(p))
    exported = {}
    for m in ("src/liburing.map", "src/liburing-ffi.map"):
        try:
            text = git(gitdir, "show", "%s:%s" % (tag, m))
        except subprocess.CalledProcessError:
            continue
        for line in text.split("\n"):
            s = SYMBOL_RE.match(line)
            if s and s.group(1) in names:
                exported.setdefault(s.group(1), os.path.basename(m))
    declared_only = {}
    for n in names:
        # A function of the library is there when liburing.map exports it;
        # an inline helper or macro when a header has it.
        if n in library:
            if exported.get(n) == "liburing.map":
                found[n] = "liburing.map"
            elif n in words:
                declared_only[n] = words[n]
        elif n in words:
            found[n] = words[n]
        elif n in exported:
            found[n] = exported[n]
    return found, declared_only


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__)
    gitdir = sys.argv[1]
    library = our_names("liburing.map")
    names = library | our_names("liburing-ffi.map")
    first, seen, declared_first = {}, {}, {}
    tags = releases(gitdir)
    for tag in tags:
        here, declared_only = present(gitdir, tag, names, library)
        for n, where in here.items():
            first.setdefault(n, (tag[len("liburing-") :], where))
        for n in declared_only:
            if n not in first:
                declared_first.setdefault(n, tag[len("liburing-") :])
        for n in names:
            seen.setdefault(n, []).append(n in here)
    rows = []
    for n, (r, where) in sorted(first.items()):
        # Releases after the first that lack the name, as "A" or "A to B".
        gaps, run = [], []
        start = tags.index("liburing-" + r)
        for tag, has in zip(tags[start:], seen[n][start:], strict=True):
            if not has:
                run.append(tag[len("liburing-") :])
            elif run:
                gaps.append(run[0] if len(run) == 1 else "%s to %s" % (run[0], run[-1]))
                run = []
        if run:
            gaps.append(run[0] if len(run) == 1 else "%s to %s" % (run[0], run[-1]))
        rows.append((n, r, where, ", ".join(gaps), declared_first.get(n, "")))
    out = [
        "// SPDX-License-Identifier: MIT",
        "//! The first liburing release whose source has each name we export, and",
        "//! the file that shows it (its liburing.h or a header beside it declares,",
        "//! defines or uses the name; or a version script exports it). Generated",
        "//! by pytools/upstream/first_releases.py from liburing's release tags %s to"
        % tags[0][len("liburing-") :],
        "//! %s; names no release has are left out. A function of the library"
        % tags[-1][len("liburing-") :],
        "//! counts from the release whose liburing.map exports it; an inline",
        "//! helper or macro from the release whose headers have it.",
        "",
        "/// (name, first release, file that shows it, later releases without it",
        "/// (empty: none), the earlier release whose liburing.h declared the",
        "/// function although liburing.map did not export it (empty: none)).",
        "#[rustfmt::skip]",
        "pub const FIRST_RELEASE: &[(&str, &str, &str, &str, &str)] = &[",
    ]
    out += ['    ("%s", "%s", "%s", "%s", "%s"),' % row for row in rows]
    out += ["];", ""]
    text = "\n".join(out)
    if len(sys.argv) == 3:
        with open(sys.argv[2], "w") as f:
            f.write(text)
        print(
            "first_releases: %d of %d names, %d releases -> %s"
            % (len(rows), len(names), len(tags), sys.argv[2]),
            file=sys.stderr,
        )
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
