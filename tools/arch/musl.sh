#!/bin/sh
# SPDX-License-Identifier: MIT
# check-arch family "musl": tools/arch/musl/run.sh as one recorded step (its own
# closing count is the step's note; the log is in $ARCH_CACHE/logs/musl.log).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
step musl sh "$ARCH_ROOT/tools/arch/musl/run.sh"
