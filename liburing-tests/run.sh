#!/bin/sh
# SPDX-License-Identifier: MIT
# Entry point of the liburing-tests harness (see README.md next to this file).
# `make liburing-tests` calls: sh liburing-tests/run.sh --stage <abs stage dir>
# Every option is handled by the harness (pytools/suite/harness.py); this
# wrapper only finds Python 3 and puts the repository on its module path.
here=$(CDPATH='' cd -- "$(dirname -- "$0")" && pwd)
PYTHONPATH=$(dirname -- "$here")
export PYTHONPATH
for py in "${PYTHON:-}" python3 /usr/bin/python3; do
	[ -n "$py" ] || continue
	if command -v "$py" >/dev/null 2>&1; then
		exec "$py" -m pytools.suite.harness "$@"
	fi
done
echo "liburing-tests: python3 is required" >&2
exit 2
