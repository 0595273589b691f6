# SPDX-License-Identifier: MIT
# liburing 2.15 drop-in, built from Rust.
#   make            build liburing.so.2.15, liburing.a, liburing-ffi.*, pkg-config files
#   make test       every test: Rust unit tests, ABI/symbol checks, capi-tests, liburing's own suite
#   make install    honours DESTDIR, prefix, libdir, libdevdir, includedir, mandir
#                   (liburing's defaults)
#   ./configure     optional, liburing's options; see ./configure --help

# ./configure writes the install directories, CC, CXX and the sanitizer choice
# to config.mk; without it the defaults below (liburing's) apply. Variables
# given on the make command line win over both.
-include config.mk

prefix     ?= /usr
includedir ?= $(prefix)/include
libdir     ?= $(prefix)/lib
libdevdir  ?= $(prefix)/lib
bindir     ?= $(prefix)/bin
# uring-info is ours, not liburing's: ./configure turns its install off (so a
# distribution recipe sees liburing's exact file set) unless --enable-uring-info.
install_uring_info ?= yes
# The diagnostics object (LIBURING_DEBUG, LIBURING_TRACE) likewise, unless
# --enable-diagnostics.
install_diagnostics ?= yes
mandir     ?= $(prefix)/man
datadir    ?= $(prefix)/share
DESTDIR    ?=

CC     ?= cc
# Build flags under liburing's names, so packaging recipes can pass theirs
# (Debian: `make V=1 CPPFLAGS=... CFLAGS=... LDFLAGS=...` with its hardening
# flags). CPPFLAGS and CFLAGS reach every C compile, CFLAGS and LDFLAGS every
# link of a shared library or program. Given CFLAGS replace our default, as
# liburing's do; the flags the build itself needs (-fPIC, -Iinclude) are added
# on top. The Rust code gets no flags from here: relro/bindnow are properties
# of the final link, which is the C compiler's, and stable rustc has no stack
# protector or fortify option to map CFLAGS onto (cargo still reads RUSTFLAGS
# from the environment).
CFLAGS   ?= -O2 -Wall -Wextra -Werror
CPPFLAGS ?=
LDFLAGS  ?=
# ./configure --enable-sanitizer (address,undefined) or --enable-tsan (thread):
# the C parts are instrumented: liburing-ffi's helpers, examples, C tests.
SANITIZE ?=
SANITIZE_FLAGS := $(if $(SANITIZE),-fsanitize=$(SANITIZE) -fno-omit-frame-pointer -g)
# With AddressSanitizer the library itself also checks, at submit, what each
# SQE points at, as liburing's sanitizer build (core/src/sanitize.rs); the
# choice is remembered beside cargo's output (uring-rs-inputs), so
# switching rebuilds the library.
comma := ,
RUST_FEATURES := $(if $(filter address,$(subst $(comma), ,$(SANITIZE))),uring-rs/sanitize)
LIB_SANITIZE_FLAGS := $(if $(RUST_FEATURES),$(SANITIZE_FLAGS))
# V=1 prints every command in full, as liburing's; cargo then shows its rustc
# command lines too.
CARGO_OUTPUT := $(if $(filter-out 0,$(V)),--verbose,--quiet)
# A configured or command-line compiler is also the one the C tests use
# (capi-tests/run.sh reads CC, the C++ header test reads CXX).
ifneq ($(origin CC),default)
export CC
endif
ifneq ($(origin CXX),default)
export CXX
endif

CARGO  ?= cargo
VERSION := 2.15
BUILD  := build
CARGO_TARGET_DIR ?= target
export CARGO_TARGET_DIR
# Cross builds (tools/arch/): RUST_TARGET is the Rust target triple (with
# CARGO_BUILD_FLAGS such as -Zbuild-std=core for targets rustup did not
# install), CROSS_COMPILE the binutils prefix (arm-linux-gnueabihf-), or
# LD, OBJCOPY, AR, NM each by name; CC names the cross C compiler.
RUST_TARGET       ?=
CARGO_BUILD_FLAGS ?=
CROSS_COMPILE     ?=
ifeq ($(origin LD),default)
LD := $(CROSS_COMPILE)ld
endif
ifeq ($(origin AR),default)
AR := $(CROSS_COMPILE)ar
endif
OBJCOPY ?= $(CROSS_COMPILE)objcopy
NM      ?= $(CROSS_COMPILE)nm
STRIP   ?= $(CROSS_COMPILE)strip
READELF ?= $(CROSS_COMPILE)readelf
export NM
# i386's PIC thunks sit in section groups that `ld -r` would keep twice
# (then "defined in discarded section" when linking liburing-ffi.so);
# allocating group members as plain sections avoids it everywhere.
RELINK_LDFLAGS ?= --force-group-allocation
# MIPS calls through the GOT (CALL16) only to global symbols, so there the
# relinked object keeps its symbols global (RELINK_LOCALIZE=no): the shared
# libraries still export only the version script's names.
RELINK_LOCALIZE ?= yes
RUST_A := $(CARGO_TARGET_DIR)/$(if $(RUST_TARGET),$(RUST_TARGET)/)release/liburing.a
# Beside the library's archive (a cross build that names RUST_A gets its own).
DIAG_RUST_A := $(dir $(RUST_A))liburing_diag.a
STAGE  := $(BUILD)/stage
URING_INFO := $(BUILD)/uring-info

LIB_SO      := $(BUILD)/liburing.so.$(VERSION)
LIB_A       := $(BUILD)/liburing.a
FFI_SO      := $(BUILD)/liburing-ffi.so.$(VERSION)
FFI_A       := $(BUILD)/liburing-ffi.a
# No -s: the build keeps its debug information (DWARF, build-id); stripping is
# the packager's step (dh_strip, which makes the -dbgsym packages) or
# `make install-strip`'s.
SO_LDFLAGS  := -shared -Wl,--gc-sections -Wl,-z,now -Wl,-z,noexecstack -Wl,--no-undefined

# As liburing: the dev symlink is relative when libdevdir is libdir, and
# names libdir absolutely otherwise (so it resolves inside the final system).
relativelibdir := $(if $(filter-out $(abspath $(libdir)),$(abspath $(libdevdir))),$(libdir)/)

RUST_SRC := $(shell find src core/src diag/src uapi/src sysinfo/src -name '*.rs') Cargo.toml \
	core/Cargo.toml diag/Cargo.toml uapi/Cargo.toml sysinfo/Cargo.toml
GEN_SRC  := $(shell find tools/gen/src -name '*.rs') tools/gen/Cargo.toml
# The generator is a cargo workspace of its own (tools/gen/Cargo.toml).
GEN := $(CARGO) run --quiet --manifest-path tools/gen/Cargo.toml --
HEADERS  := $(shell find include -name '*.h')

.PHONY: all lib ffi diag headers check-headers install install-strip uninstall test unit-test lint capi-tests \
	liburing-tests stage clean check-symbols bench bench-calls check-licence abi-assert bench-smoke check-differential fuzz fuzz-short \
	runtests examples distclean check-debian \
	check-sanitize check-sanitizer-build python-tests

all: lib ffi diag $(BUILD)/liburing.pc $(BUILD)/liburing-ffi.pc $(URING_INFO) man

lib: $(LIB_SO) $(LIB_A)

# uring-info: what io_uring this machine offers (tools/uring-info, a std
# binary sharing the uapi tables and diag lookups by path). Built for the
# build machine unless URING_INFO_TARGET names a Rust target whose standard
# library is installed (Debian's cross builds: libstd-rust-dev of that
# architecture, the linker in CARGO_TARGET_<TRIPLE>_LINKER). RUST_TARGET is
# not enough: the library needs only core, which tools/arch builds from
# source for targets that have no std here.
URING_INFO_TARGET ?=
$(URING_INFO): $(RUST_SRC) $(shell find tools/uring-info -name '*.rs') tools/uring-info/Cargo.toml
	@mkdir -p $(BUILD)
	$(CARGO) build --release --quiet -p uring-info $(if $(URING_INFO_TARGET),--target $(URING_INFO_TARGET))
	cp $(CARGO_TARGET_DIR)/$(if $(URING_INFO_TARGET),$(URING_INFO_TARGET)/)release/uring-info $@

# The library (uring-rs) and the diagnostics object (uring-diag), in one
# cargo run.
$(RUST_A) $(DIAG_RUST_A) &: $(RUST_SRC) $(CARGO_TARGET_DIR)/uring-rs-inputs
	$(CARGO) build --release $(CARGO_OUTPUT) -p uring-rs -p uring-diag --lib \
		$(if $(RUST_FEATURES),--features $(RUST_FEATURES)) \
		$(if $(RUST_TARGET),--target $(RUST_TARGET)) $(CARGO_BUILD_FLAGS)

# Rewritten only when the library's features or the C compiler of its
# call-site shims (src/capi/build_detour.rs) change: cargo alone would
# rebuild for the compiler, but the rule above runs cargo only when a
# prerequisite changed (make check-arch's clang family builds with CC=clang
# in this target directory; a plain make afterwards kept clang's shim).
BUILD_INPUTS := $(RUST_FEATURES) cc=$(CC)
$(CARGO_TARGET_DIR)/uring-rs-inputs: FORCE
	@mkdir -p $(CARGO_TARGET_DIR)
	@echo '$(BUILD_INPUTS)' | cmp -s - $@ || echo '$(BUILD_INPUTS)' > $@
FORCE:

# Each library is first one relocatable object: the Rust staticlib partially
# linked with only what liburing's functions reach (--gc-sections), then every
# symbol made local except liburing's API and the internals liburing's own
# tests link against, so no Rust runtime symbol can clash with another
# library. The archives are then cut into a member per function or group (LIB_A), so
# `cc prog.c -luring` pulls in only what the program's calls reach.
# (rustc's embedded LLVM bitcode is dropped first: binutils' LTO plugins
# misread it, and C needs only machine code.)
INTERNAL_SYMS := io_uring_mmap io_uring_unmap_rings io_uring_setup_ring_pointers \
	__io_uring_queue_init_params __uring_rs_install
map_symbols = awk '/^[ \t]*[A-Za-z_][A-Za-z0-9_]*;/ { gsub(/[ \t;]/, ""); print }' $(1)

# Undefined symbols no relocation names any more (code --gc-sections dropped,
# as Debian's compiler_builtins' __gcc_personality_v0 and its _Unwind_* calls)
# are removed: left in, they would make the C compiler link libgcc_s.
# Nothing in the library unwinds (panic = "abort", no callbacks), so the
# Rust code's unwind tables (.eh_frame) are dropped too. The debug information
# stays, except where a section is dropped (the archives' copies without the
# diagnostics constructor): its DWARF refers to that section, and objcopy
# cannot remove a section something still names.
# $(call relink_object,output,version map,extra objects,Rust archive,sections to drop)
define relink_object
	@mkdir -p $(dir $(1))
	{ $(call map_symbols,$(2)); printf '%s\n' $(INTERNAL_SYMS); } | sort -u > $(1).syms
	$(OBJCOPY) $(if $(5),--strip-debug) --remove-section=.llvmbc --remove-section=.llvmcmd \
		--remove-section=.eh_frame $(addprefix --remove-section=,$(5)) $(4) $(1).rust.a
	$(LD) -r $(RELINK_LDFLAGS) --gc-sections $$(sed 's/^/-u /' $(1).syms) -o $(1).all.o $(3) \
		--whole-archive $(1).rust.a --no-whole-archive
	$(NM) -u $(1).all.o | awk '{ print $$2 }' | LC_ALL=C sort -u > $(1).undef
	$(READELF) -rW $(1).all.o | awk 'NF >= 5 && $$1 ~ /^[0-9a-f]+$$/ { print $$5 }' | \
		LC_ALL=C sort -u | LC_ALL=C comm -23 $(1).undef - > $(1).dead
	$(OBJCOPY) $(if $(filter yes,$(RELINK_LOCALIZE)),--keep-global-symbols=$(1).syms) \
		$$([ -s $(1).dead ] && echo --strip-symbols=$(1).dead) $(1).all.o $(1)
	rm -f $(1).rust.a $(1).all.o $(1).undef $(1).dead
endef

# The shared libraries load the diagnostics object on demand and detach it
# when unloaded (src/attach_diag.rs, a constructor and a destructor in
# LOADER_SECTIONS); the archives leave those out, so a static program never
# references dlopen. The diagnostics archive attaches itself instead (a
# constructor in STATIC_ATTACH_SECTION, left out of the shared object).
LOADER_SECTIONS := .init_array.65535 .fini_array.65535
STATIC_ATTACH_SECTION := .init_array.65535

# Before the shared libraries load the diagnostics object, they check its
# file against the digest of the one built here (src/attach_diag/
# object_check.rs), which is written into their relinked object's
# .uring_rs_diag_digest section. The digest tool runs on the build machine
# (BUILD_CC), and reads objects of any target.
BUILD_CC    ?= cc
DIAG_DIGEST := $(BUILD)/uring-rs/liburing-diag.digest
$(BUILD)/diag-digest: tools/build/diag-digest.c
	@mkdir -p $(BUILD)
	$(BUILD_CC) -O2 -o $@ $<
$(DIAG_DIGEST): $(BUILD)/uring-rs/liburing-diag.so $(BUILD)/diag-digest
	$(BUILD)/diag-digest $< $@
patch_digest = $(OBJCOPY) --update-section .uring_rs_diag_digest=$(DIAG_DIGEST) $(1)

$(BUILD)/liburing.o: $(RUST_A) src/liburing.map Makefile $(DIAG_DIGEST)
	$(call relink_object,$@,src/liburing.map,,$(RUST_A),)
	$(call patch_digest,$@)

$(BUILD)/liburing-static.o: $(RUST_A) src/liburing.map Makefile
	$(call relink_object,$@,src/liburing.map,,$(RUST_A),$(LOADER_SECTIONS))

# liburing.a's code when split: the library built never observed (feature
# `unobserved`, core/Cargo.toml), in a cargo directory of its own. A static
# program gets the diagnostics from liburing-diag.a, which carries its own,
# observable copy of the library (DIAG_A), so in liburing.a the observed
# copy of every call is code no program can reach (make footprint).
# A build that brings its own RUST_A (tools/arch's VM and musl stages, which
# run cargo themselves and make with CARGO=true) cuts liburing.a from that
# archive, observed copies included, unless it names UNOBSERVED_RUST_A too.
UNOBSERVED_TARGET_DIR := $(CARGO_TARGET_DIR)/unobserved
ifeq ($(origin RUST_A),command line)
UNOBSERVED_RUST_A ?= $(RUST_A)
else
UNOBSERVED_RUST_A ?= $(UNOBSERVED_TARGET_DIR)/$(if $(RUST_TARGET),$(RUST_TARGET)/)release/liburing.a
$(UNOBSERVED_RUST_A): $(RUST_SRC) $(CARGO_TARGET_DIR)/uring-rs-inputs
	CARGO_TARGET_DIR=$(UNOBSERVED_TARGET_DIR) $(CARGO) build --release $(CARGO_OUTPUT) -p uring-rs --lib \
		--features uring-rs/unobserved$(if $(RUST_FEATURES),$(comma)$(RUST_FEATURES)) \
		$(if $(RUST_TARGET),--target $(RUST_TARGET)) $(CARGO_BUILD_FLAGS)
endif

$(BUILD)/liburing-unobserved.o: $(UNOBSERVED_RUST_A) src/liburing.map Makefile
	$(call relink_object,$@,src/liburing.map,,$(UNOBSERVED_RUST_A),$(LOADER_SECTIONS))

# liburing.a: a member per function (or, where shared code is copied, per
# group of functions that share most of it: src/liburing.a.groups;
# tools/split-archive.sh), so a static program gets only what its calls reach. __uring_rs_install, the one writer
# of the observation state, is left to the diagnostics archive, which carries the
# whole library as one object (DIAG_A). The digest section goes too: only the
# shared libraries' loader reads it, and being retained it would be in every member. MIPS keeps its symbols global
# (RELINK_LOCALIZE=no), which two members' copies of a helper would clash on:
# there the archive stays one object.
# Code several members reach is a member of its own (tools/build/
# section-aliases.c, run on the build machine: BUILD_CC, as diag-digest).
SPLIT_ARCHIVE := $(filter yes,$(RELINK_LOCALIZE))
SECTION_ALIASES := $(BUILD)/section-aliases
$(SECTION_ALIASES): tools/build/section-aliases.c
	@mkdir -p $(BUILD)
	$(BUILD_CC) -O2 -o $@ $<
SPLIT := LD="$(LD)" OBJCOPY="$(OBJCOPY)" AR="$(AR)" NM="$(NM)" READELF="$(READELF)" \
	RELINK_LDFLAGS="$(RELINK_LDFLAGS)" SECTION_ALIASES="$(SECTION_ALIASES)" sh tools/split-archive.sh
$(LIB_A): $(if $(SPLIT_ARCHIVE),$(BUILD)/liburing-unobserved.o $(SECTION_ALIASES),$(BUILD)/liburing-static.o) \
		tools/split-archive.sh src/liburing.a.groups
ifeq ($(SPLIT_ARCHIVE),yes)
	grep -vx __uring_rs_install $<.syms > $@.syms
	$(OBJCOPY) --remove-section=.uring_rs_diag_digest $< $@.o
	MEMBER_GROUPS=src/liburing.a.groups $(SPLIT) $@ $(BUILD)/liburing-split $@.o $@.syms
	rm -rf $@.syms $@.o $(BUILD)/liburing-split
else
	rm -f $@
	$(AR) rcs $@ $<
endif

# rustc's cdylib would replace our version script with its own, so the
# staticlib is relinked by the C compiler: versioned symbols, nothing else.
$(LIB_SO): $(BUILD)/liburing.o src/liburing.map Makefile
	$(CC) $(CFLAGS) $(LIB_SANITIZE_FLAGS) $(SO_LDFLAGS) -o $@ $(BUILD)/liburing.o \
		-Wl,--version-script=src/liburing.map -Wl,-soname,liburing.so.2 $(LDFLAGS)
	ln -sf liburing.so.$(VERSION) $(BUILD)/liburing.so.2
	ln -sf liburing.so.$(VERSION) $(BUILD)/liburing.so

# liburing-ffi: the same library plus every inline helper of liburing.h
# compiled once from our own header into real functions.
# As liburing's build: 64-bit off_t whatever the target (the large-file ABI),
# so on 32-bit targets the helpers taking off_t (io_uring_prep_fadvise64,
# io_uring_prep_madvise64) read the 64-bit argument callers built with
# _FILE_OFFSET_BITS=64 pass; a no-op on 64-bit targets.
$(BUILD)/ffi.o: src/ffi.c $(HEADERS) $(wildcard config.mk)
	@mkdir -p $(BUILD)
	$(CC) -D_FILE_OFFSET_BITS=64 $(CPPFLAGS) $(CFLAGS) $(SANITIZE_FLAGS) -fPIC -Iinclude -c -o $@ src/ffi.c

$(BUILD)/liburing-ffi.o: $(RUST_A) $(BUILD)/ffi.o src/liburing-ffi.map Makefile $(DIAG_DIGEST)
	$(call relink_object,$@,src/liburing-ffi.map,$(BUILD)/ffi.o,$(RUST_A),)
	$(call patch_digest,$@)

$(BUILD)/liburing-ffi-static.o: $(RUST_A) $(BUILD)/ffi.o src/liburing-ffi.map Makefile
	$(call relink_object,$@,src/liburing-ffi.map,$(BUILD)/ffi.o,$(RUST_A),$(LOADER_SECTIONS))

# liburing-ffi.a, split: liburing.a's members and one more, the inline
# helpers (ffi.o, only the map's names global; relinked first for i386's
# PIC thunks, as relink_object says). They call the library by
# name, so a program that links the diagnostics archive first gets those
# calls from its copy of the library, and any other from liburing.a's members.
$(FFI_A): $(if $(SPLIT_ARCHIVE),$(LIB_A) $(BUILD)/ffi.o src/liburing-ffi.map,$(BUILD)/liburing-ffi-static.o)
ifeq ($(SPLIT_ARCHIVE),yes)
	$(NM) -g --defined-only $(LIB_A) | awk 'NF == 3 { print $$3 }' | LC_ALL=C sort -u > $@.lib.syms
	$(call map_symbols,src/liburing-ffi.map) | LC_ALL=C sort -u | LC_ALL=C comm -23 - $@.lib.syms > $@.helpers.syms
	$(LD) -r $(RELINK_LDFLAGS) -o $(BUILD)/ffi-helpers.all.o $(BUILD)/ffi.o
	$(OBJCOPY) --keep-global-symbols=$@.helpers.syms $(BUILD)/ffi-helpers.all.o $(BUILD)/ffi-helpers.o
	$(NM) -g --defined-only $(BUILD)/ffi-helpers.o | awk '{ print $$3 }' | LC_ALL=C sort | cmp -s - $@.helpers.syms || \
		{ echo "$@: ffi.o does not define every helper of src/liburing-ffi.map" >&2; exit 1; }
	rm -f $@
	cp $(LIB_A) $@
	$(AR) rs $@ $(BUILD)/ffi-helpers.o
	rm -f $@.lib.syms $@.helpers.syms $(BUILD)/ffi-helpers.all.o
else
	rm -f $@
	$(AR) rcs $@ $<
endif

$(FFI_SO): $(BUILD)/liburing-ffi.o src/liburing-ffi.map Makefile
	$(CC) $(CFLAGS) $(SANITIZE_FLAGS) $(SO_LDFLAGS) -o $@ $(BUILD)/liburing-ffi.o \
		-Wl,--version-script=src/liburing-ffi.map -Wl,-soname,liburing-ffi.so.2 $(LDFLAGS)
	ln -sf liburing-ffi.so.$(VERSION) $(BUILD)/liburing-ffi.so.2
	ln -sf liburing-ffi.so.$(VERSION) $(BUILD)/liburing-ffi.so

ffi: $(if $(wildcard src/ffi.c),$(FFI_SO) $(FFI_A))

# The diagnostics object (the uring-diag crate): LIBURING_DEBUG and
# LIBURING_TRACE, loaded by the shared libraries from uring-rs/ beside them
# only when a variable asks. Private: no SONAME, one exported function.
# Its archive, liburing-diag.a, is for static programs: a constructor in it
# (STATIC_ATTACH_SECTION, dropped from the shared object) attaches the observer to
# liburing.a when a program links it in (-Wl,-u,uring_diag_attach).
DIAG_SO := $(BUILD)/uring-rs/liburing-diag.so
DIAG_A  := $(BUILD)/liburing-diag.a
$(BUILD)/uring-rs/liburing-diag.o: $(DIAG_RUST_A) diag/liburing-diag.map Makefile
	$(call relink_object,$@,diag/liburing-diag.map,,$(DIAG_RUST_A),$(STATIC_ATTACH_SECTION))

# (In the sanitizer build the object's copy of the core refers to ASan too.)
$(DIAG_SO): $(BUILD)/uring-rs/liburing-diag.o diag/liburing-diag.map
	$(CC) $(CFLAGS) $(LIB_SANITIZE_FLAGS) $(SO_LDFLAGS) -o $@ $< -Wl,--version-script=diag/liburing-diag.map $(LDFLAGS)

$(BUILD)/liburing-diag-static.o: $(DIAG_RUST_A) diag/liburing-diag.map Makefile
	$(call relink_object,$@,diag/liburing-diag.map,,$(DIAG_RUST_A),)

# With a split liburing.a, the whole library rides along as a second member:
# the diagnostics' constructor needs __uring_rs_install, and with it every
# function of the program then comes from this one object, sharing the
# observation state (so -luring-diag goes before -luring, as the README says).
$(DIAG_A): $(BUILD)/liburing-diag-static.o $(if $(SPLIT_ARCHIVE),$(BUILD)/liburing-static.o)
	rm -f $@
	$(AR) rcs $@ $^

diag: $(DIAG_SO) $(DIAG_A)

# pkg-config files name the install directories, so `make install` writes
# them afresh for the prefix it is given.
fill_pc = sed -e 's|@prefix@|$(prefix)|g' -e 's|@libdir@|$(libdevdir)|g' \
	-e 's|@includedir@|$(includedir)|g' -e 's|@version@|$(VERSION)|g'

$(BUILD)/%.pc: src/%.pc.in Makefile $(wildcard config.mk)
	@mkdir -p $(BUILD)
	$(fill_pc) $< > $@

# Generated headers, all written by the generator tool (tools/gen): the
# prototypes (cbindgen, from src/capi), the kernel ABI, ring structs and
# version (from the uapi crate) and the prep helpers (from its table).
# `make check-headers` (part of `make test`) fails when one is stale, and
# runs the tool's own checks: each header compiles alone in C and C++, the
# tables agree with include/, and a wrong table fails that check.
headers:
	$(GEN) headers
check-headers:
	$(GEN) check
	$(CARGO) test --quiet --manifest-path tools/gen/Cargo.toml

# Our generated headers that liburing does not ship are spliced into the
# installed liburing.h at their #include line, so the installed header set is
# liburing's own (packagers compare file lists: see make check-debian). Each
# must be included exactly once by liburing.h, or the install stops.
SPLICED_HEADERS := ring_types.h functions.h prep.h
install: all
	install -d $(DESTDIR)$(includedir)/liburing/io_uring $(DESTDIR)$(libdir) $(DESTDIR)$(libdevdir)/pkgconfig
	if [ '$(install_uring_info)' = yes ]; then \
		install -d $(DESTDIR)$(bindir) && install -m 755 $(URING_INFO) $(DESTDIR)$(bindir)/uring-info && \
		install -d $(DESTDIR)$(mandir)/man1 && \
		install -m 644 $(BUILD)/man/man1/uring-info.1 $(DESTDIR)$(mandir)/man1/; fi
	for h in $(SPLICED_HEADERS); do \
		[ "$$(grep -cx "#include \"liburing/$$h\"" include/liburing.h)" = 1 ] || \
		{ echo "include/liburing.h must include liburing/$$h exactly once"; exit 1; }; \
	done
	awk -v spliced='$(SPLICED_HEADERS)' ' \
		BEGIN { n = split(spliced, h, " "); \
			for (i = 1; i <= n; i++) at["#include \"liburing/" h[i] "\""] = "include/liburing/" h[i] } \
		$$0 in at { f = at[$$0]; while ((getline l < f) > 0) print l; close(f); next } \
		{ print }' include/liburing.h > $(DESTDIR)$(includedir)/liburing.h
	chmod 644 $(DESTDIR)$(includedir)/liburing.h
	install -m 644 $(filter-out $(addprefix include/liburing/,$(SPLICED_HEADERS)),$(wildcard include/liburing/*.h)) \
		$(DESTDIR)$(includedir)/liburing/
	install -m 644 include/liburing/io_uring/*.h $(DESTDIR)$(includedir)/liburing/io_uring/
	install -m 755 $(LIB_SO) $(DESTDIR)$(libdir)/liburing.so.$(VERSION)
	ln -sf liburing.so.$(VERSION) $(DESTDIR)$(libdir)/liburing.so.2
	ln -sf $(relativelibdir)liburing.so.$(VERSION) $(DESTDIR)$(libdevdir)/liburing.so
	install -m 644 $(LIB_A) $(DESTDIR)$(libdevdir)/liburing.a
	if [ '$(install_diagnostics)' = yes ]; then \
		install -d $(DESTDIR)$(libdir)/uring-rs && \
		install -m 644 $(DIAG_SO) $(DESTDIR)$(libdir)/uring-rs/liburing-diag.so && \
		install -m 644 $(DIAG_A) $(DESTDIR)$(libdevdir)/liburing-diag.a; fi
	$(fill_pc) src/liburing.pc.in > $(DESTDIR)$(libdevdir)/pkgconfig/liburing.pc
	if [ -f $(FFI_SO) ]; then \
		install -m 755 $(FFI_SO) $(DESTDIR)$(libdir)/liburing-ffi.so.$(VERSION) && \
		ln -sf liburing-ffi.so.$(VERSION) $(DESTDIR)$(libdir)/liburing-ffi.so.2 && \
		ln -sf $(relativelibdir)liburing-ffi.so.$(VERSION) $(DESTDIR)$(libdevdir)/liburing-ffi.so && \
		install -m 644 $(FFI_A) $(DESTDIR)$(libdevdir)/liburing-ffi.a && \
		$(fill_pc) src/liburing-ffi.pc.in > $(DESTDIR)$(libdevdir)/pkgconfig/liburing-ffi.pc; \
	fi
# Man pages: whatever the build generated into build/man/man{2,3,7}
# (liburing's sections); nothing to do while there are none.
	for sec in 2 3 7; do \
		set -- $(BUILD)/man/man$$sec/*; \
		[ -e "$$1" ] || continue; \
		install -d $(DESTDIR)$(mandir)/man$$sec && \
		install -m 644 "$$@" $(DESTDIR)$(mandir)/man$$sec/ || exit 1; \
	done

# As autotools' install-strip: `make install`, then the installed shared
# objects and uring-info without symbol tables or debug information, the
# archives without debug information (their symbols are what a link needs).
install-strip: install
	for f in $(DESTDIR)$(libdir)/liburing.so.$(VERSION) $(DESTDIR)$(libdir)/liburing-ffi.so.$(VERSION) \
		$(DESTDIR)$(libdir)/uring-rs/liburing-diag.so $(DESTDIR)$(bindir)/uring-info; do \
		[ ! -f "$$f" ] || $(STRIP) --strip-all "$$f" || exit 1; done
	for f in $(DESTDIR)$(libdevdir)/liburing.a $(DESTDIR)$(libdevdir)/liburing-ffi.a \
		$(DESTDIR)$(libdevdir)/liburing-diag.a; do \
		[ ! -f "$$f" ] || $(STRIP) --strip-debug "$$f" || exit 1; done

uninstall:
	rm -f $(DESTDIR)$(bindir)/uring-info $(DESTDIR)$(mandir)/man1/uring-info.1
	rm -rf $(DESTDIR)$(includedir)/liburing $(DESTDIR)$(includedir)/liburing.h
	rm -f $(DESTDIR)$(libdir)/uring-rs/liburing-diag.so $(DESTDIR)$(libdevdir)/liburing-diag.a
	-rmdir $(DESTDIR)$(libdir)/uring-rs 2>/dev/null
	rm -f $(DESTDIR)$(libdir)/liburing.so.$(VERSION) $(DESTDIR)$(libdir)/liburing.so.2 \
	      $(DESTDIR)$(libdevdir)/liburing.so $(DESTDIR)$(libdevdir)/liburing.a \
	      $(DESTDIR)$(libdevdir)/pkgconfig/liburing.pc
	rm -f $(DESTDIR)$(libdir)/liburing-ffi.so.$(VERSION) $(DESTDIR)$(libdir)/liburing-ffi.so.2 \
	      $(DESTDIR)$(libdevdir)/liburing-ffi.so $(DESTDIR)$(libdevdir)/liburing-ffi.a \
	      $(DESTDIR)$(libdevdir)/pkgconfig/liburing-ffi.pc
	for sec in 2 3 7; do \
		for page in $(BUILD)/man/man$$sec/*; do \
			[ ! -e "$$page" ] || rm -f $(DESTDIR)$(mandir)/man$$sec/$${page##*/}; \
		done; \
	done

# The installed layout every C test builds against: $(STAGE)/usr/{include,lib}.
stage: all
	rm -rf $(STAGE)
	$(MAKE) --no-print-directory install DESTDIR=$(abspath $(STAGE)) prefix=/usr install_diagnostics=yes

# The Rust unit tests, then again with io_uring_setup refused by a seccomp
# filter (tools/test/no-uring.c, EPERM as a container's default profile
# answers): there every test that needs a ring must skip, not fail.
UNIT_TEST_PKGS := uring-rs uring-core uring-diag uring-uapi uring-sysinfo
NO_URING := $(BUILD)/no-uring
$(NO_URING): tools/test/no-uring.c
	@mkdir -p $(BUILD)
	$(CC) $(CPPFLAGS) $(CFLAGS) -o $@ $< $(LDFLAGS)

unit-test: $(NO_URING)
	@sh tools/test/unit-tests.sh "$(CARGO)" $(UNIT_TEST_PKGS)
	@sh tools/test/unit-tests.sh --refused $(NO_URING) "$(CARGO)" $(UNIT_TEST_PKGS)

# Every linter (.ci/run calls this): rustfmt and clippy over both cargo
# workspaces (the generator, tools/gen, is one of its own), ruff over the
# Python (pyproject.toml; tools/deps/ruff.sh installs the pinned version),
# shellcheck over every shell script (tools/lint/shell.sh); rustdoc over
# every crate with its private items (the crates are C libraries: their
# documentation is the maintainers'), a broken intra-doc link an error; every
# repository file named in a comment or document exists (pytools/lint/).
RUSTDOC_LINT := RUSTDOCFLAGS="-D warnings -A rustdoc::private_intra_doc_links"
lint:
	$(CARGO) fmt --all --check
	$(CARGO) fmt --manifest-path tools/gen/Cargo.toml --check
	$(CARGO) clippy --quiet --workspace --all-targets -- -D warnings
	CARGO_TARGET_DIR=target $(CARGO) clippy --quiet --manifest-path tools/gen/Cargo.toml --all-targets -- -D warnings
	sh tools/lint/python.sh
	sh tools/lint/shell.sh
	$(RUSTDOC_LINT) $(CARGO) doc --quiet --workspace --no-deps --document-private-items
	CARGO_TARGET_DIR=target $(RUSTDOC_LINT) $(CARGO) doc --quiet --manifest-path tools/gen/Cargo.toml \
		--no-deps --document-private-items
	python3 -m pytools.lint.cited_files

# Per-test time limit: diag-check builds and runs 36 programs and the
# examples (about 20 s on an idle machine, 85 s beside liburing's suite).
CAPI_TIMEOUT ?= 180
capi-tests: stage
	rm -rf $(BUILD)/capi-tests
	CAPI_BUILD_DIR=$(abspath $(BUILD))/capi-tests CAPI_EXTRA_CFLAGS="$(SANITIZE_FLAGS)" \
		CAPI_TIMEOUT=$(CAPI_TIMEOUT) sh capi-tests/run.sh $(abspath $(STAGE))
	sh capi-tests/pkgconfig.sh $(abspath $(STAGE))

# The Rust ABI tables as C static assertions; the harness compiles them
# against the headers of the upstream liburing it builds (pytools/suite/abi_check.py).
$(BUILD)/abi-assert.c: $(RUST_SRC) $(GEN_SRC)
	@mkdir -p $(BUILD)
	$(GEN) abi-assert $(abspath $@)
abi-assert: $(BUILD)/abi-assert.c

# Two tests at a time in each mode's first pass (pytools/suite/side_by_side.py);
# every rerun that judges a failure runs alone.
LIBURING_TESTS_SIDE_BY_SIDE ?= 2
liburing-tests: stage $(BUILD)/abi-assert.c
	sh liburing-tests/run.sh --stage $(abspath $(STAGE)) --abi-asserts $(abspath $(BUILD)/abi-assert.c) \
		--side-by-side $(LIBURING_TESTS_SIDE_BY_SIDE)

# One licence, stated the same way in every source file (docs, Markdown and
# the lock file aside): an SPDX line in its first five lines.
check-licence:
	@if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
		echo "check-licence: not a git checkout, skipped"; exit 0; fi; \
	missing=$$(git ls-files -- ':!*.md' ':!Cargo.lock' ':!*/Cargo.lock' ':!LICENSE' ':!docs/' | \
		while read -r f; do head -n 5 "$$f" | grep -q 'SPDX-License-Identifier: MIT' || echo "  $$f"; done); \
	if [ -n "$$missing" ]; then echo "check-licence: no 'SPDX-License-Identifier: MIT' line in:"; \
		echo "$$missing"; exit 1; fi; \
	echo "ok: every tracked source file carries SPDX-License-Identifier: MIT (LICENSE)"

# The unit tests of the Python package (pytools/*/test_*.py: the harness's
# paired-rerun verdicts, its test starts, ...), discovered from the repo root.
python-tests:
	python3 -m unittest discover -s pytools -t .

# liburing's tests built with -fsanitize=address,undefined against our headers
# and liburing.a, compared with the same build against upstream; the subset
# and why each test is in it: liburing-tests/sanitize-subset.txt.
# SANITIZE_ARGS=--all runs every test.
check-sanitize: stage
	python3 -m pytools.suite.sanitize --stage $(abspath $(STAGE)) $(SANITIZE_ARGS)

# The sanitizer build's own checks (core/src/sanitize.rs): the library built
# as `./configure --enable-sanitizer` builds it (in $(BUILD)/sanitizer, with
# its own cargo directory), then an ASan program that submits freed memory,
# one opcode family at a time, must be stopped at submit with ASan's report
# (capi-tests/asan-programs/run.sh).
SANITIZER_BUILD := $(BUILD)/sanitizer
check-sanitizer-build:
	$(MAKE) --no-print-directory BUILD=$(SANITIZER_BUILD) SANITIZE=address,undefined \
		CARGO_TARGET_DIR=$(abspath $(CARGO_TARGET_DIR))/sanitizer lib
	sh capi-tests/asan-programs/run.sh $(abspath $(SANITIZER_BUILD)) $(abspath include) \
		$(abspath $(SANITIZER_BUILD))/asan-programs

# Exactly liburing 2.15's versioned symbols, SONAME, and no dependency but libc.
# Also: no panic path survives in the library (a panic would abort the C
# program, and core's formatting machinery it drags in doubles the size).
# And liburing.a, split, holds no observed copy of a call (UNOBSERVED_RUST_A).
# CHECK_PANIC=no lists the panic paths instead of failing, and skips that
# second check: for an unoptimised build (Debian's noopt), where core's
# helpers keep branches that the optimiser removes as dead.
CHECK_PANIC ?= yes
check-symbols: all
	@for o in $(BUILD)/liburing.o $(BUILD)/liburing-unobserved.o; do \
		[ -f $$o ] || continue; \
		if $(NM) $$o | grep -q 'panicking'; then \
			if [ "$(CHECK_PANIC)" = no ]; then \
				echo "check-symbols: panic paths in $${o##*/} (CHECK_PANIC=no):"; \
			else echo "FAIL: $${o##*/} contains a Rust panic path:"; fi; \
			$(NM) $$o | grep 'panicking'; [ "$(CHECK_PANIC)" = no ] || exit 1; fi; \
	done
	@if [ -n "$(SPLIT_ARCHIVE)" ] && [ "$(CHECK_PANIC)" != no ] && [ "$(UNOBSERVED_RUST_A)" != "$(RUST_A)" ] && \
		$(NM) $(LIB_A) | grep -E 'observed|__uring_rs_detour_|FAST_FROM'; then \
		echo "FAIL: liburing.a carries observation code (it is built with feature unobserved)"; exit 1; fi
	sh capi-tests/check-symbols.sh $(LIB_SO) src/liburing.map liburing.so.2
	if [ -f $(FFI_SO) ]; then sh capi-tests/check-symbols.sh $(FFI_SO) src/liburing-ffi.map liburing-ffi.so.2; fi

# The io_uring workloads of bench/ against upstream liburing 2.15, with an
# A/A run, report and plots in build/bench/ (timing: not part of `make test`).
# Upstream's build comes from pytools/upstream/upstream.py (built if missing).
bench: stage
	sh bench/bench.sh $(abspath $(STAGE))/usr

# Exact user-space instructions per call of the library's own submit, wait,
# peek and register functions, ours against upstream (callgrind); fails when
# one of ours costs more. Needs valgrind and upstream's build.
# Then what the diagnostics cost per NOP round trip, beside the untraced
# loop (ours and upstream's): LIBURING_CHECK=1, the text and JSON traces.
bench-calls: stage
	up=$$($(UPSTREAM) stage)/usr && rc=0 && \
	{ sh bench/calls.sh $(abspath $(STAGE))/usr/lib $(abspath $(STAGE))/usr/include \
		$$up/lib $$up/include || rc=$$?; } && \
	{ sh bench/diag-cost.sh $(abspath $(STAGE))/usr $$up || rc=$$?; } && exit $$rc

# The diagnostics rows alone (callgrind; issue 31).
bench-diag: stage
	sh bench/diag-cost.sh $(abspath $(STAGE))/usr $$($(UPSTREAM) stage)/usr
.PHONY: bench-diag

# What linking the library costs a program that asks for no diagnostics,
# ours against upstream's (tools/footprint.sh): sizes, relocations, page
# faults, RSS, start time. Measures; judges nothing (not in make test).
footprint: stage
	up=$$($(UPSTREAM) stage)/usr && \
	sh tools/footprint.sh $(abspath $(STAGE))/usr $$up $(abspath $(BUILD))/footprint
.PHONY: footprint

# Our example programs (examples/*.c, shipped by packagers as documentation),
# built against the installed layout with the user's flags, then run.
examples: stage
	CC="$(CC)" EXAMPLES_CFLAGS="$(CPPFLAGS) $(CFLAGS) $(SANITIZE_FLAGS)" \
	EXAMPLES_LDFLAGS="$(LDFLAGS) $(SANITIZE_FLAGS)" \
		sh examples/run.sh $(abspath $(STAGE))

# liburing's name for its test run (Debian's recipe calls `make runtests`).
runtests: test

# Debian's own packaging of liburing 2.15 (its debian/ directory) built from a
# clean copy of this tree, and our packaging/debian/ built in a clean sid
# buildd root, then both checked: see pytools/packaging/check_debian.py. Not in
# `make test`: it installs build tools with apt-get; .ci/run runs it.
# (The stage is only needed if the harness has not built upstream's nop.t
# against upstream's liburing.so.2 yet.)
check-debian: stage
	python3 -m pytools.packaging.check_debian $(CHECK_DEBIAN_ARGS)

# Every bench program built against ours and run once with tiny counts (~7 s).
bench-smoke: stage
	python3 -m pytools.bench.run --smoke --ours $(abspath $(STAGE))/usr --out $(BUILD)/bench-smoke

# Upstream liburing 2.15: `$(UPSTREAM) source|build|stage` prints the path of
# its unpacked Debian source, its build tree or its install (DESTDIR), fetching
# and building it into .cache/liburing-tests first when needed.
UPSTREAM := python3 -m pytools.upstream.upstream

# make test: the prerequisites first (tools/deps/prerequisites.txt, seconds),
# then every stage below in order, each one whatever the earlier ones did
# (tools/test/run-stages.sh), ending with "N passed, N failed". One stage a
# line. The stages that use upstream's build (pytools/upstream/upstream.py)
# come after liburing-tests, which makes it first.
TEST_STAGES := \
	all \
	unit-test \
	check-headers \
	check-imports \
	check-licence \
	check-symbols \
	check-relink \
	python-tests \
	capi-tests \
	capi-tests-traced \
	check-tsan \
	check-miri \
	examples \
	bench-smoke \
	check-sanitize \
	liburing-tests \
	bench-calls \
	check-differential \
	fuzz-short \
	check-man
test:
	@sh tools/deps/check.sh --install
	@sh tools/test/run-stages.sh "$(MAKE)" $(TEST_STAGES)

# Every exported function with NULL, negative, huge and unregistered
# arguments, built against upstream and against us; differences must be on
# capi-tests/differential/allow-list.txt.
check-differential: stage
	up=$$($(UPSTREAM) stage) && rm -rf $(BUILD)/bad-args-diff && \
	DIFF_OUT=$(abspath $(BUILD))/bad-args-diff \
		sh capi-tests/differential/run.sh $(abspath $(STAGE)) $$up

# Lockstep differential fuzzing of liburing-ffi.so.2, ours against upstream's
# (and upstream against itself, to tell timing noise from divergences).
#   make fuzz FUZZ_SECONDS=600 FUZZ_SEED=1000 [FUZZ_ARGS="--async --timers"]
# Shrunk divergences are written to $(BUILD)/fuzz-out.
FUZZ_SECONDS ?= 60
FUZZ_SEED    ?= 1
FUZZ_ARGS    ?=
FUZZ_DRIVER  := $(BUILD)/fuzz/driver
$(FUZZ_DRIVER): capi-tests/fuzz/driver.c $(HEADERS)
	@mkdir -p $(dir $@)
	$(CC) -O2 -g -Wall -Wextra -Werror -D_GNU_SOURCE -Iinclude -o $@ $< -ldl
fuzz: stage $(FUZZ_DRIVER)
	up=$$($(UPSTREAM) stage)/usr && \
	python3 -m pytools.capi.fuzz --driver $(FUZZ_DRIVER) \
		--ours $(abspath $(STAGE))/usr/lib/liburing-ffi.so.2 \
		--upstream $$up/lib/liburing-ffi.so.2 \
		--seed $(FUZZ_SEED) --seconds $(FUZZ_SECONDS) --out $(BUILD)/fuzz-out $(FUZZ_ARGS)
# The fixed-seed run of `make test`.
fuzz-short:
	$(MAKE) --no-print-directory fuzz FUZZ_SECONDS=30 FUZZ_SEED=1

clean:
	rm -rf $(BUILD)
	$(CARGO) clean --quiet

# clean, and forget ./configure's choices.
distclean: clean
	rm -f config.mk

# The first liburing release of every exported name, from a liburing git
# clone with its release tags (pytools/upstream/first_releases.py writes
# tools/gen/src/man/first_release.rs; `make headers` then regenerates the
# HISTORY sections). Not part of the build: the table is checked in.
.PHONY: first-releases
first-releases:
	@test -n "$(LIBURING_GIT)" || { echo "first-releases: set LIBURING_GIT=<liburing clone with tags>"; exit 2; }
	$(PYTHON) -m pytools.upstream.first_releases $(LIBURING_GIT) tools/gen/src/man/first_release.rs

# The reference manual: $(MAN_DIR)/man2, man3, man7, built by `make`,
# installed by `make install`, checked by `make test`. tools/gen writes the
# pages (tools/gen/src/man/mod.rs says where each page's text comes from)
# into man/generated with the headers (`make headers`; `make check-headers`
# fails when they are stale), so that `make` needs no crate beyond the
# library's (offline and Debian builds); this copies them. Cheap, so always
# done from scratch.
.PHONY: man html check-man
MAN_DIR := $(BUILD)/man
PYTHON  ?= python3
man:
	rm -rf $(MAN_DIR)/man1 $(MAN_DIR)/man2 $(MAN_DIR)/man3 $(MAN_DIR)/man7
	mkdir -p $(MAN_DIR)
	cp -RP man/generated/man1 man/generated/man2 man/generated/man3 man/generated/man7 \
		man/generated/names.txt man/generated/synopsis-check.c $(MAN_DIR)/

# Every name resolves, each SYNOPSIS declaration compiles against the
# installed header (synopsis-check.c, written by tools/gen), lint-clean, the
# examples compile and run, no sentence taken from liburing's pages
# (upstream's source: LIBURING_SRC, else the Debian source package, from
# $(UPSTREAM)), and every claim a page ties to a case of
# man/checks/claims.c holds on this kernel, driven by our library and by
# upstream's (pytools/man/claims.py).
# (`stage` builds `all`, so the pages too; naming `man` here as well would let
# make -j regenerate them while the stage's install copies them.)
check-man: stage
	src=$$($(UPSTREAM) source) && up=$$($(UPSTREAM) stage) && \
	$(PYTHON) -m pytools.man.check $(MAN_DIR) $(abspath $(STAGE))/usr "$$src/man" "$$up/usr"

# Browsable HTML: $(MAN_DIR)/html/index.html links every page.
html: man
	sh man/html.sh $(MAN_DIR)

# The library's module import graph (tools/gen reads src/ with syn): an
# import circle in src/ fails.
.PHONY: check-imports
check-imports:
	$(GEN) imports --deny-circles

# Diagnostics proofs (issue 17). liburing's suite in the harness's traced
# mode alone (the binary drop-in with LIBURING_TRACE=<file per test> and
# LIBURING_DEBUG=1, against the reference; `make liburing-tests`, and so
# `make test`, runs it with the other modes). KEEP_TRACES=1 keeps the trace
# files (.cache/liburing-tests/traces; the whole suite writes about 800 MB).
liburing-tests-traced: stage
	sh liburing-tests/run.sh --stage $(abspath $(STAGE)) --modes reference,traced $(TRACED_ARGS)

# The threaded, fork and resize C API tests with tracing on (file target).
capi-tests-traced: stage
	rm -rf $(BUILD)/capi-traces && mkdir -p $(BUILD)/capi-traces
	LIBURING_TRACE=$(abspath $(BUILD))/capi-traces/all.trace LIBURING_DEBUG=1 LIBURING_CHECK=1 \
		CAPI_BUILD_DIR=$(abspath $(BUILD))/capi-traces/build sh capi-tests/run.sh $(abspath $(STAGE)) submit_wait_threads fork_dontfork \
		register-resize defer_taskrun cq_overflow sqpoll register-ring-fd
	@grep -c 'summary: ' $(BUILD)/capi-traces/all.trace | sed 's/^/summary lines in the trace: /'

# ThreadSanitizer over the library (nightly rustc) and the C submitter/reaper
# tests, tracing on: no report may appear (tools/diag/tsan.sh).
check-tsan:
	sh tools/diag/tsan.sh $(abspath $(BUILD))/tsan
# Miri over the unit tests that need no kernel (tools/diag/miri.sh).
check-miri:
	sh tools/diag/miri.sh $(abspath $(BUILD))/miri
.PHONY: liburing-tests-traced capi-tests-traced check-tsan check-miri

# Debian packaging (packaging/, i18deb): each half of check-debian alone, and
# the symbols file of packaging/debian/ rewritten from the version scripts.
#   check-debian-recipe  Debian's liburing 2.15-1 recipe built here
#   check-debian-sid     packaging/debian/ built in a clean sid buildd root
#                        (debootstrap once, cached in .cache/check-debian)
#   check-debian-cross   packaging/debian/ cross-built there for arm64 and
#                        i386 (dpkg-buildpackage -a), the i386 packages run
#                        (not in .ci/run: packaging/README.md says why)
# CHECK_DEBIAN_ARGS passes options on (e.g. --nocheck: no tests in the sid build;
# for check-debian-cross, --arch i386).
.PHONY: check-debian-recipe check-debian-sid check-debian-cross check-debian-releases debian-symbols
check-debian-recipe: stage
	python3 -m pytools.packaging.check_debian --only recipe $(CHECK_DEBIAN_ARGS)
check-debian-sid: stage
	python3 -m pytools.packaging.check_debian --only sid $(CHECK_DEBIAN_ARGS)
check-debian-cross:
	python3 -m pytools.packaging.check_debian_cross $(CHECK_DEBIAN_ARGS)
# packaging/debian/ built, installed, switched and tested in clean roots of
# Debian 12 (rustc-web, as a backport), 13 and sid, each with its own
# toolchain, liburing2, plocate and lintian (pytools/packaging/
# check_debian_releases.py; docs/packaging-releases.md has the last figures).
# RELEASES picks some (default: bookworm trixie sid).
check-debian-releases:
	python3 -m pytools.packaging.check_debian_releases $(if $(RELEASES),--releases "$(RELEASES)") $(CHECK_DEBIAN_ARGS)
# One release alone (.ci/run runs check-debian-release-bookworm).
check-debian-release-%:
	python3 -m pytools.packaging.check_debian_releases --releases $* $(CHECK_DEBIAN_ARGS)
debian-symbols:
	python3 -m pytools.packaging.symbols

# Distribution checks (issue 18): what a packager or a fresh machine needs.
.PHONY: deps check-deps check-offline check-msrv check-relink
# Installs (apt-get) whatever tools/deps/prerequisites.txt lists and is missing.
deps:
	sh tools/deps/install.sh
check-deps:
	sh tools/deps/check.sh
# `make` under `unshare -n` from Debian's crates, a vendor tree and a warm
# cargo home, each with and without Cargo.lock (fetches once into .cache/offline).
check-offline:
	sh tools/offline/check-offline.sh
# The declared rust-version: Debian 12's rustc-web/cargo-web 1.85 (installed
# if missing) builds the library and runs the unit tests and capi-tests, in
# .cache/msrv (its own target and build directories).
check-msrv:
	sh tools/toolchains/check-msrv.sh
# The relink with a toolchain whose runtime archive carries unreached code
# calling outside libc (Debian's rustc: __gcc_personality_v0 -> libgcc_s):
# such an object added to a copy of the Rust archive must change nothing in
# what the libraries need or export.
RELINK_TEST := $(BUILD)/relink-test
check-relink: $(RUST_A) $(BUILD)/ffi.o
	rm -rf $(RELINK_TEST)
	@mkdir -p $(RELINK_TEST)
	$(CC) -O2 -fPIC -ffunction-sections -c -o $(RELINK_TEST)/dead-unwind.o capi-tests/relink/dead-unwind.c
	cp $(RUST_A) $(RELINK_TEST)/rust.a
	ar qS $(RELINK_TEST)/rust.a $(RELINK_TEST)/dead-unwind.o
	$(MAKE) --no-print-directory RUST_A=$(RELINK_TEST)/rust.a DIAG_RUST_A=$(DIAG_RUST_A) BUILD=$(RELINK_TEST) \
		$(RELINK_TEST)/liburing.so.$(VERSION) $(RELINK_TEST)/liburing-ffi.so.$(VERSION)
	sh capi-tests/check-symbols.sh $(RELINK_TEST)/liburing.so.$(VERSION) src/liburing.map liburing.so.2
	sh capi-tests/check-symbols.sh $(RELINK_TEST)/liburing-ffi.so.$(VERSION) src/liburing-ffi.map liburing-ffi.so.2

# Line and branch coverage of core/src, diag/src and src by the unit tests,
# the capi-tests and liburing's suite in binary mode, on an instrumented
# stage (tools/test/coverage.sh; needs the llvm-NN matching rustc's LLVM;
# not in CI): build/coverage/summary.txt; docs/tests/coverage-summary.txt
# has the last report.
.PHONY: coverage
coverage:
	sh tools/test/coverage.sh

# Mutation testing of the core's setup, queue, register and geometry and of
# the C boundary (tools/test/mutants.sh; cargo-mutants, installed into
# .cache/cargo-mutants on first use; not in CI): each mutant against its
# crate's unit tests and the capi-tests calling the mutated file.
# MUTANTS_SHARD=k/n samples every n-th mutant, MUTANTS_JOBS runs several;
# build/mutants/summary.txt. docs/tests/mutants.md has the last report.
.PHONY: mutants
mutants:
	sh tools/test/mutants.sh

# Other architectures (tools/arch/): i386 run natively (library, capi-tests,
# liburing's suite -m32 against upstream -m32), and compile, link and symbol
# checks for armhf, armel, riscv64, ppc64el, s390x, mips64el (loong64:
# compile only). Installs cross compilers with apt-get; downloads and builds
# are cached under .cache/arch. Ends with one "N passed, N failed" line.
.PHONY: check-arch
check-arch:
	sh tools/arch/check-arch.sh

# Other machines and toolchains, each script ending in `N passed, N failed`
# (tools/arch/*/run.sh say what they fetch into .cache/arch-vm and run):
# aarch64 under qemu-system-aarch64 at 4K and 16K pages, x86_64 with musl,
# and every C file with clang and liburing CI's clang warnings.
# Debian's amd64 kernels 5.10 (bullseye), 6.1 (bookworm), 6.12 (trixie) and
# sid's newest, each booted under qemu-system-x86_64 (TCG) from an initramfs
# (tools/arch/vm/kernels.sh, the pieces of the arm64 guests): the capi-tests
# on ours and on upstream's build, liburing's suite (a documented selection;
# KERNELS_FULL=1 for all of it) in reference, source and binary modes, judged
# as the harness does, and the Rust unit tests that ask the kernel (judged;
# KERNELS_UNIT_STRICT=0 lists failures only); report in
# build/kernels/report.md. KERNELS="6.1 sid"
# picks kernels. check-kernels-quick: the capi-tests (fallback and
# policy-knobs' seccomp cases among them) and the Rust unit tests that ask the
# kernel, on 5.10 and 6.1, no suite (what .ci/run runs; the unit tests add
# about 10 s a guest once their binaries are built).
.PHONY: check-kernels check-kernels-quick check-man-kernels
check-kernels: stage
	sh tools/arch/vm/kernels.sh $(KERNELS)
check-kernels-quick: stage
	KERNELS_SUITE=none sh tools/arch/vm/kernels.sh 5.10 6.1

# The manual's checks (check-man's man/checks programs, built against ours and
# upstream's) in the same guests, alone: no capi-tests, suite or unit tests;
# report in build/kernels-man/man-report.md (docs/kernels/man-checks.md is
# the last one). KERNELS="5.10" picks kernels (default 5.10 6.1 6.12 sid).
# Not part of .ci/run (about 5 minutes a kernel under TCG).
check-man-kernels: stage
	KERNELS_MAN=1 KERNELS_CAPI=none KERNELS_SUITE=none KERNELS_UNIT=0 \
		KERNELS_OUT=$(abspath $(BUILD))/kernels-man sh tools/arch/vm/kernels.sh $(or $(KERNELS),5.10 6.1 6.12 sid)

.PHONY: check-arch-vm check-arch-musl check-arch-clang
check-arch-vm:
	sh tools/arch/vm/run.sh
check-arch-musl:
	sh tools/arch/musl/run.sh
check-arch-clang:
	sh tools/arch/clang/run.sh
