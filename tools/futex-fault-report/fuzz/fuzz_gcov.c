// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: gcov's JSON output ("gcov -t -j -b", one document a line)
 * through gcov.c's reader, as the baseline's (which defines the structure:
 * files, lines, branch arcs, functions) and as a second run's (checked
 * against it), then the coverage part of the analysis (the campaign's
 * sums and the totals) and the lcov writer.
 *
 * The input is the baseline's output; a line holding only a form feed
 * splits it, the rest being the second run's (without one, the second run
 * gets the same text).
 */
#include "fuzz.h"

#include "../gcov.c"

static struct report r;
static struct job jobs[2];
static char *gcov_dirs[] = { "kernel/futex" };

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	char *dir = fuzz_scratch("gcov");
	int i;

	(void)argc;
	(void)argv;
	r.srctree = "/nonexistent/src";
	r.gcov_dirs = gcov_dirs;
	r.ndirs = 1;
	r.exclude = xcalloc(1, sizeof(*r.exclude));
	r.exclude[r.nexclude++] = "fault.c";
	r.runs = xcalloc(2, sizeof(*r.runs));
	r.nruns = 2;
	if (mkdir(dir, 0700) && errno != EEXIST)
		abort();
	for (i = 0; i < 2; i++) {
		r.runs[i].name = i ? "run" : "baseline";
		r.runs[i].dir = i ? "fuzz/runs/run" : "fuzz/runs/baseline";
		r.runs[i].status = "ok";
		jobs[i].run = i;
		jobs[i].dir = xasprintf("%s/run-%d", dir, i);
		if (mkdir(jobs[i].dir, 0700) && errno != EEXIST)
			abort();
	}
	return 0;
}

static void free_cov(struct srcfile *f, struct covdata *cd)
{
	int ln;

	for (ln = 0; cd->br && ln <= f->maxline; ln++)
		free(cd->br[ln]);
	free(cd->br);
	free(cd->lines);
	free(cd->fn);
}

static void reset_files(void)
{
	size_t i, k;

	for (i = 0; i < r.nfiles; i++) {
		struct srcfile *f = &r.files[i];

		for (k = 0; k < r.nruns; k++)
			free_cov(f, &f->cov[k]);
		free_cov(f, &f->campaign);
		for (k = 0; k < f->nfuncs; k++)
			free(f->funcs[k].name);
		free(f->funcs);
		free(f->cov);
		free(f->has);
		free(f->nbr);
		free(f->rel);
		free(f->abs);
		free(f->page);
	}
	free(r.files);
	r.files = NULL;
	r.nfiles = r.capfiles = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *split = NULL, *p;
	struct strbuf msg;
	char *path;
	int i;

	for (p = data; p + 3 <= data + size; p++)
		if (p[0] == '\n' && p[1] == '\f' && p[2] == '\n') {
			split = p;
			break;
		}
	for (i = 0; i < 2; i++) {
		path = xasprintf("%s/gcov.json", jobs[i].dir);
		if (!split)
			fuzz_write(path, data, size);
		else if (i == 0)
			fuzz_write(path, data, split + 1 - data);
		else
			fuzz_write(path, split + 3, data + size - split - 3);
		free(path);
	}
	sb_init(&msg);
	ffr_msg_capture(&msg);
	if (!parse_run(&r, 0, &jobs[0]) && !parse_run(&r, 1, &jobs[1])) {
		analyse_coverage(&r);
		write_lcov(&r, "/dev/null", true);
		write_lcov(&r, "/dev/null", false);
	}
	ffr_msg_capture(NULL);
	sb_free(&msg);
	reset_files();
	return 0;
}
