#!/bin/sh
# SPDX-License-Identifier: MIT
# make lint, shell part: shellcheck over every tracked shell script (a .sh
# file, or a file whose first line runs sh or bash), following the files
# they source. Directives in the scripts are per line, each with a reason.
# Left out: man/html.sh (the manual's, reworked separately; listed here so
# that it is not forgotten).
set -eu
cd "$(dirname "$0")/../.."
command -v shellcheck >/dev/null 2>&1 || { echo "shell.sh: shellcheck is not installed (make deps)" >&2; exit 1; }
list=$(mktemp)
trap 'rm -f "$list"' EXIT
git ls-files | while read -r f; do
	case $f in
	man/html.sh) continue ;;
	*.sh) echo "$f" ;;
	*) if [ -f "$f" ] && head -n 1 "$f" | grep -Eq '^#!.*(/|env )(ba)?sh( |$)'; then echo "$f"; fi ;;
	esac
done >"$list"
n=$(wc -l <"$list")
# One file a line, no spaces in the tree's names: xargs splits on lines.
xargs shellcheck -x -P SCRIPTDIR <"$list"
echo "shellcheck: $n scripts clean"
