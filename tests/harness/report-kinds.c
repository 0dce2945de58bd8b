// SPDX-License-Identifier: GPL-2.0
/*
 * report-kinds - the kernel reports futex-fault-report's findings see in
 * logs, one "KIND<TAB>LINE" per line that starts a report: the same output
 * as scripts/kernel-report -a, from the reporter's own code (findings.c,
 * its line cleaning and the table embedded from scripts/kernel-reports.txt),
 * so tests/harness/kernel-reports.sh can check that both agree.
 *
 * usage: report-kinds LOG...
 */
#include "findings.c"

int main(int argc, char **argv)
{
	struct log lg;
	size_t i;
	int a, k;

	if (argc < 2) {
		fprintf(stderr, "usage: report-kinds LOG...\n");
		return 2;
	}
	if (compile_starts())
		return 2;
	for (a = 1; a < argc; a++) {
		if (log_read(argv[a], &lg)) {
			fprintf(stderr, "report-kinds: %s: %s\n", argv[a], strerror(errno));
			return 2;
		}
		for (i = 0; i < lg.n; i++) {
			k = report_start(lg.line[i]);
			if (k >= 0)
				printf("%s\t%s\n", report_starts[k].kind, lg.line[i]);
		}
		log_free(&lg);
	}
	return 0;
}
