/* SPDX-License-Identifier: MIT */
/*
 * Ring-less and rarely available registrations:
 * - io_uring_register_sync_msg: a MSG_RING SQE run without a source ring;
 * - io_uring_register_query: capability queries (opcodes, chained);
 * - io_uring_register_bpf_filter(_task), io_uring_register_ifq,
 *   io_uring_register_zcrx_ctrl: need kernel support or hardware; checked
 *   to come back with a kernel error for invalid arguments.
 */
#include "check.h"

static void test_sync_msg(void)
{
	struct io_uring_cqe *cqe;
	struct io_uring_sqe sqe;
	struct io_uring target;
	int ret;

	if (!KERNEL_HAS_PART("sync-msg", IORING_REGISTER_SEND_MSG_RING))
		return;
	check_ring_init(&target, 4, 0);
	memset(&sqe, 0, sizeof(sqe));
	io_uring_prep_msg_ring(&sqe, target.ring_fd, 0x1234, 0xbeef, 0);
	ret = io_uring_register_sync_msg(&sqe);
	CHECK_EQ(ret, 0);
	CHECK_EQ(io_uring_peek_cqe(&target, &cqe), 0);
	CHECK_EQ(cqe->user_data, 0xbeef);
	CHECK_EQ(cqe->res, 0x1234);
	io_uring_cqe_seen(&target, cqe);

	/* Not a ring. */
	memset(&sqe, 0, sizeof(sqe));
	io_uring_prep_msg_ring(&sqe, 0, 1, 2, 0);
	CHECK(io_uring_register_sync_msg(&sqe) < 0);
	/* Only MSG_RING is accepted. */
	memset(&sqe, 0, sizeof(sqe));
	io_uring_prep_nop(&sqe);
	CHECK_EQ(io_uring_register_sync_msg(&sqe), -EINVAL);
	io_uring_queue_exit(&target);
}

static unsigned test_query(void)
{
	struct io_uring_query_opcode op;
	struct io_uring_query_scq scq;
	struct io_uring_query_hdr h1, h2;
	int ret;

	memset(&op, 0, sizeof(op));
	memset(&h1, 0, sizeof(h1));
	h1.query_op = IO_URING_QUERY_OPCODES;
	h1.query_data = (unsigned long) &op;
	h1.size = sizeof(op);
	if (!KERNEL_HAS_PART("query", IORING_REGISTER_QUERY))
		return 0;
	ret = io_uring_register_query(&h1);
	CHECK_EQ(ret, 0);
	CHECK_EQ(h1.result, 0);
	CHECK(op.nr_request_opcodes > IORING_OP_READ);
	CHECK(op.nr_register_opcodes > IORING_REGISTER_PROBE);
	CHECK(op.ring_setup_flags & IORING_SETUP_SQPOLL);
	CHECK(op.feature_flags & IORING_FEAT_NODROP);
	CHECK(op.nr_query_opcodes >= 1);

	/* Chained: opcodes, then SQ/CQ header geometry if known. */
	memset(&op, 0, sizeof(op));
	memset(&scq, 0, sizeof(scq));
	memset(&h2, 0, sizeof(h2));
	h2.query_op = IO_URING_QUERY_SCQ;
	h2.query_data = (unsigned long) &scq;
	h2.size = sizeof(scq);
	h1.next_entry = (unsigned long) &h2;
	h1.result = 0;
	CHECK_EQ(io_uring_register_query(&h1), 0);
	CHECK_EQ(h1.result, 0);
	CHECK(op.nr_request_opcodes > IORING_OP_READ);
	if (h2.result == 0)
		CHECK(scq.hdr_size > 0);
	else
		CHECKM(h2.result < 0, "scq result %d", h2.result);
	return op.nr_register_opcodes;
}

static void test_unavailable(unsigned nr_register_ops)
{
	struct io_uring_zcrx_ifq_reg ifq;
	struct zcrx_ctrl ctrl;
	struct io_uring_bpf bpf;
	struct io_uring ring;
	int ret;

	check_ring_init(&ring, 4, 0);

	/* A filter command with nothing in it cannot be valid. */
	memset(&bpf, 0, sizeof(bpf));
	bpf.cmd_type = 0xffff;
	ret = io_uring_register_bpf_filter(&ring, &bpf);
	CHECKM(ret < 0 && ret > -4096, "bpf_filter: %d", ret);
	ret = io_uring_register_bpf_filter_task(&bpf);
	CHECKM(ret < 0 && ret > -4096, "bpf_filter_task: %d", ret);
	if (nr_register_ops && nr_register_ops <= IORING_REGISTER_BPF_FILTER)
		check_note("kernel has no BPF filters (%u register opcodes)",
			   nr_register_ops);

	/* No such interface. */
	memset(&ifq, 0, sizeof(ifq));
	ifq.if_idx = 0x7fffffff;
	ret = io_uring_register_ifq(&ring, &ifq);
	CHECKM(ret < 0 && ret > -4096, "register_ifq: %d", ret);

	memset(&ctrl, 0, sizeof(ctrl));
	ctrl.zcrx_id = 12345;
	ret = io_uring_register_zcrx_ctrl(&ring, &ctrl);
	CHECKM(ret < 0 && ret > -4096, "zcrx_ctrl: %d", ret);

	io_uring_queue_exit(&ring);
}

int main(void)
{
	unsigned nr;

	test_sync_msg();
	nr = test_query();
	test_unavailable(nr);
	printf("PASS\n");
	return 0;
}
