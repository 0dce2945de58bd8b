// SPDX-License-Identifier: GPL-2.0
/* The summary printed on stdout after a report. */
#include <string.h>

#include "findings.h"
#include "report.h"
#include "util.h"

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
