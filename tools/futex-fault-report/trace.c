// SPDX-License-Identifier: GPL-2.0
/*
 * Read the runs' traces and feed the outcome engine.
 *
 * Traces are read by -j worker processes (run_procs()), one trace per
 * process at a time, or by this process alone with -j 1.  What a trace adds
 * to the report is kept in its struct trace_job and merged into the report
 * in the order a single reader reads them (runs in order, a run's traces by
 * name), so the report does not depend on the number of workers or on
 * which finished first.
 *
 * Every trace is read by libtracecmd, a compressed one in segments, each by
 * a handle of its own (read_records()).  Command names and callers'
 * symbols come from the trace's own saved command lines and kallsyms,
 * through the trace's tep handle.
 *
 * The per-record path does no lookup by name: event ids and field offsets
 * are resolved once per trace, a record of another event costs one
 * comparison, and the site enum value is mapped to the report's site index
 * through a table built from the event's own print fmt.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <trace-cmd.h>

#include "report.h"
#include "print_symbolic.h"
#include "util.h"

/* PID_MAX_LIMIT on 64-bit: a larger pid is a corrupt record */
#define PID_LIMIT	(4 * 1024 * 1024)

/* x86_64 exit and exit_group: after them a task never returns to user space */
static const long exit_nrs[] = { 60, 231, -1 };
/*
 * futex (x86_64 and i386) and futex_time64 (i386): their args[1] is the
 * futex op, for events that do not record it themselves
 */
static bool is_futex_nr(long long nr)
{
	return nr == 202 || nr == 240 || nr == 422;
}

struct field {
	unsigned int	offset;
	unsigned int	size;
	bool		is_signed;
};

/* one site's share of one trace */
struct psite {
	unsigned long long	fired;
	unsigned long long	oc[OC_NR];
	struct kv		*errors;	/* errno returned to user space -> count */
	size_t			nerrors, caperrors;
	struct kv		*ops;		/* futex op -> count */
	size_t			nops, capops;
	struct kv		*pids;		/* pid -> injections */
	size_t			npids, cappids;
	struct task_count	*tasks;		/* the pids with their comm */
	unsigned long long	caller;		/* first caller address seen */
	char			*caller_sym;
};

/* one trace to read: a run's trace*.dat, or an error found listing them */
struct trace_job {
	int			run;
	char			*path;
	off_t			size;		/* biggest files are read first */
	bool			listed;		/* a real trace, not a listing error */
	int			ret;
	struct strbuf		msg;		/* its errors, printed when merged */
	struct psite		*sites;		/* [report.nsites] */
	unsigned long long	records, injects, lost;
};

/* reading one trace */
struct tctx {
	struct report		*r;
	struct tep_handle	*tep;
	const char		*path;
	bool			swap;		/* the file's byte order is not ours */
	int			id_inject, id_enter, id_exit, id_pexit;
	struct field		f_type, f_pid;
	struct field		f_site, f_err, f_op, f_caller, f_enter_id, f_exit_id, f_ret;
	struct field		f_pexit_pid;
	struct field		f_enter_op;	/* sys_enter's args[1] */
	bool			has_op;		/* the inject event records the op */
	/* the record sizes the fields read need */
	unsigned int		need_common, need_inject, need_enter, need_exit, need_pexit;
	struct field		f_name;		/* __string(name), newer kernels */
	bool			has_name;
	bool			name_relative;	/* __rel_loc */
	int			*site_map;	/* site enum value -> report site index */
	size_t			nsite_map;
	struct oc_engine	*oc;
	struct psite		*ps;		/* [report.nsites], NULL for --parse */
	unsigned long long	records, injects, lost;
	int			bad_site;	/* first unknown enum value seen, or -1 */
	char			*bad_name;	/* its name, if the event carries one */
	bool			short_record;	/* a record smaller than its format */
	long long		bad_pid;	/* a pid out of range, 0 if none */
};

static int get_field(struct tctx *t, struct tep_event *ev, const char *name, struct field *f,
		     unsigned int *need)
{
	struct tep_format_field *ff = tep_find_any_field(ev, name);

	if (!ff)
		return ffr_error(t->path, "event %s:%s has no field '%s'", ev->system, ev->name,
				 name);
	if (ff->offset < 0 || ff->size <= 0 || ff->size > 8)
		return ffr_error(t->path, "event %s:%s: field '%s' is not a number", ev->system,
				 ev->name, name);
	f->offset = ff->offset;
	f->size = ff->size;
	f->is_signed = ff->flags & TEP_FIELD_IS_SIGNED;
	if (*need < f->offset + f->size)
		*need = f->offset + f->size;
	return 0;
}

static inline unsigned long long read_raw(const struct tctx *t, const unsigned char *p,
					  unsigned int size)
{
	if (!t->swap) {
		uint16_t v16;
		uint32_t v32;
		uint64_t v64;

		switch (size) {
		case 1:
			return *p;
		case 2:
			memcpy(&v16, p, 2);
			return v16;
		case 4:
			memcpy(&v32, p, 4);
			return v32;
		case 8:
			memcpy(&v64, p, 8);
			return v64;
		}
	}
	return tep_read_number(t->tep, p, size);
}

/* the raw bits, sign-extended for signed fields */
static inline long long read_field(const struct tctx *t, const unsigned char *data,
				   const struct field *f)
{
	unsigned long long v = read_raw(t, data + f->offset, f->size);

	if (f->is_signed && f->size < 8) {
		int shift = 64 - 8 * f->size;

		return (long long)(v << shift) >> shift;
	}
	return (long long)v;
}

#define SITE_UNRESOLVED	(-2)

/* the event's own name string (__data_loc char[] name) */
static const char *record_name(struct tctx *t, const unsigned char *data, unsigned int size)
{
	const struct field *f = &t->f_name;
	unsigned int loc, off, len;

	if (f->offset + 4 > size)
		return NULL;
	loc = read_raw(t, data + f->offset, 4);
	off = loc & 0xffff;
	len = loc >> 16;
	if (t->name_relative)
		off += f->offset + f->size;
	if (!len || off + len > size || memchr(data + off, '\0', len) == NULL)
		return NULL;
	return (const char *)data + off;
}

/*
 * A site value the print fmt does not name: resolve it once from the
 * record's name string, then it takes the fast path like the others.
 */
static int resolve_site(struct tctx *t, const unsigned char *data, unsigned int size,
			unsigned long long v)
{
	const char *name = t->has_name ? record_name(t, data, size) : NULL;
	struct site *s;
	size_t old = t->nsite_map, i;

	if (!name || v > 65535)
		return -1;
	if (v >= t->nsite_map) {
		grow(&t->site_map, &t->nsite_map, v + 1, sizeof(*t->site_map));
		for (i = old; i < t->nsite_map; i++)
			t->site_map[i] = SITE_UNRESOLVED;
	}
	if (!t->ps) {
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
	struct psite *ps;

	if (!t->ps)
		return;
	ps = &t->ps[inj->site];
	ps->oc[oc]++;
	/* a corrupt trace's LONG_MIN has no positive */
	if (oc == OC_ERROR)
		site_count(&ps->errors, &ps->nerrors, &ps->caperrors,
			   ret == LONG_MIN ? LONG_MAX : -ret, 1);
}

static int short_record(struct tctx *t)
{
	t->short_record = true;
	return -1;
}

static int bad_pid(struct tctx *t, long long pid)
{
	if (!t->bad_pid)
		t->bad_pid = pid;
	return -1;
}

static int inject(struct tctx *t, const unsigned char *data, unsigned int size)
{
	unsigned long long v;
	struct oc_inject inj;
	struct psite *ps;
	long long pid;
	int idx;

	if (size < t->need_inject)
		return short_record(t);
	v = read_field(t, data, &t->f_site);
	t->injects++;
	pid = read_field(t, data, &t->f_pid);
	idx = v < t->nsite_map ? t->site_map[v] : SITE_UNRESOLVED;
	if (idx == SITE_UNRESOLVED)
		idx = resolve_site(t, data, size, v);
	if (idx < 0) {
		if (t->bad_site < 0)
			t->bad_site = v;
		return -1;
	}
	if (pid < 0 || pid >= PID_LIMIT)
		return bad_pid(t, pid);
	inj.site = idx;
	inj.err = read_field(t, data, &t->f_err);
	inj.op = t->has_op ? read_field(t, data, &t->f_op) : oc_task_op(t->oc, pid);
	inj.pid = pid;
	if (t->ps) {
		ps = &t->ps[idx];
		ps->fired++;
		site_count(&ps->ops, &ps->nops, &ps->capops, inj.op, 1);
		site_count(&ps->pids, &ps->npids, &ps->cappids, pid, 1);
		if (!ps->caller)
			ps->caller = read_field(t, data, &t->f_caller);
	}
	oc_inject(t->oc, &inj);
	return 0;
}

/* one record: mostly system call entries and exits, checked in that order */
static int handle_record(struct tctx *t, const unsigned char *data, unsigned int size,
			 long long missed)
{
	long long pid, nr;
	int type;

	t->records++;
	if (missed) {
		t->lost += missed > 0 ? missed : 1;
		oc_lost(t->oc);
	}
	if (size < t->need_common)
		return short_record(t);
	type = read_raw(t, data + t->f_type.offset, t->f_type.size);
	if (type == t->id_enter) {
		if (size < t->need_enter)
			return short_record(t);
		pid = read_field(t, data, &t->f_pid);
		if (pid < 0 || pid >= PID_LIMIT)
			return bad_pid(t, pid);
		nr = read_field(t, data, &t->f_enter_id);
		if (!t->has_op && is_futex_nr(nr))
			oc_sys_enter_op(t->oc, pid, nr, (int)read_field(t, data, &t->f_enter_op));
		else
			oc_sys_enter(t->oc, pid, nr);
	} else if (type == t->id_exit) {
		if (size < t->need_exit)
			return short_record(t);
		pid = read_field(t, data, &t->f_pid);
		if (pid < 0 || pid >= PID_LIMIT)
			return bad_pid(t, pid);
		oc_sys_exit(t->oc, pid, read_field(t, data, &t->f_exit_id),
			    read_field(t, data, &t->f_ret));
	} else if (type == t->id_inject) {
		return inject(t, data, size);
	} else if (type == t->id_pexit) {
		if (size < t->need_pexit)
			return short_record(t);
		pid = read_field(t, data, &t->f_pexit_pid);
		if (pid < 0 || pid >= PID_LIMIT)
			return bad_pid(t, pid);
		oc_task_exit(t->oc, pid);
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
	struct tep_format_field *name = tep_find_field(ev, "name");
	struct symtab tab;
	unsigned int v;

	/* a value copy: a compressed trace is read by several handles in turn */
	if (name && (name->flags & TEP_FIELD_IS_DYNAMIC) && name->offset >= 0 && name->size >= 0) {
		t->has_name = true;
		t->f_name.offset = name->offset;
		t->f_name.size = name->size;
		t->name_relative = name->flags & TEP_FIELD_IS_RELATIVE;
	}
	if (symtab_from_event(ev, "site", &tab)) {
		if (t->has_name)
			return 0;	/* names come with each record */
		return ffr_error(t->path,
				 "futex_fault_inject names its sites neither in its print fmt (__print_symbolic) nor in a 'name' field");
	}
	t->nsite_map = tab.n;
	t->site_map = xcalloc(tab.n ? tab.n : 1, sizeof(*t->site_map));
	for (v = 0; v < tab.n; v++) {
		struct site *s;

		t->site_map[v] = SITE_UNRESOLVED;
		if (!tab.name[v])
			continue;
		if (!t->ps) {
			t->site_map[v] = 0;
			continue;
		}
		s = site_find(t->r, tab.name[v]);
		if (!s) {
			ffr_error(t->path,
				  "the trace names site '%s' (value %u), which is not in the baseline's sites.txt: trace and site table from different kernels?",
				  tab.name[v], v);
			symtab_free(&tab);
			return -1;
		}
		t->site_map[v] = s - t->r->sites;
	}
	symtab_free(&tab);
	return 0;
}

/* sys_enter's args[1], the futex op of a futex system call */
static int get_enter_op(struct tctx *t, struct tep_event *ev)
{
	struct tep_format_field *ff = tep_find_any_field(ev, "args");

	if (!ff || !(ff->flags & TEP_FIELD_IS_ARRAY) || ff->offset < 0 || ff->size < 0 ||
	    !ff->elementsize || ff->elementsize > 8 || (unsigned int)ff->size < 2 * ff->elementsize)
		return ffr_error(t->path, "event %s:%s has no 'args' array", ev->system, ev->name);
	t->f_enter_op.offset = ff->offset + ff->elementsize;
	t->f_enter_op.size = ff->elementsize;
	t->f_enter_op.is_signed = false;
	if (t->need_enter < t->f_enter_op.offset + t->f_enter_op.size)
		t->need_enter = t->f_enter_op.offset + t->f_enter_op.size;
	return 0;
}

static int setup(struct tctx *t)
{
	struct tep_event *ev, *enter, *exit_ev;

	t->swap = tep_is_file_bigendian(t->tep) != tep_is_local_bigendian(t->tep);
	t->id_inject = event_id(t, "futex_fault", "futex_fault_inject", true);
	if (t->id_inject < 0)
		return -1;
	t->id_enter = event_id(t, "raw_syscalls", "sys_enter", true);
	t->id_exit = event_id(t, "raw_syscalls", "sys_exit", true);
	if (t->id_enter < 0 || t->id_exit < 0)
		return -1;
	t->id_pexit = event_id(t, "sched", "sched_process_exit", false);

	ev = tep_find_event(t->tep, t->id_inject);
	enter = tep_find_event(t->tep, t->id_enter);
	exit_ev = tep_find_event(t->tep, t->id_exit);
	/* the common fields are the same in every event */
	if (get_field(t, ev, "common_type", &t->f_type, &t->need_common) ||
	    get_field(t, ev, "common_pid", &t->f_pid, &t->need_common))
		return -1;
	t->need_inject = t->need_enter = t->need_exit = t->need_pexit = t->need_common;
	if (get_field(t, ev, "site", &t->f_site, &t->need_inject) ||
	    get_field(t, ev, "err", &t->f_err, &t->need_inject) ||
	    get_field(t, ev, "caller", &t->f_caller, &t->need_inject))
		return -1;
	/* newer kernels leave the op to raw_syscalls:sys_enter */
	t->has_op = tep_find_any_field(ev, "op") != NULL;
	if (t->has_op ? get_field(t, ev, "op", &t->f_op, &t->need_inject) :
			get_enter_op(t, enter))
		return -1;
	if (map_sites(t, ev))
		return -1;
	if (get_field(t, enter, "id", &t->f_enter_id, &t->need_enter) ||
	    get_field(t, exit_ev, "id", &t->f_exit_id, &t->need_exit) ||
	    get_field(t, exit_ev, "ret", &t->f_ret, &t->need_exit))
		return -1;
	if (t->id_pexit >= 0 &&
	    get_field(t, tep_find_event(t->tep, t->id_pexit), "pid", &t->f_pexit_pid,
		      &t->need_pexit))
		return -1;
	return 0;
}

/* after the records: a bad site, a short record, or corrupt data */
static int check_records(struct tctx *t, int ret)
{
	if (t->bad_site >= 0 && t->bad_name)
		return ffr_error(t->path, "futex_fault_inject names site '%s' (value %d), which is not in the baseline's sites.txt: trace and site table from different kernels?",
				 t->bad_name, t->bad_site);
	if (t->bad_site >= 0)
		return ffr_error(t->path, "futex_fault_inject with site value %d, which the event does not name",
				 t->bad_site);
	if (t->short_record)
		return ffr_error(t->path, "a record is shorter than its event's format (corrupt?)");
	if (t->bad_pid)
		return ffr_error(t->path, "a record with pid %lld (corrupt?)", t->bad_pid);
	if (ret < 0)
		return ffr_error(t->path, "error while reading the records (truncated or corrupt?)");
	return 0;
}

/* ------------------------------------------------------------ symbols */

/* "function+0xoffset" from the trace's kallsyms, or NULL */
static char *tep_symbol(struct tep_handle *tep, unsigned long long addr)
{
	const char *fn = tep_find_function(tep, addr);

	if (!fn)
		return NULL;
	return xasprintf("%s+0x%llx", fn, addr - tep_find_function_address(tep, addr));
}

/*
 * Who faulted (pid -> comm) and where from (caller -> symbol), while the
 * trace's command lines and kallsyms are at hand in t->tep.
 */
static void name_tasks(struct tctx *t)
{
	size_t i, k;

	for (i = 0; i < t->r->nsites; i++) {
		struct psite *ps = &t->ps[i];

		if (ps->npids)
			ps->tasks = xcalloc(ps->npids, sizeof(*ps->tasks));
		for (k = 0; k < ps->npids; k++) {
			const char *comm = tep_data_comm_from_pid(t->tep, ps->pids[k].key);

			ps->tasks[k].comm = xstrdup(comm ? comm : "<...>");
			ps->tasks[k].pid = ps->pids[k].key;
			ps->tasks[k].count = ps->pids[k].count;
		}
		if (ps->caller)
			ps->caller_sym = tep_symbol(t->tep, ps->caller);
	}
}

/* ------------------------------------------------------------ reading */

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
 * One process opens one trace at a time: libtraceevent's format parser
 * keeps its state in globals, so threads could not open traces at once.
 */
static struct tracecmd_input *open_trace(const char *path)
{
	return tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
}

/*
 * libtracecmd 1.3 (trace-cmd 3.1.6) keeps each chunk of a compressed trace
 * it decompresses in a per-CPU list it never frees (free_zpage() cannot
 * find them) and walks that whole list each time a page is released: one
 * handle over the campaign's 43 MB trace (19 000 chunks, 190 000 pages)
 * takes three minutes and 770 MB.  So a compressed trace is read in
 * segments of SEGMENT bytes of ring-buffer pages, each by a new handle that
 * tracecmd_read_at() puts on the records where the previous one stopped:
 * the lists stay short and the memory is reused.  (Converting the trace to
 * an uncompressed copy first writes the 777 MB out: seconds.)
 */
#define SEGMENT		(32ull << 20)

/* more than any machine: tracecmd_read_data() says NULL past the trace's CPUs */
#define MAX_CPUS	8192

struct reader {
	struct tctx		*t;
	struct tracecmd_input	*h;
	struct tep_record	**next;		/* [cpu]: its next record, NULL at its end */
	int			ncpus;		/* CPUs with records */
	unsigned long long	bytes;		/* read in this handle */
};

/* a new handle, on the records r->next held in the old one */
static int next_segment(struct reader *r)
{
	unsigned long long *off = xcalloc(r->ncpus, sizeof(*off));
	int cpu, c, ret = 0;

	for (cpu = 0; cpu < r->ncpus; cpu++) {
		if (r->next[cpu])
			off[cpu] = r->next[cpu]->offset;
		tracecmd_free_record(r->next[cpu]);
		r->next[cpu] = NULL;
	}
	tracecmd_close(r->h);
	r->h = open_trace(r->t->path);
	if (!r->h) {
		free(off);
		return ffr_error(r->t->path, "cannot open it again (changed while read?)");
	}
	r->t->tep = tracecmd_get_tep(r->h);
	for (cpu = 0; cpu < r->ncpus; cpu++) {
		if (!off[cpu]) {
			r->next[cpu] = NULL;
			continue;
		}
		r->next[cpu] = tracecmd_read_at(r->h, off[cpu], &c);
		if (!r->next[cpu] || c != cpu || r->next[cpu]->offset != off[cpu])
			ret = ffr_error(r->t->path, "CPU %d: no record at offset %llu in a new handle",
					cpu, off[cpu]);
	}
	r->bytes = 0;
	free(off);
	return ret;
}

/*
 * Every record in time order, on equal time stamps the lower CPU first,
 * as tracecmd_iterate_events() goes, into handle_record(); the first bad
 * record stops.  Returns -1 after an error message, else 0 (the record
 * path's own errors are in t).
 */
static int read_records(struct tctx *t, struct tracecmd_input **h, bool segmented)
{
	struct reader r = { .t = t, .h = *h };
	struct tep_record *prev;
	int cpu, best, ret = 0;

	r.next = xcalloc(MAX_CPUS, sizeof(*r.next));
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		r.next[cpu] = tracecmd_read_data(r.h, cpu);
		if (r.next[cpu])
			r.ncpus = cpu + 1;
	}
	for (;;) {
		best = -1;
		for (cpu = 0; cpu < r.ncpus; cpu++)
			if (r.next[cpu] && (best < 0 || r.next[cpu]->ts < r.next[best]->ts))
				best = cpu;
		if (best < 0)
			break;
		prev = r.next[best];
		if (handle_record(t, prev->data, prev->size > 0 ? prev->size : 0,
				  prev->missed_events) < 0)
			break;
		r.next[best] = tracecmd_read_data(r.h, best);
		if (r.next[best])
			r.bytes += r.next[best]->offset - prev->offset;
		tracecmd_free_record(prev);
		if (segmented && r.bytes > SEGMENT) {
			ret = next_segment(&r);
			if (ret)
				break;
		}
	}
	for (cpu = 0; cpu < r.ncpus; cpu++)
		tracecmd_free_record(r.next[cpu]);
	free(r.next);
	*h = r.h;
	return ret;
}

static int read_libtracecmd(struct tctx *t)
{
	struct tracecmd_input *h = open_trace(t->path);
	int ret = -1;

	if (!h)
		return ffr_error(t->path, "not a readable trace-cmd trace (truncated or corrupt?)");
	t->tep = tracecmd_get_tep(h);
	if (setup(t))
		goto out;
	t->oc = oc_new(exit_nrs, outcome_cb, t);
	ret = read_records(t, &h, compressed(t->path));
	oc_finish(t->oc);
	if (!h)
		return -1;
	if (!ret)
		ret = check_records(t, 0);
	if (!ret && t->ps)
		name_tasks(t);
out:
	if (h)
		tracecmd_close(h);
	return ret;
}

/* read the trace t->path */
static int read_trace(struct tctx *t)
{
	struct stat st;
	int ret;

	t->bad_site = -1;
	if (stat(t->path, &st))
		return ffr_error(t->path, "%s", strerror(errno));
	if (!S_ISREG(st.st_mode) || !st.st_size)
		return ffr_error(t->path, "empty or not a regular file");
	ret = read_libtracecmd(t);
	free(t->site_map);
	free(t->bad_name);
	return ret;
}

static void run_job(struct report *r, struct trace_job *job)
{
	struct tctx t = { .r = r, .path = job->path };

	ffr_msg_capture(&job->msg);
	t.ps = xcalloc(r->nsites ? r->nsites : 1, sizeof(*t.ps));
	ffr_guard_file(job->path);
	job->ret = read_trace(&t);
	ffr_guard_file(NULL);
	ffr_msg_capture(NULL);
	job->sites = t.ps;
	job->records = t.records;
	job->injects = t.injects;
	job->lost = t.lost;
}

/* ------------------------------------------------------------ the pool */

struct pool {
	struct report		*r;
	struct trace_job	*jobs;
	size_t			*order;		/* the listed jobs, biggest first */
	size_t			nlisted;
	size_t			failed;		/* first failed job, njobs if none */
};

/* one process reads them all, biggest first */
static void worker(struct pool *p)
{
	size_t k, i;

	for (k = 0; k < p->nlisted; k++) {
		i = p->order[k];
		/* nothing after a failed trace is merged: do not read it */
		if (i > p->failed)
			continue;
		run_job(p->r, &p->jobs[i]);
		if (p->jobs[i].ret && i < p->failed)
			p->failed = i;
	}
}

static int cmp_size(const void *a, const void *b, void *arg)
{
	const struct trace_job *jobs = arg;
	const struct trace_job *ja = &jobs[*(const size_t *)a];
	const struct trace_job *jb = &jobs[*(const size_t *)b];

	if (ja->size != jb->size)
		return ja->size < jb->size ? 1 : -1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int run_procs(struct report *r, struct trace_job *jobs, size_t njobs,
		     const size_t *order, size_t nlisted, size_t nproc);

/* read every listed trace: in this process, or in r->threads processes */
static int run_pool(struct report *r, struct trace_job *jobs, size_t njobs)
{
	struct pool p = { .r = r, .jobs = jobs, .failed = njobs };
	size_t i, nlisted = 0, nproc = r->threads > 0 ? (size_t)r->threads : 1;
	int ret = 0;

	p.order = xcalloc(njobs ? njobs : 1, sizeof(*p.order));
	for (i = 0; i < njobs; i++) {
		if (jobs[i].listed)
			p.order[nlisted++] = i;
		else	/* a listing error stops there */
			p.failed = i < p.failed ? i : p.failed;
	}
	qsort_r(p.order, nlisted, sizeof(*p.order), cmp_size, jobs);
	if (nproc > nlisted)
		nproc = nlisted;
	p.nlisted = nlisted;
	if (nproc > 1)
		ret = run_procs(r, jobs, njobs, p.order, nlisted, nproc);
	else
		worker(&p);
	free(p.order);
	return ret;
}

/* ------------------------------------------------------------ merging */

static void merge_job(struct report *r, struct trace_job *job, size_t idx, size_t *caller_job)
{
	struct run *rn = &r->runs[job->run];
	size_t i, k;

	for (i = 0; i < r->nsites; i++) {
		struct psite *ps = &job->sites[i];
		struct site *s = &r->sites[i];

		s->fired += ps->fired;
		for (k = 0; k < OC_NR; k++)
			s->oc[k] += ps->oc[k];
		for (k = 0; k < ps->nerrors; k++)
			site_count(&s->errors, &s->nerrors, &s->caperrors, ps->errors[k].key,
				   ps->errors[k].count);
		for (k = 0; k < ps->nops; k++)
			site_count(&s->ops, &s->nops, &s->capops, ps->ops[k].key, ps->ops[k].count);
		for (k = 0; ps->tasks && k < ps->npids; k++) {
			grow(&s->tasks, &s->captasks, s->ntasks + 1, sizeof(*s->tasks));
			s->tasks[s->ntasks++] = ps->tasks[k];
			ps->tasks[k].comm = NULL;
		}
		if (!s->caller && ps->caller) {
			s->caller = ps->caller;
			s->caller_sym = ps->caller_sym;
			ps->caller_sym = NULL;
			caller_job[i] = idx;
		}
	}
	rn->injects += job->injects;
	rn->records += job->records;
	rn->lost += job->lost;
	r->events += job->records;
}

static void free_job(struct report *r, struct trace_job *job)
{
	size_t i, k;

	for (i = 0; job->sites && i < r->nsites; i++) {
		struct psite *ps = &job->sites[i];

		for (k = 0; ps->tasks && k < ps->npids; k++)
			free(ps->tasks[k].comm);
		free(ps->errors);
		free(ps->ops);
		free(ps->pids);
		free(ps->tasks);
		free(ps->caller_sym);
	}
	free(job->sites);
	free(job->path);
	sb_free(&job->msg);
}

/* ------------------------------------------------------------ worker processes */

/*
 * libtraceevent parses event formats with global state, so threads would
 * have to take turns in tracecmd_open(), which also parses the trace's
 * copy of kallsyms: about 10 ms a trace, 0.6 s for a campaign's 58.  Each
 * process has its own copy of that state: with more than one worker the
 * traces are read by forked processes that take jobs from a shared counter
 * (biggest first) and send each job's results back through a pipe, as
 * below; the parent merges them as before, in job order.
 *
 * A job: u64 index, i32 ret, u64 records, injects, lost, bytes(msg),
 * u64 number of sites sent, then per site: u64 site, u64 fired,
 * u64 oc[OC_NR], kvs(errors), kvs(ops), u64 npids, u8 named, per pid:
 * i64 pid, u64 count, bytes(comm) if named; u64 caller, bytes(caller_sym).
 * bytes() is a u64 length, UINT64_MAX for NULL, then the bytes.
 */
struct wire {
	const char	*p, *end;
	bool		bad;
};

static void put_u64(struct strbuf *sb, uint64_t v)
{
	sb_add(sb, (const char *)&v, sizeof(v));
}

static void put_bytes(struct strbuf *sb, const char *s, size_t n)
{
	put_u64(sb, s ? n : UINT64_MAX);
	if (s)
		sb_add(sb, s, n);
}

static void put_kvs(struct strbuf *sb, const struct kv *kv, size_t n)
{
	size_t i;

	put_u64(sb, n);
	for (i = 0; i < n; i++) {
		put_u64(sb, (uint64_t)kv[i].key);
		put_u64(sb, kv[i].count);
	}
}

static bool psite_empty(const struct psite *ps)
{
	size_t k;

	for (k = 0; k < OC_NR; k++)
		if (ps->oc[k])
			return false;
	return !ps->fired && !ps->nerrors && !ps->nops && !ps->npids && !ps->caller;
}

static void put_job(struct strbuf *sb, struct report *r, const struct trace_job *job, size_t idx)
{
	size_t i, k, n = 0;

	put_u64(sb, idx);
	put_u64(sb, (uint64_t)(int64_t)job->ret);
	put_u64(sb, job->records);
	put_u64(sb, job->injects);
	put_u64(sb, job->lost);
	put_bytes(sb, job->msg.buf ? job->msg.buf : "", job->msg.len);
	for (i = 0; job->sites && i < r->nsites; i++)
		n += !psite_empty(&job->sites[i]);
	put_u64(sb, n);
	for (i = 0; job->sites && i < r->nsites; i++) {
		const struct psite *ps = &job->sites[i];

		if (psite_empty(ps))
			continue;
		put_u64(sb, i);
		put_u64(sb, ps->fired);
		for (k = 0; k < OC_NR; k++)
			put_u64(sb, ps->oc[k]);
		put_kvs(sb, ps->errors, ps->nerrors);
		put_kvs(sb, ps->ops, ps->nops);
		put_u64(sb, ps->npids);
		sb_add(sb, ps->tasks ? "\1" : "\0", 1);
		for (k = 0; k < ps->npids; k++) {
			put_u64(sb, (uint64_t)ps->pids[k].key);
			put_u64(sb, ps->pids[k].count);
			if (ps->tasks)
				put_bytes(sb, ps->tasks[k].comm, strlen(ps->tasks[k].comm));
		}
		put_u64(sb, ps->caller);
		put_bytes(sb, ps->caller_sym, ps->caller_sym ? strlen(ps->caller_sym) : 0);
	}
}

static uint64_t get_u64(struct wire *w)
{
	uint64_t v = 0;

	if (w->bad || (size_t)(w->end - w->p) < sizeof(v)) {
		w->bad = true;
		return 0;
	}
	memcpy(&v, w->p, sizeof(v));
	w->p += sizeof(v);
	return v;
}

/* a NUL-terminated copy, or NULL */
static char *get_bytes(struct wire *w)
{
	uint64_t n = get_u64(w);
	char *s;

	if (w->bad || n == UINT64_MAX)
		return NULL;
	if (n > (uint64_t)(w->end - w->p)) {
		w->bad = true;
		return NULL;
	}
	s = xmalloc(n + 1);
	memcpy(s, w->p, n);
	s[n] = '\0';
	w->p += n;
	return s;
}

static struct kv *get_kvs(struct wire *w, size_t *n, size_t *cap)
{
	uint64_t i, cnt = get_u64(w);
	struct kv *kv;

	*n = *cap = 0;
	if (w->bad || cnt > (uint64_t)(w->end - w->p) / 16) {
		w->bad = true;
		return NULL;
	}
	kv = xcalloc(cnt ? cnt : 1, sizeof(*kv));
	for (i = 0; i < cnt; i++) {
		kv[i].key = (long)get_u64(w);
		kv[i].count = get_u64(w);
	}
	*n = *cap = cnt;
	return kv;
}

static int get_job(struct wire *w, struct report *r, struct trace_job *jobs, size_t njobs)
{
	uint64_t idx = get_u64(w), i, n, k;
	struct trace_job *job;
	char *msg;

	if (w->bad || idx >= njobs || jobs[idx].sites)
		return -1;
	job = &jobs[idx];
	job->ret = (int)(int64_t)get_u64(w);
	job->records = get_u64(w);
	job->injects = get_u64(w);
	job->lost = get_u64(w);
	msg = get_bytes(w);
	if (msg && *msg)
		sb_puts(&job->msg, msg);
	free(msg);
	job->sites = xcalloc(r->nsites ? r->nsites : 1, sizeof(*job->sites));
	n = get_u64(w);
	for (i = 0; i < n && !w->bad; i++) {
		uint64_t s = get_u64(w);
		struct psite *ps;
		bool named;

		if (s >= r->nsites)
			return -1;
		ps = &job->sites[s];
		ps->fired = get_u64(w);
		for (k = 0; k < OC_NR; k++)
			ps->oc[k] = get_u64(w);
		ps->errors = get_kvs(w, &ps->nerrors, &ps->caperrors);
		ps->ops = get_kvs(w, &ps->nops, &ps->capops);
		ps->npids = ps->cappids = get_u64(w);
		if (w->bad || ps->npids > (uint64_t)(w->end - w->p) / 16 || w->p >= w->end)
			return -1;
		named = *w->p++;
		ps->pids = xcalloc(ps->npids ? ps->npids : 1, sizeof(*ps->pids));
		if (named)
			ps->tasks = xcalloc(ps->npids ? ps->npids : 1, sizeof(*ps->tasks));
		for (k = 0; k < ps->npids; k++) {
			ps->pids[k].key = (long)get_u64(w);
			ps->pids[k].count = get_u64(w);
			if (!named)
				continue;
			ps->tasks[k].pid = ps->pids[k].key;
			ps->tasks[k].count = ps->pids[k].count;
			ps->tasks[k].comm = get_bytes(w);
			if (!ps->tasks[k].comm)
				ps->tasks[k].comm = xstrdup("<...>");
		}
		ps->caller = get_u64(w);
		ps->caller_sym = get_bytes(w);
	}
	return w->bad ? -1 : 0;
}

static bool write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= w;
	}
	return true;
}

/* a worker process: jobs from the shared counter until there are none */
static void __attribute__((noreturn))
proc_worker(struct report *r, struct trace_job *jobs, const size_t *order, size_t nlisted,
	    size_t *next, int fd)
{
	struct strbuf sb = { 0 };
	size_t k, i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (;;) {
		k = __atomic_fetch_add(next, 1, __ATOMIC_RELAXED);
		if (k >= nlisted)
			break;
		i = order[k];
		run_job(r, &jobs[i]);
		sb.len = 0;
		put_job(&sb, r, &jobs[i], i);
		if (!write_all(fd, sb.buf, sb.len))
			_exit(1);
		free_job(r, &jobs[i]);
	}
	_exit(0);
}

/* read every worker's pipe to its end */
static void drain(int *fds, struct strbuf *bufs, size_t n)
{
	struct pollfd *pfd = xcalloc(n, sizeof(*pfd));
	size_t i, open = n;
	char buf[65536];
	ssize_t got;

	for (i = 0; i < n; i++) {
		pfd[i].fd = fds[i];
		pfd[i].events = POLLIN;
	}
	while (open) {
		if (poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < n; i++) {
			if (pfd[i].fd < 0 || !pfd[i].revents)
				continue;
			got = read(pfd[i].fd, buf, sizeof(buf));
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				close(pfd[i].fd);
				pfd[i].fd = -1;
				open--;
				continue;
			}
			sb_add(&bufs[i], buf, got);
		}
	}
	free(pfd);
}

static int run_procs(struct report *r, struct trace_job *jobs, size_t njobs,
		     const size_t *order, size_t nlisted, size_t nproc)
{
	struct strbuf *bufs;
	pid_t *pids;
	int *fds;
	size_t *next, i, started = 0;
	int status, ret = 0, fd[2];

	next = mmap(NULL, sizeof(*next), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (next == MAP_FAILED)
		return ffr_error("mmap", "%s", strerror(errno));
	*next = 0;
	bufs = xcalloc(nproc, sizeof(*bufs));
	pids = xcalloc(nproc, sizeof(*pids));
	fds = xcalloc(nproc, sizeof(*fds));
	fflush(NULL);
	for (i = 0; i < nproc; i++) {
		if (pipe(fd)) {
			ret = ffr_error("pipe", "%s", strerror(errno));
			break;
		}
		pids[i] = fork();
		if (pids[i] < 0) {
			ret = ffr_error("fork", "%s", strerror(errno));
			close(fd[0]);
			close(fd[1]);
			break;
		}
		if (!pids[i]) {
			close(fd[0]);
			while (i--)
				close(fds[i]);
			proc_worker(r, jobs, order, nlisted, next, fd[1]);
		}
		close(fd[1]);
		fds[i] = fd[0];
		started++;
	}
	drain(fds, bufs, started);
	for (i = 0; i < started; i++) {
		struct wire w = { .p = bufs[i].buf, .end = bufs[i].buf + bufs[i].len };

		while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR)
			;
		if (WIFSIGNALED(status))
			ret = ffr_error("futex-fault-report", "a trace-reading process died (SIG%s)",
					sigabbrev_np(WTERMSIG(status)) ?: "?");
		else if (!WIFEXITED(status) || WEXITSTATUS(status))
			ret = ffr_error("futex-fault-report", "a trace-reading process failed");
		while (!ret && w.p < w.end)
			if (get_job(&w, r, jobs, njobs))
				ret = ffr_error("futex-fault-report",
						"a trace-reading process sent a bad result");
		sb_free(&bufs[i]);
	}
	/* every listed job must have come back */
	for (i = 0; !ret && i < nlisted; i++)
		if (!jobs[order[i]].sites)
			ret = ffr_error(jobs[order[i]].path, "not read: its reading process stopped");
	munmap(next, sizeof(*next));
	free(bufs);
	free(pids);
	free(fds);
	return ret;
}

/* the symbol for addr from the trace path's kallsyms, as read_trace() would */
static char *trace_symbol(const char *path, unsigned long long addr)
{
	struct tracecmd_input *h;
	char *sym = NULL;

	ffr_guard_file(path);
	h = open_trace(path);
	if (h) {
		sym = tep_symbol(tracecmd_get_tep(h), addr);
		tracecmd_close(h);
	}
	ffr_guard_file(NULL);
	return sym;
}

/*
 * A single thread reading the traces in order names a site's caller with
 * the kallsyms of the first trace, from the one that saw the caller on,
 * that has its symbol.  The thread that saw it tried its own; should that
 * fail (a trace without kallsyms), try the later ones.
 */
static void name_callers(struct report *r, struct trace_job *jobs, size_t njobs,
			 const size_t *caller_job)
{
	size_t i, k;

	for (i = 0; i < r->nsites; i++) {
		struct site *s = &r->sites[i];

		for (k = caller_job[i] + 1; s->caller && !s->caller_sym && k < njobs; k++)
			s->caller_sym = trace_symbol(jobs[k].path, s->caller);
	}
}

static void warn_run(struct report *r, int run)
{
	struct run *rn = &r->runs[run];

	if (run == 0 && rn->injects)
		ffr_warn(rn->dir, "the baseline has %llu injected faults: a site was enabled?",
			 rn->injects);
	if (rn->lost)
		ffr_warn(rn->dir, "%llu events lost: outcomes around them are 'unknown' (record with a bigger -b)",
			 rn->lost);
}

/* ------------------------------------------------------------ listing */

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static struct trace_job *add_job(struct trace_job **jobs, size_t *n, size_t *cap, int run)
{
	struct trace_job *job;

	grow(jobs, cap, *n + 1, sizeof(**jobs));
	job = &(*jobs)[(*n)++];
	memset(job, 0, sizeof(*job));
	sb_init(&job->msg);
	job->run = run;
	return job;
}

/* trace.dat, or trace*.dat, of each run; a listing error becomes a failed job */
static void list_traces(struct report *r, struct trace_job **jobs, size_t *njobs)
{
	size_t cap = 0, run;

	*jobs = NULL;
	*njobs = 0;
	for (run = 0; run < r->nruns; run++) {
		struct run *rn = &r->runs[run];
		char **names = NULL;
		size_t n = 0, ncap = 0, i;
		struct trace_job *job;
		struct dirent *de;
		struct stat st;
		DIR *dir;

		dir = opendir(rn->dir);
		if (!dir) {
			job = add_job(jobs, njobs, &cap, run);
			ffr_msg_capture(&job->msg);
			job->ret = ffr_error(rn->dir, "%s", strerror(errno));
			ffr_msg_capture(NULL);
			return;
		}
		while ((de = readdir(dir))) {
			size_t l = strlen(de->d_name);

			if (strncmp(de->d_name, "trace", 5) || l < 9 ||
			    strcmp(de->d_name + l - 4, ".dat"))
				continue;
			grow(&names, &ncap, n + 1, sizeof(*names));
			names[n++] = xasprintf("%s/%s", rn->dir, de->d_name);
		}
		closedir(dir);
		if (!n && !strcmp(rn->status, "ok")) {
			char *p = xasprintf("%s/trace.dat", rn->dir);

			job = add_job(jobs, njobs, &cap, run);
			ffr_msg_capture(&job->msg);
			job->ret = ffr_error(p, "missing (run status ok)");
			ffr_msg_capture(NULL);
			free(p);
			return;
		}
		qsort(names, n, sizeof(*names), cmp_path);
		for (i = 0; i < n; i++) {
			job = add_job(jobs, njobs, &cap, run);
			job->path = names[i];
			job->listed = true;
			if (stat(job->path, &st) == 0)
				job->size = st.st_size;
		}
		free(names);
	}
}

int trace_read_runs(struct report *r)
{
	struct trace_job *jobs;
	size_t njobs, i, *caller_job;
	int ret = 0;

	list_traces(r, &jobs, &njobs);
	/* a reading process that died leaves nothing to merge */
	if (run_pool(r, jobs, njobs))
		ret = -1;

	caller_job = xcalloc(r->nsites ? r->nsites : 1, sizeof(*caller_job));
	for (i = 0; !ret && i < njobs; i++) {
		struct trace_job *job = &jobs[i];

		if (job->msg.len)
			fputs(job->msg.buf, stderr);
		if (job->listed)
			r->runs[job->run].ntraces++;
		if (job->ret) {
			ret = -1;
			break;
		}
		merge_job(r, job, i, caller_job);
		/* a run's warnings after its last trace */
		if (i + 1 == njobs || jobs[i + 1].run != job->run)
			warn_run(r, job->run);
	}
	if (!ret)
		name_callers(r, jobs, njobs, caller_job);
	for (i = 0; i < njobs; i++)
		free_job(r, &jobs[i]);
	free(jobs);
	free(caller_job);
	return ret;
}

/* parse one trace, outcomes included, without a report: for measuring */
double trace_bench(const char *path, unsigned long long *events, unsigned long long *injects)
{
	struct report r = { 0 };
	struct tctx t = { .r = &r, .path = path };
	struct timespec a, b;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &a);
	ffr_guard_file(path);
	ret = read_trace(&t);
	ffr_guard_file(NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (ret)
		return -1;
	*events = t.records;
	*injects = t.injects;
	return (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
}
