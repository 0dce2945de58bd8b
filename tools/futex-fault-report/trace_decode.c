// SPDX-License-Identifier: GPL-2.0
/*
 * The records of one trace, decoded: futex_fault_inject,
 * raw_syscalls:sys_enter and sys_exit, sched_process_exit and
 * io_uring:io_uring_complete, into the outcome engine and one struct
 * trace_site per site.
 *
 * The per-record path does no lookup by name: event ids and field offsets
 * are resolved once per trace (decoder_setup()), a record of another event
 * costs one comparison, and the site enum value is mapped to the report's
 * site index through a table built from the event's own print fmt.
 */
#include <limits.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "print_symbolic.h"
#include "trace.h"
#include "x86_syscalls.h"

/* PID_MAX_LIMIT on 64-bit: a larger pid is a corrupt record */
#define PID_LIMIT	(4 * 1024 * 1024)

/* exit and exit_group: after them a task never returns to user space */
static const long exit_nrs[] = { X86_64_NR_EXIT, X86_64_NR_EXIT_GROUP, -1 };

/*
 * futex (x86_64 and i386) and futex_time64 (i386): their args[1] is the
 * futex op, for events that do not record it themselves
 */
static bool is_futex_nr(long long nr)
{
	return nr == X86_64_NR_FUTEX || nr == I386_NR_FUTEX || nr == I386_NR_FUTEX_TIME64;
}

static int get_field(struct decoder *t, struct tep_event *ev, const char *name, struct field *f,
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

static inline unsigned long long read_raw(const struct decoder *t, const unsigned char *p,
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
static inline long long read_field(const struct decoder *t, const unsigned char *data,
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
static const char *record_name(struct decoder *t, const unsigned char *data, unsigned int size)
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
static int resolve_site(struct decoder *t, const unsigned char *data, unsigned int size,
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
	struct decoder *t = ctx;
	struct trace_site *ps;

	if (t->keep_faults) {
		t->faults[inj->tag].oc = oc;
		t->faults[inj->tag].ret = ret;
	}
	if (!t->ps)
		return;
	ps = &t->ps[inj->site];
	ps->counts.oc[oc]++;
	/* a corrupt trace's LONG_MIN has no positive */
	if (oc == OC_ERROR)
		site_count(&ps->counts.errors, &ps->counts.nerrors, &ps->counts.caperrors,
			   ret == LONG_MIN ? LONG_MAX : -ret, 1);
}

static int short_record(struct decoder *t)
{
	t->short_record = true;
	return -1;
}

static int bad_pid(struct decoder *t, long long pid)
{
	if (!t->bad_pid)
		t->bad_pid = pid;
	return -1;
}

static int inject(struct decoder *t, const unsigned char *data, unsigned int size)
{
	unsigned long long v;
	struct oc_inject inj;
	struct trace_site *ps;
	long long pid;
	int idx;

	if (size < t->need_inject)
		return short_record(t);
	if (t->anchor) {
		/* should_fail() returned false: a hit, not an injection */
		if (!read_field(t, data, &t->f_site))
			return 0;
		v = 0;
		idx = t->anchor_site;
	} else {
		v = read_field(t, data, &t->f_site);
		idx = v < t->nsite_map ? t->site_map[v] : SITE_UNRESOLVED;
		if (idx == SITE_UNRESOLVED)
			idx = resolve_site(t, data, size, v);
	}
	t->injects++;
	pid = read_field(t, data, &t->f_pid);
	if (idx < 0) {
		if (t->bad_site < 0)
			t->bad_site = v;
		return -1;
	}
	if (pid < 0 || pid >= PID_LIMIT)
		return bad_pid(t, pid);
	inj.site = idx;
	inj.err = t->anchor ? t->anchor_err : (int)read_field(t, data, &t->f_err);
	inj.op = t->has_op ? read_field(t, data, &t->f_op) : oc_task_op(t->oc, pid);
	inj.pid = pid;
	inj.tag = 0;
	if (t->ps) {
		ps = &t->ps[idx];
		ps->counts.fired++;
		site_count(&ps->counts.ops, &ps->counts.nops, &ps->counts.capops, inj.op, 1);
		site_count(&ps->pids, &ps->npids, &ps->cappids, pid, 1);
		if (!ps->counts.caller)
			ps->counts.caller = read_field(t, data, &t->f_caller);
	}
	/*
	 * Its place in the list of faults now, in time order, and its outcome
	 * when the engine settles it (at once, for one raised in do_exit())
	 */
	if (t->keep_faults) {
		struct fault *f;

		grow(&t->faults, &t->capfaults, t->nfaults + 1, sizeof(*t->faults));
		f = &t->faults[t->nfaults];
		f->ts = t->ts;
		f->cpu = t->cpu;
		f->pid = pid;
		f->site = idx;
		f->oc = OC_NR;
		f->ret = 0;
		inj.tag = t->nfaults++;
	}
	oc_inject(t->oc, &inj);
	return 0;
}

/* one record: mostly system call entries and exits, checked in that order */
int decode_record(struct decoder *t, const unsigned char *data, unsigned int size,
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
	} else if (type == t->id_cqe) {
		if (size < t->need_cqe)
			return short_record(t);
		pid = read_field(t, data, &t->f_pid);
		if (pid < 0 || pid >= PID_LIMIT)
			return bad_pid(t, pid);
		oc_completion(t->oc, pid, X86_64_NR_IO_URING_ENTER,
			      (long)read_field(t, data, &t->f_cqe_res));
	}
	return 0;
}

static int event_id(struct decoder *t, const char *sys, const char *name, bool required)
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
static int map_sites(struct decoder *t, struct tep_event *ev)
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
static int get_enter_op(struct decoder *t, struct tep_event *ev)
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

/* the fields every trace needs beside the inject event's */
static int syscall_fields(struct decoder *t, struct tep_event *enter, struct tep_event *exit_ev)
{
	if (get_field(t, enter, "id", &t->f_enter_id, &t->need_enter) ||
	    get_field(t, exit_ev, "id", &t->f_exit_id, &t->need_exit) ||
	    get_field(t, exit_ev, "ret", &t->f_ret, &t->need_exit))
		return -1;
	if (t->id_pexit >= 0 &&
	    get_field(t, tep_find_event(t->tep, t->id_pexit), "pid", &t->f_pexit_pid,
		      &t->need_pexit))
		return -1;
	if (t->id_cqe >= 0 &&
	    get_field(t, tep_find_event(t->tep, t->id_cqe), "res", &t->f_cqe_res, &t->need_cqe))
		return -1;
	return 0;
}

/*
 * The anchor's probe: "r:fail_futex/inject should_fail ret=$retval:u8".
 * Its ret is what should_fail() returned (the site field's place), its
 * __probe_ret_ip where in fail_futex's code it returned to (the call
 * site's), the op that of the system call it ran in.  Every injection is
 * of the one site ANCHOR_SITE, with that site's errno.
 */
static int anchor_setup(struct decoder *t, struct tep_event *ev, struct tep_event *enter,
			struct tep_event *exit_ev)
{
	struct site *s = NULL;

	if (get_field(t, ev, "ret", &t->f_site, &t->need_inject) ||
	    get_field(t, ev, "__probe_ret_ip", &t->f_caller, &t->need_inject) ||
	    get_enter_op(t, enter))
		return -1;
	t->anchor_site = 0;
	t->anchor_err = -EFAULT;
	if (t->ps) {
		s = site_find(t->r, ANCHOR_SITE);
		if (!s)
			return ffr_error(t->path, "a trace of pristine fail_futex (%s:%s), but the baseline's sites.txt has no site '%s'",
					 ANCHOR_SYSTEM, ANCHOR_EVENT, ANCHOR_SITE);
		t->anchor_site = s - t->r->sites;
		t->anchor_err = s->errname ? -errno_value(s->errname) : -EFAULT;
	}
	return syscall_fields(t, enter, exit_ev);
}

int decoder_setup(struct decoder *t)
{
	struct tep_event *ev, *enter, *exit_ev;

	t->swap = tep_is_file_bigendian(t->tep) != tep_is_local_bigendian(t->tep);
	t->id_inject = event_id(t, "futex_fault", "futex_fault_inject", false);
	if (t->id_inject < 0) {
		t->id_inject = event_id(t, ANCHOR_SYSTEM, ANCHOR_EVENT, false);
		if (t->id_inject < 0)
			return ffr_error(t->path, "no futex_fault:futex_fault_inject event in this trace (recorded without -e futex_fault?), nor the %s:%s probe of a pristine kernel's fail_futex",
					 ANCHOR_SYSTEM, ANCHOR_EVENT);
		t->anchor = true;
	}
	t->id_enter = event_id(t, "raw_syscalls", "sys_enter", true);
	t->id_exit = event_id(t, "raw_syscalls", "sys_exit", true);
	if (t->id_enter < 0 || t->id_exit < 0)
		return -1;
	t->id_pexit = event_id(t, "sched", "sched_process_exit", false);
	/* recorded where the kernel has io_uring (6.12 campaigns) */
	t->id_cqe = event_id(t, "io_uring", "io_uring_complete", false);

	ev = tep_find_event(t->tep, t->id_inject);
	enter = tep_find_event(t->tep, t->id_enter);
	exit_ev = tep_find_event(t->tep, t->id_exit);
	/* the common fields are the same in every event */
	if (get_field(t, ev, "common_type", &t->f_type, &t->need_common) ||
	    get_field(t, ev, "common_pid", &t->f_pid, &t->need_common))
		return -1;
	t->need_inject = t->need_enter = t->need_exit = t->need_pexit = t->need_common;
	t->need_cqe = t->need_common;
	if (t->anchor)
		return anchor_setup(t, ev, enter, exit_ev);
	if (get_field(t, ev, "site", &t->f_site, &t->need_inject) ||
	    get_field(t, ev, "err", &t->f_err, &t->need_inject))
		return -1;
	/* the site's code address: call_site since interface v2, caller before */
	if (!tep_find_any_field(ev, "call_site") && !tep_find_any_field(ev, "caller"))
		return ffr_error(t->path, "event %s:%s has neither a 'call_site' nor a 'caller' field",
				 ev->system, ev->name);
	if (get_field(t, ev, tep_find_any_field(ev, "call_site") ? "call_site" : "caller",
		      &t->f_caller, &t->need_inject))
		return -1;
	/* newer kernels leave the op to raw_syscalls:sys_enter */
	t->has_op = tep_find_any_field(ev, "op") != NULL;
	if (t->has_op ? get_field(t, ev, "op", &t->f_op, &t->need_inject) :
			get_enter_op(t, enter))
		return -1;
	if (map_sites(t, ev))
		return -1;
	return syscall_fields(t, enter, exit_ev);
}

/* after the records: a bad site, a short record, or corrupt data */
int decoder_check(struct decoder *t, int ret)
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

char *trace_symbol_name(struct tep_handle *tep, unsigned long long addr)
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
void decoder_name_tasks(struct decoder *t)
{
	size_t i, k;

	for (i = 0; i < t->r->nsites; i++) {
		struct trace_site *ps = &t->ps[i];

		if (ps->npids)
			ps->tasks = xcalloc(ps->npids, sizeof(*ps->tasks));
		for (k = 0; k < ps->npids; k++) {
			const char *comm = tep_data_comm_from_pid(t->tep, ps->pids[k].key);

			ps->tasks[k].comm = xstrdup(comm ? comm : "<...>");
			ps->tasks[k].pid = ps->pids[k].key;
			ps->tasks[k].count = ps->pids[k].count;
		}
		if (ps->counts.caller)
			ps->counts.caller_sym = trace_symbol_name(t->tep, ps->counts.caller);
	}
}

void decoder_start(struct decoder *t)
{
	t->bad_site = -1;
	t->oc = oc_new(exit_nrs, outcome_cb, t);
}

void decoder_end(struct decoder *t)
{
	oc_finish(t->oc);
	t->oc = NULL;
}

void decoder_free(struct decoder *t)
{
	free(t->site_map);
	free(t->bad_name);
	t->site_map = NULL;
	t->bad_name = NULL;
}
