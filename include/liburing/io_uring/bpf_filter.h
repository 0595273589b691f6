/* SPDX-License-Identifier: MIT */
/*
 * IORING_REGISTER_BPF_FILTER: classic BPF programs that accept or deny
 * requests by opcode.
 */
#ifndef LINUX_IO_URING_BPF_FILTER_H
#define LINUX_IO_URING_BPF_FILTER_H

#include <linux/types.h>

/* what a filter program is shown of a request */
struct io_uring_bpf_ctx {
	__u64	user_data;
	__u8	opcode;
	__u8	sqe_flags;
	__u8	pdu_size;	/* bytes of opcode data below */
	__u8	pad[5];
	union {
		struct {	/* IORING_OP_SOCKET */
			__u32	family;
			__u32	type;
			__u32	protocol;
		} socket;
		struct {	/* IORING_OP_OPENAT, IORING_OP_OPENAT2 */
			__u64	flags;
			__u64	mode;
			__u64	resolve;
		} open;
	};
};

/* io_uring_bpf_filter.flags */
enum {
	IO_URING_BPF_FILTER_DENY_REST	= 1,	/* deny opcodes without a filter */
	IO_URING_BPF_FILTER_SZ_STRICT	= 2,	/* fail on a pdu_size mismatch */
};

struct io_uring_bpf_filter {
	__u32	opcode;		/* the opcode filtered */
	__u32	flags;		/* IO_URING_BPF_FILTER_* */
	__u32	filter_len;	/* BPF instruction count */
	__u8	pdu_size;	/* pdu_size the program expects */
	__u8	resv[3];
	__u64	filter_ptr;	/* the BPF instructions */
	__u64	resv2[5];
};

/* io_uring_bpf.cmd_type */
enum {
	IO_URING_BPF_CMD_FILTER	= 1,
};

/* argument of IORING_REGISTER_BPF_FILTER */
struct io_uring_bpf {
	__u16	cmd_type;	/* IO_URING_BPF_CMD_* */
	__u16	cmd_flags;
	__u32	resv;
	union {
		struct io_uring_bpf_filter	filter;
	};
};

#endif /* LINUX_IO_URING_BPF_FILTER_H */
