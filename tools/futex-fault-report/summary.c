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

/* "baseline 425 / 1218 (34.9%), campaign 448 (36.8%)" */
static void tally_line(FILE *f, const char *what, const struct tally *t)
{
	fprintf(f, "  %-16s baseline %zu / %zu (%.1f%%), campaign %zu (%.1f%%)", what,
		t->baseline, t->total, pct(t->baseline, t->total), t->campaign,
		pct(t->campaign, t->total));
}

void print_summary(const struct report *r, FILE *f)
{
	const unsigned long long *oc = r->outcomes;
	size_t i;

	fprintf(f, "futex-fault-report: %s (kernel %s)\n", r->results, r->kversion);
	fprintf(f, "  sites fired      %zu / %zu   (%zu runs, %llu trace records)\n", r->sites_fired,
		r->nsites, r->nruns, r->events);
	fprintf(f, "  outcomes         recovered %llu, error %llu, exit %llu, noreturn %llu, unknown %llu\n",
		oc[OC_RECOVERED], oc[OC_ERROR], oc[OC_EXIT], oc[OC_NORETURN], oc[OC_UNKNOWN]);
	tally_line(f, "lines", &r->totals.lines);
	fputc('\n', f);
	tally_line(f, "branches", &r->totals.branches);
	fputc('\n', f);
	tally_line(f, "error-path lines", &r->totals.error_lines);
	fprintf(f, ", never %zu\n", r->totals.error_lines_never);
	fprintf(f, "\n  %-28s %-26s %8s %9s %6s %5s %8s %9s\n", "site", "location", "fired",
		"recovered", "error", "exit", "noreturn", "rec.lines");
	for (i = 0; i < r->nsites; i++) {
		const struct site *s = &r->sites[i];
		const char *base = strrchr(s->file, '/');
		char loc[64];

		if (!s->counts.fired && s->run <= 0)
			continue;
		snprintf(loc, sizeof(loc), "%s:%d", base ? base + 1 : s->file, s->line);
		fprintf(f, "  %-28s %-26s %8llu %9llu %6llu %5llu %8llu %9zu\n", s->name, loc,
			s->counts.fired, s->counts.oc[OC_RECOVERED], s->counts.oc[OC_ERROR], s->counts.oc[OC_EXIT],
			s->counts.oc[OC_NORETURN], s->nrecovery);
	}
	if (r->sites_idle)
		fprintf(f, "  (%zu more sites neither run nor fired)\n", r->sites_idle);
	for (i = 1; i < r->nruns; i++)
		if (strcmp(r->runs[i].status, "ok"))
			fprintf(f, "  run %s: %s\n", r->runs[i].name, r->runs[i].status);
	if (r->findings)
		fprintf(f, "  findings         %zu (runs crashed, hung or with a kernel report, of %zu runs; baseline %s)\n",
			r->findings->n, r->nruns,
			r->findings->nbase ? "has kernel reports" : "clean");
}
