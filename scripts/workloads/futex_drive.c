// SPDX-License-Identifier: GPL-2.0
/*
 * futex_drive - drive the futex operations that the kernel's futex selftests
 * and "perf bench futex" never reach, for futex-fault campaigns.
 *
 * It does not check results: under fault injection any call may fail.  It
 * only has to reach the code, terminate, and say what it saw.  Each scenario
 * runs under a watchdog so that a lost wake-up cannot hang the campaign.
 *
 * Built twice by scripts/workloads/Makefile: 64-bit, and -m32 for the compat
 * entry points (32-bit robust lists, get_robust_list, futex_time32).
 *
 *   futex_drive [scenario...]     default: all of them
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef FUTEX_LOCK_PI2
#define FUTEX_LOCK_PI2		13
#endif
#ifndef __NR_futex_waitv
#define __NR_futex_waitv	449
#endif
#ifndef FUTEX_32
#define FUTEX_32		2
#endif

#define WATCHDOG_SECONDS	20

struct waitv {
	uint64_t val;
	uint64_t uaddr;
	uint32_t flags;
	uint32_t reserved;
};

/* the kernel's struct timespec for SYS_futex on this ABI */
struct ktimespec {
	long tv_sec;
	long tv_nsec;
};

/* struct __kernel_timespec, what futex_waitv() takes on every ABI */
struct ktimespec64 {
	int64_t tv_sec;
	int64_t tv_nsec;
};

static void now64(int clock, struct ktimespec64 *t, int add_sec)
{
	struct timespec now;

	clock_gettime(clock, &now);
	t->tv_sec = now.tv_sec + add_sec;
	t->tv_nsec = now.tv_nsec;
}

/* An absolute timeout @ms from now on @clock, for FUTEX_LOCK_PI and friends. */
static void deadline(int clock, struct ktimespec *t, int ms)
{
	struct timespec now;

	clock_gettime(clock, &now);
	t->tv_sec = now.tv_sec + ms / 1000;
	t->tv_nsec = now.tv_nsec + (ms % 1000) * 1000000L;
	if (t->tv_nsec >= 1000000000L) {
		t->tv_sec++;
		t->tv_nsec -= 1000000000L;
	}
}

static int calls, errors;

static long futex(uint32_t *uaddr, int op, uint32_t val, const void *timeout,
		  uint32_t *uaddr2, uint32_t val3)
{
	long ret = syscall(SYS_futex, uaddr, op, val, timeout, uaddr2, val3);

	calls++;
	if (ret < 0)
		errors++;
	return ret;
}

static pid_t gettid_(void)
{
	return syscall(SYS_gettid);
}

/* Memory for futexes: private anonymous, shared anonymous. */
static uint32_t *map_words(int shared)
{
	void *p = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
		       (shared ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED) {
		perror("futex_drive: mmap");
		exit(2);
	}
	return p;
}

static void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* ------------------------------------------------------------ scenarios */

static void *waiter(void *arg)
{
	uint32_t *f = arg;
	struct ktimespec to = { 0, 50000000 };

	futex(f, FUTEX_WAIT, 0, &to, NULL, 0);
	return NULL;
}

/* FUTEX_WAKE_OP: every op and comparison, private and shared, with waiters. */
static void s_wake_op(void)
{
	int shared, op, cmp;

	for (shared = 0; shared < 2; shared++) {
		uint32_t *f = map_words(shared);
		int priv = shared ? 0 : FUTEX_PRIVATE_FLAG;

		for (op = FUTEX_OP_SET; op <= FUTEX_OP_XOR; op++) {
			for (cmp = FUTEX_OP_CMP_EQ; cmp <= FUTEX_OP_CMP_GE; cmp++) {
				pthread_t t;

				f[0] = 0;
				pthread_create(&t, NULL, waiter, &f[0]);
				msleep(5);
				futex(&f[0], FUTEX_WAKE_OP | priv, 1, (void *)1L, &f[1],
				      FUTEX_OP(op, 1, cmp, 0));
				futex(&f[0], FUTEX_WAKE | priv, 1, NULL, NULL, 0);
				pthread_join(t, NULL);
			}
		}
		munmap(f, 4096);
	}
}

/* FUTEX_WAKE_OP with an operation, then a comparison, the kernel does not know: ENOSYS. */
static void s_wake_op_bad(void)
{
	uint32_t *f = map_words(0);

	/* fault the page in: ENOSYS should be the only error on the way */
	f[0] = f[1] = 0;
	futex(&f[0], FUTEX_WAKE_OP | FUTEX_PRIVATE_FLAG, 1, (void *)1L, &f[1],
	      FUTEX_OP(7, 1, FUTEX_OP_CMP_EQ, 0));
	futex(&f[0], FUTEX_WAKE_OP | FUTEX_PRIVATE_FLAG, 1, (void *)1L, &f[1],
	      FUTEX_OP(FUTEX_OP_SET, 1, 15, 0));
	munmap(f, 4096);
}

/* A robust mutex left locked by a thread that exits. */
static void *robust_owner(void *arg)
{
	pthread_mutex_t *m = arg;

	pthread_mutex_lock(m);
	return NULL;	/* exits holding it: the kernel marks it OWNER_DIED */
}

static void robust_once(int protocol, int pshared)
{
	pthread_mutexattr_t a;
	pthread_mutex_t *m;
	pthread_t t;
	int ret;

	m = (pthread_mutex_t *)map_words(pshared);
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutexattr_setprotocol(&a, protocol);
	if (pshared)
		pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
	pthread_mutex_init(m, &a);

	pthread_create(&t, NULL, robust_owner, m);
	pthread_join(t, NULL);
	ret = pthread_mutex_lock(m);
	if (ret == EOWNERDEAD)
		pthread_mutex_consistent(m);
	if (ret == 0 || ret == EOWNERDEAD)
		pthread_mutex_unlock(m);
	munmap(m, 4096);
}

/* Robust and robust-PI mutexes held at exit, with a waiter blocked on one. */
static void *robust_waiter(void *arg)
{
	pthread_mutex_t *m = arg;
	int ret = pthread_mutex_lock(m);

	if (ret == EOWNERDEAD)
		pthread_mutex_consistent(m);
	if (ret == 0 || ret == EOWNERDEAD)
		pthread_mutex_unlock(m);
	return NULL;
}

static void *robust_owner_slow(void *arg)
{
	pthread_mutex_t *m = arg;

	pthread_mutex_lock(m);
	msleep(30);
	return NULL;
}

static void s_robust(void)
{
	int i;

	for (i = 0; i < 4; i++) {
		robust_once(PTHREAD_PRIO_NONE, i & 1);
		robust_once(PTHREAD_PRIO_INHERIT, i & 1);
	}

	/* a waiter in the kernel when the owner dies: FUTEX_WAITERS set */
	for (i = 0; i < 2; i++) {
		pthread_mutexattr_t a;
		pthread_mutex_t *m = (pthread_mutex_t *)map_words(0);
		pthread_t o, w;

		pthread_mutexattr_init(&a);
		pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
		pthread_mutexattr_setprotocol(&a, i ? PTHREAD_PRIO_INHERIT : PTHREAD_PRIO_NONE);
		pthread_mutex_init(m, &a);
		pthread_create(&o, NULL, robust_owner_slow, m);
		msleep(5);
		pthread_create(&w, NULL, robust_waiter, m);
		pthread_join(o, NULL);
		pthread_join(w, NULL);
		munmap(m, 4096);
	}

	/* a child process exiting with robust locks in shared memory */
	for (i = 0; i < 2; i++) {
		pthread_mutexattr_t a;
		pthread_mutex_t *m = (pthread_mutex_t *)map_words(1);
		pid_t pid;
		int ret;

		pthread_mutexattr_init(&a);
		pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
		pthread_mutexattr_setpshared(&a, PTHREAD_PROCESS_SHARED);
		pthread_mutexattr_setprotocol(&a, i ? PTHREAD_PRIO_INHERIT : PTHREAD_PRIO_NONE);
		pthread_mutex_init(m, &a);
		pid = fork();
		if (pid == 0) {
			pthread_mutex_lock(m);
			_exit(0);
		}
		waitpid(pid, NULL, 0);
		ret = pthread_mutex_lock(m);
		if (ret == EOWNERDEAD)
			pthread_mutex_consistent(m);
		if (ret == 0 || ret == EOWNERDEAD)
			pthread_mutex_unlock(m);
		munmap(m, 4096);
	}
}

/* get_robust_list() of itself and of another task. */
static void s_get_robust_list(void)
{
	void *head;
	size_t len;
	int i;

	for (i = 0; i < 8; i++) {
		calls++;
		if (syscall(SYS_get_robust_list, 0, &head, &len))
			errors++;
		calls++;
		if (syscall(SYS_get_robust_list, getppid(), &head, &len))
			errors++;
	}
}

/* get_robust_list() refused: no such task (ESRCH), no right to look (EPERM). */
static void s_get_robust_list_err(void)
{
	void *head;
	size_t len;
	pid_t pid;
	int status;

	calls++;
	if (syscall(SYS_get_robust_list, 0x3ffffff0, &head, &len))	/* above pid_max */
		errors++;

	/* a child that gave up root (if it had it) may not read init's list */
	pid = fork();
	if (pid == 0) {
		if (setgid(65534) == 0 && setuid(65534) != 0)
			_exit(2);
		_exit(syscall(SYS_get_robust_list, 1, &head, &len) ? 1 : 0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0)
		return;
	calls++;
	if (WIFEXITED(status) && WEXITSTATUS(status) == 1)
		errors++;
}

/* PI locking: trylock, lock, lock with timeout, LOCK_PI2, unlock, contention. */
static uint32_t *pi_word;

static void *pi_contender(void *arg)
{
	uint32_t tid = gettid_();
	struct timespec now;
	struct ktimespec abs;
	int i;

	for (i = 0; i < 20; i++) {
		uint32_t zero = 0;

		if (__atomic_compare_exchange_n(pi_word, &zero, tid, 0,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED)) {
			msleep(1);
		} else {
			clock_gettime(CLOCK_REALTIME, &now);
			abs.tv_sec = now.tv_sec;
			abs.tv_nsec = now.tv_nsec;
			abs.tv_sec += 1;
			if (futex(pi_word, (i & 1) ? FUTEX_LOCK_PI :
				  FUTEX_LOCK_PI2 | FUTEX_CLOCK_REALTIME,
				  0, &abs, NULL, 0))
				continue;
		}
		if (!__atomic_compare_exchange_n(pi_word, &tid, 0, 0,
						 __ATOMIC_RELEASE, __ATOMIC_RELAXED)) {
			tid = gettid_();
			futex(pi_word, FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
		}
		tid = gettid_();
	}
	return NULL;
}

static void s_pi(void)
{
	uint32_t *f = map_words(0);
	uint32_t tid = gettid_();
	struct timespec now;
	struct ktimespec abs;
	pthread_t t[3];
	int i, shared;

	for (shared = 0; shared < 2; shared++) {
		int priv = shared ? 0 : FUTEX_PRIVATE_FLAG;
		uint32_t *w = shared ? map_words(1) : f;

		/* uncontended: trylock, lock, unlock in the kernel */
		*w = 0;
		futex(w, FUTEX_TRYLOCK_PI | priv, 0, NULL, NULL, 0);
		futex(w, FUTEX_UNLOCK_PI | priv, 0, NULL, NULL, 0);
		futex(w, FUTEX_LOCK_PI | priv, 0, NULL, NULL, 0);
		futex(w, FUTEX_LOCK_PI | priv, 0, NULL, NULL, 0);	/* EDEADLK */
		futex(w, FUTEX_UNLOCK_PI | priv, 0, NULL, NULL, 0);
		futex(w, FUTEX_LOCK_PI2 | priv, 0, NULL, NULL, 0);
		futex(w, FUTEX_UNLOCK_PI | priv, 0, NULL, NULL, 0);
		/* held by us: trylock fails, timed lock from here is EDEADLK */
		*w = tid;
		futex(w, FUTEX_TRYLOCK_PI | priv, 0, NULL, NULL, 0);
		clock_gettime(CLOCK_MONOTONIC, &now);
		abs.tv_sec = now.tv_sec;
		abs.tv_nsec = now.tv_nsec;
		futex(w, FUTEX_LOCK_PI2 | priv, 0, &abs, NULL, 0);
		*w = 0;
		/* owned by a dead tid: the kernel takes the exit-race path */
		*w = 0x3ffffff0;
		futex(w, FUTEX_TRYLOCK_PI | priv, 0, NULL, NULL, 0);
		futex(w, FUTEX_LOCK_PI | priv, 0, &abs, NULL, 0);
		*w = 0;
		if (shared)
			munmap(w, 4096);
	}

	/* contention: waiters with timeouts, handover in FUTEX_UNLOCK_PI */
	pi_word = f;
	*pi_word = 0;
	for (i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, pi_contender, NULL);
	for (i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	munmap(f, 4096);
}

/* Release a PI futex we hold: in user space if nobody waits, else in the kernel. */
static void pi_release(uint32_t *w, int priv)
{
	uint32_t tid = gettid_();

	if (!__atomic_compare_exchange_n(w, &tid, 0, 0, __ATOMIC_RELEASE, __ATOMIC_RELAXED))
		futex(w, FUTEX_UNLOCK_PI | priv, 0, NULL, NULL, 0);
}

/* Give a PI waiter (at most 1 s) to set FUTEX_WAITERS, i.e. to queue itself. */
static void wait_for_waiters(uint32_t *w)
{
	int i;

	for (i = 0; i < 1000 && !(__atomic_load_n(w, __ATOMIC_ACQUIRE) & FUTEX_WAITERS); i++)
		msleep(1);
	msleep(2);
}

static void *pi_trylocker(void *arg)
{
	futex(arg, FUTEX_TRYLOCK_PI | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0);
	return NULL;
}

/*
 * FUTEX_TRYLOCK_PI on a lock another live thread holds: the kernel attaches
 * PI state to the owner and queues, then the rt_mutex trylock fails
 * (EWOULDBLOCK).
 */
static void s_pi_trylock_busy(void)
{
	uint32_t *f = map_words(0);
	pthread_t t;

	*f = gettid_();		/* held by us, taken in user space */
	pthread_create(&t, NULL, pi_trylocker, f);
	pthread_join(t, NULL);
	pi_release(f, FUTEX_PRIVATE_FLAG);
	munmap(f, 4096);
}

/* A PI futex whose owner TID is a kernel thread: EPERM. */
static void s_pi_kthread(void)
{
	uint32_t *f = map_words(0);

	*f = 2;			/* kthreadd, in the initial pid namespace */
	futex(f, FUTEX_TRYLOCK_PI | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0);
	*f = 2;			/* the trylock set FUTEX_WAITERS */
	futex(f, FUTEX_LOCK_PI | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0);
	munmap(f, 4096);
}

static void *pi_waiter(void *arg)
{
	uint32_t *w = arg;
	struct ktimespec abs;

	deadline(CLOCK_REALTIME, &abs, 1000);
	if (futex(w, FUTEX_LOCK_PI | FUTEX_PRIVATE_FLAG, 0, &abs, NULL, 0) == 0)
		pi_release(w, FUTEX_PRIVATE_FLAG);
	return NULL;
}

/*
 * User space rewrote the owner TID of a PI futex while a waiter is queued in
 * the kernel: the next locker finds that the TID and the owner of the PI
 * state disagree (EINVAL).
 */
static void s_pi_bad_owner(void)
{
	uint32_t *f = map_words(0);
	uint32_t tid = gettid_();
	pthread_t t;

	*f = tid;
	pthread_create(&t, NULL, pi_waiter, f);
	wait_for_waiters(f);
	*f = 0x3ffffff0 | FUTEX_WAITERS;
	futex(f, FUTEX_TRYLOCK_PI | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0);
	*f = tid | FUTEX_WAITERS;
	pi_release(f, FUTEX_PRIVATE_FLAG);	/* hands it to the waiter */
	pthread_join(t, NULL);
	munmap(f, 4096);
}

/* Takes f[0], then blocks on f[1]. */
static void *pi_abba(void *arg)
{
	uint32_t *f = arg;
	uint32_t zero = 0;
	struct ktimespec abs;

	if (!__atomic_compare_exchange_n(&f[0], &zero, gettid_(), 0,
					 __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
		return NULL;
	deadline(CLOCK_REALTIME, &abs, 1000);
	if (futex(&f[1], FUTEX_LOCK_PI | FUTEX_PRIVATE_FLAG, 0, &abs, NULL, 0) == 0)
		pi_release(&f[1], FUTEX_PRIVATE_FLAG);
	pi_release(&f[0], FUTEX_PRIVATE_FLAG);
	return NULL;
}

/*
 * ABBA on two PI futexes: we hold f[1], a thread holds f[0] and waits for
 * f[1]; our lock of f[0] makes the rt_mutex chain walk find the cycle
 * (EDEADLK from the proxy lock).
 */
static void s_pi_deadlock(void)
{
	uint32_t *f = map_words(0);
	struct ktimespec abs;
	pthread_t t;

	f[1] = gettid_();
	pthread_create(&t, NULL, pi_abba, f);
	wait_for_waiters(&f[1]);
	deadline(CLOCK_REALTIME, &abs, 1000);
	if (futex(&f[0], FUTEX_LOCK_PI | FUTEX_PRIVATE_FLAG, 0, &abs, NULL, 0) == 0)
		pi_release(&f[0], FUTEX_PRIVATE_FLAG);
	pi_release(&f[1], FUTEX_PRIVATE_FLAG);
	pthread_join(t, NULL);
	munmap(f, 4096);
}

/* futex_waitv: good arrays, bad arrays, bad flags, timeouts, allocation. */
static void *waitv_waker(void *arg)
{
	uint32_t *f = arg;

	msleep(10);
	futex(&f[1], FUTEX_WAKE, 1, NULL, NULL, 0);
	futex(&f[1], FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, NULL, 0);
	return NULL;
}

static long waitv(struct waitv *v, unsigned int n, void *timeout, int clock)
{
	long ret = syscall(__NR_futex_waitv, v, n, 0, timeout, clock);

	calls++;
	if (ret < 0)
		errors++;
	return ret;
}

static void s_waitv(void)
{
	uint32_t *f = map_words(1);
	struct waitv v[4];
	struct ktimespec64 abs;
	pthread_t t;
	int i, k;

	for (k = 0; k < 4; k++) {
		for (i = 0; i < 4; i++) {
			v[i].uaddr = (uintptr_t)&f[i];
			v[i].val = 0;
			v[i].flags = FUTEX_32 | ((i & 1) ? 0 : FUTEX_PRIVATE_FLAG);
			v[i].reserved = 0;
		}
		memset(f, 0, 16);
		now64(CLOCK_MONOTONIC, &abs, 1);
		pthread_create(&t, NULL, waitv_waker, f);
		waitv(v, 4, &abs, CLOCK_MONOTONIC);
		pthread_join(t, NULL);

		/* already expired, realtime */
		now64(CLOCK_REALTIME, &abs, 0);
		waitv(v, 4, &abs, CLOCK_REALTIME);
		/* value mismatch: EAGAIN */
		f[2] = 1;
		waitv(v, 4, NULL, 0);
		f[2] = 0;
		/* bad array, bad address in an entry, bad flags, bad timeout */
		waitv((struct waitv *)16, 2, NULL, 0);
		v[3].uaddr = 16;
		waitv(v, 4, &abs, CLOCK_MONOTONIC);
		v[3].uaddr = (uintptr_t)&f[3];
		v[0].flags = 0x80000000u;
		waitv(v, 4, &abs, CLOCK_MONOTONIC);
		v[0].flags = FUTEX_32;
		waitv(v, 4, (void *)16, CLOCK_MONOTONIC);
	}
	munmap(f, 4096);
}

/* Timeouts on every timed op; bad timeout pointers. */
static void s_timeouts(void)
{
	uint32_t *f = map_words(0);
	struct ktimespec rel = { 0, 1000000 };
	struct timespec now;
	struct ktimespec abs;
	int i;

	for (i = 0; i < 4; i++) {
		futex(f, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 0, &rel, NULL, 0);
		futex(f, FUTEX_WAIT, 0, &rel, NULL, 0);
		clock_gettime(CLOCK_REALTIME, &now);
		abs.tv_sec = now.tv_sec;
		abs.tv_nsec = now.tv_nsec;
		futex(f, FUTEX_WAIT_BITSET | FUTEX_CLOCK_REALTIME, 0, &abs, NULL,
		      FUTEX_BITSET_MATCH_ANY);
		futex(f, FUTEX_WAIT_REQUEUE_PI | FUTEX_PRIVATE_FLAG, 0, &rel, f + 1, 0);
		futex(f, FUTEX_WAIT, 0, (void *)16, NULL, 0);	/* EFAULT */
		futex(f, FUTEX_WAIT, 1, &rel, NULL, 0);		/* EAGAIN */
		/* EAGAIN too: futex_wait_requeue_pi() leaves after its setup */
		futex(f, FUTEX_WAIT_REQUEUE_PI | FUTEX_PRIVATE_FLAG, 1, &rel, f + 1, 0);
	}
	munmap(f, 4096);
}

/* Requeue, plain and PI, on shared memory, with mismatched values. */
static void *requeue_waiter(void *arg)
{
	uint32_t *f = arg;
	struct ktimespec to = { 1, 0 };

	futex(&f[0], FUTEX_WAIT, 0, &to, NULL, 0);
	return NULL;
}

static void *requeue_pi_waiter(void *arg)
{
	uint32_t *f = arg;
	struct timespec now;
	struct ktimespec abs;

	clock_gettime(CLOCK_MONOTONIC, &now);
	abs.tv_sec = now.tv_sec + 1;
	abs.tv_nsec = now.tv_nsec;
	if (futex(&f[0], FUTEX_WAIT_REQUEUE_PI, 0, &abs, &f[1], 0) == 0)
		futex(&f[1], FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
	return NULL;
}

static void s_requeue(void)
{
	uint32_t *f = map_words(1);
	pthread_t t[2];
	int i, k;

	for (k = 0; k < 4; k++) {
		f[0] = f[1] = 0;
		for (i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, requeue_waiter, f);
		msleep(10);
		futex(&f[0], FUTEX_CMP_REQUEUE, 1, (void *)1L, &f[1], 0);
		futex(&f[0], FUTEX_CMP_REQUEUE, 1, (void *)1L, &f[1], 5); /* EAGAIN */
		futex(&f[0], FUTEX_REQUEUE, 0, (void *)1L, &f[1], 0);
		futex(&f[0], FUTEX_WAKE, 2, NULL, NULL, 0);
		futex(&f[1], FUTEX_WAKE, 2, NULL, NULL, 0);
		for (i = 0; i < 2; i++)
			pthread_join(t[i], NULL);

		/* requeue-PI with the target held, then free */
		f[0] = 0;
		f[1] = (k & 1) ? gettid_() : 0;
		for (i = 0; i < 2; i++)
			pthread_create(&t[i], NULL, requeue_pi_waiter, f);
		msleep(10);
		futex(&f[0], FUTEX_CMP_REQUEUE_PI, 1, (void *)2L, &f[1], 0);
		if (k & 1) {
			msleep(5);
			futex(&f[1], FUTEX_UNLOCK_PI, 0, NULL, NULL, 0);
		}
		for (i = 0; i < 2; i++)
			pthread_join(t[i], NULL);
	}
	munmap(f, 4096);
}

/*
 * A PI futex whose owner is exiting.  The owner, a child process, holds
 * pi[1] in user space and the robust futex "lock", on which we wait.  Its
 * robust list walk at exit wakes us while its futex state is EXITING; we run
 * SCHED_FIFO on the same CPU, so we take the CPU at the walk's next
 * cond_resched() and lock (or requeue a waiter to) pi[1].  The kernel finds
 * the owner exiting (EBUSY), waits for its exit to finish, retries and finds
 * it dead (ESRCH).
 */
struct owner_exiting {
	struct robust_list_head head;
	struct robust_list entry;	/* the owner's robust list: one entry */
	uint32_t lock;			/* its futex */
	uint32_t pi[2];			/* requeue source, PI futex the owner holds */
};

static pid_t requeue_waiter_tid;

static void *requeue_pi_waiter_tid(void *arg)
{
	__atomic_store_n(&requeue_waiter_tid, gettid_(), __ATOMIC_RELEASE);
	return requeue_pi_waiter(arg);
}

/*
 * Give thread *@tid of this process (at most 1 s) to go to sleep.  A fixed
 * delay is not enough: under TCG on a busy host, guest time passes while
 * the guest hardly runs.
 */
static void wait_for_sleep(pid_t *tid)
{
	char path[64], buf[256], *p;
	int i, fd, n;

	for (i = 0; i < 1000; i++, msleep(1)) {
		if (!__atomic_load_n(tid, __ATOMIC_ACQUIRE))
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%d/stat", *tid);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			return;
		buf[n] = 0;
		p = strrchr(buf, ')');
		if (p && !strncmp(p, ") S", 3))
			return;
	}
}

static void owner_exiting_once(int requeue)
{
	struct owner_exiting *x = (struct owner_exiting *)map_words(1);
	struct sched_param fifo = { .sched_priority = 1 }, other = { .sched_priority = 0 };
	struct ktimespec to = { 2, 0 };
	cpu_set_t all, one;
	pthread_t w;
	pid_t pid;
	int fd[2];
	char c = 0;

	x->head.list.next = &x->entry;
	x->head.futex_offset = offsetof(struct owner_exiting, lock) -
			       offsetof(struct owner_exiting, entry);
	x->head.list_op_pending = NULL;
	x->entry.next = &x->head.list;
	if (pipe(fd)) {
		munmap(x, 4096);
		return;
	}
	if (requeue) {
		requeue_waiter_tid = 0;
		pthread_create(&w, NULL, requeue_pi_waiter_tid, x->pi);
	}
	/* the child and we share one CPU, however many the machine has */
	sched_getaffinity(0, sizeof(all), &all);
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu() > 0 ? sched_getcpu() : 0, &one);
	sched_setaffinity(0, sizeof(one), &one);

	pid = fork();
	if (pid == 0) {
		if (read(fd[0], &c, 1) == 1)
			syscall(SYS_set_robust_list, &x->head, sizeof(x->head));
		_exit(0);
	}
	if (pid > 0) {
		x->lock = pid | FUTEX_WAITERS;
		x->pi[1] = pid;
		if (requeue)
			wait_for_sleep(&requeue_waiter_tid);	/* queued on pi[0] */
		sched_setscheduler(0, SCHED_FIFO, &fifo);	/* without it: wakeup preemption */
		if (write(fd[1], &c, 1) == 1)
			futex(&x->lock, FUTEX_WAIT, pid | FUTEX_WAITERS, &to, NULL, 0);
		if (requeue)
			futex(&x->pi[0], FUTEX_CMP_REQUEUE_PI, 1, (void *)1L, &x->pi[1], 0);
		else
			futex(&x->pi[1], FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0);
		sched_setscheduler(0, SCHED_OTHER, &other);
		waitpid(pid, NULL, 0);
	}
	sched_setaffinity(0, sizeof(all), &all);
	if (requeue) {
		/* free now: the waiter gets it and leaves */
		x->pi[1] = 0;
		futex(&x->pi[0], FUTEX_CMP_REQUEUE_PI, 1, (void *)1L, &x->pi[1], 0);
		pthread_join(w, NULL);
	}
	close(fd[0]);
	close(fd[1]);
	munmap(x, 4096);
}

static void s_pi_owner_exiting(void)
{
	owner_exiting_once(0);
	owner_exiting_once(1);
}

/* Shared futexes on a read-only private anonymous mapping and on a file. */
static void s_shared(void)
{
	uint32_t *ro = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uint32_t *rw = map_words(0);
	char path[] = "/tmp/futex_drive.XXXXXX";
	struct ktimespec rel = { 0, 100000 };
	int fd, i;

	for (i = 0; i < 4; i++) {
		futex(rw, FUTEX_WAKE, 1, NULL, NULL, 0);		/* shared on private anon */
		futex(rw, FUTEX_WAIT, 0, &rel, NULL, 0);
		if (ro != MAP_FAILED) {
			futex(ro, FUTEX_WAIT, 0, &rel, NULL, 0);	/* read-only: ro path */
			futex(ro, FUTEX_WAKE, 1, NULL, NULL, 0);
		}
		futex((uint32_t *)16, FUTEX_WAKE, 1, NULL, NULL, 0);	/* bad address */
	}
	fd = mkstemp(path);
	if (fd >= 0) {
		uint32_t *fm;

		unlink(path);
		if (ftruncate(fd, 4096) == 0) {
			fm = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
			if (fm != MAP_FAILED) {
				for (i = 0; i < 4; i++) {
					futex(fm, FUTEX_WAIT, 0, &rel, NULL, 0);
					futex(fm, FUTEX_WAKE, 1, NULL, NULL, 0);
				}
				munmap(fm, 4096);
			}
		}
		close(fd);
	}
	if (ro != MAP_FAILED)
		munmap(ro, 4096);
	munmap(rw, 4096);
}

/* ------------------------------------------------------------ races
 *
 * Error paths that open only when another CPU acts inside a window of a few
 * instructions, under a hash bucket lock.  They need several CPUs (FF_SMP=2
 * guests) and run only when named: they loop for RACE_MS, hitting their
 * sites some 10^5 times, which is no workload for a site run.  Under TCG's
 * round-robin vCPUs the windows open when one vCPU spins on the bucket lock
 * the other holds (a PAUSE hands the host thread over); windows without
 * such a lock (pi.c's uval re-reads) were not hit in 15 s of trying.
 */
#ifndef RACE_MS
#define RACE_MS		1500
#endif

static volatile int race_stop;

/* @a and @b in two threads, both looping until RACE_MS have passed. */
static void race(void *(*a)(void *), void *(*b)(void *), void *arg)
{
	pthread_t ta, tb;

	race_stop = 0;
	pthread_create(&ta, NULL, a, arg);
	pthread_create(&tb, NULL, b, arg);
	msleep(RACE_MS);
	race_stop = 1;
	pthread_join(ta, NULL);
	pthread_join(tb, NULL);
}

/* Takes the lock in user space, releases it with an unconditional UNLOCK_PI. */
static void *unlock_loop(void *arg)
{
	uint32_t *w = arg;
	uint32_t tid = gettid_();

	while (!race_stop) {
		uint32_t zero = 0;

		if (__atomic_compare_exchange_n(w, &zero, tid, 0, __ATOMIC_ACQUIRE,
						__ATOMIC_RELAXED))
			while (futex(w, FUTEX_UNLOCK_PI | FUTEX_PRIVATE_FLAG, 0, NULL, NULL, 0) &&
			       errno == EAGAIN)
				;
	}
	return NULL;
}

static void *lock_loop(void *arg)
{
	uint32_t *w = arg;
	struct ktimespec abs;

	while (!race_stop) {
		deadline(CLOCK_REALTIME, &abs, 100);
		if (futex(w, FUTEX_LOCK_PI | FUTEX_PRIVATE_FLAG, 0, &abs, NULL, 0) == 0)
			pi_release(w, FUTEX_PRIVATE_FLAG);
	}
	return NULL;
}

/*
 * A waiter sets FUTEX_WAITERS between UNLOCK_PI's get_user() and its hash
 * bucket lock: wake_futex_pi() finds the value changed (EAGAIN) and the
 * unlock is retried.
 */
static void s_race_unlock(void)
{
	uint32_t *f = map_words(0);

	*f = 0;
	race(unlock_loop, lock_loop, f);
	munmap(f, 4096);
}

static void *waitv_loop(void *arg)
{
	uint32_t *f = arg;
	struct waitv v[2] = {
		{ .val = 0, .uaddr = (uintptr_t)&f[0], .flags = FUTEX_32 | FUTEX_PRIVATE_FLAG },
		{ .val = 1, .uaddr = (uintptr_t)&f[1], .flags = FUTEX_32 | FUTEX_PRIVATE_FLAG },
	};

	while (!race_stop)
		waitv(v, 2, NULL, 0);	/* f[1] is 0: EAGAIN, unless f[0] was woken */
	return NULL;
}

static void *wake_loop(void *arg)
{
	while (!race_stop)
		futex(arg, FUTEX_WAKE | FUTEX_PRIVATE_FLAG, 1, NULL, NULL, 0);
	return NULL;
}

/* futex_waitv(): the first futex is woken while setup still queues the second. */
static void s_race_waitv(void)
{
	uint32_t *f = map_words(0);

	f[0] = f[1] = 0;
	race(waitv_loop, wake_loop, f);
	munmap(f, 4096);
}

static void *requeue_pi_timeout_loop(void *arg)
{
	uint32_t *f = arg;
	struct ktimespec abs;

	while (!race_stop) {
		deadline(CLOCK_MONOTONIC, &abs, 0);
		abs.tv_nsec += 20000;			/* times out after 20 us */
		if (abs.tv_nsec >= 1000000000L) {
			abs.tv_sec++;
			abs.tv_nsec -= 1000000000L;
		}
		if (futex(&f[0], FUTEX_WAIT_REQUEUE_PI | FUTEX_PRIVATE_FLAG, 0, &abs, &f[1], 0) == 0)
			pi_release(&f[1], FUTEX_PRIVATE_FLAG);
	}
	return NULL;
}

static void *requeue_pi_loop(void *arg)
{
	uint32_t *f = arg;

	while (!race_stop)
		futex(&f[0], FUTEX_CMP_REQUEUE_PI | FUTEX_PRIVATE_FLAG, 1, (void *)0L, &f[1], 0);
	return NULL;
}

/*
 * A requeue-PI waiter times out and marks itself to be ignored while the
 * requeuer already holds the hash bucket lock with it as top waiter (EAGAIN).
 */
static void s_race_requeue(void)
{
	uint32_t *f = map_words(0);

	f[0] = f[1] = 0;
	race(requeue_pi_timeout_loop, requeue_pi_loop, f);
	munmap(f, 4096);
}

struct scenario {
	const char *name;
	void (*fn)(void);
};

static const struct scenario scenarios[] = {
	{ "wake_op", s_wake_op },
	{ "wake_op_bad", s_wake_op_bad },
	{ "robust", s_robust },
	{ "get_robust_list", s_get_robust_list },
	{ "get_robust_list_err", s_get_robust_list_err },
	{ "pi", s_pi },
	{ "pi_trylock_busy", s_pi_trylock_busy },
	{ "pi_kthread", s_pi_kthread },
	{ "pi_bad_owner", s_pi_bad_owner },
	{ "pi_deadlock", s_pi_deadlock },
	{ "waitv", s_waitv },
	{ "timeouts", s_timeouts },
	{ "requeue", s_requeue },
	{ "pi_owner_exiting", s_pi_owner_exiting },
	{ "shared", s_shared },
};

/* Run only when named: they need several CPUs. */
static const struct scenario races[] = {
	{ "race_unlock", s_race_unlock },
	{ "race_waitv", s_race_waitv },
	{ "race_requeue", s_race_requeue },
};

#define NR_SCENARIOS	(sizeof(scenarios) / sizeof(scenarios[0]))
#define NR_RACES	(sizeof(races) / sizeof(races[0]))

static const struct scenario *find(const char *name)
{
	unsigned int i;

	for (i = 0; i < NR_SCENARIOS; i++)
		if (!strcmp(name, scenarios[i].name))
			return &scenarios[i];
	for (i = 0; i < NR_RACES; i++)
		if (!strcmp(name, races[i].name))
			return &races[i];
	return NULL;
}

/* Each scenario in a child, under a watchdog: one that hangs is killed. */
static int run(const struct scenario *s)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		perror("futex_drive: fork");
		return 1;
	}
	if (pid == 0) {
		alarm(WATCHDOG_SECONDS);
		s->fn();
		printf("futex_drive: %s: %d calls, %d failed\n", s->name, calls, errors);
		fflush(stdout);
		_exit(0);
	}
	if (waitpid(pid, &status, 0) < 0)
		return 1;
	if (WIFSIGNALED(status)) {
		printf("futex_drive: %s: killed by signal %d%s\n", s->name, WTERMSIG(status),
		       WTERMSIG(status) == SIGALRM ? " (watchdog)" : "");
		return 1;
	}
	return WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	unsigned int i;
	int bad = 0, a;

	if (argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))) {
		printf("usage: %s [scenario...]\nscenarios:", argv[0]);
		for (i = 0; i < NR_SCENARIOS; i++)
			printf(" %s", scenarios[i].name);
		printf("\nraces (only when named; several CPUs):");
		for (i = 0; i < NR_RACES; i++)
			printf(" %s", races[i].name);
		printf("\n");
		return 0;
	}
	if (argc == 1) {
		for (i = 0; i < NR_SCENARIOS; i++)
			bad |= run(&scenarios[i]);
		return bad;
	}
	for (a = 1; a < argc; a++) {
		const struct scenario *s = find(argv[a]);

		if (!s) {
			fprintf(stderr, "futex_drive: unknown scenario '%s' (see --help)\n", argv[a]);
			return 2;
		}
		bad |= run(s);
	}
	return bad;
}
