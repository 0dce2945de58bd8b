// SPDX-License-Identifier: GPL-2.0
/*
 * From the runs' coverage to what the report shows: the campaign's
 * coverage (every run summed), each site's recovery path (what ran in its
 * run and not in the baseline), and the totals over the error paths.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "errpath.h"
#include "report.h"
#include "findings.h"
#include "util.h"

static bool ep_line(const struct srcfile *f, int ln)
{
	return ln <= f->nlines && f->ep && (f->ep[ln] & EP_ERROR) && !(f->ep[ln] & EP_TEST);
}

static bool ep_branch_line(const struct srcfile *f, int ln)
{
	return ln <= f->nlines && f->ep && (f->ep[ln] & (EP_ERROR | EP_TEST));
}

void file_totals(struct report *r, struct srcfile *f, struct totals *t)
{
	struct covdata *b = &f->cov[0], *c = &f->campaign;
	size_t i;
	int ln, a;

	(void)r;
	for (ln = 1; ln <= f->maxline; ln++) {
		if (!f->has[ln])
			continue;
		t->lines++;
		t->lines_base += b->lines[ln] > 0;
		t->lines_camp += c->lines[ln] > 0;
		if (ep_line(f, ln)) {
			t->ep_lines++;
			t->ep_base += b->lines[ln] > 0;
			t->ep_camp += c->lines[ln] > 0;
		}
		for (a = 0; a < f->nbr[ln]; a++) {
			t->branches++;
			t->br_base += b->br[ln][a] > 0;
			t->br_camp += c->br[ln][a] > 0;
			if (ep_branch_line(f, ln)) {
				t->ep_branches++;
				t->ep_br_base += b->br[ln][a] > 0;
				t->ep_br_camp += c->br[ln][a] > 0;
			}
		}
	}
	for (i = 0; i < f->nfuncs; i++) {
		t->functions++;
		t->fn_base += b->fn[i] > 0;
		t->fn_camp += c->fn[i] > 0;
	}
}

void all_totals(struct report *r, struct totals *t)
{
	size_t i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < r->nfiles; i++)
		file_totals(r, &r->files[i], t);
}

size_t sites_fired(struct report *r)
{
	size_t i, n = 0;

	for (i = 0; i < r->nsites; i++)
		n += r->sites[i].fired > 0;
	return n;
}

void outcome_totals(struct report *r, unsigned long long oc[OC_NR])
{
	size_t i;
	int k;

	memset(oc, 0, sizeof(*oc) * OC_NR);
	for (i = 0; i < r->nsites; i++)
		for (k = 0; k < OC_NR; k++)
			oc[k] += r->sites[i].oc[k];
}

size_t line_sites(struct report *r, int file, int line, struct site **out, size_t max)
{
	struct srcfile *f = &r->files[file];
	size_t i, n = 0;

	if (line > f->maxline || !f->has[line] || f->cov[0].lines[line])
		return 0;
	for (i = 0; i < r->nsites && n < max; i++) {
		struct site *s = &r->sites[i];

		if (s->run > 0 && f->cov[s->run].lines[line] > 0)
			out[n++] = s;
	}
	return n;
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

static void recovery(struct report *r, struct site *s)
{
	size_t fi;
	int ln, a;

	if (s->run <= 0)
		return;
	for (fi = 0; fi < r->nfiles; fi++) {
		struct srcfile *f = &r->files[fi];
		struct covdata *b = &f->cov[0], *c = &f->cov[s->run];

		for (ln = 1; ln <= f->maxline; ln++) {
			if (!f->has[ln])
				continue;
			if (c->lines[ln] && !b->lines[ln]) {
				grow(&s->rec, &s->caprec, s->nrec + 1, sizeof(*s->rec));
				s->rec[s->nrec].file = fi;
				s->rec[s->nrec].line = ln;
				s->nrec++;
				s->rec_error += ep_line(f, ln);
			}
			for (a = 0; a < f->nbr[ln]; a++)
				s->rec_branches += c->br[ln][a] && !b->br[ln][a];
		}
	}
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
	f->ep = errpath_classify(f->text, len, &n);
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

int analyse(struct report *r)
{
	size_t i, k, j;

	for (i = 0; i < r->nfiles; i++) {
		if (load_source(&r->files[i]))
			return -1;
		sum_campaign(r, &r->files[i]);
	}
	for (i = 0; i < r->nsites; i++) {
		struct site *s = &r->sites[i];

		for (k = 0; k < r->nfiles; k++)
			if (!strcmp(r->files[k].rel, s->file))
				s->file_idx = k;
		site_locate(r, s);
		/* the first run that enables the site */
		for (k = 1; k < r->nruns && s->run < 0; k++)
			for (j = 0; j < r->runs[k].nenabled; j++)
				if (!strcmp(r->runs[k].enabled[j], s->name))
					s->run = k;
		recovery(r, s);
	}
	return findings_scan(r);
}
