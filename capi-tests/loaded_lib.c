/* SPDX-License-Identifier: MIT */
/*
 * Guard for every other test: the liburing that the dynamic linker resolved
 * our calls to must be the one under test (<stage>/usr/lib), not a system
 * copy; and io_uring_major/minor_version must agree with the header.
 */
#include "check.h"

#include <dlfcn.h>
#include <limits.h>

static void resolve(const char *path, char *out)
{
	if (!realpath(path, out))
		FAIL("realpath(%s): %s", path, strerror(errno));
}

int main(void)
{
	const char *stage = check_env_or_skip("CAPI_STAGE");
	char want_dir[PATH_MAX], lib_path[PATH_MAX], stage_lib[PATH_MAX + 32];
	Dl_info info;
	void *sym;
	size_t n;

	/* Address of the function as the program sees it (the PLT/GOT target). */
	sym = dlsym(RTLD_DEFAULT, "io_uring_submit");
	CHECKM(sym != NULL, "io_uring_submit is not resolvable: %s", dlerror());
	CHECK(dladdr(sym, &info) != 0);
	CHECK(info.dli_fname != NULL);
	resolve(info.dli_fname, lib_path);

	snprintf(stage_lib, sizeof(stage_lib), "%s/usr/lib", stage);
	resolve(stage_lib, want_dir);
	n = strlen(want_dir);
	CHECKM(strncmp(lib_path, want_dir, n) == 0 && lib_path[n] == '/',
	       "io_uring_submit comes from %s, not from %s", lib_path, want_dir);
	check_note("io_uring_submit resolved in %s", lib_path);

	/* The same object must provide io_uring_queue_init (no mixing of libs). */
	sym = dlsym(RTLD_DEFAULT, "io_uring_queue_init");
	CHECK(sym != NULL);
	CHECK(dladdr(sym, &info) != 0);
	{
		char other[PATH_MAX];

		resolve(info.dli_fname, other);
		CHECKM(strcmp(other, lib_path) == 0, "io_uring_queue_init from %s", other);
	}

	CHECK_EQ(io_uring_major_version(), IO_URING_VERSION_MAJOR);
	CHECK_EQ(io_uring_minor_version(), IO_URING_VERSION_MINOR);
	return 0;
}
