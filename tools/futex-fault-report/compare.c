// SPDX-License-Identifier: GPL-2.0
/*
 * Two campaigns compared: OLD (the baseline of the comparison, lcov's
 * "baseline") and NEW, each read and analysed as for a report.
 *
 * - Sites are matched by name, so a 6.1 and a 6.12 campaign compare.
 * - Source files are matched by their path in the tree; within a file the
 *   lines are matched by content, never by number: a longest common
 *   subsequence of the two files' lines, each keyed on its innermost
 *   function and its text with whitespace collapsed.  Lines of different
 *   functions never match, and a blank line or a comment inserted above an
 *   error path only shifts the lines below it.
 * - Each error-path line (errpath.c, on either side) gets one of lcov's
 *   differential coverage categories, coverage being the campaign's (every
 *   run summed).
 * - The regressions are found and checked against --fail-on.
 *
 * The definitions are in README.md ("Compare mode").
 */
#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "compare.h"
#include "findings.h"
#include "util.h"

const char *const cmp_cat_names[CAT_NR] = {
#define CMP_CAT(name, text)	[CAT_##name] = #name,
	CMP_CATEGORIES
#undef CMP_CAT
};

const char *const cmp_cat_text[CAT_NR] = {
#define CMP_CAT(name, text)	[CAT_##name] = text,
	CMP_CATEGORIES
#undef CMP_CAT
};

const char *const cmp_reg_names[REG_NR] = {
#define CMP_REG(id, name, dflt)	[REG_##id] = name,
	CMP_REGRESSIONS
#undef CMP_REG
};

const unsigned int cmp_fail_on_default = 0
#define CMP_REG(id, name, dflt)	| (dflt ? 1u << REG_##id : 0)
	CMP_REGRESSIONS
#undef CMP_REG
	;

/* --fail-on's masks */
static_assert(REG_NR < 32, "too many regression categories for an unsigned int mask");

int cmp_parse_fail_on(const char *list, unsigned int *mask)
{
	char *copy = xstrdup(list), *tok, *save = NULL;
	int k, ret = 0;

	*mask = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "all")) {
			*mask = (1u << REG_NR) - 1;
			continue;
		}
		if (!strcmp(tok, "none"))
			continue;
		for (k = 0; k < REG_NR && strcmp(tok, cmp_reg_names[k]); k++)
			;
		if (k == REG_NR) {
			fprintf(stderr, "futex-fault-report: --fail-on: unknown category '%s' (known:", tok);
			for (k = 0; k < REG_NR; k++)
				fprintf(stderr, " %s,", cmp_reg_names[k]);
			fputs(" all, none)\n", stderr);
			ret = -1;
			break;
		}
		*mask |= 1u << k;
	}
	free(copy);
	return ret;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

static bool has_file(const char *dir, const char *name)
{
	char *p = xasprintf("%s/%s", dir, name);
	struct stat st;
	bool ret = !stat(p, &st) && S_ISREG(st.st_mode);

	free(p);
	return ret;
}

/* a report directory: the results directory its report.json names */
static char *report_results(const char *dir)
{
	char *path = xasprintf("%s/report.json", dir), *ret = NULL;
	const char *schema, *results;
	json_error_t err;
	json_t *root;

	root = json_load_file(path, 0, &err);
	if (!root) {
		ffr_error(path, "not valid JSON: line %d column %d: %s", err.line, err.column,
			  err.text);
		goto out;
	}
	schema = json_string_value(json_object_get(root, "schema"));
	results = json_string_value(json_object_get(root, "results"));
	if (!schema || strcmp(schema, FFR_SCHEMA)) {
		ffr_error(path, "not a futex-fault-report report: \"schema\" is not \"%s\"", FFR_SCHEMA);
	} else if (!results) {
		ffr_error(path, "no \"results\": which results directory it reports");
	} else if (!is_dir(results) || !has_file(results, "campaign.json")) {
		ffr_error(path, "names the results directory %s, which is not one (no campaign.json): compare the results directories",
			  results);
	} else {
		ret = xstrdup(results);
	}
	json_decref(root);
out:
	free(path);
	return ret;
}

char *cmp_results_dir(const char *arg)
{
	if (!is_dir(arg)) {
		ffr_error(arg, "%s", errno == ENOENT || !errno ? "no such directory" : strerror(errno));
		return NULL;
	}
	if (has_file(arg, "campaign.json"))
		return xstrdup(arg);
	if (has_file(arg, "report.json"))
		return report_results(arg);
	ffr_error(arg, "neither a results directory (campaign.json) nor a report directory (report.json)");
	return NULL;
}

char *cmp_default_outdir(const char *new_arg, const char *new_results)
{
	(void)new_arg;
	return xasprintf("%s/compare", new_results);
}

/* ------------------------------------------------------------ sites */

static struct cmp_site *add_site(struct compare *c, const char *name)
{
	struct cmp_site *cs;

	grow(&c->sites, &c->capsites, c->nsites + 1, sizeof(*c->sites));
	cs = &c->sites[c->nsites++];
	memset(cs, 0, sizeof(*cs));
	cs->name = name;
	return cs;
}

static void add_regression(struct compare *c, enum cmp_reg kind, const char *site,
			   const char *title, int file, size_t line)
{
	struct cmp_regression *g;

	grow(&c->regs, &c->capregs, c->nregs + 1, sizeof(*c->regs));
	g = &c->regs[c->nregs++];
	g->kind = kind;
	g->site = site;
	g->title = title;
	g->file = file;
	g->line = line;
	g->fails = c->fail_on & (1u << kind);
	c->reg_count[kind]++;
	c->failing += g->fails;
}

/*
 * outcome-worse, for a site that fired in both: a kind of ending that
 * OLD never had for it is there in NEW, namely
 *   - noreturn (a call that never returned: the task died in it, or hung),
 *   - exit (the fault now hits outside a system call or in exit()),
 *   - error, when every fault of OLD with a known outcome was recovered
 *     (the kernel used to retry or fall back; now user space sees an error);
 * or OLD recovered some of its faults and NEW none (a retry or fallback that
 * no longer happens, where OLD also had errors: those of a call that failed
 * for its own reason after the recovery, or of a run that failed the
 * recovery too, such as a fault-in site's).
 * Counts alone are not compared: they follow each run's policy interval.
 */
static char *outcome_worse(const struct site *o, const struct site *n)
{
	const unsigned long long *a = o->counts.oc, *b = n->counts.oc;
	struct strbuf sb;
	int k;

	sb_init(&sb);
	if (!o->counts.fired || !n->counts.fired)
		return NULL;
	for (k = 0; k < OC_NR; k++) {
		bool worse;

		switch (k) {
		case OC_NORETURN:
		case OC_EXIT:
			worse = !a[k] && b[k];
			break;
		case OC_ERROR:
			worse = !a[k] && a[OC_RECOVERED] && !a[OC_EXIT] && !a[OC_NORETURN] && b[k];
			break;
		default:
			worse = false;
		}
		if (worse)
			sb_printf(&sb, "%s%s 0 -> %llu", sb.len ? ", " : "", oc_names[k], b[k]);
	}
	if (sb.len)
		sb_printf(&sb, " (recovered %llu -> %llu)", a[OC_RECOVERED], b[OC_RECOVERED]);
	else if (a[OC_RECOVERED] && !b[OC_RECOVERED] && b[OC_ERROR])
		sb_printf(&sb, "recovered %llu -> 0 (error %llu -> %llu)", a[OC_RECOVERED],
			  a[OC_ERROR], b[OC_ERROR]);
	return sb.buf;
}

/*
 * errno-changed: a site whose own run, in NEW, returns to user space an
 * errno that its own run in OLD never did: an error path that now reports
 * another error (-EINVAL where it was -EFAULT).  Its own run only: a site
 * also fires in the runs of sites reached after it (wake_op_atomic in
 * wake_op_fault_in's, where the fault-in fails too), which a campaign of
 * fewer sites does not have.  Not one stray value either: the new errno
 * must be at least ERRNO_MIN_COUNT of the run's errors of the site and at
 * least 1 in ERRNO_MIN_SHARE of them.  A site whose faults hit calls that
 * then fail for their own reasons returns the errnos of whichever calls its
 * interval hits: in the full 6.1 campaign, 43 of the 44 sites whose own run
 * returns errors return one errno, and lock_pi_atomic_get_value returns
 * five, the smallest 1 and 2 of its 18 (EAGAIN once; EPERM and EINVAL
 * twice).  An error path that returns a wrong errno changes all the errors
 * that come through it.
 */
#define ERRNO_MIN_COUNT	2
#define ERRNO_MIN_SHARE	5

/* the errnos a site's faults returned in its own run: errno -> count */
static size_t own_errors(const struct report *r, const struct site *s, struct kv **out)
{
	const struct run *rn;
	size_t k, n = 0, cap = 0;

	*out = NULL;
	if (s->run < 0)
		return 0;
	rn = &r->runs[s->run];
	for (k = 0; k < rn->nfaults; k++) {
		const struct fault *f = &rn->faults[k];

		if (f->oc == OC_ERROR && &r->sites[f->site] == s)
			site_count(out, &n, &cap, f->ret == LONG_MIN ? LONG_MAX : -f->ret, 1);
	}
	return n;
}

static unsigned long long count_of(const struct kv *kv, size_t n, long key)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (kv[k].key == key)
			return kv[k].count;
	return 0;
}

static char *errno_changed(const struct compare *c, const struct site *o, const struct site *n)
{
	unsigned long long total = 0;
	struct kv *a, *b;
	size_t na, nb, k;
	struct strbuf sb;

	if (!o->counts.fired || !n->counts.fired)
		return NULL;
	na = own_errors(c->old, o, &a);
	nb = own_errors(c->new, n, &b);
	for (k = 0; k < nb; k++)
		total += b[k].count;
	sb_init(&sb);
	for (k = 0; k < nb; k++) {
		if (count_of(a, na, b[k].key) || b[k].count < ERRNO_MIN_COUNT ||
		    b[k].count * ERRNO_MIN_SHARE < total)
			continue;
		sb_printf(&sb, "%s%s 0 -> %llu", sb.len ? ", " : "",
			  errno_name((int)b[k].key), b[k].count);
	}
	if (sb.len) {
		/* what OLD's run returned instead */
		sb_printf(&sb, " (its run in OLD:");
		for (k = 0; k < na; k++)
			sb_printf(&sb, " %s %llu -> %llu", errno_name((int)a[k].key), a[k].count,
				  count_of(b, nb, a[k].key));
		sb_printf(&sb, "%s)", na ? "" : " no errors");
	}
	free(a);
	free(b);
	return sb.len ? sb.buf : NULL;
}

static void compare_sites(struct compare *c)
{
	size_t i;

	for (i = 0; i < c->new->nsites; i++) {
		struct cmp_site *cs = add_site(c, c->new->sites[i].name);

		cs->new = &c->new->sites[i];
		cs->old = site_find(c->old, cs->name);
	}
	for (i = 0; i < c->old->nsites; i++)
		if (!site_find(c->new, c->old->sites[i].name))
			add_site(c, c->old->sites[i].name)->old = &c->old->sites[i];

	for (i = 0; i < c->nsites; i++) {
		struct cmp_site *cs = &c->sites[i];

		if (!cs->old || !cs->new)
			continue;
		if (cs->old->counts.fired && !cs->new->counts.fired) {
			cs->regs |= 1u << REG_STOPPED;
			add_regression(c, REG_STOPPED, cs->name, NULL, -1, 0);
		}
		cs->detail = outcome_worse(cs->old, cs->new);
		if (cs->detail) {
			cs->regs |= 1u << REG_OUTCOME;
			add_regression(c, REG_OUTCOME, cs->name, NULL, -1, 0);
		}
		cs->errno_detail = errno_changed(c, cs->old, cs->new);
		if (cs->errno_detail) {
			cs->regs |= 1u << REG_ERRNO;
			add_regression(c, REG_ERRNO, cs->name, NULL, -1, 0);
		}
	}
}

/* ------------------------------------------------------------ findings */

static void compare_findings(struct compare *c)
{
	const struct findings *of = c->old->findings, *nf = c->new->findings;
	size_t i, k;

	for (i = 0; nf && i < nf->n; i++) {
		const struct finding *fd = &nf->f[i];
		const struct run *rn = &c->new->runs[fd->run];
		bool seen = false;

		for (k = 0; of && k < of->n && !seen; k++)
			seen = !strcmp(c->old->runs[of->f[k].run].name, rn->name) &&
			       !strcmp(of->f[k].reps[0].key, fd->reps[0].key);
		if (seen)
			continue;
		grow(&c->findings, &c->capfindings, c->nfindings + 1, sizeof(*c->findings));
		c->findings[c->nfindings].fd = fd;
		c->findings[c->nfindings].run = rn;
		c->nfindings++;
		if (!rn->nenabled)
			add_regression(c, REG_FINDING, NULL, fd->reps[0].title, -1, 0);
		for (k = 0; k < rn->nenabled; k++) {
			size_t s;

			for (s = 0; s < c->nsites; s++)
				if (!strcmp(c->sites[s].name, rn->enabled[k]))
					c->sites[s].regs |= 1u << REG_FINDING;
			add_regression(c, REG_FINDING, rn->enabled[k], fd->reps[0].title, -1, 0);
		}
	}
}

/* ------------------------------------------------------------ workloads */

static const struct run *run_find(const struct report *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nruns; i++)
		if (!strcmp(r->runs[i].name, name))
			return &r->runs[i];
	return NULL;
}

static const struct workload *workload_find(const struct run *rn, const char *name)
{
	size_t i;

	for (i = 0; i < rn->nwl; i++)
		if (!strcmp(rn->wl[i].name, name))
			return &rn->wl[i];
	return NULL;
}

/*
 * workload-failed: in a run of both campaigns, a workload that checks what
 * the kernel gives it (run.json's "checks": futex_drive) exited 0 in OLD
 * and does not in NEW.  Such a workload takes injected errors as they come;
 * it fails when a scenario hangs (its watchdog kills it) or sees a result
 * the futex contract forbids (a wakeup lost), or when the campaign kills it
 * at its timeout.  One that failed in OLD already says nothing of the change.
 */
static void compare_workloads(struct compare *c)
{
	size_t i, k, j, s;

	for (i = 0; i < c->new->nruns; i++) {
		const struct run *rn = &c->new->runs[i], *ro = run_find(c->old, rn->name);

		for (k = 0; ro && k < rn->nwl; k++) {
			const struct workload *w = &rn->wl[k], *ow = workload_find(ro, w->name);
			char *what;

			if (!w->checks || !w->has_status || !w->exit_status || !ow ||
			    !ow->has_status || ow->exit_status)
				continue;
			if (w->exit_status < 0)
				what = xasprintf("run %s: workload %s killed by signal %d (exit status 0 in OLD)",
						 rn->name, w->name, -w->exit_status);
			else
				what = xasprintf("run %s: workload %s exited %d (0 in OLD)", rn->name,
						 w->name, w->exit_status);
			if (!rn->nenabled)
				add_regression(c, REG_WORKLOAD, NULL, what, -1, 0);
			for (j = 0; j < rn->nenabled; j++) {
				for (s = 0; s < c->nsites; s++)
					if (!strcmp(c->sites[s].name, rn->enabled[j]))
						c->sites[s].regs |= 1u << REG_WORKLOAD;
				add_regression(c, REG_WORKLOAD, rn->enabled[j], what, -1, 0);
			}
		}
	}
}

/* ------------------------------------------------------------ lines */

/* a line's identity for the diff: its function and its text, whitespace collapsed */
struct line_key {
	uint64_t	hash;
	char		*key;
	char		*function;
};

static char *normalise(const char *fn, const char *text)
{
	struct strbuf sb;
	const char *p;
	bool space = false;

	sb_init(&sb);
	sb_puts(&sb, fn ? fn : "");
	sb_add(&sb, "\n", 1);
	for (p = text ? text : ""; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\f' || *p == '\v') {
			space = true;
			continue;
		}
		if (space && sb.buf[sb.len - 1] != '\n')
			sb_add(&sb, " ", 1);
		space = false;
		sb_add(&sb, p, 1);
	}
	return sb.buf;
}

static uint64_t fnv1a(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static struct line_key *line_keys(const struct srcfile *f)
{
	struct line_key *k;
	int ln;

	if (!f)
		return NULL;
	k = xcalloc(f->nlines + 1, sizeof(*k));
	for (ln = 1; ln <= f->nlines; ln++) {
		k[ln].function = srcfile_function(f, ln);
		k[ln].key = normalise(k[ln].function, f->line_text[ln]);
		k[ln].hash = fnv1a(k[ln].key);
	}
	return k;
}

static void free_keys(struct line_key *k, int n)
{
	int ln;

	for (ln = 1; k && ln <= n; ln++) {
		free(k[ln].key);
		free(k[ln].function);
	}
	free(k);
}

static bool same(const struct line_key *a, const struct line_key *b)
{
	return a->hash == b->hash && !strcmp(a->key, b->key);
}

static bool covered(const struct srcfile *f, int ln)
{
	return f->campaign.lines[ln] > 0;
}

static int category(const struct srcfile *of, int oln, const struct srcfile *nf, int nln)
{
	bool oc = oln && srcfile_code_line(of, oln), nc = nln && srcfile_code_line(nf, nln);
	bool oep = oc && srcfile_error_line(of, oln), nep = nc && srcfile_error_line(nf, nln);
	bool ocov = oc && covered(of, oln), ncov = nc && covered(nf, nln);

	if (!oep && !nep)
		return CAT_NONE;
	if (oln && nln) {
		if (oc && nc)
			return ocov ? (ncov ? CAT_CBC : CAT_LBC) : (ncov ? CAT_GBC : CAT_UBC);
		if (nc)
			return ncov ? CAT_GIC : CAT_UIC;
		return ocov ? CAT_ECB : CAT_EUB;
	}
	if (nln)
		return ncov ? CAT_GNC : CAT_UNC;
	return ocov ? CAT_DCB : CAT_DUB;
}

static void add_line(struct compare *c, size_t fi, int oln, int nln, const struct line_key *ok,
		     const struct line_key *nk, size_t *cap)
{
	struct cmp_file *cf = &c->files[fi];
	struct cmp_line *l;

	grow(&cf->lines, cap, cf->nlines + 1, sizeof(*cf->lines));
	l = &cf->lines[cf->nlines++];
	l->old_ln = oln;
	l->new_ln = nln;
	l->function = xstrdup(nln ? (nk[nln].function ? nk[nln].function : "") :
			      (ok[oln].function ? ok[oln].function : ""));
	l->cat = category(cf->old, oln, cf->new, nln);
	if (l->cat == CAT_NONE)
		return;
	cf->cat[l->cat]++;
	c->cat[l->cat]++;
	if (l->cat == CAT_LBC)
		add_regression(c, REG_LOST_LINE, NULL, NULL, fi, cf->nlines - 1);
	else if (l->cat == CAT_UNC)
		add_regression(c, REG_UNCOVERED_NEW, NULL, NULL, fi, cf->nlines - 1);
}

/* beyond this many cells of the LCS table the middle of a file is not matched */
#define LCS_MAX_CELLS	(64u << 20)

/*
 * The alignment of OLD's and NEW's lines of a file: common lines at the
 * start and the end, then a longest common subsequence of the middle
 * (dynamic programming over suffixes, so that the walk comes out in file
 * order; deletions before insertions where both are possible).
 */
static int diff_file(struct compare *c, size_t fi)
{
	struct cmp_file *cf = &c->files[fi];
	int n = cf->old ? cf->old->nlines : 0, m = cf->new ? cf->new->nlines : 0;
	struct line_key *a = line_keys(cf->old), *b = line_keys(cf->new);
	int pre = 0, suf = 0, i, j, rn, rm;
	uint32_t *t = NULL;
	size_t cap = 0, w;

	while (pre < n && pre < m && same(&a[pre + 1], &b[pre + 1]))
		pre++;
	while (suf < n - pre && suf < m - pre && same(&a[n - suf], &b[m - suf]))
		suf++;
	for (i = 1; i <= pre; i++)
		add_line(c, fi, i, i, a, b, &cap);
	rn = n - pre - suf;
	rm = m - pre - suf;
	w = (size_t)rm + 1;
	if (rn && rm && ((size_t)rn + 1) * w <= LCS_MAX_CELLS) {
		t = xcalloc(((size_t)rn + 1) * w, sizeof(*t));
		for (i = rn - 1; i >= 0; i--)
			for (j = rm - 1; j >= 0; j--) {
				if (same(&a[pre + 1 + i], &b[pre + 1 + j]))
					t[i * w + j] = t[(i + 1) * w + j + 1] + 1;
				else
					t[i * w + j] = t[(i + 1) * w + j] > t[i * w + j + 1] ?
						       t[(i + 1) * w + j] : t[i * w + j + 1];
			}
	} else if (rn && rm) {
		ffr_warn(cf->rel, "%d and %d lines differ: too many to match, all taken as deleted and new",
			 rn, rm);
	}
	i = j = 0;
	while (i < rn || j < rm) {
		if (t && i < rn && j < rm && same(&a[pre + 1 + i], &b[pre + 1 + j])) {
			add_line(c, fi, pre + 1 + i, pre + 1 + j, a, b, &cap);
			i++;
			j++;
		} else if (i < rn && (j == rm || !t || t[(i + 1) * w + j] >= t[i * w + j + 1])) {
			add_line(c, fi, pre + 1 + i, 0, a, b, &cap);
			i++;
		} else {
			add_line(c, fi, 0, pre + 1 + j, a, b, &cap);
			j++;
		}
	}
	for (i = 1; i <= suf; i++)
		add_line(c, fi, n - suf + i, m - suf + i, a, b, &cap);
	free(t);
	free_keys(a, n);
	free_keys(b, m);
	return 0;
}

static int cmp_file_name(const void *x, const void *y)
{
	return strcmp(((const struct cmp_file *)x)->rel, ((const struct cmp_file *)y)->rel);
}

static void compare_files(struct compare *c)
{
	size_t i, k;

	for (i = 0; i < c->new->nfiles; i++) {
		grow(&c->files, &c->capfiles, c->nfiles + 1, sizeof(*c->files));
		memset(&c->files[c->nfiles], 0, sizeof(*c->files));
		c->files[c->nfiles].rel = xstrdup(c->new->files[i].rel);
		c->files[c->nfiles].new = &c->new->files[i];
		c->nfiles++;
	}
	for (i = 0; i < c->old->nfiles; i++) {
		for (k = 0; k < c->nfiles && strcmp(c->files[k].rel, c->old->files[i].rel); k++)
			;
		if (k == c->nfiles) {
			grow(&c->files, &c->capfiles, c->nfiles + 1, sizeof(*c->files));
			memset(&c->files[c->nfiles], 0, sizeof(*c->files));
			c->files[c->nfiles].rel = xstrdup(c->old->files[i].rel);
			c->nfiles++;
		}
		c->files[k].old = &c->old->files[i];
	}
	qsort(c->files, c->nfiles, sizeof(*c->files), cmp_file_name);
	for (i = 0; i < c->nfiles; i++) {
		const char *base = strrchr(c->files[i].rel, '/');

		c->files[i].page = xasprintf("files/%s.html", base ? base + 1 : c->files[i].rel);
		diff_file(c, i);
	}
}

int compare_analyse(struct compare *c)
{
	compare_sites(c);
	compare_findings(c);
	compare_workloads(c);
	compare_files(c);
	return 0;
}

/* ------------------------------------------------------------ output */

static int fill_compare(void *ctx, const char *dir)
{
	struct compare *c = ctx;
	char *p = xasprintf("%s/compare.json", dir);
	int ret = compare_write_json(c, p);

	free(p);
	return ret ? ret : compare_write_html(c, dir);
}

int compare_write(struct compare *c)
{
	return output_swap(c->outdir, fill_compare, c);
}

/* ------------------------------------------------------------ the terminal */

const struct cmp_site *cmp_site_find(const struct compare *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nsites; i++)
		if (!strcmp(c->sites[i].name, name))
			return &c->sites[i];
	return NULL;
}

/* regressions outside --fail-on listed on the terminal */
#define CMP_SUMMARY_NOTES	10

void compare_print_summary(const struct compare *c, FILE *f)
{
	size_t i, k;

	fprintf(f, "futex-fault-report --compare: %s (kernel %s) -> %s (kernel %s)\n",
		c->old->results, c->old->kversion, c->new->results, c->new->kversion);
	fprintf(f, "  verdict          %s: %zu regression%s in --fail-on, %zu in all\n",
		c->failing ? "REGRESSION" : "no regression", c->failing, c->failing == 1 ? "" : "s",
		c->nregs);
	fprintf(f, "  sites fired      %zu / %zu -> %zu / %zu\n", c->old->sites_fired, c->old->nsites,
		c->new->sites_fired, c->new->nsites);
	fprintf(f, "  error-path lines covered %zu / %zu -> %zu / %zu\n",
		c->old->totals.error_lines.campaign, c->old->totals.error_lines.total,
		c->new->totals.error_lines.campaign, c->new->totals.error_lines.total);
	fputs("  categories      ", f);
	for (k = 0; k < CAT_NR; k++)
		fprintf(f, " %s %zu", cmp_cat_names[k], c->cat[k]);
	fputs("\n  regressions     ", f);
	for (k = 0; k < REG_NR; k++)
		fprintf(f, " %s %zu%s", cmp_reg_names[k], c->reg_count[k],
			c->fail_on & (1u << k) ? "*" : "");
	fputs("   (* in --fail-on)\n", f);
	for (i = 0, k = 0; i < c->nregs; i++) {
		const struct cmp_regression *g = &c->regs[i];

		/* every regression that fails; of the others the first few */
		if (!g->fails && k++ >= CMP_SUMMARY_NOTES)
			continue;
		fprintf(f, "  %s %-20s ", g->fails ? "FAIL" : "note", cmp_reg_names[g->kind]);
		if (g->file >= 0) {
			const struct cmp_file *cf = &c->files[g->file];
			const struct cmp_line *l = &cf->lines[g->line];

			fprintf(f, "%s:%d (%s)", cf->rel, l->new_ln, l->function);
		} else if (g->kind == REG_OUTCOME) {
			const struct cmp_site *cs = cmp_site_find(c, g->site);

			fprintf(f, "%s: %s", g->site, cs && cs->detail ? cs->detail : "");
		} else if (g->kind == REG_ERRNO) {
			const struct cmp_site *cs = cmp_site_find(c, g->site);

			fprintf(f, "%s: %s", g->site, cs && cs->errno_detail ? cs->errno_detail : "");
		} else if (g->kind == REG_FINDING || g->kind == REG_WORKLOAD) {
			fprintf(f, "%s: %s", g->site ? g->site : "baseline", g->title);
		} else {
			const struct cmp_site *cs = cmp_site_find(c, g->site);

			fprintf(f, "%s: fired %llu -> 0", g->site, cs ? cs->old->counts.fired : 0);
		}
		fputc('\n', f);
	}
	if (k > CMP_SUMMARY_NOTES)
		fprintf(f, "  (%zu more not in --fail-on: compare.json)\n", k - CMP_SUMMARY_NOTES);
}
