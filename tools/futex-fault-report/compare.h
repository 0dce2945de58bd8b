/* SPDX-License-Identifier: GPL-2.0 */
/*
 * futex-fault-report --compare OLD NEW: two campaigns side by side.  Sites
 * are matched by name, source lines by content (an LCS diff per file,
 * lines of the same function only), and each error-path line gets one of
 * lcov's differential-coverage categories.  The definitions are in
 * README.md ("Compare mode").
 */
#ifndef FFR_COMPARE_H
#define FFR_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "report.h"
#include "svg.h"

/*
 * lcov's differential coverage categories (genhtml --baseline-file), in the
 * order they are shown, each with what it means here.
 */
#define CMP_CATEGORIES								\
	CMP_CAT(CBC, "covered baseline: covered in OLD and NEW")		\
	CMP_CAT(LBC, "lost baseline: covered in OLD, not in NEW")		\
	CMP_CAT(GBC, "gained baseline: not covered in OLD, covered in NEW")	\
	CMP_CAT(UBC, "uncovered baseline: covered in neither")			\
	CMP_CAT(GIC, "gained included: not code in OLD, covered in NEW")	\
	CMP_CAT(UIC, "uncovered included: not code in OLD, not covered in NEW")	\
	CMP_CAT(ECB, "excluded covered baseline: covered in OLD, not code in NEW") \
	CMP_CAT(EUB, "excluded uncovered baseline: not covered in OLD, not code in NEW") \
	CMP_CAT(GNC, "gained new code: only in NEW, covered")			\
	CMP_CAT(UNC, "uncovered new code: only in NEW, not covered")		\
	CMP_CAT(DCB, "deleted covered baseline: only in OLD, covered there")	\
	CMP_CAT(DUB, "deleted uncovered baseline: only in OLD, not covered there")

enum cmp_cat {
#define CMP_CAT(name, text)	CAT_##name,
	CMP_CATEGORIES
#undef CMP_CAT
	CAT_NR,
	CAT_NONE = CAT_NR,	/* not an error-path line on either side */
};

extern const char *const cmp_cat_names[CAT_NR];
extern const char *const cmp_cat_text[CAT_NR];

/*
 * The regressions: the name --fail-on takes, whether its default has it.
 * What each is: README.md ("Regressions"), compare.c.
 */
#define CMP_REGRESSIONS							\
	CMP_REG(STOPPED, "site-stopped-firing", true)			\
	CMP_REG(OUTCOME, "outcome-worse", true)				\
	CMP_REG(ERRNO, "errno-changed", true)				\
	CMP_REG(FINDING, "new-finding", true)				\
	CMP_REG(WORKLOAD, "workload-failed", true)			\
	CMP_REG(LOST_LINE, "lost-line", false)				\
	CMP_REG(UNCOVERED_NEW, "uncovered-new", false)

enum cmp_reg {
#define CMP_REG(id, name, dflt)	REG_##id,
	CMP_REGRESSIONS
#undef CMP_REG
	REG_NR
};

extern const char *const cmp_reg_names[REG_NR];
/* --fail-on's default, 1 << enum cmp_reg */
extern const unsigned int cmp_fail_on_default;

/* exit status of --compare */
#define CMP_EXIT_OK		0
#define CMP_EXIT_ERROR		1	/* bad input (a file named on stderr) */
#define CMP_EXIT_USAGE		2
#define CMP_EXIT_REGRESSION	3

/* one line of the side-by-side source: matched, only in OLD or only in NEW */
struct cmp_line {
	int	old_ln;		/* 0: not in OLD */
	int	new_ln;		/* 0: not in NEW */
	int	cat;		/* enum cmp_cat, CAT_NONE if not an error-path line */
	char	*function;	/* the innermost function holding it (NEW's, else OLD's) */
};

struct cmp_file {
	char			*rel;		/* kernel/futex/core.c */
	char			*page;		/* files/core.c.html */
	const struct srcfile	*old, *new;	/* NULL: not in that campaign */
	struct cmp_line		*lines;
	size_t			nlines;
	size_t			cat[CAT_NR];
};

struct cmp_site {
	const char		*name;
	const struct site	*old, *new;	/* NULL: not in that campaign */
	unsigned int		regs;		/* 1 << REG_* */
	char			*detail;	/* what outcome-worse saw, or NULL */
	char			*errno_detail;	/* what errno-changed saw, or NULL */
};

/* a finding of NEW that OLD has not: no finding of the same run and title */
struct cmp_finding {
	const struct finding	*fd;
	const struct run	*run;
};

struct cmp_regression {
	enum cmp_reg	kind;
	const char	*site;		/* NULL for a line or a baseline finding */
	const char	*title;		/* new-finding: the report's title; workload-failed: what failed */
	int		file;		/* into compare.files, -1 if none */
	size_t		line;		/* into that file's lines */
	bool		fails;		/* kind is in --fail-on */
};

struct compare {
	struct report		*old, *new;
	const char		*old_arg, *new_arg;
	const char		*outdir;
	unsigned int		fail_on;	/* 1 << REG_* */
	bool			quiet;

	struct cmp_site		*sites;
	size_t			nsites, capsites;
	struct cmp_file		*files;
	size_t			nfiles, capfiles;
	struct cmp_finding	*findings;
	size_t			nfindings, capfindings;
	struct cmp_regression	*regs;
	size_t			nregs, capregs;

	size_t			cat[CAT_NR];		/* every file */
	size_t			reg_count[REG_NR];
	size_t			failing;		/* regressions in fail_on */
	double			seconds;
};

/* "site-stopped-firing,lost-line", "all", "none" into *mask; -1 naming a bad value */
int cmp_parse_fail_on(const char *list, unsigned int *mask);

/* OLD or NEW as given: the results directory to read, or NULL after an error */
char *cmp_results_dir(const char *arg);
/* OUT when -o is not given */
char *cmp_default_outdir(const char *new_arg, const char *new_results);

/* match the two campaigns, classify, find the regressions */
int compare_analyse(struct compare *c);
/* compare.json, the pages, into OUT as a whole (output_swap.c) */
int compare_write(struct compare *c);
int compare_write_json(const struct compare *c, const char *path);
int compare_write_html(const struct compare *c, const char *dir);
void compare_print_summary(const struct compare *c, FILE *f);
/* the site of that name, NULL if neither campaign has it */
const struct cmp_site *cmp_site_find(const struct compare *c, const char *name);

/* html.c's charts, shared with compare_html.c */
extern const struct svg_chart html_outcome_chart, html_coverage_chart;
/* a bar of a site's outcomes (c NULL: the site is absent) */
void html_outcome_bar(struct svg_bar *b, const char *label, const char *sub,
		      const struct site_counts *c);
/* a bar of a tally's share covered in the baseline or the campaign (t NULL: absent) */
void html_coverage_bar(struct svg_bar *b, const char *label, const char *sub,
		       const struct tally *t, bool baseline);

#endif /* FFR_COMPARE_H */
