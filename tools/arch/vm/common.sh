# SPDX-License-Identifier: MIT
# What the two arm64 guest runs share (sourced by run.sh and personality.sh,
# which set repo, here, cache, out, target, vm_timeout and start_all first):
# their progress lines, the cross tools and qemu, our library built for
# aarch64, the initramfs's base and the boot itself.
# shellcheck shell=sh
: "${repo:?}" "${here:?}" "${cache:?}" "${out:?}" "${target:?}" "${vm_timeout:?}" "${start_all:?}"

# The name of the last (in sorted order) module directory of guest tree $1
# matching pattern $2: its kernel release.
last_module_dir() {
	k=
	for d in "$1"/usr/lib/modules/$2; do
		[ -d "$d" ] && k=${d##*/}
	done
	echo "$k"
}

step() { printf '== %s (%ss)\n' "$1" $(($(date +%s) - start_all)); }
quietly() { # run a command, show its output only when it fails
	log=$out/step.log
	if ! "$@" >"$log" 2>&1; then
		tail -n 40 "$log"
		echo "FAILED: $*"
		return 1
	fi
}

# The cross gcc and glibc, qemu-system-aarch64 and the Rust library source,
# from the cache (debs.sh). Sets host, guest, cross_cc, qemu and rust_lib.
fetch_cross_tools() {
	quietly sh "$here/debs.sh" "$cache" bookworm amd64 gcc-12-aarch64-linux-gnu cpp-12-aarch64-linux-gnu \
		binutils-aarch64-linux-gnu libc6-arm64-cross libc6-dev-arm64-cross libgcc-12-dev-arm64-cross \
		libgcc-s1-arm64-cross linux-libc-dev-arm64-cross
	# qemu-system-aarch64: the machine's own, or qemu-system-arm and those of
	# its libraries the machine lacks, unpacked in the cache.
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
	# The cross glibc's linker scripts name /usr/aarch64-linux-gnu/...: the
	# unpacked tree is the sysroot.
	cross_cc="$host/usr/bin/aarch64-linux-gnu-gcc-12 --sysroot=$host"
}

# build_our_library DESTDIR: the library for $target (core from rust_lib),
# relinked by the Makefile and installed under DESTDIR/usr. Sets tools (the
# directory of the cross binutils under their plain names).
build_our_library() {
	RUSTC_BOOTSTRAP=1 __CARGO_TESTS_ONLY_SRC_ROOT=$(cd "$rust_lib" && pwd) \
		quietly cargo build --release --quiet -p uring-rs --lib --target "$target" -Zbuild-std=core
	# The Makefile's relink calls ld, objcopy and ar by those names.
	tools=$out/bin
	mkdir -p "$tools"
	for t in ld objcopy ar nm; do
		ln -sf "$host/usr/bin/aarch64-linux-gnu-$t" "$tools/$t"
	done
	lib_build=$out/lib
	mkdir -p "$lib_build"
	# uring-info is a host tool; the guest needs only the libraries and headers.
	touch "$lib_build/uring-info.none"
	make_vars="BUILD=$lib_build RUST_A=target/$target/release/liburing.a CARGO=true
	 URING_INFO=$lib_build/uring-info.none install_uring_info=no"
	# shellcheck disable=SC2086
	PATH=$tools:$PATH quietly make --no-print-directory CC="$cross_cc" $make_vars lib ffi
	rm -rf "$1"
	# shellcheck disable=SC2086
	PATH=$tools:$PATH quietly make --no-print-directory CC="$cross_cc" $make_vars install \
		DESTDIR="$1" prefix=/usr
	file -L "$1/usr/lib/liburing.so.2" | grep -q 'ARM aarch64' || { echo "not an aarch64 library"; exit 1; }
}

# initramfs_base ROOT APPLET...: a fresh ROOT with busybox under those
# applet names and the C library's shared objects.
initramfs_base() {
	root=$1
	shift
	rm -rf "$root"
	mkdir -p "$root/bin" "$root/lib" "$root/proc" "$root/sys" "$root/tmp" "$root/dev"
	cp "$guest/usr/bin/busybox" "$root/bin/"
	for applet in "$@"; do
		ln -s busybox "$root/bin/$applet"
	done
	sysroot_lib=$host/usr/aarch64-linux-gnu/lib
	cp -L "$sysroot_lib/ld-linux-aarch64.so.1" "$sysroot_lib/libc.so.6" "$sysroot_lib/libm.so.6" \
		"$sysroot_lib/libgcc_s.so.1" "$root/lib/"
}

# boot_guest KVER LOG [KERNEL-ARGS]: $out/initramfs.cpio on Debian's kernel
# KVER, 2 CPUs, no network, within vm_timeout; the console in LOG and,
# without carriage returns, in LOG.txt.
boot_guest() {
	timeout -k 10 "$vm_timeout" "$qemu" -M virt -cpu max -smp 2 -m 2048 -nographic -nic none \
		-no-reboot -kernel "$guest/usr/lib/modules/$1/vmlinuz" -initrd "$out/initramfs.cpio" \
		-append "console=ttyAMA0 quiet panic=-1${3:+ $3}" </dev/null >"$2" 2>&1 || true
	tr -d '\r' <"$2" >"$2.txt"
}
