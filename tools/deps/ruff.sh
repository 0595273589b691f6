#!/bin/sh
# SPDX-License-Identifier: MIT
# Ruff, the Python linter and formatter `make lint` runs, at one pinned
# version: a ruff of that version on PATH, else one installed with pip into
# .cache/ruff-venv (a venv of this machine's python3; needs the package
# index once, then works offline). Prints the path of the ruff to run.
set -eu
version=0.17.5
root=$(cd "$(dirname "$0")/../.." && pwd)
venv=$root/.cache/ruff-venv
for ruff in "$(command -v ruff 2>/dev/null || true)" "$venv/bin/ruff"; do
	if [ -n "$ruff" ] && [ -x "$ruff" ] && [ "$("$ruff" --version 2>/dev/null)" = "ruff $version" ]; then
		echo "$ruff"
		exit 0
	fi
done
echo "ruff.sh: installing ruff $version into $venv" >&2
python3 -m venv "$venv" >&2
if ! "$venv/bin/pip" install --quiet --disable-pip-version-check "ruff==$version" >&2; then
	echo "ruff.sh: could not install ruff $version (no package index reachable?)" >&2
	exit 1
fi
echo "$venv/bin/ruff"
