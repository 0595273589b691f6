#!/bin/sh
# SPDX-License-Identifier: MIT
# man/html.sh MAN_DIR: renders every page with mandoc -Thtml into
# MAN_DIR/html/NAME.SECTION.html, cross-references as links, plus index.html.
set -eu
man_dir=$1
out=$man_dir/html
rm -rf "$out"
mkdir -p "$out"
{
	echo '<!DOCTYPE html>'
	echo '<html><head><meta charset="utf-8"><title>uring-rs manual</title></head><body>'
	echo '<h1>uring-rs reference manual</h1>'
	for sec in 7 2 3; do
		case $sec in
		7) title="Overview and topics (section 7)" ;;
		2) title="System calls (section 2)" ;;
		3) title="Library functions and macros (section 3)" ;;
		esac
		echo "<h2>$title</h2><ul>"
		for page in "$man_dir"/man$sec/*.$sec; do
			[ -e "$page" ] || continue
			base=$(basename "$page")
			name=${base%.*}
			mandoc -Thtml -Oman=%N.%S.html "$page" > "$out/$base.html"
			echo "<li><a href=\"$base.html\">$name($sec)</a></li>"
		done
		echo '</ul>'
	done
	echo '</body></html>'
} > "$out/index.html"
echo "html: $(ls "$out" | wc -l) files in $out (open $out/index.html)"
