/* SPDX-License-Identifier: MIT */
/*
 * liburing-ffi: turns every inline helper of include/liburing.h into a real,
 * exported function, for languages that cannot compile C inline code.
 *
 * There is exactly one implementation of each helper, the header's: with
 * IOURINGINLINE defined empty, the header's `IOURINGINLINE` functions become
 * ordinary external definitions in this translation unit. LIBURING_INTERNAL
 * makes the header declare io_uring_get_sqe instead of defining it, since the
 * Rust library already exports that symbol. Which symbols are visible, and
 * under which version node, is decided by src/liburing-ffi.map.
 */
#define _GNU_SOURCE	/* the helpers that take loff_t exist only then */
#define IOURINGINLINE
#define LIBURING_INTERNAL

/* Definitions without an earlier declaration are this file's whole point,
 * so -Wmissing-prototypes (in liburing CI's warning set) is off for the
 * header. The GCC pragma is understood by gcc and clang alike. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmissing-prototypes"
#include "liburing.h"
#pragma GCC diagnostic pop
