# SPDX-License-Identifier: MIT
"""The project's Python: the test harnesses and tools, one subpackage per
concern. Each module runs from the repository root as
`python3 -m pytools.<subpackage>.<module>`; the data they read (C sources,
lists, templates) stays beside the shell scripts in the folders they serve,
found through REPO.

  suite      liburing's own test suite against this library (liburing-tests/)
  man        the man pages' checks (man/)
  packaging  the Debian package's checks and symbols file (packaging/)
  bench      the benchmarks against liburing (bench/)
  capi       the differential test and the lockstep fuzzer (capi-tests/)
  upstream   fetching and building liburing's Debian source; the downloader
  vm         the kernel-matrix and architecture VMs' helpers (tools/arch/vm/)
  diag       the diagnostics' viewers (tools/diag/)
  coverage   make coverage's reader of llvm-cov's exports (tools/test/coverage.sh)
  lint       make lint's own checks: cited file names resolve
"""

import os

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
