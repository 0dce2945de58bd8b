// SPDX-License-Identifier: GPL-2.0
/*
 * The comparison's pages: compare/index.html (the verdict, the regressions,
 * charts, sites and files side by side) and one page per source file, with
 * NEW's lines and OLD's deleted ones in diff order.  Every number a test
 * checks carries data-k="<compare.json key>".
 */
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "findings.h"
#include "util.h"

/* beside html.c's: the verdict, the categories, the lines only in OLD or NEW */
static const char compare_css[] =
".verdict{font-size:1.2em;font-weight:bold;padding:.4em .8em;border-radius:6px;display:inline-block}\n"
".verdict.bad{background:#fbd5d5;border:2px solid #b00}.verdict.ok{background:#eaf6ea;border:2px solid #070}\n"
".cat{font:11px ui-monospace,monospace;border:1px solid #999;border-radius:3px;padding:0 .25em}\n"
"tr.del td.code{text-decoration:line-through;background:#f3e0ff}\n"
"tr.add td.code{background:#e8f0ff}\n"
"tr.c-LBC td.code,tr.c-UNC td.code{background:#fbd5d5}\n"
"tr.c-GBC td.code,tr.c-GNC td.code,tr.c-GIC td.code{background:#fff1b8}\n"
"tr.c-CBC td.code{background:#eaf6ea}\n"
"td.mark{font-weight:bold;color:#555}\n";

static void cell_count(FILE *f, const char *key, const struct site *s, unsigned long long v)
{
	if (s)
		fprintf(f, "<td class=\"n\" data-k=\"%s\" data-v=\"%llu\">%llu</td>", key, v, v);
	else
		fprintf(f, "<td class=\"n\" data-v=\"-1\">&ndash;</td>");
}

static void headline(const struct compare *c, FILE *f)
{
	int k;

	fprintf(f, "<p><span class=\"verdict %s\" id=\"verdict\">%s</span> ",
		c->failing ? "bad" : "ok", c->failing ? "REGRESSION" : "no regression");
	html_num(f, "regressions_failing", c->failing);
	fputs(" regression(s) in --fail-on (", f);
	for (k = 0; k < REG_NR; k++)
		if (c->fail_on & (1u << k))
			fprintf(f, "%s%s", (c->fail_on & ((1u << k) - 1)) ? ", " : "", cmp_reg_names[k]);
	if (!c->fail_on)
		fputs("none", f);
	fprintf(f, "), %zu in all.</p>\n<div class=\"cards\">\n", c->nregs);
	for (k = 0; k < REG_NR; k++) {
		char key[64];

		snprintf(key, sizeof(key), "regression_counts.%s", cmp_reg_names[k]);
		fprintf(f, "<div class=\"card\"><small>%s%s</small><b>", cmp_reg_names[k],
			c->fail_on & (1u << k) ? " (fails)" : "");
		html_num(f, key, c->reg_count[k]);
		fputs("</b></div>\n", f);
	}
	fputs("<div class=\"card\"><small>sites fired, OLD &rarr; NEW</small><b>", f);
	html_num(f, "old.sites_fired", c->old->sites_fired);
	fputs(" / ", f);
	html_num(f, "old.sites_total", c->old->nsites);
	fputs(" &rarr; ", f);
	html_num(f, "new.sites_fired", c->new->sites_fired);
	fputs(" / ", f);
	html_num(f, "new.sites_total", c->new->nsites);
	fputs("</b></div>\n<div class=\"card\"><small>error-path lines covered, OLD &rarr; NEW</small><b>", f);
	html_num(f, "old.error_lines_covered", c->old->totals.error_lines.campaign);
	fputs(" / ", f);
	html_num(f, "old.error_lines_total", c->old->totals.error_lines.total);
	fputs(" &rarr; ", f);
	html_num(f, "new.error_lines_covered", c->new->totals.error_lines.campaign);
	fputs(" / ", f);
	html_num(f, "new.error_lines_total", c->new->totals.error_lines.total);
	fputs("</b></div>\n</div>\n", f);

	fputs("<h2 id=\"categories\">Error-path lines by category</h2>\n<table id=\"category-table\"><thead><tr><th>category</th><th class=\"n\">lines</th><th>meaning</th></tr></thead><tbody>\n",
	      f);
	for (k = 0; k < CAT_NR; k++) {
		char key[32];

		snprintf(key, sizeof(key), "categories.%s", cmp_cat_names[k]);
		fprintf(f, "<tr><td><span class=\"cat\">%s</span></td><td class=\"n\">", cmp_cat_names[k]);
		html_num(f, key, c->cat[k]);
		fprintf(f, "</td><td>%s</td></tr>\n", cmp_cat_text[k]);
	}
	fputs("</tbody></table>\n", f);
}

static void regressions(const struct compare *c, FILE *f)
{
	size_t i;

	fputs("<h2 id=\"regressions\">Regressions</h2>\n", f);
	if (!c->nregs) {
		fputs("<p class=\"ok\">None.</p>\n", f);
		return;
	}
	fputs("<table class=\"sortable\" id=\"regression-table\"><thead><tr><th>category</th><th>fails</th><th>where</th><th>what</th></tr></thead><tbody>\n",
	      f);
	for (i = 0; i < c->nregs; i++) {
		const struct cmp_regression *g = &c->regs[i];

		fprintf(f, "<tr data-regression=\"%s\"><td>%s</td><td class=\"%s\">%s</td><td>",
			cmp_reg_names[g->kind], cmp_reg_names[g->kind], g->fails ? "bad" : "",
			g->fails ? "yes" : "no");
		if (g->file >= 0) {
			const struct cmp_file *cf = &c->files[g->file];
			const struct cmp_line *l = &cf->lines[g->line];

			fprintf(f, "<a href=\"%s#N%d\">", cf->page, l->new_ln);
			html_escape(f, cf->rel);
			fprintf(f, ":%d</a></td><td><code>", l->new_ln);
			html_escape(f, l->function);
			fputs("</code>: <code>", f);
			html_escape(f, cf->new->line_text[l->new_ln]);
			fputs("</code>", f);
		} else {
			if (g->site) {
				fputs("<a href=\"#site-", f);
				html_escape(f, g->site);
				fputs("\">", f);
				html_escape(f, g->site);
				fputs("</a>", f);
			} else {
				fputs("baseline", f);
			}
			fputs("</td><td>", f);
			if (g->title) {
				html_escape(f, g->title);
			} else if (g->kind == REG_STOPPED) {
				fputs("fired in OLD, not in NEW", f);
			} else {
				const struct cmp_site *cs = cmp_site_find(c, g->site);
				const char *d = !cs ? NULL :
					g->kind == REG_ERRNO ? cs->errno_detail : cs->detail;

				if (d)
					html_escape(f, d);
			}
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void new_findings(const struct compare *c, FILE *f)
{
	size_t i, k;

	fputs("<h2 id=\"findings\">Kernel reports new in NEW</h2>\n", f);
	if (!c->nfindings) {
		fputs("<p class=\"ok\">None: <span data-k=\"new_findings\">0</span>.</p>\n", f);
		return;
	}
	fputs("<table id=\"findings-table\"><thead><tr><th>run</th><th>sites</th><th>status</th><th>report</th></tr></thead><tbody>\n",
	      f);
	for (i = 0; i < c->nfindings; i++) {
		const struct cmp_finding *cf = &c->findings[i];

		fputs("<tr data-finding=\"", f);
		html_escape(f, cf->run->name);
		fputs("\"><td>", f);
		html_escape(f, cf->run->name);
		fputs("</td><td>", f);
		for (k = 0; k < cf->run->nenabled; k++) {
			fputs(k ? ", " : "", f);
			html_escape(f, cf->run->enabled[k]);
		}
		fputs("</td><td>", f);
		html_escape(f, cf->run->status);
		fputs("</td><td><details><summary>", f);
		html_escape(f, cf->fd->reps[0].title);
		fputs("</summary><pre>", f);
		for (k = 0; k < cf->fd->reps[0].nlines; k++) {
			html_escape(f, cf->fd->reps[0].lines[k]);
			fputc('\n', f);
		}
		fputs("</pre></details></td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void charts(const struct compare *c, FILE *f)
{
	struct svg_bar *bars = xcalloc(2 * (c->nsites + c->nfiles) + 1, sizeof(*bars));
	struct svg_chart oc = html_outcome_chart, cov = html_coverage_chart;
	size_t i, n = 0;

	oc.desc = "Two bars a site that fired in either campaign, OLD then NEW, its faults split by outcome: recovered, error, exit, noreturn, unknown; the numbers follow each bar.";
	cov.desc = "Two bars a file, OLD then NEW: the share of its error-path lines that ran in the campaign; the counts follow each bar.";
	fputs("<h2 id=\"charts\">Charts</h2>\n<p>R recovered, E error, X exit, N noreturn, U unknown. Hover a bar segment for its count.</p>\n",
	      f);
	for (i = 0; i < c->nsites; i++) {
		const struct cmp_site *cs = &c->sites[i];

		if (!(cs->old && cs->old->counts.fired) && !(cs->new && cs->new->counts.fired))
			continue;
		html_outcome_bar(&bars[n++], cs->name, "old", cs->old ? &cs->old->counts : NULL);
		html_outcome_bar(&bars[n++], NULL, "new", cs->new ? &cs->new->counts : NULL);
	}
	if (n)
		svg_bars(f, &oc, bars, n);
	else
		fputs("<p>No site fired in either campaign.</p>\n", f);
	for (i = 0, n = 0; i < c->nfiles; i++) {
		const struct cmp_file *cf = &c->files[i];
		const char *base = strrchr(cf->rel, '/');

		html_coverage_bar(&bars[n++], base ? base + 1 : cf->rel, "old",
				  cf->old ? &cf->old->totals.error_lines : NULL, false);
		html_coverage_bar(&bars[n++], NULL, "new",
				  cf->new ? &cf->new->totals.error_lines : NULL, false);
	}
	if (n)
		svg_bars(f, &cov, bars, n);
	free(bars);
}

static void sites_table(const struct compare *c, FILE *f)
{
	size_t i;
	int k;

	fputs("<h2 id=\"sites\">Sites</h2>\n<p>Matched by name. Each count OLD, then NEW; &ndash; where the campaign lacks the site.</p>\n<table class=\"sortable\" id=\"site-table\"><thead><tr><th>site</th><th>in</th><th class=\"n\">fired old</th><th class=\"n\">new</th>",
	      f);
	for (k = 0; k < OC_NR; k++)
		fprintf(f, "<th class=\"n\">%s old</th><th class=\"n\">new</th>", oc_names[k]);
	fputs("<th>regressions</th></tr></thead><tbody>\n", f);
	for (i = 0; i < c->nsites; i++) {
		const struct cmp_site *cs = &c->sites[i];
		const struct site *o = cs->old, *n = cs->new;
		char key[64];

		fputs("<tr id=\"site-", f);
		html_escape(f, cs->name);
		fputs("\" data-site=\"", f);
		html_escape(f, cs->name);
		fputs("\"><td>", f);
		html_escape(f, cs->name);
		fprintf(f, "</td><td>%s</td>", o && n ? "both" : o ? "old only" : "new only");
		cell_count(f, "fired.old", o, o ? o->counts.fired : 0);
		cell_count(f, "fired.new", n, n ? n->counts.fired : 0);
		for (k = 0; k < OC_NR; k++) {
			snprintf(key, sizeof(key), "outcomes.%s.old", oc_names[k]);
			cell_count(f, key, o, o ? o->counts.oc[k] : 0);
			snprintf(key, sizeof(key), "outcomes.%s.new", oc_names[k]);
			cell_count(f, key, n, n ? n->counts.oc[k] : 0);
		}
		fputs("<td class=\"bad\">", f);
		for (k = 0; k < REG_NR; k++)
			if (cs->regs & (1u << k))
				fprintf(f, "%s ", cmp_reg_names[k]);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void files_table(const struct compare *c, FILE *f)
{
	size_t i;
	int k;

	fputs("<h2 id=\"files\">Files</h2>\n<table class=\"sortable\" id=\"file-table\"><thead><tr><th>file</th><th class=\"n\">error-path lines covered, old</th><th class=\"n\">new</th>",
	      f);
	for (k = 0; k < CAT_NR; k++)
		fprintf(f, "<th class=\"n\">%s</th>", cmp_cat_names[k]);
	fputs("</tr></thead><tbody>\n", f);
	for (i = 0; i < c->nfiles; i++) {
		const struct cmp_file *cf = &c->files[i];

		fputs("<tr data-file=\"", f);
		html_escape(f, cf->rel);
		fprintf(f, "\"><td><a href=\"%s\">", cf->page);
		html_escape(f, cf->rel);
		fputs("</a></td>", f);
		if (cf->old)
			fprintf(f, "<td class=\"n\">%zu / %zu</td>", cf->old->totals.error_lines.campaign,
				cf->old->totals.error_lines.total);
		else
			fputs("<td class=\"n\">&ndash;</td>", f);
		if (cf->new)
			fprintf(f, "<td class=\"n\">%zu / %zu</td>", cf->new->totals.error_lines.campaign,
				cf->new->totals.error_lines.total);
		else
			fputs("<td class=\"n\">&ndash;</td>", f);
		for (k = 0; k < CAT_NR; k++)
			fprintf(f, "<td class=\"n\" data-k=\"categories.%s\">%zu</td>", cmp_cat_names[k],
				cf->cat[k]);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void side(FILE *f, const char *what, const struct report *r)
{
	fprintf(f, "%s <code>", what);
	html_escape(f, r->results);
	fputs("</code> (kernel ", f);
	html_escape(f, r->kversion);
	fputs(")", f);
}

static void write_index(const void *ctx, FILE *f)
{
	const struct compare *c = ctx;

	html_head(f, "futex-fault comparison", compare_css);
	fputs("<h1>futex-fault comparison</h1>\n<div class=\"sub\">", f);
	side(f, "OLD", c->old);
	fputs(" &rarr; ", f);
	side(f, "NEW", c->new);
	fputs("</div>\n", f);
	headline(c, f);
	regressions(c, f);
	new_findings(c, f);
	charts(c, f);
	sites_table(c, f);
	files_table(c, f);
	fprintf(f, "<p class=\"sub\">Generated by futex-fault-report %s --compare. Lines are matched by content within each function; the categories are lcov's (the reporter's README, \"Compare mode\"). Machine-readable: <a href=\"compare.json\">compare.json</a>.</p>\n",
		FFR_VERSION);
	html_sort_script(f);
	fputs("</body></html>\n", f);
}

static void line_count_cell(FILE *f, const struct srcfile *sf, int ln)
{
	if (ln && srcfile_code_line(sf, ln))
		fprintf(f, "<td class=\"n\">%llu</td>", sf->campaign.lines[ln]);
	else
		fputs("<td></td>", f);
}

static void write_file_page(const void *ctx, size_t fi, FILE *f)
{
	const struct compare *c = ctx;
	const struct cmp_file *cf = &c->files[fi];
	size_t i;
	int k;

	html_head(f, cf->rel, compare_css);
	fputs("<p><a href=\"../index.html\">&larr; comparison</a></p>\n<h1>", f);
	html_escape(f, cf->rel);
	fprintf(f, "</h1>\n<p>%s. Error-path lines by category:", cf->old && cf->new ?
		"In both campaigns" : cf->old ? "Only in OLD: every line deleted" :
		"Only in NEW: every line new");
	for (k = 0; k < CAT_NR; k++) {
		char key[32];

		snprintf(key, sizeof(key), "categories.%s", cmp_cat_names[k]);
		fprintf(f, " <span class=\"cat\">%s</span> ", cmp_cat_names[k]);
		html_num(f, key, cf->cat[k]);
	}
	fputs("</p>\n<p class=\"legend\">columns: OLD's line, NEW's line, <b>-</b> only in OLD (struck through) or <b>+</b> only in NEW, the error-path line's category, OLD's and NEW's campaign counts, the source</p>\n",
	      f);
	fputs("<table class=\"src\"><tbody>\n", f);
	for (i = 0; i < cf->nlines; i++) {
		const struct cmp_line *l = &cf->lines[i];
		const char *text = l->new_ln ? cf->new->line_text[l->new_ln] :
				   cf->old->line_text[l->old_ln];

		fputs("<tr", f);
		if (l->new_ln)
			fprintf(f, " id=\"N%d\"", l->new_ln);
		else
			fprintf(f, " id=\"O%d\"", l->old_ln);
		fprintf(f, " class=\"%s%s%s\"", !l->new_ln ? "del" : !l->old_ln ? "add" : "",
			l->cat != CAT_NONE ? " c-" : "", l->cat != CAT_NONE ? cmp_cat_names[l->cat] : "");
		if (l->cat != CAT_NONE)
			fprintf(f, " data-cat=\"%s\"", cmp_cat_names[l->cat]);
		fputs("><td class=\"ln\">", f);
		if (l->old_ln)
			fprintf(f, "%d", l->old_ln);
		fputs("</td><td class=\"ln\">", f);
		if (l->new_ln)
			fprintf(f, "<a href=\"#N%d\">%d</a>", l->new_ln, l->new_ln);
		fprintf(f, "</td><td class=\"mark\">%s</td><td>", !l->new_ln ? "-" : !l->old_ln ? "+" : "");
		if (l->cat != CAT_NONE)
			fprintf(f, "<span class=\"cat\" title=\"%s\">%s</span>", cmp_cat_text[l->cat],
				cmp_cat_names[l->cat]);
		fputs("</td>", f);
		if (cf->old)
			line_count_cell(f, cf->old, l->old_ln);
		else
			fputs("<td></td>", f);
		if (cf->new)
			line_count_cell(f, cf->new, l->new_ln);
		else
			fputs("<td></td>", f);
		fputs("<td class=\"code\">", f);
		html_escape(f, text);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n</body></html>\n", f);
}

static const char *file_page(const void *ctx, size_t i)
{
	const struct compare *c = ctx;

	return c->files[i].page;
}

int compare_write_html(const struct compare *c, const char *dir)
{
	const struct html_pages pages = {
		.ctx = c,
		.npages = c->nfiles,
		.page = file_page,
		.write_page = write_file_page,
		.write_index = write_index,
	};

	return html_write_pages(dir, &pages);
}
