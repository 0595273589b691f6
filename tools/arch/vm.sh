#!/bin/sh
# SPDX-License-Identifier: MIT
# check-arch family "vm": tools/arch/vm/run.sh as one recorded step (its own
# closing count is the step's note; the log is in $ARCH_CACHE/logs/vm.log).
# shellcheck source=lib.sh
. "$(dirname "$0")/lib.sh"
step vm sh "$ARCH_ROOT/tools/arch/vm/run.sh"
