// SPDX-License-Identifier: GPL-2.0
/*
 * Per-site futex fault injection (CONFIG_FAIL_FUTEX).
 *
 * Every fault site in kernel/futex/ is one variant of the futex_fault
 * fixture.  The "inject" test enables the site, drives the futex operation
 * that reaches it, and checks what user space sees, the
 * futex_fault:futex_fault_inject trace events and the counters of the site
 * table.  The "disabled" test arms the same policy but leaves the site
 * disabled, and checks that the operation is unaffected and that nothing is
 * counted.
 *
 * The policy is bounded and aimed: probability=100, task-filter=Y and times
 * set to the number of failures the path needs (1, or 2 for a site that is
 * reached only once another site failed).  The only task with make-it-fail
 * set is the one running the operation under test, and only around that
 * operation, so nothing else in the system fails.
 *
 * Each operation runs in a fresh thread: its pi_state cache is empty (the
 * pi_state_alloc site needs that) and its make-it-fail flag is its own.
 * The sites that only a 32-bit task reaches are driven by
 * futex_fault_compat32, which is run from here.
 *
 * The futex_fault_ctl tests check that every site of the kernel has a
 * variant here, that the debugfs controls reject bad input and leave the
 * state alone, and the policy corner cases: the end of a retry streak,
 * fail-nth and ignore-private.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
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

#include "futextest.h"
#include "futex2test.h"
#include "kselftest_harness.h"

#define FF_KEYS		"/sys/kernel/debug/static_keys/futex_fault"
#define FF_ATTR		"/sys/kernel/debug/fail_futex"
#define FF_SITES	FF_ATTR "/sites"
#define FF_RESET	FF_ATTR "/reset"
#define FF_EVENT	"events/futex_fault/futex_fault_inject/enable"
#define FF_MAKE_IT_FAIL	"/proc/thread-self/make-it-fail"
#define FF_FAIL_NTH	"/proc/thread-self/fail-nth"
#define FF_HELPER	"futex_fault_compat32"

#define FF_MAX_SITES	128
#define FF_MAX_EVENTS	16
#define FF_NAME_LEN	64
/* Bound of every wait for another thread: never reached when all is well */
#define FF_TIMEOUT_S	10
/* Failures in a row after which a retry site lets one pass through */
#define FF_MAX_STREAK	3

/* ---------------------------------------------------------------- files */

/* Write @val to @path.  Return: 0 or -errno. */
static int ff_write(const char *path, const char *val)
{
	size_t len = strlen(val);
	ssize_t n;
	int fd, ret = 0;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, val, len);
	if (n < 0)
		ret = -errno;
	else if ((size_t)n != len)
		ret = -EIO;
	close(fd);
	return ret;
}

/* Read @path into @buf, NUL-terminated.  Return: the length or -errno. */
static ssize_t ff_read(const char *path, char *buf, size_t size)
{
	ssize_t n, len = 0;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	while ((size_t)len < size - 1) {
		n = read(fd, buf + len, size - 1 - len);
		if (n < 0) {
			len = -errno;
			break;
		}
		if (!n)
			break;
		len += n;
	}
	close(fd);
	if (len >= 0)
		buf[len] = '\0';
	return len;
}

/* Read a one-line file, without its newline.  Return: 0 or -errno. */
static int ff_read_line(const char *path, char *buf, size_t size)
{
	ssize_t len = ff_read(path, buf, size);

	if (len < 0)
		return len;
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* ------------------------------------------------- keys, policy, table */

/* The fail_futex knobs the tests set; teardown puts back what it found. */
static const char * const ff_knobs[] = {
	"probability", "interval", "times", "space", "verbose", "task-filter",
	"ignore-private",
};

#define FF_NR_KNOBS	ARRAY_SIZE(ff_knobs)

static int ff_knob_set(const char *knob, const char *val)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), FF_ATTR "/%s", knob);
	return ff_write(path, val);
}

static int ff_knob_get(const char *knob, char *buf, size_t size)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), FF_ATTR "/%s", knob);
	return ff_read_line(path, buf, size);
}

/* Switch a site (or "all") on or off.  Return: 0 or -errno. */
static int ff_key_set(const char *site, bool on)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), FF_KEYS "/%s", site);
	return ff_write(path, on ? "1" : "0");
}

/* Return: what a key file reads (0 or 1, the number of sites for "all"), or -errno. */
static int ff_key_get(const char *site)
{
	char path[PATH_MAX], buf[16], *end;
	long val;
	int ret;

	snprintf(path, sizeof(path), FF_KEYS "/%s", site);
	ret = ff_read_line(path, buf, sizeof(buf));
	if (ret)
		return ret;
	val = strtol(buf, &end, 10);
	if (end == buf || *end || val < 0 || val > INT_MAX)
		return -EINVAL;
	return val;
}

/* One line of the site table */
struct ff_site {
	char name[FF_NAME_LEN];
	char err[16];
	int enabled;
	long hits;
	long injected;
};

/* Parse the site table into @sites.  Return: the number of sites or -errno. */
static int ff_sites_read(struct ff_site *sites, int max)
{
	size_t size = 64 * 1024;
	char *buf, *line, *save;
	ssize_t len;
	int n = 0;

	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	len = ff_read(FF_SITES, buf, size);
	if (len < 0 || (size_t)len == size - 1) {
		free(buf);
		return len < 0 ? len : -E2BIG;
	}
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct ff_site *s = &sites[n];

		if (line[0] == '#')
			continue;
		if (n == max) {
			n = -E2BIG;
			break;
		}
		/* name file line function errno enabled hits injected */
		if (sscanf(line, "%63s %*s %*u %*s %15s %d %ld %ld", s->name, s->err,
			   &s->enabled, &s->hits, &s->injected) != 5) {
			n = -EINVAL;
			break;
		}
		n++;
	}
	free(buf);
	return n;
}

/* Look a site up in the site table.  Return: 0 or -errno (-ENOENT: no such site). */
static int ff_site_get(const char *name, struct ff_site *site)
{
	struct ff_site *sites;
	int i, n;

	sites = calloc(FF_MAX_SITES, sizeof(*sites));
	if (!sites)
		return -ENOMEM;
	n = ff_sites_read(sites, FF_MAX_SITES);
	for (i = 0; i < n; i++) {
		if (!strcmp(sites[i].name, name)) {
			*site = sites[i];
			break;
		}
	}
	free(sites);
	if (n < 0)
		return n;
	return i < n ? 0 : -ENOENT;
}

/* -------------------------------------------------------------- events */

struct ff_event {
	char site[FF_NAME_LEN];
	char err[16];
	char op[32];
};

struct ff_events {
	int nr;				/* all events seen */
	struct ff_event ev[FF_MAX_EVENTS];	/* the first ones */
};

static int ff_trace_write(const char *inst, const char *file, const char *val)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", inst, file);
	return ff_write(path, val);
}

static int ff_trace_clear(const char *inst)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/trace", inst);
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/*
 * Collect the futex_fault_inject events of the trace instance @inst, printed
 * as "futex_fault_inject: site=<name> err=<errno> op=<op> uaddr=... caller=...".
 * Return: 0 or -errno.
 */
static int ff_events_read(const char *inst, struct ff_events *e)
{
	static const char tag[] = "futex_fault_inject: ";
	size_t size = 256 * 1024;
	char path[PATH_MAX], *buf, *line, *save, *p;
	ssize_t len;
	int ret = 0;

	memset(e, 0, sizeof(*e));
	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	snprintf(path, sizeof(path), "%s/trace", inst);
	len = ff_read(path, buf, size);
	if (len < 0) {
		free(buf);
		return len;
	}
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		struct ff_event *ev;

		p = strstr(line, tag);
		if (!p)
			continue;
		ev = e->nr < FF_MAX_EVENTS ? &e->ev[e->nr] : NULL;
		if (ev && sscanf(p + strlen(tag), "site=%63s err=%15s op=%31s", ev->site,
				 ev->err, ev->op) != 3) {
			ret = -EINVAL;
			break;
		}
		e->nr++;
	}
	free(buf);
	return ret;
}

static int ff_events_count(const struct ff_events *e, const char *site)
{
	int i, n = 0;

	for (i = 0; i < e->nr && i < FF_MAX_EVENTS; i++)
		n += !strcmp(e->ev[i].site, site);
	return n;
}

/* --------------------------------------------------------- environment */

/* What a test found and changed, so that teardown can put it back */
struct ff_env {
	bool ready;			/* root, and the kernel has what we need */
	char why[160];			/* if not */
	bool saved;			/* knob[] and site[] hold what was found */
	char knob[FF_NR_KNOBS][32];
	int nr_sites;
	struct ff_site site[FF_MAX_SITES];
	char trace[PATH_MAX];		/* our trace instance, "" if none */
};

static const char *ff_tracefs(void)
{
	if (!access("/sys/kernel/tracing/instances", F_OK))
		return "/sys/kernel/tracing";
	if (!access("/sys/kernel/debug/tracing/instances", F_OK))
		return "/sys/kernel/debug/tracing";
	return NULL;
}

static void ff_env_setup(struct __test_metadata *_metadata, struct ff_env *env)
{
	const char *tracefs;
	unsigned int i;
	int ret;

	if (geteuid()) {
		snprintf(env->why, sizeof(env->why), "needs root");
		return;
	}
	if (access(FF_KEYS, F_OK)) {
		snprintf(env->why, sizeof(env->why),
			 "no %s: kernel without futex fault sites (CONFIG_FAIL_FUTEX), or no debugfs",
			 FF_KEYS);
		return;
	}
	tracefs = ff_tracefs();
	if (!tracefs) {
		snprintf(env->why, sizeof(env->why), "no tracefs instances (CONFIG_TRACING)");
		return;
	}

	for (i = 0; i < FF_NR_KNOBS; i++) {
		const char *knob = ff_knobs[i];

		ASSERT_EQ(0, ff_knob_get(knob, env->knob[i], sizeof(env->knob[i])))
			TH_LOG("cannot read %s", knob);
	}
	env->nr_sites = ff_sites_read(env->site, FF_MAX_SITES);
	ASSERT_LT(0, env->nr_sites) TH_LOG("cannot parse %s", FF_SITES);
	env->saved = true;

	/* An instance of our own leaves the top trace buffer to others */
	snprintf(env->trace, sizeof(env->trace), "%s/instances/futex_fault_selftest.%d",
		 tracefs, getpid());
	if (mkdir(env->trace, 0755)) {
		ret = -errno;
		env->trace[0] = '\0';
		ASSERT_EQ(0, ret) TH_LOG("cannot create a trace instance");
	}
	ASSERT_EQ(0, ff_trace_write(env->trace, FF_EVENT, "1"))
		TH_LOG("cannot enable futex_fault:futex_fault_inject");

	env->ready = true;
}

/* No ASSERT here: a failure would jump back into the test. */
static void ff_env_teardown(struct __test_metadata *_metadata, struct ff_env *env)
{
	struct ff_site *now;
	unsigned int i;
	int j, n;

	if (env->trace[0]) {
		EXPECT_EQ(0, ff_trace_write(env->trace, FF_EVENT, "0"));
		EXPECT_EQ(0, rmdir(env->trace));
	}
	if (!env->saved)
		return;

	/* Only the tests touch these, only in this thread: clear them anyway. */
	ff_write(FF_MAKE_IT_FAIL, "0");
	ff_write(FF_FAIL_NTH, "0");

	now = calloc(FF_MAX_SITES, sizeof(*now));
	EXPECT_NE(NULL, now);
	n = now ? ff_sites_read(now, FF_MAX_SITES) : -ENOMEM;
	EXPECT_EQ(env->nr_sites, n);
	for (j = 0; j < n && j < env->nr_sites; j++) {
		if (now[j].enabled != env->site[j].enabled)
			EXPECT_EQ(0, ff_key_set(env->site[j].name, env->site[j].enabled));
	}
	free(now);

	for (i = 0; i < FF_NR_KNOBS; i++) {
		const char *knob = ff_knobs[i];

		EXPECT_EQ(0, ff_knob_set(knob, env->knob[i]))
			TH_LOG("cannot restore %s to %s", knob, env->knob[i]);
	}
}

/*
 * Arm the policy: only tasks with make-it-fail fail, each time they hit an
 * enabled site, @times times in all.  Sites stay as they are.
 */
static void ff_arm(struct __test_metadata *_metadata, int times)
{
	char buf[16];

	snprintf(buf, sizeof(buf), "%d", times);
	ASSERT_EQ(0, ff_knob_set("probability", "0"));
	ASSERT_EQ(0, ff_knob_set("verbose", "0"));
	ASSERT_EQ(0, ff_knob_set("space", "0"));
	ASSERT_EQ(0, ff_knob_set("interval", "1"));
	ASSERT_EQ(0, ff_knob_set("ignore-private", "N"));
	ASSERT_EQ(0, ff_knob_set("task-filter", "Y"));
	ASSERT_EQ(0, ff_knob_set("times", buf));
	ASSERT_EQ(0, ff_knob_set("probability", "100"));
}

static int ff_times(void)
{
	char buf[16];

	if (ff_knob_get("times", buf, sizeof(buf)))
		return INT_MIN;
	return atoi(buf);
}

/* -------------------------------------------------------------- drivers */

/*
 * A driver runs one futex operation in a thread of its own and reports what
 * user space saw: err, the result of the operation (0, a count, or -errno),
 * and state, what the operation left behind (its meaning is per driver).
 * It sets make-it-fail around the operation under test only.
 */
struct ff_drive {
	void (*fn)(struct ff_drive *d);
	futex_t *page;		/* a fresh private anonymous page, zeroed */
	int err;
	unsigned int state;
	char bug[160];		/* the driver could not do its job: FAIL */
	char skip[160];		/* the system cannot run it: SKIP */
};

static void ff_bug(struct ff_drive *d, const char *what)
{
	if (!d->bug[0])
		snprintf(d->bug, sizeof(d->bug), "%s: %s", what, strerror(errno));
}

/* Let the fail_futex task filter pick the calling thread, or stop it. */
static void ff_fail_me(struct ff_drive *d, bool on)
{
	int err = errno;

	if (ff_write(FF_MAKE_IT_FAIL, on ? "1" : "0"))
		ff_bug(d, FF_MAKE_IT_FAIL);
	errno = err;
}

/* The result of a system call as the kernel returned it: a value or -errno */
static int ff_ret(long ret)
{
	return ret == -1 ? -errno : (int)ret;
}

static pid_t ff_owner(futex_t *f)
{
	return *f & FUTEX_TID_MASK;
}

static void ff_abstime(struct timespec *ts, clockid_t clock)
{
	clock_gettime(clock, ts);
	ts->tv_sec += FF_TIMEOUT_S;
}

/* Wait, a bounded time, until @cond(@arg) holds.  Return: whether it did. */
static bool ff_wait_until(bool (*cond)(void *arg), void *arg)
{
	int i;

	for (i = 0; i < FF_TIMEOUT_S * 1000; i++) {
		if (cond(arg))
			return true;
		usleep(1000);
	}
	return false;
}

/* The state letter of thread @tid of this process, 0 if unknown */
static char ff_task_state(pid_t tid)
{
	char path[64], buf[512], *p;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	if (ff_read(path, buf, sizeof(buf)) < 0)
		return 0;
	p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p[2] : 0;
}

/* ---- PI helpers: an owner and a waiter thread around the operation */

/* Fields shared between the threads are read and written with ff_load(), ff_store(). */
struct ff_pi {
	futex_t *f;
	int tid;		/* of this thread, once it runs */
	int blocker;		/* the thread to block in FUTEX_LOCK_PI, see ff_pi_blocked() */
	int locked;		/* the owner holds the futex */
	int release;		/* the owner may unlock and leave */
	bool unlock;		/* the owner unlocks (or exits holding the futex) */
	int err;		/* of the waiter's FUTEX_LOCK_PI */
	bool owned;		/* the waiter got the futex */
};

static int ff_load(int *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

static void ff_store(int *p, int val)
{
	__atomic_store_n(p, val, __ATOMIC_RELEASE);
}

static bool ff_flag_set(void *arg)
{
	return ff_load(arg);
}

static void ff_unlock_pi(futex_t *f)
{
	pid_t tid = gettid();

	if (futex_cmpxchg(f, tid, 0) != (u_int32_t)tid)
		futex_unlock_pi(f, FUTEX_PRIVATE_FLAG);
}

/*
 * @pi->blocker is blocked in FUTEX_LOCK_PI on @pi->f: it set the waiters
 * bit, which only its FUTEX_LOCK_PI does, and it sleeps.
 */
static bool ff_pi_blocked(void *arg)
{
	struct ff_pi *pi = arg;
	pid_t tid = ff_load(&pi->blocker);

	return tid && (*pi->f & FUTEX_WAITERS) && ff_task_state(tid) == 'S';
}

/* Take the futex in user space, wait for release, unlock it or exit holding it */
static void *ff_pi_owner(void *arg)
{
	struct ff_pi *pi = arg;

	pi->tid = gettid();
	if (futex_cmpxchg(pi->f, 0, pi->tid) != 0)
		return NULL;
	ff_store(&pi->locked, 1);
	if (pi->unlock) {
		ff_wait_until(ff_flag_set, &pi->release);
		ff_unlock_pi(pi->f);
	} else {
		ff_wait_until(ff_pi_blocked, pi);
	}
	return NULL;
}

/* Block in FUTEX_LOCK_PI until the owner lets go, then unlock */
static void *ff_pi_waiter(void *arg)
{
	struct ff_pi *pi = arg;
	struct timespec to;

	pi->tid = gettid();
	ff_store(&pi->blocker, pi->tid);
	ff_abstime(&to, CLOCK_REALTIME);
	pi->err = ff_ret(futex_lock_pi(pi->f, &to, 0, FUTEX_PRIVATE_FLAG));
	pi->owned = ff_owner(pi->f) == pi->tid;
	if (!pi->err)
		ff_unlock_pi(pi->f);
	return NULL;
}

/* ---- the drivers */

/* FUTEX_WAIT for a value the futex does not hold: -EAGAIN, no sleep */
static void drive_wait(struct ff_drive *d)
{
	ff_fail_me(d, true);
	d->err = ff_ret(futex_wait(d->page, 1, NULL, FUTEX_PRIVATE_FLAG));
	ff_fail_me(d, false);
}

/* The same on a shared futex, whose key comes from the (anonymous) page */
static void drive_wait_shared(struct ff_drive *d)
{
	ff_fail_me(d, true);
	d->err = ff_ret(futex_wait(d->page, 1, NULL, 0));
	ff_fail_me(d, false);
}

/* The same with a timeout, which the kernel reads first */
static void drive_wait_timeout(struct ff_drive *d)
{
	struct timespec to = { .tv_sec = FF_TIMEOUT_S };

	ff_fail_me(d, true);
	d->err = ff_ret(futex_wait(d->page, 1, &to, FUTEX_PRIVATE_FLAG));
	ff_fail_me(d, false);
}

/* FUTEX_WAKE with no waiter: 0 */
static void drive_wake(struct ff_drive *d)
{
	ff_fail_me(d, true);
	d->err = ff_ret(futex_wake(d->page, 1, FUTEX_PRIVATE_FLAG));
	ff_fail_me(d, false);
}

/* FUTEX_WAKE_OP adding 1 to the second futex: 0.  state: what was added. */
static void drive_wake_op(struct ff_drive *d)
{
	int op = FUTEX_OP(FUTEX_OP_ADD, 1, FUTEX_OP_CMP_EQ, 0);

	ff_fail_me(d, true);
	d->err = ff_ret(futex_wake_op(&d->page[0], &d->page[1], 1, 1, op, FUTEX_PRIVATE_FLAG));
	ff_fail_me(d, false);
	d->state = d->page[1];
}

/* futex_waitv() for a value the futex does not hold, with a timeout: -EAGAIN */
static void drive_waitv(struct ff_drive *d)
{
	struct futex_waitv w = {
		.val = 1,
		.uaddr = (uintptr_t)d->page,
		.flags = FUTEX_32 | FUTEX_PRIVATE_FLAG,
	};
	struct timespec to;

	ff_abstime(&to, CLOCK_MONOTONIC);
	ff_fail_me(d, true);
	d->err = ff_ret(futex_waitv(&w, 1, 0, &to, CLOCK_MONOTONIC));
	ff_fail_me(d, false);
}

/* FUTEX_LOCK_PI of a free futex: 0.  state: 1 when the caller owns it after. */
static void drive_lock_pi(struct ff_drive *d)
{
	ff_fail_me(d, true);
	d->err = ff_ret(futex_lock_pi(d->page, NULL, 0, FUTEX_PRIVATE_FLAG));
	ff_fail_me(d, false);
	d->state = ff_owner(d->page) == gettid();
	if (d->state)
		ff_unlock_pi(d->page);
}

/* The same with FUTEX_LOCK_PI2 */
static void drive_lock_pi2(struct ff_drive *d)
{
	ff_fail_me(d, true);
	d->err = ff_ret(futex(d->page, FUTEX_LOCK_PI2, 0, NULL, NULL, 0, FUTEX_PRIVATE_FLAG));
	ff_fail_me(d, false);
	d->state = ff_owner(d->page) == gettid();
	if (d->state)
		ff_unlock_pi(d->page);
}

/*
 * FUTEX_LOCK_PI of a futex whose owner has exited: the owner is a zombie
 * child, which the kernel finds with its futex state FUTEX_STATE_DEAD.  It
 * rereads the futex in handle_exit_race() and, as the value did not
 * change, gives up: -ESRCH.
 */
static void drive_lock_pi_dead_owner(struct ff_drive *d)
{
	siginfo_t si;
	pid_t pid;

	pid = fork();
	if (!pid)
		_exit(0);
	if (pid < 0) {
		ff_bug(d, "fork");
		return;
	}
	/* A zombie: exited, not reaped */
	if (waitid(P_PID, pid, &si, WEXITED | WNOWAIT)) {
		ff_bug(d, "waitid");
		return;
	}
	*d->page = pid;
	ff_fail_me(d, true);
	d->err = ff_ret(futex_lock_pi(d->page, NULL, 0, FUTEX_PRIVATE_FLAG));
	ff_fail_me(d, false);
	d->state = ff_owner(d->page) == gettid();
	waitpid(pid, NULL, 0);
}

/*
 * FUTEX_TRYLOCK_PI of a futex that is held and has a waiter blocked on it:
 * the caller attaches to the existing pi_state, then fails to take the
 * lock: -EAGAIN.  state: 1 when the waiter got the futex once the owner
 * let it go.
 */
static void drive_trylock_pi_contended(struct ff_drive *d)
{
	struct ff_pi owner = { .f = d->page, .unlock = true };
	struct ff_pi waiter = { .f = d->page };
	pthread_t to, tw;

	if (pthread_create(&to, NULL, ff_pi_owner, &owner)) {
		ff_bug(d, "pthread_create");
		return;
	}
	if (!ff_wait_until(ff_flag_set, &owner.locked)) {
		ff_bug(d, "owner did not take the futex");
		goto out_owner;
	}
	if (pthread_create(&tw, NULL, ff_pi_waiter, &waiter)) {
		ff_bug(d, "pthread_create");
		goto out_owner;
	}
	if (!ff_wait_until(ff_pi_blocked, &waiter))
		ff_bug(d, "waiter did not block");

	ff_fail_me(d, true);
	d->err = ff_ret(futex(d->page, FUTEX_TRYLOCK_PI, 0, NULL, NULL, 0, FUTEX_PRIVATE_FLAG));
	ff_fail_me(d, false);
	if (d->err >= 0 && ff_owner(d->page) == gettid())
		ff_unlock_pi(d->page);

	ff_store(&owner.release, 1);
	pthread_join(tw, NULL);
	d->state = !waiter.err && waiter.owned;
out_owner:
	ff_store(&owner.release, 1);
	pthread_join(to, NULL);
}

/*
 * FUTEX_UNLOCK_PI of a futex the caller holds and another thread waits
 * for: the kernel hands it over in wake_futex_pi().  0.  state: 1 when the
 * waiter got it.
 */
static void drive_unlock_pi_handoff(struct ff_drive *d)
{
	struct ff_pi waiter = { .f = d->page };
	pthread_t tw;

	*d->page = gettid();
	if (pthread_create(&tw, NULL, ff_pi_waiter, &waiter)) {
		ff_bug(d, "pthread_create");
		return;
	}
	if (!ff_wait_until(ff_pi_blocked, &waiter))
		ff_bug(d, "waiter did not block");

	ff_fail_me(d, true);
	d->err = ff_ret(futex_unlock_pi(d->page, FUTEX_PRIVATE_FLAG));
	ff_fail_me(d, false);
	if (d->err)
		ff_unlock_pi(d->page);

	pthread_join(tw, NULL);
	d->state = !waiter.err && waiter.owned;
}

/*
 * FUTEX_LOCK_PI of a futex whose owner exits while the caller waits: the
 * kernel gives the lock to the caller with no pi_state owner, so the caller
 * fixes the futex up in __fixup_pi_state_owner(): its TID, the waiters bit
 * and FUTEX_OWNER_DIED.  0.  state: 1 when the futex reads so after.
 */
static void drive_lock_pi_owner_died(struct ff_drive *d)
{
	struct ff_pi owner = { .f = d->page, .blocker = gettid() };
	struct timespec to;
	pthread_t t;

	if (pthread_create(&t, NULL, ff_pi_owner, &owner)) {
		ff_bug(d, "pthread_create");
		return;
	}
	if (!ff_wait_until(ff_flag_set, &owner.locked)) {
		ff_bug(d, "owner did not take the futex");
		pthread_join(t, NULL);
		return;
	}

	ff_abstime(&to, CLOCK_REALTIME);
	ff_fail_me(d, true);
	d->err = ff_ret(futex_lock_pi(d->page, &to, 0, FUTEX_PRIVATE_FLAG));
	ff_fail_me(d, false);
	pthread_join(t, NULL);

	d->state = ff_owner(d->page) == gettid() && (*d->page & FUTEX_OWNER_DIED);
	if (!d->err)
		ff_unlock_pi(d->page);
}

/*
 * FUTEX_UNLOCK_PI of a futex the caller holds, no waiter: 0.  state: 1 when
 * the caller still holds it after.
 */
static void drive_unlock_pi(struct ff_drive *d)
{
	*d->page = gettid();
	ff_fail_me(d, true);
	d->err = ff_ret(futex_unlock_pi(d->page, FUTEX_PRIVATE_FLAG));
	ff_fail_me(d, false);
	d->state = ff_owner(d->page) == gettid();
	/* No waiter, no kernel state: user space may simply release it. */
	*d->page = 0;
}

/* FUTEX_CMP_REQUEUE with no waiter: 0 */
static void drive_cmp_requeue(struct ff_drive *d)
{
	ff_fail_me(d, true);
	d->err = ff_ret(futex_cmp_requeue(&d->page[0], 0, &d->page[1], 1, 1, FUTEX_PRIVATE_FLAG));
	ff_fail_me(d, false);
}

/* FUTEX_CMP_REQUEUE_PI with no waiter: reads the PI futex, finds no one to lock it for: 0 */
static void drive_cmp_requeue_pi(struct ff_drive *d)
{
	ff_fail_me(d, true);
	d->err = ff_ret(futex_cmp_requeue_pi(&d->page[0], 0, &d->page[1], 1, 0,
					     FUTEX_PRIVATE_FLAG));
	ff_fail_me(d, false);
	d->state = d->page[1];
}

/* FUTEX_WAIT_REQUEUE_PI for a value the futex does not hold: -EAGAIN */
static void drive_wait_requeue_pi(struct ff_drive *d)
{
	ff_fail_me(d, true);
	d->err = ff_ret(futex_wait_requeue_pi(&d->page[0], 1, &d->page[1], NULL,
					      FUTEX_PRIVATE_FLAG));
	ff_fail_me(d, false);
}

/*
 * get_robust_list() of the caller, which registered a head of its own: 0.
 * state: bit 0 when the length was stored, bit 1 when the head was.
 */
static void drive_get_robust_list(struct ff_drive *d)
{
	struct robust_list_head *head = (void *)d->page, *got = NULL;
	size_t len = 0;

	head->list.next = &head->list;
	if (syscall(SYS_set_robust_list, head, sizeof(*head))) {
		ff_bug(d, "set_robust_list");
		return;
	}
	ff_fail_me(d, true);
	d->err = ff_ret(syscall(SYS_get_robust_list, 0, &got, &len));
	ff_fail_me(d, false);
	d->state = (len == sizeof(*head)) | (got == head) << 1;
}

struct ff_robust_lock {
	struct robust_list list;
	futex_t word;
};

struct ff_robust {
	struct robust_list_head head;
	struct ff_robust_lock lock[2];
};

/*
 * A child holding two robust futexes exits: the kernel walks its robust
 * list and marks each futex FUTEX_OWNER_DIED.  0.  state: bit i set when
 * lock[i] was marked.
 */
static void drive_robust_exit(struct ff_drive *d)
{
	struct ff_robust *r;
	int i, status;
	pid_t pid;

	r = mmap(NULL, sizeof(*r), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (r == MAP_FAILED) {
		ff_bug(d, "mmap");
		return;
	}
	pid = fork();
	if (!pid) {
		r->head.list.next = &r->lock[0].list;
		r->lock[0].list.next = &r->lock[1].list;
		r->lock[1].list.next = &r->head.list;
		r->head.futex_offset = offsetof(struct ff_robust_lock, word);
		r->head.list_op_pending = NULL;
		r->lock[0].word = getpid();
		r->lock[1].word = getpid();
		if (syscall(SYS_set_robust_list, &r->head, sizeof(r->head)))
			_exit(1);
		if (ff_write(FF_MAKE_IT_FAIL, "1"))
			_exit(2);
		_exit(0);
	}
	if (pid < 0) {
		ff_bug(d, "fork");
	} else if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		   WEXITSTATUS(status)) {
		errno = ECHILD;
		ff_bug(d, "robust list child failed");
	} else {
		d->err = 0;
		for (i = 0; i < 2; i++)
			d->state |= (r->lock[i].word == FUTEX_OWNER_DIED) << i;
	}
	munmap(r, sizeof(*r));
}

/*
 * Run the 32-bit helper: "err=<n> state=<n>" on its stdout, same meaning
 * as here.  A kernel that cannot run 32-bit programs makes it a SKIP.
 */
static void ff_compat32(struct ff_drive *d, const char *what)
{
	char helper[PATH_MAX], out[256];
	ssize_t len;
	int fd[2], status, err;
	pid_t pid;

	len = readlink("/proc/self/exe", helper, sizeof(helper) - 1);
	if (len < 0) {
		ff_bug(d, "/proc/self/exe");
		return;
	}
	helper[len] = '\0';
	*(strrchr(helper, '/') + 1) = '\0';
	strncat(helper, FF_HELPER, sizeof(helper) - strlen(helper) - 1);
	if (access(helper, X_OK)) {
		ff_bug(d, helper);
		return;
	}
	if (pipe2(fd, O_CLOEXEC)) {
		ff_bug(d, "pipe2");
		return;
	}
	pid = fork();
	if (!pid) {
		dup2(fd[1], STDOUT_FILENO);
		execl(helper, helper, what, (char *)NULL);
		dprintf(STDOUT_FILENO, "exec=%d\n", errno);
		_exit(127);
	}
	close(fd[1]);
	len = pid < 0 ? -1 : read(fd[0], out, sizeof(out) - 1);
	close(fd[0]);
	if (pid < 0 || len < 0) {
		ff_bug(d, "fork/read");
		return;
	}
	out[len] = '\0';
	waitpid(pid, &status, 0);

	if (sscanf(out, "exec=%d", &err) == 1) {
		errno = err;
		if (err == ENOEXEC)
			snprintf(d->skip, sizeof(d->skip), "kernel cannot run 32-bit programs");
		else
			ff_bug(d, helper);
		return;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) ||
	    sscanf(out, "err=%d state=%u", &d->err, &d->state) != 2) {
		errno = EPROTO;
		snprintf(d->bug, sizeof(d->bug), "%s %s: %.100s", FF_HELPER, what, out);
	}
}

static void drive_compat_robust_exit(struct ff_drive *d)
{
	ff_compat32(d, "robust_exit");
}

static void drive_compat_get_robust_list(struct ff_drive *d)
{
	ff_compat32(d, "get_robust_list");
}

static void drive_compat_futex_time32(struct ff_drive *d)
{
	ff_compat32(d, "futex_time32");
}

static void *ff_drive_thread(void *arg)
{
	struct ff_drive *d = arg;

	d->fn(d);
	return NULL;
}

/* Run @fn in a fresh thread, on a fresh page */
static void ff_drive(struct __test_metadata *_metadata, void (*fn)(struct ff_drive *d),
		     struct ff_drive *d)
{
	size_t size = getpagesize();
	pthread_t t;

	memset(d, 0, sizeof(*d));
	d->fn = fn;
	d->page = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	ASSERT_NE(MAP_FAILED, d->page);
	ASSERT_EQ(0, pthread_create(&t, NULL, ff_drive_thread, d));
	ASSERT_EQ(0, pthread_join(t, NULL));
	munmap((void *)d->page, size);
}

/* ---------------------------------------------------------- the sites */

struct ff_outcome {
	int err;
	unsigned int state;
};

FIXTURE(futex_fault) {
	struct ff_env env;
};

FIXTURE_VARIANT(futex_fault) {
	const char *site;		/* the site under test */
	const char *first;		/* a site that must fail first to reach it, or NULL */
	const char *op;			/* the op the events print */
	void (*drive)(struct ff_drive *d);
	struct ff_outcome faulted;	/* what user space sees with the fault */
	struct ff_outcome normal;	/* and without */
};

FIXTURE_SETUP(futex_fault)
{
	ff_env_setup(_metadata, &self->env);
}

FIXTURE_TEARDOWN(futex_fault)
{
	ff_env_teardown(_metadata, &self->env);
}

/*
 * One variant per site, named after it.  first: the site that must fail
 * before the site under test is reached (both are enabled and the policy
 * allows two failures).  op: what the events print, "none" outside
 * futex(2).  faulted and normal: what the driver reports, with the fault
 * injected and without; a retry site recovers, so both are the same.
 */

/* core.c: futex keys */
FIXTURE_VARIANT_ADD(futex_fault, get_key_access) {
	.site = "get_key_access", .op = "WAIT_PRIVATE",
	.drive = drive_wait, .faulted = { -EFAULT }, .normal = { -EAGAIN },
};

FIXTURE_VARIANT_ADD(futex_fault, get_key_gup) {
	.site = "get_key_gup", .op = "WAIT",
	.drive = drive_wait_shared, .faulted = { -EFAULT }, .normal = { -EAGAIN },
};

FIXTURE_VARIANT_ADD(futex_fault, get_key_anon_ro) {
	.site = "get_key_anon_ro", .op = "WAIT",
	.drive = drive_wait_shared, .faulted = { -EFAULT }, .normal = { -EAGAIN },
};

/*
 * core.c: the robust list walks at exit.  A fault ends the walk: the futexes
 * it did not reach keep the owner's TID, without FUTEX_OWNER_DIED.  The
 * entry whose next pointer could not be read is still handled.
 */
FIXTURE_VARIANT_ADD(futex_fault, death_get_value) {
	.site = "death_get_value", .op = "none",
	.drive = drive_robust_exit, .faulted = { 0 }, .normal = { 0, 3 },
};

FIXTURE_VARIANT_ADD(futex_fault, death_cmpxchg) {
	.site = "death_cmpxchg", .op = "none",
	.drive = drive_robust_exit, .faulted = { 0, 3 }, .normal = { 0, 3 },
};

FIXTURE_VARIANT_ADD(futex_fault, death_fault_in) {
	.site = "death_fault_in", .first = "death_cmpxchg", .op = "none",
	.drive = drive_robust_exit, .faulted = { 0 }, .normal = { 0, 3 },
};

FIXTURE_VARIANT_ADD(futex_fault, robust_fetch_head) {
	.site = "robust_fetch_head", .op = "none",
	.drive = drive_robust_exit, .faulted = { 0 }, .normal = { 0, 3 },
};

FIXTURE_VARIANT_ADD(futex_fault, robust_get_offset) {
	.site = "robust_get_offset", .op = "none",
	.drive = drive_robust_exit, .faulted = { 0 }, .normal = { 0, 3 },
};

FIXTURE_VARIANT_ADD(futex_fault, robust_fetch_pending) {
	.site = "robust_fetch_pending", .op = "none",
	.drive = drive_robust_exit, .faulted = { 0 }, .normal = { 0, 3 },
};

FIXTURE_VARIANT_ADD(futex_fault, robust_fetch_next) {
	.site = "robust_fetch_next", .op = "none",
	.drive = drive_robust_exit, .faulted = { 0, 1 }, .normal = { 0, 3 },
};

FIXTURE_VARIANT_ADD(futex_fault, compat_robust_fetch_head) {
	.site = "compat_robust_fetch_head", .op = "none",
	.drive = drive_compat_robust_exit, .faulted = { 0 }, .normal = { 0, 3 },
};

FIXTURE_VARIANT_ADD(futex_fault, compat_robust_get_offset) {
	.site = "compat_robust_get_offset", .op = "none",
	.drive = drive_compat_robust_exit, .faulted = { 0 }, .normal = { 0, 3 },
};

FIXTURE_VARIANT_ADD(futex_fault, compat_robust_fetch_pending) {
	.site = "compat_robust_fetch_pending", .op = "none",
	.drive = drive_compat_robust_exit, .faulted = { 0 }, .normal = { 0, 3 },
};

FIXTURE_VARIANT_ADD(futex_fault, compat_robust_fetch_next) {
	.site = "compat_robust_fetch_next", .op = "none",
	.drive = drive_compat_robust_exit, .faulted = { 0, 1 }, .normal = { 0, 3 },
};

/* syscalls.c */
FIXTURE_VARIANT_ADD(futex_fault, get_robust_list_len) {
	.site = "get_robust_list_len", .op = "none",
	.drive = drive_get_robust_list, .faulted = { -EFAULT }, .normal = { 0, 3 },
};

FIXTURE_VARIANT_ADD(futex_fault, get_robust_list_head) {
	.site = "get_robust_list_head", .op = "none",
	.drive = drive_get_robust_list, .faulted = { -EFAULT, 1 }, .normal = { 0, 3 },
};

FIXTURE_VARIANT_ADD(futex_fault, futex_get_timeout) {
	.site = "futex_get_timeout", .op = "WAIT_PRIVATE",
	.drive = drive_wait_timeout, .faulted = { -EFAULT }, .normal = { -EAGAIN },
};

FIXTURE_VARIANT_ADD(futex_fault, waitv_copy) {
	.site = "waitv_copy", .op = "none",
	.drive = drive_waitv, .faulted = { -EFAULT }, .normal = { -EAGAIN },
};

FIXTURE_VARIANT_ADD(futex_fault, waitv_get_timeout) {
	.site = "waitv_get_timeout", .op = "none",
	.drive = drive_waitv, .faulted = { -EFAULT }, .normal = { -EAGAIN },
};

FIXTURE_VARIANT_ADD(futex_fault, waitv_alloc) {
	.site = "waitv_alloc", .op = "none",
	.drive = drive_waitv, .faulted = { -ENOMEM }, .normal = { -EAGAIN },
};

FIXTURE_VARIANT_ADD(futex_fault, compat_get_robust_list_len) {
	.site = "compat_get_robust_list_len", .op = "none",
	.drive = drive_compat_get_robust_list, .faulted = { -EFAULT }, .normal = { 0, 3 },
};

FIXTURE_VARIANT_ADD(futex_fault, compat_get_robust_list_head) {
	.site = "compat_get_robust_list_head", .op = "none",
	.drive = drive_compat_get_robust_list, .faulted = { -EFAULT, 1 }, .normal = { 0, 3 },
};

FIXTURE_VARIANT_ADD(futex_fault, futex_time32_get_timeout) {
	.site = "futex_time32_get_timeout", .op = "none",
	.drive = drive_compat_futex_time32, .faulted = { -EFAULT }, .normal = { -EAGAIN },
};

/* waitwake.c */
FIXTURE_VARIANT_ADD(futex_fault, wake_get_key) {
	.site = "wake_get_key", .op = "WAKE_PRIVATE",
	.drive = drive_wake, .faulted = { -EFAULT }, .normal = { 0 },
};

FIXTURE_VARIANT_ADD(futex_fault, wake_op_get_key1) {
	.site = "wake_op_get_key1", .op = "WAKE_OP_PRIVATE",
	.drive = drive_wake_op, .faulted = { -EFAULT }, .normal = { 0, 1 },
};

FIXTURE_VARIANT_ADD(futex_fault, wake_op_get_key2) {
	.site = "wake_op_get_key2", .op = "WAKE_OP_PRIVATE",
	.drive = drive_wake_op, .faulted = { -EFAULT }, .normal = { 0, 1 },
};

FIXTURE_VARIANT_ADD(futex_fault, wake_op_atomic) {
	.site = "wake_op_atomic", .op = "WAKE_OP_PRIVATE",
	.drive = drive_wake_op, .faulted = { 0, 1 }, .normal = { 0, 1 },
};

FIXTURE_VARIANT_ADD(futex_fault, wake_op_fault_in) {
	.site = "wake_op_fault_in", .first = "wake_op_atomic", .op = "WAKE_OP_PRIVATE",
	.drive = drive_wake_op, .faulted = { -EFAULT }, .normal = { 0, 1 },
};

FIXTURE_VARIANT_ADD(futex_fault, waitv_get_key) {
	.site = "waitv_get_key", .op = "none",
	.drive = drive_waitv, .faulted = { -EFAULT }, .normal = { -EAGAIN },
};

FIXTURE_VARIANT_ADD(futex_fault, waitv_get_value) {
	.site = "waitv_get_value", .op = "none",
	.drive = drive_waitv, .faulted = { -EAGAIN }, .normal = { -EAGAIN },
};

FIXTURE_VARIANT_ADD(futex_fault, waitv_get_user) {
	.site = "waitv_get_user", .first = "waitv_get_value", .op = "none",
	.drive = drive_waitv, .faulted = { -EFAULT }, .normal = { -EAGAIN },
};

FIXTURE_VARIANT_ADD(futex_fault, wait_get_key) {
	.site = "wait_get_key", .op = "WAIT_PRIVATE",
	.drive = drive_wait, .faulted = { -EFAULT }, .normal = { -EAGAIN },
};

FIXTURE_VARIANT_ADD(futex_fault, wait_get_value) {
	.site = "wait_get_value", .op = "WAIT_PRIVATE",
	.drive = drive_wait, .faulted = { -EAGAIN }, .normal = { -EAGAIN },
};

FIXTURE_VARIANT_ADD(futex_fault, wait_get_user) {
	.site = "wait_get_user", .first = "wait_get_value", .op = "WAIT_PRIVATE",
	.drive = drive_wait, .faulted = { -EFAULT }, .normal = { -EAGAIN },
};

/*
 * pi.c.  When the fixup of an owner-died futex gives up, the caller holds
 * the lock but the futex still names the dead owner.
 */
FIXTURE_VARIANT_ADD(futex_fault, pi_state_alloc) {
	.site = "pi_state_alloc", .op = "LOCK_PI_PRIVATE",
	.drive = drive_lock_pi, .faulted = { -ENOMEM }, .normal = { 0, 1 },
};

FIXTURE_VARIANT_ADD(futex_fault, attach_get_value) {
	.site = "attach_get_value", .op = "TRYLOCK_PI_PRIVATE",
	.drive = drive_trylock_pi_contended, .faulted = { -EAGAIN, 1 }, .normal = { -EAGAIN, 1 },
};

FIXTURE_VARIANT_ADD(futex_fault, exit_race_get_value) {
	.site = "exit_race_get_value", .op = "LOCK_PI_PRIVATE",
	.drive = drive_lock_pi_dead_owner, .faulted = { -ESRCH }, .normal = { -ESRCH },
};

FIXTURE_VARIANT_ADD(futex_fault, lock_pi_update_cmpxchg) {
	.site = "lock_pi_update_cmpxchg", .op = "LOCK_PI2_PRIVATE",
	.drive = drive_lock_pi2, .faulted = { 0, 1 }, .normal = { 0, 1 },
};

FIXTURE_VARIANT_ADD(futex_fault, lock_pi_atomic_get_value) {
	.site = "lock_pi_atomic_get_value", .op = "LOCK_PI_PRIVATE",
	.drive = drive_lock_pi, .faulted = { 0, 1 }, .normal = { 0, 1 },
};

FIXTURE_VARIANT_ADD(futex_fault, lock_pi_atomic_deadlock) {
	.site = "lock_pi_atomic_deadlock", .op = "LOCK_PI_PRIVATE",
	.drive = drive_lock_pi, .faulted = { -EDEADLK }, .normal = { 0, 1 },
};

FIXTURE_VARIANT_ADD(futex_fault, wake_pi_cmpxchg) {
	.site = "wake_pi_cmpxchg", .op = "UNLOCK_PI_PRIVATE",
	.drive = drive_unlock_pi_handoff, .faulted = { 0, 1 }, .normal = { 0, 1 },
};

FIXTURE_VARIANT_ADD(futex_fault, fixup_owner_get_value) {
	.site = "fixup_owner_get_value", .op = "LOCK_PI_PRIVATE",
	.drive = drive_lock_pi_owner_died, .faulted = { 0, 1 }, .normal = { 0, 1 },
};

FIXTURE_VARIANT_ADD(futex_fault, fixup_owner_cmpxchg) {
	.site = "fixup_owner_cmpxchg", .op = "LOCK_PI_PRIVATE",
	.drive = drive_lock_pi_owner_died, .faulted = { 0, 1 }, .normal = { 0, 1 },
};

FIXTURE_VARIANT_ADD(futex_fault, fixup_owner_fault_in) {
	.site = "fixup_owner_fault_in", .first = "fixup_owner_get_value", .op = "LOCK_PI_PRIVATE",
	.drive = drive_lock_pi_owner_died, .faulted = { -EFAULT }, .normal = { 0, 1 },
};

FIXTURE_VARIANT_ADD(futex_fault, lock_pi_get_key) {
	.site = "lock_pi_get_key", .op = "LOCK_PI_PRIVATE",
	.drive = drive_lock_pi, .faulted = { -EFAULT }, .normal = { 0, 1 },
};

FIXTURE_VARIANT_ADD(futex_fault, lock_pi_fault_in) {
	.site = "lock_pi_fault_in", .first = "lock_pi_atomic_get_value", .op = "LOCK_PI_PRIVATE",
	.drive = drive_lock_pi, .faulted = { -EFAULT }, .normal = { 0, 1 },
};

FIXTURE_VARIANT_ADD(futex_fault, unlock_pi_get_user) {
	.site = "unlock_pi_get_user", .op = "UNLOCK_PI_PRIVATE",
	.drive = drive_unlock_pi, .faulted = { -EFAULT, 1 }, .normal = { 0 },
};

FIXTURE_VARIANT_ADD(futex_fault, unlock_pi_get_key) {
	.site = "unlock_pi_get_key", .op = "UNLOCK_PI_PRIVATE",
	.drive = drive_unlock_pi, .faulted = { -EFAULT, 1 }, .normal = { 0 },
};

FIXTURE_VARIANT_ADD(futex_fault, unlock_pi_cmpxchg) {
	.site = "unlock_pi_cmpxchg", .op = "UNLOCK_PI_PRIVATE",
	.drive = drive_unlock_pi, .faulted = { 0 }, .normal = { 0 },
};

FIXTURE_VARIANT_ADD(futex_fault, unlock_pi_fault_in) {
	.site = "unlock_pi_fault_in", .first = "unlock_pi_cmpxchg", .op = "UNLOCK_PI_PRIVATE",
	.drive = drive_unlock_pi, .faulted = { -EFAULT, 1 }, .normal = { 0 },
};

/* requeue.c */
FIXTURE_VARIANT_ADD(futex_fault, proxy_trylock_get_value) {
	.site = "proxy_trylock_get_value", .op = "CMP_REQUEUE_PI_PRIVATE",
	.drive = drive_cmp_requeue_pi, .faulted = { 0 }, .normal = { 0 },
};

FIXTURE_VARIANT_ADD(futex_fault, requeue_get_key1) {
	.site = "requeue_get_key1", .op = "CMP_REQUEUE_PRIVATE",
	.drive = drive_cmp_requeue, .faulted = { -EFAULT }, .normal = { 0 },
};

FIXTURE_VARIANT_ADD(futex_fault, requeue_get_key2) {
	.site = "requeue_get_key2", .op = "CMP_REQUEUE_PRIVATE",
	.drive = drive_cmp_requeue, .faulted = { -EFAULT }, .normal = { 0 },
};

FIXTURE_VARIANT_ADD(futex_fault, requeue_get_value) {
	.site = "requeue_get_value", .op = "CMP_REQUEUE_PRIVATE",
	.drive = drive_cmp_requeue, .faulted = { 0 }, .normal = { 0 },
};

FIXTURE_VARIANT_ADD(futex_fault, requeue_get_user) {
	.site = "requeue_get_user", .first = "requeue_get_value", .op = "CMP_REQUEUE_PRIVATE",
	.drive = drive_cmp_requeue, .faulted = { -EFAULT }, .normal = { 0 },
};

FIXTURE_VARIANT_ADD(futex_fault, requeue_fault_in) {
	.site = "requeue_fault_in", .first = "proxy_trylock_get_value",
	.op = "CMP_REQUEUE_PI_PRIVATE",
	.drive = drive_cmp_requeue_pi, .faulted = { -EFAULT }, .normal = { 0 },
};

FIXTURE_VARIANT_ADD(futex_fault, wait_requeue_pi_get_key2) {
	.site = "wait_requeue_pi_get_key2", .op = "WAIT_REQUEUE_PI_PRIVATE",
	.drive = drive_wait_requeue_pi, .faulted = { -EFAULT }, .normal = { -EAGAIN },
};

/* Start from a known state: the policy armed for @times failures, every site off */
static void ff_start(struct __test_metadata *_metadata, struct ff_env *env, int times)
{
	ASSERT_EQ(0, ff_key_set("all", false));
	ff_arm(_metadata, times);
	ASSERT_EQ(0, ff_write(FF_RESET, "1"));
	ASSERT_EQ(0, ff_trace_clear(env->trace));
}

static void ff_expect_outcome(struct __test_metadata *_metadata, const struct ff_outcome *want,
			      const struct ff_drive *d)
{
	ASSERT_EQ(0, d->bug[0]) TH_LOG("driver: %s", d->bug);
	EXPECT_EQ(want->err, d->err) TH_LOG("got %s, want %s", strerror(-d->err),
					    strerror(-want->err));
	EXPECT_EQ(want->state, d->state);
}

/* One event of @site for each failure, with the site's errno and @op */
static void ff_expect_events(struct __test_metadata *_metadata, const struct ff_events *ev,
			     const struct ff_site *site, const char *op)
{
	int i;

	EXPECT_EQ(1, ff_events_count(ev, site->name)) TH_LOG("site %s", site->name);
	for (i = 0; i < ev->nr && i < FF_MAX_EVENTS; i++) {
		if (strcmp(ev->ev[i].site, site->name))
			continue;
		EXPECT_STREQ(site->err, ev->ev[i].err);
		EXPECT_STREQ(op, ev->ev[i].op);
	}
}

/* The site table counted what the events show */
static void ff_expect_counted(struct __test_metadata *_metadata, const char *name,
			      struct ff_site *site)
{
	ASSERT_EQ(0, ff_site_get(name, site)) TH_LOG("site %s", name);
	EXPECT_EQ(1, site->enabled);
	EXPECT_EQ(1, site->injected) TH_LOG("site %s", name);
	EXPECT_LE(site->injected, site->hits) TH_LOG("site %s", name);
}

TEST_F(futex_fault, inject)
{
	const struct __fixture_variant_metadata *v;
	int nr = variant->first ? 2 : 1;
	struct ff_site site, first;
	struct ff_events ev;
	struct ff_drive d;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);

	/* The variant tests the site it is named after */
	for (v = _futex_fault_fixture_object.variant; v && v->data != variant; v = v->next)
		;
	ASSERT_NE(NULL, v);
	ASSERT_STREQ(v->name, variant->site);
	ASSERT_EQ(0, ff_site_get(variant->site, &site)) TH_LOG("no site %s", variant->site);
	ff_start(_metadata, &self->env, nr);
	ASSERT_EQ(0, ff_key_set(variant->site, true));
	ASSERT_EQ(1, ff_key_get(variant->site));
	if (variant->first)
		ASSERT_EQ(0, ff_key_set(variant->first, true));

	ff_drive(_metadata, variant->drive, &d);
	if (d.skip[0])
		SKIP(return, "%s", d.skip);

	/* (a) what user space sees */
	ff_expect_outcome(_metadata, &variant->faulted, &d);

	/* (c) the site table, and the policy budget spent */
	ff_expect_counted(_metadata, variant->site, &site);
	if (variant->first)
		ff_expect_counted(_metadata, variant->first, &first);
	EXPECT_EQ(0, ff_times());

	/* (b) exactly one event per failure */
	ASSERT_EQ(0, ff_events_read(self->env.trace, &ev));
	EXPECT_EQ(nr, ev.nr);
	ff_expect_events(_metadata, &ev, &site, variant->op);
	if (variant->first)
		ff_expect_events(_metadata, &ev, &first, variant->op);
}

/* (d) The policy armed, the site disabled: nothing fails, nothing is counted */
TEST_F(futex_fault, disabled)
{
	int nr = variant->first ? 2 : 1;
	struct ff_events ev;
	struct ff_site site;
	struct ff_drive d;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);

	ff_start(_metadata, &self->env, nr);
	ASSERT_EQ(0, ff_key_get(variant->site));

	ff_drive(_metadata, variant->drive, &d);
	if (d.skip[0])
		SKIP(return, "%s", d.skip);

	ff_expect_outcome(_metadata, &variant->normal, &d);

	ASSERT_EQ(0, ff_site_get(variant->site, &site));
	EXPECT_EQ(0, site.enabled);
	EXPECT_EQ(0, site.hits);
	EXPECT_EQ(0, site.injected);
	EXPECT_EQ(nr, ff_times());

	ASSERT_EQ(0, ff_events_read(self->env.trace, &ev));
	EXPECT_EQ(0, ev.nr);
}

/* --------------------------------------------- controls and policy */

FIXTURE(futex_fault_ctl) {
	struct ff_env env;
};

FIXTURE_SETUP(futex_fault_ctl)
{
	ff_env_setup(_metadata, &self->env);
}

FIXTURE_TEARDOWN(futex_fault_ctl)
{
	ff_env_teardown(_metadata, &self->env);
}

/*
 * Every site of the kernel has a variant above, and every variant is named
 * after a site of the kernel.  (The "inject" test checks that the variant
 * tests the site it is named after.)
 */
TEST_F(futex_fault_ctl, every_site_tested)
{
	const struct __fixture_variant_metadata *v;
	const struct ff_site *s;
	struct ff_site site;
	bool found;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);

	for (s = self->env.site; s < self->env.site + self->env.nr_sites; s++) {
		found = false;
		for (v = _futex_fault_fixture_object.variant; v; v = v->next)
			found |= !strcmp(v->name, s->name);
		EXPECT_TRUE(found) TH_LOG("site %s has no test", s->name);
	}
	for (v = _futex_fault_fixture_object.variant; v; v = v->next)
		EXPECT_EQ(0, ff_site_get(v->name, &site)) TH_LOG("no site %s", v->name);
}

/* Write @len bytes of @buf to a key file.  Return: the write's result or -errno. */
static ssize_t ff_key_write(const char *key, const void *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t ret;
	int fd;

	snprintf(path, sizeof(path), FF_KEYS "/%s", key);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ret = write(fd, buf, len);
	if (ret < 0)
		ret = -errno;
	close(fd);
	return ret;
}

static const char * const ff_bad_input[] = {
	"\n", "x", "abc", "Y", "on", "2", "10", "-1", "-0", "1x", "0abc", " 1", "1 ", "1\n1",
	"0x1", "1.0", "4294967297", "99999999999999999999", "+1", "01", "00000001",
};

/* Seek to @off in @path, then write @len bytes of @buf.  Return: the result or -errno. */
static ssize_t ff_seek_write(const char *path, const void *buf, size_t len, off_t off)
{
	ssize_t ret = -1;
	int fd;

	fd = open(path, O_RDWR);
	if (fd < 0)
		return -errno;
	if (lseek(fd, off, SEEK_SET) == off)
		ret = write(fd, buf, len);
	if (ret < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Write @len bytes of @buf to @path at offset @off.  Return: the result or -errno. */
static ssize_t ff_pwrite(const char *path, const void *buf, size_t len, off_t off)
{
	ssize_t ret;
	int fd;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	ret = pwrite(fd, buf, len, off);
	if (ret < 0)
		ret = -errno;
	close(fd);
	return ret;
}

/* Every bad write to @key fails with EINVAL and leaves every key as it was */
static void ff_check_bad_input(struct __test_metadata *_metadata, const char *key)
{
	static const size_t huge[] = { 4096, 4097, 65536 };
	int before = ff_key_get(key), all = ff_key_get("all");
	char *buf;
	unsigned int i;

	ASSERT_LE(0, before);
	for (i = 0; i < ARRAY_SIZE(ff_bad_input); i++) {
		EXPECT_EQ(-EINVAL, ff_key_write(key, ff_bad_input[i], strlen(ff_bad_input[i])))
			TH_LOG("%s: \"%s\"", key, ff_bad_input[i]);
		EXPECT_EQ(before, ff_key_get(key));
		EXPECT_EQ(all, ff_key_get("all"));
	}

	/* A NUL does not end the input; an unreadable buffer is EFAULT */
	EXPECT_EQ(-EINVAL, ff_key_write(key, "1\0", 2));
	EXPECT_EQ(-EINVAL, ff_key_write(key, "0\0", 2));
	EXPECT_EQ(-EFAULT, ff_key_write(key, (void *)8, 1));
	EXPECT_EQ(before, ff_key_get(key));
	EXPECT_EQ(all, ff_key_get("all"));

	/* Huge writes: digits that would parse, and garbage */
	buf = malloc(huge[ARRAY_SIZE(huge) - 1]);
	ASSERT_NE(NULL, buf);
	for (i = 0; i < ARRAY_SIZE(huge); i++) {
		memset(buf, '0', huge[i]);
		buf[huge[i] - 1] = '1';
		EXPECT_EQ(-EINVAL, ff_key_write(key, buf, huge[i])) TH_LOG("%zu digits", huge[i]);
		EXPECT_EQ(before, ff_key_get(key));
		memset(buf, 'z', huge[i]);
		EXPECT_EQ(-EINVAL, ff_key_write(key, buf, huge[i])) TH_LOG("%zu bytes", huge[i]);
		EXPECT_EQ(before, ff_key_get(key));
		EXPECT_EQ(all, ff_key_get("all"));
	}
	free(buf);
}

TEST_F(futex_fault_ctl, site_key_bad_input)
{
	const char *key;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);
	key = self->env.site[0].name;

	/* Nothing may fire while keys flip: probability 0 */
	ff_arm(_metadata, 1);
	ASSERT_EQ(0, ff_knob_set("probability", "0"));
	ASSERT_EQ(0, ff_key_set("all", false));

	ASSERT_EQ(0, ff_key_get(key));
	ff_check_bad_input(_metadata, key);

	ASSERT_EQ(2, ff_key_write(key, "1\n", 2));
	ASSERT_EQ(1, ff_key_get(key));
	ASSERT_EQ(1, ff_key_get("all"));
	ff_check_bad_input(_metadata, key);

	ASSERT_EQ(1, ff_key_write(key, "0", 1));
	ASSERT_EQ(0, ff_key_get(key));
	ASSERT_EQ(0, ff_key_get("all"));
}

TEST_F(futex_fault_ctl, all_key_bad_input)
{
	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);

	ff_arm(_metadata, 1);
	ASSERT_EQ(0, ff_knob_set("probability", "0"));

	ASSERT_EQ(0, ff_key_set("all", false));
	ASSERT_EQ(0, ff_key_get("all"));
	ff_check_bad_input(_metadata, "all");

	ASSERT_EQ(2, ff_key_write("all", "1\n", 2));
	ASSERT_EQ(self->env.nr_sites, ff_key_get("all"));
	ASSERT_EQ(1, ff_key_get(self->env.site[self->env.nr_sites - 1].name));
	ff_check_bad_input(_metadata, "all");

	ASSERT_EQ(0, ff_key_set("all", false));
	ASSERT_EQ(0, ff_key_get("all"));
}

/* Input is taken at offset 0 only; "reset" takes 1 and nothing else */
TEST_F(futex_fault_ctl, offset_and_reset_input)
{
	char path[PATH_MAX];

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);

	ff_arm(_metadata, 1);
	ASSERT_EQ(0, ff_knob_set("probability", "0"));
	ASSERT_EQ(0, ff_key_set("all", false));

	/* Key files are seq_files: no pwrite(); a write after a seek fails */
	snprintf(path, sizeof(path), FF_KEYS "/%s", self->env.site[0].name);
	EXPECT_EQ(-ESPIPE, ff_pwrite(path, "1", 1, 1));
	EXPECT_EQ(-EINVAL, ff_seek_write(path, "1", 1, 1));
	EXPECT_EQ(0, ff_key_get(self->env.site[0].name));
	EXPECT_EQ(-EINVAL, ff_seek_write(FF_KEYS "/all", "1", 1, 2));
	EXPECT_EQ(0, ff_key_get("all"));
	EXPECT_EQ(-EINVAL, ff_pwrite(FF_RESET, "1", 1, 1));

	EXPECT_EQ(-EINVAL, ff_pwrite(FF_RESET, "", 0, 0));
	EXPECT_EQ(-EINVAL, ff_pwrite(FF_RESET, "0", 1, 0));
	EXPECT_EQ(-EINVAL, ff_pwrite(FF_RESET, "yes", 3, 0));
	EXPECT_EQ(-EFAULT, ff_pwrite(FF_RESET, (void *)8, 1, 0));
	EXPECT_EQ(2, ff_pwrite(FF_RESET, "1\n", 2, 0));
}

/* A value read in pieces is the one of the first read, even if it changes */
TEST_F(futex_fault_ctl, key_read_in_pieces)
{
	char buf[16] = "";
	int fd;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);

	ff_arm(_metadata, 1);
	ASSERT_EQ(0, ff_knob_set("probability", "0"));
	ASSERT_EQ(0, ff_key_set("all", true));

	fd = open(FF_KEYS "/all", O_RDONLY);
	ASSERT_LE(0, fd);
	ASSERT_EQ(1, read(fd, buf, 1));
	ASSERT_EQ(0, ff_key_set("all", false));
	ASSERT_LT(0, read(fd, buf + 1, sizeof(buf) - 2));
	close(fd);
	EXPECT_EQ(self->env.nr_sites, atoi(buf)) TH_LOG("read \"%s\"", buf);
}

TEST_F(futex_fault_ctl, unknown_site)
{
	struct ff_site site;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);

	EXPECT_EQ(-ENOENT, ff_key_write("no_such_site", "1", 1));
	EXPECT_EQ(-ENOENT, ff_site_get("no_such_site", &site));
	EXPECT_EQ(-ENOENT, ff_key_get("no_such_site"));
}

/*
 * A retry site that fails every time it is hit fails 3 times in a row, then
 * lets one pass through: the operation ends, as if nothing had happened.
 * Run in this thread: a concurrent hit of the site by another thread (even
 * one that is not picked to fail) would end the streak early.
 */
TEST_F(futex_fault_ctl, retry_streak_ends)
{
	struct ff_events ev;
	struct ff_site site;
	struct ff_drive d = { 0 };
	futex_t f = 0;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);

	ff_start(_metadata, &self->env, -1);
	ASSERT_EQ(0, ff_key_set("wait_get_value", true));

	d.page = &f;
	drive_wait(&d);
	ASSERT_EQ(0, d.bug[0]) TH_LOG("%s", d.bug);
	EXPECT_EQ(-EAGAIN, d.err);

	ASSERT_EQ(0, ff_site_get("wait_get_value", &site));
	EXPECT_EQ(FF_MAX_STREAK, site.injected);
	EXPECT_LE(FF_MAX_STREAK + 1, site.hits);
	ASSERT_EQ(0, ff_events_read(self->env.trace, &ev));
	EXPECT_EQ(FF_MAX_STREAK, ev.nr);
	EXPECT_EQ(FF_MAX_STREAK, ff_events_count(&ev, "wait_get_value"));
}

/* fail-nth picks the n-th hit of an enabled site in this thread, whatever the probability */
TEST_F(futex_fault_ctl, fail_nth)
{
	struct ff_events ev;
	struct ff_site site;
	char buf[16];
	futex_t f = 0;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);

	ff_start(_metadata, &self->env, 1);
	ASSERT_EQ(0, ff_knob_set("probability", "0"));
	ASSERT_EQ(0, ff_knob_set("task-filter", "N"));
	ASSERT_EQ(0, ff_key_set("wait_get_key", true));

	ASSERT_EQ(0, ff_write(FF_FAIL_NTH, "2"));
	EXPECT_EQ(-EAGAIN, ff_ret(futex_wait(&f, 1, NULL, FUTEX_PRIVATE_FLAG)));
	EXPECT_EQ(-EFAULT, ff_ret(futex_wait(&f, 1, NULL, FUTEX_PRIVATE_FLAG)));
	EXPECT_EQ(-EAGAIN, ff_ret(futex_wait(&f, 1, NULL, FUTEX_PRIVATE_FLAG)));
	ASSERT_EQ(0, ff_read_line(FF_FAIL_NTH, buf, sizeof(buf)));
	EXPECT_STREQ("0", buf);

	ASSERT_EQ(0, ff_site_get("wait_get_key", &site));
	EXPECT_EQ(1, site.injected);
	EXPECT_LE(3, site.hits);
	ASSERT_EQ(0, ff_events_read(self->env.trace, &ev));
	EXPECT_EQ(1, ev.nr);
	EXPECT_EQ(1, ff_events_count(&ev, "wait_get_key"));
}

/* ignore-private spares private futexes: their hits count, nothing fails */
TEST_F(futex_fault_ctl, ignore_private)
{
	struct ff_drive d = { 0 };
	struct ff_events ev;
	struct ff_site site;
	futex_t f = 0;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);

	ff_start(_metadata, &self->env, 1);
	ASSERT_EQ(0, ff_knob_set("ignore-private", "Y"));
	ASSERT_EQ(0, ff_key_set("wait_get_key", true));

	d.page = &f;
	drive_wait(&d);
	EXPECT_EQ(-EAGAIN, d.err);
	ASSERT_EQ(0, ff_site_get("wait_get_key", &site));
	EXPECT_EQ(0, site.injected);
	EXPECT_LE(1, site.hits);

	drive_wait_shared(&d);
	EXPECT_EQ(-EFAULT, d.err);
	ASSERT_EQ(0, d.bug[0]) TH_LOG("%s", d.bug);
	ASSERT_EQ(0, ff_site_get("wait_get_key", &site));
	EXPECT_EQ(1, site.injected);

	ASSERT_EQ(0, ff_events_read(self->env.trace, &ev));
	EXPECT_EQ(1, ev.nr);
	EXPECT_STREQ("WAIT", ev.ev[0].op);
}

TEST_HARNESS_MAIN
