/* SPDX-License-Identifier: MIT */
/*
 * The program's call site, for the observed copies of the entry points.
 *
 * While an observer is installed, each entry point below leaves its fast
 * path with a tail call to its function here (see observed! in
 * src/capi/mod.rs), so the return address of that function is the one the
 * program's call pushed: the call site a LIBURING_CHECK finding names. It
 * is handed on, as an extra last argument, to the entry point's observed
 * copy in Rust, which stable Rust could not read itself. Nothing here runs
 * unless an observer is installed.
 *
 * Where a compiler does not make that call a tail call, the address is one
 * inside the library itself, which the observer recognises and leaves
 * unnamed.
 *
 * The parameters have the entry points' own types as the calling
 * convention sees them: every pointer is a void *.
 */

#define CALLER __builtin_return_address(0)

int __uring_rs_observed_io_uring_submit(void *ring, const void *caller);
int __uring_rs_detour_io_uring_submit(void *ring);
int __uring_rs_detour_io_uring_submit(void *ring)
{
	return __uring_rs_observed_io_uring_submit(ring, CALLER);
}

int __uring_rs_observed_io_uring_submit_and_get_events(void *ring, const void *caller);
int __uring_rs_detour_io_uring_submit_and_get_events(void *ring);
int __uring_rs_detour_io_uring_submit_and_get_events(void *ring)
{
	return __uring_rs_observed_io_uring_submit_and_get_events(ring, CALLER);
}

int __uring_rs_observed_io_uring_submit_and_wait(void *ring, unsigned wait_nr, const void *caller);
int __uring_rs_detour_io_uring_submit_and_wait(void *ring, unsigned wait_nr);
int __uring_rs_detour_io_uring_submit_and_wait(void *ring, unsigned wait_nr)
{
	return __uring_rs_observed_io_uring_submit_and_wait(ring, wait_nr, CALLER);
}

int __uring_rs_observed_io_uring_submit_and_wait_timeout(void *ring, void *cqe_ptr, unsigned wait_nr, void *ts, void *sigmask, const void *caller);
int __uring_rs_detour_io_uring_submit_and_wait_timeout(void *ring, void *cqe_ptr, unsigned wait_nr, void *ts, void *sigmask);
int __uring_rs_detour_io_uring_submit_and_wait_timeout(void *ring, void *cqe_ptr, unsigned wait_nr, void *ts, void *sigmask)
{
	return __uring_rs_observed_io_uring_submit_and_wait_timeout(ring, cqe_ptr, wait_nr, ts, sigmask, CALLER);
}

int __uring_rs_observed_io_uring_submit_and_wait_min_timeout(void *ring, void *cqe_ptr, unsigned wait_nr, void *ts,
						 unsigned min_wait, void *sigmask, const void *caller);
int __uring_rs_detour_io_uring_submit_and_wait_min_timeout(void *ring, void *cqe_ptr, unsigned wait_nr, void *ts,
						 unsigned min_wait, void *sigmask);
int __uring_rs_detour_io_uring_submit_and_wait_min_timeout(void *ring, void *cqe_ptr, unsigned wait_nr, void *ts,
						 unsigned min_wait, void *sigmask)
{
	return __uring_rs_observed_io_uring_submit_and_wait_min_timeout(ring, cqe_ptr, wait_nr, ts, min_wait, sigmask, CALLER);
}

int __uring_rs_observed_io_uring_submit_and_wait_reg(void *ring, void *cqe_ptr, unsigned wait_nr, int reg_index, const void *caller);
int __uring_rs_detour_io_uring_submit_and_wait_reg(void *ring, void *cqe_ptr, unsigned wait_nr, int reg_index);
int __uring_rs_detour_io_uring_submit_and_wait_reg(void *ring, void *cqe_ptr, unsigned wait_nr, int reg_index)
{
	return __uring_rs_observed_io_uring_submit_and_wait_reg(ring, cqe_ptr, wait_nr, reg_index, CALLER);
}

int __uring_rs_observed_io_uring_wait_cqes(void *ring, void *cqe_ptr, unsigned wait_nr, void *ts, void *sigmask, const void *caller);
int __uring_rs_detour_io_uring_wait_cqes(void *ring, void *cqe_ptr, unsigned wait_nr, void *ts, void *sigmask);
int __uring_rs_detour_io_uring_wait_cqes(void *ring, void *cqe_ptr, unsigned wait_nr, void *ts, void *sigmask)
{
	return __uring_rs_observed_io_uring_wait_cqes(ring, cqe_ptr, wait_nr, ts, sigmask, CALLER);
}

int __uring_rs_observed_io_uring_wait_cqes_min_timeout(void *ring, void *cqe_ptr, unsigned wait_nr, void *ts,
					   unsigned min_wait, void *sigmask, const void *caller);
int __uring_rs_detour_io_uring_wait_cqes_min_timeout(void *ring, void *cqe_ptr, unsigned wait_nr, void *ts,
					   unsigned min_wait, void *sigmask);
int __uring_rs_detour_io_uring_wait_cqes_min_timeout(void *ring, void *cqe_ptr, unsigned wait_nr, void *ts,
					   unsigned min_wait, void *sigmask)
{
	return __uring_rs_observed_io_uring_wait_cqes_min_timeout(ring, cqe_ptr, wait_nr, ts, min_wait, sigmask, CALLER);
}

int __uring_rs_observed_io_uring_wait_cqe_timeout(void *ring, void *cqe_ptr, void *ts, const void *caller);
int __uring_rs_detour_io_uring_wait_cqe_timeout(void *ring, void *cqe_ptr, void *ts);
int __uring_rs_detour_io_uring_wait_cqe_timeout(void *ring, void *cqe_ptr, void *ts)
{
	return __uring_rs_observed_io_uring_wait_cqe_timeout(ring, cqe_ptr, ts, CALLER);
}

int __uring_rs_observed___io_uring_get_cqe(void *ring, void *cqe_ptr, unsigned submit, unsigned wait_nr, void *sigmask, const void *caller);
int __uring_rs_detour___io_uring_get_cqe(void *ring, void *cqe_ptr, unsigned submit, unsigned wait_nr, void *sigmask);
int __uring_rs_detour___io_uring_get_cqe(void *ring, void *cqe_ptr, unsigned submit, unsigned wait_nr, void *sigmask)
{
	return __uring_rs_observed___io_uring_get_cqe(ring, cqe_ptr, submit, wait_nr, sigmask, CALLER);
}

int __uring_rs_observed_io_uring_resize_rings(void *ring, void *p, const void *caller);
int __uring_rs_detour_io_uring_resize_rings(void *ring, void *p);
int __uring_rs_detour_io_uring_resize_rings(void *ring, void *p)
{
	return __uring_rs_observed_io_uring_resize_rings(ring, p, CALLER);
}

int __uring_rs_observed_io_uring_register_ring_fd(void *ring, const void *caller);
int __uring_rs_detour_io_uring_register_ring_fd(void *ring);
int __uring_rs_detour_io_uring_register_ring_fd(void *ring)
{
	return __uring_rs_observed_io_uring_register_ring_fd(ring, CALLER);
}

int __uring_rs_observed_io_uring_unregister_ring_fd(void *ring, const void *caller);
int __uring_rs_detour_io_uring_unregister_ring_fd(void *ring);
int __uring_rs_detour_io_uring_unregister_ring_fd(void *ring)
{
	return __uring_rs_observed_io_uring_unregister_ring_fd(ring, CALLER);
}

int __uring_rs_observed_io_uring_close_ring_fd(void *ring, const void *caller);
int __uring_rs_detour_io_uring_close_ring_fd(void *ring);
int __uring_rs_detour_io_uring_close_ring_fd(void *ring)
{
	return __uring_rs_observed_io_uring_close_ring_fd(ring, CALLER);
}

void __uring_rs_observed_io_uring_queue_exit(void *ring, const void *caller);
void __uring_rs_detour_io_uring_queue_exit(void *ring);
void __uring_rs_detour_io_uring_queue_exit(void *ring)
{
	__uring_rs_observed_io_uring_queue_exit(ring, CALLER);
}
