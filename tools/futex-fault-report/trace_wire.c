// SPDX-License-Identifier: GPL-2.0
/*
 * The wire format of the worker processes: what a trace added to the
 * report, as a worker sends it through its pipe to the parent.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "trace.h"

/*
 * A job: u64 index, i32 ret, u64 records, injects, lost, bytes(msg),
 * u64 number of sites sent, then per site: u64 site, u64 fired,
 * u64 oc[OC_NR], kvs(errors), kvs(ops), u64 npids, u8 named, per pid:
 * i64 pid, u64 count, bytes(comm) if named; u64 caller, bytes(caller_sym);
 * then bytes(faults), the job's array of struct fault as it is.  bytes()
 * is a u64 length, UINT64_MAX for NULL, then the bytes; kvs() a u64 count,
 * then per entry i64 key, u64 count.  Host byte order and struct layout:
 * the reader is the writer's parent.
 */
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

static bool trace_site_empty(const struct trace_site *ps)
{
	size_t k;

	for (k = 0; k < OC_NR; k++)
		if (ps->counts.oc[k])
			return false;
	return !ps->counts.fired && !ps->counts.nerrors && !ps->counts.nops && !ps->npids &&
	       !ps->counts.caller;
}

void wire_put_job(struct strbuf *sb, struct report *r, const struct trace_job *job, size_t idx)
{
	size_t i, k, n = 0;

	put_u64(sb, idx);
	put_u64(sb, (uint64_t)(int64_t)job->ret);
	put_u64(sb, job->records);
	put_u64(sb, job->injects);
	put_u64(sb, job->lost);
	put_bytes(sb, job->msg.buf ? job->msg.buf : "", job->msg.len);
	for (i = 0; job->sites && i < r->nsites; i++)
		n += !trace_site_empty(&job->sites[i]);
	put_u64(sb, n);
	for (i = 0; job->sites && i < r->nsites; i++) {
		const struct trace_site *ps = &job->sites[i];

		if (trace_site_empty(ps))
			continue;
		put_u64(sb, i);
		put_u64(sb, ps->counts.fired);
		for (k = 0; k < OC_NR; k++)
			put_u64(sb, ps->counts.oc[k]);
		put_kvs(sb, ps->counts.errors, ps->counts.nerrors);
		put_kvs(sb, ps->counts.ops, ps->counts.nops);
		put_u64(sb, ps->npids);
		sb_add(sb, ps->tasks ? "\1" : "\0", 1);
		for (k = 0; k < ps->npids; k++) {
			put_u64(sb, (uint64_t)ps->pids[k].key);
			put_u64(sb, ps->pids[k].count);
			if (ps->tasks)
				put_bytes(sb, ps->tasks[k].comm, strlen(ps->tasks[k].comm));
		}
		put_u64(sb, ps->counts.caller);
		put_bytes(sb, ps->counts.caller_sym, ps->counts.caller_sym ? strlen(ps->counts.caller_sym) : 0);
	}
	put_bytes(sb, job->faults ? (const char *)job->faults : "",
		  job->nfaults * sizeof(*job->faults));
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

/* the job's faults, each of a site of the report and settled */
static int get_faults(struct wire *w, struct report *r, struct trace_job *job)
{
	uint64_t n = get_u64(w), i;

	if (w->bad || n == UINT64_MAX || n > (uint64_t)(w->end - w->p) ||
	    n % sizeof(*job->faults))
		return -1;
	job->nfaults = n / sizeof(*job->faults);
	job->faults = xmalloc(n ? n : 1);
	memcpy(job->faults, w->p, n);
	w->p += n;
	for (i = 0; i < job->nfaults; i++)
		if (job->faults[i].site >= r->nsites || job->faults[i].oc >= OC_NR)
			return -1;
	return 0;
}

int wire_get_job(struct wire *w, struct report *r, struct trace_job *jobs, size_t njobs)
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
		struct trace_site *ps;
		bool named;

		if (s >= r->nsites)
			return -1;
		ps = &job->sites[s];
		ps->counts.fired = get_u64(w);
		for (k = 0; k < OC_NR; k++)
			ps->counts.oc[k] = get_u64(w);
		ps->counts.errors = get_kvs(w, &ps->counts.nerrors, &ps->counts.caperrors);
		ps->counts.ops = get_kvs(w, &ps->counts.nops, &ps->counts.capops);
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
		ps->counts.caller = get_u64(w);
		ps->counts.caller_sym = get_bytes(w);
	}
	return w->bad ? -1 : get_faults(w, r, job);
}
