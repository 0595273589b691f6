#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Writes a directory tree as an initramfs (cpio "newc", uncompressed).

Usage: python3 -m pytools.vm.cpio TREE OUT

Everything is owned by root in the archive, whoever runs this; /dev/console
is added as a device node so the kernel can give /init its stdio before
anything is mounted (creating the node in TREE would need root).
"""

import os
import stat
import sys


def entry(out, ino, name, mode, data=b"", rdev=(0, 0), nlink=1):
    name_b = name.encode() + b"\0"
    fields = [ino, mode, 0, 0, nlink, 0, len(data), 0, 0, rdev[0], rdev[1], len(name_b), 0]
    out.write(b"070701" + b"".join(b"%08X" % f for f in fields))
    out.write(name_b)
    out.write(b"\0" * ((4 - (110 + len(name_b)) % 4) % 4))
    out.write(data)
    out.write(b"\0" * ((4 - len(data) % 4) % 4))


def main():
    tree, dest = sys.argv[1], sys.argv[2]
    ino = 1
    with open(dest, "wb") as out:
        for root, dirs, files in os.walk(tree):
            dirs.sort()
            rel_root = os.path.relpath(root, tree)
            for name in sorted(dirs) + sorted(files):
                path = os.path.join(root, name)
                rel = os.path.normpath(os.path.join(rel_root, name))
                st = os.lstat(path)
                ino += 1
                if stat.S_ISLNK(st.st_mode):
                    entry(out, ino, rel, stat.S_IFLNK | 0o777, os.readlink(path).encode())
                elif stat.S_ISDIR(st.st_mode):
                    entry(out, ino, rel, stat.S_IFDIR | 0o755, nlink=2)
                elif stat.S_ISREG(st.st_mode):
                    with open(path, "rb") as f:
                        entry(out, ino, rel, stat.S_IFREG | stat.S_IMODE(st.st_mode), f.read())
        if not os.path.isdir(os.path.join(tree, "dev")):
            ino += 1
            entry(out, ino, "dev", stat.S_IFDIR | 0o755, nlink=2)
        ino += 1
        entry(out, ino, "dev/console", stat.S_IFCHR | 0o600, rdev=(5, 1))
        entry(out, 0, "TRAILER!!!", 0)


if __name__ == "__main__":
    main()
