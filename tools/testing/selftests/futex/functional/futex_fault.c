// SPDX-License-Identifier: GPL-2.0
/*
 * Per-site futex fault injection (CONFIG_FAIL_FUTEX).
 *
 * Every fault site in kernel/futex/ is one variant of the futex_fault
 * fixture, described by its case in futex_fault_cases.h.  The "inject"
 * test enables the site, drives the futex operation that reaches it, and
 * checks what user space sees, the futex_fault:futex_fault_inject trace
 * events and the counters of the site table.  For a retry site it also
 * checks that the recovery ran: the fault-in or get_user site that follows
 * the failed access was hit, or, for an -EAGAIN site, the site was hit
 * again.  The "disabled" test arms the same policy but leaves the site
 * disabled, and checks that the operation is unaffected and that nothing
 * is counted.  A site that the running kernel does not have (the compat
 * sites without CONFIG_COMPAT) is a SKIP.
 *
 * Some sites start enabled at boot.  Each test first switches every site
 * off; teardown puts back the sites and fail_futex knobs it found.
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
 * The futex_fault_ctl tests check that every site of the kernel has a case
 * here, that the debugfs controls reject bad input and leave the state
 * alone, and the policy: times bounds a retry loop, a task looping at a
 * retry site can be killed, fail-nth, ignore-private, the read-only
 * fallback of get_futex_key(), and a user who only knows the standard
 * fault injection knobs.
 */

#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
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
#define FF_NO_EVENT	"no trace event futex_fault:futex_fault_inject (a kernel from before it)"
#define FF_MAKE_IT_FAIL	"/proc/thread-self/make-it-fail"
#define FF_FAIL_NTH	"/proc/thread-self/fail-nth"
#define FF_HELPER	"futex_fault_compat32"

#define FF_MAX_SITES	128
#define FF_MAX_EVENTS	16
#define FF_NAME_LEN	64
#define FF_FUNC_LEN	128
#define FF_MAX_COLS	16
/* Bound of every wait for another thread: never reached when all is well */
#define FF_TIMEOUT_S	10

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
	char func[FF_FUNC_LEN];		/* of the last hit's call_site, "-" before */
};

/* The columns of the site table that the tests read, found by name */
enum { FF_COL_NAME, FF_COL_ERRNO, FF_COL_ENABLED, FF_COL_HITS, FF_COL_INJECTED,
	FF_COL_CALL_SITE, FF_NR_COLS };

static const char * const ff_col_names[FF_NR_COLS] = {
	"name", "errno", "enabled", "hits", "injected", "call_site",
};

/* The function of a "%pS" call site: "futex_wait_setup+0x5c/0x180" */
static void ff_func(char *dst, size_t size, const char *call_site)
{
	snprintf(dst, size, "%.*s", (int)strcspn(call_site, "+ "), call_site);
}

/* Parse a decimal number.  Return: 0 or -EINVAL. */
static int ff_parse_long(const char *s, long *val)
{
	char *end;

	errno = 0;
	*val = strtol(s, &end, 10);
	return end == s || *end || errno ? -EINVAL : 0;
}

/*
 * Parse the header "# name errno enabled ..." into @col, the position of
 * each column the tests read.  Return: the number of columns or -EINVAL.
 */
static int ff_sites_header(char *line, int col[FF_NR_COLS])
{
	char *tok, *save;
	int i, n = 0;

	for (i = 0; i < FF_NR_COLS; i++)
		col[i] = -1;
	tok = strtok_r(line, " \t", &save);
	if (!tok || strcmp(tok, "#"))
		return -EINVAL;
	for (tok = strtok_r(NULL, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save), n++) {
		for (i = 0; i < FF_NR_COLS; i++) {
			if (!strcmp(tok, ff_col_names[i]))
				col[i] = n;
		}
	}
	for (i = 0; i < FF_NR_COLS; i++) {
		if (col[i] < 0)
			return -EINVAL;
	}
	return n <= FF_MAX_COLS ? n : -EINVAL;
}

/* Parse one line of the site table.  Return: 0 or -EINVAL. */
static int ff_sites_line(char *line, const int col[FF_NR_COLS], int nr_cols, struct ff_site *s)
{
	char *tok[FF_MAX_COLS + 1], *save;
	long enabled;
	int n;

	for (n = 0; n <= nr_cols; n++) {
		tok[n] = strtok_r(n ? NULL : line, " \t", &save);
		if (!tok[n])
			break;
	}
	if (n != nr_cols)
		return -EINVAL;
	if (snprintf(s->name, sizeof(s->name), "%s", tok[col[FF_COL_NAME]]) >=
	    (int)sizeof(s->name))
		return -EINVAL;
	snprintf(s->err, sizeof(s->err), "%s", tok[col[FF_COL_ERRNO]]);
	ff_func(s->func, sizeof(s->func), tok[col[FF_COL_CALL_SITE]]);
	if (ff_parse_long(tok[col[FF_COL_ENABLED]], &enabled) ||
	    ff_parse_long(tok[col[FF_COL_HITS]], &s->hits) ||
	    ff_parse_long(tok[col[FF_COL_INJECTED]], &s->injected))
		return -EINVAL;
	s->enabled = enabled;
	return 0;
}

/* Parse the site table into @sites.  Return: the number of sites or -errno. */
static int ff_sites_read(struct ff_site *sites, int max)
{
	int col[FF_NR_COLS], nr_cols = -EINVAL, n = 0;
	size_t size = 64 * 1024;
	char *buf, *line, *save;
	ssize_t len;

	buf = malloc(size);
	if (!buf)
		return -ENOMEM;
	len = ff_read(FF_SITES, buf, size);
	if (len < 0 || (size_t)len == size - 1) {
		free(buf);
		return len < 0 ? len : -E2BIG;
	}
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#') {
			nr_cols = ff_sites_header(line, col);
			if (nr_cols < 0)
				break;
			continue;
		}
		if (nr_cols < 0 || n == max) {
			n = nr_cols < 0 ? -EINVAL : -E2BIG;
			break;
		}
		if (ff_sites_line(line, col, nr_cols, &sites[n])) {
			n = -EINVAL;
			break;
		}
		n++;
	}
	free(buf);
	return nr_cols < 0 ? nr_cols : n;
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

/*
 * Whether @func is one of the space separated names of @list.  A name
 * "*<suffix>" matches every function that ends with <suffix>: the system
 * call wrappers differ between architectures and configurations
 * (__x64_sys_futex, __ia32_sys_futex_time32, __se_sys_futex, ...).
 */
static bool ff_func_in(const char *func, const char *list)
{
	size_t len = strlen(func), n;
	const char *p;

	if (!len)
		return false;
	for (p = list + strspn(list, " "); *p; p += n, p += strspn(p, " ")) {
		n = strcspn(p, " ");
		if (*p == '*') {
			if (n - 1 <= len && !strncmp(func + len - (n - 1), p + 1, n - 1))
				return true;
		} else if (n == len && !strncmp(p, func, len)) {
			return true;
		}
	}
	return false;
}

/* -------------------------------------------------------------- events */

struct ff_event {
	char site[FF_NAME_LEN];
	char err[16];
	int shared;
	unsigned long uaddr;
	char func[FF_FUNC_LEN];		/* of call_site */
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

	if (snprintf(path, sizeof(path), "%s/trace", inst) >= (int)sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

/*
 * Parse the fields of one event, "site=<name> err=<errno> shared=<0|1>
 * uaddr=0x<address> call_site=<function>+<offset>/<size>", by their names.
 * Return: 0 or -EINVAL.
 */
static int ff_event_parse(char *fields, struct ff_event *ev)
{
	unsigned int seen = 0;
	char *tok, *save, *val;
	long shared;

	for (tok = strtok_r(fields, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		val = strchr(tok, '=');
		if (!val)
			continue;
		*val++ = '\0';
		if (!strcmp(tok, "site")) {
			snprintf(ev->site, sizeof(ev->site), "%s", val);
			seen |= 1;
		} else if (!strcmp(tok, "err")) {
			snprintf(ev->err, sizeof(ev->err), "%s", val);
			seen |= 2;
		} else if (!strcmp(tok, "shared")) {
			if (ff_parse_long(val, &shared))
				return -EINVAL;
			ev->shared = shared;
			seen |= 4;
		} else if (!strcmp(tok, "uaddr")) {
			ev->uaddr = strtoul(val, NULL, 16);
			seen |= 8;
		} else if (!strcmp(tok, "call_site")) {
			ff_func(ev->func, sizeof(ev->func), val);
			seen |= 16;
		}
	}
	return seen == 31 ? 0 : -EINVAL;
}

/* Collect the futex_fault_inject events of the trace instance @inst.  Return: 0 or -errno. */
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
		p = strstr(line, tag);
		if (!p)
			continue;
		if (e->nr < FF_MAX_EVENTS && ff_event_parse(p + strlen(tag), &e->ev[e->nr])) {
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
	const char *tracefs;
	bool event;			/* futex_fault:futex_fault_inject exists */
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

/* Check what the tests need and save what they change; change nothing yet */
static void ff_env_setup(struct __test_metadata *_metadata, struct ff_env *env)
{
	char path[PATH_MAX];
	unsigned int i;

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
	env->tracefs = ff_tracefs();
	if (!env->tracefs) {
		snprintf(env->why, sizeof(env->why), "no tracefs instances (CONFIG_TRACING)");
		return;
	}
	/*
	 * The sites come before the event in the series: the tests that read
	 * the events SKIP without it, the others run.
	 */
	snprintf(path, sizeof(path), "%s/events/futex_fault/futex_fault_inject", env->tracefs);
	env->event = !access(path, F_OK);

	for (i = 0; i < FF_NR_KNOBS; i++) {
		const char *knob = ff_knobs[i];

		ASSERT_EQ(0, ff_knob_get(knob, env->knob[i], sizeof(env->knob[i])))
			TH_LOG("cannot read %s", knob);
	}
	env->nr_sites = ff_sites_read(env->site, FF_MAX_SITES);
	ASSERT_LT(0, env->nr_sites) TH_LOG("cannot parse %s", FF_SITES);
	env->saved = true;
	env->ready = true;
}

/* No ASSERT here: a failure would jump back into the test. */
static void ff_env_teardown(struct __test_metadata *_metadata, struct ff_env *env)
{
	unsigned int i;
	int j;

	if (env->trace[0]) {
		EXPECT_EQ(0, ff_trace_write(env->trace, FF_EVENT, "0"));
		EXPECT_EQ(0, rmdir(env->trace));
	}
	if (!env->saved)
		return;

	/* Only the tests touch these, only in this thread: clear them anyway. */
	ff_write(FF_MAKE_IT_FAIL, "0");
	ff_write(FF_FAIL_NTH, "0");

	for (j = 0; j < env->nr_sites; j++)
		EXPECT_EQ(0, ff_key_set(env->site[j].name, env->site[j].enabled))
			TH_LOG("cannot restore site %s", env->site[j].name);

	for (i = 0; i < FF_NR_KNOBS; i++) {
		const char *knob = ff_knobs[i];

		EXPECT_EQ(0, ff_knob_set(knob, env->knob[i]))
			TH_LOG("cannot restore %s to %s", knob, env->knob[i]);
	}
}

/*
 * Arm the policy: only tasks with make-it-fail fail, each time they hit an
 * enabled site, @times times in all (-1: no bound).  Sites stay as they are.
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

/*
 * Start from a known state: every site off, the policy armed for @times
 * failures, the counters zeroed and an empty trace instance of our own,
 * which leaves the top trace buffer to others.
 */
static void ff_start(struct __test_metadata *_metadata, struct ff_env *env, int times)
{
	int ret;

	ASSERT_EQ(0, ff_key_set("all", false));
	ASSERT_EQ(0, ff_key_get("all"));
	ff_arm(_metadata, times);
	ASSERT_EQ(0, ff_write(FF_RESET, "1"));

	if (!env->trace[0]) {
		snprintf(env->trace, sizeof(env->trace), "%s/instances/futex_fault_selftest.%d",
			 env->tracefs, getpid());
		if (mkdir(env->trace, 0755)) {
			ret = -errno;
			env->trace[0] = '\0';
			ASSERT_EQ(0, ret) TH_LOG("cannot create a trace instance");
		}
		ASSERT_EQ(0, ff_trace_write(env->trace, FF_EVENT, "1"))
			TH_LOG("cannot enable futex_fault:futex_fault_inject");
	}
	ASSERT_EQ(0, ff_trace_clear(env->trace));
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

/*
 * The same on a shared futex in a shared memory page: when get_futex_key()
 * cannot pin the page for writing, it takes it read-only, which is enough
 * for a FUTEX_WAIT outside anonymous memory.
 */
static void drive_wait_shmem(struct ff_drive *d)
{
	size_t size = getpagesize();
	futex_t *f;

	f = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (f == MAP_FAILED) {
		ff_bug(d, "mmap");
		return;
	}
	ff_fail_me(d, true);
	d->err = ff_ret(futex_wait(f, 1, NULL, 0));
	ff_fail_me(d, false);
	munmap((void *)f, size);
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

/* The same on a shared futex, whose key needs the page for writing */
static void drive_lock_pi_shared(struct ff_drive *d)
{
	ff_fail_me(d, true);
	d->err = ff_ret(futex_lock_pi(d->page, NULL, 0, 0));
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
 * as here.  A helper that was not built (no 32-bit compiler) or a kernel
 * that cannot run it makes it a SKIP.
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
		snprintf(d->skip, sizeof(d->skip),
			 "no %s helper (built only where the compiler takes -m32): %s",
			 FF_HELPER, strerror(errno));
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
	/*
	 * Touch the page: on a page that is not there yet, the futex code
	 * takes a real fault and runs the recovery paths on its own.
	 */
	memset((void *)d->page, 0, size);
	ASSERT_EQ(0, pthread_create(&t, NULL, ff_drive_thread, d));
	ASSERT_EQ(0, pthread_join(t, NULL));
	munmap((void *)d->page, size);
}

/* ---------------------------------------------------------- the sites */

/* Flags of a case, see futex_fault_cases.h */
#define FF_DEFAULT			0x01
#define FF_RETRY			0x02
#define FF_IF_COMPAT			0x04
#define FF_IF_COMPAT_32BIT_TIME		0x08

struct ff_outcome {
	int err;
	unsigned int state;
};

struct ff_case {
	const char *site;
	unsigned int flags;
	void (*drive)(struct ff_drive *d);
	const char *first;
	const char *recovery;
	const char *func;
	int shared;
	struct ff_outcome faulted;
	struct ff_outcome normal;
};

#define FF_CASE(_site, ...)	FF_CASE_##_site,
enum ff_case_nr {
#include "futex_fault_cases.h"
	FF_NR_CASES
};

#undef FF_CASE

#define FF_CASE(_site, _flags, _drive, ...)				\
	[FF_CASE_##_site] = {						\
		.site = #_site, .flags = (_flags), .drive = (_drive),	\
		__VA_ARGS__						\
	},
static const struct ff_case ff_cases[FF_NR_CASES] = {
#include "futex_fault_cases.h"
};

#undef FF_CASE

static const struct ff_case *ff_case_get(const char *site)
{
	unsigned int i;

	for (i = 0; i < FF_NR_CASES; i++) {
		if (!strcmp(ff_cases[i].site, site))
			return &ff_cases[i];
	}
	return NULL;
}

/* Why the running kernel may lack the site of @c, NULL if it may not */
static const char *ff_absent_why(const struct ff_case *c)
{
	if (c->flags & FF_IF_COMPAT)
		return "kernel without CONFIG_COMPAT";
	if (c->flags & FF_IF_COMPAT_32BIT_TIME)
		return "kernel without CONFIG_COMPAT_32BIT_TIME";
	return NULL;
}

FIXTURE(futex_fault) {
	struct ff_env env;
};

/* One variant per case, named after its site */
FIXTURE_VARIANT(futex_fault) {
	enum ff_case_nr nr;
};

FIXTURE_SETUP(futex_fault)
{
	ff_env_setup(_metadata, &self->env);
}

FIXTURE_TEARDOWN(futex_fault)
{
	ff_env_teardown(_metadata, &self->env);
}

FIXTURE_VARIANT_ADD(futex_fault, get_key_access) {
	.nr = FF_CASE_get_key_access,
};

FIXTURE_VARIANT_ADD(futex_fault, get_key_gup) {
	.nr = FF_CASE_get_key_gup,
};

FIXTURE_VARIANT_ADD(futex_fault, get_key_anon_ro) {
	.nr = FF_CASE_get_key_anon_ro,
};

FIXTURE_VARIANT_ADD(futex_fault, get_key_gup_ro) {
	.nr = FF_CASE_get_key_gup_ro,
};

FIXTURE_VARIANT_ADD(futex_fault, death_get_value) {
	.nr = FF_CASE_death_get_value,
};

FIXTURE_VARIANT_ADD(futex_fault, death_cmpxchg) {
	.nr = FF_CASE_death_cmpxchg,
};

FIXTURE_VARIANT_ADD(futex_fault, death_cmpxchg_eagain) {
	.nr = FF_CASE_death_cmpxchg_eagain,
};

FIXTURE_VARIANT_ADD(futex_fault, death_fault_in) {
	.nr = FF_CASE_death_fault_in,
};

FIXTURE_VARIANT_ADD(futex_fault, robust_fetch_head) {
	.nr = FF_CASE_robust_fetch_head,
};

FIXTURE_VARIANT_ADD(futex_fault, robust_get_offset) {
	.nr = FF_CASE_robust_get_offset,
};

FIXTURE_VARIANT_ADD(futex_fault, robust_fetch_pending) {
	.nr = FF_CASE_robust_fetch_pending,
};

FIXTURE_VARIANT_ADD(futex_fault, robust_fetch_next) {
	.nr = FF_CASE_robust_fetch_next,
};

FIXTURE_VARIANT_ADD(futex_fault, compat_robust_fetch_head) {
	.nr = FF_CASE_compat_robust_fetch_head,
};

FIXTURE_VARIANT_ADD(futex_fault, compat_robust_get_offset) {
	.nr = FF_CASE_compat_robust_get_offset,
};

FIXTURE_VARIANT_ADD(futex_fault, compat_robust_fetch_pending) {
	.nr = FF_CASE_compat_robust_fetch_pending,
};

FIXTURE_VARIANT_ADD(futex_fault, compat_robust_fetch_next) {
	.nr = FF_CASE_compat_robust_fetch_next,
};

FIXTURE_VARIANT_ADD(futex_fault, futex_get_timeout) {
	.nr = FF_CASE_futex_get_timeout,
};

FIXTURE_VARIANT_ADD(futex_fault, get_robust_list_len) {
	.nr = FF_CASE_get_robust_list_len,
};

FIXTURE_VARIANT_ADD(futex_fault, get_robust_list_head) {
	.nr = FF_CASE_get_robust_list_head,
};

FIXTURE_VARIANT_ADD(futex_fault, waitv_copy) {
	.nr = FF_CASE_waitv_copy,
};

FIXTURE_VARIANT_ADD(futex_fault, waitv_get_timeout) {
	.nr = FF_CASE_waitv_get_timeout,
};

FIXTURE_VARIANT_ADD(futex_fault, waitv_alloc) {
	.nr = FF_CASE_waitv_alloc,
};

FIXTURE_VARIANT_ADD(futex_fault, compat_get_robust_list_len) {
	.nr = FF_CASE_compat_get_robust_list_len,
};

FIXTURE_VARIANT_ADD(futex_fault, compat_get_robust_list_head) {
	.nr = FF_CASE_compat_get_robust_list_head,
};

FIXTURE_VARIANT_ADD(futex_fault, futex_time32_get_timeout) {
	.nr = FF_CASE_futex_time32_get_timeout,
};

FIXTURE_VARIANT_ADD(futex_fault, wake_get_key) {
	.nr = FF_CASE_wake_get_key,
};

FIXTURE_VARIANT_ADD(futex_fault, wake_op_get_key1) {
	.nr = FF_CASE_wake_op_get_key1,
};

FIXTURE_VARIANT_ADD(futex_fault, wake_op_get_key2) {
	.nr = FF_CASE_wake_op_get_key2,
};

FIXTURE_VARIANT_ADD(futex_fault, wake_op_atomic) {
	.nr = FF_CASE_wake_op_atomic,
};

FIXTURE_VARIANT_ADD(futex_fault, wake_op_atomic_eagain) {
	.nr = FF_CASE_wake_op_atomic_eagain,
};

FIXTURE_VARIANT_ADD(futex_fault, wake_op_fault_in) {
	.nr = FF_CASE_wake_op_fault_in,
};

FIXTURE_VARIANT_ADD(futex_fault, waitv_get_key) {
	.nr = FF_CASE_waitv_get_key,
};

FIXTURE_VARIANT_ADD(futex_fault, waitv_get_value) {
	.nr = FF_CASE_waitv_get_value,
};

FIXTURE_VARIANT_ADD(futex_fault, waitv_get_user) {
	.nr = FF_CASE_waitv_get_user,
};

FIXTURE_VARIANT_ADD(futex_fault, wait_get_key) {
	.nr = FF_CASE_wait_get_key,
};

FIXTURE_VARIANT_ADD(futex_fault, wait_get_value) {
	.nr = FF_CASE_wait_get_value,
};

FIXTURE_VARIANT_ADD(futex_fault, wait_get_user) {
	.nr = FF_CASE_wait_get_user,
};

FIXTURE_VARIANT_ADD(futex_fault, lock_pi_update_cmpxchg) {
	.nr = FF_CASE_lock_pi_update_cmpxchg,
};

FIXTURE_VARIANT_ADD(futex_fault, lock_pi_atomic_get_value) {
	.nr = FF_CASE_lock_pi_atomic_get_value,
};

FIXTURE_VARIANT_ADD(futex_fault, lock_pi_atomic_deadlock) {
	.nr = FF_CASE_lock_pi_atomic_deadlock,
};

FIXTURE_VARIANT_ADD(futex_fault, wake_pi_cmpxchg) {
	.nr = FF_CASE_wake_pi_cmpxchg,
};

FIXTURE_VARIANT_ADD(futex_fault, pi_state_alloc) {
	.nr = FF_CASE_pi_state_alloc,
};

FIXTURE_VARIANT_ADD(futex_fault, attach_get_value) {
	.nr = FF_CASE_attach_get_value,
};

FIXTURE_VARIANT_ADD(futex_fault, exit_race_get_value) {
	.nr = FF_CASE_exit_race_get_value,
};

FIXTURE_VARIANT_ADD(futex_fault, lock_pi_update_cmpxchg_eagain) {
	.nr = FF_CASE_lock_pi_update_cmpxchg_eagain,
};

FIXTURE_VARIANT_ADD(futex_fault, wake_pi_cmpxchg_eagain) {
	.nr = FF_CASE_wake_pi_cmpxchg_eagain,
};

FIXTURE_VARIANT_ADD(futex_fault, fixup_owner_get_value) {
	.nr = FF_CASE_fixup_owner_get_value,
};

FIXTURE_VARIANT_ADD(futex_fault, fixup_owner_cmpxchg) {
	.nr = FF_CASE_fixup_owner_cmpxchg,
};

FIXTURE_VARIANT_ADD(futex_fault, fixup_owner_cmpxchg_eagain) {
	.nr = FF_CASE_fixup_owner_cmpxchg_eagain,
};

FIXTURE_VARIANT_ADD(futex_fault, fixup_owner_fault_in) {
	.nr = FF_CASE_fixup_owner_fault_in,
};

FIXTURE_VARIANT_ADD(futex_fault, lock_pi_get_key) {
	.nr = FF_CASE_lock_pi_get_key,
};

FIXTURE_VARIANT_ADD(futex_fault, lock_pi_fault_in) {
	.nr = FF_CASE_lock_pi_fault_in,
};

FIXTURE_VARIANT_ADD(futex_fault, unlock_pi_get_user) {
	.nr = FF_CASE_unlock_pi_get_user,
};

FIXTURE_VARIANT_ADD(futex_fault, unlock_pi_get_key) {
	.nr = FF_CASE_unlock_pi_get_key,
};

FIXTURE_VARIANT_ADD(futex_fault, unlock_pi_cmpxchg) {
	.nr = FF_CASE_unlock_pi_cmpxchg,
};

FIXTURE_VARIANT_ADD(futex_fault, unlock_pi_cmpxchg_eagain) {
	.nr = FF_CASE_unlock_pi_cmpxchg_eagain,
};

FIXTURE_VARIANT_ADD(futex_fault, unlock_pi_fault_in) {
	.nr = FF_CASE_unlock_pi_fault_in,
};

FIXTURE_VARIANT_ADD(futex_fault, proxy_trylock_get_value) {
	.nr = FF_CASE_proxy_trylock_get_value,
};

FIXTURE_VARIANT_ADD(futex_fault, requeue_get_key1) {
	.nr = FF_CASE_requeue_get_key1,
};

FIXTURE_VARIANT_ADD(futex_fault, requeue_get_key2) {
	.nr = FF_CASE_requeue_get_key2,
};

FIXTURE_VARIANT_ADD(futex_fault, requeue_get_value) {
	.nr = FF_CASE_requeue_get_value,
};

FIXTURE_VARIANT_ADD(futex_fault, requeue_get_user) {
	.nr = FF_CASE_requeue_get_user,
};

FIXTURE_VARIANT_ADD(futex_fault, requeue_fault_in) {
	.nr = FF_CASE_requeue_fault_in,
};

FIXTURE_VARIANT_ADD(futex_fault, wait_requeue_pi_get_key2) {
	.nr = FF_CASE_wait_requeue_pi_get_key2,
};

/*
 * Look the site of @c up in the site table.  Return: 0, -ENOENT when the
 * kernel lacks it (the caller SKIPs: a build without what the site needs,
 * or a kernel from before the patch that adds it), or another -errno.
 */
static int ff_case_site(struct __test_metadata *_metadata, const struct ff_case *c,
			struct ff_site *site)
{
	int ret = ff_site_get(c->site, site);

	if (ret == -ENOENT)
		return ret;
	EXPECT_EQ(0, ret) TH_LOG("cannot read site %s in %s", c->site, FF_SITES);
	return ret ? -EINVAL : 0;
}

/* Why the kernel has no site @c */
static const char *ff_absent(const struct ff_case *c)
{
	return ff_absent_why(c) ?: "not in this kernel (one from before it)";
}

/* A test that needs another site SKIPs without it */
static bool ff_has_site(const char *name)
{
	return ff_key_get(name) >= 0;
}

static void ff_expect_outcome(struct __test_metadata *_metadata, const struct ff_outcome *want,
			      const struct ff_drive *d)
{
	ASSERT_EQ(0, d->bug[0]) TH_LOG("driver: %s", d->bug);
	EXPECT_EQ(want->err, d->err) TH_LOG("got %s, want %s", strerror(-d->err),
					    strerror(-want->err));
	EXPECT_EQ(want->state, d->state);
}

/* One event of @c's site, with the site's errno, shared field and function */
static void ff_expect_events(struct __test_metadata *_metadata, const struct ff_events *ev,
			     const struct ff_case *c, const struct ff_site *site)
{
	int i;

	EXPECT_EQ(1, ff_events_count(ev, c->site)) TH_LOG("site %s", c->site);
	for (i = 0; i < ev->nr && i < FF_MAX_EVENTS; i++) {
		const struct ff_event *e = &ev->ev[i];

		if (strcmp(e->site, c->site))
			continue;
		EXPECT_STREQ(site->err, e->err);
		EXPECT_EQ(c->shared, e->shared) TH_LOG("site %s", c->site);
		EXPECT_TRUE(ff_func_in(e->func, c->func))
			TH_LOG("site %s: call_site in %s, not in %s", c->site, e->func, c->func);
	}
}

/* The site table counted one injection, at the expected function */
static void ff_expect_counted(struct __test_metadata *_metadata, const struct ff_case *c,
			      struct ff_site *site)
{
	ASSERT_EQ(0, ff_site_get(c->site, site)) TH_LOG("site %s", c->site);
	EXPECT_EQ(1, site->enabled);
	EXPECT_EQ(1, site->injected) TH_LOG("site %s", c->site);
	EXPECT_LE(site->injected, site->hits) TH_LOG("site %s", c->site);
	EXPECT_TRUE(ff_func_in(site->func, c->func))
		TH_LOG("site %s: call_site in %s, not in %s", c->site, site->func, c->func);
}

/*
 * A retry site recovers from its failure, and the recovery shows: the site
 * that follows the failed access was hit (enabled, it had no failure left
 * to inject), or the -EAGAIN site was hit again when the operation was
 * retried.  A site whose error were ignored would show neither.
 */
static void ff_expect_recovery(struct __test_metadata *_metadata, const struct ff_case *c,
			       const struct ff_site *site)
{
	struct ff_site rec;

	if (!strcmp(c->recovery, c->site)) {
		EXPECT_LT(site->injected, site->hits)
			TH_LOG("site %s: the operation was not retried", c->site);
		return;
	}
	ASSERT_EQ(0, ff_site_get(c->recovery, &rec)) TH_LOG("site %s", c->recovery);
	EXPECT_LE(1, rec.hits) TH_LOG("site %s: the recovery did not reach %s", c->site, rec.name);
	EXPECT_EQ(0, rec.injected);
}

TEST_F(futex_fault, inject)
{
	const struct ff_case *c = &ff_cases[variant->nr], *first = NULL;
	int nr = c->first ? 2 : 1;
	struct ff_site site, first_site;
	struct ff_events ev;
	struct ff_drive d;
	int ret;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);
	if (!self->env.event)
		SKIP(return, FF_NO_EVENT);
	ret = ff_case_site(_metadata, c, &site);
	if (ret == -ENOENT)
		SKIP(return, "no site %s: %s", c->site, ff_absent(c));
	ASSERT_EQ(0, ret);
	if (c->first) {
		first = ff_case_get(c->first);
		ASSERT_NE(NULL, first) TH_LOG("no case %s", c->first);
		if (!ff_has_site(first->site))
			SKIP(return, "no site %s in this kernel", first->site);
	}
	if (c->recovery && !ff_has_site(c->recovery))
		SKIP(return, "no site %s in this kernel", c->recovery);
	/* Every retry site says where its recovery shows */
	if (c->flags & FF_RETRY)
		ASSERT_NE(NULL, c->recovery) TH_LOG("retry site %s", c->site);

	ff_start(_metadata, &self->env, nr);
	ASSERT_EQ(0, ff_key_set(c->site, true));
	ASSERT_EQ(1, ff_key_get(c->site));
	if (first)
		ASSERT_EQ(0, ff_key_set(first->site, true));
	if (c->recovery)
		ASSERT_EQ(0, ff_key_set(c->recovery, true));

	ff_drive(_metadata, c->drive, &d);
	if (d.skip[0])
		SKIP(return, "%s", d.skip);

	/* What user space sees */
	ff_expect_outcome(_metadata, &c->faulted, &d);

	/* The site table, the policy budget spent, and the recovery */
	ff_expect_counted(_metadata, c, &site);
	if (first)
		ff_expect_counted(_metadata, first, &first_site);
	EXPECT_EQ(0, ff_times());
	if (c->recovery)
		ff_expect_recovery(_metadata, c, &site);

	/* Exactly one event per failure */
	ASSERT_EQ(0, ff_events_read(self->env.trace, &ev));
	EXPECT_EQ(nr, ev.nr);
	ff_expect_events(_metadata, &ev, c, &site);
	if (first)
		ff_expect_events(_metadata, &ev, first, &first_site);
}

/*
 * The policy armed, the site disabled: nothing fails, nothing is counted.
 * The site that the recovery of a failure would reach is enabled, and is
 * never hit.
 */
TEST_F(futex_fault, disabled)
{
	const struct ff_case *c = &ff_cases[variant->nr];
	int nr = c->first ? 2 : 1;
	struct ff_site site, rec;
	struct ff_events ev;
	struct ff_drive d;
	bool downstream;
	int ret;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);
	if (!self->env.event)
		SKIP(return, FF_NO_EVENT);
	ret = ff_case_site(_metadata, c, &site);
	if (ret == -ENOENT)
		SKIP(return, "no site %s: %s", c->site, ff_absent(c));
	ASSERT_EQ(0, ret);
	if (c->recovery && !ff_has_site(c->recovery))
		SKIP(return, "no site %s in this kernel", c->recovery);

	ff_start(_metadata, &self->env, nr);
	ASSERT_EQ(0, ff_key_get(c->site));
	downstream = c->recovery && strcmp(c->recovery, c->site);
	if (downstream)
		ASSERT_EQ(0, ff_key_set(c->recovery, true));

	ff_drive(_metadata, c->drive, &d);
	if (d.skip[0])
		SKIP(return, "%s", d.skip);

	ff_expect_outcome(_metadata, &c->normal, &d);

	ASSERT_EQ(0, ff_site_get(c->site, &site));
	EXPECT_EQ(0, site.enabled);
	EXPECT_EQ(0, site.hits);
	EXPECT_EQ(0, site.injected);
	EXPECT_EQ(nr, ff_times());

	ASSERT_EQ(0, ff_events_read(self->env.trace, &ev));
	EXPECT_EQ(0, ev.nr);

	/* Without a failure, no recovery runs */
	if (downstream) {
		ASSERT_EQ(0, ff_site_get(c->recovery, &rec));
		EXPECT_EQ(0, rec.hits) TH_LOG("site %s", c->recovery);
	}
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
 * Every site of the kernel has a case, and every case is a site of the
 * kernel, or one of a configuration that the kernel was not built with.
 */
TEST_F(futex_fault_ctl, every_site_tested)
{
	const struct ff_site *s;
	struct ff_site site;
	unsigned int i;
	int ret;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);

	for (s = self->env.site; s < self->env.site + self->env.nr_sites; s++)
		EXPECT_NE(NULL, ff_case_get(s->name)) TH_LOG("site %s has no test", s->name);
	for (i = 0; i < FF_NR_CASES; i++) {
		ret = ff_site_get(ff_cases[i].site, &site);
		if (ret == -ENOENT)	/* its test SKIPs */
			continue;
		EXPECT_EQ(0, ret) TH_LOG("no site %s", ff_cases[i].site);
	}
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

/* What kstrtobool() takes, and what it rejects */
static const char * const ff_true_input[] = { "1", "1\n", "y", "Y", "on", "ON", "yes", "true" };
static const char * const ff_false_input[] = { "0", "0\n", "n", "N", "off", "OFF", "no", "false" };
static const char * const ff_bad_input[] = {
	"", "\n", "x", "2", "-1", " 1", "+1", "abc", "o", "ox", "\t0",
};

/* Every bad write to @key fails with EINVAL and leaves every key as it was */
static void ff_check_bad_input(struct __test_metadata *_metadata, const char *key)
{
	static const size_t huge[] = { 4096, 4097, 65536 };
	int before = ff_key_get(key), all = ff_key_get("all");
	unsigned int i;
	char *buf;

	ASSERT_LE(0, before);
	for (i = 0; i < ARRAY_SIZE(ff_bad_input); i++) {
		EXPECT_EQ(-EINVAL, ff_key_write(key, ff_bad_input[i], strlen(ff_bad_input[i])))
			TH_LOG("%s: \"%s\"", key, ff_bad_input[i]);
		EXPECT_EQ(before, ff_key_get(key));
		EXPECT_EQ(all, ff_key_get("all"));
	}

	/* A NUL first is empty input; an unreadable buffer is EFAULT */
	EXPECT_EQ(-EINVAL, ff_key_write(key, "\0001", 2));
	EXPECT_EQ(-EFAULT, ff_key_write(key, (void *)8, 1));
	EXPECT_EQ(before, ff_key_get(key));
	EXPECT_EQ(all, ff_key_get("all"));

	/* Huge writes of garbage */
	buf = malloc(huge[ARRAY_SIZE(huge) - 1]);
	ASSERT_NE(NULL, buf);
	for (i = 0; i < ARRAY_SIZE(huge); i++) {
		memset(buf, 'z', huge[i]);
		EXPECT_EQ(-EINVAL, ff_key_write(key, buf, huge[i])) TH_LOG("%zu bytes", huge[i]);
		EXPECT_EQ(before, ff_key_get(key));
		EXPECT_EQ(all, ff_key_get("all"));
	}
	free(buf);
}

/*
 * Every boolean kstrtobool() takes switches @key, and the key file reads
 * "0\n" or "1\n"; "all" reads the number of enabled sites, @on once on.
 */
static void ff_check_good_input(struct __test_metadata *_metadata, const char *key, int on)
{
	char path[PATH_MAX], buf[16], want[16];
	unsigned int i;
	ssize_t len;

	snprintf(path, sizeof(path), FF_KEYS "/%s", key);
	snprintf(want, sizeof(want), "%d\n", on);
	for (i = 0; i < ARRAY_SIZE(ff_true_input); i++) {
		ASSERT_EQ(0, ff_key_set(key, false));
		EXPECT_EQ((ssize_t)strlen(ff_true_input[i]),
			  ff_key_write(key, ff_true_input[i], strlen(ff_true_input[i])))
			TH_LOG("\"%s\"", ff_true_input[i]);
		len = ff_read(path, buf, sizeof(buf));
		EXPECT_EQ((ssize_t)strlen(want), len);
		EXPECT_STREQ(want, buf);
		EXPECT_EQ(on, ff_key_get("all"));
	}
	for (i = 0; i < ARRAY_SIZE(ff_false_input); i++) {
		ASSERT_EQ(0, ff_key_set(key, true));
		EXPECT_EQ((ssize_t)strlen(ff_false_input[i]),
			  ff_key_write(key, ff_false_input[i], strlen(ff_false_input[i])))
			TH_LOG("\"%s\"", ff_false_input[i]);
		len = ff_read(path, buf, sizeof(buf));
		EXPECT_EQ(2, len);
		EXPECT_STREQ("0\n", buf);
		EXPECT_EQ(0, ff_key_get("all"));
	}
}

TEST_F(futex_fault_ctl, site_key_input)
{
	const char *key;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);
	if (!self->env.event)
		SKIP(return, FF_NO_EVENT);
	key = self->env.site[0].name;

	/* Nothing may fire while keys flip: probability 0 */
	ff_start(_metadata, &self->env, 1);
	ASSERT_EQ(0, ff_knob_set("probability", "0"));

	ff_check_good_input(_metadata, key, 1);
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

TEST_F(futex_fault_ctl, all_key_input)
{
	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);
	if (!self->env.event)
		SKIP(return, FF_NO_EVENT);

	ff_start(_metadata, &self->env, 1);
	ASSERT_EQ(0, ff_knob_set("probability", "0"));

	ff_check_good_input(_metadata, "all", self->env.nr_sites);
	ASSERT_EQ(0, ff_key_get("all"));
	ff_check_bad_input(_metadata, "all");

	ASSERT_EQ(2, ff_key_write("all", "1\n", 2));
	ASSERT_EQ(self->env.nr_sites, ff_key_get("all"));
	ASSERT_EQ(1, ff_key_get(self->env.site[self->env.nr_sites - 1].name));
	ff_check_bad_input(_metadata, "all");

	ASSERT_EQ(0, ff_key_set("all", false));
	ASSERT_EQ(0, ff_key_get("all"));
}

/* Key files take no pwrite(); "reset" takes a true boolean and zeroes the counters */
TEST_F(futex_fault_ctl, reset_input)
{
	static const char * const bad[] = { "", "0", "n", "off", "x", "2" };
	struct ff_site site;
	char path[PATH_MAX];
	unsigned int i;
	futex_t f = 0;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);
	if (!self->env.event)
		SKIP(return, FF_NO_EVENT);
	if (!ff_has_site("wait_get_key"))
		SKIP(return, "no site wait_get_key in this kernel");

	ff_start(_metadata, &self->env, 1);
	ASSERT_EQ(0, ff_knob_set("probability", "0"));

	/* Key files are seq_files: no pwrite() */
	snprintf(path, sizeof(path), FF_KEYS "/%s", self->env.site[0].name);
	EXPECT_EQ(-ESPIPE, ff_pwrite(path, "1", 1, 1));
	EXPECT_EQ(0, ff_key_get(self->env.site[0].name));

	/* Count a hit, then reset */
	ASSERT_EQ(0, ff_key_set("wait_get_key", true));
	EXPECT_EQ(-EAGAIN, ff_ret(futex_wait(&f, 1, NULL, FUTEX_PRIVATE_FLAG)));
	ASSERT_EQ(0, ff_site_get("wait_get_key", &site));
	EXPECT_LE(1, site.hits);
	EXPECT_EQ(0, site.injected);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		const char *s = bad[i];

		EXPECT_EQ(-EINVAL, ff_pwrite(FF_RESET, s, strlen(s), 0)) TH_LOG("\"%s\"", s);
	}
	EXPECT_EQ(-EFAULT, ff_pwrite(FF_RESET, (void *)8, 1, 0));
	ASSERT_EQ(0, ff_site_get("wait_get_key", &site));
	EXPECT_LE(1, site.hits);

	EXPECT_EQ(2, ff_pwrite(FF_RESET, "1\n", 2, 0));
	ASSERT_EQ(0, ff_site_get("wait_get_key", &site));
	EXPECT_EQ(0, site.hits);
	EXPECT_EQ(1, ff_pwrite(FF_RESET, "y", 1, 0));
	EXPECT_EQ(2, ff_pwrite(FF_RESET, "on", 2, 0));
}

/* A value read in pieces is the one of the first read, even if it changes */
TEST_F(futex_fault_ctl, key_read_in_pieces)
{
	char buf[16] = "";
	int fd;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);
	if (!self->env.event)
		SKIP(return, FF_NO_EVENT);

	ff_start(_metadata, &self->env, 1);
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
 * times bounds a retry loop exactly: wait_get_value fails 3 times, each
 * time futex_wait_setup() reads the value with get_user() and tries again,
 * and the 4th pass finds the value: FUTEX_WAIT returns as if nothing had
 * happened.
 */
TEST_F(futex_fault_ctl, retry_times)
{
	const struct ff_case *c = &ff_cases[FF_CASE_wait_get_value];
	struct ff_drive d = { 0 };
	struct ff_events ev;
	struct ff_site site;
	futex_t f = 0;
	int i;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);
	if (!self->env.event)
		SKIP(return, FF_NO_EVENT);
	if (!ff_has_site(c->site))
		SKIP(return, "no site %s in this kernel", c->site);

	ff_start(_metadata, &self->env, 3);
	ASSERT_EQ(0, ff_key_set(c->site, true));

	/* In this thread, on a futex that is there: only the policy fails */
	d.page = &f;
	drive_wait(&d);
	ff_expect_outcome(_metadata, &c->normal, &d);

	ASSERT_EQ(0, ff_site_get(c->site, &site));
	EXPECT_EQ(3, site.injected);
	EXPECT_EQ(4, site.hits);
	EXPECT_EQ(0, ff_times());
	ASSERT_EQ(0, ff_events_read(self->env.trace, &ev));
	EXPECT_EQ(3, ev.nr);
	EXPECT_EQ(3, ff_events_count(&ev, c->site));
	for (i = 0; i < ev.nr && i < FF_MAX_EVENTS; i++)
		EXPECT_TRUE(ff_func_in(ev.ev[i].func, c->func)) TH_LOG("%s", ev.ev[i].func);
}

/* Wait, a bounded time, for @pid to end.  Return: its pid, or 0 if it did not. */
static pid_t ff_reap(pid_t pid, int *status)
{
	pid_t got = 0;
	int i;

	for (i = 0; i < FF_TIMEOUT_S * 1000 && !got; i++) {
		got = waitpid(pid, status, WNOHANG);
		if (!got)
			usleep(1000);
	}
	return got;
}

/*
 * A task kept in a retry loop by a policy without bound (times=-1) can be
 * killed: once SIGKILL is pending, the retry site lets it go.
 */
TEST_F(futex_fault_ctl, retry_kill)
{
	const struct ff_case *c = &ff_cases[FF_CASE_wait_get_value];
	struct ff_site site = { 0 };
	bool looping = false;
	int i, status = 0;
	pid_t pid, got = 0;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);
	if (!self->env.event)
		SKIP(return, FF_NO_EVENT);
	if (!ff_has_site(c->site))
		SKIP(return, "no site %s in this kernel", c->site);
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		SKIP(return,
		     "needs 2 CPUs: on one, a task looping in a kernel without preemption starves the killer");

	ff_start(_metadata, &self->env, -1);
	ASSERT_EQ(0, ff_key_set(c->site, true));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		futex_t f = 0;

		if (ff_write(FF_MAKE_IT_FAIL, "1"))
			_exit(1);
		futex_wait(&f, 1, NULL, FUTEX_PRIVATE_FLAG);
		_exit(2);
	}

	/* No ASSERT until the child is reaped: it would be left looping */
	for (i = 0; i < FF_TIMEOUT_S * 1000 && !looping && !got; i++) {
		got = waitpid(pid, &status, WNOHANG);
		looping = !ff_site_get(c->site, &site) && site.injected >= 1000;
		if (!looping && !got)
			usleep(1000);
	}
	if (!got) {
		kill(pid, SIGKILL);
		got = ff_reap(pid, &status);
	}
	if (!got) {
		/* Not killable: switch the site off to let it out */
		EXPECT_EQ(0, ff_key_set(c->site, false));
		got = waitpid(pid, &status, 0);
		EXPECT_TRUE(false) TH_LOG("the killed task stayed in the retry loop");
	}
	ASSERT_EQ(pid, got);
	EXPECT_TRUE(looping) TH_LOG("the task did not loop at %s: %ld failures", c->site,
				    site.injected);
	EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL)
		TH_LOG("status %#x", status);
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
	if (!self->env.event)
		SKIP(return, FF_NO_EVENT);
	if (!ff_has_site("wait_get_key"))
		SKIP(return, "no site wait_get_key in this kernel");

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
	EXPECT_EQ(0, ev.ev[0].shared);
	EXPECT_EQ((uintptr_t)&f, ev.ev[0].uaddr);
}

/*
 * ignore-private spares the futexes that the site knows to be private (op
 * or waitv entry with FUTEX_PRIVATE_FLAG): their hits count, nothing fails.
 */
TEST_F(futex_fault_ctl, ignore_private)
{
	struct ff_drive d = { 0 };
	struct ff_events ev;
	struct ff_site site;
	futex_t f[2] = { 0 };

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);
	if (!self->env.event)
		SKIP(return, FF_NO_EVENT);
	if (!ff_has_site("waitv_get_key"))
		SKIP(return, "no site waitv_get_key in this kernel");
	if (!ff_has_site("wait_get_key"))
		SKIP(return, "no site wait_get_key in this kernel");

	ff_start(_metadata, &self->env, 1);
	ASSERT_EQ(0, ff_knob_set("ignore-private", "Y"));
	ASSERT_EQ(0, ff_key_set("wait_get_key", true));
	ASSERT_EQ(0, ff_key_set("waitv_get_key", true));

	d.page = f;
	drive_wait(&d);
	EXPECT_EQ(-EAGAIN, d.err);
	drive_waitv(&d);
	EXPECT_EQ(-EAGAIN, d.err);
	ASSERT_EQ(0, d.bug[0]) TH_LOG("%s", d.bug);
	ASSERT_EQ(0, ff_site_get("wait_get_key", &site));
	EXPECT_EQ(0, site.injected);
	EXPECT_LE(1, site.hits);
	ASSERT_EQ(0, ff_site_get("waitv_get_key", &site));
	EXPECT_EQ(0, site.injected);
	EXPECT_LE(1, site.hits);

	drive_wait_shared(&d);
	EXPECT_EQ(-EFAULT, d.err);
	ASSERT_EQ(0, d.bug[0]) TH_LOG("%s", d.bug);
	ASSERT_EQ(0, ff_site_get("wait_get_key", &site));
	EXPECT_EQ(1, site.injected);

	ASSERT_EQ(0, ff_events_read(self->env.trace, &ev));
	EXPECT_EQ(1, ev.nr);
	EXPECT_STREQ("wait_get_key", ev.ev[0].site);
	EXPECT_EQ(1, ev.ev[0].shared);
}

/*
 * get_key_gup fails the pin for writing; a FUTEX_WAIT, which only reads,
 * then takes the read-only fallback (get_key_gup_ro), which succeeds on a
 * shared memory page: the failure does not show.
 */
TEST_F(futex_fault_ctl, gup_read_fallback)
{
	struct ff_site gup, gup_ro;
	struct ff_events ev;
	struct ff_drive d;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);
	if (!self->env.event)
		SKIP(return, FF_NO_EVENT);
	if (!ff_has_site("get_key_gup"))
		SKIP(return, "no site get_key_gup in this kernel");
	if (!ff_has_site("get_key_gup_ro"))
		SKIP(return, "no site get_key_gup_ro in this kernel");

	ff_start(_metadata, &self->env, 1);
	ASSERT_EQ(0, ff_key_set("get_key_gup", true));
	ASSERT_EQ(0, ff_key_set("get_key_gup_ro", true));

	ff_drive(_metadata, drive_wait_shmem, &d);
	ASSERT_EQ(0, d.bug[0]) TH_LOG("%s", d.bug);
	EXPECT_EQ(-EAGAIN, d.err);

	ASSERT_EQ(0, ff_site_get("get_key_gup", &gup));
	ASSERT_EQ(0, ff_site_get("get_key_gup_ro", &gup_ro));
	EXPECT_EQ(1, gup.injected);
	EXPECT_EQ(1, gup_ro.hits);
	EXPECT_EQ(0, gup_ro.injected);
	ASSERT_EQ(0, ff_events_read(self->env.trace, &ev));
	EXPECT_EQ(1, ev.nr);
	EXPECT_STREQ("get_key_gup", ev.ev[0].site);
	EXPECT_STREQ("get_futex_key", ev.ev[0].func);
}

/* FUTEX_LOCK_PI of the free futex @f in this thread, under fail-nth=@nth.  Return: its result. */
static int ff_lock_pi_nth(struct __test_metadata *_metadata, futex_t *f, const char *nth)
{
	char buf[16];
	int ret;

	ASSERT_EQ(0, ff_write(FF_FAIL_NTH, nth));
	ret = ff_ret(futex_lock_pi(f, NULL, 0, FUTEX_PRIVATE_FLAG));
	EXPECT_EQ(0, ff_read_line(FF_FAIL_NTH, buf, sizeof(buf)));
	EXPECT_STREQ("0", buf);
	if (!ret)
		EXPECT_EQ(gettid(), ff_owner(f));
	ff_unlock_pi(f);
	return ret;
}

/* The one event of @site, at @func, in our trace instance; then clear it */
static void ff_expect_one_event(struct __test_metadata *_metadata, struct ff_env *env,
				const char *site, const char *func, int shared)
{
	struct ff_events ev;

	ASSERT_EQ(0, ff_events_read(env->trace, &ev));
	EXPECT_EQ(1, ev.nr);
	EXPECT_STREQ(site, ev.ev[0].site);
	EXPECT_STREQ("EFAULT", ev.ev[0].err);
	EXPECT_STREQ(func, ev.ev[0].func);
	EXPECT_EQ(shared, ev.ev[0].shared);
	ASSERT_EQ(0, ff_trace_clear(env->trace));
}

/*
 * A user who knows only the standard fault injection knobs, as syzkaller
 * does (fail-nth, ignore-private), on the state of a fresh boot: the sites
 * of fail_futex from before the sites had keys are enabled, and fail.
 */
TEST_F(futex_fault_ctl, standard_knobs)
{
	unsigned int i, nr = 0;
	futex_t f = 0;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);
	if (!self->env.event)
		SKIP(return, FF_NO_EVENT);

	/* The boot state: the default sites on, the fault_attr defaults */
	ff_start(_metadata, &self->env, -1);
	for (i = 0; i < FF_NR_CASES; i++) {
		if (ff_cases[i].flags & FF_DEFAULT) {
			ASSERT_EQ(0, ff_key_set(ff_cases[i].site, true));
			nr++;
		}
	}
	ASSERT_EQ(nr, ff_key_get("all"));
	ASSERT_EQ(0, ff_knob_set("probability", "0"));
	ASSERT_EQ(0, ff_knob_set("task-filter", "N"));

	/* Fill this thread's pi_state cache: no allocation runs under fail-nth */
	ASSERT_EQ(0, ff_lock_pi_nth(_metadata, &f, "0"));
	ASSERT_EQ(0, ff_trace_clear(self->env.trace));

	/* The first site FUTEX_LOCK_PI hits fails: the key */
	EXPECT_EQ(-EFAULT, ff_lock_pi_nth(_metadata, &f, "1"));
	ff_expect_one_event(_metadata, &self->env, "get_key_access", "get_futex_key", 0);

	/* The second one: the read of the futex, which is faulted in and read again */
	EXPECT_EQ(0, ff_lock_pi_nth(_metadata, &f, "2"));
	ff_expect_one_event(_metadata, &self->env, "lock_pi_atomic_get_value",
			    "futex_lock_pi_atomic", 1);

	/* ignore-private spares the key of the private futex, not the PI sites */
	ASSERT_EQ(0, ff_knob_set("ignore-private", "Y"));
	EXPECT_EQ(0, ff_lock_pi_nth(_metadata, &f, "1"));
	ff_expect_one_event(_metadata, &self->env, "lock_pi_atomic_get_value",
			    "futex_lock_pi_atomic", 1);
}

/* Count the new /dev/kmsg records of @fd that hold @what */
static int ff_kmsg_count(int fd, const char *what)
{
	char rec[8192];
	ssize_t len;
	int n = 0;

	for (;;) {
		len = read(fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE)
			continue;
		if (len <= 0)
			break;
		rec[len] = '\0';
		n += !!strstr(rec, what);
	}
	return n;
}

/*
 * verbose makes fail_futex print each failure, but not where interrupts
 * are off (wake_pi_cmpxchg runs under pi_mutex.wait_lock): there the
 * trace event is the only report.
 */
TEST_F(futex_fault_ctl, no_dump_irqs_off)
{
	static const char msg[] = "FAULT_INJECTION: forcing a failure";
	struct ff_drive d;
	int fd;

	if (!self->env.ready)
		SKIP(return, "%s", self->env.why);
	if (!self->env.event)
		SKIP(return, FF_NO_EVENT);
	if (!ff_has_site("wake_pi_cmpxchg"))
		SKIP(return, "no site wake_pi_cmpxchg in this kernel");
	if (!ff_has_site("wait_get_key"))
		SKIP(return, "no site wait_get_key in this kernel");
	fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		SKIP(return, "no /dev/kmsg: %s", strerror(errno));

	ff_start(_metadata, &self->env, 1);
	ASSERT_EQ(0, ff_knob_set("verbose", "1"));
	ASSERT_EQ(0, ff_key_set("wake_pi_cmpxchg", true));
	ASSERT_LE(0, lseek(fd, 0, SEEK_END));
	ff_drive(_metadata, drive_unlock_pi_handoff, &d);
	ff_expect_outcome(_metadata, &ff_cases[FF_CASE_wake_pi_cmpxchg].faulted, &d);
	EXPECT_EQ(0, ff_times());
	EXPECT_EQ(0, ff_kmsg_count(fd, msg));

	/* The same knobs print a failure with interrupts on */
	ff_start(_metadata, &self->env, 1);
	ASSERT_EQ(0, ff_knob_set("verbose", "1"));
	ASSERT_EQ(0, ff_key_set("wait_get_key", true));
	ff_drive(_metadata, drive_wait, &d);
	ff_expect_outcome(_metadata, &ff_cases[FF_CASE_wait_get_key].faulted, &d);
	EXPECT_EQ(1, ff_kmsg_count(fd, msg));
	close(fd);
}

TEST_HARNESS_MAIN
