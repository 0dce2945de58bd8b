// SPDX-License-Identifier: GPL-2.0
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util.h"

static void oom(void)
{
	fputs("futex-fault-report: out of memory\n", stderr);
	exit(2);
}

void *xmalloc(size_t size)
{
	void *p = malloc(size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		oom();
	return p;
}

void *xrealloc(void *p, size_t size)
{
	p = realloc(p, size ? size : 1);
	if (!p)
		oom();
	return p;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *xstrndup(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		oom();
	va_end(ap);
	return p;
}

void grow(void *arr, size_t *cap, size_t n, size_t elem)
{
	void **p = arr;
	size_t c = *cap;

	if (n <= c)
		return;
	c = c ? c : 8;
	while (c < n)
		c *= 2;
	*p = xrealloc(*p, c * elem);
	memset((char *)*p + *cap * elem, 0, (c - *cap) * elem);
	*cap = c;
}

void sb_init(struct strbuf *sb)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->cap = 0;
}

void sb_free(struct strbuf *sb)
{
	free(sb->buf);
	sb_init(sb);
}

void sb_add(struct strbuf *sb, const char *s, size_t n)
{
	grow(&sb->buf, &sb->cap, sb->len + n + 1, 1);
	memcpy(sb->buf + sb->len, s, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void sb_puts(struct strbuf *sb, const char *s)
{
	sb_add(sb, s, strlen(s));
}

void sb_printf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	char *p;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&p, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	sb_add(sb, p, n);
	free(p);
}

char *read_file(const char *path, size_t *len)
{
	struct strbuf sb;
	char buf[65536];
	ssize_t n;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return NULL;
	sb_init(&sb);
	sb_add(&sb, "", 0);
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			err = errno;
			close(fd);
			sb_free(&sb);
			errno = err;
			return NULL;
		}
		sb_add(&sb, buf, n);
	}
	close(fd);
	if (len)
		*len = sb.len;
	return sb.buf;
}

void html_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&':
			fputs("&amp;", f);
			break;
		case '<':
			fputs("&lt;", f);
			break;
		case '>':
			fputs("&gt;", f);
			break;
		case '"':
			fputs("&quot;", f);
			break;
		case '\'':
			fputs("&#39;", f);
			break;
		default:
			putc(*s, f);
		}
	}
}

const char *errno_name(int err)
{
	static char buf[24];
	long e = err < 0 ? -(long)err : err;	/* -INT_MIN is not an int */
	const char *name;

	/* the kernel-internal restart codes user space never sees */
	switch (e) {
	case 512: return "ERESTARTSYS";
	case 513: return "ERESTARTNOINTR";
	case 514: return "ERESTARTNOHAND";
	case 516: return "ERESTART_RESTARTBLOCK";
	}
	name = e <= INT_MAX ? strerrorname_np(e) : NULL;
	if (name)
		return name;
	snprintf(buf, sizeof(buf), "E%ld", e);
	return buf;
}

int errno_value(const char *name)
{
	int e;

	if (*name == '-')
		name++;
	for (e = 1; e < 600; e++) {
		const char *n = strerrorname_np(e);

		if (n && !strcmp(n, name))
			return e;
	}
	if (name[0] == 'E' && name[1] >= '0' && name[1] <= '9')
		return atoi(name + 1);
	return 0;
}

/* the futex commands of include/uapi/linux/futex.h (ABI, never renumbered) */
static const char *const futex_cmds[] = {
	"FUTEX_WAIT", "FUTEX_WAKE", "FUTEX_FD", "FUTEX_REQUEUE", "FUTEX_CMP_REQUEUE",
	"FUTEX_WAKE_OP", "FUTEX_LOCK_PI", "FUTEX_UNLOCK_PI", "FUTEX_TRYLOCK_PI",
	"FUTEX_WAIT_BITSET", "FUTEX_WAKE_BITSET", "FUTEX_WAIT_REQUEUE_PI",
	"FUTEX_CMP_REQUEUE_PI", "FUTEX_LOCK_PI2",
};

#define FUTEX_PRIVATE_FLAG	128
#define FUTEX_CLOCK_REALTIME	256
#define FUTEX_CMD_MASK		(~(FUTEX_PRIVATE_FLAG | FUTEX_CLOCK_REALTIME))

const char *futex_cmd_name(int cmd)
{
	if (cmd < 0 || cmd >= (int)ARRAY_SIZE(futex_cmds))
		return NULL;
	return futex_cmds[cmd];
}

void futex_op_name(int op, char *buf, size_t size)
{
	const char *cmd;

	if (op == -1) {
		snprintf(buf, size, "none");
		return;
	}
	cmd = futex_cmd_name(op & FUTEX_CMD_MASK);
	if (!cmd) {
		snprintf(buf, size, "%d", op);
		return;
	}
	snprintf(buf, size, "%s%s%s", cmd, op & FUTEX_PRIVATE_FLAG ? "_PRIVATE" : "",
		 op & FUTEX_CLOCK_REALTIME ? "|FUTEX_CLOCK_REALTIME" : "");
}
