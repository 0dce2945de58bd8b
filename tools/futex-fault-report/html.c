// SPDX-License-Identifier: GPL-2.0
/*
 * Static HTML: index.html (summary, sites, files, runs) and one annotated
 * page per source file.  No external resource: the pages open from disk.
 * Every number a test checks carries data-k="<report.json key>".
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "compare.h"
#include "findings.h"
#include "nth.h"
#include "report.h"
#include "svg.h"
#include "util.h"

static const char css[] =
"body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222;background:#fff}\n"
"h1{font-size:1.4em;margin:0 0 .2em}h2{font-size:1.15em;margin:1.4em 0 .4em}\n"
".sub{color:#666;margin-bottom:1em}\n"
".cards{display:flex;flex-wrap:wrap;gap:.8em}\n"
".card{border:1px solid #ddd;border-radius:6px;padding:.6em .9em;min-width:12em}\n"
".card b{display:block;font-size:1.3em}.card small{color:#666}\n"
"table{border-collapse:collapse;margin:.3em 0}\n"
"th,td{padding:.2em .6em;border-bottom:1px solid #eee;text-align:left;vertical-align:top}\n"
"td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}\n"
"table.sortable th{cursor:pointer;user-select:none;background:#f6f6f6}\n"
"table.sortable th:after{content:' \\2195';color:#aaa}\n"
"a{color:#0645ad;text-decoration:none}a:hover{text-decoration:underline}\n"
".bad{color:#b00}.ok{color:#070}.nw{white-space:nowrap}\n"
"table.src{font:12px/1.35 ui-monospace,monospace;width:100%}\n"
"table.src td{border:0;padding:0 .5em;white-space:pre}\n"
"table.src td.code{width:100%}\n"
"tr.base td.code{background:#eaf6ea}\n"
"tr.inj td.code{background:#fff1b8}\n"
"tr.errmiss td.code{background:#fbd5d5}\n"
"tr.miss td.code{background:#f3f3f3}\n"
"tr.ep td.ln{border-left:4px solid #c0392b}\n"
"tr:target td{outline:2px solid #4a90d9}\n"
"td.ln a{color:#888}td.sites a{margin-right:.4em}\n"
".flag{background:#333;color:#fff;border-radius:3px;padding:0 .3em;margin-right:.3em}\n"
".legend span{display:inline-block;padding:0 .5em;margin-right:.5em;border-radius:3px}\n"
"details pre{font:12px/1.3 ui-monospace,monospace;background:#f6f6f6;padding:.4em;margin:.3em 0;white-space:pre-wrap}\n"
"summary{cursor:pointer}\n";

static const char sort_js[] =
"<script>\n"
"document.querySelectorAll('table.sortable').forEach(function (t) {\n"
"  t.querySelectorAll('th').forEach(function (th, i) {\n"
"    th.addEventListener('click', function () {\n"
"      var b = t.tBodies[0], rows = Array.from(b.rows), dir = th.dataset.dir === 'a' ? -1 : 1;\n"
"      th.dataset.dir = dir > 0 ? 'a' : 'd';\n"
"      function key(r) { var c = r.cells[i], v = c.dataset.v !== undefined ? c.dataset.v : c.textContent;\n"
"        var n = parseFloat(v); return isNaN(n) ? v.toLowerCase() : n; }\n"
"      rows.sort(function (x, y) { var a = key(x), c = key(y); return (a < c ? -1 : a > c ? 1 : 0) * dir; });\n"
"      rows.forEach(function (r) { b.appendChild(r); });\n"
"    });\n"
"  });\n"
"});\n"
"</script>\n";

void html_sort_script(FILE *f)
{
	fputs(sort_js, f);
}

void html_head(FILE *f, const char *title, const char *page_css)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>", f);
	html_escape(f, title);
	fprintf(f, "</title>\n<style>\n%s%s</style></head><body>\n", css, page_css ? page_css : "");
}

/* dir/name, the index or the i-th page; -1 after an error naming it */
static int page_write(const char *dir, const char *name, const struct html_pages *p, size_t i,
		      bool index)
{
	char *path = xasprintf("%s/%s", dir, name);
	FILE *f = fopen(path, "w");
	int ret;

	if (!f) {
		ret = ffr_error(path, "%s", strerror(errno));
	} else {
		if (index)
			p->write_index(p->ctx, f);
		else
			p->write_page(p->ctx, i, f);
		ret = output_close(f, path);
	}
	free(path);
	return ret;
}

int html_write_pages(const char *dir, const struct html_pages *p)
{
	char *path = xasprintf("%s/files", dir);
	size_t i;
	int ret = 0;

	if (mkdir(path, 0755) && errno != EEXIST)
		ret = ffr_error(path, "%s", strerror(errno));
	free(path);
	for (i = 0; !ret && i < p->npages; i++)
		ret = page_write(dir, p->page(p->ctx, i), p, i, false);
	return ret ? ret : page_write(dir, "index.html", p, 0, true);
}

static double pct(size_t a, size_t b)
{
	return b ? 100.0 * a / b : 0.0;
}

void html_num(FILE *f, const char *key, unsigned long long v)
{
	fprintf(f, "<span data-k=\"%s\">%llu</span>", key, v);
}

static void card_tally(FILE *f, const char *title, const char *key, const struct tally *t)
{
	char k[128];

	fprintf(f, "<div class=\"card\"><small>%s</small><b>%.1f%% &rarr; %.1f%%</b>", title,
		pct(t->baseline, t->total), pct(t->campaign, t->total));
	fputs("baseline ", f);
	snprintf(k, sizeof(k), "%s.baseline", key);
	html_num(f, k, t->baseline);
	fputs(", campaign ", f);
	snprintf(k, sizeof(k), "%s.campaign", key);
	html_num(f, k, t->campaign);
	fputs(" of ", f);
	snprintf(k, sizeof(k), "%s.total", key);
	html_num(f, k, t->total);
	fputs("</div>\n", f);
}

static void site_row(const struct report *r, FILE *f, const struct site *s)
{
	const struct srcfile *sf = s->file_idx >= 0 ? &r->files[s->file_idx] : NULL;
	const char *base = strrchr(s->file, '/');
	int k;

	fputs("<tr id=\"site-", f);
	html_escape(f, s->name);
	fputs("\" data-site=\"", f);
	html_escape(f, s->name);
	fputs("\"><td>", f);
	html_escape(f, s->name);
	fputs("</td><td>", f);
	if (sf) {
		fprintf(f, "<a href=\"%s#L%d\">", sf->page, s->line);
		html_escape(f, base ? base + 1 : s->file);
		fprintf(f, ":%d</a>", s->line);
	} else {
		html_escape(f, s->file);
		fprintf(f, ":%d", s->line);
	}
	if (s->line_from_source)
		fputs("<sup title=\"line found in the source, not in the site table\">*</sup>", f);
	fputs("</td><td>", f);
	html_escape(f, s->function);
	fputs("</td><td>", f);
	html_escape(f, s->errname);
	fprintf(f, "</td><td class=\"n\" data-v=\"%llu\" data-k=\"fired\">%llu</td>", s->counts.fired,
		s->counts.fired);
	for (k = 0; k < OC_NR; k++)
		fprintf(f, "<td class=\"n\" data-v=\"%llu\" data-k=\"outcomes.%s\">%llu</td>", s->counts.oc[k],
			oc_names[k], s->counts.oc[k]);
	fprintf(f, "<td class=\"n\" data-v=\"%zu\" data-k=\"recovery.lines_total\">%zu</td>",
		s->nrecovery, s->nrecovery);
	fprintf(f, "<td class=\"n\" data-v=\"%zu\" data-k=\"recovery.error_lines\">%zu</td>",
		s->recovery_error_lines, s->recovery_error_lines);
	fputs("<td>", f);
	if (s->counts.nerrors) {
		size_t i;

		for (i = 0; i < s->counts.nerrors; i++)
			fprintf(f, "%s%s&times;%llu", i ? ", " : "", errno_name(s->counts.errors[i].key),
				s->counts.errors[i].count);
	}
	fputs("</td><td>", f);
	if (s->run > 0) {
		const char *st = r->runs[s->run].status;

		fprintf(f, "<span class=\"%s\">", strcmp(st, "ok") ? "bad" : "ok");
		html_escape(f, st);
		fputs("</span>", f);
	} else {
		fputs("<span class=\"nw\">not run</span>", f);
	}
	fputs("</td></tr>\n", f);
}

static void nth_row(FILE *f, const char *name, const struct nth_scenario *s, bool total)
{
	fputs(total ? "<tr class=\"total\"><td>all</td>" : "<tr><td>", f);
	if (!total) {
		html_escape(f, name);
		fputs("</td>", f);
	}
	fprintf(f, "<td class=\"n\">%lu</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td><td class=\"n%s\">%llu</td></tr>\n",
		s->calls, s->runs, s->injected, s->errors, s->injected - s->errors,
		s->failed ? " bad" : "", s->failed);
}

/* an --nth campaign: its enumeration, a row a scenario */
static void nth_section(const struct report *r, FILE *f)
{
	const struct nth *nt = r->nth;
	size_t i;

	if (!nt)
		return;
	fputs("<h2 id=\"nth\">Systematic fault injection (fail-nth)</h2>\n<p>Every futex call K of a scenario's own thread, run with every site on, probability 0, and fail-nth N = 1, 2, ... set just before it, until call K reaches no N-th site (<code>scripts/campaign --nth</code>, <code>nth.tsv</code>). <i>injected</i>: the N-th site failed; then the call <i>returned an error</i> or <i>succeeded</i>; <i>failed</i>: the scenario failed or was killed. The faults' outcomes and lines are the run <code>nth</code>'s, below; <code>futex-fault-report --compare</code> with a full campaign says which error-path lines each covers that the other does not.</p>\n",
	      f);
	fputs("<table class=\"sortable\" id=\"nth-table\"><thead><tr><th>scenario</th><th class=\"n\">calls</th><th class=\"n\">(call, N) runs</th><th class=\"n\">injected</th><th class=\"n\">returned an error</th><th class=\"n\">succeeded</th><th class=\"n\">failed</th></tr></thead><tbody>\n",
	      f);
	for (i = 0; i < nt->n; i++)
		nth_row(f, nt->s[i].name, &nt->s[i], false);
	fputs("</tbody><tfoot>", f);
	nth_row(f, NULL, &nt->all, true);
	fputs("</tfoot></table>\n", f);
}

/* "Kernel reports (findings)": one row a run, its report's stack in a <details> */
static void findings_section(const struct report *r, FILE *f)
{
	const struct findings *fs = r->findings;
	size_t i, k;
	char *repro;

	fputs("<h2 id=\"findings\">Kernel reports (findings)</h2>\n", f);
	if (!fs || !fs->n) {
		fputs("<p class=\"ok\">No kernel report in ", f);
		html_num(f, "runs_scanned", r->nruns);
		fputs(" runs (none crashed or hung; no WARNING, BUG, oops, lockdep, kmemleak report in their logs). Findings: <span data-k=\"findings\">0</span>.</p>\n",
		      f);
		return;
	}
	fputs("<p>Runs that crashed or hung, or whose kernel log holds a kernel report: ", f);
	html_num(f, "findings", fs->n);
	fputs(" of ", f);
	html_num(f, "runs_scanned", r->nruns);
	fputs(" runs. <i>baseline clean</i>: the baseline run (the same workloads, no injection) has no kernel report in its logs",
	      f);
	if (fs->nbase) {
		fputs("; it has: ", f);
		for (i = 0; i < fs->nbase; i++) {
			fputs(i ? "; <code>" : "<code>", f);
			html_escape(f, fs->base[i].title);
			fputs("</code>", f);
		}
	}
	fputs(".</p>\n<table class=\"sortable\" id=\"findings-table\"><thead><tr><th>site</th><th>run</th><th>status</th><th>report</th><th>baseline clean</th></tr></thead><tbody>\n",
	      f);
	for (i = 0; i < fs->n; i++) {
		const struct finding *fd = &fs->f[i];
		const struct run *rn = &r->runs[fd->run];
		const struct kreport *kr = &fd->reps[0];

		fputs("<tr id=\"finding-", f);
		html_escape(f, rn->name);
		fputs("\" data-finding=\"", f);
		html_escape(f, rn->name);
		fputs("\"><td>", f);
		for (k = 0; k < rn->nenabled; k++) {
			fputs(k ? ", <a href=\"#site-" : "<a href=\"#site-", f);
			html_escape(f, rn->enabled[k]);
			fputs("\">", f);
			html_escape(f, rn->enabled[k]);
			fputs("</a>", f);
		}
		if (!rn->nenabled)
			fputs("(none)", f);
		fputs("</td><td>", f);
		html_escape(f, rn->name);
		for (k = 0; k < rn->nwl; k++) {
			fputs(k ? ", " : "<br><small>", f);
			html_escape(f, rn->wl[k].name);
		}
		if (rn->nwl)
			fputs("</small>", f);
		fprintf(f, "</td><td class=\"%s\">", strcmp(rn->status, "ok") ? "bad" : "ok");
		html_escape(f, rn->status);
		fputs("</td><td><details><summary class=\"title\">", f);
		html_escape(f, kr->title);
		fputs("</summary><pre class=\"stack\">", f);
		for (k = 0; k < kr->nlines; k++) {
			html_escape(f, kr->lines[k]);
			fputs("\n", f);
		}
		fputs("</pre><small>from ", f);
		html_escape(f, rn->name);
		fputs("/", f);
		html_escape(f, fd->source);
		if (fd->health) {
			fputs("; run.json health: ", f);
			html_escape(f, fd->health);
		}
		fputs("</small>", f);
		repro = finding_repro(r, fd);
		if (repro) {
			fputs("<br><small>reproduce (the baseline and this run again, on the same kernel build):</small> <code class=\"repro\">",
			      f);
			html_escape(f, repro);
			fputs("</code>", f);
			free(repro);
		}
		if (fd->nreps > 1) {
			fputs("<br><small>further reports in this run:</small><ul>", f);
			for (k = 1; k < fd->nreps; k++) {
				fputs("<li><code>", f);
				html_escape(f, fd->reps[k].title);
				fputs("</code></li>", f);
			}
			fputs("</ul>", f);
		}
		fprintf(f, "</details></td><td class=\"%s baseline-clean\">%s%s</td></tr>\n",
			fd->baseline_clean ? "ok" : "bad", fd->baseline_clean ? "yes" : "no",
			fd->baseline_same ? " (same report)" : "");
	}
	fputs("</tbody></table>\n", f);
}

static const enum svg_style oc_styles[OC_NR] = {
	[OC_RECOVERED] = SVG_GOOD, [OC_ERROR] = SVG_BAD, [OC_EXIT] = SVG_OTHER,
	[OC_NORETURN] = SVG_WORST, [OC_UNKNOWN] = SVG_WARN,
};

const struct svg_chart html_outcome_chart = {
	.id = "chart-outcomes",
	.title = "Outcomes of the injected faults, per site",
	.desc = "One bar a site that fired, its faults split by outcome: recovered, error, exit, noreturn, unknown; the numbers follow each bar.",
	.seg_names = oc_names, .seg_styles = oc_styles, .nseg = OC_NR, .shares = true,
};

static const char *const cov_names[] = { "covered", "not covered" };
static const enum svg_style cov_styles[] = { SVG_GOOD, SVG_NONE };

const struct svg_chart html_coverage_chart = {
	.id = "chart-coverage",
	.title = "Error-path lines covered, per file",
	.desc = "Two bars a file, the share of its error-path lines that ran; the counts follow each bar.",
	.seg_names = cov_names, .seg_styles = cov_styles, .nseg = 2, .shares = true,
};

void html_outcome_bar(struct svg_bar *b, const char *label, const char *sub,
		      const struct site_counts *c)
{
	int k;

	memset(b, 0, sizeof(*b));
	b->label = label;
	b->sub = sub;
	for (k = 0; k < OC_NR; k++)
		b->v[k] = c ? c->oc[k] : 0;
	if (!c)
		snprintf(b->note, sizeof(b->note), "absent");
	else
		snprintf(b->note, sizeof(b->note), "%llu: R%llu E%llu X%llu N%llu U%llu", c->fired,
			 c->oc[OC_RECOVERED], c->oc[OC_ERROR], c->oc[OC_EXIT], c->oc[OC_NORETURN],
			 c->oc[OC_UNKNOWN]);
}

void html_coverage_bar(struct svg_bar *b, const char *label, const char *sub,
		       const struct tally *t, bool baseline)
{
	size_t hit;

	memset(b, 0, sizeof(*b));
	b->label = label;
	b->sub = sub;
	if (!t) {
		snprintf(b->note, sizeof(b->note), "absent");
		return;
	}
	hit = baseline ? t->baseline : t->campaign;
	b->v[0] = hit;
	b->v[1] = t->total - hit;
	snprintf(b->note, sizeof(b->note), "%zu / %zu (%.1f%%)", hit, t->total, pct(hit, t->total));
}

/* outcomes per site and error-path coverage per file */
static void charts(const struct report *r, FILE *f)
{
	struct svg_bar *bars = xcalloc(r->nsites + 2 * r->nfiles + 1, sizeof(*bars));
	size_t i, n = 0;

	fputs("<h2 id=\"charts\">Charts</h2>\n<p>R recovered, E error, X exit, N noreturn, U unknown. Hover a bar segment for its count.</p>\n", f);
	for (i = 0; i < r->nsites; i++)
		if (r->sites[i].counts.fired)
			html_outcome_bar(&bars[n++], r->sites[i].name, NULL, &r->sites[i].counts);
	if (n)
		svg_bars(f, &html_outcome_chart, bars, n);
	else
		fputs("<p>No site fired.</p>\n", f);
	for (i = 0, n = 0; i < r->nfiles; i++) {
		const struct tally *t = &r->files[i].totals.error_lines;
		const char *base = strrchr(r->files[i].rel, '/');

		html_coverage_bar(&bars[n++], base ? base + 1 : r->files[i].rel, "baseline", t, true);
		html_coverage_bar(&bars[n++], NULL, "campaign", t, false);
	}
	svg_bars(f, &html_coverage_chart, bars, n);
	free(bars);
}

/*
 * A run with no site on (the races): "none", and the error-path lines it ran
 * that the baseline did not, each a link to its source line
 */
static void run_beyond(FILE *f, const struct report *r, const struct run *rn)
{
	size_t k, n = 0;

	fprintf(f, "none; beyond the baseline it ran %zu lines, %zu on error paths", rn->nbeyond,
		rn->beyond_error_lines);
	for (k = 0; k < rn->nbeyond; k++) {
		const struct lineref *lr = &rn->beyond[k];
		const struct srcfile *sf = &r->files[lr->file];
		const char *base = strrchr(sf->rel, '/');

		if (!lr->error_path)
			continue;
		fputs(n++ ? ", " : ": ", f);
		fputs("<a href=\"", f);
		html_escape(f, sf->page);
		fprintf(f, "#L%d\">", lr->line);
		html_escape(f, base ? base + 1 : sf->rel);
		fprintf(f, ":%d</a>", lr->line);
	}
}

static void write_index(const void *ctx, FILE *f)
{
	const struct report *r = ctx;
	const struct totals *t = &r->totals;
	size_t i, k;
	int o;

	html_head(f, "futex-fault report", NULL);
	fputs("<h1>futex-fault report</h1>\n<div class=\"sub\">kernel ", f);
	html_escape(f, r->kversion);
	fputs(" &middot; results <code>", f);
	html_escape(f, r->results);
	fprintf(f, "</code> &middot; %zu runs &middot; %llu trace records</div>\n", r->nruns,
		r->events);

	fputs("<div class=\"cards\">\n<div class=\"card\"><small>sites fired</small><b>", f);
	html_num(f, "sites_fired", r->sites_fired);
	fputs(" / ", f);
	html_num(f, "sites_total", r->nsites);
	fputs("</b>injected faults: ", f);
	html_num(f, "injected", r->injected);
	fputs("</div>\n", f);
	card_tally(f, "error-path lines", "error_paths.lines", &t->error_lines);
	card_tally(f, "error-path branches", "error_paths.branches", &t->error_branches);
	card_tally(f, "lines", "coverage.lines", &t->lines);
	card_tally(f, "branches", "coverage.branches", &t->branches);
	fputs("<div class=\"card\"><small>error-path lines never run</small><b>", f);
	html_num(f, "error_paths.lines_never", t->error_lines_never);
	fputs("</b>only under injection: ", f);
	html_num(f, "error_paths.lines_injection_only", t->error_lines_injection_only);
	fputs("</div>\n<div class=\"card\"><small>outcomes of injected faults</small><br>", f);
	for (o = 0; o < OC_NR; o++) {
		char key[64];

		snprintf(key, sizeof(key), "outcomes.%s", oc_names[o]);
		fprintf(f, "%s%s ", o ? ", " : "", oc_names[o]);
		html_num(f, key, r->outcomes[o]);
	}
	fputs("</div>\n</div>\n", f);
	findings_section(r, f);
	nth_section(r, f);
	charts(r, f);

	fputs("<h2>Sites</h2>\n<p>Click a heading to sort. <i>recovered</i>: the system call then succeeded; <i>error</i>: it returned an error to user space; <i>exit</i>: raised in exit or outside a system call (robust-list walk); <i>noreturn</i>: the call never returned; <i>rec. lines</i>: lines that ran in the site's run and not in the baseline.</p>\n",
	      f);
	fputs("<table class=\"sortable\" id=\"sites\"><thead><tr><th>site</th><th>location</th><th>function</th><th>errno</th><th class=\"n\">fired</th>",
	      f);
	for (o = 0; o < OC_NR; o++)
		fprintf(f, "<th class=\"n\">%s</th>", oc_names[o]);
	fputs("<th class=\"n\">rec. lines</th><th class=\"n\">of which error path</th><th>errors returned</th><th>run</th></tr></thead><tbody>\n",
	      f);
	for (i = 0; i < r->nsites; i++)
		site_row(r, f, &r->sites[i]);
	fputs("</tbody></table>\n", f);

	fputs("<h2>Files</h2>\n<table class=\"sortable\" id=\"files\"><thead><tr><th>file</th><th class=\"n\">lines</th><th class=\"n\">baseline</th><th class=\"n\">campaign</th><th class=\"n\">error-path lines</th><th class=\"n\">baseline</th><th class=\"n\">campaign</th><th class=\"n\">never</th></tr></thead><tbody>\n",
	      f);
	for (i = 0; i < r->nfiles; i++) {
		const struct srcfile *sf = &r->files[i];
		const struct totals *ft = &sf->totals;

		fprintf(f, "<tr data-file=\"%s\"><td><a href=\"%s\">", sf->rel, sf->page);
		html_escape(f, sf->rel);
		fprintf(f, "</a></td><td class=\"n\" data-k=\"lines.total\">%zu</td><td class=\"n\" data-k=\"lines.baseline\">%zu</td><td class=\"n\" data-k=\"lines.campaign\">%zu</td>",
			ft->lines.total, ft->lines.baseline, ft->lines.campaign);
		fprintf(f, "<td class=\"n\" data-k=\"error_lines.total\">%zu</td><td class=\"n\" data-k=\"error_lines.baseline\">%zu</td><td class=\"n\" data-k=\"error_lines.campaign\">%zu</td><td class=\"n\">%zu</td></tr>\n",
			ft->error_lines.total, ft->error_lines.baseline, ft->error_lines.campaign,
			ft->error_lines_never);
	}
	fputs("</tbody></table>\n", f);

	fputs("<h2>Runs</h2>\n<table class=\"sortable\" id=\"runs\"><thead><tr><th>run</th><th>status</th><th>sites enabled</th><th class=\"n\">records</th><th class=\"n\">injected</th><th class=\"n\">lost events</th><th>workloads (exit status)</th></tr></thead><tbody>\n",
	      f);
	for (i = 0; i < r->nruns; i++) {
		const struct run *rn = &r->runs[i];

		fputs("<tr id=\"run-", f);
		html_escape(f, rn->name);
		fputs("\"><td>", f);
		html_escape(f, rn->name);
		fprintf(f, "</td><td class=\"%s\">", strcmp(rn->status, "ok") ? "bad" : "ok");
		html_escape(f, rn->status);
		fputs("</td><td>", f);
		if (i && !rn->nenabled)
			run_beyond(f, r, rn);
		for (k = 0; k < rn->nenabled; k++) {
			fputs(k ? ", " : "", f);
			fputs("<a href=\"#site-", f);
			html_escape(f, rn->enabled[k]);
			fputs("\">", f);
			html_escape(f, rn->enabled[k]);
			fputs("</a>", f);
		}
		fprintf(f, "</td><td class=\"n\">%llu</td><td class=\"n\">%llu</td><td class=\"n%s\">%llu</td><td>",
			rn->records, rn->injects, rn->lost ? " bad" : "", rn->lost);
		for (k = 0; k < rn->nwl; k++) {
			fputs(k ? ", " : "", f);
			html_escape(f, rn->wl[k].name);
			if (rn->wl[k].has_status)
				fprintf(f, " (%d)", rn->wl[k].exit_status);
			else
				fputs(" (-)", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	fprintf(f, "<p class=\"sub\">Generated by futex-fault-report %s. Error paths are defined in the reporter's README (\"Error paths\"). Machine-readable: <a href=\"report.json\">report.json</a>, lcov: <a href=\"campaign.info\">campaign.info</a>, <a href=\"baseline.info\">baseline.info</a>.</p>\n",
		FFR_VERSION);
	html_sort_script(f);
	fputs("</body></html>\n", f);
}

static const char *const line_classes[] = {
	[LINE_NOCODE]		= "nocode",
	[LINE_BASELINE]		= "base",
	[LINE_INJECTION]	= "inj",
	[LINE_ERROR_NEVER]	= "errmiss",
	[LINE_NEVER]		= "miss",
};

static void site_link(FILE *f, const struct site *s, bool flag)
{
	fputs(flag ? "<a class=\"flag\" href=\"../index.html#site-" : "<a href=\"../index.html#site-",
	      f);
	html_escape(f, s->name);
	fputs(flag ? "\" title=\"injection site\">&#9873; " : "\">", f);
	html_escape(f, s->name);
	fputs("</a>", f);
}

static void write_file_page(const void *ctx, size_t fi, FILE *f)
{
	const struct report *r = ctx;
	const struct srcfile *sf = &r->files[fi];
	const struct totals *t = &sf->totals;
	size_t i;
	int ln;

	html_head(f, sf->rel, NULL);
	fputs("<p><a href=\"../index.html\">&larr; summary</a></p>\n<h1>", f);
	html_escape(f, sf->rel);
	fputs("</h1>\n<div class=\"cards\">\n", f);
	card_tally(f, "lines", "lines", &t->lines);
	card_tally(f, "error-path lines", "error_lines", &t->error_lines);
	card_tally(f, "branches", "branches", &t->branches);
	card_tally(f, "error-path branches", "error_branches", &t->error_branches);
	fputs("</div>\n<p class=\"legend\"><span style=\"background:#eaf6ea\">ran in the baseline</span><span style=\"background:#fff1b8\">ran only under injection (or only in a run with no site on: the races)</span><span style=\"background:#fbd5d5\">error path, never ran</span><span style=\"background:#f3f3f3\">never ran</span><span style=\"border-left:4px solid #c0392b\">error-path line</span>columns: line, baseline count, campaign count, source, injection sites (&#9873;), the sites whose run reached the line and the runs with no site on that did</p>\n",
	      f);

	fputs("<table class=\"src\"><tbody>\n", f);
	for (ln = 1; ln <= sf->nsrc_lines; ln++) {
		const struct source_line *sl = &sf->src_lines[ln];
		bool code = sl->kind != LINE_NOCODE;

		fprintf(f, "<tr id=\"L%d\" class=\"%s%s\"><td class=\"ln\"><a href=\"#L%d\">%d</a></td>",
			ln, line_classes[sl->kind], sl->error_path && code ? " ep" : "", ln, ln);
		if (code)
			fprintf(f, "<td class=\"n\">%llu</td><td class=\"n\">%llu</td>",
				sf->cov[0].lines[ln], sf->campaign.lines[ln]);
		else
			fputs("<td></td><td></td>", f);
		fputs("<td class=\"code\">", f);
		if (ln <= sf->nlines)
			html_escape(f, sf->line_text[ln]);
		fputs("</td><td class=\"sites\">", f);
		for (i = 0; i < sl->nsites; i++)
			site_link(f, &r->sites[sl->sites[i]], true);
		for (i = 0; i < sl->nreached; i++)
			site_link(f, &r->sites[sl->reached_by[i]], false);
		for (i = 0; i < sl->nreached_run; i++) {
			fputs("<a class=\"run\" href=\"../index.html#run-", f);
			html_escape(f, r->runs[sl->reached_by_run[i]].name);
			fputs("\" title=\"a run with no site on\">run ", f);
			html_escape(f, r->runs[sl->reached_by_run[i]].name);
			fputs("</a>", f);
		}
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n</body></html>\n", f);
}

static const char *file_page(const void *ctx, size_t i)
{
	const struct report *r = ctx;

	return r->files[i].page;
}

int write_html(const struct report *r, const char *dir)
{
	const struct html_pages pages = {
		.ctx = r,
		.npages = r->nfiles,
		.page = file_page,
		.write_page = write_file_page,
		.write_index = write_index,
	};

	return html_write_pages(dir, &pages);
}
