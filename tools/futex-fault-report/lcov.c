// SPDX-License-Identifier: GPL-2.0
/* The lcov tracefiles: campaign.info and baseline.info. */
#include <errno.h>
#include <string.h>

#include "report.h"
#include "util.h"

/*
 * lcov tracefile (geninfo(1) format) of one run's coverage, or of the
 * campaign (run -1): TN, SF, FN/FNDA, BRDA, DA, summaries, end_of_record.
 */
int write_lcov(struct report *r, const char *path, int run)
{
	FILE *f = fopen(path, "w");
	size_t i, k;

	if (!f)
		return ffr_error(path, "%s", strerror(errno));
	for (i = 0; i < r->nfiles; i++) {
		struct srcfile *sf = &r->files[i];
		struct covdata *cd = run < 0 ? &sf->campaign : &sf->cov[run];
		size_t fnh = 0, brf = 0, brh = 0, lf = 0, lh = 0;
		int ln, a;

		fprintf(f, "TN:%s\nSF:%s\n", run < 0 ? "campaign" : r->runs[run].name, sf->abs);
		for (k = 0; k < sf->nfuncs; k++)
			fprintf(f, "FN:%d,%s\n", sf->funcs[k].start, sf->funcs[k].name);
		for (k = 0; k < sf->nfuncs; k++) {
			fprintf(f, "FNDA:%llu,%s\n", cd->fn[k], sf->funcs[k].name);
			fnh += cd->fn[k] > 0;
		}
		fprintf(f, "FNF:%zu\nFNH:%zu\n", sf->nfuncs, fnh);
		for (ln = 1; ln <= sf->maxline; ln++) {
			for (a = 0; a < sf->nbr[ln]; a++) {
				/* "-": the line never ran, so its branches were never evaluated */
				if (cd->lines[ln])
					fprintf(f, "BRDA:%d,0,%d,%llu\n", ln, a, cd->br[ln][a]);
				else
					fprintf(f, "BRDA:%d,0,%d,-\n", ln, a);
				brf++;
				brh += cd->br[ln][a] > 0;
			}
		}
		fprintf(f, "BRF:%zu\nBRH:%zu\n", brf, brh);
		for (ln = 1; ln <= sf->maxline; ln++) {
			if (!sf->has[ln])
				continue;
			fprintf(f, "DA:%d,%llu\n", ln, cd->lines[ln]);
			lf++;
			lh += cd->lines[ln] > 0;
		}
		fprintf(f, "LF:%zu\nLH:%zu\nend_of_record\n", lf, lh);
	}
	return output_close(f, path);
}
