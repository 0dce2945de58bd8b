// SPDX-License-Identifier: GPL-2.0
/*
 * Where each site is in the sources.
 *
 * A site is the point where kernel/futex calls futex_fault(<name>, ...).
 * The site table of interface v1 names the file and the function, and the
 * line once the site has run; v2's names neither.  So the reporter reads
 * the marker "futex_fault(<name>," (the name a whole word, then a comma) in
 * the .c files of the profiled directories (<srctree>/kernel/futex, and
 * <srctree>/io_uring on 6.12), in that order and in name order in each:
 *
 * - a v1 site whose table says line 0 gets the line of its first marker in
 *   its file (line_from_source);
 * - a v2 site gets the file and line of its first marker anywhere, and its
 *   function from gcov: the smallest of the file's function ranges in
 *   gcov's JSON that holds the line, which knows about inlined and static
 *   functions and macros like SYSCALL_DEFINE (whose body gcov calls
 *   __do_sys_<name>: the site table's name for it is <name>, as the source
 *   spells it).
 *
 * One marker a site is the norm.  A few (up to SITE_MARKERS_MAX) are
 * allowed, the first taken and the others noted in a warning; more, or
 * none for a v2 site, is an error: the sources are not those of the kernel
 * that ran.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "util.h"

#define SITE_MARKERS_MAX	4

struct marker {
	char	*name;		/* the site's name */
	char	*rel;		/* kernel/futex/waitwake.c */
	int	line;
};

struct markers {
	struct marker	*m;
	size_t		n, cap;
};

static bool ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* every futex_fault(<name>, on the lines of text */
static void scan_file(struct markers *ms, const char *rel, const char *text)
{
	static const char tok[] = "futex_fault(";
	const char *p, *q, *e, *bol = text;
	int line = 1;

	for (p = strstr(text, tok); p; p = strstr(p + 1, tok)) {
		for (; bol < p; bol++)
			line += *bol == '\n';
		if (p > text && ident_char(p[-1]))
			continue;	/* __futex_fault( */
		q = p + strlen(tok);
		while (*q == ' ' || *q == '\t')
			q++;
		for (e = q; ident_char(*e); e++)
			;
		if (e == q)
			continue;
		p = e;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != ',')
			continue;
		grow(&ms->m, &ms->cap, ms->n + 1, sizeof(*ms->m));
		ms->m[ms->n].name = xstrndup(q, e - q);
		ms->m[ms->n].rel = xstrdup(rel);
		ms->m[ms->n].line = line;
		ms->n++;
	}
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the markers of the .c files of <srctree>/<gcov_dir> */
static int scan_dir(struct report *r, const char *gcov_dir, struct markers *ms)
{
	char *dir = xasprintf("%s/%s", r->srctree, gcov_dir);
	char **names = NULL, *path, *text, *rel;
	size_t n = 0, cap = 0, i, l;
	struct dirent *de;
	int ret = 0;
	DIR *d;

	d = opendir(dir);
	if (!d) {
		ret = ffr_error(dir, "cannot list the sources to find the sites in: %s",
				strerror(errno));
		free(dir);
		return ret;
	}
	while ((de = readdir(d))) {
		l = strlen(de->d_name);
		if (l < 3 || strcmp(de->d_name + l - 2, ".c"))
			continue;
		grow(&names, &cap, n + 1, sizeof(*names));
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(*names), cmp_name);
	for (i = 0; i < n; i++) {
		path = xasprintf("%s/%s", dir, names[i]);
		text = read_file(path, NULL);
		if (!text && !ret)
			ret = ffr_error(path, "%s", strerror(errno));
		if (text) {
			rel = xasprintf("%s/%s", gcov_dir, names[i]);
			scan_file(ms, rel, text);
			free(rel);
		}
		free(text);
		free(path);
		free(names[i]);
	}
	free(names);
	free(dir);
	return ret;
}

static int scan_sources(struct report *r, struct markers *ms)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < r->ndirs; i++)
		ret |= scan_dir(r, r->gcov_dirs[i], ms);
	return ret ? -1 : 0;
}

/* for messages: each profiled directory as DIR followed by the .c wildcard */
static char *scanned(const struct report *r)
{
	struct strbuf sb;
	size_t i;

	sb_init(&sb);
	for (i = 0; i < r->ndirs; i++)
		sb_printf(&sb, "%s%s/*.c", i ? " " : "", r->gcov_dirs[i]);
	return sb.buf;
}

/* "__do_sys_futex" -> "futex", "__do_compat_sys_get_robust_list" -> "compat_get_robust_list" */
static char *source_name(const char *fn)
{
	if (!strncmp(fn, "__do_sys_", 9))
		return xstrdup(fn + 9);
	if (!strncmp(fn, "__do_compat_sys_", 16))
		return xasprintf("compat_%s", fn + 16);
	return xstrdup(fn);
}

/*
 * The function whose definition holds @line, read from the source in kernel
 * style: the body opens with "{" alone in column 0 and closes with "}" in
 * column 0, and the declarator before the body names the function (the
 * first argument of a SYSCALL_DEFINEn).  For what gcov has no record of as
 * a function: an __always_inline helper, whose lines count in its callers.
 */
static char *source_function(const struct srcfile *f, int line)
{
	const char *t, *p, *q;
	struct strbuf decl;
	char *name = NULL;
	int open, ln;

	if (!f->text || line < 1 || line > f->nlines)
		return NULL;
	for (open = line; open >= 1; open--) {
		t = f->line_text[open];
		if (t[0] == '}')
			return NULL;
		if (t[0] == '{' && (!t[1] || isspace((unsigned char)t[1])))
			break;
	}
	if (open < 1)
		return NULL;
	/* the declarator: the lines above up to a blank one or the end of another */
	for (ln = open - 1; ln >= 1; ln--) {
		t = f->line_text[ln];
		if (!t[0] || t[0] == '#' || t[0] == '}' || strstr(t, "*/") ||
		    t[strlen(t) - 1] == ';')
			break;
	}
	sb_init(&decl);
	for (ln++; ln < open; ln++)
		sb_printf(&decl, "%s ", f->line_text[ln]);
	p = strchr(decl.buf, '(');
	if (p) {
		q = p;
		while (q > decl.buf && (isalnum((unsigned char)q[-1]) || q[-1] == '_'))
			q--;
		if (!strncmp(q, "SYSCALL_DEFINE", 14) || !strncmp(q, "COMPAT_SYSCALL_DEFINE", 21)) {
			const char *a = p + 1, *e = a + strcspn(a, ",)");

			if (e > a)
				name = xasprintf("%s%.*s", *q == 'C' ? "compat_" : "",
						 (int)(e - a), a);
		} else if (q < p) {
			name = xasprintf("%.*s", (int)(p - q), q);
		}
	}
	sb_free(&decl);
	return name;
}

/*
 * The function of gcov's JSON that holds the line, the innermost if several;
 * else the one whose definition holds it in the source.
 */
char *srcfile_function(const struct srcfile *f, int line)
{
	const struct func *best = NULL;
	size_t i;

	for (i = 0; i < f->nfuncs; i++) {
		const struct func *fn = &f->funcs[i];

		if (fn->start <= line && line <= fn->end &&
		    (!best || fn->end - fn->start < best->end - best->start))
			best = fn;
	}
	return best ? source_name(best->name) : source_function(f, line);
}

static int locate(struct report *r, struct site *s, const struct markers *ms)
{
	const struct marker *first = NULL;
	struct strbuf others;
	size_t i, n = 0;
	int ret = 0;

	sb_init(&others);
	for (i = 0; i < ms->n; i++) {
		const struct marker *m = &ms->m[i];

		if (strcmp(m->name, s->name) || (s->file && strcmp(m->rel, s->file)))
			continue;
		if (!first)
			first = m;
		else
			sb_printf(&others, "%s %s:%d", n > 1 ? "," : "", m->rel, m->line);
		n++;
	}
	if (!n) {
		/* v1 names the file: a line it cannot find stays unknown, as the table said */
		if (!s->file) {
			char *where = scanned(r);

			ret = ffr_error(r->srctree, "site '%s' of the site table: no 'futex_fault(%s,' in %s: sources of another kernel?",
					s->name, s->name, where);
			free(where);
		}
	} else if (n > SITE_MARKERS_MAX) {
		char *where = scanned(r);

		ret = ffr_error(r->srctree, "site '%s': %zu markers 'futex_fault(%s,' in %s, at most %d expected: %s:%d,%s",
				s->name, n, s->name, where, SITE_MARKERS_MAX, first->rel,
				first->line, others.buf);
		free(where);
	} else {
		if (n > 1)
			ffr_warn(r->srctree, "site '%s' is marked %zu times; taking %s:%d, not%s",
				 s->name, n, first->rel, first->line, others.buf);
		if (!s->file)
			s->file = xstrdup(first->rel);
		s->line = first->line;
		s->line_from_source = true;
	}
	sb_free(&others);
	return ret;
}

int sites_locate(struct report *r)
{
	struct markers ms = { 0 };
	size_t i, k;
	int ret = 0;

	for (i = 0; i < r->nsites; i++)
		if (!r->sites[i].file || r->sites[i].line <= 0)
			break;
	if (i < r->nsites)
		ret = scan_sources(r, &ms);
	for (i = 0; !ret && i < r->nsites; i++) {
		struct site *s = &r->sites[i];

		if ((!s->file || s->line <= 0) && locate(r, s, &ms))
			ret = -1;
		for (k = 0; s->file && k < r->nfiles; k++)
			if (!strcmp(r->files[k].rel, s->file))
				s->file_idx = k;
		if (ret || s->function)
			continue;
		if (s->file_idx >= 0)
			s->function = srcfile_function(&r->files[s->file_idx], s->line);
		if (!s->function) {
			ffr_warn(s->file, "site '%s' at line %d: neither gcov nor the source names its function",
				 s->name, s->line);
			s->function = xstrdup("?");
		}
	}
	for (i = 0; i < ms.n; i++) {
		free(ms.m[i].name);
		free(ms.m[i].rel);
	}
	free(ms.m);
	return ret;
}
