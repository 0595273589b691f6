/* SPDX-License-Identifier: MIT */
/*
 * Newer LLVM (nightly rustc) emits calls to __tsan_memset/__tsan_memcpy/
 * __tsan_memmove, which gcc's libtsan does not export; libtsan intercepts
 * the plain C functions, so forwarding to them keeps the accesses checked.
 */
#include <string.h>

void *__tsan_memset(void *dst, int c, size_t n);
void *__tsan_memcpy(void *dst, const void *src, size_t n);
void *__tsan_memmove(void *dst, const void *src, size_t n);

void *__tsan_memset(void *dst, int c, size_t n)
{
	return memset(dst, c, n);
}

void *__tsan_memcpy(void *dst, const void *src, size_t n)
{
	return memcpy(dst, src, n);
}

void *__tsan_memmove(void *dst, const void *src, size_t n)
{
	return memmove(dst, src, n);
}
