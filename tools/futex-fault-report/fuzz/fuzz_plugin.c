// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: the plugin's print handler given arbitrary field data for a
 * futex_fault_inject record, with the event format, command lines and
 * kallsyms of a fixture trace and, when $FFR_FUZZ_REPORT names one, a
 * report.json.
 *
 * The record is placed right before a page that cannot be read, so a read
 * past its end faults even where it happens inside libtraceevent (not
 * built with the sanitizers).
 *
 * With $FFR_FUZZ_DUMP set to a directory, it writes the fixture's
 * futex_fault_inject records there (the seeds) and exits.
 */
#include <sys/mman.h>

#include <trace-cmd.h>

#include "fuzz.h"

#include "../plugin_futex_fault.c"

static struct tracecmd_input *handle;
static struct tep_event *event;
static const char *dump_dir;
static int dumped;

static int dump_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *ctx)
{
	char *path;

	(void)h;
	(void)cpu;
	(void)ctx;
	if (rec->size < 2 || tep_data_type(event->tep, rec) != event->id)
		return 0;
	path = xasprintf("%s/record-%d", dump_dir, dumped++);
	fuzz_write(path, rec->data, rec->size);
	free(path);
	return 0;
}
static unsigned char *guard;	/* two pages, the second unreadable */
static size_t page;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *report = getenv("FFR_FUZZ_REPORT");
	(void)argc;
	(void)argv;
	tep_set_loglevel(TEP_LOG_NONE);
	/* the event format, command lines and kallsyms, as libtracecmd loads them */
	handle = tracecmd_open(fuzz_fixture("runs/wait_get_value/trace.dat"),
			       TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle)
		abort();
	event = tep_find_event_by_name(tracecmd_get_tep(handle), "futex_fault",
				       "futex_fault_inject");
	if (!event)
		abort();
	if (report && *report)
		opt_report->value = (char *)report;
	dump_dir = getenv("FFR_FUZZ_DUMP");
	if (dump_dir && *dump_dir) {
		if (tracecmd_iterate_events(handle, NULL, 0, dump_record, NULL) < 0)
			abort();
		printf("%d records in %s\n", dumped, dump_dir);
		exit(0);
	}
	page = sysconf(_SC_PAGESIZE);
	guard = mmap(NULL, 2 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (guard == MAP_FAILED || mprotect(guard + page, page, PROT_NONE))
		abort();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct tep_record rec = { 0 };
	struct trace_seq s;

	if (size > page)
		return 0;
	rec.data = guard + page - size;
	memcpy(rec.data, data, size);
	rec.size = size;
	rec.cpu = 0;
	trace_seq_init(&s);
	futex_fault_handler(&s, &rec, event, NULL);
	trace_seq_destroy(&s);
	return 0;
}
