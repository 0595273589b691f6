/* SPDX-License-Identifier: MIT */
/*
 * Compile-time version of the liburing API these headers describe.
 *
 * Compare against these with IO_URING_CHECK_VERSION() (liburing.h) in
 * preprocessor conditionals; io_uring_major_version() and
 * io_uring_minor_version() report the library that is actually loaded.
 */
#ifndef LIBURING_VERSION_H
#define LIBURING_VERSION_H

#define IO_URING_VERSION_MAJOR 2
#define IO_URING_VERSION_MINOR 15

#endif /* LIBURING_VERSION_H */
