#!/bin/sh
# SPDX-License-Identifier: MIT
# check-symbols.sh LIB.so MAP SONAME [REFERENCE.so]
# Proves the shared object exports exactly the version map's symbols, each
# under its map node (read back with nm -D --with-symbol-versions), carries
# SONAME, and needs no library beyond libc. With REFERENCE.so (upstream's
# build), also proves the two export the same versioned set.
set -eu
so=$1 map=$2 soname=$3 ref=${4:-}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# What the map promises: "symbol@@NODE", one per line.
awk '
    /^[A-Z_0-9.]+ *\{/ { node = $1; next }
    /^[ \t]*(global|local):/ { next }
    /^[ \t]*[A-Za-z_][A-Za-z0-9_]*;/ { gsub(/[ \t;]/, ""); print $0 "@@" node }
' "$map" | sort > "$tmp/want"

# What the object exports: defined dynamic symbols, minus the version nodes.
exported() {
    "${NM:-nm}" -D --defined-only --with-symbol-versions "$1" |
        awk '$2 != "A" { print $3 }' | sort
}
exported "$so" > "$tmp/have"

fail=0
if ! diff -u "$tmp/want" "$tmp/have" > "$tmp/diff"; then
    echo "FAIL: $so does not export exactly $map (- missing, + extra):"
    grep '^[-+][^-+]' "$tmp/diff" || true
    fail=1
fi
got_soname=$(readelf -d "$so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')
if [ "$got_soname" != "$soname" ]; then
    echo "FAIL: SONAME is '$got_soname', want '$soname'"; fail=1
fi
# glibc's dynamic loader counts as libc: it is in every dynamically linked
# process already, and on aarch64 it holds the stack protector's guard, which
# Debian's Rust core needs there (compiler_builtins' C code that detects the
# CPU's atomics is built with -fstack-protector-strong).
needed=$(readelf -d "$so" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
loader=$(printf '%s\n' "$needed" | grep -E '^ld(-linux[-a-z0-9_]*)?(64)?\.so\.[0-9]+$' || true)
more=$(printf '%s\n' "$needed" | grep -v -x -e 'libc\.so\.6' -e "${loader:-libc.so.6}" || true)
if [ -n "$more" ]; then
    echo "FAIL: $so needs more than libc: $more"; fail=1
fi
if [ -n "$ref" ]; then
    exported "$ref" > "$tmp/ref"
    if ! diff -u "$tmp/ref" "$tmp/have" > "$tmp/refdiff"; then
        echo "FAIL: versioned exports differ from $ref (- upstream only, + ours only):"
        grep '^[-+][^-+]' "$tmp/refdiff" || true
        fail=1
    fi
fi
n=$(wc -l < "$tmp/have")
if [ $fail -eq 0 ]; then
    echo "ok: $(basename "$so"): $n versioned symbols as in $(basename "$map"), SONAME $soname, needs only libc${loader:+ and its loader $loader}${ref:+, same set as $(basename "$ref")}"
fi
exit $fail
