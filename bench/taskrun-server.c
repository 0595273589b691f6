/* SPDX-License-Identifier: MIT */
/*
 * Workload 8, the DEFER_TASKRUN seed's shape: `taskrun-server threads=<t>
 * syscalls=<k> n=<requests> ring=default|coop|defer [msg=2048] [pin=0|1]`.
 *
 * This process is an io_uring server on 127.0.0.1; a forked child runs <t>
 * client threads, one connection each, with plain blocking send/recv (no
 * io_uring, so the clients are the same for both libraries).  A client sends
 * a <msg>-byte request, waits for the <msg>-byte response (the request sent
 * back) and records the round trip, <n>/<t> times after a warm-up.
 *
 * Per full request the server makes <k> cheap system calls (getpid) before
 * queueing the response: the "work" during which the completions of the
 * other connections arrive.  On a default ring that task work interrupts
 * the server at the return of each of those calls; with DEFER_TASKRUN it
 * waits until the server asks for completions.  One op = one request;
 * latency and throughput are the clients'.
 *
 * With pin=1 the server runs on the first CPU it may use and the clients on
 * the last one, so the completions are queued from another CPU while the server is
 * busy (the seed's server had its cores to itself); pin=0 lets the
 * scheduler mix them.  Pinned, the result line also gives the rescheduling
 * interrupts the server's CPU took per request during the measured part
 * (from /proc/interrupts): how a default ring's task work notification
 * reaches a server that is busy on its CPU.
 */
#define _GNU_SOURCE
#include "common.h"
#include "net.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define MAX_MSG 65536
#define MAX_THREADS 256
#define WARMUP_PER_THREAD 20
#define KIND_SEND 0
#define KIND_RECV 1

static inline unsigned long long tag(unsigned conn, unsigned kind)
{
	return (unsigned long long) conn << 1 | kind;
}

/* What the client process hands back: its clock readings and latencies. */
struct client_results {
	int64_t t0, t1;
	int64_t lat[];		/* threads * per_thread round trips */
};

struct client_args {
	unsigned short port;
	unsigned msg;
	long long per_thread;
	unsigned index;
	pthread_barrier_t *warm;
	struct client_results *res;
};

static int send_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t r = send(fd, buf, len, 0);

		if (r <= 0)
			return -1;
		buf += r;
		len -= (size_t) r;
	}
	return 0;
}

static int recv_all(int fd, char *buf, size_t len)
{
	while (len) {
		ssize_t r = recv(fd, buf, len, 0);

		if (r <= 0)
			return -1;
		buf += r;
		len -= (size_t) r;
	}
	return 0;
}

static void round_trip(int fd, char *out, char *in, unsigned msg, unsigned long long seq)
{
	memcpy(out, &seq, sizeof(seq));
	if (send_all(fd, out, msg) || recv_all(fd, in, msg))
		die("client send/recv", -1);
	if (memcmp(in, out, msg)) {
		fprintf(stderr, "response mismatch\n");
		exit(1);
	}
}

static void *client_thread(void *arg)
{
	struct client_args *a = arg;
	int fd = loopback_connect(a->port);
	char *out = calloc(2, a->msg), *in;
	unsigned long long seq = 0;
	long long i;

	if (!out)
		die("calloc", -12);
	in = out + a->msg;
	memset(out, 'a' + (int) (a->index % 26), a->msg);
	for (i = 0; i < WARMUP_PER_THREAD; i++)
		round_trip(fd, out, in, a->msg, ++seq);
	if (pthread_barrier_wait(a->warm) == PTHREAD_BARRIER_SERIAL_THREAD)
		a->res->t0 = now_ns();
	for (i = 0; i < a->per_thread; i++) {
		int64_t t = now_ns();

		round_trip(fd, out, in, a->msg, ++seq);
		a->res->lat[(long long) a->index * a->per_thread + i] = now_ns() - t;
	}
	close(fd);
	free(out);
	return NULL;
}

/*
 * The first and last CPU this process may run on; both -1 when it may run on
 * fewer than two (then nothing is pinned).
 */
static void pin_cpus(int *server_cpu, int *client_cpu)
{
	cpu_set_t set;
	int cpu;

	*server_cpu = *client_cpu = -1;
	if (sched_getaffinity(0, sizeof(set), &set) || CPU_COUNT(&set) < 2)
		return;
	for (cpu = 0; cpu < CPU_SETSIZE; cpu++) {
		if (!CPU_ISSET(cpu, &set))
			continue;
		if (*server_cpu < 0)
			*server_cpu = cpu;
		*client_cpu = cpu;
	}
}

/* Moves the calling process (and the threads it creates later) to one CPU. */
static void pin_to(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity", -1);
}

static void run_clients(unsigned short port, unsigned threads, unsigned msg, long long per_thread,
			struct client_results *res)
{
	pthread_t tid[MAX_THREADS];
	struct client_args args[MAX_THREADS];
	pthread_barrier_t warm;
	unsigned i;

	/* the serial thread stamps t0 once every client is past its warm-up */
	pthread_barrier_init(&warm, NULL, threads);
	for (i = 0; i < threads; i++) {
		args[i] = (struct client_args) { port, msg, per_thread, i, &warm, res };
		if (pthread_create(&tid[i], NULL, client_thread, &args[i]))
			die("pthread_create", -1);
	}
	for (i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	res->t1 = now_ns();
}

/*
 * The "Rescheduling interrupts" count of one CPU from /proc/interrupts
 * (its header names the CPUs, its rows give one count per CPU); -1 when
 * there is no such row (another architecture's naming, or no procfs).
 */
static long long resched_interrupts(int cpu)
{
	char line[4096], want[32];
	long long count = -1;
	int column = -1, i;
	FILE *f = fopen("/proc/interrupts", "r");

	if (!f)
		return -1;
	snprintf(want, sizeof(want), "CPU%d", cpu);
	if (fgets(line, sizeof(line), f)) {
		char *save = NULL, *tok = strtok_r(line, " \t\n", &save);

		for (i = 0; tok; i++, tok = strtok_r(NULL, " \t\n", &save))
			if (!strcmp(tok, want))
				column = i;
	}
	while (column >= 0 && count < 0 && fgets(line, sizeof(line), f)) {
		char *p = strchr(line, ':');

		if (!p || !strstr(p, "Rescheduling interrupts"))
			continue;
		p++;
		for (i = 0; i <= column; i++)
			count = strtoll(p, &p, 10);
	}
	fclose(f);
	return count;
}

struct server_conn {
	int fd;
	unsigned got;
	char *in, *out;
};

struct server {
	struct io_uring ring;
	struct server_conn *conns;
	unsigned msg, open_conns, syscalls;
	long long served;	/* full requests answered */
};

static void queue_recv(struct server *s, unsigned i)
{
	struct server_conn *c = &s->conns[i];
	struct io_uring_sqe *sqe = io_uring_get_sqe(&s->ring);

	io_uring_prep_recv(sqe, c->fd, c->in + c->got, s->msg - c->got, 0);
	io_uring_sqe_set_data64(sqe, tag(i, KIND_RECV));
}

/* A full request: the per-request system calls, then the response and the next recv. */
static void answer(struct server *s, unsigned i)
{
	struct server_conn *c = &s->conns[i];
	struct io_uring_sqe *sqe;
	unsigned k;

	for (k = 0; k < s->syscalls; k++)
		syscall(SYS_getpid);
	memcpy(c->out, c->in, s->msg);
	sqe = io_uring_get_sqe(&s->ring);
	io_uring_prep_send(sqe, c->fd, c->out, s->msg, 0);
	io_uring_sqe_set_data64(sqe, tag(i, KIND_SEND));
	c->got = 0;
	queue_recv(s, i);
	s->served++;
}

/* Serves until <stop_at> requests were answered or every client closed. */
static void serve(struct server *s, long long stop_at)
{
	while (s->open_conns && s->served < stop_at) {
		struct io_uring_cqe *cqe;
		unsigned head, seen = 0;
		int ret = io_uring_submit_and_wait(&s->ring, 1);

		if (ret < 0)
			die("server io_uring_submit_and_wait", ret);
		io_uring_for_each_cqe(&s->ring, head, cqe) {
			unsigned conn = (unsigned) (cqe->user_data >> 1);

			if (s->served >= stop_at)
				break;
			seen++;
			if ((cqe->user_data & 1) == KIND_SEND) {
				if (cqe->res != (int) s->msg)
					die("server send", cqe->res < 0 ? cqe->res : -5);
				continue;
			}
			if (cqe->res < 0)
				die("server recv", cqe->res);
			if (cqe->res == 0) {
				close(s->conns[conn].fd);
				s->open_conns--;
				continue;
			}
			s->conns[conn].got += (unsigned) cqe->res;
			if (s->conns[conn].got < s->msg)
				queue_recv(s, conn);
			else
				answer(s, conn);
		}
		io_uring_cq_advance(&s->ring, seen);
	}
}

static BENCH_NOINLINE void bench_run(struct server *s)
{
	serve(s, LLONG_MAX);
}

int main(int argc, char **argv)
{
	unsigned threads = (unsigned) arg_int(argc, argv, "threads", 16);
	unsigned syscalls = (unsigned) arg_int(argc, argv, "syscalls", 0);
	long long n = arg_int(argc, argv, "n", 20000);
	const char *flavour = arg_str(argc, argv, "ring", "default");
	unsigned msg = (unsigned) arg_int(argc, argv, "msg", 2048);
	int pin = (int) arg_int(argc, argv, "pin", 0);
	int server_cpu = -1, client_cpu = -1;
	long long per_thread, ops, i;
	struct client_results *res;
	struct server s = { 0 };
	struct lat_samples lat;
	unsigned short port;
	int listen_fd, status;
	size_t res_size;
	long long resched;
	char extra[160];
	int len;
	pid_t pid;

	if (!threads || threads > MAX_THREADS || n < threads || !msg || msg > MAX_MSG ||
	    syscalls > 100000) {
		fprintf(stderr, "usage: %s threads=N syscalls=N n=N ring=default|coop|defer "
			"[msg=2048] [pin=0|1]\n", argv[0]);
		return 2;
	}
	ring_flavour_flags(flavour); /* validates the name before forking */
	if (pin)
		pin_cpus(&server_cpu, &client_cpu);
	per_thread = n / threads;
	ops = per_thread * threads;
	res_size = sizeof(*res) + (size_t) ops * sizeof(res->lat[0]);
	res = mmap(NULL, res_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (res == MAP_FAILED)
		die("mmap", -1);
	listen_fd = loopback_listen(&port);
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		die("fork", -1);
	if (pid == 0) {
		close(listen_fd);
		if (client_cpu >= 0)
			pin_to(client_cpu);
		run_clients(port, threads, msg, per_thread, res);
		_exit(0);
	}

	if (server_cpu >= 0)
		pin_to(server_cpu);
	s.conns = calloc(threads, sizeof(*s.conns));
	if (!s.conns)
		die("calloc", -12);
	for (i = 0; i < threads; i++) {
		s.conns[i].fd = loopback_accept(listen_fd);
		s.conns[i].in = calloc(2, msg);
		if (!s.conns[i].in)
			die("calloc", -12);
		s.conns[i].out = s.conns[i].in + msg;
	}
	close(listen_fd);
	s.msg = msg;
	s.syscalls = syscalls;
	s.open_conns = threads;
	/* room for one recv and one send per connection, twice over */
	ring_init_flavour(&s.ring, 4 * threads, flavour);
	for (i = 0; i < threads; i++)
		queue_recv(&s, (unsigned) i);
	/* the clients' warm-up requests all come before any measured one */
	serve(&s, (long long) threads * WARMUP_PER_THREAD);
	resched = server_cpu >= 0 ? resched_interrupts(server_cpu) : -1;
	bench_phase_mark();
	bench_run(&s);
	bench_phase_mark();
	if (resched >= 0) {
		long long after = resched_interrupts(server_cpu);

		resched = after >= resched ? after - resched : -1;
	}
	io_uring_queue_exit(&s.ring);
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status))
		die("client threads", -5);
	if (s.served != ops + (long long) threads * WARMUP_PER_THREAD)
		die("requests served", -5);
	lat_init(&lat, (size_t) ops);
	for (i = 0; i < ops; i++)
		lat_add(&lat, res->lat[i]);
	len = snprintf(extra, sizeof(extra), "threads=%u syscalls=%u msg=%u ring=%s pin=%d",
		       threads, syscalls, msg, flavour, server_cpu >= 0);
	if (resched >= 0)
		snprintf(extra + len, sizeof(extra) - (size_t) len, " server_resched_per_op=%.3f",
			 (double) resched / (double) ops);
	report(ops, res->t1 - res->t0, &lat, extra);
	return 0;
}
