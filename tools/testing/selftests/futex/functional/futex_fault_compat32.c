// SPDX-License-Identifier: GPL-2.0
/*
 * 32-bit companion of futex_fault, built with -m32.
 *
 * The compat_* futex fault sites and futex_time32_get_timeout are reached
 * only by a 32-bit task.  futex_fault arms the fail_futex policy (task
 * filter), enables the site and runs
 *
 *	futex_fault_compat32 robust_exit|get_robust_list|futex_time32
 *
 * which does the operation with make-it-fail set around it and prints
 *
 *	err=<0 or -errno> state=<what the operation left behind>
 *
 * with the meaning of the futex_fault driver of the same name.  The exit
 * status is 0, or 1 when the operation could not be set up.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "futextest.h"
#include "kselftest.h"

#define FF_MAKE_IT_FAIL	"/proc/thread-self/make-it-fail"

static int fail_me(int on)
{
	int fd, ret;

	fd = open(FF_MAKE_IT_FAIL, O_WRONLY);
	if (fd < 0)
		return -1;
	ret = write(fd, on ? "1" : "0", 1) == 1 ? 0 : -1;
	close(fd);
	return ret;
}

static int result(long ret)
{
	return ret == -1 ? -errno : (int)ret;
}

struct robust_lock {
	struct robust_list list;
	futex_t word;
};

struct robust {
	struct robust_list_head head;
	struct robust_lock lock[2];
};

/* A child holding two robust futexes exits.  state: bit i when lock[i] was marked. */
static int robust_exit(int *err, unsigned int *state)
{
	struct robust *r;
	int i, status;
	pid_t pid;

	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED)
		return -1;
	pid = fork();
	if (!pid) {
		r->head.list.next = &r->lock[0].list;
		r->lock[0].list.next = &r->lock[1].list;
		r->lock[1].list.next = &r->head.list;
		r->head.futex_offset = offsetof(struct robust_lock, word);
		r->head.list_op_pending = NULL;
		r->lock[0].word = getpid();
		r->lock[1].word = getpid();
		if (syscall(SYS_set_robust_list, &r->head, sizeof(r->head)))
			_exit(1);
		if (fail_me(1))
			_exit(2);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		return -1;

	*err = 0;
	*state = 0;
	for (i = 0; i < 2; i++)
		*state |= (r->lock[i].word == FUTEX_OWNER_DIED) << i;
	return 0;
}

/* state: bit 0 when the length was stored, bit 1 when the head was */
static int get_robust_list(int *err, unsigned int *state)
{
	static struct robust_list_head head = { .list.next = &head.list };
	struct robust_list_head *got = NULL;
	size_t len = 0;

	if (syscall(SYS_set_robust_list, &head, sizeof(head)))
		return -1;
	if (fail_me(1))
		return -1;
	*err = result(syscall(SYS_get_robust_list, 0, &got, &len));
	if (fail_me(0))
		return -1;
	*state = (len == sizeof(head)) | (got == &head) << 1;
	return 0;
}

/* The timeout of futex_time32(), whatever time_t the C library has */
struct old_timespec32 {
	int32_t tv_sec;
	int32_t tv_nsec;
};

/* FUTEX_WAIT, with a 32-bit timeout, for a value the futex does not hold: -EAGAIN */
static int futex_time32(int *err, unsigned int *state)
{
	struct old_timespec32 to = { .tv_sec = 10 };
	futex_t f = 0;

	if (fail_me(1))
		return -1;
	/* In a 32-bit task, __NR_futex is futex_time32 */
	*err = result(syscall(__NR_futex, &f, FUTEX_WAIT | FUTEX_PRIVATE_FLAG, 1, &to, NULL, 0));
	if (fail_me(0))
		return -1;
	*state = 0;
	return 0;
}

static const struct {
	const char *name;
	int (*fn)(int *err, unsigned int *state);
} ops[] = {
	{ "robust_exit", robust_exit },
	{ "get_robust_list", get_robust_list },
	{ "futex_time32", futex_time32 },
};

int main(int argc, char *argv[])
{
	unsigned int i, state;
	int err;

	for (i = 0; argc == 2 && i < ARRAY_SIZE(ops); i++) {
		if (strcmp(argv[1], ops[i].name))
			continue;
		if (ops[i].fn(&err, &state)) {
			printf("%s: %s\n", argv[1], strerror(errno));
			return 1;
		}
		printf("err=%d state=%u\n", err, state);
		return 0;
	}
	fprintf(stderr, "usage: %s robust_exit|get_robust_list|futex_time32\n", argv[0]);
	return 1;
}
