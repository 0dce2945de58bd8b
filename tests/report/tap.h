/* SPDX-License-Identifier: GPL-2.0 */
/*
 * TAP output for the C tests of the reporter: CHECK(cond, fmt, ...) prints
 * "ok N - ..." or "not ok N - ... (file:line)"; tap_done() the plan and
 * main()'s exit status.  One test program per file, so the counters are
 * static.
 */
#ifndef FFR_TAP_H
#define FFR_TAP_H

#include <stdarg.h>
#include <stdio.h>

static int ntest, nfail;

#define CHECK(cond, ...) tap_check(!!(cond), __FILE__, __LINE__, __VA_ARGS__)

static void tap_check(int ok, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void tap_check(int ok, const char *file, int line, const char *fmt, ...)
{
	va_list ap;

	ntest++;
	printf("%sok %d - ", ok ? "" : "not ", ntest);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (!ok) {
		printf(" (%s:%d)", file, line);
		nfail++;
	}
	putchar('\n');
}

/* the plan; 1 if any test failed, as main() returns */
static inline int tap_done(const char *prog)
{
	printf("1..%d\n", ntest);
	if (nfail)
		fprintf(stderr, "%s: %d of %d failed\n", prog, nfail, ntest);
	return nfail ? 1 : 0;
}

#endif /* FFR_TAP_H */
