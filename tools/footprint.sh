#!/bin/sh
# SPDX-License-Identifier: MIT
# What linking this library costs a program that asks for no diagnostics,
# against upstream liburing built here (make footprint):
#   - liburing.so.2: text + rodata + unwind tables (size -A), and the dynamic
#     relocations the loader applies in every process (readelf -r);
#   - a program that does one NOP round trip, linked with liburing.a: the
#     text + data it gains over an empty program, with the C library linked
#     dynamically (what the archive itself brings) and statically; and a
#     static program that takes every function the archive defines;
#   - an empty program linked with -luring: minor page faults and maximum
#     RSS (GNU time), and its start time, ours and upstream's run in turn,
#     PAIRS pairs of BATCH runs, as the median of the per-pair ratios.
#
#   sh tools/footprint.sh OUR_USR UPSTREAM_USR [OUT_DIR]
set -eu
ours=$1 up=$2
out=${3:-$(mktemp -d)}
pairs=${PAIRS:-21} batch=${BATCH:-20}
CC=${CC:-cc}
mkdir -p "$out"

sections() { # the sum of the named sections of size -A
	size -A "$1" | awk '$1 == ".text" || $1 == ".rodata" || $1 == ".eh_frame" ||
		$1 == ".eh_frame_hdr" { t += $2 } END { print t + 0 }'
}
relocs() { readelf -rW "$1" | grep -c ' R_' || true; }
text_data() { size "$1" | awk 'NR == 2 { print $1 + $2 }'; }

cat >"$out/nop.c" <<'EOF'
#include <liburing.h>
int main(void)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;

	if (io_uring_queue_init(8, &ring, 0))
		return 1;
	io_uring_prep_nop(io_uring_get_sqe(&ring));
	io_uring_submit(&ring);
	if (io_uring_wait_cqe(&ring, &cqe))
		return 2;
	io_uring_cqe_seen(&ring, cqe);
	io_uring_queue_exit(&ring);
	return 0;
}
EOF
printf 'int main(void) { return 0; }\n' >"$out/empty.c"
# A program taking the address of every function both archives define: what
# a program calling all of them would gain (ours is cut into members; code
# several members reach is a member of its own, so this is the whole library).
defined() { nm -g --defined-only "$1" | awk 'NF == 3 && $2 == "T" { print $3 }' | LC_ALL=C sort -u; }
defined "$ours/lib/liburing.a" >"$out/ours.syms"
defined "$up/lib/liburing.a" | LC_ALL=C comm -12 "$out/ours.syms" - >"$out/every.syms"
{
	sed 's/.*/extern void &(void);/' "$out/every.syms"
	echo 'void *volatile every[] = {'
	sed 's/.*/\t(void *)\&&,/' "$out/every.syms"
	echo '};'
	echo 'int main(void) { return every[0] == 0; }'
} >"$out/every.c"

$CC -O2 -o "$out/empty-dyn" "$out/empty.c"
$CC -O2 -static -o "$out/empty-static" "$out/empty.c"
for lib in ours up; do
	if [ $lib = ours ]; then usr=$ours; else usr=$up; fi
	$CC -O2 -I"$usr/include" -o "$out/nop-a-$lib" "$out/nop.c" "$usr/lib/liburing.a"
	$CC -O2 -static -I"$usr/include" -o "$out/nop-static-$lib" "$out/nop.c" "$usr/lib/liburing.a"
	$CC -O2 -static -o "$out/every-static-$lib" "$out/every.c" "$usr/lib/liburing.a"
	$CC -O2 -o "$out/empty-so-$lib" "$out/empty.c" -L"$usr/lib" -Wl,-rpath,"$usr/lib" \
		-Wl,--no-as-needed -l:liburing.so.2
	if ! "$out/nop-a-$lib" || ! "$out/nop-static-$lib"; then
		echo "footprint: nop-$lib failed" >&2
		exit 1
	fi
done

row() { printf '| %s | %s | %s | %s |\n' "$1" "$2" "$3" "$4"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "| what a program pays | ours | liburing 2.15 | ours / liburing |"
echo "|---|---|---|---|"
so_o=$(sections "$ours/lib/liburing.so.2") so_u=$(sections "$up/lib/liburing.so.2")
row "liburing.so.2 text + rodata + unwind tables (bytes)" "$so_o" "$so_u" "$(ratio "$so_o" "$so_u")"
r_o=$(relocs "$ours/lib/liburing.so.2") r_u=$(relocs "$up/lib/liburing.so.2")
row "liburing.so.2 dynamic relocations" "$r_o" "$r_u" "$(ratio "$r_o" "$r_u")"
base=$(text_data "$out/empty-dyn")
g_o=$(($(text_data "$out/nop-a-ours") - base)) g_u=$(($(text_data "$out/nop-a-up") - base))
row "NOP program with liburing.a, text + data gained (bytes)" "$g_o" "$g_u" "$(ratio "$g_o" "$g_u")"
base=$(text_data "$out/empty-static")
g_o=$(($(text_data "$out/nop-static-ours") - base)) g_u=$(($(text_data "$out/nop-static-up") - base))
row "the same, fully static (-static), gained over an empty static program" "$g_o" "$g_u" "$(ratio "$g_o" "$g_u")"
g_o=$(($(text_data "$out/every-static-ours") - base)) g_u=$(($(text_data "$out/every-static-up") - base))
row "a static program taking every function of liburing.a ($(wc -l <"$out/every.syms")), gained" "$g_o" "$g_u" "$(ratio "$g_o" "$g_u")"

if [ -x /usr/bin/time ]; then
	med() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
	for lib in ours up; do
		for i in 1 2 3 4 5 6 7 8 9; do
			/usr/bin/time -f '%R %M' -o "$out/time.$lib.$i" "$out/empty-so-$lib"
		done
		eval "faults_$lib=\$(cat \"\$out\"/time.$lib.* | awk '{ print \$1 }' | med)"
		eval "rss_$lib=\$(cat \"\$out\"/time.$lib.* | awk '{ print \$2 }' | med)"
	done
	# shellcheck disable=SC2154 # set by the eval above
	row "empty program with -luring: minor page faults (median of 9)" "$faults_ours" "$faults_up" \
		"$((faults_ours - faults_up)) more"
	# shellcheck disable=SC2154 # set by the eval above
	row "the same: maximum RSS (KiB, median of 9)" "$rss_ours" "$rss_up" "$(ratio "$rss_ours" "$rss_up")"
fi

# Start time: BATCH runs of each in turn, PAIRS times; the median ratio.
now() { date +%s%N; }
runs() { i=0; while [ $i -lt "$batch" ]; do "$1"; i=$((i + 1)); done; }
: >"$out/start.ratios"
p=0
while [ $p -lt "$pairs" ]; do
	t0=$(now); runs "$out/empty-so-ours"; t1=$(now); runs "$out/empty-so-up"; t2=$(now)
	ratio $((t1 - t0)) $((t2 - t1)) >>"$out/start.ratios"
	echo >>"$out/start.ratios"
	p=$((p + 1))
done
start=$(sort -n "$out/start.ratios" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
row "empty program with -luring: start time ($pairs pairs of $batch runs, median ratio)" "-" "-" "$start"
