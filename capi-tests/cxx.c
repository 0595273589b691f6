/* SPDX-License-Identifier: MIT */
/*
 * The headers work from C++: support/cxx_main.cpp + support/cxx_second.cpp
 * (two translation units including liburing.h) compile with -Wall -Wextra
 * -Werror as C++11, C++17 and C++20, link against the library under test
 * and run a NOP round trip.  The header also compiles as ISO C99 and C11
 * (with _DEFAULT_SOURCE, as upstream's needs POSIX types) and as gnu11
 * without any feature macro.
 */
#include "check.h"

int main(void)
{
	static const char *stds[] = { "c++11", "c++17", "c++20" };
	static const char *cstds[] = { "c99", "c11", "gnu11" };
	static const char *cdefs[] = { "-D_DEFAULT_SOURCE", "-D_DEFAULT_SOURCE", "" };
	const char *stage = check_env_or_skip("CAPI_STAGE");
	const char *src = check_env_or_skip("CAPI_SRC");
	const char *out = getenv("CAPI_OUT");
	const char *cxx = getenv("CXX");
	const char *cc = getenv("CC");
	unsigned i;
	int rc;

	if (!out || !*out)
		out = check_tmpdir();
	if (!cxx || !*cxx)
		cxx = "c++";
	if (!cc || !*cc)
		cc = "cc";
	if (check_system("command -v %s >/dev/null 2>&1", cxx) != 0)
		SKIP("no C++ compiler (%s)", cxx);

	for (i = 0; i < sizeof(stds) / sizeof(stds[0]); i++) {
		rc = check_system("%s -std=%s -Wall -Wextra -Werror -I'%s/usr/include' "
				  "-o '%s/cxx-%s' '%s/support/cxx_main.cpp' '%s/support/cxx_second.cpp' "
				  "-L'%s/usr/lib' %s",
				  cxx, stds[i], stage, out, stds[i], src, src, stage, check_link_uring());
		CHECKM(rc == 0, "C++ build with -std=%s failed (exit %d)", stds[i], rc);
		rc = check_system("'%s/cxx-%s'", out, stds[i]);
		CHECKM(rc == 0, "C++ program built with -std=%s failed (exit %d)", stds[i], rc);
	}

	/* The header in plain C programs. */
	for (i = 0; i < sizeof(cstds) / sizeof(cstds[0]); i++) {
		rc = check_system("printf '#include <liburing.h>\\nint main(void){struct io_uring r;"
				  "return io_uring_queue_init(4,&r,0) ? 1 : (io_uring_queue_exit(&r),0);}\\n' | "
				  "%s -std=%s %s -Wall -Wextra -Werror -I'%s/usr/include' -x c -o '%s/c-%s' - "
				  "-L'%s/usr/lib' %s",
				  cc, cstds[i], cdefs[i], stage, out, cstds[i], stage, check_link_uring());
		CHECKM(rc == 0, "C build with -std=%s failed (exit %d)", cstds[i], rc);
		rc = check_system("'%s/c-%s'", out, cstds[i]);
		CHECKM(rc == 0, "C program built with -std=%s failed (exit %d)", cstds[i], rc);
	}
	return 0;
}
