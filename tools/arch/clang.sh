#!/bin/sh
# SPDX-License-Identifier: MIT
# check-arch family "clang": tools/arch/clang/run.sh as one recorded step (its own
# closing count is the step's note; the log is in $ARCH_CACHE/logs/clang.log).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
step clang sh "$ARCH_ROOT/tools/arch/clang/run.sh"
