// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: a trace.dat through the reporter's trace path, as a run's
 * trace: tracedat.c (header, options, sections, zstd chunks, ring-buffer
 * pages), the event formats and command lines through libtraceevent, the
 * per-record path, the outcome engine, site mapping, comm and caller names,
 * and the merge into the report.
 *
 * Only what tracedat.c reads: a trace it leaves to libtracecmd (version 6,
 * zlib, big-endian) is skipped, as libtracecmd is not ours to fix (nor
 * built with the sanitizers) and its fallback forks "trace-cmd convert".
 * The input is read from memory, so ASan sees a read past its end.
 *
 * libtraceevent 1.7.1's print fmt parser dereferences NULL on some
 * malformed argument lists (README.md): tep_parse_event() is wrapped
 * (-Wl,--wrap) to pass it only the print fmts of the fixture's traces; a
 * format with another is refused as one that does not parse.  The field
 * declarations, which tracedat.c checks itself, still vary.
 */
#include <glob.h>

#include "fuzz.h"

#include "../trace.c"

static struct report r;
static size_t caller_job[1024];

static char **known;		/* print fmts seen in the fixture */
static size_t nknown, capknown;
static bool learning;

enum tep_errno __real_tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
				      const char *sys);
enum tep_errno __wrap_tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
				      const char *sys);

enum tep_errno __wrap_tep_parse_event(struct tep_handle *tep, const char *buf, unsigned long size,
				      const char *sys)
{
	const char *fmt = memmem(buf, size, "\nprint fmt:", 11);
	size_t len = fmt ? buf + size - fmt : 0, i;

	if (!fmt)
		return TEP_ERRNO__READ_FORMAT_FAILED;
	for (i = 0; i < nknown; i++)
		if (strlen(known[i]) == len && !memcmp(known[i], fmt, len))
			return __real_tep_parse_event(tep, buf, size, sys);
	if (!learning)
		return TEP_ERRNO__READ_PRINT_FAILED;
	grow(&known, &capknown, nknown + 1, sizeof(*known));
	known[nknown++] = xstrndup(fmt, len);
	return __real_tep_parse_event(tep, buf, size, sys);
}

/* read the fixture's traces once, learning their print fmts */
static void learn(void)
{
	glob_t g;
	size_t i;

	if (glob(fuzz_fixture("runs/*/trace.dat"), 0, NULL, &g))
		abort();
	learning = true;
	for (i = 0; i < g.gl_pathc; i++) {
		struct tctx t = { .r = &r, .path = g.gl_pathv[i], .bad_site = -1 };
		struct trace_job job = { .run = 0 };
		struct tdat d;

		t.ps = xcalloc(r.nsites, sizeof(*t.ps));
		if (tdat_open(&d, t.path) || read_tdat(&t, &d))
			abort();
		tdat_close(&d);
		free(t.site_map);
		free(t.bad_name);
		job.sites = t.ps;
		sb_init(&job.msg);
		free_job(&r, &job);
	}
	learning = false;
	globfree(&g);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	tep_set_loglevel(TEP_LOG_NONE);
	r.runs = xcalloc(1, sizeof(*r.runs));
	r.runs[0].name = "baseline";
	r.runs[0].dir = "fuzz";
	r.runs[0].status = "ok";
	r.nruns = 1;
	if (sites_load(&r, fuzz_fixture("runs/baseline/sites.txt")) ||
	    r.nsites > ARRAY_SIZE(caller_job))
		abort();
	learn();
	return 0;
}

/* back to the sites as loaded */
static void reset_sites(void)
{
	size_t i, k;

	for (i = 0; i < r.nsites; i++) {
		struct site *s = &r.sites[i];

		for (k = 0; k < s->ntasks; k++)
			free(s->tasks[k].comm);
		free(s->errors);
		free(s->ops);
		free(s->tasks);
		free(s->caller_sym);
		s->fired = 0;
		memset(s->oc, 0, sizeof(s->oc));
		s->errors = NULL;
		s->nerrors = s->caperrors = 0;
		s->ops = NULL;
		s->nops = s->capops = 0;
		s->tasks = NULL;
		s->ntasks = s->captasks = 0;
		s->caller = 0;
		s->caller_sym = NULL;
	}
	r.runs[0].injects = r.runs[0].records = r.runs[0].lost = 0;
	r.events = 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tctx t = { .r = &r, .path = "fuzz.dat", .bad_site = -1 };
	struct trace_job job = { .run = 0 };
	struct strbuf msg;
	struct ksyms *ks;
	struct tdat d;
	int ret;

	sb_init(&msg);
	ffr_msg_capture(&msg);
	t.ps = xcalloc(r.nsites, sizeof(*t.ps));
	ret = tdat_open_mem(&d, t.path, data, size);
	if (ret == 0) {
		ret = read_tdat(&t, &d);
		tdat_close(&d);
	}
	free(t.site_map);
	free(t.bad_name);
	job.sites = t.ps;
	job.records = t.records;
	job.injects = t.injects;
	job.lost = t.lost;
	if (ret == 0)
		merge_job(&r, &job, 0, caller_job);
	sb_init(&job.msg);
	free_job(&r, &job);
	reset_sites();
	/* keep the parsed kallsyms of the seeds, not those of every mutant */
	for (ret = 0, ks = ksyms_cache; ks; ks = ks->next)
		ret++;
	if (ret > 4)
		ksyms_free();
	ffr_msg_capture(NULL);
	sb_free(&msg);
	return 0;
}
