// SPDX-License-Identifier: GPL-2.0
/*
 * futex_drive - drive the futex operations that the kernel's futex selftests
 * and "perf bench futex" never reach, for futex-fault campaigns.
 *
 * Under fault injection any call may fail, so it does not take an error as
 * a failure: it has to reach the code, terminate, and say what it saw.  It
 * checks what no injected fault excuses: a scenario that hangs is killed by
 * its watchdog, and one that sees a result the futex contract forbids (a
 * lost wakeup) says so.
 *
 * Exit status: 0; with 1 set, a scenario was killed (its watchdog: it hung)
 * or could not run; 2, bad usage or set-up; with 4 set, a wrong result.
 *
 * Built twice by scripts/workloads/Makefile: 64-bit, and -m32 for the compat
 * entry points (32-bit robust lists, get_robust_list, futex_time32).  The
 * scenarios of newer kernels (futex2, io_uring: Linux 6.7) say so and return
 * on a kernel without them.
 *
 *   futex_drive [scenario...]     default: all of them
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <linux/io_uring.h>
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

/*
 * Systematic fault injection, as syzkaller does it (scripts/nth):
 * FUTEX_DRIVE_NTH=K:N arms /proc/thread-self/fail-nth with N before the
 * K-th futex call of the scenario's own thread, so that the N-th fault
 * site that call reaches fails, and says after the call whether it did
 * (the count is 0 then) and what the call returned.  K = 0 arms nothing
 * and only counts the calls, printed when the scenario ends.
 */
static int nth_k, nth_n, nth_seen;
static pid_t nth_tid;

static void nth_write(int n)
{
	char buf[16];
	int fd = open("/proc/thread-self/fail-nth", O_WRONLY), len;

	len = snprintf(buf, sizeof(buf), "%d", n);
	if (fd < 0 || write(fd, buf, len) != len) {
		perror("futex_drive: /proc/thread-self/fail-nth");
		_exit(3);
	}
	close(fd);
}

static int nth_arm(void)
{
	if (!nth_tid || syscall(SYS_gettid) != nth_tid)
		return 0;
	if (++nth_seen != nth_k)
		return 0;
	nth_write(nth_n);
	return 1;
}

static long nth_done(const char *what, long ret)
{
	int err = errno, fd, left = -1;
	char buf[16] = "";

	fd = open("/proc/thread-self/fail-nth", O_RDONLY);
	if (fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0)
		left = atoi(buf);
	if (fd >= 0)
		close(fd);
	nth_write(0);
	printf("futex_drive: nth: call %d %s nth %d: %s, returned %ld", nth_k, what, nth_n,
	       left == 0 ? "injected" : "not reached", ret);
	if (ret < 0)
		printf(" %s", strerrorname_np(err) ? strerrorname_np(err) : "?");
	printf("\n");
	fflush(stdout);
	errno = err;
	return ret;
}

/* a futex system call, armed when it is the K-th */
#define NTH(what, call) ({ int armed_ = nth_arm(); long r_ = (call); \
			   armed_ ? nth_done(what, r_) : r_; })

static long futex(uint32_t *uaddr, int op, uint32_t val, const void *timeout,
		  uint32_t *uaddr2, uint32_t val3)
{
	long ret = NTH("futex", syscall(SYS_futex, uaddr, op, val, timeout, uaddr2, val3));

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

/*
 * Give thread *@tid of this process (at most 1 s) to go to sleep, and say
 * whether it did.  A fixed delay is not enough: under TCG on a busy host,
 * guest time passes while the guest hardly runs.  @done (or NULL): set by
 * the thread when it no longer waits, which ends the wait at once.
 */
static int wait_for_sleep_or(pid_t *tid, int *done)
{
	char path[64], buf[256], *p;
	int i, fd, n;

	for (i = 0; i < 1000; i++, msleep(1)) {
		if (done && __atomic_load_n(done, __ATOMIC_ACQUIRE))
			return 0;
		if (!__atomic_load_n(tid, __ATOMIC_ACQUIRE))
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%d/stat", *tid);
		fd = open(path, O_RDONLY);
		if (fd < 0)
			return 0;
		n = read(fd, buf, sizeof(buf) - 1);
		close(fd);
		if (n <= 0)
			return 0;
		buf[n] = 0;
		p = strrchr(buf, ')');
		if (p && !strncmp(p, ") S", 3))
			return 1;
	}
	return 0;
}

static void wait_for_sleep(pid_t *tid)
{
	wait_for_sleep_or(tid, NULL);
}

/*
 * A result that the futex contract forbids, whatever was injected (a
 * wakeup lost, say): said, and the scenario exits with WRONG_RESULT.  An
 * injected error is not one: a scenario takes those as they come and exits
 * 0, so that a campaign can tell the two apart (futex-fault-report's
 * workload-failed).
 */
#define WRONG_RESULT	4
static int wrong;

static void wrong_result(const char *what)
{
	printf("futex_drive: wrong result: %s\n", what);
	fflush(stdout);
	wrong++;
}

/* ------------------------------------------------------------ scenarios */

/* a waiter of s_wake_op(): its tid once it runs, done when it no longer waits */
struct wake_op_waiter {
	uint32_t	*f;
	int		priv;
	pid_t		tid;
	int		done;
};

static void *wake_op_waiter(void *arg)
{
	struct wake_op_waiter *w = arg;
	struct ktimespec to = { 0, 200000000 };

	__atomic_store_n(&w->tid, gettid_(), __ATOMIC_RELEASE);
	futex(w->f, FUTEX_WAIT | w->priv, 0, &to, NULL, 0);
	__atomic_store_n(&w->done, 1, __ATOMIC_RELEASE);
	return NULL;
}

/*
 * FUTEX_WAKE_OP: every op and comparison, private and shared, with two
 * waiters on the first futex and nr_wake 2.  When both waiters are asleep
 * before the call, the call succeeds and a FUTEX_WAKE after it still finds
 * one of them, the call has lost a wakeup: that is a wrong result, whatever
 * faults it met on the way (the retry after a fault of the atomic op must
 * still wake them).  The waiters' timeout (200 ms) only bounds the case
 * where both wakes fail.
 */
static void s_wake_op(void)
{
	int shared, op, cmp, k;

	for (shared = 0; shared < 2; shared++) {
		uint32_t *f = map_words(shared);
		int priv = shared ? 0 : FUTEX_PRIVATE_FLAG;

		for (op = FUTEX_OP_SET; op <= FUTEX_OP_XOR; op++) {
			for (cmp = FUTEX_OP_CMP_EQ; cmp <= FUTEX_OP_CMP_GE; cmp++) {
				struct wake_op_waiter w[2];
				long woken, later;
				int asleep = 0;
				pthread_t t[2];

				f[0] = 0;
				for (k = 0; k < 2; k++) {
					w[k] = (struct wake_op_waiter){ .f = &f[0], .priv = priv };
					pthread_create(&t[k], NULL, wake_op_waiter, &w[k]);
				}
				for (k = 0; k < 2; k++)
					asleep += wait_for_sleep_or(&w[k].tid, &w[k].done);
				woken = futex(&f[0], FUTEX_WAKE_OP | priv, 2, (void *)1L, &f[1],
					      FUTEX_OP(op, 1, cmp, 0));
				later = futex(&f[0], FUTEX_WAKE | priv, 2, NULL, NULL, 0);
				for (k = 0; k < 2; k++)
					pthread_join(t[k], NULL);
				if (asleep == 2 && woken >= 0 && later > 0)
					wrong_result("FUTEX_WAKE_OP (nr_wake 2) left a waiter asleep on its first futex, which the FUTEX_WAKE after it woke");
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

/*
 * get_robust_list() of itself and of another task.  A call that succeeds
 * has stored the head and its length (both tasks have registered a list:
 * glibc does for every thread); one that returns 0 and left either as it
 * was has swallowed an error.
 */
static void get_robust_list_once(pid_t pid)
{
	void *head = (void *)-1L;
	size_t len = (size_t)-1;
	long ret;

	calls++;
	ret = NTH("get_robust_list", syscall(SYS_get_robust_list, pid, &head, &len));
	if (ret)
		errors++;
	else if (len != sizeof(struct robust_list_head) || head == (void *)-1L)
		wrong_result("get_robust_list() returned 0 but did not store the list's head and length");
}

static void s_get_robust_list(void)
{
	int i;

	for (i = 0; i < 8; i++) {
		get_robust_list_once(0);
		get_robust_list_once(getppid());
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
	if (NTH("get_robust_list", syscall(SYS_get_robust_list, 0x3ffffff0, &head, &len)))	/* above pid_max */
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

		/*
		 * Owned by a dead tid: the kernel sets FUTEX_WAITERS, then takes
		 * the exit-race path.  First, so that when a site of
		 * lock_pi_update_atomic() fails the first call that reaches it
		 * (and the retries after it), that is this caller, not the one
		 * taking a free lock below.
		 */
		clock_gettime(CLOCK_MONOTONIC, &now);
		abs.tv_sec = now.tv_sec;
		abs.tv_nsec = now.tv_nsec;
		*w = 0x3ffffff0;
		futex(w, FUTEX_TRYLOCK_PI | priv, 0, NULL, NULL, 0);
		futex(w, FUTEX_LOCK_PI | priv, 0, &abs, NULL, 0);

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
	long ret = NTH("futex_waitv", syscall(__NR_futex_waitv, v, n, 0, timeout, clock));

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

/* ------------------------------------------------------------ futex2 */

/* The futex2 system calls (Linux 6.7): the same numbers on every ABI. */
#define NR_futex_wake		454
#define NR_futex_wait		455
#define NR_futex_requeue	456
#define FUTEX2_SIZE_U8_		0x00
#define FUTEX2_NUMA_		0x04

static long sys_counted(long ret)
{
	calls++;
	if (ret < 0)
		errors++;
	return ret;
}

static long futex2_wake(uint32_t *f, uint64_t mask, int nr, unsigned int flags)
{
	return sys_counted(NTH("futex_wake", syscall(NR_futex_wake, f, (unsigned long)mask, nr, flags)));
}

static long futex2_wait(uint32_t *f, uint64_t val, uint64_t mask, unsigned int flags,
			const void *timeout, int clock)
{
	return sys_counted(NTH("futex_wait", syscall(NR_futex_wait, f, (unsigned long)val,
						    (unsigned long)mask, flags, timeout, clock)));
}

static long futex2_requeue(struct waitv *w, unsigned int flags, int nr_wake, int nr_requeue)
{
	return sys_counted(NTH("futex_requeue", syscall(NR_futex_requeue, w, flags, nr_wake, nr_requeue)));
}

static unsigned int futex2_flags;
static pid_t futex2_waiter_tid;

/* Waits on f[0] for at most 1 s, so that a lost wake-up cannot hang us. */
static void *futex2_waiter(void *arg)
{
	struct ktimespec64 abs;

	__atomic_store_n(&futex2_waiter_tid, gettid_(), __ATOMIC_RELEASE);
	now64(CLOCK_MONOTONIC, &abs, 1);
	futex2_wait(arg, 0, FUTEX_BITSET_MATCH_ANY, futex2_flags, &abs, CLOCK_MONOTONIC);
	return NULL;
}

/*
 * futex_wake(), futex_wait() and futex_requeue(), private and shared: wakes
 * with and without waiters, a requeue of a waiter, expired and bad timeouts,
 * and every argument they refuse.
 */
static void s_futex2(void)
{
	uint32_t *f = map_words(1);
	struct ktimespec64 abs;
	struct waitv w[2];
	pthread_t t;
	int i, priv;

	if (syscall(NR_futex_wake, f, 1UL, 0, FUTEX_32) < 0 && errno == ENOSYS) {
		printf("futex_drive: futex2: no futex_wake() in this kernel, skipped\n");
		return;
	}
	for (i = 0; i < 4; i++) {
		priv = i & 1;
		futex2_flags = FUTEX_32 | (priv ? FUTEX_PRIVATE_FLAG : 0);
		memset(f, 0, 16);

		/* a waiter woken by futex_wake() */
		futex2_waiter_tid = 0;
		pthread_create(&t, NULL, futex2_waiter, f);
		wait_for_sleep(&futex2_waiter_tid);
		futex2_wake(f, FUTEX_BITSET_MATCH_ANY, 1, futex2_flags);
		pthread_join(t, NULL);
		futex2_wake(f, FUTEX_BITSET_MATCH_ANY, 1, futex2_flags);	/* nobody */

		/* a waiter requeued from f[0] to f[1], then woken there */
		futex2_waiter_tid = 0;
		pthread_create(&t, NULL, futex2_waiter, f);
		wait_for_sleep(&futex2_waiter_tid);
		w[0] = (struct waitv){ .uaddr = (uintptr_t)&f[0], .flags = futex2_flags };
		w[1] = (struct waitv){ .uaddr = (uintptr_t)&f[1], .flags = futex2_flags };
		futex2_requeue(w, 0, 0, 1);
		futex2_wake(&f[1], FUTEX_BITSET_MATCH_ANY, 1, futex2_flags);
		futex2_wake(&f[0], FUTEX_BITSET_MATCH_ANY, 1, futex2_flags);
		pthread_join(t, NULL);

		/* value mismatch: EAGAIN, from futex_wait() and futex_requeue() */
		f[0] = 1;
		futex2_wait(f, 0, FUTEX_BITSET_MATCH_ANY, futex2_flags, NULL, 0);
		futex2_requeue(w, 0, 1, 1);
		f[0] = 0;

		/* expired timeouts on both clocks */
		now64(CLOCK_REALTIME, &abs, 0);
		futex2_wait(f, 0, FUTEX_BITSET_MATCH_ANY, futex2_flags, &abs, CLOCK_REALTIME);
		now64(CLOCK_MONOTONIC, &abs, 0);
		futex2_wait(f, 0, FUTEX_BITSET_MATCH_ANY, futex2_flags, &abs, CLOCK_MONOTONIC);

		/* EFAULT: the futex, the timeout, the waiter array, an entry's futex */
		futex2_wait((uint32_t *)16, 0, FUTEX_BITSET_MATCH_ANY, futex2_flags, NULL, 0);
		futex2_wake((uint32_t *)16, FUTEX_BITSET_MATCH_ANY, 1, futex2_flags);
		futex2_wait(f, 0, FUTEX_BITSET_MATCH_ANY, futex2_flags, (void *)16,
			    CLOCK_MONOTONIC);
		futex2_requeue((struct waitv *)16, 0, 1, 1);
		w[1].uaddr = 16;
		futex2_requeue(w, 0, 1, 1);
		w[1].uaddr = (uintptr_t)&f[1];

		/* EINVAL: flags, sizes, clock, mask, mixed flags, requeue flags */
		futex2_wake(f, FUTEX_BITSET_MATCH_ANY, 1, futex2_flags | 0x100);
		futex2_wake(f, FUTEX_BITSET_MATCH_ANY, 1, FUTEX2_SIZE_U8_);
		futex2_wake(f, FUTEX_BITSET_MATCH_ANY, 1, futex2_flags | FUTEX2_NUMA_);
		if (sizeof(long) == 8)	/* a value wider than the futex */
			futex2_wait(f, 1ULL << 40, FUTEX_BITSET_MATCH_ANY, futex2_flags, NULL, 0);
		futex2_wait(f, 0, 0, futex2_flags, NULL, 0);
		now64(CLOCK_MONOTONIC, &abs, 0);
		futex2_wait(f, 0, FUTEX_BITSET_MATCH_ANY, futex2_flags, &abs, CLOCK_BOOTTIME);
		w[1].flags = futex2_flags ^ FUTEX_PRIVATE_FLAG;
		futex2_requeue(w, 0, 1, 1);
		w[1].flags = futex2_flags;
		futex2_requeue(w, 1, 1, 1);
		futex2_requeue(NULL, 0, 1, 1);
	}
	munmap(f, 4096);
}

/* ------------------------------------------------------------ io_uring */

/*
 * The futex operations of io_uring (Linux 6.7) on a ring set up with the raw
 * system calls: Debian 12's headers know the ring but not these opcodes.
 */
#define IORING_OP_FUTEX_WAIT_	51
#define IORING_OP_FUTEX_WAKE_	52
#define IORING_OP_FUTEX_WAITV_	53

struct ring {
	int fd;
	void *sq, *cq;
	struct io_uring_sqe *sqes;
	size_t sq_size, cq_size, sqe_size;
	struct io_uring_params p;
	unsigned int tail;
	int last_res;
};

static int ring_init(struct ring *r, unsigned int entries)
{
	memset(r, 0, sizeof(*r));
	/* submit all of a batch even when an entry of it fails (Linux 5.18) */
	r->p.flags = IORING_SETUP_SUBMIT_ALL;
	r->fd = syscall(__NR_io_uring_setup, entries, &r->p);
	if (r->fd < 0)
		return -1;
	r->sq_size = r->p.sq_off.array + r->p.sq_entries * sizeof(unsigned int);
	r->cq_size = r->p.cq_off.cqes + r->p.cq_entries * sizeof(struct io_uring_cqe);
	r->sqe_size = r->p.sq_entries * sizeof(struct io_uring_sqe);
	r->sq = mmap(NULL, r->sq_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		     r->fd, IORING_OFF_SQ_RING);
	r->cq = mmap(NULL, r->cq_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		     r->fd, IORING_OFF_CQ_RING);
	r->sqes = mmap(NULL, r->sqe_size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
		       r->fd, IORING_OFF_SQES);
	if (r->sq == MAP_FAILED || r->cq == MAP_FAILED || r->sqes == MAP_FAILED) {
		perror("futex_drive: io_uring: mmap");
		exit(2);
	}
	r->tail = *(unsigned int *)(r->sq + r->p.sq_off.tail);
	return 0;
}

static void ring_exit(struct ring *r)
{
	munmap(r->sqes, r->sqe_size);
	munmap(r->cq, r->cq_size);
	munmap(r->sq, r->sq_size);
	close(r->fd);	/* cancels what still waits */
}

/* The next free entry, cleared, with @op, @addr and @user_data filled in. */
static struct io_uring_sqe *ring_sqe(struct ring *r, int op, const void *addr,
				     uint64_t user_data)
{
	unsigned int mask = *(unsigned int *)(r->sq + r->p.sq_off.ring_mask);
	unsigned int i = r->tail++ & mask;
	struct io_uring_sqe *sqe = &r->sqes[i];

	((unsigned int *)(r->sq + r->p.sq_off.array))[i] = i;
	memset(sqe, 0, sizeof(*sqe));
	sqe->opcode = op;
	sqe->addr = (uintptr_t)addr;
	sqe->user_data = user_data;
	return sqe;
}

/* Submit what ring_sqe() prepared; take the completions there already. */
static int ring_submit(struct ring *r, unsigned int n)
{
	__atomic_store_n((unsigned int *)(r->sq + r->p.sq_off.tail), r->tail,
			 __ATOMIC_RELEASE);
	return NTH("io_uring_enter",
		   syscall(__NR_io_uring_enter, r->fd, n, 0, IORING_ENTER_GETEVENTS, NULL, 0));
}

/* Count (and consume) the completions; each failed one is an error. */
static int ring_reap(struct ring *r)
{
	unsigned int *head = r->cq + r->p.cq_off.head;
	unsigned int mask = *(unsigned int *)(r->cq + r->p.cq_off.ring_mask);
	struct io_uring_cqe *cqes = r->cq + r->p.cq_off.cqes;
	unsigned int h = *head, n = 0;

	while (h != __atomic_load_n((unsigned int *)(r->cq + r->p.cq_off.tail),
				    __ATOMIC_ACQUIRE)) {
		r->last_res = cqes[h & mask].res;
		calls++;
		if (r->last_res < 0)
			errors++;
		h++;
		n++;
	}
	__atomic_store_n(head, h, __ATOMIC_RELEASE);
	return n;
}

/*
 * Wait up to about 200 ms for @want completions.  A wake-up that an injected
 * fault lost is made up for by futex_wake() on @f, then by cancelling
 * everything still queued, so that no run waits for the watchdog.
 */
static void ring_wait(struct ring *r, int want, uint32_t *f)
{
	int round;

	for (round = 0; round < 100 && want > 0; round++) {
		syscall(__NR_io_uring_enter, r->fd, 0, 0, IORING_ENTER_GETEVENTS, NULL, 0);
		want -= ring_reap(r);
		if (want <= 0)
			break;
		msleep(2);
		if (round == 20 || round == 40) {
			syscall(SYS_futex, f, FUTEX_WAKE, 16, NULL, NULL, 0);
			syscall(SYS_futex, f, FUTEX_WAKE_PRIVATE, 16, NULL, NULL, 0);
		}
		if (round == 60) {
			struct io_uring_sqe *sqe = ring_sqe(r, IORING_OP_ASYNC_CANCEL, NULL, 99);

			sqe->cancel_flags = IORING_ASYNC_CANCEL_ANY | IORING_ASYNC_CANCEL_ALL;
			ring_submit(r, 1);
			want++;
		}
	}
}

static struct io_uring_sqe *uring_futex(struct ring *r, int op, uint32_t *f, uint64_t val,
					uint64_t mask, unsigned int flags, uint64_t user_data)
{
	struct io_uring_sqe *sqe = ring_sqe(r, op, f, user_data);

	sqe->off = val;		/* addr2 */
	sqe->addr3 = mask;
	sqe->fd = flags;
	return sqe;
}

/*
 * IORING_OP_FUTEX_WAIT, _WAKE and _WAITV, private and shared: waits woken by
 * io_uring and by futex(), a cancelled wait, a wait left queued when the
 * ring closes, value mismatches, bad addresses and refused arguments.
 */
static void s_io_uring(void)
{
	uint32_t *f = map_words(1);
	struct waitv v[2];
	struct ring r;
	unsigned int fl;
	int i;

	if (ring_init(&r, 16) < 0) {
		printf("futex_drive: io_uring: io_uring_setup: %s, skipped\n", strerror(errno));
		return;
	}
	/* a wake of nobody: 0, or EINVAL for an opcode the kernel does not know */
	uring_futex(&r, IORING_OP_FUTEX_WAKE_, f, 1, FUTEX_BITSET_MATCH_ANY, FUTEX_32, 1);
	ring_submit(&r, 1);
	ring_wait(&r, 1, f);
	if (r.last_res == -EINVAL) {
		printf("futex_drive: io_uring: no futex operations in this kernel, skipped\n");
		ring_exit(&r);
		return;
	}

	for (i = 0; i < 4; i++) {
		fl = FUTEX_32 | ((i & 1) ? FUTEX_PRIVATE_FLAG : 0);
		memset(f, 0, 16);

		/* a wait, woken by an io_uring wake in the same submission */
		uring_futex(&r, IORING_OP_FUTEX_WAIT_, f, 0, FUTEX_BITSET_MATCH_ANY, fl, 1);
		uring_futex(&r, IORING_OP_FUTEX_WAKE_, f, 1, FUTEX_BITSET_MATCH_ANY, fl, 2);
		ring_submit(&r, 2);
		ring_wait(&r, 2, f);

		/* a wait woken by futex(); a wait cancelled */
		uring_futex(&r, IORING_OP_FUTEX_WAIT_, f, 0, FUTEX_BITSET_MATCH_ANY, fl, 3);
		ring_submit(&r, 1);
		syscall(SYS_futex, f, (fl & FUTEX_PRIVATE_FLAG) ? FUTEX_WAKE_PRIVATE : FUTEX_WAKE,
			1, NULL, NULL, 0);
		ring_wait(&r, 1, f);
		uring_futex(&r, IORING_OP_FUTEX_WAIT_, f, 0, FUTEX_BITSET_MATCH_ANY, fl, 4);
		ring_sqe(&r, IORING_OP_ASYNC_CANCEL, (void *)4, 5);
		ring_submit(&r, 2);
		ring_wait(&r, 2, f);

		/* futex_waitv of two, woken on the second; then one cancelled */
		v[0] = (struct waitv){ .uaddr = (uintptr_t)&f[0], .flags = fl };
		v[1] = (struct waitv){ .uaddr = (uintptr_t)&f[1], .flags = fl };
		ring_sqe(&r, IORING_OP_FUTEX_WAITV_, v, 6)->len = 2;
		uring_futex(&r, IORING_OP_FUTEX_WAKE_, &f[1], 1, FUTEX_BITSET_MATCH_ANY, fl, 7);
		ring_submit(&r, 2);
		ring_wait(&r, 2, f);
		ring_sqe(&r, IORING_OP_FUTEX_WAITV_, v, 8)->len = 2;
		ring_sqe(&r, IORING_OP_ASYNC_CANCEL, (void *)8, 9);
		ring_submit(&r, 2);
		ring_wait(&r, 2, f);

		/* value mismatch: EAGAIN from the wait setup of both */
		f[0] = 1;
		uring_futex(&r, IORING_OP_FUTEX_WAIT_, f, 0, FUTEX_BITSET_MATCH_ANY, fl, 10);
		ring_sqe(&r, IORING_OP_FUTEX_WAITV_, v, 11)->len = 2;
		ring_submit(&r, 2);
		ring_wait(&r, 2, f);
		f[0] = 0;

		/* EFAULT: the futex, the waiter array, an entry's futex */
		uring_futex(&r, IORING_OP_FUTEX_WAIT_, (uint32_t *)16, 0,
			    FUTEX_BITSET_MATCH_ANY, fl, 12);
		uring_futex(&r, IORING_OP_FUTEX_WAKE_, (uint32_t *)16, 1,
			    FUTEX_BITSET_MATCH_ANY, fl, 13);
		ring_sqe(&r, IORING_OP_FUTEX_WAITV_, (void *)16, 14)->len = 2;
		v[1].uaddr = 16;
		ring_sqe(&r, IORING_OP_FUTEX_WAITV_, v, 15)->len = 2;
		ring_submit(&r, 4);
		ring_wait(&r, 4, f);
		v[1].uaddr = (uintptr_t)&f[1];

		/* EINVAL: no mask, bad flags, an empty or too long waiter array */
		uring_futex(&r, IORING_OP_FUTEX_WAIT_, f, 0, 0, fl, 16);
		uring_futex(&r, IORING_OP_FUTEX_WAIT_, f, 0, FUTEX_BITSET_MATCH_ANY,
			    FUTEX2_SIZE_U8_, 17);
		ring_sqe(&r, IORING_OP_FUTEX_WAITV_, v, 18)->len = 0;
		ring_sqe(&r, IORING_OP_FUTEX_WAITV_, v, 19)->len = 129;
		ring_submit(&r, 4);
		ring_wait(&r, 4, f);
	}
	/* left waiting when the ring closes: cancelled by io_uring itself */
	uring_futex(&r, IORING_OP_FUTEX_WAIT_, f, 0, FUTEX_BITSET_MATCH_ANY, FUTEX_32, 20);
	ring_sqe(&r, IORING_OP_FUTEX_WAITV_, v, 21)->len = 2;
	ring_submit(&r, 2);
	ring_exit(&r);
	munmap(f, 4096);
}

/* ------------------------------------------------------------ signals */

static void on_sigusr1(int sig)
{
	(void)sig;
}

static uint32_t *sig_word;
static pid_t sig_waiter_tid;

/* Timed waits of every kind, each for 200 ms, the signal arriving in the middle. */
static void *sig_waiter(void *arg)
{
	struct ktimespec rel = { 0, 200000000 };
	struct ktimespec64 abs;
	struct waitv v = { .uaddr = (uintptr_t)sig_word, .flags = FUTEX_32 };
	int kind = *(int *)arg;

	__atomic_store_n(&sig_waiter_tid, gettid_(), __ATOMIC_RELEASE);
	switch (kind) {
	case 0:
		futex(sig_word, FUTEX_WAIT, 0, &rel, NULL, 0);
		break;
	case 1:
		now64(CLOCK_MONOTONIC, &abs, 0);
		abs.tv_nsec += 200000000;
		if (abs.tv_nsec >= 1000000000) {
			abs.tv_sec++;
			abs.tv_nsec -= 1000000000;
		}
		futex(sig_word, FUTEX_WAIT_BITSET | FUTEX_PRIVATE_FLAG, 0, &abs, NULL,
		      FUTEX_BITSET_MATCH_ANY);
		break;
	case 2:
		futex2_wait(sig_word, 0, FUTEX_BITSET_MATCH_ANY, FUTEX_32, NULL, 0);
		break;
	case 3:
		now64(CLOCK_MONOTONIC, &abs, 1);
		waitv(&v, 1, &abs, CLOCK_MONOTONIC);
		break;
	default:
		futex(sig_word, FUTEX_WAIT, 0, NULL, NULL, 0);
		break;
	}
	return NULL;
}

/*
 * A signal with a handler interrupts a futex wait: -ERESTARTSYS, and for a
 * timed FUTEX_WAIT the restart block that resumes it (futex_wait_restart());
 * SA_RESTART restarts it, without SA_RESTART it fails with EINTR.
 */
static void s_signal(void)
{
	struct sigaction sa = { .sa_handler = on_sigusr1 };
	int kind, restart, futex2;
	pthread_t t;

	sig_word = map_words(0);
	futex2 = syscall(NR_futex_wake, sig_word, 1UL, 0, FUTEX_32) >= 0 || errno != ENOSYS;
	for (restart = 0; restart < 2; restart++) {
		sa.sa_flags = restart ? SA_RESTART : 0;
		sigaction(SIGUSR1, &sa, NULL);
		for (kind = 0; kind < 5; kind++) {
			if (kind == 2 && !futex2)
				continue;	/* futex_wait(): Linux 6.7 */
			sig_waiter_tid = 0;
			*sig_word = 0;
			pthread_create(&t, NULL, sig_waiter, &kind);
			wait_for_sleep(&sig_waiter_tid);
			pthread_kill(t, SIGUSR1);
			if (kind >= 2) {
				/* the untimed ones: wake them after the signal */
				msleep(20);
				*sig_word = 1;
				syscall(SYS_futex, sig_word, FUTEX_WAKE, 1, NULL, NULL, 0);
				syscall(SYS_futex, sig_word, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
			}
			pthread_join(t, NULL);
		}
	}
	signal(SIGUSR1, SIG_DFL);
	munmap(sig_word, 4096);
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
	/* before robust, whose PI mutexes take a free lock (see s_pi) */
	{ "pi", s_pi },
	{ "robust", s_robust },
	{ "get_robust_list", s_get_robust_list },
	{ "get_robust_list_err", s_get_robust_list_err },
	{ "pi_trylock_busy", s_pi_trylock_busy },
	{ "pi_kthread", s_pi_kthread },
	{ "pi_bad_owner", s_pi_bad_owner },
	{ "pi_deadlock", s_pi_deadlock },
	{ "waitv", s_waitv },
	{ "timeouts", s_timeouts },
	{ "requeue", s_requeue },
	{ "pi_owner_exiting", s_pi_owner_exiting },
	{ "shared", s_shared },
	{ "futex2", s_futex2 },
	{ "io_uring", s_io_uring },
	{ "signal", s_signal },
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
		const char *nth = getenv("FUTEX_DRIVE_NTH");

		alarm(WATCHDOG_SECONDS);
		if (nth) {
			if (sscanf(nth, "%d:%d", &nth_k, &nth_n) != 2 || nth_k < 0 || nth_n < 1) {
				fprintf(stderr, "futex_drive: FUTEX_DRIVE_NTH=%s: expected K:N, K >= 0, N >= 1\n",
					nth);
				_exit(2);
			}
			nth_tid = syscall(SYS_gettid);
		}
		s->fn();
		if (nth)
			printf("futex_drive: nth: %s: %d calls\n", s->name, nth_seen);
		printf("futex_drive: %s: %d calls, %d failed%s\n", s->name, calls, errors,
		       wrong ? ", a wrong result" : "");
		fflush(stdout);
		_exit(wrong ? WRONG_RESULT : 0);
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
