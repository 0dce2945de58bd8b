// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: a report.json as the plugin loads it (-O
 * futex_fault:report=FILE): json.c's parser, then the lookups and the
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
	unsigned int i;

	fuzz_write(path, data, size);
	json_free(rep.doc);
	free(rep.path);
	memset(&rep, 0, sizeof(rep));
	trace_seq_init(&s);
	print_report(&s, "wait_get_value");
	for (i = 0; !rep.failed && rep.sites && i < rep.sites->n; i++) {
		const char *name = json_str(rep.sites->kids[i], "name");

		if (name)
			print_report(&s, name);
	}
	trace_seq_destroy(&s);
	return 0;
}
