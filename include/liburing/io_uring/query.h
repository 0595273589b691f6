/* SPDX-License-Identifier: MIT */
/*
 * IORING_REGISTER_QUERY: ask the kernel what its io_uring supports.
 * A query is a chain of io_uring_query_hdr, each pointing at an answer
 * buffer whose layout depends on query_op.
 */
#ifndef LINUX_IO_URING_QUERY_H
#define LINUX_IO_URING_QUERY_H

#include <linux/types.h>

struct io_uring_query_hdr {
	__u64	next_entry;	/* next header, 0 ends the chain */
	__u64	query_data;	/* answer buffer */
	__u32	query_op;	/* IO_URING_QUERY_* */
	__u32	size;		/* size of the answer buffer */
	__s32	result;		/* 0 or -errno, set by the kernel */
	__u32	__resv[3];
};

/* io_uring_query_hdr.query_op */
enum {
	IO_URING_QUERY_OPCODES			= 0,
	IO_URING_QUERY_ZCRX			= 1,
	IO_URING_QUERY_SCQ			= 2,

	__IO_URING_QUERY_MAX,
};

/* answer to IO_URING_QUERY_OPCODES; works without a ring */
struct io_uring_query_opcode {
	__u32	nr_request_opcodes;	/* IORING_OP_* count */
	__u32	nr_register_opcodes;	/* IORING_[UN]REGISTER_* count */
	__u64	feature_flags;		/* IORING_FEAT_* known */
	__u64	ring_setup_flags;	/* IORING_SETUP_* known */
	__u64	enter_flags;		/* IORING_ENTER_* known */
	__u64	sqe_flags;		/* IOSQE_* known */
	__u32	nr_query_opcodes;	/* IO_URING_QUERY_* count */
	__u32	__pad;
};

/* answer to IO_URING_QUERY_ZCRX */
struct io_uring_query_zcrx {
	__u64	register_flags;		/* ZCRX_REG_* known */
	__u64	area_flags;		/* IORING_ZCRX_AREA_* known */
	__u32	nr_ctrl_opcodes;	/* ZCRX_CTRL_* count */
	__u32	features;		/* ZCRX_FEATURE_* */
	__u32	rq_hdr_size;		/* refill ring header size */
	__u32	rq_hdr_alignment;	/* ... and its alignment */
	__u64	__resv2;
};

/* answer to IO_URING_QUERY_SCQ */
struct io_uring_query_scq {
	__u64	hdr_size;		/* SQ/CQ ring header size */
	__u64	hdr_alignment;		/* ... and its alignment */
};

#endif /* LINUX_IO_URING_QUERY_H */
