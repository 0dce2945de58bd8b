/* SPDX-License-Identifier: GPL-2.0 */
/*
 * futex-fault-report: one struct report owns everything read from a
 * results directory (docs/results-layout.md) and everything computed.
 */
#ifndef FFR_REPORT_H
#define FFR_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "crash_guard.h"
#include "messages.h"
#include "outcome.h"

#define FFR_LAYOUT_VERSION	1
#define FFR_SCHEMA		"futex-fault-report/1"
#define FFR_VERSION		"1.0"

/*
 * A campaign of a pristine kernel's fail_futex (scripts/anchor): its one
 * site, and the kretprobe on should_fail() whose records are its faults
 */
#define ANCHOR_SITE		"fail_futex"
#define ANCHOR_SYSTEM		"fail_futex"
#define ANCHOR_EVENT		"inject"

struct kv {
	long			key;
	unsigned long long	count;
};

struct task_count {
	char			*comm;
	int			pid;
	unsigned long long	count;
};

struct lineref {
	int	file;
	int	line;
	bool	error_path;	/* an error-path line (README.md "Error paths") */
};

/* how many items (lines, branch arcs, functions) there are, and how many ran */
struct tally {
	size_t	total;
	size_t	baseline;	/* ran in the baseline */
	size_t	campaign;	/* ran in some run */
};

/* the coverage of a file, or of all files */
struct totals {
	struct tally	lines, branches, functions;
	struct tally	error_lines, error_branches;
	size_t		error_lines_never;		/* error-path lines that never ran */
	size_t		error_lines_injection_only;	/* ran only under injection */
};

/* what a line of a source page shows */
enum line_kind {
	LINE_NOCODE,		/* gcov has no record of it */
	LINE_BASELINE,		/* ran in the baseline */
	LINE_INJECTION,		/* ran only under injection */
	LINE_ERROR_NEVER,	/* error-path line that never ran */
	LINE_NEVER,		/* never ran */
};

struct source_line {
	enum line_kind	kind;
	bool		error_path;	/* an error-path line, code or not */
	size_t		*sites;		/* sites whose marker is on this line */
	size_t		nsites;
	size_t		*reached_by;	/* sites whose run ran it when the baseline did not */
	size_t		nreached;
	size_t		*reached_by_run;	/* site-less runs (races) that did */
	size_t		nreached_run;
};

/* what a site's injected faults did, in one trace or summed over all */
struct site_counts {
	unsigned long long	fired;
	unsigned long long	oc[OC_NR];
	struct kv		*errors;	/* errno returned to user space -> count */
	size_t			nerrors, caperrors;
	struct kv		*ops;		/* futex op -> count */
	size_t			nops, capops;
	unsigned long long	caller;		/* first caller address seen */
	char			*caller_sym;
};

struct site {
	char			*name;
	char			*file;		/* kernel/futex/waitwake.c */
	char			*function;
	char			*errname;	/* EFAULT */
	int			line;		/* 0: unknown */
	/* the line was found in the source, the table said 0 */
	bool			line_from_source;
	int			file_idx;	/* into report.files, -1 if not profiled */
	int			run;		/* run enabling it, -1 if none */
	struct site_counts	counts;		/* over every trace */
	struct task_count	*tasks;		/* the busiest first */
	size_t			ntasks, captasks;
	/* recovery path: lines that ran in its run and not in the baseline */
	struct lineref		*recovery;
	size_t			nrecovery, caprecovery;
	size_t			recovery_error_lines;	/* of which error-path lines */
	size_t			recovery_branches;	/* branch arcs taken only in its run */
	long long		table_hits;	/* from its run's sites.txt, -1 unknown */
	long long		table_injected;
};

struct workload {
	char	*name;
	char	*command;
	bool	has_status;
	int	exit_status;
	bool	checks;		/* its exit status says whether the kernel kept the futex contract */
};

/* the coverage of one source file in one run */
struct covdata {
	unsigned long long	*lines;		/* [line] */
	unsigned long long	**br;		/* [line][arc] */
	unsigned long long	*fn;		/* [function] */
};

struct func {
	char	*name;
	int	start;
	int	end;
};

struct srcfile {
	char		*rel;		/* kernel/futex/core.c */
	char		*abs;		/* the path gcov reports */
	char		*page;		/* files/core.c.html */
	char		*text;		/* source, NULL if unreadable */
	char		**line_text;	/* [1..nlines] */
	int		nlines;
	unsigned char	*errpath;	/* EP_* flags [0..nlines+1] */
	int		maxline;
	unsigned char	*has;		/* [line]: gcov has a record */
	int		*nbr;		/* [line]: branch arcs */
	struct func	*funcs;
	size_t		nfuncs, capfuncs;
	struct covdata	*cov;		/* [run] */
	struct covdata	campaign;	/* sum over every run */
	struct totals	totals;
	struct source_line *src_lines;	/* [1..max(nlines, maxline)] */
	int		nsrc_lines;
};

/*
 * One injected fault and what became of it: a line of faults/<run>.tsv,
 * which the plugin reads to say on each event line what became of that
 * fault (README.md "Per-fault outcomes")
 */
struct fault {
	unsigned long long	ts;	/* its record's time stamp, as libtracecmd gives it */
	long			ret;	/* what user space saw, for OC_ERROR and OC_RECOVERED */
	int			pid;
	int			cpu;
	unsigned int		site;	/* into report.sites */
	unsigned int		oc;	/* enum oc_outcome; OC_NR until settled */
};

struct run {
	char			*name;
	char			*dir;
	char			*status;	/* ok, crash, hang */
	char			**enabled;
	size_t			nenabled;
	struct workload		*wl;
	size_t			nwl;
	bool			has_cov;
	unsigned long long	injects;
	unsigned long long	records;
	unsigned long long	lost;
	size_t			ntraces;
	/*
	 * a run with no site on besides the baseline (the races): the lines
	 * it ran and the baseline did not
	 */
	struct lineref		*beyond;
	size_t			nbeyond, capbeyond;
	size_t			beyond_error_lines;
	/* every injected fault of its traces, in time order within each trace */
	struct fault		*faults;
	size_t			nfaults, capfaults;
};

struct report {
	const char	*results;	/* the results directory; of shards, "DIR1, DIR2, ..." */
	/*
	 * Several results directories read as one campaign, the shards of
	 * scripts/campaign --shard i/N: in shard order once read (results.c)
	 */
	char		**shards;
	size_t		nshards;
	const char	*outdir;
	char		*objtree;
	char		*srctree;
	/*
	 * The profiled source directories, relative to the trees:
	 * kernel/futex first, then any other (6.12: io_uring, whose futex.c
	 * alone is profiled), and for each where its .gcno are read from
	 */
	char		**gcov_dirs;
	char		**gcno_dirs;
	size_t		ndirs;
	char		*kversion;
	const char	*gcov;		/* the gcov program */
	char		**exclude;	/* file names left out of the coverage */
	size_t		nexclude;
	bool		quiet;
	int		workers;	/* processes reading traces (-j) */

	struct site	*sites;
	size_t		nsites, capsites;
	struct run	*runs;		/* runs[0] is the baseline */
	size_t		nruns, capruns;
	struct srcfile	*files;
	size_t		nfiles, capfiles;

	unsigned long long	events;		/* records read, all traces */
	double			trace_seconds;
	double			gcov_seconds;
	double			total_seconds;
	char		*tmpdir;
	struct findings	*findings;	/* findings.c, filled by analyse() */
	struct nth	*nth;		/* an --nth campaign's nth.tsv (nth.c), or NULL */

	/* filled by analyse() */
	struct totals		totals;			/* every file */
	unsigned long long	outcomes[OC_NR];	/* every site */
	unsigned long long	injected;		/* faults injected, every site */
	size_t			sites_fired;		/* sites that fired at least once */
	size_t			sites_idle;		/* neither enabled by a run nor fired */
};

/* options.c: what the command line asks for, beside the options kept in struct report */
struct options {
	bool	parse_only;	/* --parse: args are traces */
	bool	compare;	/* --compare OLD NEW */
	unsigned int fail_on;	/* --fail-on, 1 << enum cmp_reg */
	char	**args;		/* the arguments after the options */
	int	nargs;
};

/* the command line into r and o; -1 to go on, else main()'s exit status (usage printed) */
int parse_options(struct report *r, struct options *o, int argc, char **argv);

/*
 * results.c: campaign.json, the runs' run.json and sites.txt, where the .gcno
 * are; of r->results, or of the r->shards as one campaign
 */
int results_load(struct report *r);

/* output_swap.c: every output file into <out>.tmp-PID, then renamed into place */
int write_report(struct report *r);
/* the same for any output: fill() writes the files into the directory it is given */
int output_swap(const char *outdir, int (*fill)(void *ctx, const char *dir), void *ctx);
/* close a written output file; -1 after an error message naming it if writing failed */
int output_close(FILE *f, const char *path);

/*
 * site_locate.c: each site's file, line and function, from its marker in
 * the sources where the site table does not say them; sets file_idx
 */
int sites_locate(struct report *r);
/* the innermost function of gcov's holding the line, named as in the source; NULL if none */
char *srcfile_function(const struct srcfile *f, int line);

/* sites.c */
int sites_load(struct report *r, const char *path);
struct site *site_find(struct report *r, const char *name);
void site_count(struct kv **arr, size_t *n, size_t *cap, long key, unsigned long long inc);
/* add c's fired, outcomes, errors and ops to sum (not the caller) */
void site_counts_add(struct site_counts *sum, const struct site_counts *c);

/* trace_pool.c, trace_reader.c: read every run's traces (r->workers at a time), merged in run order */
int trace_read_runs(struct report *r);
double trace_bench(const char *path, unsigned long long *events, unsigned long long *injects);

/* gcov.c */
int cov_load(struct report *r);
int srcfile_index(struct report *r, const char *rel);

/*
 * analyse.c: the one pass from what was read to what is shown: the
 * campaign's coverage, each site's recovery path, the totals, what each
 * source line shows, the findings.  The renderers only read its results.
 */
int analyse(struct report *r);
/* the coverage part of analyse(): the campaign's sums and the totals */
void analyse_coverage(struct report *r);
/* the line has a gcov record (it is code); it is an error-path line (README.md) */
bool srcfile_code_line(const struct srcfile *f, int line);
bool srcfile_error_line(const struct srcfile *f, int line);

/* the renderers: report_json.c, html.c, lcov.c, summary.c */
int write_json(const struct report *r, const char *path);
int write_html(const struct report *r, const char *dir);
/* the baseline's coverage, or the campaign's */
int write_lcov(const struct report *r, const char *path, bool baseline);
void print_summary(const struct report *r, FILE *f);
/* faults.c: dir/faults/<run>.tsv for each run with injected faults */
int write_faults(const struct report *r, const char *dir);
/* "faults/<run>.tsv" for a run with injected faults, else NULL; to be freed */
char *faults_file(const struct run *rn);

/*
 * report_json.c, for compare_json.c too: a JSON string of s (null for NULL,
 * bytes that are not UTF-8 as '?'), an array of them; root written to path,
 * indented, and released (NULL: jansson could not build it)
 */
json_t *ffr_json_str(const char *s);
json_t *ffr_json_strings(char *const *v, size_t n);
int ffr_json_write(json_t *root, const char *path);

/* html.c, for compare_html.c too */
struct html_pages {
	const void	*ctx;
	size_t		npages;
	/* the i-th page's path in the output, "files/<name>.html" */
	const char	*(*page)(const void *ctx, size_t i);
	void		(*write_page)(const void *ctx, size_t i, FILE *f);
	void		(*write_index)(const void *ctx, FILE *f);
};

/* dir/files/, each page, then dir/index.html; -1 after an error naming the file */
int html_write_pages(const char *dir, const struct html_pages *p);
/* the page head: the shared CSS and page_css (NULL: none), the title */
void html_head(FILE *f, const char *title, const char *page_css);
/* the script that sorts a table.sortable by the heading clicked */
void html_sort_script(FILE *f);
/* a number a test can find: <span data-k="key">v</span> */
void html_num(FILE *f, const char *key, unsigned long long v);

/* main.c: a results directory read and analysed (the report's steps but the output) */
int results_analyse(struct report *r);
/* a new scratch directory under $TMPDIR, /dev/shm or /tmp */
char *scratch_dir(void);

#endif /* FFR_REPORT_H */
