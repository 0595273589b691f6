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
 *   5. inline helpers: probe, CQ access, SQE data/flags, prep helpers,
 *      recvmsg parsing, SQ state, peek/wait, SQE allocation, buffer rings
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
#define uring_unlikely(cond)	__builtin_expect(!!(cond), 0)
#endif
#ifndef uring_likely
#define uring_likely(cond)	__builtin_expect(!!(cond), 1)
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
	return (__u64) (unsigned long) ptr;
}

/* ======================================================================
 * Functions exported by the library.
 * ====================================================================== */
#include "liburing/functions.h"

/*
 * user_data the library puts on its own internal timeout requests (used
 * for waits with a timeout on kernels without IORING_FEAT_EXT_ARG); such
 * completions are consumed by the library, never returned.
 */
#define LIBURING_UDATA_TIMEOUT	((__u64) -1)

/* io_uring_sqe_set_data64() and io_uring_cqe_get_data64() exist. */
#define LIBURING_HAVE_DATA64

/* ======================================================================
 * Probing
 * ====================================================================== */

/* Nonzero if the probed kernel supports opcode @op. */
IOURINGINLINE int io_uring_opcode_supported(const struct io_uring_probe *p,
					    int op) LIBURING_NOEXCEPT
{
	if (op < 0 || op > p->last_op)
		return 0;
	return (p->ops[op].flags & IO_URING_OP_SUPPORTED) != 0;
}

/* ======================================================================
 * Completion queue access
 *
 * CQE number i lives at cq.cqes[(i & cq.ring_mask) << shift]; the shift
 * is 1 on IORING_SETUP_CQE32 rings (every CQE is 32 bytes, i.e. two
 * slots) and 0 otherwise.  On IORING_SETUP_CQE_MIXED rings, a 32-byte CQE
 * carries IORING_CQE_F_32 and occupies two consecutive slots.
 * ====================================================================== */

IOURINGINLINE unsigned io_uring_cqe_shift_from_flags(unsigned flags)
	LIBURING_NOEXCEPT
{
	return (flags & IORING_SETUP_CQE32) ? 1 : 0;
}

IOURINGINLINE unsigned io_uring_cqe_shift(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	return io_uring_cqe_shift_from_flags(ring->flags);
}

/* Number of CQ slots @cqe occupies: 2 for a 32-byte CQE on a mixed ring. */
IOURINGINLINE unsigned io_uring_cqe_nr(const struct io_uring_cqe *cqe)
	LIBURING_NOEXCEPT
{
	return (cqe->flags & IORING_CQE_F_32) ? 2U : 1U;
}

IOURINGINLINE struct io_uring_cqe_iter
io_uring_cqe_iter_init(const struct io_uring *ring) LIBURING_NOEXCEPT
{
	struct io_uring_cqe_iter it;

	it.cqes = ring->cq.cqes;
	it.mask = ring->cq.ring_mask;
	it.shift = io_uring_cqe_shift(ring);
	/* Only the application writes the CQ head: a plain load will do. */
	it.head = *ring->cq.khead;
	/* Acquire: CQEs below this tail are fully written when we read them. */
	it.tail = io_uring_smp_load_acquire(ring->cq.ktail);
	return it;
}

/* Store the next CQE in *@cqe and return true, or return false at the end. */
IOURINGINLINE bool io_uring_cqe_iter_next(struct io_uring_cqe_iter *iter,
					  struct io_uring_cqe **cqe)
	LIBURING_NOEXCEPT
{
	struct io_uring_cqe *next;

	if (iter->head == iter->tail)
		return false;
	next = &iter->cqes[(iter->head & iter->mask) << iter->shift];
	iter->head += io_uring_cqe_nr(next);
	*cqe = next;
	return true;
}

/*
 * Visit every CQE currently in the CQ ring without consuming it; call
 * io_uring_cq_advance() afterwards for the entries handled.  @head_ is
 * set to the ring index of the CQE being visited (kept for compatibility:
 * the loop itself does not need it).  The (void) in the increment clause
 * keeps compilers from flagging @head_ as set but unused.
 */
#define io_uring_for_each_cqe(ring_, head_, cqe_)			\
	for (struct io_uring_cqe_iter __io_uring_cqe_it__ =		\
		     io_uring_cqe_iter_init(ring_);			\
	     (head_) = __io_uring_cqe_it__.head,			\
	     io_uring_cqe_iter_next(&__io_uring_cqe_it__, &(cqe_));	\
	     (void) (head_))

/* Hand @nr CQ slots back to the kernel. */
IOURINGINLINE void io_uring_cq_advance(struct io_uring *ring, unsigned nr)
	LIBURING_NOEXCEPT
{
	if (nr) {
		unsigned *khead = ring->cq.khead;
		unsigned new_head = *khead + nr;

		/* Release: our reads of the CQEs complete before the kernel
		 * may reuse their slots. */
		io_uring_smp_store_release(khead, new_head);
	}
}

/* Mark a CQE from io_uring_peek_cqe()/io_uring_wait_cqe() as consumed. */
IOURINGINLINE void io_uring_cqe_seen(struct io_uring *ring,
				     struct io_uring_cqe *cqe)
	LIBURING_NOEXCEPT
{
	if (cqe)
		io_uring_cq_advance(ring, io_uring_cqe_nr(cqe));
}

/* ======================================================================
 * SQE user data, flags and common initialisation
 * ====================================================================== */

/* Attach @data to the request; the CQE returns it (io_uring_cqe_get_data). */
IOURINGINLINE void io_uring_sqe_set_data(struct io_uring_sqe *sqe, void *data)
	LIBURING_NOEXCEPT
{
	sqe->user_data = (unsigned long) data;
}

IOURINGINLINE void *io_uring_cqe_get_data(const struct io_uring_cqe *cqe)
	LIBURING_NOEXCEPT
{
	return (void *) (uintptr_t) cqe->user_data;
}

/* 64-bit integer variants of the two above. */
IOURINGINLINE void io_uring_sqe_set_data64(struct io_uring_sqe *sqe,
					   __u64 data) LIBURING_NOEXCEPT
{
	sqe->user_data = data;
}

IOURINGINLINE __u64 io_uring_cqe_get_data64(const struct io_uring_cqe *cqe)
	LIBURING_NOEXCEPT
{
	return cqe->user_data;
}

/* Replace the IOSQE_* flags of @sqe. */
IOURINGINLINE void io_uring_sqe_set_flags(struct io_uring_sqe *sqe,
					  unsigned flags) LIBURING_NOEXCEPT
{
	sqe->flags = (__u8) flags;
}

/* Provided-buffer group to select from (with IOSQE_BUFFER_SELECT). */
IOURINGINLINE void io_uring_sqe_set_buf_group(struct io_uring_sqe *sqe,
					      int bgid) LIBURING_NOEXCEPT
{
	sqe->buf_group = (__u16) bgid;
}

/*
 * Direct-descriptor slot for requests that create a file: the kernel reads
 * sqe->file_index as "slot + 1", 0 meaning "no direct descriptor".
 */
_LOCAL_INLINE void __io_uring_set_target_fixed_file(struct io_uring_sqe *sqe,
						    unsigned int file_index)
	LIBURING_NOEXCEPT
{
	sqe->file_index = file_index + 1;
}

/*
 * As above, except that IORING_FILE_INDEX_ALLOC ("pick a free slot") is
 * passed through to the kernel unchanged.
 */
_LOCAL_INLINE void __io_uring_prep_direct_slot(struct io_uring_sqe *sqe,
					       unsigned int file_index)
	LIBURING_NOEXCEPT
{
	/* ALLOC - 1 encodes to ALLOC itself. */
	if (file_index == IORING_FILE_INDEX_ALLOC)
		file_index--;
	__io_uring_set_target_fixed_file(sqe, file_index);
}

/*
 * Clear the SQE fields no prep helper is guaranteed to set.  The get_sqe
 * helpers call this on every SQE they hand out; the prep helpers then fill
 * opcode, fd, off, addr and len and whatever else the operation needs.
 */
IOURINGINLINE void io_uring_initialize_sqe(struct io_uring_sqe *sqe)
	LIBURING_NOEXCEPT
{
	sqe->flags = 0;
	sqe->ioprio = 0;
	sqe->rw_flags = 0;
	sqe->buf_index = 0;
	sqe->personality = 0;
	sqe->file_index = 0;
	sqe->addr3 = 0;
	sqe->__pad2[0] = 0;
}

/* ======================================================================
 * Request preparation
 *
 * Each io_uring_prep_*() fills one SQE (from io_uring_get_sqe()) for one
 * operation.  They only store the fields listed; user_data is left to the
 * caller.
 * ====================================================================== */

/* The generic layout shared by most operations. */
IOURINGINLINE void io_uring_prep_rw(int op, struct io_uring_sqe *sqe, int fd,
				    const void *addr, unsigned len,
				    __u64 offset) LIBURING_NOEXCEPT
{
	sqe->opcode = (__u8) op;
	sqe->fd = fd;
	sqe->off = offset;
	sqe->addr = (unsigned long) addr;
	sqe->len = len;
}

/* --- no-ops ------------------------------------------------------------ */

IOURINGINLINE void io_uring_prep_nop(struct io_uring_sqe *sqe)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_NOP, sqe, -1, NULL, 0, 0);
}

/* A 128-byte no-op, for IORING_SETUP_SQE_MIXED rings. */
IOURINGINLINE void io_uring_prep_nop128(struct io_uring_sqe *sqe)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_NOP128, sqe, -1, NULL, 0, 0);
}

/* --- splice and tee ---------------------------------------------------- */

/*
 * Move @nbytes from @fd_in to @fd_out, at least one of which is a pipe.
 * An offset of -1 means "use (and advance) the file position"; it must be
 * -1 for the pipe side.
 */
IOURINGINLINE void io_uring_prep_splice(struct io_uring_sqe *sqe,
					int fd_in, int64_t off_in,
					int fd_out, int64_t off_out,
					unsigned int nbytes,
					unsigned int splice_flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_SPLICE, sqe, fd_out, NULL, nbytes,
			 (__u64) off_out);
	sqe->splice_off_in = (__u64) off_in;
	sqe->splice_fd_in = fd_in;
	sqe->splice_flags = splice_flags;
}

/* Duplicate @nbytes from pipe @fd_in into pipe @fd_out. */
IOURINGINLINE void io_uring_prep_tee(struct io_uring_sqe *sqe,
				     int fd_in, int fd_out,
				     unsigned int nbytes,
				     unsigned int splice_flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_TEE, sqe, fd_out, NULL, nbytes, 0);
	sqe->splice_off_in = 0;
	sqe->splice_fd_in = fd_in;
	sqe->splice_flags = splice_flags;
}

/* --- read and write ---------------------------------------------------- */

IOURINGINLINE void io_uring_prep_read(struct io_uring_sqe *sqe, int fd,
				      void *buf, unsigned nbytes, __u64 offset)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_READ, sqe, fd, buf, nbytes, offset);
}

IOURINGINLINE void io_uring_prep_write(struct io_uring_sqe *sqe, int fd,
				       const void *buf, unsigned nbytes,
				       __u64 offset) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_WRITE, sqe, fd, buf, nbytes, offset);
}

IOURINGINLINE void io_uring_prep_readv(struct io_uring_sqe *sqe, int fd,
				       const struct iovec *iovecs,
				       unsigned nr_vecs, __u64 offset)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_READV, sqe, fd, iovecs, nr_vecs, offset);
}

/* preadv2(2): @flags are RWF_* flags. */
IOURINGINLINE void io_uring_prep_readv2(struct io_uring_sqe *sqe, int fd,
					const struct iovec *iovecs,
					unsigned nr_vecs, __u64 offset,
					int flags) LIBURING_NOEXCEPT
{
	io_uring_prep_readv(sqe, fd, iovecs, nr_vecs, offset);
	sqe->rw_flags = flags;
}

IOURINGINLINE void io_uring_prep_writev(struct io_uring_sqe *sqe, int fd,
					const struct iovec *iovecs,
					unsigned nr_vecs, __u64 offset)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_WRITEV, sqe, fd, iovecs, nr_vecs, offset);
}

/* pwritev2(2): @flags are RWF_* flags. */
IOURINGINLINE void io_uring_prep_writev2(struct io_uring_sqe *sqe, int fd,
					 const struct iovec *iovecs,
					 unsigned nr_vecs, __u64 offset,
					 int flags) LIBURING_NOEXCEPT
{
	io_uring_prep_writev(sqe, fd, iovecs, nr_vecs, offset);
	sqe->rw_flags = flags;
}

/* Read into registered buffer number @buf_index. */
IOURINGINLINE void io_uring_prep_read_fixed(struct io_uring_sqe *sqe, int fd,
					    void *buf, unsigned nbytes,
					    __u64 offset, int buf_index)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_READ_FIXED, sqe, fd, buf, nbytes, offset);
	sqe->buf_index = (__u16) buf_index;
}

/* Write from registered buffer number @buf_index. */
IOURINGINLINE void io_uring_prep_write_fixed(struct io_uring_sqe *sqe, int fd,
					     const void *buf, unsigned nbytes,
					     __u64 offset, int buf_index)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_WRITE_FIXED, sqe, fd, buf, nbytes, offset);
	sqe->buf_index = (__u16) buf_index;
}

/* Vectored read whose iovecs point into registered buffer @buf_index. */
IOURINGINLINE void io_uring_prep_readv_fixed(struct io_uring_sqe *sqe, int fd,
					     const struct iovec *iovecs,
					     unsigned nr_vecs, __u64 offset,
					     int flags, int buf_index)
	LIBURING_NOEXCEPT
{
	io_uring_prep_readv2(sqe, fd, iovecs, nr_vecs, offset, flags);
	sqe->opcode = IORING_OP_READV_FIXED;
	sqe->buf_index = (__u16) buf_index;
}

/* Vectored write whose iovecs point into registered buffer @buf_index. */
IOURINGINLINE void io_uring_prep_writev_fixed(struct io_uring_sqe *sqe, int fd,
					      const struct iovec *iovecs,
					      unsigned nr_vecs, __u64 offset,
					      int flags, int buf_index)
	LIBURING_NOEXCEPT
{
	io_uring_prep_writev2(sqe, fd, iovecs, nr_vecs, offset, flags);
	sqe->opcode = IORING_OP_WRITEV_FIXED;
	sqe->buf_index = (__u16) buf_index;
}

/* Repeated reads into buffers from provided-buffer group @buf_group. */
IOURINGINLINE void io_uring_prep_read_multishot(struct io_uring_sqe *sqe,
						int fd, unsigned nbytes,
						__u64 offset, int buf_group)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_READ_MULTISHOT, sqe, fd, NULL, nbytes,
			 offset);
	sqe->buf_group = (__u16) buf_group;
	sqe->flags = IOSQE_BUFFER_SELECT;
}

/* --- socket messages --------------------------------------------------- */

IOURINGINLINE void io_uring_prep_recvmsg(struct io_uring_sqe *sqe, int fd,
					 struct msghdr *msg, unsigned flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_RECVMSG, sqe, fd, msg, 1, 0);
	sqe->msg_flags = flags;
}

/*
 * Multishot recvmsg: each completion's buffer starts with a struct
 * io_uring_recvmsg_out; see the io_uring_recvmsg_*() helpers below.
 */
IOURINGINLINE void io_uring_prep_recvmsg_multishot(struct io_uring_sqe *sqe,
						   int fd, struct msghdr *msg,
						   unsigned flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_recvmsg(sqe, fd, msg, flags);
	sqe->ioprio |= IORING_RECV_MULTISHOT;
}

IOURINGINLINE void io_uring_prep_sendmsg(struct io_uring_sqe *sqe, int fd,
					 const struct msghdr *msg,
					 unsigned flags) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_SENDMSG, sqe, fd, msg, 1, 0);
	sqe->msg_flags = flags;
}

/* Zero-copy sendmsg. */
IOURINGINLINE void io_uring_prep_sendmsg_zc(struct io_uring_sqe *sqe, int fd,
					    const struct msghdr *msg,
					    unsigned flags) LIBURING_NOEXCEPT
{
	io_uring_prep_sendmsg(sqe, fd, msg, flags);
	sqe->opcode = IORING_OP_SENDMSG_ZC;
}

/* Zero-copy sendmsg from registered buffer @buf_index. */
IOURINGINLINE void io_uring_prep_sendmsg_zc_fixed(struct io_uring_sqe *sqe,
						  int fd,
						  const struct msghdr *msg,
						  unsigned flags,
						  unsigned buf_index)
	LIBURING_NOEXCEPT
{
	io_uring_prep_sendmsg_zc(sqe, fd, msg, flags);
	sqe->ioprio |= IORING_RECVSEND_FIXED_BUF;
	sqe->buf_index = (__u16) buf_index;
}

/* --- poll -------------------------------------------------------------- */

/*
 * poll32_events holds the mask in little-endian half-word order; on
 * big-endian machines the two 16-bit halves have to be swapped.
 */
_LOCAL_INLINE unsigned __io_uring_prep_poll_mask(unsigned poll_mask)
	LIBURING_NOEXCEPT
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	poll_mask = (poll_mask << 16) | (poll_mask >> 16);
#endif
	return poll_mask;
}

IOURINGINLINE void io_uring_prep_poll_add(struct io_uring_sqe *sqe, int fd,
					  unsigned poll_mask) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_POLL_ADD, sqe, fd, NULL, 0, 0);
	sqe->poll32_events = __io_uring_prep_poll_mask(poll_mask);
}

/* A poll that stays armed and posts a CQE for every event. */
IOURINGINLINE void io_uring_prep_poll_multishot(struct io_uring_sqe *sqe,
						int fd, unsigned poll_mask)
	LIBURING_NOEXCEPT
{
	io_uring_prep_poll_add(sqe, fd, poll_mask);
	sqe->len = IORING_POLL_ADD_MULTI;
}

/* Cancel the poll request whose user_data is @user_data. */
IOURINGINLINE void io_uring_prep_poll_remove(struct io_uring_sqe *sqe,
					     __u64 user_data) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_POLL_REMOVE, sqe, -1, NULL, 0, 0);
	sqe->addr = user_data;
}

/*
 * Modify an armed poll request: @flags (IORING_POLL_UPDATE_*) say whether
 * the event mask and/or the user_data are replaced.
 */
IOURINGINLINE void io_uring_prep_poll_update(struct io_uring_sqe *sqe,
					     __u64 old_user_data,
					     __u64 new_user_data,
					     unsigned poll_mask, unsigned flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_POLL_REMOVE, sqe, -1, NULL, flags,
			 new_user_data);
	sqe->addr = old_user_data;
	sqe->poll32_events = __io_uring_prep_poll_mask(poll_mask);
}

/* --- sync -------------------------------------------------------------- */

/* @fsync_flags: 0 or IORING_FSYNC_DATASYNC. */
IOURINGINLINE void io_uring_prep_fsync(struct io_uring_sqe *sqe, int fd,
				       unsigned fsync_flags) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_FSYNC, sqe, fd, NULL, 0, 0);
	sqe->fsync_flags = fsync_flags;
}

IOURINGINLINE void io_uring_prep_sync_file_range(struct io_uring_sqe *sqe,
						 int fd, unsigned len,
						 __u64 offset, int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_SYNC_FILE_RANGE, sqe, fd, NULL, len, offset);
	sqe->sync_range_flags = (__u32) flags;
}

/* --- timeouts ---------------------------------------------------------- */

/*
 * Complete after @ts has elapsed, or once @count other completions have
 * been posted (0: time only).  @flags are IORING_TIMEOUT_*.
 */
IOURINGINLINE void io_uring_prep_timeout(struct io_uring_sqe *sqe,
					 const struct __kernel_timespec *ts,
					 unsigned count, unsigned flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_TIMEOUT, sqe, -1, ts, 1, count);
	sqe->timeout_flags = flags;
}

IOURINGINLINE void io_uring_prep_timeout_remove(struct io_uring_sqe *sqe,
						__u64 user_data,
						unsigned flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_TIMEOUT_REMOVE, sqe, -1, NULL, 0, 0);
	sqe->addr = user_data;
	sqe->timeout_flags = flags;
}

/* Re-arm the timeout identified by @user_data with @ts. */
IOURINGINLINE void io_uring_prep_timeout_update(struct io_uring_sqe *sqe,
					const struct __kernel_timespec *ts,
					__u64 user_data, unsigned flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_TIMEOUT_REMOVE, sqe, -1, NULL, 0,
			 (uintptr_t) ts);
	sqe->addr = user_data;
	sqe->timeout_flags = flags | IORING_TIMEOUT_UPDATE;
}

/* Time limit for the request this one is linked behind. */
IOURINGINLINE void io_uring_prep_link_timeout(struct io_uring_sqe *sqe,
					const struct __kernel_timespec *ts,
					unsigned flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_LINK_TIMEOUT, sqe, -1, ts, 1, 0);
	sqe->timeout_flags = flags;
}

/* --- accept, connect, bind, listen -------------------------------------- */

IOURINGINLINE void io_uring_prep_accept(struct io_uring_sqe *sqe, int fd,
					struct sockaddr *addr,
					socklen_t *addrlen, int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_ACCEPT, sqe, fd, addr, 0,
			 uring_ptr_to_u64(addrlen));
	sqe->accept_flags = (__u32) flags;
}

/*
 * Accept into direct-descriptor slot @file_index (IORING_FILE_INDEX_ALLOC:
 * any free slot, returned in the CQE).
 */
IOURINGINLINE void io_uring_prep_accept_direct(struct io_uring_sqe *sqe, int fd,
					       struct sockaddr *addr,
					       socklen_t *addrlen, int flags,
					       unsigned int file_index)
	LIBURING_NOEXCEPT
{
	io_uring_prep_accept(sqe, fd, addr, addrlen, flags);
	__io_uring_prep_direct_slot(sqe, file_index);
}

/* Accept connections until cancelled, one CQE each. */
IOURINGINLINE void io_uring_prep_multishot_accept(struct io_uring_sqe *sqe,
						  int fd, struct sockaddr *addr,
						  socklen_t *addrlen, int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_accept(sqe, fd, addr, addrlen, flags);
	sqe->ioprio |= IORING_ACCEPT_MULTISHOT;
}

/* Multishot accept, each connection into a freshly allocated direct slot. */
IOURINGINLINE void
io_uring_prep_multishot_accept_direct(struct io_uring_sqe *sqe, int fd,
				      struct sockaddr *addr,
				      socklen_t *addrlen, int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_multishot_accept(sqe, fd, addr, addrlen, flags);
	__io_uring_prep_direct_slot(sqe, IORING_FILE_INDEX_ALLOC);
}

IOURINGINLINE void io_uring_prep_connect(struct io_uring_sqe *sqe, int fd,
					 const struct sockaddr *addr,
					 socklen_t addrlen) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_CONNECT, sqe, fd, addr, 0, addrlen);
}

IOURINGINLINE void io_uring_prep_bind(struct io_uring_sqe *sqe, int fd,
				      const struct sockaddr *addr,
				      socklen_t addrlen) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_BIND, sqe, fd, addr, 0, addrlen);
}

IOURINGINLINE void io_uring_prep_listen(struct io_uring_sqe *sqe, int fd,
					int backlog) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_LISTEN, sqe, fd, NULL, (unsigned) backlog, 0);
}

/* --- cancellation ------------------------------------------------------ */

/* Cancel requests matching @user_data (or as @flags IORING_ASYNC_CANCEL_* say). */
IOURINGINLINE void io_uring_prep_cancel64(struct io_uring_sqe *sqe,
					  __u64 user_data, int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_ASYNC_CANCEL, sqe, -1, NULL, 0, 0);
	sqe->addr = user_data;
	sqe->cancel_flags = (__u32) flags;
}

IOURINGINLINE void io_uring_prep_cancel(struct io_uring_sqe *sqe,
					const void *user_data, int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_cancel64(sqe, (__u64) (uintptr_t) user_data, flags);
}

/* Cancel requests operating on file @fd. */
IOURINGINLINE void io_uring_prep_cancel_fd(struct io_uring_sqe *sqe, int fd,
					   unsigned int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_ASYNC_CANCEL, sqe, fd, NULL, 0, 0);
	sqe->cancel_flags = (__u32) flags | IORING_ASYNC_CANCEL_FD;
}

/* --- epoll ------------------------------------------------------------- */

struct epoll_event;

IOURINGINLINE void io_uring_prep_epoll_ctl(struct io_uring_sqe *sqe, int epfd,
					   int fd, int op,
					   const struct epoll_event *ev)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_EPOLL_CTL, sqe, epfd, ev, (__u32) op,
			 (__u32) fd);
}

IOURINGINLINE void io_uring_prep_epoll_wait(struct io_uring_sqe *sqe, int fd,
					    struct epoll_event *events,
					    int maxevents, unsigned flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_EPOLL_WAIT, sqe, fd, events,
			 (unsigned) maxevents, 0);
	sqe->rw_flags = (int) flags;
}

/* --- files ------------------------------------------------------------- */

/* Update registered files starting at @offset (IORING_FILE_INDEX_ALLOC: any). */
IOURINGINLINE void io_uring_prep_files_update(struct io_uring_sqe *sqe,
					      int *fds, unsigned nr_fds,
					      int offset) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_FILES_UPDATE, sqe, -1, fds, nr_fds,
			 (__u64) offset);
}

IOURINGINLINE void io_uring_prep_fallocate(struct io_uring_sqe *sqe, int fd,
					   int mode, __u64 offset, __u64 len)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_FALLOCATE, sqe, fd, NULL,
			 (unsigned int) mode, offset);
	sqe->addr = len;
}

IOURINGINLINE void io_uring_prep_openat(struct io_uring_sqe *sqe, int dfd,
					const char *path, int flags,
					mode_t mode) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_OPENAT, sqe, dfd, path, mode, 0);
	sqe->open_flags = (__u32) flags;
}

/* openat() into direct-descriptor slot @file_index. */
IOURINGINLINE void io_uring_prep_openat_direct(struct io_uring_sqe *sqe,
					       int dfd, const char *path,
					       int flags, mode_t mode,
					       unsigned file_index)
	LIBURING_NOEXCEPT
{
	io_uring_prep_openat(sqe, dfd, path, flags, mode);
	__io_uring_prep_direct_slot(sqe, file_index);
}

IOURINGINLINE void io_uring_prep_open(struct io_uring_sqe *sqe,
				      const char *path, int flags, mode_t mode)
	LIBURING_NOEXCEPT
{
	io_uring_prep_openat(sqe, AT_FDCWD, path, flags, mode);
}

IOURINGINLINE void io_uring_prep_open_direct(struct io_uring_sqe *sqe,
					     const char *path, int flags,
					     mode_t mode, unsigned file_index)
	LIBURING_NOEXCEPT
{
	io_uring_prep_openat_direct(sqe, AT_FDCWD, path, flags, mode,
				    file_index);
}

/* openat2(2); @how must stay valid until the request is submitted. */
IOURINGINLINE void io_uring_prep_openat2(struct io_uring_sqe *sqe, int dfd,
					 const char *path,
					 const struct open_how *how)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_OPENAT2, sqe, dfd, path, sizeof(*how),
			 (uint64_t) (uintptr_t) how);
}

IOURINGINLINE void io_uring_prep_openat2_direct(struct io_uring_sqe *sqe,
						int dfd, const char *path,
						const struct open_how *how,
						unsigned file_index)
	LIBURING_NOEXCEPT
{
	io_uring_prep_openat2(sqe, dfd, path, how);
	__io_uring_prep_direct_slot(sqe, file_index);
}

IOURINGINLINE void io_uring_prep_close(struct io_uring_sqe *sqe, int fd)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_CLOSE, sqe, fd, NULL, 0, 0);
}

/* Close direct descriptor @file_index. */
IOURINGINLINE void io_uring_prep_close_direct(struct io_uring_sqe *sqe,
					      unsigned file_index)
	LIBURING_NOEXCEPT
{
	io_uring_prep_close(sqe, 0);
	__io_uring_set_target_fixed_file(sqe, file_index);
}

struct statx;

IOURINGINLINE void io_uring_prep_statx(struct io_uring_sqe *sqe, int dfd,
				       const char *path, int flags,
				       unsigned mask, struct statx *statxbuf)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_STATX, sqe, dfd, path, mask,
			 uring_ptr_to_u64(statxbuf));
	sqe->statx_flags = (__u32) flags;
}

IOURINGINLINE void io_uring_prep_fadvise(struct io_uring_sqe *sqe, int fd,
					 __u64 offset, __u32 len, int advice)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_FADVISE, sqe, fd, NULL, len, offset);
	sqe->fadvise_advice = (__u32) advice;
}

IOURINGINLINE void io_uring_prep_madvise(struct io_uring_sqe *sqe, void *addr,
					 __u32 length, int advice)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_MADVISE, sqe, -1, addr, length, 0);
	sqe->fadvise_advice = (__u32) advice;
}

/* fadvise with a 64-bit length (needs a kernel with 64-bit fadvise len). */
IOURINGINLINE void io_uring_prep_fadvise64(struct io_uring_sqe *sqe, int fd,
					   __u64 offset, off_t len, int advice)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_FADVISE, sqe, fd, NULL, 0, offset);
	sqe->addr = (__u64) len;
	sqe->fadvise_advice = (__u32) advice;
}

/* madvise with a 64-bit length. */
IOURINGINLINE void io_uring_prep_madvise64(struct io_uring_sqe *sqe,
					   void *addr, off_t length,
					   int advice) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_MADVISE, sqe, -1, addr, 0, (__u64) length);
	sqe->fadvise_advice = (__u32) advice;
}

#ifdef _GNU_SOURCE
IOURINGINLINE void io_uring_prep_ftruncate(struct io_uring_sqe *sqe,
					   int fd, loff_t len)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_FTRUNCATE, sqe, fd, NULL, 0, (__u64) len);
}
#endif

/* Install direct descriptor @fd as a regular file descriptor. */
IOURINGINLINE void io_uring_prep_fixed_fd_install(struct io_uring_sqe *sqe,
						  int fd, unsigned int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_FIXED_FD_INSTALL, sqe, fd, NULL, 0, 0);
	sqe->flags = IOSQE_FIXED_FILE;
	sqe->install_fd_flags = flags;
}

/* pipe2(2); @fds receives the two descriptors. */
IOURINGINLINE void io_uring_prep_pipe(struct io_uring_sqe *sqe, int *fds,
				      int pipe_flags) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_PIPE, sqe, 0, fds, 0, 0);
	sqe->pipe_flags = (__u32) pipe_flags;
}

/* pipe2(2) into direct-descriptor slots starting at @file_index. */
IOURINGINLINE void io_uring_prep_pipe_direct(struct io_uring_sqe *sqe,
					     int *fds, int pipe_flags,
					     unsigned int file_index)
	LIBURING_NOEXCEPT
{
	io_uring_prep_pipe(sqe, fds, pipe_flags);
	__io_uring_prep_direct_slot(sqe, file_index);
}

/* --- paths ------------------------------------------------------------- */

IOURINGINLINE void io_uring_prep_unlinkat(struct io_uring_sqe *sqe, int dfd,
					  const char *path, int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_UNLINKAT, sqe, dfd, path, 0, 0);
	sqe->unlink_flags = (__u32) flags;
}

IOURINGINLINE void io_uring_prep_unlink(struct io_uring_sqe *sqe,
					const char *path, int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_unlinkat(sqe, AT_FDCWD, path, flags);
}

IOURINGINLINE void io_uring_prep_renameat(struct io_uring_sqe *sqe, int olddfd,
					  const char *oldpath, int newdfd,
					  const char *newpath,
					  unsigned int flags) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_RENAMEAT, sqe, olddfd, oldpath,
			 (__u32) newdfd, (uint64_t) (uintptr_t) newpath);
	sqe->rename_flags = (__u32) flags;
}

IOURINGINLINE void io_uring_prep_rename(struct io_uring_sqe *sqe,
					const char *oldpath,
					const char *newpath) LIBURING_NOEXCEPT
{
	io_uring_prep_renameat(sqe, AT_FDCWD, oldpath, AT_FDCWD, newpath, 0);
}

IOURINGINLINE void io_uring_prep_mkdirat(struct io_uring_sqe *sqe, int dfd,
					 const char *path, mode_t mode)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_MKDIRAT, sqe, dfd, path, mode, 0);
}

IOURINGINLINE void io_uring_prep_mkdir(struct io_uring_sqe *sqe,
				       const char *path, mode_t mode)
	LIBURING_NOEXCEPT
{
	io_uring_prep_mkdirat(sqe, AT_FDCWD, path, mode);
}

IOURINGINLINE void io_uring_prep_symlinkat(struct io_uring_sqe *sqe,
					   const char *target, int newdirfd,
					   const char *linkpath)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_SYMLINKAT, sqe, newdirfd, target, 0,
			 (uint64_t) (uintptr_t) linkpath);
}

IOURINGINLINE void io_uring_prep_symlink(struct io_uring_sqe *sqe,
					 const char *target,
					 const char *linkpath)
	LIBURING_NOEXCEPT
{
	io_uring_prep_symlinkat(sqe, target, AT_FDCWD, linkpath);
}

IOURINGINLINE void io_uring_prep_linkat(struct io_uring_sqe *sqe, int olddfd,
					const char *oldpath, int newdfd,
					const char *newpath, int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_LINKAT, sqe, olddfd, oldpath,
			 (__u32) newdfd, (uint64_t) (uintptr_t) newpath);
	sqe->hardlink_flags = (__u32) flags;
}

IOURINGINLINE void io_uring_prep_link(struct io_uring_sqe *sqe,
				      const char *oldpath, const char *newpath,
				      int flags) LIBURING_NOEXCEPT
{
	io_uring_prep_linkat(sqe, AT_FDCWD, oldpath, AT_FDCWD, newpath, flags);
}

/* --- extended attributes ----------------------------------------------- */

IOURINGINLINE void io_uring_prep_getxattr(struct io_uring_sqe *sqe,
					  const char *name, char *value,
					  const char *path, unsigned int len)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_GETXATTR, sqe, 0, name, len,
			 (__u64) (uintptr_t) value);
	sqe->addr3 = (__u64) (uintptr_t) path;
	sqe->xattr_flags = 0;
}

IOURINGINLINE void io_uring_prep_setxattr(struct io_uring_sqe *sqe,
					  const char *name, const char *value,
					  const char *path, int flags,
					  unsigned int len) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_SETXATTR, sqe, 0, name, len,
			 (__u64) (uintptr_t) value);
	sqe->addr3 = (__u64) (uintptr_t) path;
	sqe->xattr_flags = (__u32) flags;
}

IOURINGINLINE void io_uring_prep_fgetxattr(struct io_uring_sqe *sqe, int fd,
					   const char *name, char *value,
					   unsigned int len) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_FGETXATTR, sqe, fd, name, len,
			 (__u64) (uintptr_t) value);
	sqe->xattr_flags = 0;
}

IOURINGINLINE void io_uring_prep_fsetxattr(struct io_uring_sqe *sqe, int fd,
					   const char *name, const char *value,
					   int flags, unsigned int len)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_FSETXATTR, sqe, fd, name, len,
			 (__u64) (uintptr_t) value);
	sqe->xattr_flags = (__u32) flags;
}

/* --- send and receive -------------------------------------------------- */

IOURINGINLINE void io_uring_prep_send(struct io_uring_sqe *sqe, int sockfd,
				      const void *buf, size_t len, int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_SEND, sqe, sockfd, buf, (__u32) len, 0);
	sqe->msg_flags = (__u32) flags;
}

/* Send a bundle of provided buffers (set the group with set_buf_group). */
IOURINGINLINE void io_uring_prep_send_bundle(struct io_uring_sqe *sqe,
					     int sockfd, size_t len, int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_send(sqe, sockfd, NULL, len, flags);
	sqe->ioprio |= IORING_RECVSEND_BUNDLE;
}

/* Give a send/send_zc request a destination address (sendto semantics). */
IOURINGINLINE void io_uring_prep_send_set_addr(struct io_uring_sqe *sqe,
					       const struct sockaddr *dest_addr,
					       __u16 addr_len)
	LIBURING_NOEXCEPT
{
	sqe->addr2 = (unsigned long) (const void *) dest_addr;
	sqe->addr_len = addr_len;
}

IOURINGINLINE void io_uring_prep_sendto(struct io_uring_sqe *sqe, int sockfd,
					const void *buf, size_t len, int flags,
					const struct sockaddr *addr,
					socklen_t addrlen) LIBURING_NOEXCEPT
{
	io_uring_prep_send(sqe, sockfd, buf, len, flags);
	io_uring_prep_send_set_addr(sqe, addr, (__u16) addrlen);
}

/* Zero-copy send; @zc_flags are IORING_RECVSEND_* / IORING_SEND_ZC_* bits. */
IOURINGINLINE void io_uring_prep_send_zc(struct io_uring_sqe *sqe, int sockfd,
					 const void *buf, size_t len, int flags,
					 unsigned zc_flags) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_SEND_ZC, sqe, sockfd, buf, (__u32) len, 0);
	sqe->msg_flags = (__u32) flags;
	sqe->ioprio = (__u16) zc_flags;
}

/* Zero-copy send from registered buffer @buf_index. */
IOURINGINLINE void io_uring_prep_send_zc_fixed(struct io_uring_sqe *sqe,
					       int sockfd, const void *buf,
					       size_t len, int flags,
					       unsigned zc_flags,
					       unsigned buf_index)
	LIBURING_NOEXCEPT
{
	io_uring_prep_send_zc(sqe, sockfd, buf, len, flags, zc_flags);
	sqe->ioprio |= IORING_RECVSEND_FIXED_BUF;
	sqe->buf_index = (__u16) buf_index;
}

IOURINGINLINE void io_uring_prep_recv(struct io_uring_sqe *sqe, int sockfd,
				      void *buf, size_t len, int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_RECV, sqe, sockfd, buf, (__u32) len, 0);
	sqe->msg_flags = (__u32) flags;
}

/* Receive repeatedly (normally into provided buffers) until cancelled. */
IOURINGINLINE void io_uring_prep_recv_multishot(struct io_uring_sqe *sqe,
						int sockfd, void *buf,
						size_t len, int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_recv(sqe, sockfd, buf, len, flags);
	sqe->ioprio |= IORING_RECV_MULTISHOT;
}

/* --- provided buffers (legacy, non-ring) ------------------------------- */

/* Hand @nr buffers of @len bytes at @addr to group @bgid, ids from @bid. */
IOURINGINLINE void io_uring_prep_provide_buffers(struct io_uring_sqe *sqe,
						 void *addr, int len, int nr,
						 int bgid, int bid)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_PROVIDE_BUFFERS, sqe, nr, addr, (__u32) len,
			 (__u64) bid);
	sqe->buf_group = (__u16) bgid;
}

IOURINGINLINE void io_uring_prep_remove_buffers(struct io_uring_sqe *sqe,
						int nr, int bgid)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_REMOVE_BUFFERS, sqe, nr, NULL, 0, 0);
	sqe->buf_group = (__u16) bgid;
}

IOURINGINLINE void io_uring_prep_shutdown(struct io_uring_sqe *sqe, int fd,
					  int how) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_SHUTDOWN, sqe, fd, NULL, (__u32) how, 0);
}

/* --- messages between rings -------------------------------------------- */

/* Post a CQE with res @len and user_data @data on the ring @fd. */
IOURINGINLINE void io_uring_prep_msg_ring(struct io_uring_sqe *sqe, int fd,
					  unsigned int len, __u64 data,
					  unsigned int flags) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_MSG_RING, sqe, fd, NULL, len, data);
	sqe->msg_ring_flags = flags;
}

/* As io_uring_prep_msg_ring(), also choosing the target CQE's flags. */
IOURINGINLINE void io_uring_prep_msg_ring_cqe_flags(struct io_uring_sqe *sqe,
						    int fd, unsigned int len,
						    __u64 data,
						    unsigned int flags,
						    unsigned int cqe_flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_MSG_RING, sqe, fd, NULL, len, data);
	sqe->msg_ring_flags = IORING_MSG_RING_FLAGS_PASS | flags;
	sqe->file_index = cqe_flags;
}

/*
 * Send our direct descriptor @source_fd to slot @target_fd of ring @fd
 * (IORING_FILE_INDEX_ALLOC: any free slot).
 */
IOURINGINLINE void io_uring_prep_msg_ring_fd(struct io_uring_sqe *sqe, int fd,
					     int source_fd, int target_fd,
					     __u64 data, unsigned int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_MSG_RING, sqe, fd,
			 (void *) (uintptr_t) IORING_MSG_SEND_FD, 0, data);
	sqe->addr3 = (__u64) (__s64) source_fd;
	__io_uring_prep_direct_slot(sqe, (unsigned int) target_fd);
	sqe->msg_ring_flags = flags;
}

IOURINGINLINE void io_uring_prep_msg_ring_fd_alloc(struct io_uring_sqe *sqe,
						   int fd, int source_fd,
						   __u64 data,
						   unsigned int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_msg_ring_fd(sqe, fd, source_fd,
				  (int) IORING_FILE_INDEX_ALLOC, data, flags);
}

/* --- sockets and uring_cmd --------------------------------------------- */

IOURINGINLINE void io_uring_prep_socket(struct io_uring_sqe *sqe, int domain,
					int type, int protocol,
					unsigned int flags) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_SOCKET, sqe, domain, NULL,
			 (unsigned) protocol, (__u64) type);
	sqe->rw_flags = (int) flags;
}

/* socket() into direct-descriptor slot @file_index. */
IOURINGINLINE void io_uring_prep_socket_direct(struct io_uring_sqe *sqe,
					       int domain, int type,
					       int protocol,
					       unsigned file_index,
					       unsigned int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_socket(sqe, domain, type, protocol, flags);
	__io_uring_prep_direct_slot(sqe, file_index);
}

/* socket() into a free direct-descriptor slot, returned in the CQE. */
IOURINGINLINE void io_uring_prep_socket_direct_alloc(struct io_uring_sqe *sqe,
						     int domain, int type,
						     int protocol,
						     unsigned int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_socket(sqe, domain, type, protocol, flags);
	__io_uring_prep_direct_slot(sqe, IORING_FILE_INDEX_ALLOC);
}

/*
 * Common part of the uring_cmd helpers: @op is IORING_OP_URING_CMD or
 * IORING_OP_URING_CMD128, @cmd_op the driver-specific command.
 */
IOURINGINLINE void __io_uring_prep_uring_cmd(struct io_uring_sqe *sqe, int op,
					     __u32 cmd_op, int fd)
	LIBURING_NOEXCEPT
{
	sqe->opcode = (__u8) op;
	sqe->fd = fd;
	sqe->cmd_op = cmd_op;
	sqe->__pad1 = 0;
	sqe->addr = 0;
	sqe->len = 0;
}

IOURINGINLINE void io_uring_prep_uring_cmd(struct io_uring_sqe *sqe,
					   int cmd_op, int fd)
	LIBURING_NOEXCEPT
{
	__io_uring_prep_uring_cmd(sqe, IORING_OP_URING_CMD, (__u32) cmd_op, fd);
}

/* uring_cmd with a 128-byte SQE on an IORING_SETUP_SQE_MIXED ring. */
IOURINGINLINE void io_uring_prep_uring_cmd128(struct io_uring_sqe *sqe,
					      int cmd_op, int fd)
	LIBURING_NOEXCEPT
{
	__io_uring_prep_uring_cmd(sqe, IORING_OP_URING_CMD128, (__u32) cmd_op,
				  fd);
}

/* Socket uring_cmd (SOCKET_URING_OP_*): getsockopt/setsockopt and friends. */
IOURINGINLINE void io_uring_prep_cmd_sock(struct io_uring_sqe *sqe,
					  int cmd_op, int fd, int level,
					  int optname, void *optval,
					  int optlen) LIBURING_NOEXCEPT
{
	io_uring_prep_uring_cmd(sqe, cmd_op, fd);
	sqe->optval = (unsigned long) (uintptr_t) optval;
	sqe->optname = (__u32) optname;
	sqe->optlen = (__u32) optlen;
	sqe->level = (__u32) level;
}

/* getsockname(2), or getpeername(2) when @peer is nonzero. */
IOURINGINLINE void io_uring_prep_cmd_getsockname(struct io_uring_sqe *sqe,
						 int fd,
						 struct sockaddr *sockaddr,
						 socklen_t *sockaddr_len,
						 int peer) LIBURING_NOEXCEPT
{
	io_uring_prep_uring_cmd(sqe, SOCKET_URING_OP_GETSOCKNAME, fd);
	sqe->addr = (uintptr_t) sockaddr;
	sqe->addr3 = (unsigned long) (uintptr_t) sockaddr_len;
	sqe->optlen = (__u32) peer;
}

/* Discard @nbytes at @offset of block device @fd. */
IOURINGINLINE void io_uring_prep_cmd_discard(struct io_uring_sqe *sqe,
					     int fd, uint64_t offset,
					     uint64_t nbytes) LIBURING_NOEXCEPT
{
	io_uring_prep_uring_cmd(sqe, (int) BLOCK_URING_CMD_DISCARD, fd);
	sqe->addr = offset;
	sqe->addr3 = nbytes;
}

/* --- processes and futexes --------------------------------------------- */

/* waitid(2); @flags are io_uring flags for the request (currently 0). */
IOURINGINLINE void io_uring_prep_waitid(struct io_uring_sqe *sqe,
					idtype_t idtype, id_t id,
					siginfo_t *infop, int options,
					unsigned int flags) LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_WAITID, sqe, (int) id, NULL,
			 (unsigned) idtype, 0);
	sqe->waitid_flags = flags;
	sqe->file_index = (__u32) options;
	sqe->addr2 = (unsigned long) infop;
}

/*
 * Futex wake/wait: @futex_flags are FUTEX2_* flags, @flags io_uring
 * request flags (currently 0), @mask the futex2 bitset.
 */
IOURINGINLINE void io_uring_prep_futex_wake(struct io_uring_sqe *sqe,
					    const uint32_t *futex,
					    uint64_t val, uint64_t mask,
					    uint32_t futex_flags,
					    unsigned int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_FUTEX_WAKE, sqe, (int) futex_flags, futex,
			 0, val);
	sqe->futex_flags = flags;
	sqe->addr3 = mask;
}

IOURINGINLINE void io_uring_prep_futex_wait(struct io_uring_sqe *sqe,
					    const uint32_t *futex,
					    uint64_t val, uint64_t mask,
					    uint32_t futex_flags,
					    unsigned int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_FUTEX_WAIT, sqe, (int) futex_flags, futex,
			 0, val);
	sqe->futex_flags = flags;
	sqe->addr3 = mask;
}

struct futex_waitv;

IOURINGINLINE void io_uring_prep_futex_waitv(struct io_uring_sqe *sqe,
					     const struct futex_waitv *futex,
					     uint32_t nr_futex,
					     unsigned int flags)
	LIBURING_NOEXCEPT
{
	io_uring_prep_rw(IORING_OP_FUTEX_WAITV, sqe, 0, futex, nr_futex, 0);
	sqe->futex_flags = flags;
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
	unsigned long room;

	if (buf_len < 0)
		return NULL;
	room = (unsigned long) (unsigned int) buf_len;
	if (room < hdr_len)
		return NULL;
	room -= hdr_len;
	/* Compare piecewise so that no sum can wrap. */
	if ((unsigned long) msgh->msg_namelen > room)
		return NULL;
	room -= msgh->msg_namelen;
	if ((unsigned long) msgh->msg_controllen > room)
		return NULL;
	return (struct io_uring_recvmsg_out *) buf;
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
	unsigned char *control;

	if (o->controllen < sizeof(struct cmsghdr))
		return NULL;
	control = (unsigned char *) io_uring_recvmsg_name(o) +
		  msgh->msg_namelen;
	return (struct cmsghdr *) control;
}

/* Control message following @cmsg, or NULL at the end. */
IOURINGINLINE struct cmsghdr *
io_uring_recvmsg_cmsg_nexthdr(struct io_uring_recvmsg_out *o,
			      struct msghdr *msgh, struct cmsghdr *cmsg)
	LIBURING_NOEXCEPT
{
	unsigned char *end, *next;

	if (cmsg->cmsg_len < sizeof(struct cmsghdr))
		return NULL;
	end = (unsigned char *) io_uring_recvmsg_cmsg_firsthdr(o, msgh) +
	      o->controllen;
	next = (unsigned char *) cmsg + CMSG_ALIGN(cmsg->cmsg_len);
	/* The next header itself, then its whole length, must fit. */
	if (next + sizeof(struct cmsghdr) > end)
		return NULL;
	if (next + CMSG_ALIGN(((struct cmsghdr *) next)->cmsg_len) > end)
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
	unsigned long start, end;

	if (buf_len < 0)
		return 0;
	start = (unsigned long) io_uring_recvmsg_payload(o, msgh);
	end = (unsigned long) o + (unsigned long) buf_len;
	return start < end ? (unsigned int) (end - start) : 0;
}

/* ======================================================================
 * Submission queue state
 * ====================================================================== */

/*
 * The kernel's SQ head.  With SQPOLL the kernel thread advances it
 * concurrently, and the acquire keeps us from reusing an SQE the kernel
 * is still reading; otherwise it only moves inside io_uring_enter().
 */
IOURINGINLINE unsigned io_uring_load_sq_head(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	if (ring->flags & IORING_SETUP_SQPOLL)
		return io_uring_smp_load_acquire(ring->sq.khead);
	return *ring->sq.khead;
}

/* SQEs handed out but not yet consumed by the kernel. */
IOURINGINLINE unsigned io_uring_sq_ready(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	return ring->sq.sqe_tail - io_uring_load_sq_head(ring);
}

/* Free SQ slots. */
IOURINGINLINE unsigned io_uring_sq_space_left(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	return ring->sq.ring_entries - io_uring_sq_ready(ring);
}

/*
 * SQE number i lives at sq.sqes[(i & sq.ring_mask) << shift]; the shift is
 * 1 on IORING_SETUP_SQE128 rings and 0 otherwise.
 */
IOURINGINLINE unsigned io_uring_sqe_shift_from_flags(unsigned flags)
	LIBURING_NOEXCEPT
{
	return (flags & IORING_SETUP_SQE128) ? 1 : 0;
}

IOURINGINLINE unsigned io_uring_sqe_shift(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	return io_uring_sqe_shift_from_flags(ring->flags);
}

/*
 * SQPOLL only: wait until the SQ ring has a free slot.  Returns 0 at once
 * for other rings or when there is room.
 */
IOURINGINLINE int io_uring_sqring_wait(struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	if (!(ring->flags & IORING_SETUP_SQPOLL) ||
	    io_uring_sq_space_left(ring))
		return 0;
	return __io_uring_sqring_wait(ring);
}

/* ======================================================================
 * Completion queue state
 * ====================================================================== */

/* CQ slots filled by the kernel and not yet consumed. */
IOURINGINLINE unsigned io_uring_cq_ready(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	return io_uring_smp_load_acquire(ring->cq.ktail) - *ring->cq.khead;
}

/* True if completions overflowed and wait to be flushed into the CQ ring. */
IOURINGINLINE bool io_uring_cq_has_overflow(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	return (IO_URING_READ_ONCE(*ring->sq.kflags) &
		IORING_SQ_CQ_OVERFLOW) != 0;
}

/* True unless eventfd notifications were switched off (see _toggle). */
IOURINGINLINE bool io_uring_cq_eventfd_enabled(const struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	if (!ring->cq.kflags)
		return true;
	return !(*ring->cq.kflags & IORING_CQ_EVENTFD_DISABLED);
}

/*
 * Switch notifications of the registered eventfd on or off.  Returns 0, or
 * -EOPNOTSUPP if the kernel has no CQ flags word.
 */
IOURINGINLINE int io_uring_cq_eventfd_toggle(struct io_uring *ring,
					     bool enabled) LIBURING_NOEXCEPT
{
	uint32_t flags;

	if (enabled == io_uring_cq_eventfd_enabled(ring))
		return 0;
	if (!ring->cq.kflags)
		return -EOPNOTSUPP;

	flags = *ring->cq.kflags;
	if (enabled)
		flags &= ~IORING_CQ_EVENTFD_DISABLED;
	else
		flags |= IORING_CQ_EVENTFD_DISABLED;
	IO_URING_WRITE_ONCE(*ring->cq.kflags, flags);
	return 0;
}

/* ======================================================================
 * Getting completions
 * ====================================================================== */

/*
 * Wait until at least @wait_nr completions are available and return the
 * first one in *@cqe_ptr.  0 on success, -errno on failure.
 */
IOURINGINLINE int io_uring_wait_cqe_nr(struct io_uring *ring,
				       struct io_uring_cqe **cqe_ptr,
				       unsigned wait_nr) LIBURING_NOEXCEPT
{
	return __io_uring_get_cqe(ring, cqe_ptr, 0, wait_nr, NULL);
}

/*
 * Decide whether @cqe, the CQE at the ring head, must be hidden from the
 * application: IORING_CQE_F_SKIP filler entries, and the completions of the
 * library's internal timeouts (used only without IORING_FEAT_EXT_ARG).
 * Hidden CQEs are consumed here.  An internal timeout that failed stores
 * its error in *@err.  Returns true if the caller should look at the next
 * CQE, false if @cqe is to be returned (or *@err was set).
 */
_LOCAL_INLINE bool io_uring_skip_cqe(struct io_uring *ring,
				     struct io_uring_cqe *cqe, int *err)
	LIBURING_NOEXCEPT
{
	if (!(cqe->flags & IORING_CQE_F_SKIP)) {
		if (ring->features & IORING_FEAT_EXT_ARG)
			return false;
		if (cqe->user_data != LIBURING_UDATA_TIMEOUT)
			return false;
		if (cqe->res < 0)
			*err = cqe->res;
	}
	io_uring_cq_advance(ring, io_uring_cqe_nr(cqe));
	return *err == 0;
}

/*
 * Look at the CQ head without entering the kernel: *@cqe_ptr gets the
 * first CQE meant for the application, or NULL.  *@nr_available (if not
 * NULL) gets the number of CQ slots filled at the last look.  Returns 0, or
 * the error of an internal timeout.  Used by the peek/wait helpers; not
 * for direct use.
 */
IOURINGINLINE int __io_uring_peek_cqe(struct io_uring *ring,
				      struct io_uring_cqe **cqe_ptr,
				      unsigned *nr_available)
	LIBURING_NOEXCEPT
{
	const unsigned mask = ring->cq.ring_mask;
	const unsigned shift = io_uring_cqe_shift(ring);
	struct io_uring_cqe *found = NULL;
	unsigned available;
	int err = 0;

	for (;;) {
		/* Acquire pairs with the kernel's release of the tail, so
		 * every CQE in [head, tail) is complete. */
		unsigned tail = io_uring_smp_load_acquire(ring->cq.ktail);
		/* Only we write the head. */
		unsigned head = *ring->cq.khead;
		struct io_uring_cqe *cqe;

		available = tail - head;
		if (!available)
			break;
		cqe = &ring->cq.cqes[(head & mask) << shift];
		if (io_uring_skip_cqe(ring, cqe, &err))
			continue;
		/* A failed internal timeout was consumed: report its error. */
		if (!err)
			found = cqe;
		break;
	}

	*cqe_ptr = found;
	if (nr_available)
		*nr_available = available;
	return err;
}

/*
 * Return an available completion in *@cqe_ptr without waiting: 0 on
 * success, -EAGAIN if there is none, other -errno on failure.
 */
IOURINGINLINE int io_uring_peek_cqe(struct io_uring *ring,
				    struct io_uring_cqe **cqe_ptr)
	LIBURING_NOEXCEPT
{
	if (__io_uring_peek_cqe(ring, cqe_ptr, NULL) == 0) {
		if (*cqe_ptr)
			return 0;
		/*
		 * Empty ring.  Unless completions may be waiting on the kernel
		 * side (IOPOLL reaping, overflowed CQEs, pending task work),
		 * a trip through the kernel cannot produce one: say so now.
		 */
		if (!(ring->flags & IORING_SETUP_IOPOLL) &&
		    !(IO_URING_READ_ONCE(*ring->sq.kflags) &
		      (IORING_SQ_CQ_OVERFLOW | IORING_SQ_TASKRUN)))
			return -EAGAIN;
	}
	return io_uring_wait_cqe_nr(ring, cqe_ptr, 0);
}

/*
 * Return a completion in *@cqe_ptr, waiting for one if needed: 0 on
 * success, -errno on failure.
 */
IOURINGINLINE int io_uring_wait_cqe(struct io_uring *ring,
				    struct io_uring_cqe **cqe_ptr)
	LIBURING_NOEXCEPT
{
	if (__io_uring_peek_cqe(ring, cqe_ptr, NULL) == 0 && *cqe_ptr)
		return 0;
	return io_uring_wait_cqe_nr(ring, cqe_ptr, 1);
}

/* ======================================================================
 * Getting SQEs
 * ====================================================================== */

/*
 * Return the next free SQE, with its common fields cleared, or NULL if the
 * SQ ring is full.  Nothing reaches the kernel before io_uring_submit().
 */
IOURINGINLINE struct io_uring_sqe *_io_uring_get_sqe(struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	struct io_uring_sq *sq = &ring->sq;
	unsigned head = io_uring_load_sq_head(ring);
	unsigned tail = sq->sqe_tail;
	struct io_uring_sqe *sqe;

	if (tail - head >= sq->ring_entries)
		return NULL;
	sqe = &sq->sqes[(tail & sq->ring_mask) << io_uring_sqe_shift(ring)];
	sq->sqe_tail = tail + 1;
	io_uring_initialize_sqe(sqe);
	return sqe;
}

/*
 * io_uring_get_sqe() is inline for applications.  The library also exports
 * it as a real symbol, for programs built against liburing < 2.2; when
 * building that library (LIBURING_INTERNAL) it is only declared here.
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
 * Return a 128-byte SQE, or NULL if there is no room.
 *
 * On IORING_SETUP_SQE128 rings every SQE is big.  On IORING_SETUP_SQE_MIXED
 * rings a big SQE takes two consecutive 64-byte slots; if only the last slot
 * before the wrap is left, it is filled with a NOP whose success completion
 * is suppressed, and the big SQE starts at slot 0.  The caller must use a
 * 128-byte opcode so the kernel consumes both slots.  Other rings: NULL.
 */
IOURINGINLINE struct io_uring_sqe *io_uring_get_sqe128(struct io_uring *ring)
	LIBURING_NOEXCEPT
{
	struct io_uring_sq *sq = &ring->sq;
	unsigned head, tail;
	struct io_uring_sqe *sqe;

	if (ring->flags & IORING_SETUP_SQE128)
		return io_uring_get_sqe(ring);
	if (!(ring->flags & IORING_SETUP_SQE_MIXED))
		return NULL;

	head = io_uring_load_sq_head(ring);
	tail = sq->sqe_tail;
	if (((tail + 1) & sq->ring_mask) == 0) {
		/* Last slot before the wrap: pad it, needing three slots. */
		if ((tail + 2) - head >= sq->ring_entries)
			return NULL;
		sqe = _io_uring_get_sqe(ring);
		io_uring_prep_nop(sqe);
		sqe->flags |= IOSQE_CQE_SKIP_SUCCESS;
		tail = sq->sqe_tail;
	} else if ((tail + 1) - head >= sq->ring_entries) {
		return NULL;
	}

	sqe = &sq->sqes[tail & sq->ring_mask];
	sq->sqe_tail = tail + 2;
	io_uring_initialize_sqe(sqe);
	return sqe;
}

/* ======================================================================
 * Provided-buffer rings
 * ====================================================================== */

/* Mask for indexing a buffer ring of @ring_entries (a power of two). */
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
 * Fill the entry @buf_offset places past the tail with buffer @addr/@len,
 * id @bid.  The kernel sees it after io_uring_buf_ring_advance().
 */
IOURINGINLINE void io_uring_buf_ring_add(struct io_uring_buf_ring *br,
					 void *addr, unsigned int len,
					 unsigned short bid, int mask,
					 int buf_offset) LIBURING_NOEXCEPT
{
	struct io_uring_buf *buf = &br->bufs[(br->tail + buf_offset) & mask];

	buf->addr = (unsigned long) (uintptr_t) addr;
	buf->len = len;
	buf->bid = bid;
}

/* Publish @count entries added with io_uring_buf_ring_add(). */
IOURINGINLINE void io_uring_buf_ring_advance(struct io_uring_buf_ring *br,
					     int count) LIBURING_NOEXCEPT
{
	unsigned short new_tail = (unsigned short) (br->tail + count);

	/* Release: the entries are written before the kernel sees the tail. */
	io_uring_smp_store_release(&br->tail, new_tail);
}

IOURINGINLINE void __io_uring_buf_ring_cq_advance(struct io_uring *ring,
						  struct io_uring_buf_ring *br,
						  int cq_count, int buf_count)
	LIBURING_NOEXCEPT
{
	io_uring_buf_ring_advance(br, buf_count);
	io_uring_cq_advance(ring, (unsigned) cq_count);
}

/* Publish @count buffers and consume @count CQEs in one go. */
IOURINGINLINE void io_uring_buf_ring_cq_advance(struct io_uring *ring,
						struct io_uring_buf_ring *br,
						int count) LIBURING_NOEXCEPT
{
	__io_uring_buf_ring_cq_advance(ring, br, count, count);
}

/*
 * Number of buffers of group @bgid the kernel has not consumed yet, or
 * -errno (the kernel cannot report the head).
 */
IOURINGINLINE int io_uring_buf_ring_available(struct io_uring *ring,
					      struct io_uring_buf_ring *br,
					      unsigned short bgid)
	LIBURING_NOEXCEPT
{
	uint16_t head;
	int ret = io_uring_buf_ring_head(ring, bgid, &head);

	if (ret)
		return ret;
	return (uint16_t) (br->tail - head);
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
