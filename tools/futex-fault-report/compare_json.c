// SPDX-License-Identifier: GPL-2.0
/*
 * compare.json, schema futex-fault-compare/1 (README.md "compare.json"):
 * every value of the two campaigns as { "old": ..., "new": ... }, null
 * where that campaign lacks the thing.
 */
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "findings.h"
#include "util.h"

#define jstr ffr_json_str

static json_t *pair(json_t *o, json_t *n)
{
	return json_pack("{s:o, s:o}", "old", o ? o : json_null(), "new", n ? n : json_null());
}

static json_t *count_or_null(bool have, unsigned long long v)
{
	return have ? json_integer(v) : json_null();
}

/* "errors_returned": the errnos of both, each { "old": N, "new": N } */
static json_t *errors_pair(const struct site *o, const struct site *n)
{
	json_t *obj = json_object();
	const struct site *side[2] = { o, n };
	int s, t;
	size_t i, k;

	for (s = 0; s < 2; s++) {
		for (i = 0; side[s] && i < side[s]->counts.nerrors; i++) {
			long key = side[s]->counts.errors[i].key;
			const char *name = errno_name(key);
			unsigned long long v[2] = { 0, 0 };

			if (json_object_get(obj, name))
				continue;
			for (t = 0; t < 2; t++)
				for (k = 0; side[t] && k < side[t]->counts.nerrors; k++)
					if (side[t]->counts.errors[k].key == key)
						v[t] = side[t]->counts.errors[k].count;
			json_object_set_new(obj, name, pair(count_or_null(o, v[0]),
							    count_or_null(n, v[1])));
		}
	}
	return obj;
}

static json_t *regs_json(unsigned int regs)
{
	json_t *a = json_array();
	int k;

	for (k = 0; k < REG_NR; k++)
		if (regs & (1u << k))
			json_array_append_new(a, json_string(cmp_reg_names[k]));
	return a;
}

static json_t *site_json(const struct compare *c, const struct cmp_site *cs)
{
	const struct site *o = cs->old, *n = cs->new;
	json_t *oc = json_object(), *fnew = json_array();
	size_t i, k;
	int j;

	for (j = 0; j < OC_NR; j++)
		json_object_set_new(oc, oc_names[j],
				    pair(count_or_null(o, o ? o->counts.oc[j] : 0),
					 count_or_null(n, n ? n->counts.oc[j] : 0)));
	for (i = 0; i < c->nfindings; i++)
		for (k = 0; k < c->findings[i].run->nenabled; k++)
			if (!strcmp(c->findings[i].run->enabled[k], cs->name))
				json_array_append_new(fnew, jstr(c->findings[i].fd->reps[0].title));
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "name", jstr(cs->name),
			 "present", pair(json_boolean(o), json_boolean(n)),
			 "function", pair(o ? jstr(o->function) : NULL, n ? jstr(n->function) : NULL),
			 "fired", pair(count_or_null(o, o ? o->counts.fired : 0),
				       count_or_null(n, n ? n->counts.fired : 0)),
			 "outcomes", oc,
			 "errors_returned", errors_pair(o, n),
			 "new_findings", fnew,
			 "regressions", regs_json(cs->regs),
			 "outcome_worse", jstr(cs->detail),
			 "errno_changed", jstr(cs->errno_detail));
}

static json_t *cats_json(const size_t *cat)
{
	json_t *o = json_object();
	int k;

	for (k = 0; k < CAT_NR; k++)
		json_object_set_new(o, cmp_cat_names[k], json_integer(cat[k]));
	return o;
}

static json_t *ep_tally(const struct srcfile *f)
{
	if (!f)
		return NULL;
	return json_pack("{s:I, s:I}", "total", (json_int_t)f->totals.error_lines.total, "covered",
			 (json_int_t)f->totals.error_lines.campaign);
}

static json_t *line_count(const struct srcfile *f, int ln)
{
	return ln && srcfile_code_line(f, ln) ? json_integer(f->campaign.lines[ln]) : json_null();
}

static json_t *file_json(const struct cmp_file *cf)
{
	json_t *lines = json_array();
	size_t i;

	for (i = 0; i < cf->nlines; i++) {
		const struct cmp_line *l = &cf->lines[i];
		const char *text = l->new_ln ? cf->new->line_text[l->new_ln] :
				   cf->old->line_text[l->old_ln];

		if (l->cat == CAT_NONE)
			continue;
		json_array_append_new(lines, json_pack("{s:s, s:o, s:o, s:o, s:o, s:o, s:o}",
			"category", cmp_cat_names[l->cat],
			"old_line", l->old_ln ? json_integer(l->old_ln) : json_null(),
			"new_line", l->new_ln ? json_integer(l->new_ln) : json_null(),
			"function", jstr(l->function),
			"text", jstr(text),
			"old_count", line_count(cf->old, l->old_ln),
			"new_count", line_count(cf->new, l->new_ln)));
	}
	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o}",
			 "file", jstr(cf->rel),
			 "page", jstr(cf->page),
			 "present", pair(json_boolean(cf->old), json_boolean(cf->new)),
			 "error_lines", pair(ep_tally(cf->old), ep_tally(cf->new)),
			 "categories", cats_json(cf->cat),
			 "lines", lines);
}

static json_t *regression_json(const struct compare *c, const struct cmp_regression *g)
{
	json_t *o = json_pack("{s:s, s:b, s:o}", "category", cmp_reg_names[g->kind], "fails",
			      g->fails, "site", jstr(g->site));

	if (g->title)
		json_object_set_new(o, "title", jstr(g->title));
	if (g->file >= 0) {
		const struct cmp_file *cf = &c->files[g->file];
		const struct cmp_line *l = &cf->lines[g->line];

		json_object_set_new(o, "file", jstr(cf->rel));
		json_object_set_new(o, "old_line", l->old_ln ? json_integer(l->old_ln) : json_null());
		json_object_set_new(o, "new_line", json_integer(l->new_ln));
		json_object_set_new(o, "function", jstr(l->function));
		json_object_set_new(o, "text", jstr(cf->new->line_text[l->new_ln]));
	}
	return o;
}

static json_t *side_json(const struct report *r, const char *arg)
{
	return json_pack("{s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:I}",
			 "argument", jstr(arg),
			 "results", jstr(r->results),
			 "kernel", jstr(r->kversion),
			 "sites_total", (json_int_t)r->nsites,
			 "sites_fired", (json_int_t)r->sites_fired,
			 "findings", (json_int_t)(r->findings ? r->findings->n : 0),
			 "error_lines_total", (json_int_t)r->totals.error_lines.total,
			 "error_lines_covered", (json_int_t)r->totals.error_lines.campaign);
}

static json_t *compare_json(const struct compare *c)
{
	json_t *root, *sites = json_array(), *files = json_array(), *regs = json_array();
	json_t *fnew = json_array(), *counts = json_object(), *fail_on = json_array();
	json_t *names = json_object();
	char *gen = xasprintf("futex-fault-report %s", FFR_VERSION);
	size_t i;
	int k;

	for (k = 0; k < REG_NR; k++) {
		json_object_set_new(counts, cmp_reg_names[k], json_integer(c->reg_count[k]));
		if (c->fail_on & (1u << k))
			json_array_append_new(fail_on, json_string(cmp_reg_names[k]));
	}
	for (k = 0; k < CAT_NR; k++)
		json_object_set_new(names, cmp_cat_names[k], json_string(cmp_cat_text[k]));
	for (i = 0; i < c->nsites; i++)
		json_array_append_new(sites, site_json(c, &c->sites[i]));
	for (i = 0; i < c->nfiles; i++)
		json_array_append_new(files, file_json(&c->files[i]));
	for (i = 0; i < c->nregs; i++)
		json_array_append_new(regs, regression_json(c, &c->regs[i]));
	for (i = 0; i < c->nfindings; i++) {
		const struct cmp_finding *cf = &c->findings[i];

		json_array_append_new(fnew, json_pack("{s:o, s:o, s:o, s:o}",
			"run", jstr(cf->run->name),
			"sites", ffr_json_strings(cf->run->enabled, cf->run->nenabled),
			"status", jstr(cf->run->status),
			"title", jstr(cf->fd->reps[0].title)));
	}
	root = json_pack("{s:s, s:s, s:o, s:o, s:s, s:i, s:o, s:I, s:o, s:o, s:o, s:o, s:o, s:o,"
			 " s:o, s:o}",
			 "schema", "futex-fault-compare/1",
			 "generator", gen,
			 "old", side_json(c->old, c->old_arg),
			 "new", side_json(c->new, c->new_arg),
			 "verdict", c->failing ? "regression" : "no regression",
			 "exit_status", c->failing ? CMP_EXIT_REGRESSION : CMP_EXIT_OK,
			 "fail_on", fail_on,
			 "regressions_failing", (json_int_t)c->failing,
			 "regression_counts", counts,
			 "categories", cats_json(c->cat),
			 "category_names", names,
			 "regressions", regs,
			 "new_findings", fnew,
			 "sites", sites,
			 "files", files,
			 "definition", json_string("README.md#compare-mode"));
	free(gen);
	return root;
}

int compare_write_json(const struct compare *c, const char *path)
{
	return ffr_json_write(compare_json(c), path);
}
