/* SPDX-License-Identifier: MIT */
/*
 * The io_uring kernel interface (structures, flags, opcodes) as liburing
 * 2.15 publishes it. Part of the Rust drop-in replacement of liburing; the
 * Rust twin of this file is src/uapi/, and a unit test checks that both
 * agree on every value and every structure layout.
 *
 * The include guard is the kernel's own: whichever of <linux/io_uring.h>
 * and this file comes first provides the definitions.
 */
#ifndef LINUX_IO_URING_H
#define LINUX_IO_URING_H

#include <linux/fs.h>		/* __kernel_rwf_t, RWF_* */
#include <linux/types.h>	/* __u8 ... __u64, __aligned_u64 */
/*
 * liburing/compat.h sets UAPI_LINUX_IO_URING_H_SKIP_LINUX_TIME_TYPES_H
 * after providing struct __kernel_timespec itself.
 */
#ifndef UAPI_LINUX_IO_URING_H_SKIP_LINUX_TIME_TYPES_H
#include <linux/time_types.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Submission queue entry                                              */
/* ------------------------------------------------------------------ */

/*
 * 64 bytes (128 with IORING_SETUP_SQE128). Several words are shared by
 * different opcodes under different names, hence the anonymous unions.
 */
struct io_uring_sqe {
	__u8	opcode;			/* IORING_OP_* */
	__u8	flags;			/* IOSQE_* */
	__u16	ioprio;			/* priority, or per-op flags */
	__s32	fd;			/* target fd, or fixed file index */
	union {				/* byte 8 */
		__u64	off;		/* file offset */
		__u64	addr2;
		struct {
			__u32	cmd_op;	/* IORING_OP_URING_CMD sub-command */
			__u32	__pad1;
		};
	};
	union {				/* byte 16 */
		__u64	addr;		/* buffer or iovec array */
		__u64	splice_off_in;
		struct {
			__u32	level;	/* sockopt level */
			__u32	optname;
		};
	};
	__u32	len;			/* byte count or iovec count */
	union {				/* byte 28: per-opcode flags */
		__kernel_rwf_t	rw_flags;
		__u32		fsync_flags;
		__u16		poll_events;	/* old 16-bit poll mask */
		__u32		poll32_events;
		__u32		sync_range_flags;
		__u32		msg_flags;
		__u32		timeout_flags;
		__u32		accept_flags;
		__u32		cancel_flags;
		__u32		open_flags;
		__u32		statx_flags;
		__u32		fadvise_advice;
		__u32		splice_flags;
		__u32		rename_flags;
		__u32		unlink_flags;
		__u32		hardlink_flags;
		__u32		xattr_flags;
		__u32		msg_ring_flags;
		__u32		uring_cmd_flags;
		__u32		waitid_flags;
		__u32		futex_flags;
		__u32		install_fd_flags;
		__u32		nop_flags;
		__u32		pipe_flags;
	};
	__u64	user_data;		/* echoed in the CQE */
	union {				/* byte 40 */
		__u16	buf_index;	/* registered buffer index */
		__u16	buf_group;	/* provided buffer group */
	} __attribute__((packed));
	__u16	personality;		/* registered credentials, or 0 */
	union {				/* byte 44 */
		__s32	splice_fd_in;
		__u32	file_index;	/* direct descriptor slot + 1 */
		__u32	zcrx_ifq_idx;
		__u32	optlen;
		struct {
			__u16	addr_len;
			__u16	__pad3[1];
		};
	};
	union {				/* byte 48 */
		struct {
			__u64	addr3;
			__u64	__pad2[1];
		};
		struct {
			__u64	attr_ptr;	/* struct io_uring_attr_pi etc. */
			__u64	attr_type_mask;	/* IORING_RW_ATTR_FLAG_* */
		};
		__u64	optval;
		/* command payload of IORING_OP_URING_CMD: 16 or 80 bytes */
		__u8	cmd[0];
	};
};

/* sqe->attr_type_mask */
#define IORING_RW_ATTR_FLAG_PI	(1U << 0)

/* what attr_ptr points at when IORING_RW_ATTR_FLAG_PI is set */
struct io_uring_attr_pi {
	__u16	flags;
	__u16	app_tag;
	__u32	len;
	__u64	addr;
	__u64	seed;
	__u64	rsvd;
};

/*
 * sqe->file_index value asking the kernel to choose a free direct
 * descriptor slot; the chosen slot comes back in cqe->res.
 */
#define IORING_FILE_INDEX_ALLOC	(~0U)

/* bit numbers of sqe->flags */
enum io_uring_sqe_flags_bit {
	IOSQE_FIXED_FILE_BIT,
	IOSQE_IO_DRAIN_BIT,
	IOSQE_IO_LINK_BIT,
	IOSQE_IO_HARDLINK_BIT,
	IOSQE_ASYNC_BIT,
	IOSQE_BUFFER_SELECT_BIT,
	IOSQE_CQE_SKIP_SUCCESS_BIT,
};

/* sqe->flags */
#define IOSQE_FIXED_FILE	(1U << IOSQE_FIXED_FILE_BIT)	/* fd is a fixed file index */
#define IOSQE_IO_DRAIN		(1U << IOSQE_IO_DRAIN_BIT)	/* wait for all earlier requests */
#define IOSQE_IO_LINK		(1U << IOSQE_IO_LINK_BIT)	/* next sqe depends on this one */
#define IOSQE_IO_HARDLINK	(1U << IOSQE_IO_HARDLINK_BIT)	/* ... even if this one fails */
#define IOSQE_ASYNC		(1U << IOSQE_ASYNC_BIT)		/* go straight to a worker */
#define IOSQE_BUFFER_SELECT	(1U << IOSQE_BUFFER_SELECT_BIT)	/* use a buffer of buf_group */
#define IOSQE_CQE_SKIP_SUCCESS	(1U << IOSQE_CQE_SKIP_SUCCESS_BIT) /* no CQE on success */

/* ------------------------------------------------------------------ */
/* io_uring_setup(2) flags: io_uring_params.flags                      */
/* ------------------------------------------------------------------ */
#define IORING_SETUP_IOPOLL		(1U << 0)	/* busy-poll for completions */
#define IORING_SETUP_SQPOLL		(1U << 1)	/* kernel thread polls the SQ */
#define IORING_SETUP_SQ_AFF		(1U << 2)	/* sq_thread_cpu is meaningful */
#define IORING_SETUP_CQSIZE		(1U << 3)	/* cq_entries is meaningful */
#define IORING_SETUP_CLAMP		(1U << 4)	/* clamp oversized entry counts */
#define IORING_SETUP_ATTACH_WQ		(1U << 5)	/* share wq_fd's async backend */
#define IORING_SETUP_R_DISABLED		(1U << 6)	/* start disabled */
#define IORING_SETUP_SUBMIT_ALL		(1U << 7)	/* keep submitting after errors */
#define IORING_SETUP_COOP_TASKRUN	(1U << 8)	/* no IPI to run task work */
#define IORING_SETUP_TASKRUN_FLAG	(1U << 9)	/* flag pending task work in SQ flags */
#define IORING_SETUP_SQE128		(1U << 10)	/* 128-byte SQEs */
#define IORING_SETUP_CQE32		(1U << 11)	/* 32-byte CQEs */
#define IORING_SETUP_SINGLE_ISSUER	(1U << 12)	/* one submitting task only */
#define IORING_SETUP_DEFER_TASKRUN	(1U << 13)	/* task work only when waiting */
#define IORING_SETUP_NO_MMAP		(1U << 14)	/* rings in application memory */
#define IORING_SETUP_REGISTERED_FD_ONLY	(1U << 15)	/* return a registered index, no fd */
#define IORING_SETUP_NO_SQARRAY		(1U << 16)	/* no SQ index indirection */
#define IORING_SETUP_HYBRID_IOPOLL	(1U << 17)	/* sleep, then poll */
#define IORING_SETUP_CQE_MIXED		(1U << 18)	/* 16- and 32-byte CQEs mixed */
#define IORING_SETUP_SQE_MIXED		(1U << 19)	/* 64- and 128-byte SQEs mixed */
#define IORING_SETUP_SQ_REWIND		(1U << 20)	/* SQEs always start at index 0 */

/* ------------------------------------------------------------------ */
/* Opcodes: sqe->opcode                                                */
/* ------------------------------------------------------------------ */
enum io_uring_op {
	IORING_OP_NOP,
	IORING_OP_READV,
	IORING_OP_WRITEV,
	IORING_OP_FSYNC,
	IORING_OP_READ_FIXED,
	IORING_OP_WRITE_FIXED,
	IORING_OP_POLL_ADD,
	IORING_OP_POLL_REMOVE,
	IORING_OP_SYNC_FILE_RANGE,
	IORING_OP_SENDMSG,
	IORING_OP_RECVMSG,		/* 10 */
	IORING_OP_TIMEOUT,
	IORING_OP_TIMEOUT_REMOVE,
	IORING_OP_ACCEPT,
	IORING_OP_ASYNC_CANCEL,
	IORING_OP_LINK_TIMEOUT,
	IORING_OP_CONNECT,
	IORING_OP_FALLOCATE,
	IORING_OP_OPENAT,
	IORING_OP_CLOSE,
	IORING_OP_FILES_UPDATE,		/* 20 */
	IORING_OP_STATX,
	IORING_OP_READ,
	IORING_OP_WRITE,
	IORING_OP_FADVISE,
	IORING_OP_MADVISE,
	IORING_OP_SEND,
	IORING_OP_RECV,
	IORING_OP_OPENAT2,
	IORING_OP_EPOLL_CTL,
	IORING_OP_SPLICE,		/* 30 */
	IORING_OP_PROVIDE_BUFFERS,
	IORING_OP_REMOVE_BUFFERS,
	IORING_OP_TEE,
	IORING_OP_SHUTDOWN,
	IORING_OP_RENAMEAT,
	IORING_OP_UNLINKAT,
	IORING_OP_MKDIRAT,
	IORING_OP_SYMLINKAT,
	IORING_OP_LINKAT,
	IORING_OP_MSG_RING,		/* 40 */
	IORING_OP_FSETXATTR,
	IORING_OP_SETXATTR,
	IORING_OP_FGETXATTR,
	IORING_OP_GETXATTR,
	IORING_OP_SOCKET,
	IORING_OP_URING_CMD,
	IORING_OP_SEND_ZC,
	IORING_OP_SENDMSG_ZC,
	IORING_OP_READ_MULTISHOT,
	IORING_OP_WAITID,		/* 50 */
	IORING_OP_FUTEX_WAIT,
	IORING_OP_FUTEX_WAKE,
	IORING_OP_FUTEX_WAITV,
	IORING_OP_FIXED_FD_INSTALL,
	IORING_OP_FTRUNCATE,
	IORING_OP_BIND,
	IORING_OP_LISTEN,
	IORING_OP_RECV_ZC,
	IORING_OP_EPOLL_WAIT,
	IORING_OP_READV_FIXED,		/* 60 */
	IORING_OP_WRITEV_FIXED,
	IORING_OP_PIPE,
	IORING_OP_NOP128,
	IORING_OP_URING_CMD128,

	IORING_OP_LAST,			/* number of opcodes; keep last */
};

/* ------------------------------------------------------------------ */
/* Per-opcode flags                                                    */
/* ------------------------------------------------------------------ */

/*
 * sqe->uring_cmd_flags (the top 8 bits belong to the kernel).
 * IORING_URING_CMD_FIXED: the command uses registered buffer buf_index.
 */
#define IORING_URING_CMD_FIXED	(1U << 0)
#define IORING_URING_CMD_MASK	IORING_URING_CMD_FIXED

/* sqe->fsync_flags */
#define IORING_FSYNC_DATASYNC	(1U << 0)

/*
 * sqe->timeout_flags. With IORING_TIMEOUT_IMMEDIATE_ARG, sqe->addr is the
 * timeout in nanoseconds instead of a pointer to a timespec.
 */
#define IORING_TIMEOUT_ABS		(1U << 0)
#define IORING_TIMEOUT_UPDATE		(1U << 1)
#define IORING_TIMEOUT_BOOTTIME		(1U << 2)
#define IORING_TIMEOUT_REALTIME		(1U << 3)
#define IORING_LINK_TIMEOUT_UPDATE	(1U << 4)
#define IORING_TIMEOUT_ETIME_SUCCESS	(1U << 5)
#define IORING_TIMEOUT_MULTISHOT	(1U << 6)
#define IORING_TIMEOUT_IMMEDIATE_ARG	(1U << 7)
#define IORING_TIMEOUT_CLOCK_MASK	(IORING_TIMEOUT_BOOTTIME | IORING_TIMEOUT_REALTIME)
#define IORING_TIMEOUT_UPDATE_MASK	(IORING_TIMEOUT_UPDATE | IORING_LINK_TIMEOUT_UPDATE)

/* sqe->splice_flags, next to splice(2)'s own: splice_fd_in is a fixed file */
#define SPLICE_F_FD_IN_FIXED	(1U << 31)

/*
 * IORING_OP_POLL_ADD / POLL_REMOVE command flags. The event mask occupies
 * sqe->poll32_events, so these travel in sqe->len.
 *   ADD_MULTI          keep the poll armed (CQEs carry IORING_CQE_F_MORE)
 *   UPDATE_EVENTS      change the mask of the poll found via sqe->addr
 *   UPDATE_USER_DATA   change its user_data to sqe->off
 *   ADD_LEVEL          level-triggered
 */
#define IORING_POLL_ADD_MULTI		(1U << 0)
#define IORING_POLL_UPDATE_EVENTS	(1U << 1)
#define IORING_POLL_UPDATE_USER_DATA	(1U << 2)
#define IORING_POLL_ADD_LEVEL		(1U << 3)

/*
 * sqe->cancel_flags (and io_uring_sync_cancel_reg.flags): which requests
 * a cancelation matches.
 *   ALL        every match, not only the first
 *   FD         match on the fd instead of user_data
 *   ANY        match everything
 *   FD_FIXED   the fd is a fixed file index
 *   USERDATA   match on user_data (what happens with no other key)
 *   OP         match on the opcode
 */
#define IORING_ASYNC_CANCEL_ALL		(1U << 0)
#define IORING_ASYNC_CANCEL_FD		(1U << 1)
#define IORING_ASYNC_CANCEL_ANY		(1U << 2)
#define IORING_ASYNC_CANCEL_FD_FIXED	(1U << 3)
#define IORING_ASYNC_CANCEL_USERDATA	(1U << 4)
#define IORING_ASYNC_CANCEL_OP		(1U << 5)

/*
 * Send and receive flags, carried in sqe->ioprio.
 *   POLL_FIRST         arm poll before trying the transfer
 *   RECV_MULTISHOT     keep receiving (CQEs carry IORING_CQE_F_MORE)
 *   FIXED_BUF          the data is in registered buffer buf_index
 *   ZC_REPORT_USAGE    the notification CQE's res tells whether data was
 *                      copied (IORING_NOTIF_USAGE_ZC_COPIED)
 *   BUNDLE             with IOSQE_BUFFER_SELECT: use several consecutive
 *                      buffers of the group in one operation
 *   VECTORIZED         SEND / SEND_ZC take an iovec array
 */
#define IORING_RECVSEND_POLL_FIRST	(1U << 0)
#define IORING_RECV_MULTISHOT		(1U << 1)
#define IORING_RECVSEND_FIXED_BUF	(1U << 2)
#define IORING_SEND_ZC_REPORT_USAGE	(1U << 3)
#define IORING_RECVSEND_BUNDLE		(1U << 4)
#define IORING_SEND_VECTORIZED		(1U << 5)

/* bit of the notification cqe->res: the zero-copy send copied the data */
#define IORING_NOTIF_USAGE_ZC_COPIED	(1U << 31)

/* accept flags, carried in sqe->ioprio */
#define IORING_ACCEPT_MULTISHOT		(1U << 0)
#define IORING_ACCEPT_DONTWAIT		(1U << 1)
#define IORING_ACCEPT_POLL_FIRST	(1U << 2)

/* IORING_OP_MSG_RING sub-commands, carried in sqe->addr */
enum io_uring_msg_ring_flags {
	IORING_MSG_DATA,	/* post a CQE: res = sqe->len, user_data = sqe->off */
	IORING_MSG_SEND_FD,	/* install one of our fixed files in the target */
};

/*
 * sqe->msg_ring_flags
 *   CQE_SKIP     post nothing on the target ring (not for IORING_MSG_DATA)
 *   FLAGS_PASS   the target CQE's flags are sqe->file_index
 */
#define IORING_MSG_RING_CQE_SKIP	(1U << 0)
#define IORING_MSG_RING_FLAGS_PASS	(1U << 1)

/* sqe->install_fd_flags: the installed fd is not close-on-exec */
#define IORING_FIXED_FD_NO_CLOEXEC	(1U << 0)

/*
 * sqe->nop_flags
 *   INJECT_RESULT   complete with res = sqe->len
 *   CQE32           post a 32-byte CQE (mixed CQE rings)
 */
#define IORING_NOP_INJECT_RESULT	(1U << 0)
#define IORING_NOP_CQE32		(1U << 5)

/* ------------------------------------------------------------------ */
/* Completion queue entry                                              */
/* ------------------------------------------------------------------ */

/* 16 bytes; IORING_SETUP_CQE32 rings append 16 more in big_cqe[] */
struct io_uring_cqe {
	__u64	user_data;	/* from the sqe */
	__s32	res;		/* result, or -errno */
	__u32	flags;		/* IORING_CQE_F_*, buffer id on top */
	__u64	big_cqe[];
};

/*
 * cqe->flags
 *   BUFFER         a provided buffer was used; its id is in the top 16 bits
 *   MORE           the request stays armed and will post again
 *   SOCK_NONEMPTY  the socket still has data after this receive
 *   NOTIF          a zero-copy notification, not the send result itself
 *   BUF_MORE       the (incrementally consumed) buffer is not used up yet
 *   SKIP           a filler entry to be ignored
 *   32             a 32-byte entry on an IORING_SETUP_CQE_MIXED ring
 */
#define IORING_CQE_F_BUFFER		(1U << 0)
#define IORING_CQE_F_MORE		(1U << 1)
#define IORING_CQE_F_SOCK_NONEMPTY	(1U << 2)
#define IORING_CQE_F_NOTIF		(1U << 3)
#define IORING_CQE_F_BUF_MORE		(1U << 4)
#define IORING_CQE_F_SKIP		(1U << 5)
#define IORING_CQE_F_32			(1U << 15)

#define IORING_CQE_BUFFER_SHIFT		16

/* ------------------------------------------------------------------ */
/* Ring mapping                                                        */
/* ------------------------------------------------------------------ */

/* mmap(2) offsets on the ring fd */
#define IORING_OFF_SQ_RING		0ULL
#define IORING_OFF_CQ_RING		0x8000000ULL
#define IORING_OFF_SQES			0x10000000ULL
#define IORING_OFF_PBUF_RING		0x80000000ULL
#define IORING_OFF_PBUF_SHIFT		16
#define IORING_OFF_MMAP_MASK		0xf8000000ULL

/* where the SQ ring fields sit in its mapping */
struct io_sqring_offsets {
	__u32	head;
	__u32	tail;
	__u32	ring_mask;
	__u32	ring_entries;
	__u32	flags;
	__u32	dropped;
	__u32	array;
	__u32	resv1;
	__u64	user_addr;	/* ring memory with IORING_SETUP_NO_MMAP */
};

/* SQ ring flags */
#define IORING_SQ_NEED_WAKEUP	(1U << 0)	/* the SQPOLL thread sleeps */
#define IORING_SQ_CQ_OVERFLOW	(1U << 1)	/* completions are held back */
#define IORING_SQ_TASKRUN	(1U << 2)	/* task work waits for an enter */

/* where the CQ ring fields sit in its mapping */
struct io_cqring_offsets {
	__u32	head;
	__u32	tail;
	__u32	ring_mask;
	__u32	ring_entries;
	__u32	overflow;
	__u32	cqes;
	__u32	flags;
	__u32	resv1;
	__u64	user_addr;	/* ring memory with IORING_SETUP_NO_MMAP */
};

/* CQ ring flags */
#define IORING_CQ_EVENTFD_DISABLED	(1U << 0)	/* no eventfd signals */

/* ------------------------------------------------------------------ */
/* io_uring_enter(2)                                                   */
/* ------------------------------------------------------------------ */
#define IORING_ENTER_GETEVENTS		(1U << 0)
#define IORING_ENTER_SQ_WAKEUP		(1U << 1)
#define IORING_ENTER_SQ_WAIT		(1U << 2)
#define IORING_ENTER_EXT_ARG		(1U << 3)
#define IORING_ENTER_REGISTERED_RING	(1U << 4)
#define IORING_ENTER_ABS_TIMER		(1U << 5)
#define IORING_ENTER_EXT_ARG_REG	(1U << 6)
#define IORING_ENTER_NO_IOWAIT		(1U << 7)

/* ------------------------------------------------------------------ */
/* io_uring_setup(2) argument                                          */
/* ------------------------------------------------------------------ */
struct io_uring_params {
	__u32	sq_entries;
	__u32	cq_entries;
	__u32	flags;		/* IORING_SETUP_* */
	__u32	sq_thread_cpu;
	__u32	sq_thread_idle;
	__u32	features;	/* IORING_FEAT_*, set by the kernel */
	__u32	wq_fd;
	__u32	resv[3];
	struct io_sqring_offsets	sq_off;
	struct io_cqring_offsets	cq_off;
};

/* io_uring_params.features */
#define IORING_FEAT_SINGLE_MMAP		(1U << 0)
#define IORING_FEAT_NODROP		(1U << 1)
#define IORING_FEAT_SUBMIT_STABLE	(1U << 2)
#define IORING_FEAT_RW_CUR_POS		(1U << 3)
#define IORING_FEAT_CUR_PERSONALITY	(1U << 4)
#define IORING_FEAT_FAST_POLL		(1U << 5)
#define IORING_FEAT_POLL_32BITS		(1U << 6)
#define IORING_FEAT_SQPOLL_NONFIXED	(1U << 7)
#define IORING_FEAT_EXT_ARG		(1U << 8)
#define IORING_FEAT_NATIVE_WORKERS	(1U << 9)
#define IORING_FEAT_RSRC_TAGS		(1U << 10)
#define IORING_FEAT_CQE_SKIP		(1U << 11)
#define IORING_FEAT_LINKED_FILE		(1U << 12)
#define IORING_FEAT_REG_REG_RING	(1U << 13)
#define IORING_FEAT_RECVSEND_BUNDLE	(1U << 14)
#define IORING_FEAT_MIN_TIMEOUT		(1U << 15)
#define IORING_FEAT_RW_ATTR		(1U << 16)
#define IORING_FEAT_NO_IOWAIT		(1U << 17)

/* ------------------------------------------------------------------ */
/* io_uring_register(2)                                                */
/* ------------------------------------------------------------------ */
enum io_uring_register_op {
	IORING_REGISTER_BUFFERS			= 0,
	IORING_UNREGISTER_BUFFERS		= 1,
	IORING_REGISTER_FILES			= 2,
	IORING_UNREGISTER_FILES			= 3,
	IORING_REGISTER_EVENTFD			= 4,
	IORING_UNREGISTER_EVENTFD		= 5,
	IORING_REGISTER_FILES_UPDATE		= 6,
	IORING_REGISTER_EVENTFD_ASYNC		= 7,
	IORING_REGISTER_PROBE			= 8,
	IORING_REGISTER_PERSONALITY		= 9,
	IORING_UNREGISTER_PERSONALITY		= 10,
	IORING_REGISTER_RESTRICTIONS		= 11,
	IORING_REGISTER_ENABLE_RINGS		= 12,
	/* variants with tags */
	IORING_REGISTER_FILES2			= 13,
	IORING_REGISTER_FILES_UPDATE2		= 14,
	IORING_REGISTER_BUFFERS2		= 15,
	IORING_REGISTER_BUFFERS_UPDATE		= 16,
	/* io-wq CPU affinity */
	IORING_REGISTER_IOWQ_AFF		= 17,
	IORING_UNREGISTER_IOWQ_AFF		= 18,
	/* io-wq worker limits */
	IORING_REGISTER_IOWQ_MAX_WORKERS	= 19,
	/* ring fds registered in the ring itself */
	IORING_REGISTER_RING_FDS		= 20,
	IORING_UNREGISTER_RING_FDS		= 21,
	/* provided buffer rings */
	IORING_REGISTER_PBUF_RING		= 22,
	IORING_UNREGISTER_PBUF_RING		= 23,
	IORING_REGISTER_SYNC_CANCEL		= 24,
	IORING_REGISTER_FILE_ALLOC_RANGE	= 25,
	IORING_REGISTER_PBUF_STATUS		= 26,
	/* NAPI busy polling */
	IORING_REGISTER_NAPI			= 27,
	IORING_UNREGISTER_NAPI			= 28,
	IORING_REGISTER_CLOCK			= 29,
	IORING_REGISTER_CLONE_BUFFERS		= 30,
	IORING_REGISTER_SEND_MSG_RING		= 31,	/* MSG_RING without a ring */
	IORING_REGISTER_ZCRX_IFQ		= 32,	/* zero-copy rx queue */
	IORING_REGISTER_RESIZE_RINGS		= 33,
	IORING_REGISTER_MEM_REGION		= 34,
	IORING_REGISTER_QUERY			= 35,	/* see io_uring/query.h */
	IORING_REGISTER_ZCRX_CTRL		= 36,	/* see enum zcrx_ctrl_op */
	IORING_REGISTER_BPF_FILTER		= 37,	/* see io_uring/bpf_filter.h */

	IORING_REGISTER_LAST,			/* number of opcodes */

	/* OR-ed into the opcode: the fd argument is a registered ring index */
	IORING_REGISTER_USE_REGISTERED_RING	= 1U << 31
};

/* the two io-wq worker classes (IORING_REGISTER_IOWQ_MAX_WORKERS) */
enum io_wq_type {
	IO_WQ_BOUND,
	IO_WQ_UNBOUND,
};

/* old form of struct io_uring_rsrc_update */
struct io_uring_files_update {
	__u32		offset;
	__u32		resv;
	__aligned_u64	fds;		/* __s32 array */
};

/* io_uring_region_desc.flags */
enum {
	IORING_MEM_REGION_TYPE_USER		= 1,	/* memory at user_addr */
};

/* a memory region shared with the kernel */
struct io_uring_region_desc {
	__u64	user_addr;
	__u64	size;
	__u32	flags;
	__u32	id;
	__u64	mmap_offset;
	__u64	__resv[4];
};

/* io_uring_mem_region_reg.flags */
enum {
	IORING_MEM_REGION_REG_WAIT_ARG		= 1,	/* holds io_uring_reg_wait */
};

/* argument of IORING_REGISTER_MEM_REGION */
struct io_uring_mem_region_reg {
	__u64	region_uptr;	/* struct io_uring_region_desc * */
	__u64	flags;
	__u64	__resv[2];
};

/* io_uring_rsrc_register.flags: register nr empty slots */
#define IORING_RSRC_REGISTER_SPARSE	(1U << 0)

/* argument of IORING_REGISTER_FILES2 / IORING_REGISTER_BUFFERS2 */
struct io_uring_rsrc_register {
	__u32		nr;
	__u32		flags;
	__u64		resv2;
	__aligned_u64	data;
	__aligned_u64	tags;
};

/* argument of IORING_REGISTER_FILES_UPDATE */
struct io_uring_rsrc_update {
	__u32		offset;
	__u32		resv;
	__aligned_u64	data;
};

/* argument of IORING_REGISTER_FILES_UPDATE2 / IORING_REGISTER_BUFFERS_UPDATE */
struct io_uring_rsrc_update2 {
	__u32		offset;
	__u32		resv;
	__aligned_u64	data;
	__aligned_u64	tags;
	__u32		nr;
	__u32		resv2;
};

/* fd value in a files update that leaves the slot untouched */
#define IORING_REGISTER_FILES_SKIP	(-2)

/* io_uring_probe_op.flags */
#define IO_URING_OP_SUPPORTED	(1U << 0)

struct io_uring_probe_op {
	__u8	op;
	__u8	resv;
	__u16	flags;		/* IO_URING_OP_* */
	__u32	resv2;
};

/* answer of IORING_REGISTER_PROBE */
struct io_uring_probe {
	__u8	last_op;	/* highest opcode known to the kernel */
	__u8	ops_len;	/* entries in ops[] */
	__u16	resv;
	__u32	resv2[3];
	struct io_uring_probe_op	ops[];
};

/* one entry of IORING_REGISTER_RESTRICTIONS */
struct io_uring_restriction {
	__u16	opcode;		/* IORING_RESTRICTION_* */
	union {
		__u8	register_op;	/* for IORING_RESTRICTION_REGISTER_OP */
		__u8	sqe_op;		/* for IORING_RESTRICTION_SQE_OP */
		__u8	sqe_flags;	/* for IORING_RESTRICTION_SQE_FLAGS_* */
	};
	__u8	resv;
	__u32	resv2[3];
};

struct io_uring_task_restriction {
	__u16	flags;
	__u16	nr_res;
	__u32	resv[3];
	struct io_uring_restriction	restrictions[0];
};

/* argument of IORING_REGISTER_CLOCK */
struct io_uring_clock_register {
	__u32	clockid;
	__u32	__resv[3];
};

/* io_uring_clone_buffers.flags */
enum {
	IORING_REGISTER_SRC_REGISTERED	= (1U << 0),	/* src_fd is a registered index */
	IORING_REGISTER_DST_REPLACE	= (1U << 1),	/* overwrite existing buffers */
};

/* argument of IORING_REGISTER_CLONE_BUFFERS */
struct io_uring_clone_buffers {
	__u32	src_fd;
	__u32	flags;
	__u32	src_off;
	__u32	dst_off;
	__u32	nr;
	__u32	pad[3];
};

/* ------------------------------------------------------------------ */
/* Provided buffer rings                                               */
/* ------------------------------------------------------------------ */
struct io_uring_buf {
	__u64	addr;
	__u32	len;
	__u16	bid;
	__u16	resv;
};

/*
 * The ring is an array of io_uring_buf; the resv field of entry 0 is
 * reused as the tail, so the header costs no extra space.
 */
struct io_uring_buf_ring {
	union {
		struct {
			__u64	resv1;
			__u32	resv2;
			__u16	resv3;
			__u16	tail;
		};
		struct io_uring_buf	bufs[0];
	};
};

/*
 * io_uring_buf_reg.flags
 *   MMAP  the kernel allocates the ring; map it at
 *         IORING_OFF_PBUF_RING | (bgid << IORING_OFF_PBUF_SHIFT)
 *   INC   buffers may be consumed a piece at a time
 */
enum io_uring_register_pbuf_ring_flags {
	IOU_PBUF_RING_MMAP	= 1,
	IOU_PBUF_RING_INC	= 2,
};

/* argument of IORING_REGISTER_PBUF_RING / IORING_UNREGISTER_PBUF_RING */
struct io_uring_buf_reg {
	__u64	ring_addr;
	__u32	ring_entries;
	__u16	bgid;
	__u16	flags;
	__u32	min_left;
	__u32	resv[5];
};

/* argument of IORING_REGISTER_PBUF_STATUS */
struct io_uring_buf_status {
	__u32	buf_group;	/* in */
	__u32	head;		/* out */
	__u32	resv[8];
};

/* argument of IORING_REGISTER_NAPI / IORING_UNREGISTER_NAPI */
struct io_uring_napi {
	__u32	busy_poll_to;
	__u8	prefer_busy_poll;
	__u8	pad[3];
	__u64	resv;
};

/* io_uring_restriction.opcode */
enum io_uring_register_restriction_op {
	IORING_RESTRICTION_REGISTER_OP		= 0,	/* allow a register opcode */
	IORING_RESTRICTION_SQE_OP		= 1,	/* allow an sqe opcode */
	IORING_RESTRICTION_SQE_FLAGS_ALLOWED	= 2,	/* allow these sqe flags */
	IORING_RESTRICTION_SQE_FLAGS_REQUIRED	= 3,	/* demand these sqe flags */

	IORING_RESTRICTION_LAST
};

/* io_uring_reg_wait.flags */
enum {
	IORING_REG_WAIT_TS		= (1U << 0),	/* ts is set */
};

/*
 * A wait argument stored in a registered region; with
 * IORING_ENTER_EXT_ARG_REG the enter argument is an index into it.
 */
struct io_uring_reg_wait {
	struct __kernel_timespec	ts;
	__u32				min_wait_usec;
	__u32				flags;
	__u64				sigmask;
	__u32				sigmask_sz;
	__u32				pad[3];
	__u64				pad2[2];
};

/* io_uring_enter(2) argument with IORING_ENTER_EXT_ARG */
struct io_uring_getevents_arg {
	__u64	sigmask;
	__u32	sigmask_sz;
	__u32	min_wait_usec;
	__u64	ts;
};

/* argument of IORING_REGISTER_SYNC_CANCEL */
struct io_uring_sync_cancel_reg {
	__u64				addr;
	__s32				fd;
	__u32				flags;
	struct __kernel_timespec	timeout;
	__u8				opcode;
	__u8				pad[7];
	__u64				pad2[3];
};

/* argument of IORING_REGISTER_FILE_ALLOC_RANGE: slots [off, off + len) */
struct io_uring_file_index_range {
	__u32	off;
	__u32	len;
	__u64	resv;
};

/* header at the start of each multishot recvmsg buffer */
struct io_uring_recvmsg_out {
	__u32	namelen;
	__u32	controllen;
	__u32	payloadlen;
	__u32	flags;
};

/* IORING_OP_URING_CMD sub-commands on sockets (sqe->cmd_op) */
enum io_uring_socket_op {
	SOCKET_URING_OP_SIOCINQ		= 0,
	SOCKET_URING_OP_SIOCOUTQ,
	SOCKET_URING_OP_GETSOCKOPT,
	SOCKET_URING_OP_SETSOCKOPT,
	SOCKET_URING_OP_TX_TIMESTAMP,
	SOCKET_URING_OP_GETSOCKNAME,
};

/* SOCKET_URING_OP_TX_TIMESTAMP completions: cqe->flags layout */
#define IORING_TIMESTAMP_HW_SHIFT	16
#define IORING_TIMESTAMP_TYPE_SHIFT	(IORING_TIMESTAMP_HW_SHIFT + 1)
#define IORING_CQE_F_TSTAMP_HW		((__u32)1 << IORING_TIMESTAMP_HW_SHIFT)

struct io_timespec {
	__u64	tv_sec;
	__u64	tv_nsec;
};

/* ------------------------------------------------------------------ */
/* Zero-copy receive                                                   */
/* ------------------------------------------------------------------ */

/* refill queue entry */
struct io_uring_zcrx_rqe {
	__u64	off;
	__u32	len;
	__u32	__pad;
};

/* second half of a zero-copy receive CQE */
struct io_uring_zcrx_cqe {
	__u64	off;
	__u64	__pad;
};

/* offsets carry the area id from this bit up */
#define IORING_ZCRX_AREA_SHIFT	48
#define IORING_ZCRX_AREA_MASK	(~(((__u64)1 << IORING_ZCRX_AREA_SHIFT) - 1))

struct io_uring_zcrx_offsets {
	__u32	head;
	__u32	tail;
	__u32	rqes;
	__u32	__resv2;
	__u64	__resv[2];
};

/* io_uring_zcrx_area_reg.flags */
enum io_uring_zcrx_area_flags {
	IORING_ZCRX_AREA_DMABUF		= 1,	/* area is dmabuf_fd */
};

struct io_uring_zcrx_area_reg {
	__u64	addr;
	__u64	len;
	__u64	rq_area_token;
	__u32	flags;
	__u32	dmabuf_fd;
	__u64	__resv2[2];
};

/* io_uring_zcrx_ifq_reg.flags */
enum zcrx_reg_flags {
	ZCRX_REG_IMPORT		= 1,
	ZCRX_REG_NODEV		= 2,	/* no device: data is always copied */
};

/* io_uring_query_zcrx.features */
enum zcrx_features {
	ZCRX_FEATURE_RX_PAGE_SIZE	= 1 << 0,	/* rx_buf_len is honoured */
};

/* argument of IORING_REGISTER_ZCRX_IFQ */
struct io_uring_zcrx_ifq_reg {
	__u32	if_idx;
	__u32	if_rxq;
	__u32	rq_entries;
	__u32	flags;
	__u64	area_ptr;	/* struct io_uring_zcrx_area_reg * */
	__u64	region_ptr;	/* struct io_uring_region_desc * */
	struct io_uring_zcrx_offsets	offsets;
	__u32	zcrx_id;
	__u32	rx_buf_len;
	__u64	__resv[3];
};

/* zcrx_ctrl.op */
enum zcrx_ctrl_op {
	ZCRX_CTRL_FLUSH_RQ,
	ZCRX_CTRL_EXPORT,

	__ZCRX_CTRL_LAST,
};

struct zcrx_ctrl_flush_rq {
	__u64	__resv[6];
};

struct zcrx_ctrl_export {
	__u32	zcrx_fd;
	__u32	__resv1[11];
};

/* argument of IORING_REGISTER_ZCRX_CTRL */
struct zcrx_ctrl {
	__u32	zcrx_id;
	__u32	op;
	__u64	__resv[2];
	union {
		struct zcrx_ctrl_export		zc_export;
		struct zcrx_ctrl_flush_rq	zc_flush;
	};
};

#ifdef __cplusplus
}
#endif

#endif /* LINUX_IO_URING_H */
