/* SPDX-License-Identifier: MIT */
/*
 * Kernel UAPI types used by liburing.h that are not part of io_uring.h
 * itself: struct __kernel_timespec, struct open_how and the block-device
 * discard command number.
 *
 * Every reasonably recent set of kernel headers ships all of them, in which
 * case this file only includes them.  Stand-in definitions with the kernel's
 * layout are provided for old header sets, detected with __has_include where
 * the compiler supports it.
 */
#ifndef LIBURING_COMPAT_H
#define LIBURING_COMPAT_H

/*
 * Note: __has_include is tested with a quoted name; GCC before 10 mishandles
 * the <...> form inside #if.
 */
#if defined(__has_include)
#  if __has_include("linux/time_types.h")
#    include <linux/time_types.h>
#  else
/* Same layout as the kernel's: two 64-bit fields on every ABI. */
struct __kernel_timespec {
	long long	tv_sec;
	long long	tv_nsec;
};
#  endif
#else
#  include <linux/time_types.h>
#endif

/*
 * The timespec type is settled above; tell liburing/io_uring.h not to pull
 * in <linux/time_types.h> a second time.
 */
#define UAPI_LINUX_IO_URING_H_SKIP_LINUX_TIME_TYPES_H 1

#if defined(__has_include)
#  if __has_include("linux/openat2.h")
#    include <linux/openat2.h>
#  else
#    include <linux/types.h>
/* openat2(2) argument, as in <linux/openat2.h> (Linux 5.6). */
struct open_how {
	__u64	flags;
	__u64	mode;
	__u64	resolve;
};
#    define RESOLVE_NO_XDEV		0x01
#    define RESOLVE_NO_MAGICLINKS	0x02
#    define RESOLVE_NO_SYMLINKS		0x04
#    define RESOLVE_BENEATH		0x08
#    define RESOLVE_IN_ROOT		0x10
#    define RESOLVE_CACHED		0x20
#  endif
#else
#  include <linux/openat2.h>
#endif

#include <linux/ioctl.h>

/* uring_cmd opcode of a block-device discard (<linux/fs.h>, Linux 6.12). */
#ifndef BLOCK_URING_CMD_DISCARD
#define BLOCK_URING_CMD_DISCARD		_IO(0x12, 0)
#endif

#endif /* LIBURING_COMPAT_H */
