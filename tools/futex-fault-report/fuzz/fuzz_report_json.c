// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: a report.json as the plugin loads it (-O
 * futex_fault:report=FILE): jansson's parser and the plugin's reading of
 * it, then the lookups and the
 * annotation printed for every site named in it and for one that is not.
 */
#include "fuzz.h"

#include "../plugin_futex_fault.c"

static char *path;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	tep_set_loglevel(TEP_LOG_NONE);
	path = fuzz_scratch("report.json");
	opt_report->value = path;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct trace_seq s;
	size_t i;

	fuzz_write(path, data, size);
	report_load(path);
	trace_seq_init(&s);
	print_report(&s, "wait_get_value");
	for (i = 0; i < rep.nsites; i++)
		print_report(&s, rep.sites[i].name);
	trace_seq_destroy(&s);
	return 0;
}
