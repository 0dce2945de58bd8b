/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The enumeration of an --nth campaign (scripts/campaign --nth): its
 * nth.tsv, a line a (scenario, call K, fail-nth N), summed per scenario.
 */
#ifndef FFR_NTH_H
#define FFR_NTH_H

#include <stddef.h>

struct nth_scenario {
	char			*name;
	unsigned long		calls;		/* the highest call K enumerated */
	unsigned long long	runs;		/* (K, N) lines */
	unsigned long long	injected;	/* "injected": the N-th site failed */
	unsigned long long	errors;		/* ... and the call returned an error */
	unsigned long long	failed;		/* the scenario failed or was killed */
};

struct nth {
	struct nth_scenario	*s;
	size_t			n;
	struct nth_scenario	all;		/* the sums (calls: of every scenario) */
};

/*
 * RESULTS/nth.tsv into *out (NULL, and 0 returned, when there is none);
 * -1 with the file and line named when it is not one
 */
int nth_read(const char *results, struct nth **out);
void nth_free(struct nth *nt);

#endif /* FFR_NTH_H */
