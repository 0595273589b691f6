// SPDX-License-Identifier: MIT
// Stands in for what Debian's rustc puts in compiler_builtins
// (__gcc_personality_v0): code no liburing function reaches, calling into
// libgcc_s. `make check-relink` adds it to a copy of the Rust archive; the
// relinked library must still need nothing but libc.
struct _Unwind_Context;
extern unsigned long _Unwind_GetIP(struct _Unwind_Context *ctx);
unsigned long relink_test_unreached(struct _Unwind_Context *ctx);

unsigned long relink_test_unreached(struct _Unwind_Context *ctx)
{
	return _Unwind_GetIP(ctx);
}
