#!/bin/sh
# SPDX-License-Identifier: MIT
# The personality rows on null_blk (issue 21), where this machine's kernel
# has no null_blk: bench/personality.c at QD 128, O_DIRECT 4 KiB reads of
# /dev/nullb0, with and without a registered personality, built twice for
# aarch64 (against our library and against upstream liburing 2.15) and run
# in one Debian arm64 guest (4K pages) under qemu-system-aarch64, the two
# libraries and the two settings interleaved in rotating order.
#
#   sh tools/arch/vm/personality.sh
#
# Not part of `make test` or check-arch. The guest is emulated (TCG): its
# absolute times mean nothing; only ratios taken under the same emulation
# (with/without personality, ours against liburing) are compared.
# Packages come from .cache/arch-vm as for run.sh (debs.sh), plus Debian's
# linux-modules package of the same kernel for null_blk.ko and configfs.ko.
# Builds and the console log go to build/arch-vm-personality.
# Environment: VM_TIMEOUT (seconds, default 1800), PERS_ROUNDS (default 5),
# PERS_N (reads per timed run, default 100000).
set -eu

repo=$(cd "$(dirname "$0")/../../.." && pwd)
here=$repo/tools/arch/vm
cache=$repo/.cache/arch-vm
out=$repo/build/arch-vm-personality
target=aarch64-unknown-linux-gnu
vm_timeout=${VM_TIMEOUT:-1800}
rounds=${PERS_ROUNDS:-5}
nreads=${PERS_N:-100000}
start_all=$(date +%s)

# shellcheck source=common.sh
. "$here/common.sh"

mkdir -p "$out"
cd "$repo"

step "fetching Debian packages into $cache"
base=$(sh "$here/debs.sh" "$cache" --resolve sid arm64 linux-base-arm64)
kflavour=${base#linux-base-}
quietly sh "$here/debs.sh" "$cache" sid arm64 busybox-static "linux-binary-$kflavour" \
	"linux-modules-$kflavour"
fetch_cross_tools

step "building our library for $target (as run.sh does)"
build_our_library "$out/ours"

step "building upstream liburing for $target"
upstream_src=$(python3 -m pytools.upstream.upstream source 2>"$out/upstream-src.log") ||
	{ cat "$out/upstream-src.log"; exit 1; }
up=$out/upstream-build
theirs=$out/upstream
rm -rf "$up" "$theirs"
cp -a "$upstream_src" "$up"
(cd "$up" && ./configure --cc="$cross_cc" --prefix="$theirs/usr" >configure.log 2>&1) ||
	{ tail -n 20 "$up/configure.log"; exit 1; }
quietly make -C "$up/src" -j2
quietly make -C "$up/src" install
file -L "$theirs/usr/lib/liburing.so.2" | grep -q 'ARM aarch64' || { echo "not an aarch64 liburing"; exit 1; }

step "building bench/personality for both"
bins=$out/bench
mkdir -p "$bins"
for side in ours upstream; do
	usr=$out/$side/usr
	# In the guest each library is at /$side/lib (rpath), as pytools/bench/run.py links.
	$cross_cc -O2 -g -Wall -Wextra -Werror -I"$usr/include" -o "$bins/personality-$side" \
		bench/personality.c bench/common.c bench/readloop.c -L"$usr/lib" \
		-Wl,-rpath,/$side/lib -l:liburing.so.2 -ldl -pthread
done

step "making the initramfs"
kver=$(last_module_dir "$guest" '*-arm64')
mods=$guest/usr/lib/modules/$kver/kernel
initramfs_base "$out/initramfs" sh mount mkdir cat grep tail timeout date awk uname poweroff sync echo \
	insmod ls sleep
mkdir -p "$root/mod"
# busybox insmod takes plain ELF: the modules are decompressed here.
# null_blk depends on configfs (its .modinfo `depends=`).
for m in fs/configfs/configfs drivers/block/null_blk/null_blk; do
	xz -dc "$mods/$m.ko.xz" >"$root/mod/$(basename "$m").ko"
done
for side in ours upstream; do
	mkdir -p "$root/$side/lib"
	cp -L "$out/$side/usr/lib/liburing.so.2" "$root/$side/lib/"
	cp "$bins/personality-$side" "$root/bin/"
done
{
	echo "#!/bin/sh"
	echo "rounds=$rounds"
	echo "nreads=$nreads"
	cat "$here/personality-guest.sh"
} >"$root/init"
chmod 755 "$root/init"
python3 -m pytools.vm.cpio "$root" "$out/initramfs.cpio"

step "booting $kver (4k pages) under qemu-system-aarch64: $rounds rounds of 4 runs, $nreads reads each"
log=$out/console.log
boot_guest "$guest/usr/lib/modules/$kver/vmlinuz" "$log"
step "done; console log in $log.txt"
python3 -m pytools.vm.personality_parse "$log.txt"
