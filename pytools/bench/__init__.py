# SPDX-License-Identifier: MIT
"""The benchmarks against liburing (make bench): the runner, the workloads'
table, the report and the plots. The C programs stay in bench/."""
