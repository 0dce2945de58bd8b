// SPDX-License-Identifier: GPL-2.0
/*
 * One trace, read with libtracecmd: every record in time order into the
 * decoder, a compressed trace in segments, each by a handle of its own.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "trace.h"

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
struct tracecmd_input *trace_open(const char *path)
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
	struct decoder		*t;
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
	r->h = trace_open(r->t->path);
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
 * as tracecmd_iterate_events() goes, into decode_record(); the first bad
 * record stops.  Returns -1 after an error message, else 0 (the record
 * path's own errors are in t).
 */
static int read_records(struct decoder *t, struct tracecmd_input **h, bool segmented)
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
		t->ts = prev->ts;
		t->cpu = best;
		if (decode_record(t, prev->data, prev->size > 0 ? prev->size : 0,
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

static int read_libtracecmd(struct decoder *t)
{
	struct tracecmd_input *h = trace_open(t->path);
	int ret = -1;

	if (!h)
		return ffr_error(t->path, "not a readable trace-cmd trace (truncated or corrupt?)");
	t->tep = tracecmd_get_tep(h);
	if (decoder_setup(t))
		goto out;
	decoder_start(t);
	ret = read_records(t, &h, compressed(t->path));
	decoder_end(t);
	if (!h)
		return -1;
	if (!ret)
		ret = decoder_check(t, 0);
	if (!ret && t->ps)
		decoder_name_tasks(t);
out:
	if (h)
		tracecmd_close(h);
	return ret;
}

int trace_read(struct decoder *t)
{
	struct stat st;
	int ret;

	if (stat(t->path, &st))
		return ffr_error(t->path, "%s", strerror(errno));
	if (!S_ISREG(st.st_mode) || !st.st_size)
		return ffr_error(t->path, "empty or not a regular file");
	ret = read_libtracecmd(t);
	decoder_free(t);
	return ret;
}

/* parse one trace, outcomes included, without a report: for measuring */
double trace_bench(const char *path, unsigned long long *events, unsigned long long *injects)
{
	struct report r = { 0 };
	struct decoder t = { .r = &r, .path = path };
	struct timespec a, b;
	int ret;

	clock_gettime(CLOCK_MONOTONIC, &a);
	ffr_guard_file(path);
	ret = trace_read(&t);
	ffr_guard_file(NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	if (ret)
		return -1;
	*events = t.records;
	*injects = t.injects;
	return (b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9;
}
