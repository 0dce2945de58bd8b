// SPDX-License-Identifier: GPL-2.0
/* report.json, built with jansson: the schema is in README.md ("report.json"). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "findings.h"
#include "nth.h"
#include "report.h"
#include "util.h"

/*
 * A JSON string of s, null for NULL.  jansson takes UTF-8 only: bytes of
 * anything else (a task's comm, a line of a kernel log) become '?'.
 */
json_t *ffr_json_str(const char *s)
{
	json_t *j;
	char *copy, *p;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	copy = xstrdup(s);
	for (p = copy; *p; p++)
		if ((unsigned char)*p >= 0x80)
			*p = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

#define jstr ffr_json_str
#define jstrings ffr_json_strings

json_t *ffr_json_strings(char *const *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(a, jstr(v[i]));
	return a;
}

static json_t *kv_counts(const struct kv *kv, size_t n, bool errno_keys)
{
	json_t *o = json_object();
	char op[64];
	size_t i;

	for (i = 0; i < n; i++) {
		if (!errno_keys)
			futex_op_name(kv[i].key, op, sizeof(op));
		json_object_set_new(o, errno_keys ? errno_name(kv[i].key) : op,
				    json_integer(kv[i].count));
	}
	return o;
}

static json_t *outcomes(const unsigned long long *oc)
{
	json_t *o = json_object();
	int k;

	for (k = 0; k < OC_NR; k++)
		json_object_set_new(o, oc_names[k], json_integer(oc[k]));
	return o;
}

static json_t *tally_json(const struct tally *t)
{
	return json_pack("{s:I, s:I, s:I}", "total", (json_int_t)t->total, "baseline",
			 (json_int_t)t->baseline, "campaign", (json_int_t)t->campaign);
}

/* the lines @v[0..@n) as [ { file, line, error_path } ] */
static json_t *lines_json(const struct report *r, const struct lineref *v, size_t n)
{
	json_t *lines = json_array();
	size_t i;

	for (i = 0; i < n; i++)
		json_array_append_new(lines, json_pack("{s:o, s:i, s:b}", "file",
						       jstr(r->files[v[i].file].rel), "line", v[i].line,
						       "error_path", v[i].error_path));
	return lines;
}

static json_t *site_json(const struct report *r, const struct site *s)
{
	json_t *tasks = json_array();
	size_t i;

	for (i = 0; i < s->ntasks && i < 20; i++)
		json_array_append_new(tasks, json_pack("{s:o, s:i, s:I}", "comm",
						       jstr(s->tasks[i].comm), "pid", s->tasks[i].pid,
						       "count", (json_int_t)s->tasks[i].count));
	return json_pack("{s:o, s:o, s:i, s:b, s:o, s:o, s:o, s:o, s:I, s:I, s:o, s:o, s:o, s:o,"
			 " s:o, s:{s:I, s:I, s:I, s:o}}",
			 "name", jstr(s->name),
			 "file", jstr(s->file),
			 "line", s->line,
			 "line_from_source", s->line_from_source,
			 "function", jstr(s->function),
			 "errno", jstr(s->errname),
			 "run", jstr(s->run > 0 ? r->runs[s->run].name : NULL),
			 "run_status", jstr(s->run > 0 ? r->runs[s->run].status : NULL),
			 "fired", (json_int_t)s->counts.fired,
			 "table_injected", (json_int_t)s->table_injected,
			 "caller", jstr(s->counts.caller_sym),
			 "outcomes", outcomes(s->counts.oc),
			 "errors_returned", kv_counts(s->counts.errors, s->counts.nerrors, true),
			 "by_op", kv_counts(s->counts.ops, s->counts.nops, false),
			 "by_task", tasks,
			 "recovery",
			 "lines_total", (json_int_t)s->nrecovery,
			 "error_lines", (json_int_t)s->recovery_error_lines,
			 "branches", (json_int_t)s->recovery_branches,
			 "lines", lines_json(r, s->recovery, s->nrecovery));
}

static json_t *nth_json(const struct nth_scenario *s, const char *name)
{
	json_t *o = json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "calls", (json_int_t)s->calls,
			      "runs", (json_int_t)s->runs, "injected", (json_int_t)s->injected,
			      "errors", (json_int_t)s->errors,
			      "succeeded", (json_int_t)(s->injected - s->errors),
			      "failed", (json_int_t)s->failed);

	if (name)
		json_object_set_new(o, "name", json_string(name));
	return o;
}

/* "nth": an --nth campaign's enumeration (nth.tsv), or null */
static void add_nth(const struct report *r, json_t *root)
{
	json_t *o, *list;
	size_t i;

	if (!r->nth) {
		json_object_set_new(root, "nth", json_null());
		return;
	}
	o = nth_json(&r->nth->all, NULL);
	list = json_array();
	for (i = 0; i < r->nth->n; i++)
		json_array_append_new(list, nth_json(&r->nth->s[i], r->nth->s[i].name));
	json_object_set_new(o, "scenarios", list);
	json_object_set_new(root, "nth", o);
}

/* "findings": one object a run, README.md "report.json" */
static void add_findings(const struct report *r, json_t *root)
{
	struct findings *fs = r->findings;
	json_t *list = json_array(), *base = json_array(), *wl, *other;
	size_t i, k;

	for (i = 0; fs && i < fs->n; i++) {
		struct finding *fd = &fs->f[i];
		struct run *rn = &r->runs[fd->run];
		struct kreport *kr = &fd->reps[0];

		wl = json_array();
		for (k = 0; k < rn->nwl; k++)
			json_array_append_new(wl, jstr(rn->wl[k].name));
		other = json_array();
		for (k = 1; k < fd->nreps; k++)
			json_array_append_new(other, jstr(fd->reps[k].title));
		char *repro = finding_repro(r, fd);

		json_array_append_new(list, json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o,"
						      " s:o, s:b, s:b, s:o}",
						      "run", jstr(rn->name),
						      "sites", jstrings(rn->enabled, rn->nenabled),
						      "status", jstr(rn->status),
						      "health", jstr(fd->health),
						      "workloads", wl,
						      "source", jstr(fd->source),
						      "title", jstr(kr->title),
						      "stack", jstrings(kr->lines, kr->nlines),
						      "other_reports", other,
						      "baseline_clean", fd->baseline_clean,
						      "baseline_same_title", fd->baseline_same,
						      "reproduce", jstr(repro)));
		free(repro);
	}
	for (i = 0; fs && i < fs->nbase; i++)
		json_array_append_new(base, jstr(fs->base[i].title));
	json_object_set_new(root, "findings", list);
	json_object_set_new(root, "baseline_reports", base);
}

static json_t *run_json(const struct report *r, size_t i)
{
	const struct run *rn = &r->runs[i];
	json_t *wl = json_array(), *j;
	char *faults;
	size_t k;

	for (k = 0; k < rn->nwl; k++)
		json_array_append_new(wl, json_pack("{s:o, s:o}", "name", jstr(rn->wl[k].name),
						    "exit_status", rn->wl[k].has_status ?
						    json_integer(rn->wl[k].exit_status) :
						    json_null()));
	faults = faults_file(rn);
	j = json_pack("{s:o, s:o, s:o, s:b, s:I, s:I, s:I, s:I, s:o, s:o}",
		      "name", jstr(rn->name),
		      "status", jstr(rn->status),
		      "sites_enabled", jstrings(rn->enabled, rn->nenabled),
		      "coverage_data", rn->has_cov,
		      "traces", (json_int_t)rn->ntraces,
		      "records", (json_int_t)rn->records,
		      "injected", (json_int_t)rn->injects,
		      "lost_events", (json_int_t)rn->lost,
		      "faults", jstr(faults),
		      "workloads", wl);
	free(faults);
	/* a run with no site on, besides the baseline: what it ran beyond it */
	if (i && !rn->nenabled)
		json_object_set_new(j, "beyond_baseline",
				    json_pack("{s:I, s:I, s:o}", "lines_total", (json_int_t)rn->nbeyond,
					      "error_lines", (json_int_t)rn->beyond_error_lines,
					      "lines", lines_json(r, rn->beyond, rn->nbeyond)));
	return j;
}

static json_t *report_json(const struct report *r)
{
	const struct totals *t = &r->totals;
	json_t *root, *files, *runs, *sites;
	char *gen;
	size_t i;

	files = json_array();
	for (i = 0; i < r->nfiles; i++) {
		const struct srcfile *f = &r->files[i];

		json_array_append_new(files, json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}",
			"file", jstr(f->rel),
			"page", jstr(f->page),
			"lines", tally_json(&f->totals.lines),
			"branches", tally_json(&f->totals.branches),
			"error_lines", tally_json(&f->totals.error_lines),
			"error_branches", tally_json(&f->totals.error_branches)));
	}
	runs = json_array();
	for (i = 0; i < r->nruns; i++)
		json_array_append_new(runs, run_json(r, i));
	sites = json_array();
	for (i = 0; i < r->nsites; i++)
		json_array_append_new(sites, site_json(r, &r->sites[i]));

	gen = xasprintf("futex-fault-report %s", FFR_VERSION);
	root = json_pack("{s:s, s:s, s:i, s:o, s:{s:o, s:o, s:o, s:o, s:o, s:o}, s:I, s:I, s:I, s:o,"
			 " s:{s:o, s:o, s:o},"
			 " s:{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}, s:o, s:o}",
			 "schema", FFR_SCHEMA,
			 "generator", gen,
			 "layout_version", FFR_LAYOUT_VERSION,
			 "results", jstr(r->results),
			 "kernel",
			 "version", jstr(r->kversion),
			 "srctree", jstr(r->srctree),
			 "objtree", jstr(r->objtree),
			 "gcno_dir", jstr(r->gcno_dirs[0]),
			 "gcov_dirs", jstrings(r->gcov_dirs, r->ndirs),
			 "gcno_dirs", jstrings(r->gcno_dirs, r->ndirs),
			 "sites_total", (json_int_t)r->nsites,
			 "sites_fired", (json_int_t)r->sites_fired,
			 "events", (json_int_t)r->events,
			 "outcomes", outcomes(r->outcomes),
			 "coverage",
			 "lines", tally_json(&t->lines),
			 "branches", tally_json(&t->branches),
			 "functions", tally_json(&t->functions),
			 "error_paths",
			 "definition", "README.md#error-paths",
			 "lines_total", (json_int_t)t->error_lines.total,
			 "lines_covered", (json_int_t)t->error_lines.campaign,
			 "lines_baseline", (json_int_t)t->error_lines.baseline,
			 "lines_injection_only", (json_int_t)t->error_lines_injection_only,
			 "lines_never", (json_int_t)t->error_lines_never,
			 "branches_total", (json_int_t)t->error_branches.total,
			 "branches_covered", (json_int_t)t->error_branches.campaign,
			 "branches_baseline", (json_int_t)t->error_branches.baseline,
			 "files", files,
			 "runs", runs);
	free(gen);
	if (root) {
		add_findings(r, root);
		add_nth(r, root);
		json_object_set_new(root, "sites", sites);
	} else {
		json_decref(sites);
	}
	return root;
}

int ffr_json_write(json_t *root, const char *path)
{
	FILE *f;
	int ret;

	if (!root)
		return ffr_error(path, "cannot build the JSON");
	f = fopen(path, "w");
	if (!f) {
		json_decref(root);
		return ffr_error(path, "%s", strerror(errno));
	}
	ret = json_dumpf(root, f, JSON_INDENT(2));
	json_decref(root);
	if (ret || fputc('\n', f) == EOF) {
		fclose(f);
		return ffr_error(path, "write error: %s", strerror(errno ? errno : EIO));
	}
	return output_close(f, path);
}

int write_json(const struct report *r, const char *path)
{
	return ffr_json_write(report_json(r), path);
}
