# SPDX-License-Identifier: MIT
# shellcheck shell=sh
# The last part of the amd64 kernels' guest run (kernels.sh puts it at
# /repo/extra.sh; guest-init.sh sources it): what our diagnostics say on
# this kernel, between "@@diag TITLE" and "@@enddiag" lines: uring-info, and
# the LIBURING_DEBUG lines of the fallback tests' refused calls.
echo "@@diag uring-info"
LD_LIBRARY_PATH=/stage/usr/lib /stage/usr/bin/uring-info 2>&1 | head -n 150
echo "@@enddiag"
for t in fallback-setup-flags fallback-ring-fd fallback-buf-ring fallback-wait-timeout fallback-resize; do
	[ -x "/repo/bin/$t" ] || continue
	echo "@@diag LIBURING_DEBUG=1 $t"
	LIBURING_DEBUG=1 CAPI_STAGE=/stage LD_LIBRARY_PATH=/stage/usr/lib "/repo/bin/$t" 2>&1 |
		grep '^liburing' | head -n 30
	echo "@@enddiag"
done
