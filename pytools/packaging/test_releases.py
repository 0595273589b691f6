# SPDX-License-Identifier: MIT
"""Unit tests of what make check-debian-releases and the symbols files
compute without a Debian root: the backport changelog entry, lintian's
findings, liburing-rs2's symbols file."""

import os
import re
import tempfile
import unittest

from pytools import REPO

from . import check_debian_releases as releases
from . import symbols


class BackportEntry(unittest.TestCase):
    def test_entry_on_top(self):
        with tempfile.TemporaryDirectory() as tree:
            os.makedirs(os.path.join(tree, "debian"))
            version = releases.add_backport_entry(tree, "bookworm")
            with open(os.path.join(tree, "debian", "changelog")) as f:
                text = f.read()
        _, base, date, original = releases.changelog_head()
        self.assertEqual(version, base + "~bpo12+1")
        head = text.split("\n\n", 1)[0]
        self.assertEqual(head, "uring-rs (%s) bookworm-backports; urgency=medium" % version)
        self.assertIn("  * Rebuild for bookworm-backports.", text)
        # The entry it backports follows unchanged, and the dates go forward.
        self.assertTrue(text.endswith(original))
        dates = re.findall(r"^ -- .*?>  (.+)$", text, flags=re.M)
        self.assertEqual(dates[1], date)
        self.assertNotEqual(dates[0], date)

    def test_version_sorts_between(self):
        with tempfile.TemporaryDirectory() as tree:
            os.makedirs(os.path.join(tree, "debian"))
            bpo = releases.add_backport_entry(tree, "trixie")
        _, base, _, _ = releases.changelog_head()
        self.assertEqual(bpo, base + "~bpo13+1")
        self.assertEqual(os.system("dpkg --compare-versions %s lt %s" % (bpo, base)), 0)


class Version(unittest.TestCase):
    def test_sorts_below_debians_package_of_the_same_api(self):
        # packaging/README.md, Version: 2.15~rs... sorts below Debian's 2.15-1.
        _, version, _, _ = releases.changelog_head()
        api = version.split("~")[0]
        self.assertEqual(os.system("dpkg --compare-versions %s lt %s-1" % (version, api)), 0)
        self.assertEqual(os.system("dpkg --compare-versions %s gt %s-0" % (version, "2.14")), 0)


class LintianFindings(unittest.TestCase):
    OUT = """running with root privileges is not recommended!
W: liburing-rs2: unknown-field Static-Built-Using
W: uring-rs-switch: maintscript-calls-ldconfig [postinst]
O: uring-rs-switch: package-has-unnecessary-activation-of-ldconfig-trigger
I: uring-rs source: debian-watch-file-is-missing
P: liburing-rs2: repeated-path-segment uring-rs [usr/lib/x86_64-linux-gnu/uring-rs/uring-rs/]
"""

    def test_explained_warning_keeps_its_field(self):
        found = releases.lintian_findings(self.OUT, "bookworm")
        self.assertEqual(
            found["W"],
            {
                ("liburing-rs2", "unknown-field Static-Built-Using"),
                ("uring-rs-switch", "maintscript-calls-ldconfig"),
            },
        )
        self.assertEqual(found["I"], {("uring-rs", "debian-watch-file-is-missing")})
        self.assertIn("O", found)

    def test_explanations_are_per_release(self):
        found = releases.lintian_findings(self.OUT, "sid")
        self.assertIn(("liburing-rs2", "unknown-field"), found["W"])


class RsSymbols(unittest.TestCase):
    def test_every_exported_symbol_at_our_first_version(self):
        text = symbols.render("liburing-rs2")
        for soname, path in symbols.LIBRARIES:
            self.assertIn("%s liburing-rs2 #MINVER#" % soname, text)
            for node, syms in symbols.nodes(path):
                for sym in syms:
                    self.assertIn(" %s@%s 2.15~rs2.15.0\n" % (sym, node), text)
        self.assertIn("* Build-Depends-Package: liburing-rs-dev", text)
        self.assertNotIn(" liburing2 ", text)

    def test_checked_in_files_are_current(self):
        for path, package in ((symbols.OUT, "liburing2"), (symbols.OUT_RS, "liburing-rs2")):
            with open(path) as f:
                self.assertEqual(f.read(), symbols.render(package), os.path.relpath(path, REPO))


if __name__ == "__main__":
    unittest.main()
