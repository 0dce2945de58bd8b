// SPDX-License-Identifier: GPL-2.0
/*
 * faults/<run>.tsv: what became of each injected fault of a run, one fault
 * a line in time order, for the plugin to say on each event line what
 * became of that fault (README.md "Per-fault outcomes"):
 *
 *   # futex-fault-report faults/1
 *   # ts	cpu	pid	site	outcome	errno
 *   4045126340	0	42	wait_get_value	error	EAGAIN
 *
 * ts is the record's time stamp as libtracecmd gives it to trace-cmd
 * report; errno is what user space saw, for an error, else "-".  The
 * reporter already has each fault's outcome (trace_decode.c keeps them in
 * time order, the engine settles them): this only writes them out, a few
 * tens of bytes a fault, where report.json would grow by a few hundred.
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "faults.h"
#include "report.h"
#include "util.h"

char *faults_file(const struct run *rn)
{
	return rn->nfaults ? xasprintf("faults/%s.tsv", rn->name) : NULL;
}

static bool before(const struct fault *a, const struct fault *b)
{
	return a->ts < b->ts || (a->ts == b->ts && a->cpu < b->cpu);
}

static int cmp_fault(const void *a, const void *b)
{
	const struct fault *fa = *(const struct fault *const *)a;
	const struct fault *fb = *(const struct fault *const *)b;

	if (before(fa, fb))
		return -1;
	if (before(fb, fa))
		return 1;
	/* the same time stamp and CPU: in the order they were read */
	return fa < fb ? -1 : fa > fb;
}

/*
 * Each trace's faults are in time order, on equal time stamps the lower CPU
 * first, as trace-cmd report shows them; a run of several traces (one per
 * workload) is sorted once more, keeping the order of equal ones.
 */
static const struct fault **time_order(const struct run *rn)
{
	const struct fault **order = xcalloc(rn->nfaults, sizeof(*order));
	bool sorted = true;
	size_t i;

	for (i = 0; i < rn->nfaults; i++) {
		order[i] = &rn->faults[i];
		if (i && before(order[i], order[i - 1]))
			sorted = false;
	}
	if (!sorted)
		qsort(order, rn->nfaults, sizeof(*order), cmp_fault);
	return order;
}

/* what user space saw: "EFAULT" for -14; a corrupt trace's huge value by number */
static const char *errno_seen(const struct fault *f)
{
	if (f->oc != OC_ERROR)
		return "-";
	return errno_name(f->ret < -INT_MAX ? INT_MAX : (int)-f->ret);
}

static int write_run(const struct report *r, const struct run *rn, const char *path)
{
	const struct fault **order;
	size_t i;
	FILE *f;

	f = fopen(path, "w");
	if (!f)
		return ffr_error(path, "%s", strerror(errno));
	order = time_order(rn);
	fputs(FAULTS_MAGIC "\n" FAULTS_HEADER "\n", f);
	for (i = 0; i < rn->nfaults; i++) {
		const struct fault *ft = order[i];

		fprintf(f, "%llu\t%d\t%d\t%s\t%s\t%s\n", ft->ts, ft->cpu, ft->pid,
			r->sites[ft->site].name, oc_names[ft->oc < OC_NR ? ft->oc : OC_UNKNOWN],
			errno_seen(ft));
	}
	free(order);
	return output_close(f, path);
}

int write_faults(const struct report *r, const char *dir)
{
	char *sub = xasprintf("%s/faults", dir);
	size_t i;
	int ret = 0;

	if (mkdir(sub, 0755))
		ret = ffr_error(sub, "%s", strerror(errno));
	for (i = 0; !ret && i < r->nruns; i++) {
		char *rel = faults_file(&r->runs[i]), *path;

		if (!rel)
			continue;
		path = xasprintf("%s/%s", dir, rel);
		ret = write_run(r, &r->runs[i], path);
		free(path);
		free(rel);
	}
	free(sub);
	return ret;
}
