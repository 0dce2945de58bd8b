/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Small helpers shared by futex-fault-report and its plugin: checked
 * allocation, a growable string buffer, whole-file reads, HTML escaping.
 */
#ifndef FFR_UTIL_H
#define FFR_UTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
char *xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* grow *arr (of *cap elements of size elem) so that it holds at least n */
void grow(void *arr, size_t *cap, size_t n, size_t elem);

struct strbuf {
	char	*buf;
	size_t	len;
	size_t	cap;
};

void sb_init(struct strbuf *sb);
void sb_free(struct strbuf *sb);
void sb_add(struct strbuf *sb, const char *s, size_t n);
void sb_puts(struct strbuf *sb, const char *s);
void sb_printf(struct strbuf *sb, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/*
 * Read a whole file; NUL-terminated, *len (if not NULL) gets the size.
 * Returns NULL with errno set on failure.
 */
char *read_file(const char *path, size_t *len);

/* write escaped text */
void html_escape(FILE *f, const char *s);

/* "EFAULT" for 14; a static buffer with the number for unknown values */
const char *errno_name(int err);
/* 14 for "EFAULT" or "-EFAULT", 0 if unknown */
int errno_value(const char *name);

/* the name of a futex command (op & FUTEX_CMD_MASK) or NULL */
const char *futex_cmd_name(int cmd);
/* "FUTEX_WAIT_PRIVATE", "FUTEX_LOCK_PI|FUTEX_CLOCK_REALTIME", "none" for -1 */
void futex_op_name(int op, char *buf, size_t size);

#endif /* FFR_UTIL_H */
