/* SPDX-License-Identifier: MIT */
/*
 * Memory-ordering primitives for the rings shared with the kernel.
 *
 * The SQ and CQ rings are single-producer/single-consumer queues whose
 * head and tail indices live in memory shared with the kernel:
 *
 *  - a producer fills entries and then publishes them by storing the new
 *    tail with RELEASE ordering, so the entry contents become visible no
 *    later than the index that covers them;
 *  - a consumer loads the producer's tail with ACQUIRE ordering before it
 *    reads any entry below that tail, and hands the slots back by storing
 *    its head with RELEASE ordering once it is done reading them.
 *
 * IO_URING_READ_ONCE()/IO_URING_WRITE_ONCE() are single, untorn, relaxed
 * accesses to a word the other side may change at any time (flag words).
 * io_uring_smp_mb() is a full (sequentially consistent) fence.
 *
 * What a program gets from these names: io_uring_smp_load_acquire(3).
 * How: macros over C11 <stdatomic.h> for C; C++ (no _Atomic qualifier to
 * cast to before C++23) gets templates over <atomic> with the same names
 * and arguments.  Either way the plain integer is accessed through an
 * atomic type of the same size, which GCC and Clang guarantee to be
 * layout-compatible for the 16/32/64 bit types used here.
 */
#ifndef LIBURING_BARRIER_H
#define LIBURING_BARRIER_H

#ifdef __cplusplus

#include <atomic>

#ifndef LIBURING_NOEXCEPT
#define LIBURING_NOEXCEPT noexcept
#endif

/*
 * liburing.h defines _LOCAL_INLINE before including this file; fall back to
 * the same choice when this header is used on its own.
 */
#if defined(_LOCAL_INLINE)
#define __LIBURING_BARRIER_INLINE _LOCAL_INLINE
#elif __cplusplus >= 202002L
#define __LIBURING_BARRIER_INLINE inline
#else
#define __LIBURING_BARRIER_INLINE static inline
#endif

template <typename T>
__LIBURING_BARRIER_INLINE T IO_URING_READ_ONCE(const T &var) LIBURING_NOEXCEPT
{
	const std::atomic<T> *a = reinterpret_cast<const std::atomic<T> *>(&var);

	return std::atomic_load_explicit(a, std::memory_order_relaxed);
}

template <typename T>
__LIBURING_BARRIER_INLINE void IO_URING_WRITE_ONCE(T &var, T val) LIBURING_NOEXCEPT
{
	std::atomic<T> *a = reinterpret_cast<std::atomic<T> *>(&var);

	std::atomic_store_explicit(a, val, std::memory_order_relaxed);
}

template <typename T>
__LIBURING_BARRIER_INLINE T io_uring_smp_load_acquire(const T *p) LIBURING_NOEXCEPT
{
	const std::atomic<T> *a = reinterpret_cast<const std::atomic<T> *>(p);

	return std::atomic_load_explicit(a, std::memory_order_acquire);
}

template <typename T>
__LIBURING_BARRIER_INLINE void io_uring_smp_store_release(T *p, T v) LIBURING_NOEXCEPT
{
	std::atomic<T> *a = reinterpret_cast<std::atomic<T> *>(p);

	std::atomic_store_explicit(a, v, std::memory_order_release);
}

__LIBURING_BARRIER_INLINE void io_uring_smp_mb(void) LIBURING_NOEXCEPT
{
	std::atomic_thread_fence(std::memory_order_seq_cst);
}

#undef __LIBURING_BARRIER_INLINE

#else /* !__cplusplus */

#include <stdatomic.h>

/* Reinterpret an lvalue's address as a pointer to its _Atomic twin. */
#define __LIBURING_AS_ATOMIC(ptr)	((_Atomic __typeof__(*(ptr)) *)(ptr))

#define IO_URING_READ_ONCE(var)						\
	atomic_load_explicit(__LIBURING_AS_ATOMIC(&(var)),		\
			     memory_order_relaxed)
#define IO_URING_WRITE_ONCE(var, val)					\
	atomic_store_explicit(__LIBURING_AS_ATOMIC(&(var)), (val),	\
			      memory_order_relaxed)

#define io_uring_smp_load_acquire(p)					\
	atomic_load_explicit(__LIBURING_AS_ATOMIC(p), memory_order_acquire)
#define io_uring_smp_store_release(p, v)				\
	atomic_store_explicit(__LIBURING_AS_ATOMIC(p), (v),		\
			      memory_order_release)

#define io_uring_smp_mb()	atomic_thread_fence(memory_order_seq_cst)

#endif /* __cplusplus */

#endif /* LIBURING_BARRIER_H */
