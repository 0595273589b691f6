# SPDX-License-Identifier: MIT
"""The C API's comparisons with liburing: the differential test's comparer
(make check-differential) and the lockstep fuzzer (make fuzz-short). Their
C sources stay in capi-tests/."""
