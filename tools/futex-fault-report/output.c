// SPDX-License-Identifier: GPL-2.0
/*
 * report.json (schema in README.md), the lcov tracefiles and the terminal
 * summary.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "errpath.h"
#include "ffr.h"
#include "findings.h"
#include "util.h"

static int close_checked(FILE *f, const char *path)
{
	int err = ferror(f);

	if (fclose(f) || err)
		return ffr_error(path, "write error: %s", strerror(errno ? errno : EIO));
	return 0;
}

static void json_kv_errors(FILE *f, const struct kv *kv, size_t n, bool errno_keys)
{
	char op[64];
	size_t i;

	fputs("{", f);
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : " ", f);
		if (errno_keys) {
			json_put_string(f, errno_name(kv[i].key));
		} else {
			futex_op_name(kv[i].key, op, sizeof(op));
			json_put_string(f, op);
		}
		fprintf(f, ": %llu", kv[i].count);
	}
	fputs(n ? " }" : "}", f);
}

static int cmp_task(const void *a, const void *b)
{
	const struct task_count *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return x->pid - y->pid;
}

static void pct_pair(FILE *f, const char *ind, const char *name, size_t total, size_t base,
		     size_t camp, bool last)
{
	fprintf(f, "%s\"%s\": { \"total\": %zu, \"baseline\": %zu, \"campaign\": %zu }%s\n", ind,
		name, total, base, camp, last ? "" : ",");
}

static void write_site(struct report *r, FILE *f, struct site *s, bool last)
{
	size_t i;
	int k;

	fputs("    {\n      \"name\": ", f);
	json_put_string(f, s->name);
	fputs(",\n      \"file\": ", f);
	json_put_string(f, s->file);
	fprintf(f, ",\n      \"line\": %d,\n      \"line_from_source\": %s,\n", s->line,
		s->line_guessed ? "true" : "false");
	fputs("      \"function\": ", f);
	json_put_string(f, s->function);
	fputs(",\n      \"errno\": ", f);
	json_put_string(f, s->errname);
	fputs(",\n      \"run\": ", f);
	if (s->run > 0)
		json_put_string(f, r->runs[s->run].name);
	else
		fputs("null", f);
	fputs(",\n      \"run_status\": ", f);
	if (s->run > 0)
		json_put_string(f, r->runs[s->run].status);
	else
		fputs("null", f);
	fprintf(f, ",\n      \"fired\": %llu,\n", s->fired);
	fprintf(f, "      \"table_injected\": %lld,\n", s->table_injected);
	fputs("      \"caller\": ", f);
	if (s->caller_sym)
		json_put_string(f, s->caller_sym);
	else
		fputs("null", f);
	fputs(",\n      \"outcomes\": {", f);
	for (k = 0; k < OC_NR; k++)
		fprintf(f, "%s\"%s\": %llu", k ? ", " : " ", oc_names[k], s->oc[k]);
	fputs(" },\n      \"errors_returned\": ", f);
	json_kv_errors(f, s->errors, s->nerrors, true);
	fputs(",\n      \"by_op\": ", f);
	json_kv_errors(f, s->ops, s->nops, false);
	fputs(",\n      \"by_task\": [", f);
	if (s->ntasks)
		qsort(s->tasks, s->ntasks, sizeof(*s->tasks), cmp_task);
	for (i = 0; i < s->ntasks && i < 20; i++) {
		fprintf(f, "%s{ \"comm\": ", i ? ", " : " ");
		json_put_string(f, s->tasks[i].comm);
		fprintf(f, ", \"pid\": %d, \"count\": %llu }", s->tasks[i].pid, s->tasks[i].count);
	}
	fprintf(f, "%s],\n", s->ntasks ? " " : "");
	fprintf(f, "      \"recovery\": {\n        \"lines_total\": %zu,\n        \"error_lines\": %zu,\n        \"branches\": %zu,\n        \"lines\": [",
		s->nrec, s->rec_error, s->rec_branches);
	for (i = 0; i < s->nrec; i++) {
		struct srcfile *sf = &r->files[s->rec[i].file];
		int ln = s->rec[i].line;

		fprintf(f, "%s\n          { \"file\": ", i ? "," : "");
		json_put_string(f, sf->rel);
		fprintf(f, ", \"line\": %d, \"error_path\": %s }", ln,
			sf->ep && ln <= sf->nlines && (sf->ep[ln] & EP_ERROR) && !(sf->ep[ln] & EP_TEST) ?
			"true" : "false");
	}
	fprintf(f, "%s]\n      }\n    }%s\n", s->nrec ? "\n        " : "", last ? "" : ",");
}

static void json_strings(FILE *f, char *const *v, size_t n, const char *sep)
{
	size_t i;

	fputs("[", f);
	for (i = 0; i < n; i++) {
		fputs(i ? sep : "", f);
		json_put_string(f, v[i]);
	}
	fputs("]", f);
}

/* "findings": one object a run, README.md "report.json" */
static void write_findings(struct report *r, FILE *f)
{
	struct findings *fs = r->findings;
	size_t i, k;

	fputs("  \"findings\": [", f);
	for (i = 0; fs && i < fs->n; i++) {
		struct finding *fd = &fs->f[i];
		struct run *rn = &r->runs[fd->run];
		struct kreport *kr = &fd->reps[0];

		fputs(i ? ",\n    { \"run\": " : "\n    { \"run\": ", f);
		json_put_string(f, rn->name);
		fputs(", \"sites\": ", f);
		json_strings(f, rn->enabled, rn->nenabled, ", ");
		fputs(", \"status\": ", f);
		json_put_string(f, rn->status);
		fputs(", \"health\": ", f);
		if (fd->health)
			json_put_string(f, fd->health);
		else
			fputs("null", f);
		fputs(",\n      \"workloads\": [", f);
		for (k = 0; k < rn->nwl; k++) {
			fputs(k ? ", " : "", f);
			json_put_string(f, rn->wl[k].name);
		}
		fputs("], \"source\": ", f);
		json_put_string(f, fd->source);
		fputs(",\n      \"title\": ", f);
		json_put_string(f, kr->title);
		fputs(",\n      \"stack\": ", f);
		json_strings(f, kr->lines, kr->nlines, ",\n        ");
		fputs(",\n      \"other_reports\": [", f);
		for (k = 1; k < fd->nreps; k++) {
			fputs(k > 1 ? ", " : "", f);
			json_put_string(f, fd->reps[k].title);
		}
		fprintf(f, "],\n      \"baseline_clean\": %s, \"baseline_same_title\": %s }",
			fd->baseline_clean ? "true" : "false", fd->baseline_same ? "true" : "false");
	}
	fputs(fs && fs->n ? "\n  ],\n" : "],\n", f);
	fputs("  \"baseline_reports\": ", f);
	fputs("[", f);
	for (i = 0; fs && i < fs->nbase; i++) {
		fputs(i ? ", " : "", f);
		json_put_string(f, fs->base[i].title);
	}
	fputs("],\n", f);
}

int write_json(struct report *r, const char *path)
{
	unsigned long long oc[OC_NR];
	struct totals t;
	FILE *f;
	size_t i, k;
	int o;

	f = fopen(path, "w");
	if (!f)
		return ffr_error(path, "%s", strerror(errno));
	all_totals(r, &t);
	outcome_totals(r, oc);

	fprintf(f, "{\n  \"schema\": \"%s\",\n  \"generator\": \"futex-fault-report %s\",\n",
		FFR_SCHEMA, FFR_VERSION);
	fprintf(f, "  \"layout_version\": %d,\n  \"results\": ", FFR_LAYOUT_VERSION);
	json_put_string(f, r->results);
	fputs(",\n  \"kernel\": { \"version\": ", f);
	json_put_string(f, r->kversion);
	fputs(", \"srctree\": ", f);
	json_put_string(f, r->srctree);
	fputs(", \"objtree\": ", f);
	json_put_string(f, r->objtree);
	fputs(", \"gcno_dir\": ", f);
	json_put_string(f, r->gcno_dir);
	fputs(" },\n", f);
	fprintf(f, "  \"sites_total\": %zu,\n  \"sites_fired\": %zu,\n", r->nsites, sites_fired(r));
	fprintf(f, "  \"events\": %llu,\n", r->events);
	fputs("  \"outcomes\": {", f);
	for (o = 0; o < OC_NR; o++)
		fprintf(f, "%s\"%s\": %llu", o ? ", " : " ", oc_names[o], oc[o]);
	fputs(" },\n", f);

	fputs("  \"coverage\": {\n", f);
	pct_pair(f, "    ", "lines", t.lines, t.lines_base, t.lines_camp, false);
	pct_pair(f, "    ", "branches", t.branches, t.br_base, t.br_camp, false);
	pct_pair(f, "    ", "functions", t.functions, t.fn_base, t.fn_camp, true);
	fputs("  },\n", f);

	fputs("  \"error_paths\": {\n    \"definition\": \"README.md#error-paths\",\n", f);
	fprintf(f, "    \"lines_total\": %zu,\n    \"lines_covered\": %zu,\n", t.ep_lines, t.ep_camp);
	fprintf(f, "    \"lines_baseline\": %zu,\n    \"lines_injection_only\": %zu,\n", t.ep_base,
		t.ep_camp - t.ep_base);
	fprintf(f, "    \"lines_never\": %zu,\n", t.ep_lines - t.ep_camp);
	fprintf(f, "    \"branches_total\": %zu,\n    \"branches_covered\": %zu,\n", t.ep_branches,
		t.ep_br_camp);
	fprintf(f, "    \"branches_baseline\": %zu\n  },\n", t.ep_br_base);

	fputs("  \"files\": [\n", f);
	for (i = 0; i < r->nfiles; i++) {
		struct totals ft = { 0 };

		file_totals(r, &r->files[i], &ft);
		fputs("    { \"file\": ", f);
		json_put_string(f, r->files[i].rel);
		fputs(", \"page\": ", f);
		json_put_string(f, r->files[i].page);
		fputs(",\n", f);
		pct_pair(f, "      ", "lines", ft.lines, ft.lines_base, ft.lines_camp, false);
		pct_pair(f, "      ", "branches", ft.branches, ft.br_base, ft.br_camp, false);
		pct_pair(f, "      ", "error_lines", ft.ep_lines, ft.ep_base, ft.ep_camp, false);
		pct_pair(f, "      ", "error_branches", ft.ep_branches, ft.ep_br_base, ft.ep_br_camp,
			 true);
		fprintf(f, "    }%s\n", i + 1 < r->nfiles ? "," : "");
	}
	fputs("  ],\n", f);

	fputs("  \"runs\": [\n", f);
	for (i = 0; i < r->nruns; i++) {
		struct run *rn = &r->runs[i];

		fputs("    { \"name\": ", f);
		json_put_string(f, rn->name);
		fputs(", \"status\": ", f);
		json_put_string(f, rn->status);
		fputs(", \"sites_enabled\": [", f);
		for (k = 0; k < rn->nenabled; k++) {
			fputs(k ? ", " : "", f);
			json_put_string(f, rn->enabled[k]);
		}
		fprintf(f, "], \"coverage_data\": %s, \"traces\": %zu, \"records\": %llu, \"injected\": %llu, \"lost_events\": %llu,\n      \"workloads\": [",
			rn->has_cov ? "true" : "false", rn->ntraces, rn->records, rn->injects,
			rn->lost);
		for (k = 0; k < rn->nwl; k++) {
			fputs(k ? ", " : " ", f);
			fputs("{ \"name\": ", f);
			json_put_string(f, rn->wl[k].name);
			if (rn->wl[k].has_status)
				fprintf(f, ", \"exit_status\": %d }", rn->wl[k].exit_status);
			else
				fputs(", \"exit_status\": null }", f);
		}
		fprintf(f, "%s] }%s\n", rn->nwl ? " " : "", i + 1 < r->nruns ? "," : "");
	}
	fputs("  ],\n", f);
	write_findings(r, f);

	fputs("  \"sites\": [\n", f);
	for (i = 0; i < r->nsites; i++)
		write_site(r, f, &r->sites[i], i + 1 == r->nsites);
	fputs("  ]\n}\n", f);
	return close_checked(f, path);
}

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
	return close_checked(f, path);
}

static double pct(size_t a, size_t b)
{
	return b ? 100.0 * a / b : 0.0;
}

void print_summary(struct report *r, FILE *f)
{
	unsigned long long oc[OC_NR];
	struct totals t;
	size_t i, quiet = 0;

	all_totals(r, &t);
	outcome_totals(r, oc);
	fprintf(f, "futex-fault-report: %s (kernel %s)\n", r->results, r->kversion);
	fprintf(f, "  sites fired      %zu / %zu   (%zu runs, %llu trace records)\n", sites_fired(r),
		r->nsites, r->nruns, r->events);
	fprintf(f, "  outcomes         recovered %llu, error %llu, exit %llu, noreturn %llu, unknown %llu\n",
		oc[OC_RECOVERED], oc[OC_ERROR], oc[OC_EXIT], oc[OC_NORETURN], oc[OC_UNKNOWN]);
	fprintf(f, "  lines            baseline %zu / %zu (%.1f%%), campaign %zu (%.1f%%)\n",
		t.lines_base, t.lines, pct(t.lines_base, t.lines), t.lines_camp,
		pct(t.lines_camp, t.lines));
	fprintf(f, "  branches         baseline %zu / %zu (%.1f%%), campaign %zu (%.1f%%)\n",
		t.br_base, t.branches, pct(t.br_base, t.branches), t.br_camp,
		pct(t.br_camp, t.branches));
	fprintf(f, "  error-path lines baseline %zu / %zu (%.1f%%), campaign %zu (%.1f%%), never %zu\n",
		t.ep_base, t.ep_lines, pct(t.ep_base, t.ep_lines), t.ep_camp,
		pct(t.ep_camp, t.ep_lines), t.ep_lines - t.ep_camp);
	fprintf(f, "\n  %-28s %-26s %8s %9s %6s %5s %8s %9s\n", "site", "location", "fired",
		"recovered", "error", "exit", "noreturn", "rec.lines");
	for (i = 0; i < r->nsites; i++) {
		struct site *s = &r->sites[i];
		char loc[64];

		if (!s->fired && s->run <= 0) {
			quiet++;
			continue;
		}
		const char *base = strrchr(s->file, '/');

		snprintf(loc, sizeof(loc), "%s:%d", base ? base + 1 : s->file, s->line);
		fprintf(f, "  %-28s %-26s %8llu %9llu %6llu %5llu %8llu %9zu\n", s->name, loc,
			s->fired, s->oc[OC_RECOVERED], s->oc[OC_ERROR], s->oc[OC_EXIT],
			s->oc[OC_NORETURN], s->nrec);
	}
	if (quiet)
		fprintf(f, "  (%zu more sites neither run nor fired)\n", quiet);
	for (i = 1; i < r->nruns; i++)
		if (strcmp(r->runs[i].status, "ok"))
			fprintf(f, "  run %s: %s\n", r->runs[i].name, r->runs[i].status);
	if (r->findings)
		fprintf(f, "  findings         %zu (runs crashed, hung or with a kernel report, of %zu runs; baseline %s)\n",
			r->findings->n, r->nruns,
			r->findings->nbase ? "has kernel reports" : "clean");
}
