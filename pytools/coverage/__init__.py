# SPDX-License-Identifier: MIT
"""make coverage's readers (tools/test/coverage.sh runs the measurement): the C
boundary's error returns, reached or not, from llvm-cov's exports."""
