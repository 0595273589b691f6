#!/bin/sh
# SPDX-License-Identifier: MIT
# man/html.sh MAN_DIR: renders every page with mandoc -Thtml into
# MAN_DIR/html/NAME.SECTION.html, plus index.html. mandoc links only mdoc
# cross-references, so references to our own pages (NAME(N) in bold) are
# turned into links afterwards.
set -eu
man_dir=$1
out=$man_dir/html
rm -rf "$out"
mkdir -p "$out"
links=$out/links.sed
for page in "$man_dir"/man[1237]/*.[1237]; do
	base=$(basename "$page")
	name=${base%.*}
	sec=${base##*.}
	echo "s#<b>$name</b>($sec)#<a href=\"$base.html\"><b>$name</b>($sec)</a>#g"
	echo "s#<b>$name($sec)</b>#<a href=\"$base.html\"><b>$name($sec)</b></a>#g"
done > "$links"
{
	echo '<!DOCTYPE html>'
	echo '<html><head><meta charset="utf-8"><title>uring-rs manual</title></head><body>'
	echo '<h1>uring-rs reference manual</h1>'
	for sec in 7 1 2 3; do
		case $sec in
		7) title="Overview and topics (section 7)" ;;
		1) title="Commands (section 1)" ;;
		2) title="System calls (section 2)" ;;
		3) title="Library functions and macros (section 3)" ;;
		esac
		echo "<h2>$title</h2><ul>"
		for page in "$man_dir"/man$sec/*.$sec; do
			[ -e "$page" ] || continue
			base=$(basename "$page")
			name=${base%.*}
			mandoc -Thtml "$page" | sed -f "$links" > "$out/$base.html"
			echo "<li><a href=\"$base.html\">$name($sec)</a></li>"
		done
		echo '</ul>'
	done
	echo '</body></html>'
} > "$out/index.html"
rm -f "$links"
echo "html: $(ls "$out" | wc -l) files in $out (open $out/index.html)"
