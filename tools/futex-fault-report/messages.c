// SPDX-License-Identifier: GPL-2.0
/*
 * Errors and warnings, to stderr as "futex-fault-report: error: <file>: ...".
 *
 * Whoever reads a trace (a worker process, or the report's own with -j 1)
 * keeps its messages instead (ffr_msg_capture()); they are printed when
 * that trace is merged, so what stderr says, and which error stops the
 * report, does not depend on which worker finished first.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "messages.h"
#include "util.h"

static __thread struct strbuf *msg_sink;

void ffr_msg_capture(struct strbuf *sb)
{
	msg_sink = sb;
}

static void vmsg(const char *kind, const char *file, const char *fmt, va_list ap)
{
	char *text;

	if (vasprintf(&text, fmt, ap) < 0)
		text = NULL;
	if (msg_sink)
		sb_printf(msg_sink, "futex-fault-report: %s: %s: %s\n", kind, file,
			  text ? text : fmt);
	else
		fprintf(stderr, "futex-fault-report: %s: %s: %s\n", kind, file, text ? text : fmt);
	free(text);
}

int ffr_error(const char *file, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("error", file, fmt, ap);
	va_end(ap);
	return -1;
}

void ffr_warn(const char *file, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmsg("warning", file, fmt, ap);
	va_end(ap);
}
