// SPDX-License-Identifier: GPL-2.0
/*
 * ffdrive - a small futex workload for recording the reporter's fixtures:
 * one pass over wait (value mismatch, timeout), wake, wake-op, requeue,
 * PI lock/unlock on private and shared futexes, and a thread that exits
 * holding a robust mutex (the kernel's robust-list walk).
 *
 * usage: ffdrive [loops]     (exit status: number of unexpected results)
 *        ffdrive --bench N   N FUTEX_WAIT calls with a wrong value, for
 *                            trace-parsing benchmarks
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static long futex(uint32_t *uaddr, int op, uint32_t val, const struct timespec *ts,
		  uint32_t *uaddr2, uint32_t val3)
{
	return syscall(SYS_futex, uaddr, op, val, ts, uaddr2, val3);
}

static int unexpected;

static void expect(const char *what, long ret, int ok_errno)
{
	if (ret >= 0 || errno == ok_errno || errno == EFAULT || errno == EAGAIN)
		return;
	fprintf(stderr, "ffdrive: %s: %s\n", what, strerror(errno));
	unexpected++;
}

static void *robust_thread(void *arg)
{
	pthread_mutex_t *m = arg;

	/* exit holding it: the kernel marks it OWNER_DIED from the robust list */
	pthread_mutex_lock(m);
	return NULL;
}

static void robust_exit(void)
{
	pthread_mutexattr_t a;
	pthread_mutex_t m;
	pthread_t t;
	int ret;

	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&m, &a);
	pthread_create(&t, NULL, robust_thread, &m);
	pthread_join(t, NULL);
	ret = pthread_mutex_lock(&m);
	if (ret == EOWNERDEAD)
		pthread_mutex_consistent(&m);
	else if (ret)
		unexpected++;
	pthread_mutex_unlock(&m);
}

static void pass(uint32_t *f, int priv)
{
	struct timespec ts = { 0, 1000000 };
	uint32_t *g = f + 1, *pi = f + 2;

	*f = 1;
	*g = 0;
	*pi = 0;
	expect("wait (value mismatch)", futex(f, FUTEX_WAIT | priv, 0, NULL, NULL, 0), EAGAIN);
	expect("wait (timeout)", futex(f, FUTEX_WAIT | priv, 1, &ts, NULL, 0), ETIMEDOUT);
	expect("wake", futex(f, FUTEX_WAKE | priv, 1, NULL, NULL, 0), 0);
	expect("wake_op", futex(f, FUTEX_WAKE_OP | priv, 1, NULL, g,
				FUTEX_OP(FUTEX_OP_ADD, 1, FUTEX_OP_CMP_GT, 0)), 0);
	expect("cmp_requeue", futex(f, FUTEX_CMP_REQUEUE | priv, 1, (void *)1, g, 1), 0);
	expect("lock_pi", futex(pi, FUTEX_LOCK_PI | priv, 0, NULL, NULL, 0), 0);
	expect("unlock_pi", futex(pi, FUTEX_UNLOCK_PI | priv, 0, NULL, NULL, 0), EPERM);
}

int main(int argc, char **argv)
{
	uint32_t priv_words[4], *shared;
	long i, loops = 1;

	if (argc == 3 && !strcmp(argv[1], "--bench")) {
		uint32_t w = 1;

		for (i = atol(argv[2]); i > 0; i--)
			futex(&w, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
		return 0;
	}
	if (argc > 1)
		loops = atol(argv[1]);
	shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (shared == MAP_FAILED) {
		perror("ffdrive: mmap");
		return 1;
	}
	for (i = 0; i < loops; i++) {
		pass(priv_words, FUTEX_PRIVATE_FLAG);
		pass(shared, 0);
		robust_exit();
	}
	return unexpected;
}
