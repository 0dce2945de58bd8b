/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Findings: runs that crashed or hung, or whose kernel log holds a kernel
 * report (WARNING, BUG, oops, lockdep, kmemleak, ...), each with its
 * report's text and whether the baseline, the same workloads without
 * injection, is clean.
 */
#ifndef FFR_FINDINGS_H
#define FFR_FINDINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

struct report;

/* one report block of a kernel log: the matching line and its stack */
struct kreport {
	char	*title;		/* the first line, timestamp removed */
	char	*key;		/* the title with its numbers masked, for comparing */
	char	**lines;	/* title first */
	size_t	nlines;
};

struct finding {
	int		run;		/* into report.runs */
	const char	*source;	/* dmesg.txt, console.txt, kmemleak.txt, run.json */
	const char	*health;	/* run.json "health", NULL if none */
	struct kreport	*reps;		/* reps[0] gives the title and stack */
	size_t		nreps;
	bool		baseline_clean;	/* no kernel report in the baseline */
	bool		baseline_same;	/* the baseline has a report of the same title */
};

struct findings {
	struct finding	*f;
	size_t		n, cap;
	struct kreport	*base;		/* the baseline's reports */
	size_t		nbase, capbase;
	char		**health;	/* [run] */
	size_t		nhealth;
};

/*
 * The command that runs a finding's site run again and says whether it
 * reproduces (scripts/repro RESULTS RUN), malloc'ed; NULL for the baseline
 * and for an anchor campaign, whose faults are drawn by probability.
 */
char *finding_repro(const struct report *r, const struct finding *fd);

/* read every run's logs; r->findings is set (never NULL) on success */
int findings_scan(struct report *r);
void findings_free(struct findings *fs);

#endif /* FFR_FINDINGS_H */
