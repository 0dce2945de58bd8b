// SPDX-License-Identifier: GPL-2.0
/*
 * stress-flip: switch futex fault sites on and off and change the fail_futex
 * policy as fast as possible while futex workloads run, then check the
 * counters.
 *
 * The controller (the main thread) flips random sites, writes "all" now and
 * then, and changes probability, interval, times and ignore-private.  Worker
 * threads, the only tasks with make-it-fail set (task-filter is on), run a
 * mix of futex operations on shared and private futexes: WAIT, WAKE, WAKE_OP,
 * CMP_REQUEUE, LOCK_PI/TRYLOCK_PI/LOCK_PI2 and UNLOCK_PI, WAIT_REQUEUE_PI with
 * CMP_REQUEUE_PI, futex_waitv, get_robust_list, a read-only shared futex,
 * fail-nth, and children that exit holding a robust futex.  Every wait has a
 * timeout and every error is expected, so injected faults never hang them.
 * A trace reader counts the futex_fault_inject events per site.
 *
 * Afterwards: every key is off in the key files, "all" and the table;
 * injected <= hits for every site; each site's injected count equals its
 * number of trace events (unless the trace buffer overran); the workers
 * stopped.  The kernel log is checked by the runner (stress-flip.sh).
 *
 * Run as root in a guest whose kernel has CONFIG_FAIL_FUTEX.  Exit status 0
 * when every check passed, 1 when one failed, 2 on a usage or set-up error.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ffio.h"

#define FF_DEBUGFS	"/sys/kernel/debug"
#define FF_KEYS		FF_DEBUGFS "/static_keys/futex_fault"
#define FF_ATTR		FF_DEBUGFS "/fail_futex"
#define FF_SITES	FF_ATTR "/sites"
#define FF_RESET	FF_ATTR "/reset"
#define FF_EVENT	"events/futex_fault/futex_fault_inject/enable"

#define FF_MAX_SITES	128
#define FF_NAME_LEN	64
#define FF_MAX_WORKERS	16
#define FF_TRACE_KB	16384		/* trace buffer per CPU */
#define FF_JOIN_S	30		/* a worker that takes longer to stop hangs */
#define FF_UNLOCK_TRIES	10000

#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2	13
#endif
#ifndef SYS_futex_waitv
#define SYS_futex_waitv	449
#endif
#ifndef FUTEX_32
#define FUTEX_32	2
#endif

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

struct waitv {
	uint64_t val;
	uint64_t uaddr;
	uint32_t flags;
	uint32_t reserved;
};

/* ------------------------------------------------------------ the ops */

enum op {
	OP_WAIT_MISMATCH, OP_WAIT_TIMEOUT, OP_WAKE, OP_WAKE_OP, OP_REQUEUE, OP_LOCK_PI,
	OP_TRYLOCK_PI, OP_LOCK_PI2, OP_WAIT_REQUEUE_PI, OP_CMP_REQUEUE_PI, OP_WAITV,
	OP_GET_ROBUST, OP_WAIT_RO, OP_FAIL_NTH, OP_ROBUST_EXIT, NR_OPS
};

static const char * const op_name[NR_OPS] = {
	"wait-mismatch", "wait-timeout", "wake", "wake-op", "cmp-requeue", "lock-pi",
	"trylock-pi", "lock-pi2", "wait-requeue-pi", "cmp-requeue-pi", "waitv",
	"get-robust-list", "wait-ro-shared", "fail-nth", "robust-exit",
};

/* relative weights of the ops */
static const unsigned int op_weight[NR_OPS] = {
	8, 4, 8, 6, 4, 6, 4, 3, 3, 4, 5, 2, 2, 2, 1,
};

/* errno values counted per op; anything else is "other" */
static const int counted_err[] = { EFAULT, EAGAIN, ETIMEDOUT, ENOMEM, EDEADLK, EPERM, EINVAL,
				   ESRCH, EINTR, EBUSY, EOWNERDEAD };
#define NR_ERR	(ARRAY_SIZE(counted_err) + 2)	/* + success + other */

/* The futexes, in one page shared by the workers (and forked children) */
struct arena {
	uint32_t word[4];		/* WAIT/WAKE/WAKE_OP/CMP_REQUEUE */
	uint32_t pi[3];			/* LOCK_PI and friends */
	uint32_t rq_src;		/* WAIT_REQUEUE_PI source */
	uint32_t rq_pi;			/* ... and its PI target */
	struct {
		struct robust_entry {
			struct robust_entry *next;
		} list;
		uint32_t lock;
	} robust[FF_MAX_WORKERS];
};

struct robust_head {
	struct robust_entry list;
	long futex_offset;
	struct robust_entry *list_op_pending;
};

struct worker {
	int id;
	pthread_t th;
	pid_t tid;
	uint64_t rng;
	unsigned long ops[NR_OPS];
	unsigned long err[NR_OPS][NR_ERR];
	unsigned long owned;		/* PI futexes acquired */
	unsigned long stuck;		/* unlocks that never succeeded */
	unsigned long robust_died;	/* robust-exit: OWNER_DIED set by the kernel */
	unsigned long robust_left;	/* robust-exit: left locked (a failed walk) */
	int nth_fd;			/* /proc/thread-self/fail-nth */
	bool done;
};

struct stress {
	uint64_t seed;
	double seconds;
	unsigned int nworkers;
	bool trace;
	bool verbose;

	/*
	 * The futexes.  Each page is used with one kind of futex op only, so
	 * that no futex word is ever both private and shared.
	 */
	struct arena *shm;		/* MAP_SHARED, shared ops: keyed by the shmem inode */
	struct arena *anon;		/* MAP_PRIVATE, shared ops: keyed by the mm */
	struct arena *priv;		/* MAP_PRIVATE, FUTEX_PRIVATE_FLAG ops */
	uint32_t *ro;			/* a read-only anonymous page */
	struct worker w[FF_MAX_WORKERS];
	volatile int stop;

	int nr_sites;
	char site[FF_MAX_SITES][FF_NAME_LEN];
	bool on[FF_MAX_SITES];

	/* the controller's figures */
	unsigned long flips, all_writes, policy, checks;

	/* tracing */
	char inst[256];
	pthread_t tracer;
	volatile int trace_stop;
	unsigned long events[FF_MAX_SITES];
	unsigned long events_other;
	unsigned long trace_bytes;

	unsigned long failures;
	char saved[8][32];
};

static struct stress S;

static const char * const policy_knobs[] = {
	"probability", "interval", "times", "space", "verbose", "task-filter", "ignore-private",
	"verbose_ratelimit_burst",
};

/* --------------------------------------------------------------- misc */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static uint64_t rnd64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

static unsigned int below(uint64_t *s, unsigned int n)
{
	return n ? rnd64(s) % n : 0;
}

static void fail(const char *fmt, ...)
{
	va_list ap;

	S.failures++;
	fprintf(stderr, "FAIL: ");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* A write the controller makes: it must succeed */
static void must_write(const char *path, const char *val)
{
	int ret = write_str(path, val);

	if (ret)
		fail("write %s to %s: %s", val, path, strerror(-ret));
}

static void set_knob(const char *knob, const char *val)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), FF_ATTR "/%s", knob);
	must_write(path, val);
}

static long read_num(const char *path)
{
	char buf[64], *end;
	long v;

	if (read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	v = strtol(buf, &end, 10);
	if (end == buf || *end != '\n')
		return -1;
	return v;
}

/* ------------------------------------------------------------ the table */

struct row {
	char name[FF_NAME_LEN];
	int enabled;
	long hits, injected;
};

/*
 * The columns are found by the names of the "# name ..." header, so that
 * both site tables read: "# name file line function errno enabled hits
 * injected" (series v1) and "# name errno enabled hits injected call_site".
 */
static int read_table(struct row *r, int max)
{
	static const char * const want[] = { "name", "enabled", "hits", "injected" };
	static char buf[64 * 1024];
	int col[4] = { -1, -1, -1, -1 };
	char *line, *save, *tok, *save2;
	int n = 0, i, c;

	if (read_file(FF_SITES, buf, sizeof(buf)) < 0)
		return -1;
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#') {
			c = 0;
			for (tok = strtok_r(line + 1, " \t", &save2); tok;
			     tok = strtok_r(NULL, " \t", &save2), c++)
				for (i = 0; i < 4; i++)
					if (!strcmp(tok, want[i]))
						col[i] = c;
			continue;
		}
		for (i = 0; i < 4; i++)
			if (col[i] < 0)
				return -1;
		if (n == max)
			return -1;
		c = 0;
		for (tok = strtok_r(line, " \t", &save2); tok;
		     tok = strtok_r(NULL, " \t", &save2), c++) {
			if (c == col[0])
				snprintf(r[n].name, sizeof(r[n].name), "%s", tok);
			else if (c == col[1])
				r[n].enabled = atoi(tok);
			else if (c == col[2])
				r[n].hits = atol(tok);
			else if (c == col[3])
				r[n].injected = atol(tok);
		}
		if (c <= col[0] || c <= col[1] || c <= col[2] || c <= col[3])
			return -1;
		n++;
	}
	return n;
}

static int site_index(const char *name, size_t len)
{
	int i;

	for (i = 0; i < S.nr_sites; i++) {
		if (strlen(S.site[i]) == len && !memcmp(S.site[i], name, len))
			return i;
	}
	return -1;
}

/* ------------------------------------------------------------ futexes */

static long sys_futex(uint32_t *uaddr, int op, uint32_t val, const void *ts_or_val2,
		      uint32_t *uaddr2, uint32_t val3)
{
	long ret = syscall(SYS_futex, uaddr, op, val, ts_or_val2, uaddr2, val3);

	return ret < 0 ? -errno : ret;
}

static struct timespec abs_in(clockid_t clock, long ns)
{
	struct timespec ts;

	clock_gettime(clock, &ts);
	ts.tv_nsec += ns;
	while (ts.tv_nsec >= 1000000000L) {
		ts.tv_nsec -= 1000000000L;
		ts.tv_sec++;
	}
	return ts;
}

static void count(struct worker *w, enum op op, long ret)
{
	unsigned int i;

	w->ops[op]++;
	if (ret >= 0) {
		w->err[op][0]++;
		return;
	}
	for (i = 0; i < ARRAY_SIZE(counted_err); i++) {
		if (-ret == counted_err[i]) {
			w->err[op][i + 1]++;
			return;
		}
	}
	w->err[op][NR_ERR - 1]++;
}

static bool owns(struct worker *w, uint32_t *pi)
{
	return (__atomic_load_n(pi, __ATOMIC_RELAXED) & FUTEX_TID_MASK) == (uint32_t)w->tid;
}

/*
 * Give back a PI futex this worker owns.  UNLOCK_PI may fail while a site
 * injects: try again; once the run stops nothing injects and it succeeds.
 */
static void unlock_pi(struct worker *w, uint32_t *pi, int priv)
{
	unsigned int tries;

	w->owned++;
	for (tries = 0; owns(w, pi) && tries < FF_UNLOCK_TRIES; tries++) {
		long ret = sys_futex(pi, FUTEX_UNLOCK_PI | priv, 0, NULL, NULL, 0);

		if (!ret)
			return;
		if (ret == -EPERM || ret == -EINVAL) {
			/* the kernel and the word disagree: take it back by hand */
			uint32_t v = w->tid;

			if (__atomic_compare_exchange_n(pi, &v, 0, false, __ATOMIC_SEQ_CST,
							__ATOMIC_SEQ_CST))
				return;
		}
		if (tries > 100)
			sched_yield();
	}
	if (owns(w, pi))
		w->stuck++;
}

/* A child that exits holding a robust futex: the kernel must mark it OWNER_DIED */
static void robust_exit(struct worker *w, struct arena *a)
{
	uint32_t *lock = &a->robust[w->id].lock;
	pid_t pid;
	int status;

	__atomic_store_n(lock, 0, __ATOMIC_SEQ_CST);
	/* the raw system call: no atfork handlers, nothing that waits on a futex */
	pid = syscall(SYS_fork);
	if (pid < 0) {
		count(w, OP_ROBUST_EXIT, -errno);
		return;
	}
	if (!pid) {
		struct robust_head head;
		pid_t me = syscall(SYS_gettid);

		head.list.next = &a->robust[w->id].list;
		a->robust[w->id].list.next = &head.list;
		head.futex_offset = offsetof(typeof(a->robust[0]), lock) -
				    offsetof(typeof(a->robust[0]), list);
		head.list_op_pending = (me & 1) ? &a->robust[w->id].list : NULL;
		syscall(SYS_set_robust_list, &head, sizeof(head));
		__atomic_store_n(lock, me, __ATOMIC_SEQ_CST);
		syscall(SYS_exit_group, 0);
	}
	if (waitpid(pid, &status, 0) != pid) {
		count(w, OP_ROBUST_EXIT, -errno);
		return;
	}
	if (__atomic_load_n(lock, __ATOMIC_SEQ_CST) & FUTEX_OWNER_DIED)
		w->robust_died++;
	else
		w->robust_left++;
	count(w, OP_ROBUST_EXIT, 0);
}

static enum op pick_op(struct worker *w)
{
	unsigned int total = 0, i, r;

	for (i = 0; i < NR_OPS; i++)
		total += op_weight[i];
	r = below(&w->rng, total);
	for (i = 0; i < NR_OPS; i++) {
		if (r < op_weight[i])
			return i;
		r -= op_weight[i];
	}
	return OP_WAKE;
}

static void one_op(struct worker *w)
{
	unsigned int which = below(&w->rng, 4);
	struct arena *a = which < 2 ? S.priv : which == 2 ? S.anon : S.shm;
	int priv = a == S.priv ? FUTEX_PRIVATE_FLAG : 0;
	uint32_t *f = &a->word[below(&w->rng, 4)];
	uint32_t *f2 = &a->word[below(&w->rng, 4)];
	uint32_t *pi = &a->pi[below(&w->rng, 3)];
	enum op op = pick_op(w);
	struct timespec ts;
	long ret = 0;

	switch (op) {
	case OP_WAIT_MISMATCH:
		ret = sys_futex(f, FUTEX_WAIT | priv, *f + 1, NULL, NULL, 0);
		break;
	case OP_WAIT_TIMEOUT:
		ts = (struct timespec){ .tv_nsec = 200000 };
		ret = sys_futex(f, FUTEX_WAIT | priv, *f, &ts, NULL, 0);
		break;
	case OP_WAKE:
		__atomic_fetch_add(f, 1, __ATOMIC_RELAXED);
		ret = sys_futex(f, FUTEX_WAKE | priv, INT_MAX, NULL, NULL, 0);
		break;
	case OP_WAKE_OP:
		if (f == f2)
			f2 = &a->word[(f - a->word + 1) % 4];
		ret = sys_futex(f, FUTEX_WAKE_OP | priv, 1, (void *)1UL, f2,
				FUTEX_OP(FUTEX_OP_ADD, 1, FUTEX_OP_CMP_GT, 0));
		break;
	case OP_REQUEUE:
		ret = sys_futex(f, FUTEX_CMP_REQUEUE | priv, 1, (void *)(long)INT_MAX, f2, *f);
		break;
	case OP_LOCK_PI:
		ts = abs_in(CLOCK_REALTIME, 1000000);
		ret = sys_futex(pi, FUTEX_LOCK_PI | priv, 0, &ts, NULL, 0);
		if (owns(w, pi))
			unlock_pi(w, pi, priv);
		break;
	case OP_TRYLOCK_PI:
		ret = sys_futex(pi, FUTEX_TRYLOCK_PI | priv, 0, NULL, NULL, 0);
		if (owns(w, pi))
			unlock_pi(w, pi, priv);
		break;
	case OP_LOCK_PI2:
		ts = abs_in(CLOCK_MONOTONIC, 1000000);
		ret = sys_futex(pi, FUTEX_LOCK_PI2 | priv, 0, &ts, NULL, 0);
		if (owns(w, pi))
			unlock_pi(w, pi, priv);
		break;
	case OP_WAIT_REQUEUE_PI:
		ts = abs_in(CLOCK_MONOTONIC, 2000000);
		ret = sys_futex(&a->rq_src, FUTEX_WAIT_REQUEUE_PI | priv, a->rq_src, &ts,
				&a->rq_pi, 0);
		if (owns(w, &a->rq_pi))
			unlock_pi(w, &a->rq_pi, priv);
		break;
	case OP_CMP_REQUEUE_PI:
		ret = sys_futex(&a->rq_src, FUTEX_CMP_REQUEUE_PI | priv, 1, (void *)1UL,
				&a->rq_pi, a->rq_src);
		/* a waiter requeued and woken may have made us... nobody: check anyway */
		if (owns(w, &a->rq_pi))
			unlock_pi(w, &a->rq_pi, priv);
		break;
	case OP_WAITV: {
		struct waitv wv[2] = {
			{ .val = *f, .uaddr = (uintptr_t)f, .flags = FUTEX_32 | priv },
			{ .val = *f2 + below(&w->rng, 2), .uaddr = (uintptr_t)f2,
			  .flags = FUTEX_32 | priv },
		};

		ts = abs_in(CLOCK_MONOTONIC, 200000);
		ret = syscall(SYS_futex_waitv, wv, f == f2 ? 1 : 2, 0, &ts, CLOCK_MONOTONIC);
		ret = ret < 0 ? -errno : ret;
		break;
	}
	case OP_GET_ROBUST: {
		void *head;
		size_t len;

		ret = syscall(SYS_get_robust_list, 0, &head, &len);
		ret = ret < 0 ? -errno : ret;
		break;
	}
	case OP_WAIT_RO:
		/* a shared futex on a read-only anonymous page: get_key_anon_ro */
		ret = sys_futex(S.ro, FUTEX_WAIT, 1, NULL, NULL, 0);
		break;
	case OP_FAIL_NTH: {
		char n[8];

		/* fail the 1st-3rd fault-injection point this thread reaches */
		snprintf(n, sizeof(n), "%u", 1 + below(&w->rng, 3));
		if (w->nth_fd >= 0 && pwrite(w->nth_fd, n, strlen(n), 0) < 0)
			ret = -errno;
		ret = sys_futex(f, FUTEX_WAIT | priv, *f + 1, NULL, NULL, 0);
		if (w->nth_fd >= 0 && pwrite(w->nth_fd, "0", 1, 0) < 0)
			ret = -errno;
		break;
	}
	case OP_ROBUST_EXIT:
		/* the child's lock must be visible to the parent: MAP_SHARED */
		robust_exit(w, S.shm);
		return;
	default:
		break;
	}
	count(w, op, ret);
}

static void *worker_main(void *arg)
{
	struct worker *w = arg;
	unsigned int i;

	w->tid = syscall(SYS_gettid);
	w->nth_fd = open("/proc/thread-self/fail-nth", O_WRONLY);
	/* task-filter is on: only the workers fail */
	if (write_str("/proc/thread-self/make-it-fail", "1"))
		fail("worker %d: cannot set make-it-fail", w->id);
	while (!S.stop)
		one_op(w);
	/*
	 * Stop failing before anything else: the exit of this thread wakes
	 * its joiner with a FUTEX_WAKE that must not fail.
	 */
	write_str("/proc/thread-self/make-it-fail", "0");
	for (i = 0; i < 3; i++) {
		struct arena *a = i == 0 ? S.priv : i == 1 ? S.anon : S.shm;
		unsigned int k;

		for (k = 0; k < 3; k++) {
			if (owns(w, &a->pi[k]))
				unlock_pi(w, &a->pi[k], a == S.priv ? FUTEX_PRIVATE_FLAG : 0);
		}
		if (owns(w, &a->rq_pi))
			unlock_pi(w, &a->rq_pi, a == S.priv ? FUTEX_PRIVATE_FLAG : 0);
	}
	if (w->nth_fd >= 0)
		close(w->nth_fd);
	__atomic_store_n(&w->done, true, __ATOMIC_SEQ_CST);
	return NULL;
}

/* -------------------------------------------------------------- tracing */

static const char *tracefs(void)
{
	if (!access("/sys/kernel/tracing/instances", F_OK))
		return "/sys/kernel/tracing";
	if (!access(FF_DEBUGFS "/tracing/instances", F_OK))
		return FF_DEBUGFS "/tracing";
	return NULL;
}

static void trace_line(const char *line, size_t len)
{
	const char *p = memmem(line, len, "futex_fault_inject: site=", 25);
	size_t n = 0;
	int i;

	if (!p)
		return;
	p += 25;
	while (p + n < line + len && p[n] != ' ')
		n++;
	i = site_index(p, n);
	if (i >= 0)
		S.events[i]++;
	else
		S.events_other++;
}

/* Count the events of our trace instance as they come */
static void *tracer_main(void *arg)
{
	static char buf[256 * 1024];
	char path[PATH_MAX];
	size_t have = 0;
	int fd, idle = 0;

	snprintf(path, sizeof(path), "%s/trace_pipe", S.inst);
	fd = open(path, O_RDONLY | O_NONBLOCK);
	if (fd < 0) {
		fail("open %s: %s", path, strerror(errno));
		return NULL;
	}
	for (;;) {
		ssize_t n = read(fd, buf + have, sizeof(buf) - 1 - have);
		char *start, *nl;

		if (n <= 0) {
			/* empty: done once the run has stopped and it stays empty */
			if (S.trace_stop && ++idle > 20)
				break;
			usleep(S.trace_stop ? 20000 : 2000);
			continue;
		}
		idle = 0;
		S.trace_bytes += n;
		have += n;
		start = buf;
		while ((nl = memchr(start, '\n', buf + have - start))) {
			trace_line(start, nl - start);
			start = nl + 1;
		}
		have = buf + have - start;
		memmove(buf, start, have);
		if (have == sizeof(buf) - 1)
			have = 0;	/* a line longer than the buffer: not ours */
	}
	close(fd);
	return NULL;
}

static int trace_start(void)
{
	const char *tfs = tracefs();
	char path[PATH_MAX], val[32];

	if (!tfs) {
		fprintf(stderr, "stress-flip: no tracefs, running without the event check\n");
		S.trace = false;
		return 0;
	}
	snprintf(S.inst, sizeof(S.inst), "%s/instances/stress_flip.%d", tfs, getpid());
	if (mkdir(S.inst, 0755)) {
		fprintf(stderr, "stress-flip: mkdir %s: %s\n", S.inst, strerror(errno));
		S.inst[0] = '\0';
		return -1;
	}
	snprintf(path, sizeof(path), "%s/buffer_size_kb", S.inst);
	snprintf(val, sizeof(val), "%d", FF_TRACE_KB);
	write_str(path, val);
	snprintf(path, sizeof(path), "%s/%s", S.inst, FF_EVENT);
	if (write_str(path, "1")) {
		fprintf(stderr, "stress-flip: cannot enable %s\n", path);
		return -1;
	}
	if (pthread_create(&S.tracer, NULL, tracer_main, NULL))
		return -1;
	return 0;
}

/* Events lost to a full buffer, from the per-CPU stats */
static long trace_lost(void)
{
	char path[PATH_MAX], buf[4096], *p;
	long lost = 0;
	int cpu;

	for (cpu = 0; cpu < 1024; cpu++) {
		snprintf(path, sizeof(path), "%s/per_cpu/cpu%d/stats", S.inst, cpu);
		if (read_file(path, buf, sizeof(buf)) < 0)
			break;
		p = strstr(buf, "overrun:");
		if (p)
			lost += strtol(p + 8, NULL, 10);
		p = strstr(buf, "dropped events:");
		if (p)
			lost += strtol(p + 15, NULL, 10);
	}
	return lost;
}

static void trace_stop(void)
{
	char path[PATH_MAX];

	if (!S.inst[0])
		return;
	S.trace_stop = 1;
	if (S.trace)
		pthread_join(S.tracer, NULL);
	snprintf(path, sizeof(path), "%s/%s", S.inst, FF_EVENT);
	write_str(path, "0");
}

static void trace_remove(void)
{
	if (S.inst[0] && rmdir(S.inst))
		fprintf(stderr, "stress-flip: rmdir %s: %s\n", S.inst, strerror(errno));
}

/* ---------------------------------------------------------- controller */

static void flip_site(int i, bool on)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), FF_KEYS "/%s", S.site[i]);
	must_write(path, on ? "1" : "0");
	S.on[i] = on;
	S.flips++;
}

static void write_all(bool on)
{
	int i;

	must_write(FF_KEYS "/all", on ? "1" : "0");
	for (i = 0; i < S.nr_sites; i++)
		S.on[i] = on;
	S.all_writes++;
}

static void change_policy(uint64_t *rng)
{
	static const char * const prob[] = { "0", "1", "5", "10", "25", "50", "100", "100" };
	static const char * const times[] = { "-1", "-1", "1", "10", "100", "10000" };
	char val[16];

	switch (below(rng, 8)) {
	case 0:
	case 1:
	case 2:
		set_knob("probability", prob[below(rng, ARRAY_SIZE(prob))]);
		break;
	case 3:
	case 4:
		snprintf(val, sizeof(val), "%u", 1 + below(rng, 8));
		set_knob("interval", val);
		break;
	case 5:
	case 6:
		set_knob("times", times[below(rng, ARRAY_SIZE(times))]);
		break;
	default:
		set_knob("ignore-private", below(rng, 2) ? "Y" : "N");
		break;
	}
	S.policy++;
}

/* The controller is the only writer of the keys: the kernel must agree with it */
static void check_keys(const char *when)
{
	static struct row r[FF_MAX_SITES];
	int i, n, on = 0;
	long all;

	n = read_table(r, FF_MAX_SITES);
	if (n != S.nr_sites) {
		fail("%s: site table unreadable (%d rows)", when, n);
		return;
	}
	for (i = 0; i < n; i++) {
		if (r[i].enabled != S.on[i])
			fail("%s: table says %s enabled=%d, last written %d", when, r[i].name,
			     r[i].enabled, S.on[i]);
		on += S.on[i];
	}
	all = read_num(FF_KEYS "/all");
	if (all != on)
		fail("%s: all reads %ld, %d sites are on", when, all, on);
	S.checks++;
}

static unsigned long worker_ops(void)
{
	unsigned long ops = 0;
	unsigned int k, i;

	for (k = 0; k < S.nworkers; k++) {
		for (i = 0; i < NR_OPS; i++)
			ops += S.w[k].ops[i];
	}
	return ops;
}

static void controller(double deadline)
{
	uint64_t rng = S.seed ^ 0xc0ffee;
	double t0 = now(), next = t0 + 10, t;

	while ((t = now()) < deadline) {
		unsigned int r = below(&rng, 100);

		/* progress: where a crash happened, in the console log */
		if (t >= next) {
			printf("progress: %3.0f s: %lu flips, %lu writes to all, %lu policy "
			       "changes, %lu futex ops\n", t - t0, S.flips, S.all_writes,
			       S.policy, worker_ops());
			next += 10;
		}

		if (r < 70) {
			int i = below(&rng, S.nr_sites);

			flip_site(i, !S.on[i]);
		} else if (r < 74) {
			write_all(below(&rng, 2));
		} else {
			change_policy(&rng);
		}
		if (!((S.flips + S.all_writes + S.policy) % 256))
			check_keys("during the run");
	}
}

/* ------------------------------------------------------------- set-up */

static int setup(void)
{
	static struct row r[FF_MAX_SITES];
	unsigned int i;
	long page = sysconf(_SC_PAGESIZE);
	char path[PATH_MAX];

	S.nr_sites = read_table(r, FF_MAX_SITES);
	if (S.nr_sites <= 0) {
		fprintf(stderr, "stress-flip: cannot parse %s\n", FF_SITES);
		return -1;
	}
	for (i = 0; i < (unsigned int)S.nr_sites; i++) {
		snprintf(S.site[i], sizeof(S.site[i]), "%.63s", r[i].name);
		S.on[i] = r[i].enabled;
	}
	for (i = 0; i < ARRAY_SIZE(policy_knobs); i++) {
		snprintf(path, sizeof(path), FF_ATTR "/%s", policy_knobs[i]);
		if (read_file(path, S.saved[i], sizeof(S.saved[i])) < 0) {
			fprintf(stderr, "stress-flip: cannot read %s\n", path);
			return -1;
		}
		S.saved[i][strcspn(S.saved[i], "\n")] = '\0';
	}

	S.shm = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	S.anon = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	S.priv = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	S.ro = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (S.shm == MAP_FAILED || S.anon == MAP_FAILED || S.priv == MAP_FAILED ||
	    S.ro == MAP_FAILED) {
		perror("stress-flip: mmap");
		return -1;
	}
	memset(S.shm, 0, sizeof(*S.shm));
	memset(S.anon, 0, sizeof(*S.anon));
	memset(S.priv, 0, sizeof(*S.priv));
	/* a real anonymous page (not the zero page), then read-only */
	*S.ro = 0;
	if (mprotect(S.ro, page, PROT_READ)) {
		perror("stress-flip: mprotect");
		return -1;
	}

	/* everything off and quiet, then the run's policy */
	write_all(false);
	S.all_writes = 0;
	set_knob("probability", "0");
	set_knob("verbose", "0");
	set_knob("task-filter", "Y");
	set_knob("interval", "1");
	set_knob("space", "0");
	set_knob("times", "-1");
	set_knob("ignore-private", "N");
	must_write(FF_RESET, "1");
	return S.failures ? -1 : 0;
}

static void restore(void)
{
	unsigned int i;
	char path[PATH_MAX];

	set_knob("probability", "0");
	for (i = 0; i < ARRAY_SIZE(policy_knobs); i++) {
		snprintf(path, sizeof(path), FF_ATTR "/%s", policy_knobs[i]);
		if (strcmp(policy_knobs[i], "probability"))
			write_str(path, S.saved[i]);
	}
	set_knob("probability", S.saved[0]);
}

/* ------------------------------------------------------------- results */

static void results(double secs, double stop_secs)
{
	static struct row r[FF_MAX_SITES];
	unsigned long ops = 0, per_op[NR_OPS] = { 0 }, err[NR_OPS][NR_ERR] = { { 0 } };
	unsigned long owned = 0, stuck = 0, died = 0, left = 0, injected = 0, events = 0;
	unsigned long hit_sites = 0, fired = 0;
	unsigned int i, k, e;
	long lost = S.trace ? trace_lost() : 0;
	char path[PATH_MAX];
	int n;

	for (k = 0; k < S.nworkers; k++) {
		struct worker *w = &S.w[k];

		for (i = 0; i < NR_OPS; i++) {
			per_op[i] += w->ops[i];
			ops += w->ops[i];
			for (e = 0; e < NR_ERR; e++)
				err[i][e] += w->err[i][e];
		}
		owned += w->owned;
		stuck += w->stuck;
		died += w->robust_died;
		left += w->robust_left;
	}

	printf("stress-flip: %.1f s, %u workers, seed %llu\n", secs, S.nworkers,
	       (unsigned long long)S.seed);
	printf("controller: %lu site flips (%.0f/s), %lu writes to all (%lu key switches), "
	       "%lu policy changes (%.0f/s), %lu consistency checks\n", S.flips, S.flips / secs,
	       S.all_writes, S.all_writes * S.nr_sites, S.policy, S.policy / secs, S.checks);
	printf("workers: %lu futex ops (%.0f/s), %lu PI locks taken and given back, %lu stuck; "
	       "stopped in %.2f s\n", ops, ops / secs, owned, stuck, stop_secs);
	printf("  %-16s %9s %8s", "op", "count", "ok");
	for (e = 0; e < ARRAY_SIZE(counted_err); e++)
		printf(" %7s", strerrorname_np(counted_err[e]) ?: "?");
	printf(" %7s\n", "other");
	for (i = 0; i < NR_OPS; i++) {
		printf("  %-16s %9lu", op_name[i], per_op[i]);
		for (e = 0; e < NR_ERR; e++)
			printf(e ? " %7lu" : " %8lu", err[i][e]);
		printf("\n");
	}
	printf("robust exits: %lu marked OWNER_DIED by the kernel, %lu left locked (walk failed)\n",
	       died, left);
	if (stuck)
		fail("%lu PI futexes could not be unlocked after the run", stuck);

	/* after the run: every key off, everywhere */
	n = read_table(r, FF_MAX_SITES);
	if (n != S.nr_sites) {
		fail("site table unreadable after the run");
		return;
	}
	for (i = 0; i < (unsigned int)n; i++) {
		long v;

		snprintf(path, sizeof(path), FF_KEYS "/%.63s", r[i].name);
		v = read_num(path);
		if (r[i].enabled || v != 0)
			fail("%s still on after all=0 (table %d, key file %ld)", r[i].name,
			     r[i].enabled, v);
		if (r[i].injected > r[i].hits)
			fail("%s: injected %ld > hits %ld", r[i].name, r[i].injected, r[i].hits);
		if (S.trace && !lost && (unsigned long)r[i].injected != S.events[i])
			fail("%s: injected %ld, but %lu trace events", r[i].name, r[i].injected,
			     S.events[i]);
		if (S.trace && lost && (unsigned long)r[i].injected < S.events[i])
			fail("%s: injected %ld < %lu trace events", r[i].name, r[i].injected,
			     S.events[i]);
		injected += r[i].injected;
		events += S.events[i];
		hit_sites += r[i].hits > 0;
		fired += r[i].injected > 0;
	}
	if (read_num(FF_KEYS "/all") != 0)
		fail("all reads %ld after all=0", read_num(FF_KEYS "/all"));
	if (S.events_other)
		fail("%lu trace events name no site of the table", S.events_other);

	printf("counters: %lu sites hit, %lu fired, %lu faults injected", hit_sites, fired,
	       injected);
	if (S.trace)
		printf(", %lu trace events (%lu kB read, %ld lost)", events,
		       S.trace_bytes / 1024, lost);
	printf("\n");
	if (S.verbose) {
		for (i = 0; i < (unsigned int)n; i++)
			printf("  %-28s hits %9ld injected %7ld events %7lu\n", r[i].name,
			       r[i].hits, r[i].injected, S.events[i]);
	}
	if (!ops)
		fail("the workers made no futex calls");
	if (!injected)
		fail("nothing was injected: the test did not test");
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-t SECONDS] [-w WORKERS] [-s SEED] [-N] [-v]\n"
		"  -t SECONDS  how long to flip (default 60)\n"
		"  -w WORKERS  futex worker threads (default 4, at most %d)\n"
		"  -s SEED     random seed (default: from the clock; printed)\n"
		"  -N          no tracing: skip the event count check\n"
		"  -v          the counters of every site\n", prog, FF_MAX_WORKERS);
	exit(2);
}

int main(int argc, char **argv)
{
	double t0, t1, t2;
	unsigned int i;
	int opt;

	S.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
	S.seconds = 60;
	S.nworkers = 4;
	S.trace = true;
	while ((opt = getopt(argc, argv, "t:w:s:Nv")) != -1) {
		switch (opt) {
		case 't':
			S.seconds = atof(optarg);
			break;
		case 'w':
			S.nworkers = atoi(optarg);
			break;
		case 's':
			S.seed = strtoull(optarg, NULL, 0);
			break;
		case 'N':
			S.trace = false;
			break;
		case 'v':
			S.verbose = true;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (optind != argc || S.seconds <= 0 || !S.nworkers || S.nworkers > FF_MAX_WORKERS)
		usage(argv[0]);
	if (!S.seed)
		S.seed = 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("stress-flip: seed %llu (-s %llu repeats the controller's choices), %.0f s, "
	       "%u workers\n", (unsigned long long)S.seed, (unsigned long long)S.seed, S.seconds,
	       S.nworkers);

	if (geteuid()) {
		fprintf(stderr, "stress-flip: needs root\n");
		return 2;
	}
	if (access(FF_KEYS, F_OK) || access(FF_SITES, F_OK)) {
		fprintf(stderr, "stress-flip: no %s: kernel without CONFIG_FAIL_FUTEX fault "
			"sites, or debugfs not mounted\n", FF_KEYS);
		return 2;
	}
	if (setup())
		return 2;
	if (S.trace && trace_start()) {
		trace_remove();
		return 2;
	}

	for (i = 0; i < S.nworkers; i++) {
		S.w[i].id = i;
		S.w[i].rng = (S.seed ^ ((uint64_t)(i + 1) << 40)) | 1;
		if (pthread_create(&S.w[i].th, NULL, worker_main, &S.w[i])) {
			fail("pthread_create: %s", strerror(errno));
			S.nworkers = i;
			break;
		}
	}

	t0 = now();
	controller(t0 + S.seconds);
	t1 = now();

	/* nothing injects any more, then the workers stop */
	set_knob("probability", "0");
	write_all(false);
	check_keys("after the run");
	S.stop = 1;
	for (i = 0; i < S.nworkers; i++) {
		struct timespec ts;

		clock_gettime(CLOCK_REALTIME, &ts);
		ts.tv_sec += FF_JOIN_S;
		if (pthread_timedjoin_np(S.w[i].th, NULL, &ts)) {
			fail("worker %u did not stop within %d s (hung in a futex call?)", i,
			     FF_JOIN_S);
			printf("stress-flip: FAIL (a worker hangs)\n");
			restore();
			fflush(NULL);
			_exit(1);
		}
	}
	t2 = now();
	trace_stop();

	results(t1 - t0, t2 - t1);
	trace_remove();
	restore();
	printf("stress-flip: seed %llu: %s (%lu failures)\n", (unsigned long long)S.seed,
	       S.failures ? "FAIL" : "PASS", S.failures);
	return S.failures ? 1 : 0;
}
