# SPDX-License-Identifier: MIT
"""Unit tests of the cited-file check (cited_files.py) over made-up trees:
python3 -m unittest discover -s pytools -t ."""

import unittest

from . import cited_files

TREE = [
    "Makefile",
    "core/src/queue.rs",
    "core/src/queue/tests.rs",
    "capi-tests/diag-check.c",
    "capi-tests/support/static_prog.c",
    "tools/gen/Cargo.toml",
    "tools/gen/src/main.rs",
    "docs/bench/2026-12-01-x/NOTES.md",
]


def stale_in(texts):
    """stale() over TREE plus texts ({path: text}); other files are empty."""
    files = TREE + [p for p in texts if p not in TREE]
    return cited_files.stale(files, lambda p: texts.get(p, ""))


class CitedFiles(unittest.TestCase):
    def test_an_existing_path_is_not_reported(self):
        self.assertEqual(
            stale_in({"Makefile": "see core/src/queue.rs and `core/src/queue.rs`."}), []
        )

    def test_a_missing_path_is_reported_with_its_line(self):
        found = stale_in({"Makefile": "one\n# run by capi-tests/check-corpus.c.\n"})
        self.assertEqual(found, [("Makefile", 2, "capi-tests/check-corpus.c")])

    def test_a_path_beside_the_citing_file(self):
        texts = {"tools/gen/Cargo.toml": 'path = "src/main.rs"\nother = "src/gone.rs"\n'}
        self.assertEqual(stale_in(texts), [("tools/gen/Cargo.toml", 2, "src/gone.rs")])

    def test_a_relative_path(self):
        texts = {"capi-tests/diag-check.c": '"%s/support/static_prog.c" "../core/src/gone.rs"'}
        self.assertEqual(stale_in(texts), [("capi-tests/diag-check.c", 1, "../core/src/gone.rs")])

    def test_a_path_inside_a_folder_of_the_tree(self):
        texts = {"Makefile": "(`queue/tests.rs`) (`queue/gone.rs`)"}
        self.assertEqual(stale_in(texts), [("Makefile", 1, "queue/gone.rs")])

    def test_placeholders_outputs_and_foreign_paths_are_left_alone(self):
        text = (
            "capi-tests/NAME.c build/abi-assert.c linux/io_uring.h "
            "https://example.org/core/x.rs src/include/liburing.h core/src/queue"
        )
        self.assertEqual(stale_in({"Makefile": text}), [])

    def test_records_of_past_runs_are_not_checked(self):
        texts = {"docs/bench/2026-12-01-x/NOTES.md": "core/src/hooks.rs"}
        self.assertEqual(stale_in(texts), [])

    def test_a_file_that_is_not_text_is_skipped(self):
        files = ["Makefile", "docs/x.png"]
        read = {"Makefile": "docs/x.png", "docs/x.png": None}.get
        self.assertEqual(cited_files.stale(files, read), [])


if __name__ == "__main__":
    unittest.main()
