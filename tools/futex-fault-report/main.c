// SPDX-License-Identifier: GPL-2.0
/*
 * futex-fault-report - which futex error paths did fault injection
 * exercise, because of which site, with what result.
 *
 * Reads a campaign results directory, or the shards of one campaign as one
 * (docs/results-layout.md: results.c, trace_pool.c, gcov.c), analyses it
 * once (analyse.c), and renders the result as index.html and a page per
 * source file (html.c), report.json (report_json.c), lcov tracefiles
 * (lcov.c) and a terminal summary (summary.c).  The files appear only
 * once all of them are written (output_swap.c), and a crash leaves no
 * half-made report (crash_guard.c).
 * --compare reads two results directories the same way and compares them
 * (compare.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#include "compare.h"
#include "report.h"
#include "util.h"

static char *make_tmp(const char *base)
{
	char *dir = xasprintf("%s/futex-fault-report.XXXXXX", base);

	if (mkdtemp(dir))
		return dir;
	free(dir);
	return NULL;
}

/*
 * The scratch directory for the gcov runs: $TMPDIR if set, else on tmpfs
 * when there is one (removing its few hundred small files from a busy disk
 * takes 0.2 s), else /tmp.
 */
char *scratch_dir(void)
{
	const char *tmp = getenv("TMPDIR");
	char *dir;

	if (!tmp || !*tmp) {
		dir = make_tmp("/dev/shm");
		if (dir)
			return dir;
		tmp = "/tmp";
	}
	dir = make_tmp(tmp);
	if (!dir)
		ffr_error(tmp, "mkdtemp: %s", strerror(errno));
	return dir;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int parse_only(int argc, char **argv)
{
	unsigned long long events, injects;
	int i;

	for (i = 0; i < argc; i++) {
		double s = trace_bench(argv[i], &events, &injects);

		if (s < 0)
			return 1;
		printf("%s: %llu records, %llu futex_fault_inject, %.3f s, %.2f M records/s\n",
		       argv[i], events, injects, s, s > 0 ? events / s / 1e6 : 0.0);
	}
	return 0;
}

int results_analyse(struct report *r)
{
	double t0 = now(), t1;

	if (results_load(r) || trace_read_runs(r))
		return -1;
	t1 = now();
	r->trace_seconds = t1 - t0;
	return cov_load(r) || analyse(r) ? -1 : 0;
}

/* one side of --compare: the options of the command line, its own results and scratch */
static struct report *compare_side(const struct report *opts, const char *arg, const char *tmp,
				   const char *name)
{
	struct report *r = xcalloc(1, sizeof(*r));

	*r = *opts;
	r->objtree = opts->objtree ? xstrdup(opts->objtree) : NULL;
	r->srctree = opts->srctree ? xstrdup(opts->srctree) : NULL;
	r->results = cmp_results_dir(arg);
	if (!r->results)
		return NULL;
	r->tmpdir = xasprintf("%s/%s", tmp, name);
	if (mkdir(r->tmpdir, 0700)) {
		ffr_error(r->tmpdir, "%s", strerror(errno));
		return NULL;
	}
	return results_analyse(r) ? NULL : r;
}

static int compare_mode(struct report *opts, struct options *o)
{
	struct compare c = { 0 };
	double t0 = now();
	char *tmp;
	bool child;
	int ret;

	c.old_arg = o->args[0];
	c.new_arg = o->args[1];
	c.fail_on = o->fail_on;
	c.quiet = opts->quiet;
	/* -o, else beside NEW; known before the child is made, so that it can clean up */
	if (opts->outdir) {
		c.outdir = opts->outdir;
	} else {
		char *res = cmp_results_dir(c.new_arg);

		if (!res)
			return CMP_EXIT_ERROR;
		c.outdir = cmp_default_outdir(c.new_arg, res);
		free(res);
	}
	tmp = scratch_dir();
	if (!tmp)
		return CMP_EXIT_ERROR;
	ret = ffr_supervise(c.outdir, tmp, &child);
	if (!child)
		return ret;
	ffr_guard_install();
	ret = CMP_EXIT_ERROR;
	c.old = compare_side(opts, c.old_arg, tmp, "old");
	if (!c.old)
		goto out;
	c.new = compare_side(opts, c.new_arg, tmp, "new");
	if (!c.new || compare_analyse(&c))
		goto out;
	c.seconds = now() - t0;
	if (compare_write(&c))
		goto out;
	if (!c.quiet) {
		compare_print_summary(&c, stdout);
		printf("\n  compare: %s/index.html  (%.2f s)\n", c.outdir, now() - t0);
	}
	ret = c.failing ? CMP_EXIT_REGRESSION : CMP_EXIT_OK;
out:
	ffr_rm_rf(tmp);
	return ret;
}

int main(int argc, char **argv)
{
	struct report r = { 0 };
	struct options o;
	double t0 = now();
	bool child;
	int ret;

	ret = parse_options(&r, &o, argc, argv);
	if (ret >= 0)
		return ret;
	if (o.parse_only) {
		ffr_guard_install();
		return parse_only(o.nargs, o.args);
	}
	if (o.compare)
		return compare_mode(&r, &o);

	r.tmpdir = scratch_dir();
	if (!r.tmpdir)
		return 1;
	ret = ffr_supervise(r.outdir, r.tmpdir, &child);
	if (!child)
		return ret;
	ret = 1;
	ffr_guard_install();
	if (results_analyse(&r))
		goto out;
	if (write_report(&r))
		goto out;
	r.total_seconds = now() - t0;
	if (!r.quiet) {
		print_summary(&r, stdout);
		printf("\n  report: %s/index.html  (%.2f s: traces %.2f s, gcov %.2f s, rest %.2f s)\n",
		       r.outdir, r.total_seconds, r.trace_seconds, r.gcov_seconds,
		       r.total_seconds - r.trace_seconds - r.gcov_seconds);
	}
	ret = 0;
out:
	ffr_rm_rf(r.tmpdir);
	return ret;
}
