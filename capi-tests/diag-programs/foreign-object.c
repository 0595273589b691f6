/* SPDX-License-Identifier: MIT */
/*
 * Put where the diagnostics object belongs by capi-tests/diag-classes.c
 * (case 8): a shared object that is not the diagnostics. Its constructor
 * says so on stdout: the library must check the file before it loads it,
 * so this line must never appear.
 */
#include <unistd.h>

__attribute__((constructor)) static void foreign_constructor(void)
{
	static const char line[] = "a foreign object's constructor ran\n";

	if (write(1, line, sizeof(line) - 1) < 0)
		return;
}
