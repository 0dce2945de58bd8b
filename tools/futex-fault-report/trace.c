// SPDX-License-Identifier: GPL-2.0
/*
 * Read a run's trace.dat with libtracecmd and feed the outcome engine.
 *
 * The per-record path does no lookup by name: event ids and field
 * offsets are resolved once per file, and the site enum value is mapped to
 * the report's site index through a table built from the event's own
 * print fmt.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <fcntl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "ffr.h"
#include "fmtsym.h"
#include "util.h"

/* x86_64 exit and exit_group: after them a task never returns to user space */
static const long exit_nrs[] = { 60, 231, -1 };

struct field {
	int	offset;
	int	size;
	bool	is_signed;
};

struct tctx {
	struct report		*r;
	struct tep_handle	*tep;
	const char		*path;
	int			run;
	int			id_inject, id_enter, id_exit, id_pexit;
	struct field		f_site, f_err, f_op, f_caller, f_enter_id, f_exit_id, f_ret;
	struct field		f_pexit_pid;
	struct tep_format_field	*f_name;	/* __string(name), newer kernels */
	int			*site_map;	/* site enum value -> report site index */
	size_t			nsite_map;
	struct oc_engine	*oc;
	struct kv		**pids;		/* [site]: pid -> injections */
	size_t			*npids, *cappids;
	unsigned long long	records, injects, lost;
	int			bad_site;	/* first unknown enum value seen, or -1 */
	char			*bad_name;	/* its name, if the event carries one */
	bool			bench;
};

static int get_field(struct tctx *t, struct tep_event *ev, const char *name, struct field *f)
{
	struct tep_format_field *ff = tep_find_field(ev, name);

	if (!ff)
		return ffr_error(t->path, "event %s:%s has no field '%s'", ev->system, ev->name,
				 name);
	f->offset = ff->offset;
	f->size = ff->size;
	f->is_signed = ff->flags & TEP_FIELD_IS_SIGNED;
	return 0;
}

/* tep_read_number() returns the raw bits: sign-extend signed fields */
static inline long long read_field(struct tctx *t, struct tep_record *rec, const struct field *f)
{
	unsigned long long v = tep_read_number(t->tep, (char *)rec->data + f->offset, f->size);

	if (f->is_signed && f->size < 8) {
		int shift = 64 - 8 * f->size;

		return (long long)(v << shift) >> shift;
	}
	return (long long)v;
}

#define SITE_UNRESOLVED	(-2)

/* the event's own name string (__data_loc char[] name) */
static const char *record_name(struct tctx *t, struct tep_record *rec)
{
	struct tep_format_field *f = t->f_name;
	unsigned int loc, off, len;

	loc = tep_read_number(t->tep, (char *)rec->data + f->offset, 4);
	off = loc & 0xffff;
	len = loc >> 16;
	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += f->offset + f->size;
	if (!len || off + len > (unsigned int)rec->size)
		return NULL;
	return (const char *)rec->data + off;
}

/*
 * A site value the print fmt does not name: resolve it once from the
 * record's name string, then it takes the fast path like the others.
 */
static int resolve_site(struct tctx *t, struct tep_record *rec, unsigned long long v)
{
	const char *name = t->f_name ? record_name(t, rec) : NULL;
	struct site *s;
	size_t old = t->nsite_map, i;

	if (!name || v > 65535)
		return -1;
	if (v >= t->nsite_map) {
		grow(&t->site_map, &t->nsite_map, v + 1, sizeof(*t->site_map));
		for (i = old; i < t->nsite_map; i++)
			t->site_map[i] = SITE_UNRESOLVED;
	}
	if (t->bench) {
		t->site_map[v] = 0;
		return 0;
	}
	s = site_find(t->r, name);
	if (!s) {
		free(t->bad_name);
		t->bad_name = xstrdup(name);
		return -1;
	}
	t->site_map[v] = s - t->r->sites;
	return t->site_map[v];
}

static void outcome_cb(void *ctx, const struct oc_inject *inj, enum oc_outcome oc, long ret)
{
	struct tctx *t = ctx;
	struct site *s;

	if (t->bench)
		return;
	s = &t->r->sites[inj->site];
	s->oc[oc]++;
	if (oc == OC_ERROR)
		site_count(&s->errors, &s->nerrors, &s->caperrors, -ret, 1);
}

static int record_cb(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct tctx *t = data;
	int type = tep_data_type(t->tep, rec);
	int pid;

	(void)h;
	(void)cpu;
	t->records++;
	if (rec->missed_events) {
		t->lost += rec->missed_events > 0 ? rec->missed_events : 1;
		oc_lost(t->oc);
	}
	if (type == t->id_enter) {
		oc_sys_enter(t->oc, tep_data_pid(t->tep, rec), read_field(t, rec, &t->f_enter_id));
	} else if (type == t->id_exit) {
		oc_sys_exit(t->oc, tep_data_pid(t->tep, rec), read_field(t, rec, &t->f_exit_id),
			    read_field(t, rec, &t->f_ret));
	} else if (type == t->id_inject) {
		unsigned long long v = read_field(t, rec, &t->f_site);
		struct oc_inject inj;
		struct site *s;
		int idx;

		t->injects++;
		pid = tep_data_pid(t->tep, rec);
		idx = v < t->nsite_map ? t->site_map[v] : SITE_UNRESOLVED;
		if (idx == SITE_UNRESOLVED)
			idx = resolve_site(t, rec, v);
		if (idx < 0) {
			if (t->bad_site < 0)
				t->bad_site = v;
			return -1;
		}
		inj.site = idx;
		inj.err = read_field(t, rec, &t->f_err);
		inj.op = read_field(t, rec, &t->f_op);
		inj.pid = pid;
		if (!t->bench) {
			s = &t->r->sites[idx];
			s->fired++;
			site_count(&s->ops, &s->nops, &s->capops, inj.op, 1);
			site_count(&t->pids[idx], &t->npids[idx], &t->cappids[idx], pid, 1);
			if (!s->caller)
				s->caller = read_field(t, rec, &t->f_caller);
		}
		oc_inject(t->oc, &inj);
	} else if (type == t->id_pexit) {
		oc_task_exit(t->oc, read_field(t, rec, &t->f_pexit_pid));
	}
	return 0;
}

static int event_id(struct tctx *t, const char *sys, const char *name, bool required)
{
	struct tep_event *ev = tep_find_event_by_name(t->tep, sys, name);

	if (!ev) {
		if (required)
			ffr_error(t->path, "no %s:%s event in this trace (recorded without -e %s?)",
				  sys, name, sys);
		return -1;
	}
	return ev->id;
}

/* site enum value -> report site index, from the event's print fmt */
static int map_sites(struct tctx *t, struct tep_event *ev)
{
	struct symtab tab;
	unsigned int v;

	t->f_name = tep_find_field(ev, "name");
	if (t->f_name && !(t->f_name->flags & TEP_FIELD_IS_DYNAMIC))
		t->f_name = NULL;
	if (symtab_from_event(ev, "site", &tab)) {
		if (t->f_name)
			return 0;	/* names come with each record */
		return ffr_error(t->path,
				 "futex_fault_inject names its sites neither in its print fmt (__print_symbolic) nor in a 'name' field");
	}
	t->nsite_map = tab.n;
	t->site_map = xcalloc(tab.n, sizeof(*t->site_map));
	for (v = 0; v < tab.n; v++) {
		struct site *s;

		t->site_map[v] = SITE_UNRESOLVED;
		if (!tab.name[v])
			continue;
		if (t->bench) {
			t->site_map[v] = 0;
			continue;
		}
		s = site_find(t->r, tab.name[v]);
		if (!s) {
			symtab_free(&tab);
			return ffr_error(t->path,
					 "the trace names site '%s' (value %u), which is not in the baseline's sites.txt: trace and site table from different kernels?",
					 tab.name[v], v);
		}
		t->site_map[v] = s - t->r->sites;
	}
	symtab_free(&tab);
	return 0;
}

static int setup(struct tctx *t, struct tracecmd_input *h)
{
	struct tep_event *ev;

	t->tep = tracecmd_get_tep(h);
	t->bad_site = -1;
	t->id_inject = event_id(t, "futex_fault", "futex_fault_inject", true);
	if (t->id_inject < 0)
		return -1;
	t->id_enter = event_id(t, "raw_syscalls", "sys_enter", true);
	t->id_exit = event_id(t, "raw_syscalls", "sys_exit", true);
	if (t->id_enter < 0 || t->id_exit < 0)
		return -1;
	t->id_pexit = event_id(t, "sched", "sched_process_exit", false);

	ev = tep_find_event(t->tep, t->id_inject);
	if (get_field(t, ev, "site", &t->f_site) || get_field(t, ev, "err", &t->f_err) ||
	    get_field(t, ev, "op", &t->f_op) || get_field(t, ev, "caller", &t->f_caller))
		return -1;
	if (map_sites(t, ev))
		return -1;
	if (get_field(t, tep_find_event(t->tep, t->id_enter), "id", &t->f_enter_id) ||
	    get_field(t, tep_find_event(t->tep, t->id_exit), "id", &t->f_exit_id) ||
	    get_field(t, tep_find_event(t->tep, t->id_exit), "ret", &t->f_ret))
		return -1;
	if (t->id_pexit >= 0 &&
	    get_field(t, tep_find_event(t->tep, t->id_pexit), "pid", &t->f_pexit_pid))
		return -1;
	return 0;
}

/*
 * Is this a compressed (version 7) trace?  Peeks at the header laid out in
 * trace-cmd.dat.v7(5): magic, "tracing", version string, endianness, long
 * size, page size, then the compression algorithm's name.
 */
static bool compressed(const char *path)
{
	unsigned char buf[64];
	size_t n, off;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (n < 20 || memcmp(buf, "\027\010\104tracing", 10))
		return false;
	off = 10;
	if (strcmp((char *)buf + off, "7"))
		return false;
	off += 2 + 1 + 1 + 4;
	return off < n && buf[off] && strcmp((char *)buf + off, "none");
}

/*
 * libtracecmd 1.3 reads compressed traces page by page at about 1.5 M
 * records/s; "trace-cmd convert" decompresses the whole file ten times
 * faster.  So a compressed trace is first converted to an uncompressed
 * copy in the scratch directory, when trace-cmd is there.
 */
static char *decompress(const char *path, const char *tmpdir)
{
	static unsigned int seq;
	char *out;
	pid_t pid;
	int status;

	if (!tmpdir || !compressed(path))
		return NULL;
	out = xasprintf("%s/trace-%u.dat", tmpdir, seq++);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execlp("trace-cmd", "trace-cmd", "convert", "--compression", "none", "-i", path,
		       "-o", out, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		unlink(out);
		free(out);
		return NULL;
	}
	return out;
}

static struct tracecmd_input *open_trace(const char *path, const char *tmpdir, char **copy)
{
	struct tracecmd_input *h;
	struct stat st;

	if (stat(path, &st)) {
		ffr_error(path, "%s", strerror(errno));
		return NULL;
	}
	if (!S_ISREG(st.st_mode) || !st.st_size) {
		ffr_error(path, "empty or not a regular file");
		return NULL;
	}
	*copy = decompress(path, tmpdir);
	h = tracecmd_open(*copy ? *copy : path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h)
		ffr_error(path, "not a readable trace-cmd trace (truncated or corrupt?)");
	return h;
}

/*
 * A truncated file may open and read without complaint; check that the
 * last record read ended inside the file.
 */
static int run_iterate(struct tctx *t, struct tracecmd_input *h)
{
	if (tracecmd_iterate_events(h, NULL, 0, record_cb, t) < 0 && t->bad_site < 0)
		return ffr_error(t->path, "error while reading the records (truncated or corrupt?)");
	if (t->bad_site >= 0 && t->bad_name)
		return ffr_error(t->path, "futex_fault_inject names site '%s' (value %d), which is not in the baseline's sites.txt: trace and site table from different kernels?",
				 t->bad_name, t->bad_site);
	if (t->bad_site >= 0)
		return ffr_error(t->path, "futex_fault_inject with site value %d, which the event does not name",
				 t->bad_site);
	return 0;
}

int trace_read(struct report *r, int run, const char *path)
{
	struct tctx t = { .r = r, .path = path, .run = run };
	struct tracecmd_input *h;
	char *copy = NULL;
	size_t i, k;
	int ret = -1;

	h = open_trace(path, r->tmpdir, &copy);
	if (!h)
		goto out_copy;
	t.pids = xcalloc(r->nsites, sizeof(*t.pids));
	t.npids = xcalloc(r->nsites, sizeof(*t.npids));
	t.cappids = xcalloc(r->nsites, sizeof(*t.cappids));
	if (setup(&t, h))
		goto out;
	t.oc = oc_new(exit_nrs, outcome_cb, &t);
	ret = run_iterate(&t, h);
	oc_finish(t.oc);
	if (ret)
		goto out;

	/* who faulted: pid -> comm, while the trace's cmdlines are at hand */
	for (i = 0; i < r->nsites; i++) {
		struct site *s = &r->sites[i];

		for (k = 0; k < t.npids[i]; k++) {
			const char *comm = tep_data_comm_from_pid(t.tep, t.pids[i][k].key);

			grow(&s->tasks, &s->captasks, s->ntasks + 1, sizeof(*s->tasks));
			s->tasks[s->ntasks].comm = xstrdup(comm ? comm : "<...>");
			s->tasks[s->ntasks].pid = t.pids[i][k].key;
			s->tasks[s->ntasks].count = t.pids[i][k].count;
			s->ntasks++;
		}
		if (s->caller && !s->caller_sym) {
			const char *fn = tep_find_function(t.tep, s->caller);

			if (fn)
				s->caller_sym = xasprintf("%s+0x%llx", fn,
					s->caller - tep_find_function_address(t.tep, s->caller));
		}
	}
	r->runs[run].injects += t.injects;
	r->runs[run].records += t.records;
	r->runs[run].lost += t.lost;
	r->events += t.records;
out:
	for (i = 0; i < r->nsites; i++)
		free(t.pids[i]);
	free(t.pids);
	free(t.npids);
	free(t.cappids);
	free(t.site_map);
	free(t.bad_name);
	tracecmd_close(h);
out_copy:
	if (copy)
		unlink(copy);
	free(copy);
	return ret;
}

/* parse one trace, outcomes included, without a report: for measuring */
double trace_bench(const char *path, unsigned long long *events, unsigned long long *injects)
{
	struct report r = { 0 };
	struct tctx t = { .r = &r, .path = path, .bench = true };
	struct tracecmd_input *h;
	struct timespec a, b;
	char tmpl[] = "/tmp/futex-fault-report.XXXXXX", *tmpdir, *copy = NULL;
	int ret = -1;

	clock_gettime(CLOCK_MONOTONIC, &a);
	tmpdir = mkdtemp(tmpl);
	h = open_trace(path, tmpdir, &copy);
	if (!h)
		goto out;
	if (setup(&t, h)) {
		tracecmd_close(h);
		goto out;
	}
	t.oc = oc_new(exit_nrs, outcome_cb, &t);
	ret = run_iterate(&t, h);
	oc_finish(t.oc);
	free(t.site_map);
	free(t.bad_name);
	tracecmd_close(h);
	clock_gettime(CLOCK_MONOTONIC, &b);
out:
	if (copy)
		unlink(copy);
	free(copy);
	if (tmpdir)
		rmdir(tmpdir);
	if (ret)
		return -1;
	*events = t.records;
	*injects = t.injects;
	return (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
}
