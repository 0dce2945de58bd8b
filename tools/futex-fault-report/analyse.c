// SPDX-License-Identifier: GPL-2.0
/*
 * From what was read to what the report shows, in one pass: the
 * campaign's coverage (every run summed), the totals per file and over
 * all files, each site's recovery path (what ran in its run and not in the
 * baseline), what each source line shows and which sites it names, the
 * outcome totals, the findings.  The renderers (report_json.c, html.c,
 * lcov.c, summary.c) only read what this leaves in struct report.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "errpath.h"
#include "findings.h"
#include "nth.h"
#include "report.h"
#include "util.h"

static bool ep_line(const struct srcfile *f, int ln)
{
	return ln <= f->nlines && f->errpath && (f->errpath[ln] & EP_ERROR) && !(f->errpath[ln] & EP_TEST);
}

bool srcfile_code_line(const struct srcfile *f, int ln)
{
	return ln >= 1 && ln <= f->maxline && f->has[ln];
}

bool srcfile_error_line(const struct srcfile *f, int ln)
{
	return ep_line(f, ln);
}

static bool ep_branch_line(const struct srcfile *f, int ln)
{
	return ln <= f->nlines && f->errpath && (f->errpath[ln] & (EP_ERROR | EP_TEST));
}

static void tally(struct tally *t, unsigned long long base, unsigned long long camp)
{
	t->total++;
	t->baseline += base > 0;
	t->campaign += camp > 0;
}

static void tally_add(struct tally *sum, const struct tally *t)
{
	sum->total += t->total;
	sum->baseline += t->baseline;
	sum->campaign += t->campaign;
}

static void file_totals(struct srcfile *f)
{
	struct covdata *b = &f->cov[0], *c = &f->campaign;
	struct totals *t = &f->totals;
	size_t i;
	int ln, a;

	memset(t, 0, sizeof(*t));
	for (ln = 1; ln <= f->maxline; ln++) {
		if (!f->has[ln])
			continue;
		tally(&t->lines, b->lines[ln], c->lines[ln]);
		if (ep_line(f, ln))
			tally(&t->error_lines, b->lines[ln], c->lines[ln]);
		for (a = 0; a < f->nbr[ln]; a++) {
			tally(&t->branches, b->br[ln][a], c->br[ln][a]);
			if (ep_branch_line(f, ln))
				tally(&t->error_branches, b->br[ln][a], c->br[ln][a]);
		}
	}
	for (i = 0; i < f->nfuncs; i++)
		tally(&t->functions, b->fn[i], c->fn[i]);
	t->error_lines_never = t->error_lines.total - t->error_lines.campaign;
	t->error_lines_injection_only = t->error_lines.campaign - t->error_lines.baseline;
}

static void sum_campaign(struct report *r, struct srcfile *f)
{
	size_t k, i;
	int ln, a;

	for (k = 0; k < r->nruns; k++) {
		struct covdata *cd = &f->cov[k];

		for (ln = 1; ln <= f->maxline; ln++) {
			f->campaign.lines[ln] += cd->lines[ln];
			for (a = 0; a < f->nbr[ln]; a++)
				f->campaign.br[ln][a] += cd->br[ln][a];
		}
		for (i = 0; i < f->nfuncs; i++)
			f->campaign.fn[i] += cd->fn[i];
	}
}

void analyse_coverage(struct report *r)
{
	struct totals *t = &r->totals;
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < r->nfiles; i++) {
		struct srcfile *f = &r->files[i];

		sum_campaign(r, f);
		file_totals(f);
		tally_add(&t->lines, &f->totals.lines);
		tally_add(&t->branches, &f->totals.branches);
		tally_add(&t->functions, &f->totals.functions);
		tally_add(&t->error_lines, &f->totals.error_lines);
		tally_add(&t->error_branches, &f->totals.error_branches);
	}
	t->error_lines_never = t->error_lines.total - t->error_lines.campaign;
	t->error_lines_injection_only = t->error_lines.campaign - t->error_lines.baseline;
}

/*
 * The lines run @run ran and the baseline did not, into @v (@n of them, @nerr
 * error-path lines); the branch arcs likewise into @nbr, if given
 */
static void beyond_baseline(struct report *r, int run, struct lineref **v, size_t *n,
			    size_t *cap, size_t *nerr, size_t *nbr)
{
	size_t fi;
	int ln, a;

	for (fi = 0; fi < r->nfiles; fi++) {
		struct srcfile *f = &r->files[fi];
		struct covdata *b = &f->cov[0], *c = &f->cov[run];

		for (ln = 1; ln <= f->maxline; ln++) {
			if (!f->has[ln])
				continue;
			if (c->lines[ln] && !b->lines[ln]) {
				grow(v, cap, *n + 1, sizeof(**v));
				(*v)[*n].file = fi;
				(*v)[*n].line = ln;
				(*v)[*n].error_path = ep_line(f, ln);
				*nerr += (*v)[*n].error_path;
				(*n)++;
			}
			for (a = 0; nbr && a < f->nbr[ln]; a++)
				*nbr += c->br[ln][a] && !b->br[ln][a];
		}
	}
}

/* a site's recovery path: what its run ran beyond the baseline */
static void recovery(struct report *r, struct site *s)
{
	if (s->run > 0)
		beyond_baseline(r, s->run, &s->recovery, &s->nrecovery, &s->caprecovery,
				&s->recovery_error_lines, &s->recovery_branches);
}

static int load_source(struct srcfile *f)
{
	size_t len;
	char *p;
	int n = 0, cap;

	f->text = read_file(f->abs, &len);
	if (!f->text)
		return ffr_error(f->abs, "cannot read the source the kernel was built from (--srctree?): %s",
				 strerror(errno));
	f->errpath = errpath_classify(f->text, len, &n);
	cap = n + 2;
	f->line_text = xcalloc(cap + 1, sizeof(*f->line_text));
	n = 0;
	for (p = f->text; *p; ) {
		char *e = strchr(p, '\n');

		f->line_text[++n] = p;
		if (!e)
			break;
		*e = '\0';
		p = e + 1;
	}
	f->nlines = n;
	if (f->maxline > n)
		return ffr_error(f->abs, "gcov knows line %d, the file has %d lines: source and build differ",
				 f->maxline, n);
	return 0;
}

static void add_index(size_t **arr, size_t *n, size_t v)
{
	*arr = xrealloc(*arr, (*n + 1) * sizeof(**arr));
	(*arr)[(*n)++] = v;
}

/* what each line of a source page shows, and the sites it names */
static void source_lines(struct report *r, size_t fi)
{
	struct srcfile *f = &r->files[fi];
	struct covdata *b = &f->cov[0];
	size_t i;
	int ln;

	f->nsrc_lines = f->nlines > f->maxline ? f->nlines : f->maxline;
	f->src_lines = xcalloc(f->nsrc_lines + 1, sizeof(*f->src_lines));
	for (ln = 1; ln <= f->nsrc_lines; ln++) {
		struct source_line *sl = &f->src_lines[ln];

		sl->error_path = ep_line(f, ln);
		if (ln > f->maxline || !f->has[ln])
			sl->kind = LINE_NOCODE;
		else if (b->lines[ln])
			sl->kind = LINE_BASELINE;
		else if (f->campaign.lines[ln])
			sl->kind = LINE_INJECTION;
		else
			sl->kind = sl->error_path ? LINE_ERROR_NEVER : LINE_NEVER;
	}
	for (i = 0; i < r->nsites; i++) {
		struct site *s = &r->sites[i];

		if (s->file_idx == (int)fi && s->line >= 1 && s->line <= f->nsrc_lines)
			add_index(&f->src_lines[s->line].sites, &f->src_lines[s->line].nsites, i);
		if (s->run <= 0)
			continue;
		/* the lines its run ran and the baseline did not: its recovery path */
		for (ln = 1; ln <= f->maxline; ln++)
			if (f->src_lines[ln].kind != LINE_NOCODE && !b->lines[ln] &&
			    f->cov[s->run].lines[ln])
				add_index(&f->src_lines[ln].reached_by,
					  &f->src_lines[ln].nreached, i);
	}
	/* and the runs with no site on (the races), by what they ran beyond it */
	for (i = 1; i < r->nruns; i++) {
		const struct run *rn = &r->runs[i];
		size_t k;

		for (k = 0; k < rn->nbeyond; k++)
			if ((size_t)rn->beyond[k].file == fi)
				add_index(&f->src_lines[rn->beyond[k].line].reached_by_run,
					  &f->src_lines[rn->beyond[k].line].nreached_run, i);
	}
}

static int cmp_task(const void *a, const void *b)
{
	const struct task_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->pid - y->pid;
}

/* the sites' and the runs' totals */
static void site_totals(struct report *r)
{
	size_t i;
	int k;

	memset(r->outcomes, 0, sizeof(r->outcomes));
	r->injected = r->sites_fired = r->sites_idle = 0;
	for (i = 0; i < r->nsites; i++) {
		struct site *s = &r->sites[i];

		for (k = 0; k < OC_NR; k++) {
			r->outcomes[k] += s->counts.oc[k];
			r->injected += s->counts.oc[k];
		}
		r->sites_fired += s->counts.fired > 0;
		r->sites_idle += !s->counts.fired && s->run <= 0;
		if (s->ntasks)
			qsort(s->tasks, s->ntasks, sizeof(*s->tasks), cmp_task);
	}
}

int analyse(struct report *r)
{
	size_t i, k, j;

	for (i = 0; i < r->nfiles; i++)
		if (load_source(&r->files[i]))
			return -1;
	analyse_coverage(r);
	if (sites_locate(r))
		return -1;
	for (i = 0; i < r->nsites; i++) {
		struct site *s = &r->sites[i];

		/* the first run that enables the site */
		for (k = 1; k < r->nruns && s->run < 0; k++)
			for (j = 0; j < r->runs[k].nenabled; j++)
				if (!strcmp(r->runs[k].enabled[j], s->name))
					s->run = k;
		recovery(r, s);
	}
	for (k = 1; k < r->nruns; k++)
		if (!r->runs[k].nenabled)
			beyond_baseline(r, k, &r->runs[k].beyond, &r->runs[k].nbeyond,
					&r->runs[k].capbeyond, &r->runs[k].beyond_error_lines, NULL);
	for (i = 0; i < r->nfiles; i++)
		source_lines(r, i);
	site_totals(r);
	if (findings_scan(r))
		return -1;
	/* (the shards of a campaign are of a campaign of site runs) */
	if (!r->nshards && r->results && nth_read(r->results, &r->nth))
		return -1;
	return 0;
}
