// SPDX-License-Identifier: GPL-2.0
/*
 * The command line: options into struct report, the mode (a report on a
 * results directory or on the shards of one campaign, --compare of two, or
 * --parse on traces) into struct options.
 */
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "compare.h"
#include "report.h"
#include "util.h"

static void usage(FILE *f)
{
	fputs("usage: futex-fault-report [options] RESULTS\n"
	      "       futex-fault-report -o DIR [options] SHARD...\n"
	      "       futex-fault-report --compare [--fail-on LIST] [options] OLD NEW\n"
	      "       futex-fault-report --parse TRACE.dat...\n"
	      "\n"
	      "Report which futex error paths a fault-injection campaign exercised.\n"
	      "RESULTS is a campaign results directory (docs/results-layout.md).\n"
	      "SHARD... are the results directories of scripts/campaign --shard i/N, one\n"
	      "for each i of 1..N, in any order: one report, as of the campaign run whole\n"
	      "(shard 1's baseline); refused when they are not of one kernel build, or a\n"
	      "site run is in two of them.\n"
	      "\n"
	      "  -o, --output DIR     where to write the report (default RESULTS/report,\n"
	      "                       needed with shards),\n"
	      "                       with --compare the comparison (default NEW/compare);\n"
	      "                       replaced as a whole, only once complete\n"
	      "      --objtree DIR    kernel build directory (default: campaign.json)\n"
	      "      --srctree DIR    kernel source tree, when RESULTS has no src/ (default:\n"
	      "                       campaign.json)\n"
	      "      --gcov PROG      gcov program (default: gcov, or $GCOV)\n"
	      "      --exclude FILE   leave FILE (a name in kernel/futex) out of the coverage;\n"
	      "                       default: fault.c, the injection code itself;\n"
	      "                       --exclude '' keeps every file\n"
	      "  -j, --jobs N         read N traces at a time, in N processes (default: the\n"
	      "                       online CPUs)\n"
	      "  -q, --quiet          no summary on stdout\n"
	      "      --parse          only parse the traces given, print record counts and rate\n"
	      "      --compare        compare campaign OLD with campaign NEW: each a results\n"
	      "                       directory, read as for a report (the options above\n"
	      "                       apply to both), or a report directory whose report.json\n"
	      "                       names its results directory; writes compare.json and\n"
	      "                       index.html. Exit status 0: no regression of the\n"
	      "                       --fail-on set, 3: a regression, 1: bad input, 2: usage\n"
	      "      --fail-on LIST   regressions that make the exit status 3, comma-separated:\n"
	      "                       site-stopped-firing, outcome-worse, errno-changed,\n"
	      "                       new-finding, workload-failed, lost-line,\n"
	      "                       uncovered-new, or all, or none (default:\n"
	      "                       site-stopped-firing,outcome-worse,errno-changed,\n"
	      "                       new-finding,workload-failed)\n"
	      "  -h, --help           this text\n", f);
}

int parse_options(struct report *r, struct options *o, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "output", required_argument, NULL, 'o' },
		{ "objtree", required_argument, NULL, 'O' },
		{ "srctree", required_argument, NULL, 'S' },
		{ "gcov", required_argument, NULL, 'g' },
		{ "exclude", required_argument, NULL, 'x' },
		{ "jobs", required_argument, NULL, 'j' },
		{ "quiet", no_argument, NULL, 'q' },
		{ "parse", no_argument, NULL, 'p' },
		{ "compare", no_argument, NULL, 'C' },
		{ "fail-on", required_argument, NULL, 'F' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	bool exclude_set = false, fail_on_set = false;
	char *end;
	int c;

	memset(o, 0, sizeof(*o));
	o->fail_on = cmp_fail_on_default;
	r->gcov = getenv("GCOV") ? getenv("GCOV") : "gcov";
	r->workers = sysconf(_SC_NPROCESSORS_ONLN);
	while ((c = getopt_long(argc, argv, "o:j:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'o':
			r->outdir = optarg;
			break;
		case 'O':
			r->objtree = xstrdup(optarg);
			break;
		case 'S':
			r->srctree = xstrdup(optarg);
			break;
		case 'g':
			r->gcov = optarg;
			break;
		case 'x':
			exclude_set = true;
			if (!*optarg)
				break;
			r->exclude = xrealloc(r->exclude, (r->nexclude + 1) * sizeof(*r->exclude));
			r->exclude[r->nexclude++] = optarg;
			break;
		case 'j':
			r->workers = strtol(optarg, &end, 10);
			if (*end || r->workers < 1 || r->workers > 1024) {
				fprintf(stderr, "futex-fault-report: -j wants a number of processes, 1 to 1024\n");
				return 2;
			}
			break;
		case 'q':
			r->quiet = true;
			break;
		case 'p':
			o->parse_only = true;
			break;
		case 'C':
			o->compare = true;
			break;
		case 'F':
			fail_on_set = true;
			if (cmp_parse_fail_on(optarg, &o->fail_on))
				return CMP_EXIT_USAGE;
			break;
		case 'h':
			usage(stdout);
			return 0;
		default:
			usage(stderr);
			return 2;
		}
	}
	o->args = argv + optind;
	o->nargs = argc - optind;
	if (o->parse_only) {
		if (!o->nargs) {
			usage(stderr);
			return 2;
		}
		return -1;
	}
	if (fail_on_set && !o->compare) {
		fprintf(stderr, "futex-fault-report: --fail-on goes with --compare\n");
		return 2;
	}
	if (o->compare ? o->nargs != 2 : o->nargs < 1) {
		usage(stderr);
		return 2;
	}
	if (!o->compare && o->nargs > 1 && !r->outdir) {
		fprintf(stderr, "futex-fault-report: several results directories (the shards of a campaign) need -o DIR: the report is of none of them alone\n");
		return 2;
	}
	if (!exclude_set) {
		r->exclude = xcalloc(1, sizeof(*r->exclude));
		r->exclude[r->nexclude++] = "fault.c";
	}
	if (o->compare)
		return -1;
	r->results = o->args[0];
	if (o->nargs > 1) {
		r->shards = o->args;
		r->nshards = o->nargs;
	}
	if (!r->outdir)
		r->outdir = xasprintf("%s/report", r->results);
	return -1;
}
