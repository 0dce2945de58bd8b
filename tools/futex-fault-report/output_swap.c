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

/* write everything into <out>.tmp-PID, then swap it in */
int write_report(struct report *r)
{
	char *tmp = xasprintf("%s.tmp-%d", r->outdir, getpid());
	char *old = xasprintf("%s.old-%d", r->outdir, getpid());
	char *p;
	struct stat st;
	int ret = -1;

	if (mkdir(tmp, 0755)) {
		ffr_error(tmp, "%s", strerror(errno));
		goto out;
	}
	p = xasprintf("%s/report.json", tmp);
	ret = write_json(r, p);
	free(p);
	if (!ret)
		ret = write_html(r, tmp);
	if (!ret) {
		p = xasprintf("%s/campaign.info", tmp);
		ret = write_lcov(r, p, false);
		free(p);
	}
	if (!ret) {
		p = xasprintf("%s/baseline.info", tmp);
		ret = write_lcov(r, p, true);
		free(p);
	}
	if (ret) {
		ffr_rm_rf(tmp);
		goto out;
	}
	ret = -1;
	if (stat(r->outdir, &st) == 0) {
		if (!S_ISDIR(st.st_mode)) {
			ffr_error(r->outdir, "exists and is not a directory");
			ffr_rm_rf(tmp);
			goto out;
		}
		if (rename(r->outdir, old)) {
			ffr_error(r->outdir, "cannot move the old report away: %s", strerror(errno));
			ffr_rm_rf(tmp);
			goto out;
		}
	}
	if (rename(tmp, r->outdir)) {
		ffr_error(r->outdir, "%s", strerror(errno));
		rename(old, r->outdir);
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
