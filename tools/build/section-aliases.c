/* SPDX-License-Identifier: MIT */
/*
 * Lets tools/split-archive.sh give code that several archive members reach
 * a member of its own, instead of a copy in each. A build-machine tool
 * (BUILD_CC), reading relocatable objects of any byte order and class.
 *
 *   section-aliases alias OBJECT OUT
 *	Every relocation from one allocated section to another that names a
 *	local symbol there (the section's own symbol, or a local at its
 *	start) names instead a global hidden symbol "__uring_rs_s.SECTION"
 *	at the start of that section, added for it: then no reference from
 *	one section to another needs the two in one member, and ld and
 *	objcopy can cut the object anywhere. Mergeable sections excepted:
 *	they stay copied into each member that reaches them, and the final
 *	link merges the copies.
 *   section-aliases keep OBJECT OUT SECTIONS
 *	Every global symbol defined in an allocated section not named in
 *	SECTIONS (a file, one name a line) becomes undefined: `ld -r
 *	--gc-sections` then leaves those sections out, and the member refers
 *	to the member that defines them.
 *
 * Exit status 3: the object is one this tool does not rewrite (a machine
 * whose local symbols carry more than an address, as ARM's Thumb bit or
 * POWER's local entry points; extended section indices; two allocated
 * sections of one name); split-archive.sh then keeps its copies.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHT_SYMTAB 2
#define SHT_RELA 4
#define SHT_REL 9
#define SHT_SYMTAB_SHNDX 18
#define SHF_ALLOC 0x2
#define SHF_EXECINSTR 0x4
#define SHF_MERGE 0x10
#define SHF_TLS 0x400
#define SHN_LORESERVE 0xff00
#define STB_LOCAL 0
#define STB_GLOBAL 1
#define STT_OBJECT 1
#define STT_FUNC 2
#define STT_SECTION 3
#define STV_HIDDEN 2
#define EM_386 3
#define EM_X86_64 62
#define EM_AARCH64 183

static unsigned char *img;
static size_t img_len;
static int is64, big;

static _Noreturn void fail(int code, const char *what)
{
	fprintf(stderr, "section-aliases: %s\n", what);
	exit(code);
}

static uint64_t get(const unsigned char *p, int n)
{
	uint64_t v = 0;

	for (int i = 0; i < n; i++)
		v |= (uint64_t)p[big ? n - 1 - i : i] << (8 * i);
	return v;
}

static void put(unsigned char *p, int n, uint64_t v)
{
	for (int i = 0; i < n; i++)
		p[big ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

static unsigned char *at(uint64_t off, uint64_t len)
{
	if (off > img_len || len > img_len - off)
		fail(1, "truncated object");
	return img + off;
}

/* Section header fields. */
static uint64_t shoff;
static unsigned shentsize, shnum;

static unsigned char *sh(unsigned i)
{
	return at(shoff + (uint64_t)i * shentsize, shentsize);
}
static uint32_t sh_name(unsigned i) { return (uint32_t)get(sh(i), 4); }
static uint32_t sh_type(unsigned i) { return (uint32_t)get(sh(i) + 4, 4); }
static uint64_t sh_flags(unsigned i) { return get(sh(i) + 8, is64 ? 8 : 4); }
static unsigned char *sh_offset_p(unsigned i) { return sh(i) + (is64 ? 24 : 16); }
static unsigned char *sh_size_p(unsigned i) { return sh(i) + (is64 ? 32 : 20); }
static uint64_t sh_offset(unsigned i) { return get(sh_offset_p(i), is64 ? 8 : 4); }
static uint64_t sh_size(unsigned i) { return get(sh_size_p(i), is64 ? 8 : 4); }
static uint32_t sh_link(unsigned i) { return (uint32_t)get(sh(i) + (is64 ? 40 : 24), 4); }
static uint32_t sh_info(unsigned i) { return (uint32_t)get(sh(i) + (is64 ? 44 : 28), 4); }

/* Symbol fields (Elf32_Sym and Elf64_Sym order their fields differently). */
static unsigned symsize;
static unsigned char *symbol(unsigned char *tab, uint64_t i) { return tab + i * symsize; }
static uint32_t st_name(unsigned char *s) { return (uint32_t)get(s, 4); }
static uint64_t st_value(unsigned char *s) { return get(s + (is64 ? 8 : 4), is64 ? 8 : 4); }
static unsigned st_info(unsigned char *s) { return s[is64 ? 4 : 12]; }
static unsigned st_other(unsigned char *s) { return s[is64 ? 5 : 13]; }
static unsigned st_shndx(unsigned char *s) { return (unsigned)get(s + (is64 ? 6 : 14), 2); }

static void write_symbol(unsigned char *s, uint32_t name, unsigned info, unsigned other,
			 unsigned shndx)
{
	memset(s, 0, symsize);
	put(s, 4, name);
	s[is64 ? 4 : 12] = (unsigned char)info;
	s[is64 ? 5 : 13] = (unsigned char)other;
	put(s + (is64 ? 6 : 14), 2, shndx);
}

static const char *section_name(unsigned i, unsigned shstrndx)
{
	uint64_t off = sh_offset(shstrndx), size = sh_size(shstrndx);
	uint32_t n = sh_name(i);
	const char *s = (const char *)at(off, size);

	if (n >= size || !memchr(s + n, 0, size - n))
		fail(1, "bad section name");
	return s + n;
}

static void load(const char *path)
{
	FILE *f = fopen(path, "rb");
	long len = 0;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 64 || fseek(f, 0, SEEK_SET))
		fail(1, "cannot read the object");
	img_len = (size_t)len;
	img = malloc(img_len);
	if (!img || fread(img, 1, img_len, f) != img_len)
		fail(1, "cannot read the object");
	fclose(f);
	if (memcmp(img, "\177ELF", 4) || (img[4] != 1 && img[4] != 2) || (img[5] != 1 && img[5] != 2))
		fail(1, "not an ELF object");
	is64 = img[4] == 2;
	big = img[5] == 2;
	if (get(img + 16, 2) != 1)
		fail(1, "not a relocatable object");
	unsigned machine = (unsigned)get(img + 18, 2);
	if (machine != EM_X86_64 && machine != EM_386 && machine != EM_AARCH64)
		fail(3, "machine not handled");
	shoff = get(img + (is64 ? 40 : 32), is64 ? 8 : 4);
	shentsize = (unsigned)get(img + (is64 ? 58 : 46), 2);
	shnum = (unsigned)get(img + (is64 ? 60 : 48), 2);
	symsize = is64 ? 24 : 16;
	if (shnum == 0 || shnum >= SHN_LORESERVE)
		fail(3, "extended section numbers");
	for (unsigned i = 0; i < shnum; i++)
		if (sh_type(i) == SHT_SYMTAB_SHNDX)
			fail(3, "extended section indices");
}

static unsigned find_symtab(void)
{
	for (unsigned i = 0; i < shnum; i++)
		if (sh_type(i) == SHT_SYMTAB)
			return i;
	fail(1, "no symbol table");
	return 0;
}

static void save(const char *path, const unsigned char *extra, size_t extra_len)
{
	FILE *f = fopen(path, "wb");

	if (!f || fwrite(img, 1, img_len, f) != img_len ||
	    (extra_len && fwrite(extra, 1, extra_len, f) != extra_len) || fclose(f))
		fail(1, "cannot write the output");
}

static int alias(const char *in, const char *out)
{
	load(in);
	unsigned shstrndx = (unsigned)get(img + (is64 ? 62 : 50), 2);
	unsigned symtab = find_symtab(), strtab = sh_link(symtab);
	uint64_t nsyms = sh_size(symtab) / symsize;
	unsigned char *syms = at(sh_offset(symtab), nsyms * symsize);
	unsigned *alias_of = calloc(shnum, sizeof(*alias_of));	/* new symbol index, 0: none yet */
	uint64_t next = nsyms;

	/* Two allocated sections of one name would get one alias name. */
	for (unsigned i = 1; i < shnum; i++)
		for (unsigned j = i + 1; (sh_flags(i) & SHF_ALLOC) && j < shnum; j++)
			if ((sh_flags(j) & SHF_ALLOC) &&
			    !strcmp(section_name(i, shstrndx), section_name(j, shstrndx)))
				fail(3, "two allocated sections of one name");

	for (unsigned r = 0; r < shnum; r++) {
		uint32_t type = sh_type(r);
		if ((type != SHT_REL && type != SHT_RELA) || sh_link(r) != symtab)
			continue;
		unsigned from = sh_info(r);
		/* (Unwind tables are cut by ld itself, an entry per function.) */
		if (from >= shnum || !(sh_flags(from) & SHF_ALLOC) ||
		    !strcmp(section_name(from, shstrndx), ".eh_frame"))
			continue;
		unsigned entsize = (is64 ? 16 : 8) + (type == SHT_RELA ? (is64 ? 8 : 4) : 0);
		uint64_t n = sh_size(r) / entsize;
		unsigned char *rel = at(sh_offset(r), n * entsize);
		for (uint64_t k = 0; k < n; k++) {
			unsigned char *info = rel + k * entsize + (is64 ? 8 : 4);
			uint64_t word = get(info, is64 ? 8 : 4);
			uint64_t sym = is64 ? word >> 32 : word >> 8;
			if (sym == 0 || sym >= nsyms)
				continue;
			unsigned char *s = symbol(syms, sym);
			unsigned to = st_shndx(s);
			/* A mergeable section (strings, constants) is left
			 * alone: the linker moves what such a reference names
			 * only when it names the section, and copies of it in
			 * several members are merged into one anyway. So is
			 * thread-local data (its symbols are of their own type). */
			if ((st_info(s) >> 4) != STB_LOCAL || to == 0 || to >= SHN_LORESERVE ||
			    to == from || !(sh_flags(to) & SHF_ALLOC) ||
			    (sh_flags(to) & (SHF_MERGE | SHF_TLS)))
				continue;
			uint64_t value = (st_info(s) & 0xf) == STT_SECTION ? 0 : st_value(s);
			if (value) {
				if (type != SHT_RELA)
					fail(3, "a reference to a local symbol inside a section, without an addend field");
				unsigned char *addend = rel + k * entsize + (is64 ? 16 : 8);
				put(addend, is64 ? 8 : 4, get(addend, is64 ? 8 : 4) + value);
			}
			if (!alias_of[to])
				alias_of[to] = (unsigned)next++;
			put(info, is64 ? 8 : 4,
			    is64 ? ((uint64_t)alias_of[to] << 32) | (word & 0xffffffffu)
				 : ((uint64_t)alias_of[to] << 8) | (word & 0xff));
		}
	}

	/* The new symbol table and string table go after the file's end. */
	uint64_t old_str = sh_size(strtab);
	size_t str_len = (size_t)old_str;
	for (unsigned i = 0; i < shnum; i++)
		if (alias_of[i])
			str_len += strlen("__uring_rs_s.") + strlen(section_name(i, shstrndx)) + 1;
	size_t pad = (8 - img_len % 8) % 8;
	size_t tab_len = (size_t)next * symsize;
	size_t extra_len = pad + tab_len + str_len;
	unsigned char *extra = calloc(1, extra_len ? extra_len : 1);
	unsigned char *tab = extra + pad, *str = tab + tab_len;
	memcpy(tab, syms, nsyms * symsize);
	memcpy(str, at(sh_offset(strtab), old_str), old_str);
	size_t str_at = (size_t)old_str;
	for (unsigned i = 0; i < shnum; i++) {
		if (!alias_of[i])
			continue;
		unsigned kind = (sh_flags(i) & SHF_EXECINSTR) ? STT_FUNC : STT_OBJECT;
		write_symbol(symbol(tab, alias_of[i]), (uint32_t)str_at, (STB_GLOBAL << 4) | kind,
			     STV_HIDDEN, i);
		str_at += (size_t)sprintf((char *)str + str_at, "__uring_rs_s.%s",
					  section_name(i, shstrndx)) + 1;
	}
	uint64_t tab_off = img_len + pad;
	put(sh_offset_p(symtab), is64 ? 8 : 4, tab_off);
	put(sh_size_p(symtab), is64 ? 8 : 4, tab_len);
	put(sh_offset_p(strtab), is64 ? 8 : 4, tab_off + tab_len);
	put(sh_size_p(strtab), is64 ? 8 : 4, str_len);
	save(out, extra, extra_len);
	return 0;
}

static int keep(const char *in, const char *out, const char *list)
{
	load(in);
	unsigned shstrndx = (unsigned)get(img + (is64 ? 62 : 50), 2);
	unsigned symtab = find_symtab();
	uint64_t nsyms = sh_size(symtab) / symsize;
	unsigned char *syms = at(sh_offset(symtab), nsyms * symsize);
	char *kept = calloc(shnum, 1), line[4096];
	FILE *f = fopen(list, "r");

	if (!f)
		fail(1, "cannot read the section list");
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = 0;
		for (unsigned i = 1; i < shnum; i++)
			if (!strcmp(section_name(i, shstrndx), line))
				kept[i] = 1;
	}
	fclose(f);
	for (uint64_t k = 1; k < nsyms; k++) {
		unsigned char *s = symbol(syms, k);
		unsigned in_sec = st_shndx(s);
		if ((st_info(s) >> 4) == STB_LOCAL || in_sec == 0 || in_sec >= SHN_LORESERVE ||
		    kept[in_sec] || !(sh_flags(in_sec) & SHF_ALLOC))
			continue;
		/* Undefined: no value, size or type (as an assembler writes one). */
		write_symbol(s, st_name(s), st_info(s) & 0xf0, st_other(s), 0);
	}
	save(out, NULL, 0);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 4 && !strcmp(argv[1], "alias"))
		return alias(argv[2], argv[3]);
	if (argc == 5 && !strcmp(argv[1], "keep"))
		return keep(argv[2], argv[3], argv[4]);
	fprintf(stderr, "usage: section-aliases alias OBJECT OUT | keep OBJECT OUT SECTIONS\n");
	return 2;
}
