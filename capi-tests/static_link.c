/* SPDX-License-Identifier: MIT */
/*
 * liburing.a is usable on its own: support/static_prog.c links
 *  (a) as `cc prog.c <stage>/usr/lib/liburing.a` (no extra libraries),
 *  (b) as `cc prog.c -L<lib> -Wl,-Bstatic -luring -Wl,-Bdynamic`,
 *  (c) fully static (`-static`), when the C library has a static version,
 * and each binary runs (NOP round trips, file I/O, probe, timed wait) with no
 * liburing shared object loaded.
 */
#include "check.h"

int main(void)
{
	const char *stage = check_env_or_skip("CAPI_STAGE");
	const char *src = check_env_or_skip("CAPI_SRC");
	const char *out = getenv("CAPI_OUT");
	const char *cc = getenv("CC");
	int rc;

	if (!out || !*out)
		out = check_tmpdir();
	if (!cc || !*cc)
		cc = "cc";
	/* A machine that only runs the tests (a VM image) may have no compiler. */
	if (check_system("set -- %s; command -v \"$1\" >/dev/null 2>&1", cc) != 0)
		SKIP("no C compiler (%s) where the tests run", cc);

	rc = check_system("%s -I'%s/usr/include' -o '%s/static-a' '%s/support/static_prog.c' "
			  "'%s/usr/lib/liburing.a'", cc, stage, out, src, stage);
	CHECKM(rc == 0, "(a) link with liburing.a failed (exit %d)", rc);
	rc = check_system("env -u LD_LIBRARY_PATH '%s/static-a'", out);
	CHECKM(rc == 0, "(a) program failed (exit %d)", rc);
	rc = check_system("! readelf -d '%s/static-a' | grep -q 'NEEDED.*liburing'", out);
	CHECKM(rc == 0, "(a) binary still needs a liburing shared object");

	rc = check_system("%s -I'%s/usr/include' -o '%s/static-b' '%s/support/static_prog.c' "
			  "-L'%s/usr/lib' -Wl,-Bstatic -luring -Wl,-Bdynamic",
			  cc, stage, out, src, stage);
	CHECKM(rc == 0, "(b) link with -Wl,-Bstatic -luring failed (exit %d)", rc);
	rc = check_system("env -u LD_LIBRARY_PATH '%s/static-b'", out);
	CHECKM(rc == 0, "(b) program failed (exit %d)", rc);

	/* (c) fully static, if libc.a is there. */
	if (check_system("printf 'int main(void){return 0;}' | %s -static -x c -o '%s/static-probe' - "
			 ">/dev/null 2>&1", cc, out) != 0) {
		check_note("note: no static C library, (c) not run");
		return 0;
	}
	rc = check_system("%s -static -I'%s/usr/include' -o '%s/static-c' "
			  "'%s/support/static_prog.c' '%s/usr/lib/liburing.a'",
			  cc, stage, out, src, stage);
	CHECKM(rc == 0, "(c) fully static link failed (exit %d)", rc);
	rc = check_system("'%s/static-c'", out);
	CHECKM(rc == 0, "(c) program failed (exit %d)", rc);
	return 0;
}
