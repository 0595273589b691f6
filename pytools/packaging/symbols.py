#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes packaging/debian/liburing2.symbols and liburing-rs2.symbols from the
version scripts.

    python3 -m pytools.packaging.symbols           rewrite the symbols files
    python3 -m pytools.packaging.symbols --check   exit 1 if one is stale

liburing2.symbols is liburing2's API (check-debian compares our libraries with
it). liburing-rs2.symbols is shipped by liburing-rs2: a program built with
liburing-rs-dev's pkg-config flags finds our private directory through its
RUNPATH, and dpkg-shlibdeps then reads this file. Its minimum versions are
those of liburing-rs2 (FIRST_RS): the first version of ours that exported
each version node.

The version scripts (src/liburing.map, src/liburing-ffi.map) already say which
symbols each shared object exports and under which version node. The minimum
package version of a symbol is normally that node's release; the exceptions
below are symbols liburing added to an older node after that release, or that
existed before Debian first packaged the library: their minimum version is the
first liburing2 version that exported them, so a program built against our
liburing-dev never accepts an older liburing2 that lacks the symbol.
"""

import os
import re
import sys

from pytools import REPO

OUT = os.path.join(REPO, "packaging", "debian", "liburing2.symbols")
OUT_RS = os.path.join(REPO, "packaging", "debian", "liburing-rs2.symbols")
# liburing release (version node) -> the first liburing-rs2 version exporting
# it. Our first version implements liburing 2.15 whole; a node added later
# gets the version that adds it.
FIRST_RS = {"2.%d" % minor: "2.15~rs2.15.0" for minor in range(0, 16)}
LIBRARIES = (("liburing-ffi.so.2", "src/liburing-ffi.map"), ("liburing.so.2", "src/liburing.map"))

# (soname, symbol or version node) -> first liburing2 version exporting it.
LATER_THAN_NODE = {
    (soname, name): "2.6"
    for soname, _ in LIBRARIES
    for name in ("io_uring_register_napi", "io_uring_unregister_napi")
}
LATER_THAN_NODE.update(
    {
        ("liburing.so.2", "io_uring_get_probe"): "2.3",
        ("liburing.so.2", "io_uring_queue_init"): "2.3",
        ("liburing.so.2", "io_uring_queue_init_params"): "2.3",
        ("liburing.so.2", "io_uring_queue_mmap"): "2.3",
        ("liburing.so.2", "io_uring_mlock_size"): "2.3",
        ("liburing.so.2", "io_uring_mlock_size_params"): "2.3",
        ("liburing.so.2", "LIBURING_2.12"): "2.13",
        ("liburing.so.2", "io_uring_register_sync_msg"): "2.12",
        ("liburing-ffi.so.2", "io_uring_register_sync_msg"): "2.12",
        ("liburing-ffi.so.2", "io_uring_cqe_nr"): "2.13",
        ("liburing-ffi.so.2", "io_uring_prep_cmd_sock"): "2.6",
        ("liburing-ffi.so.2", "io_uring_prep_futex_wait"): "2.6",
        ("liburing-ffi.so.2", "io_uring_prep_futex_waitv"): "2.6",
        ("liburing-ffi.so.2", "io_uring_prep_futex_wake"): "2.6",
        ("liburing-ffi.so.2", "io_uring_prep_read_multishot"): "2.6",
        ("liburing-ffi.so.2", "io_uring_prep_waitid"): "2.6",
        ("liburing-ffi.so.2", "io_uring_prep_send_bundle"): "2.7",
    }
)


def nodes(path):
    """[(node, [symbols])] in file order."""
    with open(os.path.join(REPO, path)) as f:
        text = re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S)
    out = []
    for m in re.finditer(r"(LIBURING_[0-9.]+)\s*\{(.*?)\}", text, flags=re.S):
        body = m.group(2).split("local:")[0]
        syms = re.findall(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*;", body, flags=re.M)
        out.append((m.group(1), syms))
    return out


def render(package="liburing2"):
    """The symbols file of liburing2 (Debian's minimum versions) or liburing-rs2."""
    ours = package == "liburing-rs2"
    lines = [
        "# SPDX-License-Identifier: MIT",
        "# Written by pytools/packaging/symbols.py from src/liburing.map and src/liburing-ffi.map.",
    ]
    for soname, path in LIBRARIES:
        entries = []
        for node, syms in nodes(path):
            release = node[len("LIBURING_") :]
            if ours:
                first = FIRST_RS[release]
                entries.append(("%s@%s" % (node, node), first))
                entries += [("%s@%s" % (s, node), first) for s in syms]
                continue
            # The node itself is exported as a symbol of the same name.
            entries.append(("%s@%s" % (node, node), LATER_THAN_NODE.get((soname, node), release)))
            for s in syms:
                entries.append(("%s@%s" % (s, node), LATER_THAN_NODE.get((soname, s), release)))
        lines.append("%s %s #MINVER#" % (soname, package))
        lines.append(
            "* Build-Depends-Package: %s" % ("liburing-rs-dev" if ours else "liburing-dev")
        )
        lines += [" %s %s" % e for e in sorted(entries)]
    return "\n".join(lines) + "\n"


def main(argv):
    status = 0
    for out, package in ((OUT, "liburing2"), (OUT_RS, "liburing-rs2")):
        text = render(package)
        if argv[1:] == ["--check"]:
            with open(out) as f:
                if f.read() != text:
                    print(
                        "%s is stale: run python3 -m pytools.packaging.symbols"
                        % os.path.relpath(out, REPO)
                    )
                    status = 1
                    continue
            print("ok: %s matches the version scripts" % os.path.relpath(out, REPO))
            continue
        with open(out, "w") as f:
            f.write(text)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
