// SPDX-License-Identifier: GPL-2.0
/*
 * The report appears whole or not at all: every file is written into
 * <out>.tmp-PID beside the output directory, then an older report is
 * renamed to <out>.old-PID, the new one renamed into place and the old one
 * removed.  An error on the way removes the new one and puts the old one
 * back; crash_guard.c does the same when the process making the report
 * dies.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"
#include "util.h"

int output_close(FILE *f, const char *path)
{
	int err = ferror(f);

	if (fclose(f) || err)
		return ffr_error(path, "write error: %s", strerror(errno ? errno : EIO));
	return 0;
}

/* the report's files: report.json, the faults, the pages, the lcov tracefiles */
static int fill_report(void *ctx, const char *dir)
{
	struct report *r = ctx;
	char *p;
	int ret;

	p = xasprintf("%s/report.json", dir);
	ret = write_json(r, p);
	free(p);
	if (!ret)
		ret = write_faults(r, dir);
	if (!ret)
		ret = write_html(r, dir);
	if (!ret) {
		p = xasprintf("%s/campaign.info", dir);
		ret = write_lcov(r, p, false);
		free(p);
	}
	if (!ret) {
		p = xasprintf("%s/baseline.info", dir);
		ret = write_lcov(r, p, true);
		free(p);
	}
	return ret;
}

int write_report(struct report *r)
{
	return output_swap(r->outdir, fill_report, r);
}

/* write everything into <out>.tmp-PID, then swap it in */
int output_swap(const char *outdir, int (*fill)(void *ctx, const char *dir), void *ctx)
{
	char *tmp = xasprintf("%s.tmp-%d", outdir, getpid());
	char *old = xasprintf("%s.old-%d", outdir, getpid());
	struct stat st;
	int ret = -1;

	if (mkdir(tmp, 0755)) {
		ffr_error(tmp, "%s", strerror(errno));
		goto out;
	}
	ret = fill(ctx, tmp);
	if (ret) {
		ffr_rm_rf(tmp);
		goto out;
	}
	ret = -1;
	if (stat(outdir, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			ffr_error(outdir, "exists and is not a directory");
			ffr_rm_rf(tmp);
			goto out;
		}
		if (rename(outdir, old)) {
			ffr_error(outdir, "cannot move the old output away: %s", strerror(errno));
			ffr_rm_rf(tmp);
			goto out;
		}
	}
	if (rename(tmp, outdir)) {
		ffr_error(outdir, "%s", strerror(errno));
		rename(old, outdir);
		ffr_rm_rf(tmp);
		goto out;
	}
	ffr_rm_rf(old);
	ret = 0;
out:
	free(tmp);
	free(old);
	return ret;
}
