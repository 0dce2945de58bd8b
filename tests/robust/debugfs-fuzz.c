// SPDX-License-Identifier: GPL-2.0
/*
 * debugfs-fuzz: hostile input to the futex fault-injection debugfs files.
 *
 * Every file of static_keys/futex_fault/ (one per site, and "all"), the
 * fail_futex/sites table, fail_futex/reset and the fail_futex attributes the
 * sites rely on get inputs of several classes: valid values, random bytes,
 * numbers with trailing junk, negative numbers, overflows, embedded NULs,
 * white space, odd prefixes, 1 MiB buffers, one byte per write(), pwrite()
 * and lseek() + write() at offsets, writev(), unreadable buffers, empty
 * writes, reads of every shape, and several processes and threads writing to
 * one file at once.
 *
 * Each write's result is checked against a model of what the file accepts
 * and the state read back afterwards against the model's state: a rejected
 * write must change nothing, an accepted one must take effect, the site
 * table, the key files and "all" must agree.  For our files (key files,
 * "all", reset) the model is the grammar of Documentation/fault-injection/
 * futex-fault.rst, with the errno order of the VFS and of
 * futex_fault_parse(): anything it does not accept must fail.  For the
 * standard debugfs files it emulates their parsers, and what they do beyond
 * the fault-injection documentation is reported as a note.  A value read in
 * pieces must be one value.  A long loop of writes at the end checks that
 * nothing leaks (Slab and MemFree of /proc/meminfo, and kmemleak when the
 * kernel has it).
 *
 * Run as root in a guest whose kernel has CONFIG_FAIL_FUTEX.  Exit status 0
 * when no check failed, 1 when one did, 2 on a usage or set-up error.
 */

#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ffio.h"

#define FF_DEBUGFS	"/sys/kernel/debug"
#define FF_KEYS		FF_DEBUGFS "/static_keys/futex_fault"
#define FF_ATTR		FF_DEBUGFS "/fail_futex"
#define FF_SITES	FF_ATTR "/sites"
#define FF_RESET	FF_ATTR "/reset"
#define FF_MAKE_IT_FAIL	"/proc/thread-self/make-it-fail"

#define FF_MAX_SITES	128
#define FF_NAME_LEN	64
#define FF_HUGE		(1 << 20)	/* the "huge" writes: 1 MiB */
#define FF_ATTR_BUF	23		/* bytes simple_attr_write() parses */
#define FF_BOOL_BUF	3		/* bytes kstrtobool_from_user() parses */
#define FF_EXAMPLES	3		/* examples kept per note */
#define FF_SHOW		40		/* bytes of an input shown */
#define FF_KERNEL_PTR	((void *)0xffffffff81000000UL)

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))
#endif

/* ------------------------------------------------------------- targets */

enum kind {
	K_KEY,		/* static_keys/futex_fault/<site>: 0 or 1 */
	K_ALL,		/* static_keys/futex_fault/all: 0 or 1, reads the count */
	K_SITES,	/* fail_futex/sites: the table, read-only */
	K_RESET,	/* fail_futex/reset: 1 zeroes the counters */
	K_UL,		/* unsigned long attribute (simple_attr, kstrtoull) */
	K_U32,		/* u32 attribute (simple_attr, kstrtoull, truncated) */
	K_ATOMIC,	/* atomic_t attribute (simple_attr, kstrtoll, truncated) */
	K_BOOL,		/* bool attribute (kstrtobool, always returns count) */
};

/* The fail_futex attributes: the standard fault_attr ones and ours */
static const struct {
	const char *name;
	enum kind kind;
} ff_attrs[] = {
	{ "probability", K_UL },
	{ "interval", K_UL },
	{ "times", K_ATOMIC },
	{ "space", K_ATOMIC },
	{ "verbose", K_UL },
	{ "verbose_ratelimit_interval_ms", K_U32 },
	{ "verbose_ratelimit_burst", K_U32 },
	{ "task-filter", K_BOOL },
	{ "ignore-private", K_BOOL },
	{ "stacktrace-depth", K_UL },	/* only with STACKTRACE_FILTER */
};

enum class {
	C_VALID, C_GARBAGE, C_JUNK, C_NEG, C_OVERFLOW, C_NUL, C_SPACE, C_PREFIX,
	C_HUGE, C_BYTES, C_OFFSET, C_WRITEV, C_BADPTR, C_EMPTY, C_READ, C_CONCUR,
	C_LEAK, NR_CLASSES
};

static const char * const class_name[NR_CLASSES] = {
	"valid", "garbage", "junk", "neg", "ovfl", "nul", "space", "prefix",
	"huge", "bytes", "offset", "writev", "badptr", "empty", "read", "concur",
	"leak",
};

struct target {
	char name[FF_NAME_LEN + 32];	/* relative to debugfs */
	char path[PATH_MAX];
	enum kind kind;
	int site;			/* K_KEY: row in the site table */
	int attr;			/* K_UL..K_BOOL: index in model.attr */
	unsigned long tried[NR_CLASSES];
	unsigned long accepted;
	unsigned long failed;
};

/* --------------------------------------------------------------- notes */

/*
 * Behaviour the tests report rather than fail: what the standard debugfs files
 * do beyond the fault-injection documentation, what our documentation allows
 * but is worth a figure, and seq_file's.  Our files' input grammar is not
 * among them: the model is the documentation, a difference fails.
 */
enum note {
	N_RESET_RACE, N_REREAD, N_BOOL_SILENT, N_ATTR_PREFIX, N_ATTR_WRAP, N_SITES_OPEN,
	NR_NOTES
};

static const struct {
	const char *what;
	const char *whose;	/* NULL: our files beyond their documentation (-S fails) */
} note_desc[NR_NOTES] = {
	/*
	 * "The counters are statistics: a failure decided just before a
	 * reset may be counted in injected just after it."
	 */
	[N_RESET_RACE] = { "a reset between a hit's two increments (hits, then injected) "
			   "left injected above hits", "documented" },
	/*
	 * "Both files format their value once per open file, so a value read
	 * in pieces is consistent": true of read() calls in sequence.
	 * seq_read_iter() formats again at a read from offset 0, and
	 * traverse() at any other offset than where the last read ended.
	 */
	[N_REREAD] = { "a key file formats its value again when read from offset 0 (after "
		       "lseek(0) or by pread()), so a pread() at 0 between two read()s of "
		       "'all' joins two values", "seq_file" },
	[N_BOOL_SILENT] = { "a bool attribute returned success for invalid input and "
			    "kept its value (debugfs_write_file_bool)", "standard debugfs" },
	[N_ATTR_PREFIX] = { "a numeric attribute parsed only the first 23 bytes of a "
			    "longer write and accepted it (simple_attr_write)",
			    "standard debugfs" },
	[N_ATTR_WRAP] = { "a u32/atomic_t attribute stored a truncated value "
			  "(debugfs u32/atomic_t)", "standard debugfs" },
	[N_SITES_OPEN] = { "the read-only sites table could be opened for writing "
			   "(root; the write fails)", "standard debugfs" },
};

struct note_rec {
	unsigned long n;
	int nex;
	char ex[FF_EXAMPLES][160];
};

/* -------------------------------------------------------------- state */

struct ff_site {
	char name[FF_NAME_LEN];
	int enabled;
	long hits;
	long injected;
};

/* What the files should read: the fuzzer's model of the kernel's state */
struct model {
	int nr_sites;
	struct ff_site site[FF_MAX_SITES];
	long long attr[ARRAY_SIZE(ff_attrs)];
	bool have_attr[ARRAY_SIZE(ff_attrs)];
};

struct fuzz {
	uint64_t seed;
	uint64_t rng;
	unsigned int per_file;		/* inputs per file */
	unsigned int leak_loops;	/* writes per half of the leak loop */
	unsigned int nproc, nthread;	/* concurrent writers */
	unsigned int cc_writes;		/* writes per concurrent writer */
	double deadline;		/* monotonic seconds */
	bool strict;
	bool verbose;
	bool timed_out;

	struct target *t;
	int nr_targets;
	struct model m;
	struct model saved;		/* what we found, put back at the end */

	char *huge;			/* FF_HUGE + 1 bytes of scratch */
	char *guard;			/* a page readable, then a PROT_NONE page */
	long page;

	unsigned long failures;
	struct note_rec notes[NR_NOTES];
	long inject_slack;		/* injected may exceed hits by this (racing resets) */
	unsigned long pieces;		/* reads in pieces across a switch, checked */
};

static struct fuzz F;

/* ---------------------------------------------------------------- misc */

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

/* xorshift64*: small, fast and the same everywhere for a given seed */
static uint64_t rnd64(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 0x2545f4914f6cdd1dULL;
}

/* The stream of the calling thread: F.rng, or its own for concurrent writers */
static __thread uint64_t *rng_state;

static uint64_t rnd(void)
{
	return rnd64(rng_state ? rng_state : &F.rng);
}

static unsigned int rnd_below(unsigned int n)
{
	return n ? rnd() % n : 0;
}

/* Print @buf (@len bytes) C-escaped into @out, cut after FF_SHOW bytes */
static const char *show(char *out, size_t size, const char *buf, size_t len)
{
	size_t i, o = 0;

	o += snprintf(out + o, size - o, "\"");
	for (i = 0; i < len && i < FF_SHOW && o + 8 < size; i++) {
		unsigned char c = buf[i];

		if (c == '\n')
			o += snprintf(out + o, size - o, "\\n");
		else if (c == '"' || c == '\\')
			o += snprintf(out + o, size - o, "\\%c", c);
		else if (isprint(c))
			o += snprintf(out + o, size - o, "%c", c);
		else
			o += snprintf(out + o, size - o, "\\x%02x", c);
	}
	snprintf(out + o, size - o, "\"%s", len > FF_SHOW ? "..." : "");
	if (len > FF_SHOW) {
		o = strlen(out);
		snprintf(out + o, size - o, " (%zu bytes)", len);
	}
	return out;
}

static void fail(struct target *t, const char *fmt, ...)
{
	va_list ap;

	F.failures++;
	if (t)
		t->failed++;
	fprintf(stderr, "FAIL: %s: ", t ? t->name : "-");
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void note(enum note n, struct target *t, const char *fmt, ...)
{
	struct note_rec *r = &F.notes[n];
	va_list ap;
	int len;

	r->n++;
	if (r->nex == FF_EXAMPLES)
		return;
	len = snprintf(r->ex[r->nex], sizeof(r->ex[0]), "%s: ", t->name);
	va_start(ap, fmt);
	vsnprintf(r->ex[r->nex] + len, sizeof(r->ex[0]) - len, fmt, ap);
	va_end(ap);
	r->nex++;
}

/* ------------------------------------------------------------ file I/O */

static int attr_path(char *path, size_t size, const char *attr)
{
	return snprintf(path, size, FF_ATTR "/%s", attr);
}

static int set_attr(const char *attr, const char *val)
{
	char path[PATH_MAX];
	int ret;

	attr_path(path, sizeof(path), attr);
	ret = write_str(path, val);
	if (ret)
		fprintf(stderr, "debugfs-fuzz: cannot write %s to %s: %s\n", val, path,
			strerror(-ret));
	return ret;
}

/* ------------------------------------------------------- kernel state */

/*
 * Parse the site table into @s.  Its columns are found by the names of its
 * header ("# name file line function errno enabled hits injected" in the
 * first version, "# name errno enabled hits injected call_site" in the
 * second): name, errno, enabled, hits and injected are required, file (when
 * there) must be under kernel/futex/.  Return: the number of sites or -errno.
 */
#define TABLE_COLS	16
static int read_table(struct ff_site *s, int max, char *bad, size_t badsize)
{
	static char buf[64 * 1024];
	enum { C_NAME, C_ERRNO, C_ENABLED, C_HITS, C_INJECTED, C_FILE, C_NR };
	static const char *const names[C_NR] = { "name", "errno", "enabled", "hits", "injected",
						 "file" };
	char *line, *save, *tok, *tsave, *col[TABLE_COLS], *end;
	int at[C_NR], ncols = 0, n = 0, i, k;
	ssize_t len;

	len = read_file(FF_SITES, buf, sizeof(buf));
	if (len < 0)
		return len;
	if ((size_t)len == sizeof(buf) - 1)
		return -E2BIG;
	line = strtok_r(buf, "\n", &save);
	if (!line || strncmp(line, "# ", 2)) {
		snprintf(bad, badsize, "header: %s", line ? line : "(none)");
		return -EINVAL;
	}
	for (k = 0; k < C_NR; k++)
		at[k] = -1;
	for (tok = strtok_r(line + 2, " \t", &tsave); tok; tok = strtok_r(NULL, " \t", &tsave)) {
		for (k = 0; k < C_NR; k++)
			if (!strcmp(tok, names[k]))
				at[k] = ncols;
		if (++ncols > TABLE_COLS) {
			snprintf(bad, badsize, "header: more than %d columns", TABLE_COLS);
			return -EINVAL;
		}
	}
	for (k = 0; k < C_FILE; k++)
		if (at[k] < 0) {
			snprintf(bad, badsize, "header: no column \"%s\"", names[k]);
			return -EINVAL;
		}
	while ((line = strtok_r(NULL, "\n", &save))) {
		char row[512];

		if (n == max)
			return -E2BIG;
		snprintf(row, sizeof(row), "%s", line);
		i = 0;
		for (tok = strtok_r(row, " \t", &tsave); tok && i < TABLE_COLS;
		     tok = strtok_r(NULL, " \t", &tsave))
			col[i++] = tok;
		if (i != ncols || tok)
			goto bad_row;
		if (strlen(col[at[C_NAME]]) >= sizeof(s[n].name))
			goto bad_row;
		strcpy(s[n].name, col[at[C_NAME]]);
		if (col[at[C_ERRNO]][0] != 'E' ||
		    (at[C_FILE] >= 0 && strncmp(col[at[C_FILE]], "kernel/futex/", 13)))
			goto bad_row;
		s[n].enabled = strtol(col[at[C_ENABLED]], &end, 10);
		if (*end || (s[n].enabled != 0 && s[n].enabled != 1))
			goto bad_row;
		s[n].hits = strtol(col[at[C_HITS]], &end, 10);
		if (*end || s[n].hits < 0)
			goto bad_row;
		s[n].injected = strtol(col[at[C_INJECTED]], &end, 10);
		if (*end || s[n].injected < 0)
			goto bad_row;
		n++;
	}
	return n;

bad_row:
	snprintf(bad, badsize, "line %d: %s", n + 2, line);
	return -EINVAL;
}

/* What a key file or "all" reads: 0 or more, or -errno */
static long read_num(const char *path, bool sign)
{
	char buf[64], *end;
	long long v;
	ssize_t len;

	len = read_file(path, buf, sizeof(buf));
	if (len < 0)
		return len;
	if (len < 2 || buf[len - 1] != '\n')
		return -EPROTO;
	buf[len - 1] = '\0';
	errno = 0;
	v = sign ? strtoll(buf, &end, 10) : (long long)strtoull(buf, &end, 10);
	if (errno || *end || end == buf)
		return -EPROTO;
	return v;
}

/* What a file gives to one read() of 64 bytes: a number and a newline, or -errno */
static long read_num_once(const char *path)
{
	char buf[64], *end;
	ssize_t len;
	long v;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len < 2 || buf[len - 1] != '\n')
		return len < 0 ? -errno : -EPROTO;
	buf[len] = '\0';
	v = strtol(buf, &end, 10);
	if (end == buf || *end != '\n')
		return -EPROTO;
	return v;
}

/* Read attribute @i into @val.  Return: 0 or -errno (-EPROTO: bad format). */
static int read_attr(unsigned int i, long long *val)
{
	char path[PATH_MAX], buf[64], *end;
	ssize_t len;

	attr_path(path, sizeof(path), ff_attrs[i].name);
	len = read_file(path, buf, sizeof(buf));
	if (len < 0)
		return len;
	if (ff_attrs[i].kind == K_BOOL) {
		if (len != 2 || (buf[0] != 'Y' && buf[0] != 'N') || buf[1] != '\n')
			return -EPROTO;
		*val = buf[0] == 'Y';
		return 0;
	}
	if (len < 2 || buf[len - 1] != '\n')
		return -EPROTO;
	buf[len - 1] = '\0';
	errno = 0;
	if (ff_attrs[i].kind == K_ATOMIC)
		*val = strtoll(buf, &end, 10);
	else
		*val = (long long)strtoull(buf, &end, 10);
	if (errno || *end || end == buf)
		return -EPROTO;
	return 0;
}

static int read_model(struct model *m)
{
	char bad[256] = "";
	unsigned int i;

	m->nr_sites = read_table(m->site, FF_MAX_SITES, bad, sizeof(bad));
	if (m->nr_sites <= 0) {
		fprintf(stderr, "debugfs-fuzz: cannot parse %s: %s %s\n", FF_SITES,
			strerror(-m->nr_sites), bad);
		return -1;
	}
	for (i = 0; i < ARRAY_SIZE(ff_attrs); i++)
		m->have_attr[i] = !read_attr(i, &m->attr[i]);
	return 0;
}

static int key_path(char *path, size_t size, const char *site)
{
	return snprintf(path, size, FF_KEYS "/%s", site);
}

/* What the counters of the site table may do between two checks */
enum counters {
	CNT_FIXED,	/* injected stays (nothing can inject), hits may grow */
	CNT_EXACT,	/* both as the model says (no futex calls, reset) */
	CNT_FREE,	/* anything, as long as injected <= hits */
};

/*
 * The kernel against the model: every site's key in the table and, for
 * @site (or every site when @all_files), in its key file; "all"; with
 * @check_attrs the attributes; the counters as @cnt says.  Return: whether
 * all agreed.
 */
static bool check_state(struct target *t, int site, bool all_files, bool check_attrs,
			enum counters cnt)
{
	static struct ff_site now_site[FF_MAX_SITES];
	char path[PATH_MAX], bad[256] = "";
	int i, n, enabled = 0, wrong = 0;
	bool ok = true;
	long v;

	n = read_table(now_site, FF_MAX_SITES, bad, sizeof(bad));
	if (n != F.m.nr_sites) {
		fail(t, "site table: %d sites (%s), expected %d %s", n,
		     n < 0 ? strerror(-n) : "", F.m.nr_sites, bad);
		return false;
	}
	for (i = 0; i < n; i++) {
		struct ff_site *want = &F.m.site[i], *got = &now_site[i];

		if (strcmp(got->name, want->name)) {
			fail(t, "site table: row %d is %s, was %s", i, got->name, want->name);
			return false;
		}
		/* a write to "all" gone wrong is one failure, not one per site */
		if (got->enabled != want->enabled && wrong++ < 3) {
			fail(t, "site table: %s enabled %d, expected %d", got->name,
			     got->enabled, want->enabled);
			ok = false;
		}
		/* a reset racing with hits may leave F.inject_slack more (see concurrent()) */
		if (got->injected > got->hits + F.inject_slack) {
			fail(t, "site table: %s injected %ld > hits %ld%s", got->name,
			     got->injected, got->hits, F.inject_slack ? " + racing resets" : "");
			ok = false;
		}
		if (cnt != CNT_FREE && got->injected != want->injected) {
			fail(t, "site table: %s injected %ld, expected %ld", got->name,
			     got->injected, want->injected);
			ok = false;
		}
		if (cnt == CNT_EXACT && got->hits != want->hits) {
			fail(t, "site table: %s hits %ld, expected %ld", got->name, got->hits,
			     want->hits);
			ok = false;
		}
		want->hits = got->hits;
		want->injected = got->injected;
		enabled += want->enabled;
		if (wrong > 3 && i == n - 1)
			fprintf(stderr, "FAIL: %s: (and %d more sites)\n", t ? t->name : "-",
				wrong - 3);
		if (!all_files && i != site)
			continue;
		key_path(path, sizeof(path), want->name);
		v = read_num(path, false);
		if (v != want->enabled) {
			fail(t, "%s reads %ld%s, expected %d", path, v,
			     v < 0 ? " (error)" : "", want->enabled);
			ok = false;
		}
	}
	v = read_num(FF_KEYS "/all", false);
	if (v != enabled) {
		fail(t, "all reads %ld, %d sites are enabled", v, enabled);
		ok = false;
	}
	if (!check_attrs)
		return ok;
	for (i = 0; i < (int)ARRAY_SIZE(ff_attrs); i++) {
		long long val;

		if (!F.m.have_attr[i])
			continue;
		if (read_attr(i, &val)) {
			fail(t, "cannot read %s", ff_attrs[i].name);
			ok = false;
		} else if (val != F.m.attr[i]) {
			fail(t, "%s reads %lld, expected %lld", ff_attrs[i].name, val,
			     F.m.attr[i]);
			ok = false;
			F.m.attr[i] = val;	/* report once */
		}
	}
	return ok;
}

/* -------------------------------------------------------- the parsers */

/*
 * The kernel's string to number conversions, emulated: kstrtoull() (with
 * @plus, a leading '+' is skipped) and _kstrtoull().  Return: 0, -EINVAL or
 * -ERANGE.
 */
static int emu_kstrtoull(const char *s, unsigned int base, unsigned long long *res, bool plus)
{
	unsigned long long r = 0;
	bool overflow = false;
	unsigned int n = 0;

	if (plus && s[0] == '+')
		s++;
	if (!base) {
		if (s[0] == '0')
			base = ((s[1] | 0x20) == 'x' && isascii(s[2]) && isxdigit(s[2])) ? 16 : 8;
		else
			base = 10;
	}
	if (base == 16 && s[0] == '0' && (s[1] | 0x20) == 'x')
		s += 2;
	for (;; s++, n++) {
		unsigned int c = (unsigned char)*s, lc = c | 0x20, v;

		if (c >= '0' && c <= '9')
			v = c - '0';
		else if (lc >= 'a' && lc <= 'f')
			v = lc - 'a' + 10;
		else
			break;
		if (v >= base)
			break;
		if ((r & (~0ULL << 60)) && r > (ULLONG_MAX - v) / base)
			overflow = true;
		r = r * base + v;
	}
	if (overflow)
		return -ERANGE;
	if (!n)
		return -EINVAL;
	if (*s == '\n')
		s++;
	if (*s)
		return -EINVAL;
	*res = r;
	return 0;
}

static int emu_kstrtoll(const char *s, unsigned int base, long long *res)
{
	unsigned long long tmp;
	int ret;

	if (s[0] == '-') {
		ret = emu_kstrtoull(s + 1, base, &tmp, false);
		if (ret)
			return ret;
		if ((long long)-tmp > 0)
			return -ERANGE;
		*res = -tmp;
		return 0;
	}
	ret = emu_kstrtoull(s, base, &tmp, true);
	if (ret)
		return ret;
	if ((long long)tmp < 0)
		return -ERANGE;
	*res = tmp;
	return 0;
}

static int emu_kstrtobool(const char *s, bool *res)
{
	switch (s[0]) {
	case 'y': case 'Y': case 't': case 'T': case '1':
		*res = true;
		return 0;
	case 'n': case 'N': case 'f': case 'F': case '0':
		*res = false;
		return 0;
	case 'o': case 'O':
		if ((s[1] | 0x20) == 'n') {
			*res = true;
			return 0;
		}
		if ((s[1] | 0x20) == 'f') {
			*res = false;
			return 0;
		}
	}
	return -EINVAL;
}

/* What one write should do */
struct expect {
	long ret;		/* the return value: count or -errno */
	bool effect;		/* the state changes ... */
	long long val;		/* ... to this (keys, all, attributes) */
};

/* How a write reaches the kernel */
struct wr {
	const char *buf;	/* a user pointer, maybe bad */
	size_t len;
	size_t avail;		/* readable bytes at buf (SIZE_MAX: all) */
	bool kptr;		/* buf is a kernel address */
	long long pos;		/* the file position it is written at */
};

/* How many bytes of @w can be shown: the readable ones */
static size_t visible(const struct wr *w)
{
	if (w->kptr)
		return 0;
	return w->avail == SIZE_MAX || w->len < w->avail ? w->len : w->avail;
}

/* @len bytes at @buf as the kernel's helpers see them: @cap at most, NUL-terminated */
static void take(char *s, const struct wr *w, size_t cap)
{
	size_t n = w->len < cap ? w->len : cap;

	memcpy(s, w->buf, n);
	s[n] = '\0';
}

static bool readable(const struct wr *w, size_t need)
{
	return w->avail == SIZE_MAX || need <= w->avail;
}

static bool ours(const struct target *t)
{
	return t->kind == K_KEY || t->kind == K_ALL || t->kind == K_RESET;
}

/*
 * The documentation of our files: a key file and "all" take "0" or "1",
 * optionally followed by a newline, written at offset 0; reset takes "1" the
 * same way.  Anything else is EINVAL, an unreadable buffer EFAULT.  Which of
 * the two an input that is both gets is futex_fault_parse()'s order: the
 * offset and the length first, then the copy, then the bytes.
 */
/*
 * The key files and reset parse with kstrtobool_from_user(): the first
 * FF_BOOL_BUF bytes at any position, -EINVAL for what kstrtobool() refuses
 * (and for a false reset), the whole count otherwise.
 */
static struct expect expect_ours(const struct target *t, const struct wr *w)
{
	struct expect e = { .ret = -EINVAL };
	char s[FF_BOOL_BUF + 1];
	bool b;

	if (!readable(w, w->len < FF_BOOL_BUF ? w->len : FF_BOOL_BUF)) {
		e.ret = -EFAULT;
		return e;
	}
	take(s, w, FF_BOOL_BUF);
	if (emu_kstrtobool(s, &b))
		return e;
	if (t->kind == K_RESET && !b)
		return e;
	e.ret = w->len;
	e.effect = true;
	e.val = b;
	return e;
}

static struct expect expect_write(const struct target *t, const struct wr *w)
{
	struct expect e = { .ret = -EINVAL };
	char s[64];

	if (t->kind == K_SITES)
		return e;		/* no ->write: vfs_write() says EINVAL */
	if (w->kptr) {
		e.ret = -EFAULT;	/* access_ok() in vfs_write() */
		return e;
	}
	/* rw_verify_area(): no negative position, none past LLONG_MAX */
	if (w->pos < 0 || (unsigned long long)w->pos + w->len > LLONG_MAX)
		return e;

	switch (t->kind) {
	case K_KEY:
	case K_ALL:
	case K_RESET:
		return expect_ours(t, w);
	case K_BOOL: {
		bool b;

		/* debugfs_write_file_bool(): count, whatever kstrtobool said */
		e.ret = w->len;
		if (!readable(w, w->len < FF_BOOL_BUF ? w->len : FF_BOOL_BUF))
			return e;
		take(s, w, FF_BOOL_BUF);
		if (emu_kstrtobool(s, &b))
			return e;
		e.effect = true;
		e.val = b;
		return e;
	}
	case K_UL:
	case K_U32:
	case K_ATOMIC: {
		unsigned long long u;
		long long l;
		int ret;

		/* simple_attr_write(): the first 23 bytes, kstrto(u)ll(s, 0) */
		if (!readable(w, w->len < FF_ATTR_BUF ? w->len : FF_ATTR_BUF)) {
			e.ret = -EFAULT;
			return e;
		}
		take(s, w, FF_ATTR_BUF);
		if (t->kind == K_ATOMIC) {
			ret = emu_kstrtoll(s, 0, &l);
			u = l;
		} else {
			ret = emu_kstrtoull(s, 0, &u, true);
		}
		if (ret) {
			e.ret = ret;
			return e;
		}
		e.ret = w->len;
		e.effect = true;
		if (t->kind == K_U32)
			e.val = (uint32_t)u;
		else if (t->kind == K_ATOMIC)
			e.val = (int32_t)u;
		else
			e.val = (long long)u;
		return e;
	}
	default:
		return e;
	}
}

/* The model after a write with @e on @t */
static void model_apply(const struct target *t, const struct expect *e)
{
	int i;

	if (!e->effect || e->ret < 0)
		return;
	switch (t->kind) {
	case K_KEY:
		F.m.site[t->site].enabled = e->val;
		break;
	case K_ALL:
		for (i = 0; i < F.m.nr_sites; i++)
			F.m.site[i].enabled = e->val;
		break;
	case K_RESET:
		for (i = 0; i < F.m.nr_sites; i++) {
			F.m.site[i].hits = 0;
			F.m.site[i].injected = 0;
		}
		break;
	case K_UL:
	case K_U32:
	case K_ATOMIC:
	case K_BOOL:
		F.m.attr[t->attr] = e->val;
		break;
	default:
		break;
	}
}

/* Notes on an accepted or rejected write to a standard debugfs file */
static void notes_for(struct target *t, const struct wr *w, const struct expect *e)
{
	char sh[FF_SHOW * 4 + 32];

	if (t->kind == K_BOOL && !e->effect && e->ret >= 0 && w->len)
		note(N_BOOL_SILENT, t, "%s -> %ld", show(sh, sizeof(sh), w->buf, visible(w)),
		     e->ret);
	if ((t->kind == K_UL || t->kind == K_U32 || t->kind == K_ATOMIC) && e->ret >= 0) {
		if (w->len > FF_ATTR_BUF)
			note(N_ATTR_PREFIX, t, "%s -> %lld",
			     show(sh, sizeof(sh), w->buf, visible(w)), e->val);
		if (t->kind != K_UL) {
			char s[64];
			long long l;
			unsigned long long u;

			take(s, w, FF_ATTR_BUF);
			if (t->kind == K_U32 && !emu_kstrtoull(s, 0, &u, true) && u > UINT32_MAX)
				note(N_ATTR_WRAP, t, "%s -> %lld", show(sh, sizeof(sh), w->buf,
									visible(w)), e->val);
			if (t->kind == K_ATOMIC && !emu_kstrtoll(s, 0, &l) &&
			    (l > INT32_MAX || l < INT32_MIN))
				note(N_ATTR_WRAP, t, "%s -> %lld", show(sh, sizeof(sh), w->buf,
									visible(w)), e->val);
		}
	}
}

/* ------------------------------------------------------ input makers */

static const char * const pool_neg[] = {
	"-1", "-0", "-1\n", "--1", "-0x1", "-", "-\n", "- 1", "-01", "-2147483648",
	"-2147483649", "-4294967296", "-9223372036854775808", "-9223372036854775809",
	"-18446744073709551615", "-+1", "+-1",
};

static const char * const pool_overflow[] = {
	"2", "10", "4294967295", "4294967296", "4294967297", "2147483647", "2147483648",
	"9223372036854775807", "9223372036854775808", "18446744073709551615",
	"18446744073709551616", "99999999999999999999", "0xffffffff", "0x100000001",
	"0xffffffffffffffff", "0x10000000000000000", "01777777777777777777777",
	"02000000000000000000000", "0000000000000000000000000001",
	"340282366920938463463374607431768211456",
};

static const char * const pool_space[] = {
	" 1", "1 ", "\t1", "1\t", "1\n\n", "\n", "\n1", "1\r\n", "1\r", " ", "0 \n", "\v0",
	"1\n ", " \n",
};

static const char * const pool_prefix[] = {
	"+1", "+0", "+1\n", "01", "00", "001\n", "0x1", "0X0", "0x", "0b1", "0o1", "00000001",
	"000000001", "+0000001", "1e0", "1.0", "+", "0x0\n", "0xg", "08", "010", "0x1p0",
	"Y", "N", "y", "n", "on", "off", "true", "false", "ON", "oF", "o", "t", "f",
};

static const char * const pool_junk_tail[] = {
	"x", "abc", " ", "\n\n", "\r", "0", "1", "\t", ".", "\xff", "\x80", ",1", ";", "\\n",
};

static const char * const pool_bool_valid[] = {
	"Y", "N", "y", "n", "1", "0", "Y\n", "N\n", "on", "off", "On", "oFF", "t", "F",
	"true", "false", "yes", "no",
};

/* A valid value for @t, as a string into @s */
static size_t make_valid(const struct target *t, char *s, size_t size)
{
	uint64_t v = rnd();

	switch (t->kind) {
	case K_KEY:
	case K_ALL:
	case K_SITES:
		return snprintf(s, size, "%u%s", (unsigned int)(v & 1), (v & 2) ? "\n" : "");
	case K_RESET:
		return snprintf(s, size, "%s", (v & 1) ? "1" : "1\n");
	case K_BOOL:
		return snprintf(s, size, "%s",
				pool_bool_valid[rnd_below(ARRAY_SIZE(pool_bool_valid))]);
	case K_U32:
		v = (uint32_t)v;
		break;
	case K_ATOMIC:
		v = (int32_t)v;
		if (rnd_below(4) == 0)
			return snprintf(s, size, "%d%s", (int32_t)v, (v & 2) ? "\n" : "");
		break;
	default:
		break;
	}
	/* keep the fault_attr values small now and then */
	if (rnd_below(2))
		v %= 200;
	switch (rnd_below(4)) {
	case 0:
		return snprintf(s, size, "%#llx", (unsigned long long)v);
	case 1:
		return snprintf(s, size, "0%llo", (unsigned long long)v);
	case 2:
		return snprintf(s, size, "%llu\n", (unsigned long long)v);
	default:
		return snprintf(s, size, "%llu", (unsigned long long)v);
	}
}

static size_t pick(const char * const *pool, size_t n, char *s, size_t size)
{
	return snprintf(s, size, "%s", pool[rnd_below(n)]);
}

#define PICK(pool, s, size)	pick(pool, ARRAY_SIZE(pool), s, size)

/*
 * An input of class @c for @t into @s (at least 256 bytes, FF_HUGE for
 * C_HUGE).  Return: its length.
 */
static size_t make_input(const struct target *t, enum class c, char *s, size_t size)
{
	size_t len, i, n;

	switch (c) {
	case C_VALID:
		return make_valid(t, s, size);
	case C_GARBAGE:
		len = 1 + rnd_below(64);
		for (i = 0; i < len; i++)
			s[i] = rnd();
		return len;
	case C_JUNK:
		len = make_valid(t, s, size);
		if (len && s[len - 1] == '\n' && rnd_below(2))
			len--;
		n = 1 + rnd_below(3);
		for (i = 0; i < n; i++)
			len += snprintf(s + len, size - len, "%s",
					pool_junk_tail[rnd_below(ARRAY_SIZE(pool_junk_tail))]);
		return len;
	case C_NEG:
		return PICK(pool_neg, s, size);
	case C_OVERFLOW:
		if (rnd_below(4) == 0) {
			len = 20 + rnd_below(40);
			for (i = 0; i < len; i++)
				s[i] = '0' + rnd_below(10);
			s[0] = '1' + rnd_below(9);
			return len;
		}
		return PICK(pool_overflow, s, size);
	case C_NUL:
		switch (rnd_below(5)) {
		case 0:
			memset(s, 0, 9);
			return 1 + rnd_below(9);	/* all NULs */
		case 1:
			len = make_valid(t, s + 1, size - 1);
			s[0] = '\0';
			return len + 1;
		case 2:
			len = make_valid(t, s, size);
			n = 1 + rnd_below(8);
			memset(s + len, 0, n);
			return len + n;
		default:
			len = make_valid(t, s, size);
			s[len++] = '\0';
			len += snprintf(s + len, size - len, "%s",
					pool_junk_tail[rnd_below(ARRAY_SIZE(pool_junk_tail))]);
			return len;
		}
	case C_SPACE:
		return PICK(pool_space, s, size);
	case C_PREFIX:
		return PICK(pool_prefix, s, size);
	case C_HUGE:
		len = FF_HUGE;
		switch (rnd_below(5)) {
		case 0:			/* digits that would parse */
			memset(s, '0', len);
			s[len - 1] = '1';
			break;
		case 1:			/* a valid value, then junk */
			memset(s, 'z', len);
			n = make_valid(t, s, 64);
			s[n] = 'z';
			break;
		case 2:			/* a valid value, then NULs */
			memset(s, 0, len);
			make_valid(t, s, 64);
			break;
		case 3:			/* a valid value, then newlines */
			memset(s, '\n', len);
			n = make_valid(t, s, 64);
			s[n] = '\n';
			break;
		default:		/* random bytes */
			for (i = 0; i < len; i += 8) {
				uint64_t r = rnd();

				memcpy(s + i, &r, 8);
			}
			break;
		}
		return len;
	default:
		/* bytes, offset, writev: any small input */
		return make_input(t, (enum class)rnd_below(C_PREFIX + 1), s, size);
	}
}

/* -------------------------------------------------------- doing writes */

static ssize_t do_write(int fd, const void *buf, size_t len)
{
	ssize_t n = write(fd, buf, len);

	return n < 0 ? -errno : n;
}

/*
 * seq_open() clears FMODE_PWRITE (key files, "all", sites), simple_attr_open()
 * opens non-seekable (the numeric attributes): pwrite() is ESPIPE there.
 * reset (simple_open) and the bool attributes keep it.
 */
static bool no_pwrite(const struct target *t)
{
	return t->kind != K_RESET && t->kind != K_BOOL;
}

/* seq_open() leaves FMODE_PREAD (seq_files take pread()); simple_attr_open() clears it */
static bool no_pread(const struct target *t)
{
	return t->kind == K_UL || t->kind == K_U32 || t->kind == K_ATOMIC;
}

/*
 * Where lseek(fd, @off, SEEK_SET) leaves the position of a fresh descriptor
 * of @t, into @pos.  Return: what lseek() returns, or -errno.
 */
static long long expect_lseek(const struct target *t, long long off, long long *pos)
{
	*pos = 0;
	switch (t->kind) {
	case K_RESET:
		return 0;		/* noop_llseek(): the position stays */
	case K_UL:
	case K_U32:
	case K_ATOMIC:
		return -ESPIPE;		/* no_llseek() */
	default:
		/* seq_lseek() (traverse() past the end is fine), default_llseek() */
		if (off < 0)
			return -EINVAL;
		*pos = off;
		return off;
	}
}

/*
 * One write of @w to @t on a fresh descriptor @fd, checked against the model:
 * write(), or with @how 'p' pwrite() at @off, with 's' lseek() to @off and
 * write().  Return: the write's result.
 */
static long one_write(struct target *t, int fd, const struct wr *w, enum class c, off_t off,
		      char how)
{
	char sh[FF_SHOW * 4 + 32];
	struct wr at = *w;
	struct expect e;
	long got;

	if (how == 's') {
		long long want = expect_lseek(t, off, &at.pos), pos;

		pos = lseek(fd, off, SEEK_SET);
		pos = pos < 0 ? -errno : pos;
		if (pos != want)
			fail(t, "lseek(fd, %lld, SEEK_SET): %lld (%s), expected %lld (%s)",
			     (long long)off, pos, pos < 0 ? strerror(-pos) : "ok", want,
			     want < 0 ? strerror(-want) : "ok");
		at.pos = pos < 0 ? 0 : pos;	/* the kernel's position decides */
	} else if (how == 'p') {
		at.pos = off;
	}
	e = expect_write(t, &at);

	if (how == 'p') {
		got = pwrite(fd, w->buf, w->len, off);
		got = got < 0 ? -errno : got;
		if (off < 0)
			e = (struct expect){ .ret = -EINVAL };	/* ksys_pwrite64() */
		else if (no_pwrite(t))
			e = (struct expect){ .ret = -ESPIPE };
	} else {
		got = do_write(fd, w->buf, w->len);
	}
	if (got != e.ret) {
		fail(t, "%s %s %s at %lld: returned %ld (%s), expected %ld (%s)%s", class_name[c],
		     how == 'p' ? "pwrite" : how == 's' ? "lseek+write" : "write",
		     show(sh, sizeof(sh), w->buf, visible(w)), at.pos, got,
		     got < 0 ? strerror(-got) : "ok", e.ret, e.ret < 0 ? strerror(-e.ret) : "ok",
		     ours(t) && got >= 0 && e.ret < 0 ?
		     ": accepted what the documentation calls invalid" : "");
		/*
		 * The kernel's answer decides what the state is now: read it
		 * back, so that one wrong answer is one failure.
		 */
		if (got >= 0)
			t->accepted++;
		read_model(&F.m);
		return got;
	}
	if (got >= 0)
		t->accepted++;
	if (!ours(t))
		notes_for(t, w, &e);
	model_apply(t, &e);
	return got;
}

static int open_target(struct target *t, int flags)
{
	int fd = open(t->path, flags);

	if (fd < 0 && t->kind == K_SITES && (flags & O_ACCMODE) != O_RDONLY)
		return -errno;
	if (fd < 0)
		fail(t, "open(%s, %#x): %s", t->path, flags, strerror(errno));
	else if (t->kind == K_SITES && (flags & O_ACCMODE) != O_RDONLY)
		note(N_SITES_OPEN, t, "open(O_WRONLY) succeeded");
	return fd;
}

/*
 * The state after input @iter on @t.  Nothing can inject meanwhile
 * (probability is 0), and while reset is fuzzed nothing makes futex calls.
 * After a mismatch the model takes the kernel's state, so that one wrong
 * write is reported once.
 */
static void check_after(struct target *t, unsigned int iter)
{
	bool attrs = t->kind >= K_UL || !(iter % 16), ok;

	switch (t->kind) {
	case K_KEY:
		ok = check_state(t, t->site, !(iter % 16), attrs, CNT_FIXED);
		break;
	case K_ALL:
		ok = check_state(t, -1, !(iter % 4), attrs, CNT_FIXED);
		break;
	case K_RESET:
		ok = check_state(t, -1, !(iter % 32), attrs, CNT_EXACT);
		break;
	default:
		ok = check_state(t, -1, !(iter % 32), attrs, CNT_FIXED);
		break;
	}
	if (!ok)
		read_model(&F.m);
}

/* pread() of @len bytes at @off into @buf: bytes or -errno */
static long do_pread(int fd, void *buf, size_t len, off_t off)
{
	ssize_t n = pread(fd, buf, len, off);

	return n < 0 ? -errno : n;
}

/* Reads of every shape: each must give what a whole read gives */
static void do_reads(struct target *t)
{
	static char whole[64 * 1024], part[64 * 1024];
	ssize_t len, n, plen = 0;
	long r, want;
	int fd;

	fd = open_target(t, O_RDONLY);
	if (fd < 0)
		return;
	if (t->kind == K_RESET) {
		char c;

		/* write-only: no ->read, vfs_read() says EINVAL, pread() too */
		n = read(fd, &c, 1);
		if (n != -1 || errno != EINVAL)
			fail(t, "read: %zd (%s), expected EINVAL", n, n < 0 ? strerror(errno) : "");
		r = do_pread(fd, &c, 1, 0);
		if (r != -EINVAL)
			fail(t, "pread: %ld, expected EINVAL", r);
		close(fd);
		return;
	}
	len = read(fd, whole, sizeof(whole));
	if (len <= 0) {
		fail(t, "read: %zd (%s)", len, len < 0 ? strerror(errno) : "empty");
		close(fd);
		return;
	}
	/* on a second descriptor: a byte at a time, or in odd-sized pieces */
	n = open_target(t, O_RDONLY);
	if (n >= 0) {
		int fd2 = n;

		while (plen < len + 1) {
			size_t want = rnd_below(2) ? 1 : 1 + rnd_below(13);

			n = read(fd2, part + plen, want);
			if (n <= 0)
				break;
			plen += n;
		}
		if (n < 0)
			fail(t, "piecewise read: %s", strerror(errno));
		else if (plen != len || memcmp(whole, part, len))
			fail(t, "piecewise read differs from a whole read (%zd vs %zd bytes)",
			     plen, len);
		close(fd2);
	}
	/* into an unwritable buffer, on a third: nothing is copied, EFAULT */
	n = open_target(t, O_RDONLY);
	if (n >= 0) {
		int fd3 = n;

		n = read(fd3, F.guard + F.page, 16);
		if (n != -1 || errno != EFAULT)
			fail(t, "read into an unwritable buffer: %zd (%s), expected EFAULT", n,
			     n < 0 ? strerror(errno) : "");
		close(fd3);
	}
	/*
	 * pread() on the first, which has read the whole file once: seq_files
	 * and bool attributes take it, the simple_attr files are non-seekable.
	 */
	want = no_pread(t) ? -ESPIPE : len - 1;
	r = do_pread(fd, part, sizeof(part), 1);
	if (r != want || (r > 0 && memcmp(whole + 1, part, r)))
		fail(t, "pread at 1: %ld (%s), expected %ld", r, r < 0 ? strerror(-r) : "bytes",
		     want);
	want = no_pread(t) ? -ESPIPE : 0;
	r = do_pread(fd, part, sizeof(part), 1LL << 40);
	if (r != want)
		fail(t, "pread at 2^40: %ld (%s), expected %ld", r, r < 0 ? strerror(-r) : "bytes",
		     want);
	r = do_pread(fd, part, sizeof(part), -1);
	if (r != -EINVAL)
		fail(t, "pread at -1: %ld, expected EINVAL", r);
	r = do_pread(fd, part, 0, 0);
	if (r != want)
		fail(t, "pread of 0 bytes: %ld, expected %ld", r, want);
	want = no_pread(t) ? -ESPIPE : -EFAULT;
	r = do_pread(fd, F.guard + F.page, 16, 0);
	if (r != want)
		fail(t, "pread into an unwritable buffer: %ld, expected %ld", r, want);
	close(fd);
}

static int all_keys(bool on);

/* What "all" reads while @on sites are enabled */
static void all_text(char *s, size_t size, int on)
{
	snprintf(s, size, "%d\n", on);
}

/*
 * "all" read in two pieces while every key is switched in between, both ways
 * (0 -> all, all -> 0).  @how: 'r' two read()s, 'p' two pread()s in sequence
 * (0, then where the first ended), 'm' read(), a pread() at 0, read().
 * Return: what the pieces joined, NUL-terminated, or NULL.
 */
static const char *two_pieces(struct target *t, bool from, char how, char *got, size_t size)
{
	char c;
	ssize_t n1, n2;
	int fd;

	all_keys(from);
	fd = open(t->path, O_RDONLY);
	if (fd < 0) {
		fail(t, "open: %s", strerror(errno));
		return NULL;
	}
	n1 = how == 'p' ? pread(fd, got, 1, 0) : read(fd, got, 1);
	all_keys(!from);
	if (how == 'm' && pread(fd, &c, 1, 0) != 1)
		n1 = -1;
	if (n1 != 1)
		n2 = -1;
	else if (how == 'p')
		n2 = pread(fd, got + 1, size - 2, 1);
	else
		n2 = read(fd, got + 1, size - 2);
	close(fd);
	if (n1 != 1 || n2 < 0) {
		fail(t, "read in pieces (%c): %zd, %zd (%s)", how, n1, n2, strerror(errno));
		return NULL;
	}
	got[1 + n2] = '\0';
	return got;
}

/*
 * The documentation: "Both files format their value once per open file, so
 * a value read in pieces is consistent."  A reader that needs two read()
 * calls (or two pread()s, each where the last ended) while every key is
 * switched in between must get the count as it was at its first read.  The
 * kernels before the seq_files formatted the count afresh on every read():
 * with 57 sites, "0" then "7\n" of "57\n" read 7, a count that never was.
 * Recorded, not failed (N_REREAD): seq_file formats the value again at a
 * read from offset 0, so a pread() at 0 between two read()s joins two values
 * ('m'), and a rewind reads the current one (read_rewind()).
 */
static void read_pieces(struct target *t)
{
	static const char hows[] = { 'r', 'p', 'm' };
	char first[32], got[64], sh[256], sh2[256];
	unsigned int h;
	int k, was, then;

	for (h = 0; h < ARRAY_SIZE(hows); h++) {
		for (k = 0; k < 2; k++) {
			/* 0 -> all, then all -> 0 */
			was = k ? F.m.nr_sites : 0;
			then = k ? 0 : F.m.nr_sites;
			all_text(first, sizeof(first), was);
			if (!two_pieces(t, k, hows[h], got, sizeof(got)))
				continue;
			F.pieces++;
			if (!strcmp(got, first))
				continue;
			show(sh, sizeof(sh), got, strlen(got));
			if (hows[h] == 'r')
				fail(t, "torn read: read(1 byte), every key switched, read() gave "
				     "%s: the count was %d, then %d", sh, was, then);
			else if (hows[h] == 'p')
				fail(t, "torn read: pread(1 byte at 0), every key switched, pread "
				     "at 1 gave %s: the count was %d, then %d", sh, was, then);
			else
				note(N_REREAD, t, "read(1 byte) of %s, every key switched, "
				     "pread(fd, 1, 0), read(): %s",
				     show(sh2, sizeof(sh2), first, strlen(first)), sh);
		}
	}
}

/* A rewind: the value as it is now, or (as "once per open" reads) as it was */
static void read_rewind(struct target *t)
{
	char first[32], second[32], got[64], sh[256], sh2[256];
	ssize_t n;
	int fd;

	all_keys(false);
	all_text(first, sizeof(first), 0);
	all_text(second, sizeof(second), F.m.nr_sites);
	fd = open(t->path, O_RDONLY);
	if (fd < 0) {
		fail(t, "open: %s", strerror(errno));
		return;
	}
	n = read(fd, got, sizeof(got) - 1);
	all_keys(true);
	if (n != (ssize_t)strlen(first) || memcmp(got, first, n)) {
		fail(t, "read: %zd bytes, expected %s", n,
		     show(sh, sizeof(sh), first, strlen(first)));
		goto out;
	}
	if (lseek(fd, 0, SEEK_SET) != 0) {
		fail(t, "lseek(0): %s", strerror(errno));
		goto out;
	}
	n = read(fd, got, sizeof(got) - 1);
	if (n < 0) {
		fail(t, "read after lseek(0): %s", strerror(errno));
		goto out;
	}
	F.pieces++;
	got[n] = '\0';
	if (strcmp(got, first) && strcmp(got, second))
		fail(t, "read after lseek(0) gave %s, neither %d nor %d",
		     show(sh, sizeof(sh), got, n), 0, F.m.nr_sites);
	else if (!strcmp(got, second))
		note(N_REREAD, t, "read %s, every key switched, lseek(0), read: %s",
		     show(sh, sizeof(sh), first, strlen(first)), show(sh2, sizeof(sh2), got, n));
out:
	close(fd);
	all_keys(false);
}

/* Run one input of class @c on @t; @iter is its number on @t */
static void one_input(struct target *t, enum class c, unsigned int iter)
{
	static char s[512];
	struct wr w = { .avail = SIZE_MAX };
	char *buf = s;
	int fd, flags = O_WRONLY;
	size_t i;

	t->tried[c]++;
	if (c == C_READ) {
		do_reads(t);
		if (t->kind == K_ALL && iter < C_CONCUR) {
			read_pieces(t);
			read_rewind(t);
		}
		check_after(t, iter);
		return;
	}
	/* how shells and programs open them: plain, O_TRUNC (echo >), O_APPEND, O_RDWR */
	switch (rnd_below(4)) {
	case 1:
		flags |= O_TRUNC;
		break;
	case 2:
		flags |= O_APPEND;
		break;
	case 3:
		flags = O_RDWR;
		break;
	}
	fd = open_target(t, flags);
	if (fd < 0)
		return;

	switch (c) {
	case C_HUGE:
		w.len = make_input(t, c, F.huge, FF_HUGE + 1);
		w.buf = F.huge;
		one_write(t, fd, &w, c, 0, 'w');
		break;
	case C_BYTES:
		w.len = make_input(t, c, s, sizeof(s));
		for (i = 0; i < w.len; i++) {
			struct wr b = { .buf = s + i, .len = 1, .avail = SIZE_MAX };

			one_write(t, fd, &b, c, 0, 'w');
		}
		break;
	case C_OFFSET: {
		static const off_t offs[] = { 0, 1, 2, 7, 8, 4096, 1 << 20, 1LL << 40,
					      LLONG_MAX - 1, -1, LLONG_MIN };
		off_t off;

		/* pwrite(), or lseek() and write(): only offset 0 may work */
		w.len = make_input(t, c, s, sizeof(s));
		w.buf = s;
		off = offs[rnd_below(ARRAY_SIZE(offs))];
		one_write(t, fd, &w, c, off, rnd_below(2) ? 'p' : 's');
		break;
	}
	case C_WRITEV: {
		struct iovec iov[3];
		struct expect e[3];
		struct wr seg[3];
		int nr = 2 + rnd_below(2), k;
		size_t off = 0;
		long want = 0, got;
		char sh[FF_SHOW * 4 + 32];

		for (k = 0; k < nr; k++) {
			size_t len = make_input(t, (enum class)rnd_below(C_PREFIX + 1), s + off,
						(sizeof(s) - off) / 2);

			if (!len)
				s[off] = '1', len = 1;
			seg[k] = (struct wr){ .buf = s + off, .len = len, .avail = SIZE_MAX };
			iov[k].iov_base = s + off;
			iov[k].iov_len = len;
			off += len;
		}
		/* do_loop_readv_writev(): one ->write() per segment, stop at the first short one */
		for (k = 0; k < nr; k++) {
			e[k] = expect_write(t, &seg[k]);
			if (e[k].ret < 0) {
				if (!want)
					want = e[k].ret;
				break;
			}
			want += e[k].ret;
			if ((size_t)e[k].ret != seg[k].len)
				break;
		}
		got = writev(fd, iov, nr);
		got = got < 0 ? -errno : got;
		if (got != want) {
			fail(t, "writev of %d segments, first %s: returned %ld, expected %ld", nr,
			     show(sh, sizeof(sh), seg[0].buf, seg[0].len), got, want);
			read_model(&F.m);
			k = -1;		/* the kernel's state is the model's now */
		}
		for (i = 0; (int)i <= k && i < (size_t)nr; i++) {
			if (e[i].ret < 0)
				break;
			if (!ours(t))
				notes_for(t, &seg[i], &e[i]);
			model_apply(t, &e[i]);
		}
		if (got >= 0)
			t->accepted++;
		break;
	}
	case C_BADPTR: {
		size_t k;

		switch (rnd_below(3)) {
		case 0:			/* an unmapped page */
			w.buf = F.guard + F.page;
			w.len = 1 + rnd_below(8);
			w.avail = 0;
			break;
		case 1:			/* the input runs into an unmapped page */
			k = make_valid(t, s, sizeof(s));
			w.len = k + 1 + rnd_below(4);
			w.buf = F.guard + F.page - k;
			memcpy((char *)w.buf, s, k);
			w.avail = k;
			break;
		default:		/* a kernel address */
			w.buf = FF_KERNEL_PTR;
			w.len = 1 + rnd_below(4);
			w.kptr = true;
			w.avail = 0;
			break;
		}
		one_write(t, fd, &w, c, 0, 'w');
		break;
	}
	case C_EMPTY:
		w.buf = s;
		w.len = 0;
		one_write(t, fd, &w, c, 0, 'w');
		break;
	default:
		w.len = make_input(t, c, buf, sizeof(s));
		w.buf = buf;
		one_write(t, fd, &w, c, 0, 'w');
		break;
	}
	close(fd);
	check_after(t, iter);
}

/* ------------------------------------------------------------- phases */

static bool out_of_time(void)
{
	if (!F.timed_out && now() > F.deadline) {
		F.timed_out = true;
		fprintf(stderr, "debugfs-fuzz: time limit reached, cutting the run short\n");
	}
	return F.timed_out;
}

static int all_keys(bool on)
{
	int i, ret = write_str(FF_KEYS "/all", on ? "1" : "0");

	for (i = 0; i < F.m.nr_sites; i++)
		F.m.site[i].enabled = on;
	return ret;
}

/*
 * Nothing may fail while we fuzz: probability 0, and only make-it-fail tasks
 * would.  The other knobs back to their defaults, for make_counts().
 */
static void quiet_policy(void)
{
	static const struct {
		const char *name, *val;
		long long model;
	} quiet[] = {
		{ "probability", "0", 0 }, { "task-filter", "Y", 1 }, { "verbose", "0", 0 },
		{ "interval", "1", 1 }, { "space", "0", 0 }, { "times", "1", 1 },
		{ "ignore-private", "N", 0 },
	};
	unsigned int i, k;

	for (k = 0; k < ARRAY_SIZE(quiet); k++) {
		for (i = 0; i < ARRAY_SIZE(ff_attrs); i++) {
			if (!F.m.have_attr[i] || strcmp(ff_attrs[i].name, quiet[k].name))
				continue;
			set_attr(quiet[k].name, quiet[k].val);
			F.m.attr[i] = quiet[k].model;
		}
	}
}

static long futex_wake(int *uaddr)
{
	long ret = syscall(SYS_futex, uaddr, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);

	return ret < 0 ? -errno : ret;
}

static int site_index(const char *name)
{
	int i;

	for (i = 0; i < F.m.nr_sites; i++) {
		if (!strcmp(F.m.site[i].name, name))
			return i;
	}
	return -1;
}

/*
 * Give the counters something to reset: hits on wake_get_key with nothing
 * injected, then @inject failures injected into this thread only.
 */
static void make_counts(struct target *t, int inject)
{
	int site = site_index("wake_get_key"), word = 0, i;
	long hits, injected;
	char val[16];

	if (site < 0) {
		fail(t, "no site wake_get_key in the table");
		return;
	}
	hits = F.m.site[site].hits;
	injected = F.m.site[site].injected;
	write_str(FF_KEYS "/wake_get_key", "1");
	F.m.site[site].enabled = 1;
	for (i = 0; i < 5; i++)
		futex_wake(&word);
	if (inject) {
		snprintf(val, sizeof(val), "%d", inject);
		set_attr("times", val);
		set_attr("probability", "100");
		write_str(FF_MAKE_IT_FAIL, "1");
		for (i = 0; i < inject + 2; i++) {
			long ret = futex_wake(&word);

			if (i < inject && ret != -EFAULT)
				fail(t, "FUTEX_WAKE failing: %ld, expected EFAULT", ret);
		}
		write_str(FF_MAKE_IT_FAIL, "0");
		set_attr("probability", "0");
		set_attr("times", "1");
	}
	read_model(&F.m);
	if (F.m.site[site].hits != hits + 5 + (inject ? inject + 2 : 0) ||
	    F.m.site[site].injected != injected + inject)
		fail(t, "wake_get_key: hits %ld -> %ld, injected %ld -> %ld after %d calls, %d "
		     "failing", hits, F.m.site[site].hits, injected, F.m.site[site].injected,
		     5 + (inject ? inject + 2 : 0), inject);
	write_str(FF_KEYS "/wake_get_key", "0");
	F.m.site[site].enabled = 0;
}

static void fuzz_target(struct target *t)
{
	unsigned int i;

	for (i = 0; i < F.per_file && !out_of_time(); i++) {
		/* counters for reset to zero: hits, and now and then failures */
		if (t->kind == K_RESET && !(i % 4))
			make_counts(t, i % 8 ? 0 : 2);
		one_input(t, (enum class)(i % C_CONCUR), i);
	}
	if (F.verbose)
		fprintf(stderr, "debugfs-fuzz: %s: %u inputs\n", t->name, i);
}

/* ---------------------------------------------------- concurrent writers */

#define CC_MAX_VALS	4096
#define CC_MAX_TARGETS	3

/* Shared between the writer processes */
struct cc_shared {
	unsigned long tried[CC_MAX_TARGETS];
	unsigned long mismatch;
	unsigned long accepted;
	unsigned long reads;
	unsigned long wakes;
	unsigned int nvals[CC_MAX_TARGETS];
	/* what accepted writes set, the latest CC_MAX_VALS (the last one is among them) */
	long long vals[CC_MAX_TARGETS][CC_MAX_VALS];
	char first_bad[256];
};

struct cc_thread {
	struct cc_shared *sh;
	struct target **t;
	int nt;
	uint64_t rng;
	unsigned int writes;
	bool inject;		/* the reader makes FUTEX_WAKE fail at wake_get_key */
	volatile int *stop;	/* the writers of this process are done */
};

static void cc_bad(struct cc_shared *sh, const char *fmt, ...)
{
	va_list ap;

	if (__atomic_fetch_add(&sh->mismatch, 1, __ATOMIC_RELAXED) == 0) {
		va_start(ap, fmt);
		vsnprintf(sh->first_bad, sizeof(sh->first_bad), fmt, ap);
		va_end(ap);
	}
}

/* One writer: random inputs of the simple classes, each result checked */
static void *cc_writer(void *arg)
{
	static const enum class cls[] = {
		C_VALID, C_VALID, C_VALID, C_GARBAGE, C_JUNK, C_NEG, C_OVERFLOW, C_NUL,
		C_SPACE, C_PREFIX, C_EMPTY, C_HUGE,
	};
	struct cc_thread *ct = arg;
	struct cc_shared *sh = ct->sh;
	char *s = malloc(FF_HUGE + 1);
	unsigned int i;

	if (!s) {
		cc_bad(sh, "out of memory");
		return NULL;
	}
	rng_state = &ct->rng;
	for (i = 0; i < ct->writes && now() < F.deadline; i++) {
		int k = rnd_below(ct->nt);
		struct target *t = ct->t[k];
		enum class c = cls[rnd_below(ARRAY_SIZE(cls))];
		struct wr w = { .buf = s, .avail = SIZE_MAX };
		struct expect e;
		long got;
		int fd;

		if (c == C_HUGE && rnd_below(8))
			c = C_VALID;
		w.len = c == C_EMPTY ? 0 : make_input(t, c, s, c == C_HUGE ? FF_HUGE + 1 : 256);
		e = expect_write(t, &w);
		fd = open(t->path, O_WRONLY);
		if (fd < 0) {
			cc_bad(sh, "%s: open: %s", t->name, strerror(errno));
			continue;
		}
		got = do_write(fd, w.buf, w.len);
		close(fd);
		__atomic_fetch_add(&sh->tried[k], 1, __ATOMIC_RELAXED);
		if (got != e.ret) {
			char b[FF_SHOW * 4 + 32];

			cc_bad(sh, "%s: write %s returned %ld, expected %ld", t->name,
			       show(b, sizeof(b), w.buf, w.len), got, e.ret);
		}
		if (got >= 0 && e.effect) {
			unsigned int n = __atomic_fetch_add(&sh->nvals[k], 1, __ATOMIC_RELAXED);

			__atomic_fetch_add(&sh->accepted, 1, __ATOMIC_RELAXED);
			sh->vals[k][n % CC_MAX_VALS] = e.val;
		}
	}
	free(s);
	return NULL;
}

/* The reader: what the files read while they are written must be well-formed */
static void *cc_reader(void *arg)
{
	static struct ff_site rows[FF_MAX_SITES];
	struct cc_thread *ct = arg;
	struct cc_shared *sh = ct->sh;
	int word = 0, k, n;

	/* task-filter is on: only this thread fails, only at wake_get_key */
	if (ct->inject)
		write_str(FF_MAKE_IT_FAIL, "1");
	while (!*ct->stop) {
		char bad[256] = "";
		long long v;
		long r;

		if (ct->inject) {
			/*
			 * Failing FUTEX_WAKE calls, as many as we can, for the reset
			 * writers to race with: every call counts a hit and then an
			 * injection.  A reset in between may leave the injection
			 * without its hit (documented), one per injecting thread at
			 * most.
			 */
			for (k = 0; k < 256; k++)
				futex_wake(&word);
			__atomic_fetch_add(&sh->wakes, 256, __ATOMIC_RELAXED);
			if (__atomic_fetch_add(&sh->reads, 1, __ATOMIC_RELAXED) % 64)
				continue;
		}

		for (k = 0; k < ct->nt; k++) {
			struct target *t = ct->t[k];

			switch (t->kind) {
			case K_KEY:
			case K_ALL:
				/* one read(): "all" read in pieces is read_pieces()' business */
				r = read_num_once(t->path);
				if (r < 0 || (t->kind == K_KEY && r > 1) || r > F.m.nr_sites)
					cc_bad(sh, "%s reads %ld", t->name, r);
				break;
			case K_RESET:
				break;
			default:
				if (read_attr(t->attr, &v))
					cc_bad(sh, "%s: unreadable or malformed", t->name);
				break;
			}
		}
		n = read_table(rows, FF_MAX_SITES, bad, sizeof(bad));
		if (n != F.m.nr_sites)
			cc_bad(sh, "site table unreadable while written: %d %s", n, bad);
		if (!ct->inject)
			__atomic_fetch_add(&sh->reads, 1, __ATOMIC_RELAXED);
	}
	/* a thread's exit wakes its joiner with FUTEX_WAKE: must not fail */
	if (ct->inject)
		write_str(FF_MAKE_IT_FAIL, "0");
	return NULL;
}

/* One writer process: F.nthread writers and a reader */
static void cc_process(struct cc_shared *sh, struct target **t, int nt, bool inject,
		       unsigned int p)
{
	struct cc_thread ct[17];
	pthread_t th[17];
	volatile int stop = 0;
	unsigned int j;

	for (j = 0; j <= F.nthread; j++) {
		ct[j] = (struct cc_thread){
			.sh = sh, .t = t, .nt = nt, .writes = F.cc_writes, .inject = inject,
			.rng = (F.seed ^ ((uint64_t)(p + 1) << 32) ^ (j + 1)) | 1,
			.stop = &stop,
		};
		if (pthread_create(&th[j], NULL, j < F.nthread ? cc_writer : cc_reader, &ct[j])) {
			cc_bad(sh, "pthread_create failed");
			_exit(1);
		}
	}
	for (j = 0; j < F.nthread; j++)
		pthread_join(th[j], NULL);
	stop = 1;
	pthread_join(th[F.nthread], NULL);
	_exit(0);
}

/*
 * F.nproc processes of F.nthread writer threads each write to the targets
 * @t[] at once, and one reader per process reads them.  Afterwards the state
 * must be consistent and one that the accepted writes can have left.
 */
static void concurrent(struct target **t, int nt, bool inject)
{
	int site = site_index("wake_get_key"), k;
	struct model before = F.m;
	struct cc_shared *sh;
	unsigned int p, i;
	pid_t pids[16];
	bool ok = true;
	char names[256] = "";

	sh = mmap(NULL, sizeof(*sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (sh == MAP_FAILED) {
		fail(t[0], "mmap: %s", strerror(errno));
		return;
	}
	memset(sh, 0, sizeof(*sh));
	for (k = 0; k < nt; k++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 k ? ", " : "", t[k]->name);
	if (inject) {
		/* FUTEX_WAKE of a make-it-fail task fails at wake_get_key */
		write_str(FF_KEYS "/wake_get_key", "1");
		set_attr("times", "-1");
		set_attr("probability", "100");
	}

	for (p = 0; p < F.nproc; p++) {
		pids[p] = fork();
		if (pids[p] < 0) {
			fail(t[0], "fork: %s", strerror(errno));
			break;
		}
		if (!pids[p])
			cc_process(sh, t, nt, inject, p);
	}
	for (i = 0; i < p; i++) {
		int status = 0;

		if (waitpid(pids[i], &status, 0) < 0 || !WIFEXITED(status) ||
		    WEXITSTATUS(status)) {
			fail(t[0], "concurrent writer process %u: status %#x", i, status);
			ok = false;
		}
	}
	if (inject) {
		set_attr("probability", "0");
		set_attr("times", "1");
		write_str(FF_KEYS "/wake_get_key", "0");
	}
	for (k = 0; k < nt; k++)
		t[k]->tried[C_CONCUR] += sh->tried[k];
	if (sh->mismatch) {
		fail(t[0], "concurrent writers: %lu unexpected results, first: %s",
		     sh->mismatch, sh->first_bad);
		ok = false;
	}

	/* the state: consistent, and one the accepted writes can have left */
	read_model(&F.m);
	F.inject_slack = inject ? F.nproc : 0;
	if (!check_state(t[0], -1, true, false, CNT_FREE))
		ok = false;
	F.inject_slack = 0;
	for (k = 0; k < nt; k++) {
		unsigned int j, n = sh->nvals[k] < CC_MAX_VALS ? sh->nvals[k] : CC_MAX_VALS;
		struct target *x = t[k];
		long long val, old;
		bool found;

		if (x->kind == K_KEY) {
			val = F.m.site[x->site].enabled;
			old = before.site[x->site].enabled;
		} else if (x->kind >= K_UL) {
			val = F.m.attr[x->attr];
			old = before.attr[x->attr];
		} else {
			continue;
		}
		/* a key may also have been set by a write to "all" */
		found = val == old || (x->kind == K_KEY && nt > 1);
		for (j = 0; j < n && !found; j++)
			found = sh->vals[k][j] == val;
		if (!found) {
			fail(x, "after concurrent writes reads %lld, which no accepted write set",
			     val);
			ok = false;
		}
	}
	if (inject && site >= 0) {
		struct ff_site *s = &F.m.site[site];

		/*
		 * probability 100, interval 1, times -1: every hit since the last
		 * reset failed.  "The counters are statistics: a failure decided
		 * just before a reset may be counted in injected just after it":
		 * one per injecting thread (F.nproc) at most, none on one CPU.
		 */
		printf("concurrent: reset against %lu injecting FUTEX_WAKE calls: wake_get_key "
		       "hits %ld injected %ld after the last reset\n", sh->wakes, s->hits,
		       s->injected);
		if (s->injected > s->hits + (long)F.nproc)
			fail(t[0], "wake_get_key: injected %ld > hits %ld + %u: more injections "
			     "without their hit than threads injecting", s->injected, s->hits,
			     F.nproc);
		else if (s->injected > s->hits)
			note(N_RESET_RACE, t[0], "wake_get_key hits %ld injected %ld", s->hits,
			     s->injected);
		/* and quiet, one reset zeroes everything */
		write_str(FF_RESET, "1");
		read_model(&F.m);
		for (k = 0; k < F.m.nr_sites; k++) {
			if (F.m.site[k].hits || F.m.site[k].injected) {
				fail(t[0], "%s: hits %ld injected %ld after a quiet reset",
				     F.m.site[k].name, F.m.site[k].hits, F.m.site[k].injected);
				ok = false;
			}
		}
	}
	printf("concurrent: %s: %u processes x %u writers + 1 reader: %lu writes (%lu accepted), "
	       "%lu reads: %s\n", names, p, F.nthread,
	       sh->tried[0] + sh->tried[1] + sh->tried[2], sh->accepted, sh->reads,
	       ok ? "ok" : "FAIL");
	munmap(sh, sizeof(*sh));
}

/* ---------------------------------------------------------------- leaks */

struct meminfo {
	long slab_kb;
	long free_kb;
};

static int meminfo(struct meminfo *mi)
{
	char buf[8192], *p;
	ssize_t len = read_file("/proc/meminfo", buf, sizeof(buf));

	if (len < 0)
		return len;
	p = strstr(buf, "\nSlab:");
	mi->slab_kb = p ? strtol(p + 6, NULL, 10) : -1;
	p = strstr(buf, "MemFree:");
	mi->free_kb = p ? strtol(p + 8, NULL, 10) : -1;
	return 0;
}

static void drop_caches(void)
{
	sync();
	write_str("/proc/sys/vm/drop_caches", "3");
}

/* @n writes of random classes to random targets, unchecked */
static void leak_loop(unsigned int n)
{
	static char s[512];
	unsigned int i;

	for (i = 0; i < n; i++) {
		struct target *t = &F.t[rnd_below(F.nr_targets)];
		enum class c = (enum class)rnd_below(C_PREFIX + 1);
		size_t len;
		int fd;

		/* keys flip: probability stays 0, "-..." is never a valid value */
		if (t->kind >= K_UL && !strcmp(ff_attrs[t->attr].name, "probability"))
			c = C_NEG;
		len = make_input(t, c, s, sizeof(s));
		fd = open(t->path, (t->kind == K_SITES) ? O_RDONLY : O_RDWR);
		if (fd < 0)
			fd = open(t->path, O_WRONLY);
		if (fd < 0)
			continue;
		if (write(fd, s, len) < 0 && t->kind != K_RESET) {
			char r[256];

			(void)!read(fd, r, sizeof(r));
		}
		close(fd);
		t->tried[C_LEAK]++;
	}
}

static bool kmemleak_scan(char *out, size_t size)
{
	ssize_t len;

	if (access(FF_DEBUGFS "/kmemleak", F_OK))
		return false;
	write_str(FF_DEBUGFS "/kmemleak", "scan");
	write_str(FF_DEBUGFS "/kmemleak", "scan");
	len = read_file(FF_DEBUGFS "/kmemleak", out, size);
	if (len < 0)
		out[0] = '\0';
	return true;
}

static void leak_check(void)
{
	static char km[256 * 1024];
	struct meminfo m0, m1, m2;
	long slab1, slab2, free1, free2;
	bool have_km;
	double t0 = now();
	unsigned int n = F.leak_loops;

	if (!n)
		return;
	have_km = !access(FF_DEBUGFS "/kmemleak", F_OK);
	if (have_km)
		write_str(FF_DEBUGFS "/kmemleak", "clear");

	leak_loop(n / 4 + 1);		/* warm-up */
	quiet_policy();
	all_keys(false);
	drop_caches();
	meminfo(&m0);
	leak_loop(n);
	quiet_policy();
	all_keys(false);
	drop_caches();
	meminfo(&m1);
	leak_loop(n);
	quiet_policy();
	all_keys(false);
	drop_caches();
	meminfo(&m2);

	slab1 = m1.slab_kb - m0.slab_kb;
	slab2 = m2.slab_kb - m1.slab_kb;
	free1 = m0.free_kb - m1.free_kb;
	free2 = m1.free_kb - m2.free_kb;
	printf("leak: 2 x %u writes in %.1f s: Slab %ld -> %ld -> %ld kB (%+ld, %+ld), "
	       "MemFree %ld -> %ld -> %ld kB (%+ld, %+ld)\n", n, now() - t0, m0.slab_kb,
	       m1.slab_kb, m2.slab_kb, slab1, slab2, m0.free_kb, m1.free_kb, m2.free_kb,
	       -free1, -free2);
	/* a leak grows with every pass; allocator noise does not */
	if (slab1 > 256 && slab2 > 256)
		fail(NULL, "Slab grew by %ld and %ld kB over two passes of %u writes",
		     slab1, slab2, n);
	if (free1 > 2048 && free2 > 2048)
		fail(NULL, "MemFree fell by %ld and %ld kB over two passes of %u writes",
		     free1, free2, n);

	if (have_km && kmemleak_scan(km, sizeof(km))) {
		unsigned int objs = 0;
		char *p = km;

		while ((p = strstr(p, "unreferenced object"))) {
			objs++;
			p++;
		}
		printf("kmemleak: %u unreferenced objects\n", objs);
		if (objs)
			fail(NULL, "kmemleak reports %u unreferenced objects:\n%.4000s", objs, km);
	} else {
		printf("kmemleak: not in this kernel\n");
	}
}

/* ------------------------------------------------------------ targets */

static void add_target(const char *name, const char *path, enum kind kind, int site, int attr)
{
	struct target *t = &F.t[F.nr_targets++];

	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s", name);
	snprintf(t->path, sizeof(t->path), "%s", path);
	t->kind = kind;
	t->site = site;
	t->attr = attr;
}

static int find_targets(void)
{
	char path[PATH_MAX], name[FF_NAME_LEN + 32];
	struct dirent *de;
	int i, nkeys = 0;
	DIR *d;

	F.t = calloc(FF_MAX_SITES + 16 + ARRAY_SIZE(ff_attrs), sizeof(*F.t));
	if (!F.t)
		return -1;
	d = opendir(FF_KEYS);
	if (!d) {
		fprintf(stderr, "debugfs-fuzz: %s: %s\n", FF_KEYS, strerror(errno));
		return -1;
	}
	/* every key file is a site of the table, and "all" */
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		if (strlen(de->d_name) >= FF_NAME_LEN) {
			fail(NULL, "key file name too long: %s", de->d_name);
			continue;
		}
		snprintf(name, sizeof(name), "static_keys/futex_fault/%.*s", FF_NAME_LEN,
			 de->d_name);
		snprintf(path, sizeof(path), FF_KEYS "/%s", de->d_name);
		if (!strcmp(de->d_name, "all")) {
			add_target(name, path, K_ALL, -1, -1);
			continue;
		}
		i = site_index(de->d_name);
		if (i < 0) {
			fail(NULL, "key file %s has no row in the site table", de->d_name);
			continue;
		}
		add_target(name, path, K_KEY, i, -1);
		nkeys++;
	}
	closedir(d);
	if (nkeys != F.m.nr_sites)
		fail(NULL, "%d key files for %d sites in the table", nkeys, F.m.nr_sites);
	add_target("fail_futex/sites", FF_SITES, K_SITES, -1, -1);
	add_target("fail_futex/reset", FF_RESET, K_RESET, -1, -1);
	for (i = 0; i < (int)ARRAY_SIZE(ff_attrs); i++) {
		if (!F.m.have_attr[i])
			continue;
		snprintf(name, sizeof(name), "fail_futex/%s", ff_attrs[i].name);
		attr_path(path, sizeof(path), ff_attrs[i].name);
		add_target(name, path, ff_attrs[i].kind, -1, i);
	}
	return 0;
}

static struct target *target_by_name(const char *name)
{
	int i;

	for (i = 0; i < F.nr_targets; i++) {
		if (!strcmp(F.t[i].name, name))
			return &F.t[i];
	}
	return NULL;
}

/* ------------------------------------------------------------ restore */

static void restore(void)
{
	unsigned int i;
	char val[32];
	int k;

	/* policy first, keys last: nothing fires in between */
	set_attr("probability", "0");
	for (i = 0; i < ARRAY_SIZE(ff_attrs); i++) {
		if (!F.saved.have_attr[i] || !strcmp(ff_attrs[i].name, "probability"))
			continue;
		if (ff_attrs[i].kind == K_BOOL)
			snprintf(val, sizeof(val), "%s", F.saved.attr[i] ? "Y" : "N");
		else
			snprintf(val, sizeof(val), "%lld", F.saved.attr[i]);
		set_attr(ff_attrs[i].name, val);
	}
	for (k = 0; k < F.saved.nr_sites; k++) {
		char path[PATH_MAX];

		key_path(path, sizeof(path), F.saved.site[k].name);
		write_str(path, F.saved.site[k].enabled ? "1" : "0");
	}
	for (i = 0; i < ARRAY_SIZE(ff_attrs); i++) {
		if (F.saved.have_attr[i] && !strcmp(ff_attrs[i].name, "probability")) {
			snprintf(val, sizeof(val), "%lld", F.saved.attr[i]);
			set_attr("probability", val);
		}
	}
}

/* ------------------------------------------------------------- report */

static void report(double secs)
{
	unsigned long tot[NR_CLASSES] = { 0 }, all = 0;
	int i, c;

	printf("\n%-45s", "inputs tried per file and class:");
	for (c = 0; c < NR_CLASSES; c++)
		printf(" %7s", class_name[c]);
	printf(" %8s %8s\n", "total", "accepted");
	for (i = 0; i < F.nr_targets; i++) {
		struct target *t = &F.t[i];
		unsigned long sum = 0;

		printf("%-45s", t->name);
		for (c = 0; c < NR_CLASSES; c++) {
			printf(" %7lu", t->tried[c]);
			sum += t->tried[c];
			tot[c] += t->tried[c];
		}
		printf(" %8lu %8lu%s\n", sum, t->accepted, t->failed ? "  FAIL" : "");
		all += sum;
	}
	printf("%-45s", "total");
	for (c = 0; c < NR_CLASSES; c++)
		printf(" %7lu", tot[c]);
	printf(" %8lu\n", all);
	printf("\n%d files, %lu inputs in %.1f s%s\n", F.nr_targets, all, secs,
	       F.timed_out ? " (time limit reached)" : "");
	printf("pieces: %lu reads of all across a switch of every key (two read()s, two "
	       "pread()s, read() + pread(0) + read(), a rewind)\n", F.pieces);

	for (i = 0; i < NR_NOTES; i++) {
		struct note_rec *r = &F.notes[i];
		int k;

		if (!r->n)
			continue;
		if (note_desc[i].whose)
			printf("note (%s): %s: %lu times\n", note_desc[i].whose, note_desc[i].what,
			       r->n);
		else
			printf("note: %s: %lu times\n", note_desc[i].what, r->n);
		for (k = 0; k < r->nex; k++)
			printf("    e.g. %s\n", r->ex[k]);
		if (F.strict && !note_desc[i].whose)
			fail(NULL, "strict: %s", note_desc[i].what);
	}
}

static void usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [-s SEED] [-n INPUTS] [-t SECONDS] [-l WRITES] [-p PROCS] [-w THREADS] [-c WRITES]\n"
		"       [-S] [-v]\n"
		"  -s SEED     random seed (default: from the clock; printed)\n"
		"  -n INPUTS   inputs per file and concurrent writes per writer (default 160)\n"
		"  -t SECONDS  time limit for the whole run (default 300)\n"
		"  -l WRITES   writes per half of the leak loop, 0 to skip (default 20000)\n"
		"  -p PROCS    concurrent writer processes (default 3)\n"
		"  -w THREADS  writer threads per process (default 3)\n"
		"  -c WRITES   writes per concurrent writer (default: INPUTS)\n"
		"  -S          strict: what our files do beyond their documentation and only\n"
		"              notes fails (their input grammar is the model: it fails anyway)\n"
		"  -v          verbose\n", prog);
	exit(2);
}

int main(int argc, char **argv)
{
	struct target *cc[3];
	double t0 = now();
	int opt, i;

	F.seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 16);
	F.per_file = 160;
	F.leak_loops = 20000;
	F.nproc = 3;
	F.nthread = 3;
	F.cc_writes = 0;
	F.deadline = 300;
	while ((opt = getopt(argc, argv, "s:n:t:l:p:w:c:Sv")) != -1) {
		switch (opt) {
		case 's':
			F.seed = strtoull(optarg, NULL, 0);
			break;
		case 'n':
			F.per_file = atoi(optarg);
			break;
		case 't':
			F.deadline = atof(optarg);
			break;
		case 'l':
			F.leak_loops = atoi(optarg);
			break;
		case 'p':
			F.nproc = atoi(optarg);
			break;
		case 'w':
			F.nthread = atoi(optarg);
			break;
		case 'c':
			F.cc_writes = atoi(optarg);
			break;
		case 'S':
			F.strict = true;
			break;
		case 'v':
			F.verbose = true;
			break;
		default:
			usage(argv[0]);
		}
	}
	if (optind != argc || F.nthread < 1 || F.nthread > 16 || F.nproc < 1 || F.nproc > 16)
		usage(argv[0]);
	if (!F.cc_writes)
		F.cc_writes = F.per_file;
	F.deadline += t0;
	F.rng = F.seed ? F.seed : 1;
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("debugfs-fuzz: seed %llu (-s %llu repeats the inputs), %u inputs per file, "
	       "time limit %.0f s\n", (unsigned long long)F.seed, (unsigned long long)F.seed,
	       F.per_file, F.deadline - t0);

	if (geteuid()) {
		fprintf(stderr, "debugfs-fuzz: needs root\n");
		return 2;
	}
	if (access(FF_KEYS, F_OK) || access(FF_SITES, F_OK)) {
		fprintf(stderr, "debugfs-fuzz: no %s or %s: kernel without CONFIG_FAIL_FUTEX "
			"fault sites, or debugfs not mounted\n", FF_KEYS, FF_SITES);
		return 2;
	}
	F.page = sysconf(_SC_PAGESIZE);
	F.huge = malloc(FF_HUGE + 1);
	F.guard = mmap(NULL, 2 * F.page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		       -1, 0);
	if (!F.huge || F.guard == MAP_FAILED || mprotect(F.guard + F.page, F.page, PROT_NONE)) {
		perror("debugfs-fuzz: memory");
		return 2;
	}
	if (read_model(&F.m))
		return 2;
	F.saved = F.m;
	if (find_targets())
		return 2;

	/* Keys first, with nothing to inject; then the table, reset, attributes */
	quiet_policy();
	for (i = 0; i < F.nr_targets && !out_of_time(); i++) {
		struct target *t = &F.t[i];

		if (t->kind >= K_UL) {
			/* attributes: every key off, so no value of theirs can inject */
			all_keys(false);
		}
		fuzz_target(t);
		if (t->kind >= K_UL) {
			quiet_policy();
			check_state(t, -1, false, true, CNT_FIXED);
		}
	}
	quiet_policy();
	all_keys(false);
	read_model(&F.m);

	/* Concurrent writers: reset against injections, attributes, key files with "all" */
	if (!out_of_time()) {
		cc[0] = target_by_name("fail_futex/reset");
		if (cc[0])
			concurrent(cc, 1, true);
		quiet_policy();
		read_model(&F.m);
	}
	if (!out_of_time()) {
		cc[0] = target_by_name("fail_futex/times");
		cc[1] = target_by_name("fail_futex/ignore-private");
		cc[2] = target_by_name("fail_futex/verbose_ratelimit_burst");
		if (cc[0] && cc[1] && cc[2])
			concurrent(cc, 3, false);
		quiet_policy();
		read_model(&F.m);
	}
	if (!out_of_time()) {
		int a = F.m.nr_sites > 1 ? F.m.nr_sites - 1 : 0;
		char n0[FF_NAME_LEN + 32], n1[FF_NAME_LEN + 32];

		snprintf(n0, sizeof(n0), "static_keys/futex_fault/%s", F.m.site[0].name);
		snprintf(n1, sizeof(n1), "static_keys/futex_fault/%s", F.m.site[a].name);
		cc[0] = target_by_name(n0);
		cc[1] = target_by_name(n1);
		cc[2] = target_by_name("static_keys/futex_fault/all");
		if (cc[0] && cc[1] && cc[2])
			concurrent(cc, 3, false);
		all_keys(false);
		quiet_policy();
	}
	if (!out_of_time())
		leak_check();

	restore();
	read_model(&F.m);
	for (i = 0; i < F.m.nr_sites; i++) {
		if (F.m.site[i].enabled != F.saved.site[i].enabled)
			fail(NULL, "%s not restored", F.m.site[i].name);
	}
	report(now() - t0);
	printf("debugfs-fuzz: seed %llu: %s (%lu failures)\n", (unsigned long long)F.seed,
	       F.failures ? "FAIL" : "PASS", F.failures);
	return F.failures ? 1 : 0;
}
