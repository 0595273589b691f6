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

step() { printf '== %s (%ss)\n' "$1" $(($(date +%s) - start_all)); }
quietly() { # run a command, show its output only when it fails
	log=$out/step.log
	if ! "$@" >"$log" 2>&1; then
		tail -n 40 "$log"
		echo "FAILED: $*"
		return 1
	fi
}

mkdir -p "$out"
cd "$repo"

step "fetching Debian packages into $cache"
base=$(sh "$here/debs.sh" "$cache" --resolve sid arm64 linux-base-arm64)
kflavour=${base#linux-base-}
quietly sh "$here/debs.sh" "$cache" sid arm64 busybox-static "linux-binary-$kflavour" \
	"linux-modules-$kflavour"
quietly sh "$here/debs.sh" "$cache" bookworm amd64 gcc-12-aarch64-linux-gnu cpp-12-aarch64-linux-gnu \
	binutils-aarch64-linux-gnu libc6-arm64-cross libc6-dev-arm64-cross libgcc-12-dev-arm64-cross \
	libgcc-s1-arm64-cross linux-libc-dev-arm64-cross
qemu=$(command -v qemu-system-aarch64 || true)
if [ -z "$qemu" ]; then
	qemu_pkgs=$(sh "$here/debs.sh" "$cache" --missing bookworm amd64 qemu-system-arm)
	# shellcheck disable=SC2086
	quietly sh "$here/debs.sh" "$cache" bookworm amd64 $qemu_pkgs
	qemu=$cache/root-amd64/usr/bin/qemu-system-aarch64
fi
rust_lib=$(sh "$here/rust-core.sh" "$cache" 2>"$out/step.log") || { cat "$out/step.log"; exit 1; }

host=$cache/root-amd64
guest=$cache/root-arm64
LD_LIBRARY_PATH=$host/usr/lib/x86_64-linux-gnu:$host/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export LD_LIBRARY_PATH
cross_cc="$host/usr/bin/aarch64-linux-gnu-gcc-12 --sysroot=$host"

step "building our library for $target (as run.sh does)"
RUSTC_BOOTSTRAP=1 __CARGO_TESTS_ONLY_SRC_ROOT=$(cd "$rust_lib" && pwd) \
	quietly cargo build --release --quiet -p uring-rs --lib --target $target -Zbuild-std=core
tools=$out/bin
mkdir -p "$tools"
for t in ld objcopy ar nm; do
	ln -sf "$host/usr/bin/aarch64-linux-gnu-$t" "$tools/$t"
done
lib_build=$out/lib
ours=$out/ours
mkdir -p "$lib_build"
touch "$lib_build/uring-info.none"
make_vars="BUILD=$lib_build RUST_A=target/$target/release/liburing.a CARGO=true
 URING_INFO=$lib_build/uring-info.none install_uring_info=no"
# shellcheck disable=SC2086
PATH=$tools:$PATH quietly make --no-print-directory CC="$cross_cc" $make_vars lib ffi
rm -rf "$ours"
# shellcheck disable=SC2086
PATH=$tools:$PATH quietly make --no-print-directory CC="$cross_cc" $make_vars install \
	DESTDIR="$ours" prefix=/usr
file -L "$ours/usr/lib/liburing.so.2" | grep -q 'ARM aarch64' || { echo "not an aarch64 library"; exit 1; }

step "building upstream liburing for $target"
upstream_src=$(python3 "$repo"/tools/upstream/upstream.py source 2>"$out/upstream-src.log") ||
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
	# In the guest each library is at /$side/lib (rpath), as bench/run.py links.
	$cross_cc -O2 -g -Wall -Wextra -Werror -I"$usr/include" -o "$bins/personality-$side" \
		bench/personality.c bench/common.c bench/readloop.c -L"$usr/lib" \
		-Wl,-rpath,/$side/lib -l:liburing.so.2 -ldl -pthread
done

step "making the initramfs"
kver=$(basename "$(ls -d "$guest"/usr/lib/modules/*-arm64 | tail -n 1)")
mods=$guest/usr/lib/modules/$kver/kernel
root=$out/initramfs
rm -rf "$root"
mkdir -p "$root/bin" "$root/lib" "$root/proc" "$root/sys" "$root/tmp" "$root/dev" "$root/mod"
cp "$guest/usr/bin/busybox" "$root/bin/"
for applet in sh mount mkdir cat grep tail timeout date awk uname poweroff sync echo insmod \
	ls sleep; do
	ln -s busybox "$root/bin/$applet"
done
sysroot_lib=$host/usr/aarch64-linux-gnu/lib
cp -L "$sysroot_lib/ld-linux-aarch64.so.1" "$sysroot_lib/libc.so.6" "$sysroot_lib/libm.so.6" \
	"$sysroot_lib/libgcc_s.so.1" "$root/lib/"
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
python3 "$here/cpio.py" "$root" "$out/initramfs.cpio"

step "booting $kver (4k pages) under qemu-system-aarch64: $rounds rounds of 4 runs, $nreads reads each"
log=$out/console.log
timeout -k 10 "$vm_timeout" "$qemu" -M virt -cpu max -smp 2 -m 2048 -nographic -nic none \
	-no-reboot -kernel "$guest/usr/lib/modules/$kver/vmlinuz" -initrd "$out/initramfs.cpio" \
	-append "console=ttyAMA0 quiet panic=-1" </dev/null >"$log" 2>&1 || true
tr -d '\r' <"$log" >"$log.txt"
step "done; console log in $log.txt"
python3 "$here/personality-parse.py" "$log.txt"
