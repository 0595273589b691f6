// SPDX-License-Identifier: MIT
// Preloaded into a program (LD_PRELOAD) by make check-debian-releases: says
// which file the program's liburing.so.2 mapping comes from, by identity
// rather than by name. Constructors run once every object is mapped, so the
// loader has resolved the links by then. For the first mapping whose path
// names liburing.so.2 (liburing-ffi's excluded), it opens the mapping itself
// (/proc/self/map_files/START-END, which stays the mapped file whatever
// happens to its name; root only) and appends "path device:inode" to the file
// $MAPPED_LIBRARY_OUT, or "none" when nothing is mapped.
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

__attribute__((constructor)) static void report_mapped_library(void)
{
	const char *out_path = getenv("MAPPED_LIBRARY_OUT");
	char line[4096], found[4096] = "none", range[128];
	FILE *maps, *out;
	struct stat st;

	if (!out_path)
		return;
	maps = fopen("/proc/self/maps", "r");
	while (maps && fgets(line, sizeof(line), maps)) {
		char *path = strchr(line, '/');
		char *dash = strchr(line, '-');
		char *space = strchr(line, ' ');
		int fd;

		if (!path || !dash || !space || !strstr(path, "/liburing.so.2"))
			continue;
		path[strcspn(path, "\n")] = '\0';
		*space = '\0';
		snprintf(range, sizeof(range), "/proc/self/map_files/%s", line);
		fd = open(range, O_RDONLY | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) != 0)
			snprintf(found, sizeof(found), "%s unreadable", path);
		else
			snprintf(found, sizeof(found), "%s %llu:%llu", path,
				 (unsigned long long)st.st_dev, (unsigned long long)st.st_ino);
		if (fd >= 0)
			close(fd);
		break;
	}
	if (maps)
		fclose(maps);
	out = fopen(out_path, "a");
	if (out) {
		fprintf(out, "%s\n", found);
		fclose(out);
	}
}
