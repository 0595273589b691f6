#!/bin/sh
# SPDX-License-Identifier: MIT
# Entry point of the liburing-tests harness (see README.md next to this file).
# `make liburing-tests` calls: sh liburing-tests/run.sh --stage <abs stage dir>
# Every option is handled by harness.py; this wrapper only finds Python 3.
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
for py in "${PYTHON:-}" python3 /usr/bin/python3; do
	[ -n "$py" ] || continue
	if command -v "$py" >/dev/null 2>&1; then
		exec "$py" "$here/harness.py" "$@"
	fi
done
echo "liburing-tests: python3 is required" >&2
exit 2
