/* SPDX-License-Identifier: MIT */
/*
 * Version API: io_uring_major_version()/io_uring_minor_version() report
 * 2.15, matching IO_URING_VERSION_MAJOR/MINOR of the header;
 * io_uring_check_version(maj, min) and IO_URING_CHECK_VERSION(maj, min) are
 * false (0) when the library is at least maj.min and true otherwise (usable
 * in #if).
 */
#include "check.h"

#if IO_URING_VERSION_MAJOR != 2 || IO_URING_VERSION_MINOR != 15
#error "header does not say liburing 2.15"
#endif

#if IO_URING_CHECK_VERSION(2, 15)
#error "IO_URING_CHECK_VERSION(2, 15) must be 0 with 2.15 headers"
#endif
#if IO_URING_CHECK_VERSION(2, 0) || IO_URING_CHECK_VERSION(1, 99) || IO_URING_CHECK_VERSION(0, 0)
#error "IO_URING_CHECK_VERSION of older versions must be 0"
#endif
#if !IO_URING_CHECK_VERSION(2, 16) || !IO_URING_CHECK_VERSION(3, 0)
#error "IO_URING_CHECK_VERSION of newer versions must be true"
#endif

int main(void)
{
	CHECK_EQ(io_uring_major_version(), 2);
	CHECK_EQ(io_uring_minor_version(), 15);
	CHECK_EQ(io_uring_major_version(), IO_URING_VERSION_MAJOR);
	CHECK_EQ(io_uring_minor_version(), IO_URING_VERSION_MINOR);

	CHECK_EQ(io_uring_check_version(2, 15), false);
	CHECK_EQ(io_uring_check_version(2, 14), false);
	CHECK_EQ(io_uring_check_version(2, 0), false);
	CHECK_EQ(io_uring_check_version(1, 99), false);
	CHECK_EQ(io_uring_check_version(0, 0), false);
	CHECK_EQ(io_uring_check_version(-1, 100), false);
	CHECK_EQ(io_uring_check_version(2, 16), true);
	CHECK_EQ(io_uring_check_version(3, 0), true);
	CHECK_EQ(io_uring_check_version(2, 1000), true);

	/* The macro at run time, with non-constant arguments. */
	{
		volatile int maj = 2, min = 15;

		CHECK_EQ(IO_URING_CHECK_VERSION(maj, min), 0);
		min = 16;
		CHECK_EQ(IO_URING_CHECK_VERSION(maj, min), 1);
	}
	/* The bool return is a real 0/1 (the ABI type is C99 bool). */
	{
		bool (*fn)(int, int) = io_uring_check_version;
		unsigned char r = (unsigned char) fn(9, 9);

		CHECK_EQ(r, 1);
	}
	return 0;
}
