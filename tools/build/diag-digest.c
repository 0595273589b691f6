/* SPDX-License-Identifier: MIT */
/*
 * The digest of the diagnostics object that liburing.so.2 checks before it
 * loads it (src/attach_diag/object_check.rs says what it covers and why):
 *
 *   diag-digest OBJECT OUT
 *
 * writes the 8 bytes of the digest, little endian, to OUT. It runs on the
 * build machine and reads an object of any word size and byte order (a
 * cross build's).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *data;
static size_t size;
static int big_endian;

static uint64_t field(size_t at, int bytes)
{
	uint64_t v = 0;

	if (at + bytes > size) {
		fprintf(stderr, "diag-digest: truncated object\n");
		exit(1);
	}
	for (int i = 0; i < bytes; i++) {
		int shift = big_endian ? (bytes - 1 - i) * 8 : i * 8;

		v |= (uint64_t) data[at + i] << shift;
	}
	return v;
}

static uint64_t fnv1a(uint64_t h, const unsigned char *p, size_t n)
{
	while (n--) {
		h ^= *p++;
		h *= 0x100000001b3ULL;
	}
	return h;
}

static uint64_t fnv1a_le(uint64_t h, uint64_t v, int bytes)
{
	unsigned char b[8];

	for (int i = 0; i < bytes; i++)
		b[i] = (unsigned char) (v >> (8 * i));
	return fnv1a(h, b, bytes);
}

int main(int argc, char **argv)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	FILE *f;
	int wide;

	if (argc != 3) {
		fprintf(stderr, "usage: diag-digest OBJECT OUT\n");
		return 2;
	}
	f = fopen(argv[1], "rb");
	if (!f || fseek(f, 0, SEEK_END) || (long) (size = ftell(f)) < 0 || fseek(f, 0, SEEK_SET)) {
		perror(argv[1]);
		return 1;
	}
	data = malloc(size ? size : 1);
	if (!data || fread(data, 1, size, f) != size) {
		perror(argv[1]);
		return 1;
	}
	fclose(f);
	if (size < 64 || memcmp(data, "\177ELF", 4) || (data[4] != 1 && data[4] != 2)) {
		fprintf(stderr, "diag-digest: %s is not an ELF object\n", argv[1]);
		return 1;
	}
	wide = data[4] == 2;
	big_endian = data[5] == 2;
	{
		uint64_t phoff = wide ? field(0x20, 8) : field(0x1c, 4);
		uint64_t entsize = field(wide ? 0x36 : 0x2a, 2);
		uint64_t phnum = field(wide ? 0x38 : 0x2c, 2);
		uint64_t ehsize = wide ? 64 : 52;

		for (uint64_t i = 0; i < phnum; i++) {
			size_t ph = phoff + i * entsize;
			uint64_t offset, vaddr, filesz, memsz, flags, from;

			if (field(ph, 4) != 1) /* PT_LOAD */
				continue;
			if (wide) {
				flags = field(ph + 4, 4);
				offset = field(ph + 8, 8);
				vaddr = field(ph + 16, 8);
				filesz = field(ph + 32, 8);
				memsz = field(ph + 40, 8);
			} else {
				offset = field(ph + 4, 4);
				vaddr = field(ph + 8, 4);
				filesz = field(ph + 16, 4);
				memsz = field(ph + 20, 4);
				flags = field(ph + 24, 4);
			}
			if (offset + filesz > size) {
				fprintf(stderr, "diag-digest: a segment lies past the end\n");
				return 1;
			}
			h = fnv1a_le(h, vaddr, 8);
			h = fnv1a_le(h, memsz, 8);
			h = fnv1a_le(h, filesz, 8);
			h = fnv1a_le(h, flags, 4);
			/* less the ELF header: strip rewrites its section-table fields */
			from = offset > ehsize ? offset : ehsize;
			if (from > offset + filesz)
				from = offset + filesz;
			h = fnv1a(h, data + from, offset + filesz - from);
		}
	}
	f = fopen(argv[2], "wb");
	if (!f) {
		perror(argv[2]);
		return 1;
	}
	for (int i = 0; i < 8; i++)
		fputc((int) (h >> (8 * i)) & 0xff, f);
	return fclose(f) ? 1 : 0;
}
