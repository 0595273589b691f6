/* SPDX-License-Identifier: MIT */
/*
 * liburing.h - userspace interface to the Linux io_uring API.
 *
 * API and ABI compatible with liburing 2.15: the structs, macros and inline
 * helpers below have liburing's names, signatures, layouts and semantics,
 * so programs written for liburing build against this header unchanged (C,
 * and C++ up to C++20).  The functions the library exports are declared in
 * <liburing/functions.h>, which is included from here.
 *
 * Layout of this file:
 *   1. system and kernel-ABI includes, inline/noexcept plumbing, barriers
 *   2. syscall numbers
 *   3. struct io_uring and friends
 *   4. library functions (liburing/functions.h)
 *   5. inline helpers: ring geometry, reading completions, SQ state, the
 *      generated SQE helpers (liburing/prep.h), getting SQEs, buffer
 *      rings, parsing multishot recvmsg buffers
 *   6. version check macro
 */
#ifndef LIB_URING_H
#define LIB_URING_H

/*
 * The same system headers liburing.h has always pulled in.  Applications
 * (liburing's own tests among them) rely on getting these transitively.
 */
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <inttypes.h>
#include <time.h>
#include <fcntl.h>
#include <sched.h>
#include <linux/swab.h>
#include <linux/filter.h>
#include <sys/wait.h>

/* compat.h first: it decides how io_uring.h gets struct __kernel_timespec. */
#include "liburing/compat.h"
#include "liburing/io_uring.h"
#include "liburing/io_uring/query.h"
#include "liburing/io_uring/bpf_filter.h"
#include "liburing/io_uring_version.h"

#ifndef uring_unlikely
#define uring_unlikely(cond)	__builtin_expect((cond) != 0, 0)
#endif
#ifndef uring_likely
#define uring_likely(cond)	__builtin_expect((cond) != 0, 1)
#endif

/*
 * Linkage of the inline helpers.
 *
 * IOURINGINLINE marks helpers that are part of the API proper (a build may
 * predefine it, e.g. to emit out-of-line copies for FFI users);
 * _LOCAL_INLINE marks internal helpers.  Both are "static inline", except
 * from C++20 on, where plain "inline" is used because internal-linkage
 * functions cannot be used from exported C++ module interfaces.  Both
 * macros are #undef'd again at the end of this header.
 */
#ifndef IOURINGINLINE
#if defined(__cplusplus) && __cplusplus >= 202002L
#define IOURINGINLINE inline
#else
#define IOURINGINLINE static inline
#endif
#endif

#ifndef _LOCAL_INLINE
#if defined(__cplusplus) && __cplusplus >= 202002L
#define _LOCAL_INLINE inline
#else
#define _LOCAL_INLINE static inline
#endif
#endif

/* Every function of this API is declared noexcept when compiled as C++. */
#ifndef LIBURING_NOEXCEPT
#ifdef __cplusplus
#define LIBURING_NOEXCEPT noexcept
#else
#define LIBURING_NOEXCEPT
#endif
#endif

/* Needs _LOCAL_INLINE and LIBURING_NOEXCEPT. */
#include "liburing/barrier.h"

/*
 * io_uring system call numbers, for C libraries that predate them.  All
 * architectures share one number space for new syscalls except alpha and
 * MIPS (where the o32/n32/n64 base is __NR_Linux).
 */
#if defined(__alpha__)
#  ifndef __NR_io_uring_setup
#  define __NR_io_uring_setup		535
#  endif
#  ifndef __NR_io_uring_enter
#  define __NR_io_uring_enter		536
#  endif
#  ifndef __NR_io_uring_register
#  define __NR_io_uring_register	537
#  endif
#elif defined(__mips__)
#  ifndef __NR_io_uring_setup
#  define __NR_io_uring_setup		(__NR_Linux + 425)
#  endif
#  ifndef __NR_io_uring_enter
#  define __NR_io_uring_enter		(__NR_Linux + 426)
#  endif
#  ifndef __NR_io_uring_register
#  define __NR_io_uring_register	(__NR_Linux + 427)
#  endif
#else
#  ifndef __NR_io_uring_setup
#  define __NR_io_uring_setup		425
#  endif
#  ifndef __NR_io_uring_enter
#  define __NR_io_uring_enter		426
#  endif
#  ifndef __NR_io_uring_register
#  define __NR_io_uring_register	427
#  endif
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Library structs (struct io_uring, its queues, the zcrx refill queue and
 * the CQE iterator), generated from uapi/src/ring_types.rs.
 */
#include "liburing/ring_types.h"

/* Pointer to the __u64 form the kernel ABI uses for user addresses. */
_LOCAL_INLINE __u64 uring_ptr_to_u64(const void *ptr) LIBURING_NOEXCEPT
{
	return (__u64) (uintptr_t) ptr;
}

/* ======================================================================
 * Functions exported by the library.
 * ====================================================================== */
#include "liburing/functions.h"

/* ======================================================================
 * Constants of the library (not of the kernel)
 * ====================================================================== */

/*
 * user_data of the timeout requests the library queues itself, to bound a
 * wait on kernels that lack IORING_FEAT_EXT_ARG.  Their completions are
 * swallowed by the peek and wait functions.
 */
#define LIBURING_UDATA_TIMEOUT	((__u64) -1)

/* Announces io_uring_sqe_set_data64() and io_uring_cqe_get_data64(). */
#define LIBURING_HAVE_DATA64

/* See io_uring_opcode_supported(3). */
IOURINGINLINE int io_uring_opcode_supported(const struct io_uring_probe *p,
					    int op) LIBURING_NOEXCEPT
{
	return op >= 0 && op <= p->last_op &&
	       (p->ops[op].flags & IO_URING_OP_SUPPORTED);
}

/* ======================================================================
 * Ring geometry
 *
 * Entry i of either ring sits at array index (i & ring_mask) << shift.
 * The shift is 1 where every entry is twice the basic size
 * (IORING_SETUP_SQE128 for the SQ, IORING_SETUP_CQE32 for the CQ), else 0.
 * ====================================================================== */

IOURINGINLINE unsigned io_uring_sqe_shift_from_flags(unsigned flags)
	LIBURING_NOEXCEPT
{
	return (flags & IORING_SETUP_SQE128) ? 1U : 0U;
}

IOURINGINLINE unsigned io_uring_sqe_shift(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	return io_uring_sqe_shift_from_flags(ring->flags);
}

IOURINGINLINE unsigned io_uring_cqe_shift_from_flags(unsigned flags)
	LIBURING_NOEXCEPT
{
	return (flags & IORING_SETUP_CQE32) ? 1U : 0U;
}

IOURINGINLINE unsigned io_uring_cqe_shift(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	return io_uring_cqe_shift_from_flags(ring->flags);
}

/* See io_uring_cqe_nr(3). */
IOURINGINLINE unsigned io_uring_cqe_nr(const struct io_uring_cqe *cqe)
	LIBURING_NOEXCEPT
{
	return (cqe->flags & IORING_CQE_F_32) ? 2U : 1U;
}

/* ======================================================================
 * Reading completions
 *
 * The kernel produces at the CQ tail and we consume at the head.  The tail
 * is read with acquire ordering, so every CQE below it is complete when we
 * look at it; the head is ours alone and is stored with release ordering,
 * so the kernel reuses a slot only after we are done with it.
 * ====================================================================== */

/* The kernel's CQ tail: every CQE below it is complete. */
_LOCAL_INLINE unsigned __io_uring_cq_tail(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	return io_uring_smp_load_acquire(ring->cq.ktail);
}

/*
 * See io_uring_cqe_iter_init(3).  The tail is loaded once, with acquire, so
 * every CQE the iterator visits is complete; the head is read plainly, as
 * only this side moves it.
 */
IOURINGINLINE struct io_uring_cqe_iter
io_uring_cqe_iter_init(const struct io_uring *ring) LIBURING_NOEXCEPT
{
	struct io_uring_cqe_iter at;

	at.tail = __io_uring_cq_tail(ring);
	at.head = *ring->cq.khead;
	at.cqes = ring->cq.cqes;
	at.mask = ring->cq.ring_mask;
	at.shift = io_uring_cqe_shift(ring);
	return at;
}

/*
 * See io_uring_cqe_iter_next(3).  A 32-byte CQE on a mixed ring takes two
 * slots, hence the step by io_uring_cqe_nr().
 */
IOURINGINLINE bool io_uring_cqe_iter_next(struct io_uring_cqe_iter *iter,
					  struct io_uring_cqe **cqe)
	LIBURING_NOEXCEPT
{
	unsigned at = iter->head;

	if (at == iter->tail)
		return false;
	*cqe = iter->cqes + ((at & iter->mask) << iter->shift);
	iter->head = at + io_uring_cqe_nr(*cqe);
	return true;
}

/*
 * See io_uring_for_each_cqe(3).  The (void) use of @head_ keeps "set but not
 * used" warnings away from programs that pass a variable they never read.
 */
#define io_uring_for_each_cqe(ring_, head_, cqe_)			\
	for (struct io_uring_cqe_iter __io_uring_cqe_it__ =		\
		     io_uring_cqe_iter_init(ring_);			\
	     (head_) = __io_uring_cqe_it__.head,			\
	     io_uring_cqe_iter_next(&__io_uring_cqe_it__, &(cqe_));	\
	     (void) (head_))

/*
 * See io_uring_cq_advance(3).  Release store of the head: the kernel may
 * refill a slot only after our reads of it are done.
 */
IOURINGINLINE void io_uring_cq_advance(struct io_uring *ring, unsigned nr)
	LIBURING_NOEXCEPT
{
	/* An advance by nothing needs no store, and so no barrier. */
	if (nr)
		io_uring_smp_store_release(ring->cq.khead, *ring->cq.khead + nr);
}

/* See io_uring_cqe_seen(3). */
IOURINGINLINE void io_uring_cqe_seen(struct io_uring *ring,
				     struct io_uring_cqe *cqe)
	LIBURING_NOEXCEPT
{
	io_uring_cq_advance(ring, cqe ? io_uring_cqe_nr(cqe) : 0U);
}

/* See io_uring_cqe_get_data(3). */
IOURINGINLINE void *io_uring_cqe_get_data(const struct io_uring_cqe *cqe)
	LIBURING_NOEXCEPT
{
	uintptr_t tag = (uintptr_t) cqe->user_data;

	return (void *) tag;
}

/* See io_uring_cqe_get_data64(3). */
IOURINGINLINE __u64 io_uring_cqe_get_data64(const struct io_uring_cqe *cqe)
	LIBURING_NOEXCEPT
{
	return cqe->user_data;
}

/* See io_uring_cq_ready(3).  Acquire on the tail, plain head (ours). */
IOURINGINLINE unsigned io_uring_cq_ready(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	return __io_uring_cq_tail(ring) - *ring->cq.khead;
}

/*
 * See io_uring_cq_has_overflow(3).  A relaxed read: the flag is a hint, and
 * nothing else is read on the strength of it.
 */
IOURINGINLINE bool io_uring_cq_has_overflow(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	return (IO_URING_READ_ONCE(*ring->sq.kflags) &
		IORING_SQ_CQ_OVERFLOW) != 0;
}

/*
 * See io_uring_cq_eventfd_enabled(3).  No CQ flags word (kernels before 5.8):
 * notifications cannot be off.  A plain read: only the application writes
 * this word.
 */
IOURINGINLINE bool io_uring_cq_eventfd_enabled(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	const unsigned *kflags = ring->cq.kflags;

	return !kflags || (*kflags & IORING_CQ_EVENTFD_DISABLED) == 0;
}

/*
 * See io_uring_cq_eventfd_toggle(3).  Without the flags word "on" is already
 * true.  The kernel reads the word when it posts a CQE, so the store is a
 * relaxed atomic one (no ordering with anything else is needed), and it is
 * skipped when the bit is as asked already.
 */
IOURINGINLINE int io_uring_cq_eventfd_toggle(struct io_uring *ring,
					     bool enabled) LIBURING_NOEXCEPT
{
	unsigned *kflags = ring->cq.kflags;
	unsigned now, wanted;

	if (!kflags)
		return enabled ? 0 : -EOPNOTSUPP;
	now = *kflags;
	wanted = enabled ? now & ~IORING_CQ_EVENTFD_DISABLED :
			   now | IORING_CQ_EVENTFD_DISABLED;
	if (wanted != now)
		IO_URING_WRITE_ONCE(*kflags, wanted);
	return 0;
}

/* See io_uring_wait_cqe_nr(3). */
IOURINGINLINE int io_uring_wait_cqe_nr(struct io_uring *ring,
				       struct io_uring_cqe **cqe_ptr,
				       unsigned wait_nr) LIBURING_NOEXCEPT
{
	const unsigned submit = 0;

	return __io_uring_get_cqe(ring, cqe_ptr, submit, wait_nr, NULL);
}

/*
 * CQEs the application never gets to see: IORING_CQE_F_SKIP fillers, and
 * the library's own timeouts (only queued without IORING_FEAT_EXT_ARG).
 */
_LOCAL_INLINE bool __io_uring_cqe_is_internal(const struct io_uring *ring,
					      const struct io_uring_cqe *cqe)
	LIBURING_NOEXCEPT
{
	return (cqe->flags & IORING_CQE_F_SKIP) ||
	       (!(ring->features & IORING_FEAT_EXT_ARG) &&
		cqe->user_data == LIBURING_UDATA_TIMEOUT);
}

/*
 * Consume such a CQE.  Returns the error a failed internal timeout carries
 * (a wait must report it), else 0.
 */
_LOCAL_INLINE int __io_uring_drop_internal_cqe(struct io_uring *ring,
					       const struct io_uring_cqe *cqe)
	LIBURING_NOEXCEPT
{
	/* read all of it before the slot goes back to the kernel */
	int timeout_error = (cqe->flags & IORING_CQE_F_SKIP) || cqe->res >= 0 ?
			    0 : cqe->res;
	unsigned slots = io_uring_cqe_nr(cqe);

	io_uring_cq_advance(ring, slots);
	return timeout_error;
}

/*
 * See __io_uring_peek_cqe(3).  Each round reloads the tail (acquire) after
 * dropping an internal CQE, and stops at the first error one of them
 * carries.
 */
IOURINGINLINE int __io_uring_peek_cqe(struct io_uring *ring,
				      struct io_uring_cqe **cqe_ptr,
				      unsigned *nr_available)
	LIBURING_NOEXCEPT
{
	const unsigned shift = io_uring_cqe_shift(ring);
	struct io_uring_cqe *found = NULL;
	unsigned filled = 0;
	int error = 0;

	while (!error) {
		unsigned end = __io_uring_cq_tail(ring);
		unsigned first = *ring->cq.khead;	/* only we move it */

		filled = end - first;
		if (!filled)
			break;
		found = ring->cq.cqes + ((first & ring->cq.ring_mask) << shift);
		if (!__io_uring_cqe_is_internal(ring, found))
			break;
		error = __io_uring_drop_internal_cqe(ring, found);
		found = NULL;
	}
	*cqe_ptr = found;
	if (nr_available != NULL)
		*nr_available = filled;
	return error;
}

/*
 * With the CQ ring empty, can a trip into the kernel still yield a CQE?
 * Only for IOPOLL (completions are reaped there), after an overflow, or
 * with task work pending.
 */
_LOCAL_INLINE bool __io_uring_cqes_may_be_pending(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	const unsigned hints = IORING_SQ_CQ_OVERFLOW | IORING_SQ_TASKRUN;

	if (ring->flags & IORING_SETUP_IOPOLL)
		return true;
	return (IO_URING_READ_ONCE(*ring->sq.kflags) & hints) != 0;
}

/* See io_uring_peek_cqe(3). */
IOURINGINLINE int io_uring_peek_cqe(struct io_uring *ring,
				    struct io_uring_cqe **cqe_ptr)
	LIBURING_NOEXCEPT
{
	int error = __io_uring_peek_cqe(ring, cqe_ptr, NULL);

	if (!error && *cqe_ptr)
		return 0;
	/* the kernel gets a look only when it may have something */
	return error || __io_uring_cqes_may_be_pending(ring) ?
	       io_uring_wait_cqe_nr(ring, cqe_ptr, 0) : -EAGAIN;
}

/* See io_uring_wait_cqe(3). */
IOURINGINLINE int io_uring_wait_cqe(struct io_uring *ring,
				    struct io_uring_cqe **cqe_ptr)
	LIBURING_NOEXCEPT
{
	bool have = __io_uring_peek_cqe(ring, cqe_ptr, NULL) == 0 && *cqe_ptr;

	return have ? 0 : io_uring_wait_cqe_nr(ring, cqe_ptr, 1);
}

/* ======================================================================
 * Submission queue state
 *
 * [sq.khead, sq.sqe_tail) are the SQEs handed out and not yet consumed by
 * the kernel; the kernel advances khead, the application sqe_tail.
 * ====================================================================== */

/*
 * The kernel's SQ head.  Under SQPOLL a kernel thread moves it at any time,
 * and the acquire makes sure the kernel has finished reading a slot before
 * we refill it; otherwise it moves only while we are in io_uring_enter().
 */
IOURINGINLINE unsigned io_uring_load_sq_head(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	const unsigned *khead = ring->sq.khead;

	return (ring->flags & IORING_SETUP_SQPOLL) ?
		io_uring_smp_load_acquire(khead) : *khead;
}

/* See io_uring_sq_ready(3). */
IOURINGINLINE unsigned io_uring_sq_ready(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	unsigned head = io_uring_load_sq_head(ring);

	return ring->sq.sqe_tail - head;
}

/* See io_uring_sq_space_left(3). */
IOURINGINLINE unsigned io_uring_sq_space_left(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	unsigned used = io_uring_sq_ready(ring);

	return ring->sq.ring_entries - used;
}

/*
 * See io_uring_sqring_wait(3).  Only a full SQPOLL ring needs the library
 * call (and with it the kernel); everything else returns here.
 */
IOURINGINLINE int io_uring_sqring_wait(struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	bool full = (ring->flags & IORING_SETUP_SQPOLL) &&
		    io_uring_sq_space_left(ring) == 0;

	return full ? __io_uring_sqring_wait(ring) : 0;
}

/* ======================================================================
 * Filling in requests: every helper that writes an SQE (generated)
 * ====================================================================== */
#include "liburing/prep.h"

/* ======================================================================
 * Getting SQEs
 * ====================================================================== */

/*
 * Hand out @slots consecutive SQ slots, the first at array index
 * (tail & mask) << @shift, cleared for a prep helper; NULL if the ring
 * lacks room.  The kernel sees them at the next submit.
 */
_LOCAL_INLINE struct io_uring_sqe *
__io_uring_take_sq_slots(struct io_uring *ring, unsigned slots,
			 unsigned shift) LIBURING_NOEXCEPT
{
	unsigned first = ring->sq.sqe_tail;
	struct io_uring_sqe *slot;
	unsigned used = first - io_uring_load_sq_head(ring);

	/* used never exceeds ring_entries: the difference cannot wrap */
	if (ring->sq.ring_entries - used < slots)
		return NULL;
	slot = ring->sq.sqes + ((first & ring->sq.ring_mask) << shift);
	ring->sq.sqe_tail = first + slots;
	io_uring_initialize_sqe(slot);
	return slot;
}

/* The next free SQE, or NULL when the SQ ring is full. */
IOURINGINLINE struct io_uring_sqe *_io_uring_get_sqe(struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	return __io_uring_take_sq_slots(ring, 1, io_uring_sqe_shift(ring));
}

/*
 * Applications get io_uring_get_sqe() inline.  The library exports it as
 * well, for binaries built against liburing 2.1 and older; while the
 * library itself is compiled (LIBURING_INTERNAL) it is only declared.
 */
#ifndef LIBURING_INTERNAL
IOURINGINLINE struct io_uring_sqe *io_uring_get_sqe(struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	return _io_uring_get_sqe(ring);
}
#else
struct io_uring_sqe *io_uring_get_sqe(struct io_uring *ring)
	LIBURING_NOEXCEPT;
#endif

/*
 * See io_uring_get_sqe128(3).  On a mixed ring the two slots of a big SQE
 * must not wrap around the array's end: a tail on the last slot is first
 * moved on by a NOP filler (IOSQE_CQE_SKIP_SUCCESS, so it posts nothing).
 */
IOURINGINLINE struct io_uring_sqe *io_uring_get_sqe128(struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	const unsigned last = ring->sq.ring_mask;

	switch (ring->flags & (IORING_SETUP_SQE128 | IORING_SETUP_SQE_MIXED)) {
	case 0:
		return NULL;
	case IORING_SETUP_SQE_MIXED:
		break;
	default:	/* every SQE is a big one */
		return __io_uring_take_sq_slots(ring, 1, 1);
	}
	if ((ring->sq.sqe_tail & last) == last) {
		struct io_uring_sqe *filler;

		unsigned used = ring->sq.sqe_tail - io_uring_load_sq_head(ring);

		/* the filler and the big SQE must both fit */
		if (ring->sq.ring_entries - used < 3)
			return NULL;
		filler = __io_uring_take_sq_slots(ring, 1, 0);
		io_uring_prep_nop(filler);
		filler->flags = IOSQE_CQE_SKIP_SUCCESS;
	}
	return __io_uring_take_sq_slots(ring, 2, 0);
}

/* ======================================================================
 * Provided-buffer rings
 *
 * The application adds buffers at the ring's tail and publishes them by
 * moving the tail; the kernel takes them from the head.
 * ====================================================================== */

/* See io_uring_buf_ring_mask(3). */
IOURINGINLINE int io_uring_buf_ring_mask(__u32 ring_entries)
	LIBURING_NOEXCEPT
{
	return (int) (ring_entries - 1);
}

/*
 * See io_uring_buf_ring_init(3).  A plain store: nothing is published yet,
 * so there is nothing the kernel could read out of order.
 */
IOURINGINLINE void io_uring_buf_ring_init(struct io_uring_buf_ring *br)
	LIBURING_NOEXCEPT
{
	br->tail = 0;
}

/*
 * See io_uring_buf_ring_add(3).  Plain stores: the entry lies past the
 * published tail, where the kernel does not read until the release store
 * of io_uring_buf_ring_advance() covers it.
 */
IOURINGINLINE void io_uring_buf_ring_add(struct io_uring_buf_ring *br,
					 void *addr, unsigned int len,
					 unsigned short bid, int mask,
					 int buf_offset) LIBURING_NOEXCEPT
{
	struct io_uring_buf *entry = br->bufs + ((br->tail + buf_offset) & mask);

	entry->bid = bid;
	entry->len = len;
	entry->addr = (__u64) (uintptr_t) addr;
}

/* See io_uring_buf_ring_advance(3). */
IOURINGINLINE void io_uring_buf_ring_advance(struct io_uring_buf_ring *br,
					     int count) LIBURING_NOEXCEPT
{
	/* Release: the kernel sees the entries no later than the tail. */
	io_uring_smp_store_release(&br->tail, (__u16) (br->tail + count));
}

/*
 * See __io_uring_buf_ring_cq_advance(3).  Each ring's index is published by
 * its own release store, the buffers first.
 */
IOURINGINLINE void __io_uring_buf_ring_cq_advance(struct io_uring *ring,
						  struct io_uring_buf_ring *br,
						  int cq_count, int buf_count)
	LIBURING_NOEXCEPT
{
	io_uring_buf_ring_advance(br, buf_count);
	io_uring_cq_advance(ring, (unsigned) cq_count);
}

/* See io_uring_buf_ring_cq_advance(3). */
IOURINGINLINE void io_uring_buf_ring_cq_advance(struct io_uring *ring,
						struct io_uring_buf_ring *br,
						int count) LIBURING_NOEXCEPT
{
	__io_uring_buf_ring_cq_advance(ring, br, count, count);
}

/*
 * See io_uring_buf_ring_available(3).  The difference is taken in 16 bits,
 * the width of the ring's indices, so that it survives their wrapping.
 */
IOURINGINLINE int io_uring_buf_ring_available(struct io_uring *ring,
					      struct io_uring_buf_ring *br,
					      unsigned short bgid)
	LIBURING_NOEXCEPT
{
	uint16_t kernel_head;
	int error = io_uring_buf_ring_head(ring, bgid, &kernel_head);

	return error ? error : (uint16_t) (br->tail - kernel_head);
}

/* ======================================================================
 * Parsing multishot recvmsg buffers
 *
 * Layout of a buffer filled by a multishot recvmsg:
 *   struct io_uring_recvmsg_out | name (msg_namelen bytes)
 *   | control (msg_controllen bytes) | payload
 * where the name/control sizes are those of the msghdr given to the prep
 * helper, whatever the kernel actually stored.
 * ====================================================================== */

/* See io_uring_recvmsg_validate(3). */
IOURINGINLINE struct io_uring_recvmsg_out *
io_uring_recvmsg_validate(void *buf, int buf_len, struct msghdr *msgh)
	LIBURING_NOEXCEPT
{
	const unsigned long hdr_len = sizeof(struct io_uring_recvmsg_out);
	unsigned long room = buf_len < 0 ? 0 : (unsigned long) buf_len;
	/* Piece by piece, so that no sum can wrap. */
	bool fits = room >= hdr_len &&
		    msgh->msg_namelen <= room - hdr_len &&
		    msgh->msg_controllen <= room - hdr_len - msgh->msg_namelen;

	return fits ? (struct io_uring_recvmsg_out *) buf : NULL;
}

/* See io_uring_recvmsg_name(3). */
IOURINGINLINE void *io_uring_recvmsg_name(struct io_uring_recvmsg_out *o)
	LIBURING_NOEXCEPT
{
	return (void *) (o + 1);
}

/* See io_uring_recvmsg_cmsg_firsthdr(3). */
IOURINGINLINE struct cmsghdr *
io_uring_recvmsg_cmsg_firsthdr(struct io_uring_recvmsg_out *o,
			       struct msghdr *msgh) LIBURING_NOEXCEPT
{
	unsigned char *control = (unsigned char *) io_uring_recvmsg_name(o) +
				 msgh->msg_namelen;

	return o->controllen >= sizeof(struct cmsghdr) ?
	       (struct cmsghdr *) control : NULL;
}

/* See io_uring_recvmsg_cmsg_nexthdr(3). */
IOURINGINLINE struct cmsghdr *
io_uring_recvmsg_cmsg_nexthdr(struct io_uring_recvmsg_out *o,
			      struct msghdr *msgh, struct cmsghdr *cmsg)
	LIBURING_NOEXCEPT
{
	unsigned char *limit =
		(unsigned char *) io_uring_recvmsg_cmsg_firsthdr(o, msgh) +
		o->controllen;
	unsigned char *next = (unsigned char *) cmsg + CMSG_ALIGN(cmsg->cmsg_len);

	/*
	 * A runt @cmsg ends the chain; so does a next message whose header,
	 * or then whose whole length, would reach past the control area.
	 */
	if (cmsg->cmsg_len < sizeof(*cmsg) || next + sizeof(*cmsg) > limit ||
	    next + CMSG_ALIGN(((struct cmsghdr *) next)->cmsg_len) > limit)
		return NULL;
	return (struct cmsghdr *) next;
}

/* See io_uring_recvmsg_payload(3). */
IOURINGINLINE void *io_uring_recvmsg_payload(struct io_uring_recvmsg_out *o,
					     struct msghdr *msgh)
	LIBURING_NOEXCEPT
{
	/*
	 * Plain address arithmetic: with a short buffer this address lies
	 * past its end (payload_length() then reports 0), which compilers
	 * would flag if it were computed as a pointer into the buffer.
	 */
	uintptr_t name = (uintptr_t) io_uring_recvmsg_name(o);

	return (void *) (name + msgh->msg_namelen + msgh->msg_controllen);
}

/* See io_uring_recvmsg_payload_length(3). */
IOURINGINLINE unsigned int
io_uring_recvmsg_payload_length(struct io_uring_recvmsg_out *o,
				int buf_len, struct msghdr *msgh)
	LIBURING_NOEXCEPT
{
	unsigned long start = (unsigned long) io_uring_recvmsg_payload(o, msgh);
	unsigned long end = (unsigned long) o +
			    (buf_len < 0 ? 0UL : (unsigned long) buf_len);

	return start < end ? (unsigned int) (end - start) : 0;
}

/* ======================================================================
 * Versioning: see IO_URING_CHECK_VERSION(3).  True means OLDER headers.
 * ====================================================================== */
#define IO_URING_CHECK_VERSION(major, minor)				\
	((major) > IO_URING_VERSION_MAJOR ||				\
	 ((major) == IO_URING_VERSION_MAJOR &&				\
	  (minor) > IO_URING_VERSION_MINOR))

#ifdef __cplusplus
}
#endif

#undef IOURINGINLINE
#undef _LOCAL_INLINE

#endif /* LIB_URING_H */
