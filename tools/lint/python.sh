#!/bin/sh
# SPDX-License-Identifier: MIT
# make lint, Python part: ruff's checks and its formatter over the Python
# that pyproject.toml covers.
set -eu
cd "$(dirname "$0")/../.."
ruff=$(sh tools/deps/ruff.sh)
"$ruff" check --no-cache .
"$ruff" format --check --no-cache .
