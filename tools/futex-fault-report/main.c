// SPDX-License-Identifier: GPL-2.0
/*
 * futex-fault-report - which futex error paths did fault injection
 * exercise, because of which site, with what result.
 *
 * Reads a campaign results directory (docs/results-layout.md: results.c,
 * trace_pool.c, gcov.c), analyses it once (analyse.c), and renders the
 * result as index.html and a page per source file (html.c), report.json
 * (report_json.c), lcov tracefiles (lcov.c) and a terminal summary
 * (summary.c).  The files appear only once all of them are written
 * (output_swap.c), and a crash leaves no half-made report (crash_guard.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
static char *scratch_dir(void)
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

int main(int argc, char **argv)
{
	struct report r = { 0 };
	struct options o;
	double t0 = now(), t1;
	bool child;
	int ret;

	ret = parse_options(&r, &o, argc, argv);
	if (ret >= 0)
		return ret;
	if (o.parse_only) {
		ffr_guard_install();
		return parse_only(o.nargs, o.args);
	}

	r.tmpdir = scratch_dir();
	if (!r.tmpdir)
		return 1;
	ret = ffr_supervise(r.outdir, r.tmpdir, &child);
	if (!child)
		return ret;
	ret = 1;
	ffr_guard_install();
	if (results_load(&r) || trace_read_runs(&r))
		goto out;
	t1 = now();
	r.trace_seconds = t1 - t0;
	if (cov_load(&r) || analyse(&r))
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
