// SPDX-License-Identifier: GPL-2.0
/* The lcov tracefiles: campaign.info and baseline.info. */
#include <errno.h>
#include <string.h>

#include "report.h"
#include "util.h"

/*
 * lcov tracefile (geninfo(1) format) of the baseline's coverage or of the
 * campaign's: TN, SF, FN/FNDA, BRDA, DA, summaries, end_of_record.
 */
int write_lcov(const struct report *r, const char *path, bool baseline)
{
	FILE *f = fopen(path, "w");
	size_t i, k;

	if (!f)
		return ffr_error(path, "%s", strerror(errno));
	for (i = 0; i < r->nfiles; i++) {
		const struct srcfile *sf = &r->files[i];
		const struct covdata *cd = baseline ? &sf->cov[0] : &sf->campaign;
		const struct totals *t = &sf->totals;
		int ln, a;

		fprintf(f, "TN:%s\nSF:%s\n", baseline ? r->runs[0].name : "campaign", sf->abs);
		for (k = 0; k < sf->nfuncs; k++)
			fprintf(f, "FN:%d,%s\n", sf->funcs[k].start, sf->funcs[k].name);
		for (k = 0; k < sf->nfuncs; k++)
			fprintf(f, "FNDA:%llu,%s\n", cd->fn[k], sf->funcs[k].name);
		fprintf(f, "FNF:%zu\nFNH:%zu\n", t->functions.total,
			baseline ? t->functions.baseline : t->functions.campaign);
		for (ln = 1; ln <= sf->maxline; ln++) {
			for (a = 0; a < sf->nbr[ln]; a++) {
				/* "-": the line never ran, so its branches were never evaluated */
				if (cd->lines[ln])
					fprintf(f, "BRDA:%d,0,%d,%llu\n", ln, a, cd->br[ln][a]);
				else
					fprintf(f, "BRDA:%d,0,%d,-\n", ln, a);
			}
		}
		fprintf(f, "BRF:%zu\nBRH:%zu\n", t->branches.total,
			baseline ? t->branches.baseline : t->branches.campaign);
		for (ln = 1; ln <= sf->maxline; ln++)
			if (sf->has[ln])
				fprintf(f, "DA:%d,%llu\n", ln, cd->lines[ln]);
		fprintf(f, "LF:%zu\nLH:%zu\nend_of_record\n", t->lines.total,
			baseline ? t->lines.baseline : t->lines.campaign);
	}
	return output_close(f, path);
}
