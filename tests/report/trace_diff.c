// SPDX-License-Identifier: GPL-2.0
/*
 * Check the reporter's trace.dat reader (tracedat.c) against libtracecmd:
 * for each trace given, both must return the same records (CPU, time
 * stamp, size, bytes, lost-event count) in the same order.
 *
 * usage: trace_diff TRACE.dat...       exit 1 on the first difference
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <trace-cmd.h>

#include "ffr.h"
#include "tracedat.h"
#include "util.h"

/*
 * Each record of tracedat.c's stream is kept as a hash of everything about
 * it; libtracecmd's stream is compared against them as it goes.
 */
struct walk {
	unsigned long long	*hash;
	size_t			n, cap;
	size_t			i;		/* libtracecmd's next record */
	size_t			first_diff;	/* (size_t)-1 if none */
};

static unsigned long long rec_hash(int cpu, unsigned long long ts, long long missed,
				   const void *data, unsigned int size)
{
	const unsigned char *p = data;
	unsigned long long h = 1469598103934665603ULL;	/* FNV-1a */
	unsigned long long v[4] = { (unsigned long long)cpu, ts, (unsigned long long)missed, size };
	unsigned int i;

	for (i = 0; i < sizeof(v); i++) {
		h ^= ((const unsigned char *)v)[i];
		h *= 1099511628211ULL;
	}
	for (i = 0; i < size; i++) {
		h ^= p[i];
		h *= 1099511628211ULL;
	}
	return h;
}

static int tdat_cb(void *ctx, const struct tdat_rec *rec)
{
	struct walk *w = ctx;

	grow(&w->hash, &w->cap, w->n + 1, sizeof(*w->hash));
	w->hash[w->n++] = rec_hash(rec->cpu, rec->ts, rec->missed, rec->data, rec->size);
	return 0;
}

static int tracecmd_cb(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *ctx)
{
	struct walk *w = ctx;
	unsigned long long x = rec_hash(rec->cpu, rec->ts, rec->missed_events, rec->data,
					rec->size);

	(void)h;
	(void)cpu;
	if (w->first_diff == (size_t)-1 && (w->i >= w->n || w->hash[w->i] != x))
		w->first_diff = w->i;
	w->i++;
	return 0;
}

static int diff(const char *path)
{
	struct walk w = { .first_diff = (size_t)-1 };
	struct tracecmd_input *h;
	struct tdat d;
	int ret;

	ret = tdat_open(&d, path);
	if (ret)
		return ffr_error(path, "tracedat.c does not read it (%d)", ret);
	ret = tdat_load_meta(&d, NULL);
	if (!ret)
		ret = tdat_iterate(&d, tdat_cb, &w);
	tdat_close(&d);
	if (ret)
		return ffr_error(path, "tracedat.c: error %d", ret);
	h = tracecmd_open(path, TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!h) {
		free(w.hash);
		return ffr_error(path, "libtracecmd cannot open it");
	}
	tracecmd_iterate_events(h, NULL, 0, tracecmd_cb, &w);
	tracecmd_close(h);
	free(w.hash);
	if (w.first_diff != (size_t)-1)
		return ffr_error(path, "record %zu differs (tracedat %zu records, libtracecmd %zu)",
				 w.first_diff, w.n, w.i);
	if (w.i != w.n)
		return ffr_error(path, "tracedat %zu records, libtracecmd %zu", w.n, w.i);
	printf("%s: %zu records, the same from both readers\n", path, w.n);
	return 0;
}

int main(int argc, char **argv)
{
	int i, ret = 0;

	if (argc < 2) {
		fprintf(stderr, "usage: trace_diff TRACE.dat...\n");
		return 2;
	}
	for (i = 1; i < argc; i++)
		ret |= diff(argv[i]);
	return ret ? 1 : 0;
}
