# SPDX-License-Identifier: MIT
"""liburing's own test suite run against this library: the harness behind
make liburing-tests, its sanitizer mode and their unit tests. Its data (the
expected lists, run.sh) stays in liburing-tests/."""
