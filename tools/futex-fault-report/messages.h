/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Errors and warnings of the reporter, to stderr as
 * "futex-fault-report: error: <file>: <message>", or kept in a buffer
 * while a trace is read (see messages.c).
 */
#ifndef FFR_MESSAGES_H
#define FFR_MESSAGES_H

struct strbuf;

/* print "futex-fault-report: error: <file>: <message>"; returns -1 */
int ffr_error(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void ffr_warn(const char *file, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* this thread's messages go to sb instead of stderr (NULL: stderr again) */
void ffr_msg_capture(struct strbuf *sb);

#endif /* FFR_MESSAGES_H */
