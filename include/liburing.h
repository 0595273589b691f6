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
 * the CQE iterator), generated from src/structs.rs.
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

/* Nonzero when the kernel that filled in @p supports opcode @op. */
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

/* How many CQ slots @cqe fills: a 32-byte CQE on a mixed ring takes two. */
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

/* A cursor over the CQEs the ring holds right now. */
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

/* Move to the next CQE: true with *@cqe set, false once past the last. */
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
 * Loop over the CQEs in the ring without consuming them; hand the slots
 * back with io_uring_cq_advance() afterwards.  @head_ only receives the
 * position of each CQE, for programs written when the loop needed it; the
 * (void) use keeps "set but not used" warnings away from such programs.
 */
#define io_uring_for_each_cqe(ring_, head_, cqe_)			\
	for (struct io_uring_cqe_iter __io_uring_cqe_it__ =		\
		     io_uring_cqe_iter_init(ring_);			\
	     (head_) = __io_uring_cqe_it__.head,			\
	     io_uring_cqe_iter_next(&__io_uring_cqe_it__, &(cqe_));	\
	     (void) (head_))

/* Give @nr CQ slots back to the kernel. */
IOURINGINLINE void io_uring_cq_advance(struct io_uring *ring, unsigned nr)
	LIBURING_NOEXCEPT
{
	/* An advance by nothing needs no store, and so no barrier. */
	if (nr)
		io_uring_smp_store_release(ring->cq.khead, *ring->cq.khead + nr);
}

/* Done with @cqe, from io_uring_peek_cqe() or a wait; NULL is allowed. */
IOURINGINLINE void io_uring_cqe_seen(struct io_uring *ring,
				     struct io_uring_cqe *cqe)
	LIBURING_NOEXCEPT
{
	io_uring_cq_advance(ring, cqe ? io_uring_cqe_nr(cqe) : 0U);
}

/* The pointer given to io_uring_sqe_set_data() for this request. */
IOURINGINLINE void *io_uring_cqe_get_data(const struct io_uring_cqe *cqe)
	LIBURING_NOEXCEPT
{
	uintptr_t tag = (uintptr_t) cqe->user_data;

	return (void *) tag;
}

/* The value given to io_uring_sqe_set_data64() for this request. */
IOURINGINLINE __u64 io_uring_cqe_get_data64(const struct io_uring_cqe *cqe)
	LIBURING_NOEXCEPT
{
	return cqe->user_data;
}

/* Completions posted and not yet consumed. */
IOURINGINLINE unsigned io_uring_cq_ready(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	return __io_uring_cq_tail(ring) - *ring->cq.khead;
}

/* True while completions wait in the kernel for room in the CQ ring. */
IOURINGINLINE bool io_uring_cq_has_overflow(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	return (IO_URING_READ_ONCE(*ring->sq.kflags) &
		IORING_SQ_CQ_OVERFLOW) != 0;
}

/*
 * Eventfd notifications: on unless switched off with the toggle below.  A
 * kernel without the CQ flags word cannot switch them off at all.
 */
IOURINGINLINE bool io_uring_cq_eventfd_enabled(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	const unsigned *kflags = ring->cq.kflags;

	return !kflags || (*kflags & IORING_CQ_EVENTFD_DISABLED) == 0;
}

/* Switch eventfd notifications on or off: 0, or -EOPNOTSUPP (see above). */
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

/* Wait for @wait_nr completions (0: none) and return the first in *@cqe_ptr. */
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
 * Look at the CQ ring without entering the kernel.  *@cqe_ptr receives the
 * first CQE meant for the application, or NULL; *@nr_available (optional)
 * the number of filled slots at the last look.  Internal CQEs in front of
 * it are consumed on the way; the result is 0 or a failed internal
 * timeout's error.  The building block of the peek and wait functions.
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

/* A completion in *@cqe_ptr without waiting: 0, -EAGAIN if none, or -errno. */
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

/* A completion in *@cqe_ptr, waiting for one if need be: 0 or -errno. */
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

/* SQEs handed out and not yet consumed by the kernel. */
IOURINGINLINE unsigned io_uring_sq_ready(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	unsigned head = io_uring_load_sq_head(ring);

	return ring->sq.sqe_tail - head;
}

/* Free SQ slots. */
IOURINGINLINE unsigned io_uring_sq_space_left(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	unsigned used = io_uring_sq_ready(ring);

	return ring->sq.ring_entries - used;
}

/*
 * SQPOLL only: wait until the kernel thread has freed an SQ slot.  Returns
 * 0 straight away when there is room or the ring has no SQ thread.
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
 * A 128-byte SQE, or NULL.  On IORING_SETUP_SQE128 rings that is any SQE.
 * On IORING_SETUP_SQE_MIXED rings it is two adjacent 64-byte slots, which
 * may not straddle the end of the array: when only the last slot is left
 * before the end, it becomes a NOP that posts nothing on success, and the
 * big SQE starts at slot 0.  The request must use a 128-byte opcode, so
 * that the kernel steps over both slots.  Other rings: always NULL.
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

/* Index mask of a buffer ring with @ring_entries (a power of two) entries. */
IOURINGINLINE int io_uring_buf_ring_mask(__u32 ring_entries)
	LIBURING_NOEXCEPT
{
	return (int) (ring_entries - 1);
}

IOURINGINLINE void io_uring_buf_ring_init(struct io_uring_buf_ring *br)
	LIBURING_NOEXCEPT
{
	br->tail = 0;
}

/*
 * Describe buffer @bid (@len bytes at @addr) in the entry @buf_offset
 * places past the tail.  Not visible to the kernel before
 * io_uring_buf_ring_advance().
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

/* Publish @count entries filled in with io_uring_buf_ring_add(). */
IOURINGINLINE void io_uring_buf_ring_advance(struct io_uring_buf_ring *br,
					     int count) LIBURING_NOEXCEPT
{
	/* Release: the kernel sees the entries no later than the tail. */
	io_uring_smp_store_release(&br->tail, (__u16) (br->tail + count));
}

/* Publish @buf_count buffers, then hand back @cq_count CQ slots. */
IOURINGINLINE void __io_uring_buf_ring_cq_advance(struct io_uring *ring,
						  struct io_uring_buf_ring *br,
						  int cq_count, int buf_count)
	LIBURING_NOEXCEPT
{
	io_uring_buf_ring_advance(br, buf_count);
	io_uring_cq_advance(ring, (unsigned) cq_count);
}

/* The usual case of the above: one buffer returned per CQE consumed. */
IOURINGINLINE void io_uring_buf_ring_cq_advance(struct io_uring *ring,
						struct io_uring_buf_ring *br,
						int count) LIBURING_NOEXCEPT
{
	__io_uring_buf_ring_cq_advance(ring, br, count, count);
}

/*
 * Buffers of group @bgid published and not yet taken by the kernel, or
 * -errno when the kernel cannot report its head.
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

/*
 * Check that a @buf_len byte completion buffer can hold the header plus the
 * name and control areas of @msgh; returns @buf as the header, or NULL.
 */
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

/* Start of the source-address area, right after the header. */
IOURINGINLINE void *io_uring_recvmsg_name(struct io_uring_recvmsg_out *o)
	LIBURING_NOEXCEPT
{
	return (void *) (o + 1);
}

/* First control message, or NULL if none fits in what was received. */
IOURINGINLINE struct cmsghdr *
io_uring_recvmsg_cmsg_firsthdr(struct io_uring_recvmsg_out *o,
			       struct msghdr *msgh) LIBURING_NOEXCEPT
{
	unsigned char *control = (unsigned char *) io_uring_recvmsg_name(o) +
				 msgh->msg_namelen;

	return o->controllen >= sizeof(struct cmsghdr) ?
	       (struct cmsghdr *) control : NULL;
}

/* Control message following @cmsg, or NULL at the end. */
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

/* Start of the received data. */
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

/* Number of payload bytes in a @buf_len byte completion buffer. */
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
 * Versioning
 *
 * IO_URING_CHECK_VERSION(major, minor) is true when these headers are OLDER
 * than major.minor, i.e. "#if !IO_URING_CHECK_VERSION(2, 5)" guards code
 * that needs liburing 2.5.  io_uring_check_version() (a library function)
 * does the same against the library loaded at run time.
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
