# liburing 2.15 drop-in, built from Rust.
#   make            build liburing.so.2.15, liburing.a, liburing-ffi.*, pkg-config files
#   make test       every test: Rust unit tests, ABI/symbol checks, capi-tests, liburing's own suite
#   make install    honours DESTDIR, prefix, libdir, libdevdir, includedir (liburing's defaults)

prefix     ?= /usr
includedir ?= $(prefix)/include
libdir     ?= $(prefix)/lib
libdevdir  ?= $(prefix)/lib
DESTDIR    ?=

CC     ?= cc
CARGO  ?= cargo
VERSION := 2.15
BUILD  := build
CARGO_TARGET_DIR ?= target
export CARGO_TARGET_DIR
RUST_A := $(CARGO_TARGET_DIR)/release/liburing.a
STAGE  := $(BUILD)/stage

LIB_SO      := $(BUILD)/liburing.so.$(VERSION)
LIB_A       := $(BUILD)/liburing.a
FFI_SO      := $(BUILD)/liburing-ffi.so.$(VERSION)
FFI_A       := $(BUILD)/liburing-ffi.a
SO_LDFLAGS  := -shared -s -Wl,--gc-sections -Wl,-z,now -Wl,-z,noexecstack -Wl,--no-undefined

# As liburing: the dev symlink is relative when libdevdir is libdir, and
# names libdir absolutely otherwise (so it resolves inside the final system).
relativelibdir := $(if $(filter-out $(abspath $(libdir)),$(abspath $(libdevdir))),$(libdir)/)

RUST_SRC := $(shell find src -name '*.rs') Cargo.toml
HEADERS  := $(shell find include -name '*.h')

.PHONY: all lib ffi headers check-headers install uninstall test unit-test lint capi-tests \
	liburing-tests stage clean check-symbols bench abi-assert

all: lib ffi $(BUILD)/liburing.pc $(BUILD)/liburing-ffi.pc

lib: $(LIB_SO) $(LIB_A)

$(RUST_A): $(RUST_SRC)
	$(CARGO) build --release --quiet

# The archive holds one relocatable object: the Rust staticlib partially
# linked with only what liburing's functions reach (--gc-sections), then every
# symbol made local except liburing's API and the internals liburing's own
# tests link against. So `cc prog.c -luring` pulls in about what liburing's
# archive does, and no Rust runtime symbol can clash with another library.
# (rustc's embedded LLVM bitcode is dropped first: binutils' LTO plugins
# misread it, and C needs only machine code.)
INTERNAL_SYMS := io_uring_mmap io_uring_unmap_rings io_uring_setup_ring_pointers \
	__io_uring_queue_init_params
map_symbols = awk '/^[ \t]*[A-Za-z_][A-Za-z0-9_]*;/ { gsub(/[ \t;]/, ""); print }' $(1)

# $(call relink_object,output,version map,extra objects)
define relink_object
	@mkdir -p $(BUILD)
	{ $(call map_symbols,$(2)); printf '%s\n' $(INTERNAL_SYMS); } | sort -u > $(1).syms
	objcopy --strip-debug --remove-section=.llvmbc --remove-section=.llvmcmd $(RUST_A) $(1).rust.a
	ld -r --gc-sections $$(sed 's/^/-u /' $(1).syms) -o $(1).all.o $(3) \
		--whole-archive $(1).rust.a --no-whole-archive
	objcopy --keep-global-symbols=$(1).syms $(1).all.o $(1)
	rm -f $(1).rust.a $(1).all.o
endef

$(BUILD)/liburing.o: $(RUST_A) src/liburing.map Makefile
	$(call relink_object,$@,src/liburing.map,)

$(LIB_A): $(BUILD)/liburing.o
	rm -f $@
	ar rcs $@ $<

# rustc's cdylib would replace our version script with its own, so the
# staticlib is relinked by the C compiler: versioned symbols, nothing else.
$(LIB_SO): $(BUILD)/liburing.o src/liburing.map Makefile
	$(CC) $(SO_LDFLAGS) -o $@ $(BUILD)/liburing.o \
		-Wl,--version-script=src/liburing.map -Wl,-soname,liburing.so.2
	ln -sf liburing.so.$(VERSION) $(BUILD)/liburing.so.2
	ln -sf liburing.so.$(VERSION) $(BUILD)/liburing.so

# liburing-ffi: the same library plus every inline helper of liburing.h
# compiled once from our own header into real functions.
$(BUILD)/ffi.o: src/ffi.c $(HEADERS)
	@mkdir -p $(BUILD)
	$(CC) -O2 -fPIC -Wall -Wextra -Werror -Iinclude -c -o $@ src/ffi.c

$(BUILD)/liburing-ffi.o: $(RUST_A) $(BUILD)/ffi.o src/liburing-ffi.map Makefile
	$(call relink_object,$@,src/liburing-ffi.map,$(BUILD)/ffi.o)

$(FFI_A): $(BUILD)/liburing-ffi.o
	rm -f $@
	ar rcs $@ $<

$(FFI_SO): $(BUILD)/liburing-ffi.o src/liburing-ffi.map Makefile
	$(CC) $(SO_LDFLAGS) -o $@ $(BUILD)/liburing-ffi.o \
		-Wl,--version-script=src/liburing-ffi.map -Wl,-soname,liburing-ffi.so.2
	ln -sf liburing-ffi.so.$(VERSION) $(BUILD)/liburing-ffi.so.2
	ln -sf liburing-ffi.so.$(VERSION) $(BUILD)/liburing-ffi.so

ffi: $(if $(wildcard src/ffi.c),$(FFI_SO) $(FFI_A))

# pkg-config files name the install directories, so `make install` writes
# them afresh for the prefix it is given.
fill_pc = sed -e 's|@prefix@|$(prefix)|g' -e 's|@libdir@|$(libdevdir)|g' \
	-e 's|@includedir@|$(includedir)|g' -e 's|@version@|$(VERSION)|g'

$(BUILD)/%.pc: src/%.pc.in Makefile
	@mkdir -p $(BUILD)
	$(fill_pc) $< > $@

# Generated headers: the prototypes (cbindgen, from src/capi) and the kernel
# ABI and ring structs (src/c_headers, from src/uapi and src/structs.rs);
# `make check-headers` (part of `make test`) fails when one is stale.
headers:
	UPDATE_HEADERS=1 $(CARGO) test --quiet --lib generated_header -- --nocapture
check-headers:
	$(CARGO) test --quiet --lib generated_header

install: all
	install -d $(DESTDIR)$(includedir)/liburing/io_uring $(DESTDIR)$(libdir) $(DESTDIR)$(libdevdir)/pkgconfig
	install -m 644 include/liburing.h $(DESTDIR)$(includedir)/liburing.h
	install -m 644 include/liburing/*.h $(DESTDIR)$(includedir)/liburing/
	install -m 644 include/liburing/io_uring/*.h $(DESTDIR)$(includedir)/liburing/io_uring/
	install -m 755 $(LIB_SO) $(DESTDIR)$(libdir)/liburing.so.$(VERSION)
	ln -sf liburing.so.$(VERSION) $(DESTDIR)$(libdir)/liburing.so.2
	ln -sf $(relativelibdir)liburing.so.$(VERSION) $(DESTDIR)$(libdevdir)/liburing.so
	install -m 644 $(LIB_A) $(DESTDIR)$(libdevdir)/liburing.a
	$(fill_pc) src/liburing.pc.in > $(DESTDIR)$(libdevdir)/pkgconfig/liburing.pc
	if [ -f $(FFI_SO) ]; then \
		install -m 755 $(FFI_SO) $(DESTDIR)$(libdir)/liburing-ffi.so.$(VERSION) && \
		ln -sf liburing-ffi.so.$(VERSION) $(DESTDIR)$(libdir)/liburing-ffi.so.2 && \
		ln -sf $(relativelibdir)liburing-ffi.so.$(VERSION) $(DESTDIR)$(libdevdir)/liburing-ffi.so && \
		install -m 644 $(FFI_A) $(DESTDIR)$(libdevdir)/liburing-ffi.a && \
		$(fill_pc) src/liburing-ffi.pc.in > $(DESTDIR)$(libdevdir)/pkgconfig/liburing-ffi.pc; \
	fi

uninstall:
	rm -rf $(DESTDIR)$(includedir)/liburing $(DESTDIR)$(includedir)/liburing.h
	rm -f $(DESTDIR)$(libdir)/liburing.so.$(VERSION) $(DESTDIR)$(libdir)/liburing.so.2 \
	      $(DESTDIR)$(libdevdir)/liburing.so $(DESTDIR)$(libdevdir)/liburing.a \
	      $(DESTDIR)$(libdevdir)/pkgconfig/liburing.pc
	rm -f $(DESTDIR)$(libdir)/liburing-ffi.so.$(VERSION) $(DESTDIR)$(libdir)/liburing-ffi.so.2 \
	      $(DESTDIR)$(libdevdir)/liburing-ffi.so $(DESTDIR)$(libdevdir)/liburing-ffi.a \
	      $(DESTDIR)$(libdevdir)/pkgconfig/liburing-ffi.pc

# The installed layout every C test builds against: $(STAGE)/usr/{include,lib}.
stage: all
	rm -rf $(STAGE)
	$(MAKE) --no-print-directory install DESTDIR=$(abspath $(STAGE)) prefix=/usr

unit-test:
	$(CARGO) test --quiet --lib

lint:
	$(CARGO) clippy --quiet --all-targets -- -D warnings

capi-tests: stage
	sh capi-tests/run.sh $(abspath $(STAGE))
	sh capi-tests/pkgconfig.sh $(abspath $(STAGE))

# The Rust ABI tables as C static assertions; the harness compiles them
# against the headers of the upstream liburing it builds (abi_check.py).
$(BUILD)/abi-assert.c: $(RUST_SRC)
	@mkdir -p $(BUILD)
	ABI_ASSERT_OUT=$(abspath $@) $(CARGO) test --quiet --lib write_abi_assert_file
abi-assert: $(BUILD)/abi-assert.c

liburing-tests: stage $(BUILD)/abi-assert.c
	sh liburing-tests/run.sh --stage $(abspath $(STAGE)) --abi-asserts $(abspath $(BUILD)/abi-assert.c)

# Exactly liburing 2.15's versioned symbols, SONAME, and no dependency but libc.
# Also: no panic path survives in the library (a panic would abort the C
# program, and core's formatting machinery it drags in doubles the size).
check-symbols: all
	@if nm $(BUILD)/liburing.o | grep -q 'panicking'; then \
		echo "FAIL: liburing.o contains a Rust panic path:"; \
		nm $(BUILD)/liburing.o | grep 'panicking'; exit 1; fi
	sh capi-tests/check-symbols.sh $(LIB_SO) src/liburing.map liburing.so.2
	if [ -f $(FFI_SO) ]; then sh capi-tests/check-symbols.sh $(FFI_SO) src/liburing-ffi.map liburing-ffi.so.2; fi

# NOP round trips against upstream liburing (timing: not part of `make test`).
# Upstream's build comes from the liburing-tests harness cache.
UPSTREAM_STAGE := .cache/liburing-tests/stage-upstream/usr
bench: stage
	@test -d $(UPSTREAM_STAGE)/lib || { echo "run 'make liburing-tests' first (builds upstream)"; exit 1; }
	sh capi-tests/bench/run.sh $(abspath $(STAGE))/usr/include $(abspath $(STAGE))/usr/lib \
		$(abspath $(UPSTREAM_STAGE))/include $(abspath $(UPSTREAM_STAGE))/lib

test: unit-test check-headers check-symbols capi-tests liburing-tests

clean:
	rm -rf $(BUILD)
	$(CARGO) clean --quiet

# The reference manual (man/generate.py says where each page's text comes
# from): $(MAN_DIR)/man2, man3, man7, built by `make`, installed by `make
# install`, checked by `make test`. Cheap, so always rebuilt from scratch.
# (After the `test` rule, so check-man runs after liburing-tests, which
# fetches upstream's source when LIBURING_SRC is not given.)
.PHONY: man html check-man
all: man
test: check-man
MAN_DIR := $(BUILD)/man
PYTHON  ?= python3
man:
	rm -rf $(MAN_DIR)/man2 $(MAN_DIR)/man3 $(MAN_DIR)/man7
	$(PYTHON) man/generate.py $(MAN_DIR)

# Every name resolves, SYNOPSIS = installed header, lint-clean, the examples
# compile and run, no sentence taken from liburing's pages (upstream's source:
# LIBURING_SRC, else the one the liburing-tests harness fetched into its cache).
# (`stage` builds `all`, so the pages too; naming `man` here as well would let
# make -j regenerate them while the stage's install copies them.)
check-man: stage
	src="$${LIBURING_SRC:-$$(ls -d .cache/liburing-tests/src/liburing*/ 2>/dev/null | head -n 1)}"; \
	$(PYTHON) man/check.py $(MAN_DIR) $(abspath $(STAGE))/usr "$${src%/}/man"

# Browsable HTML: $(MAN_DIR)/html/index.html links every page.
html: man
	sh man/html.sh $(MAN_DIR)
