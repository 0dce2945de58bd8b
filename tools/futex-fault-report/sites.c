// SPDX-License-Identifier: GPL-2.0
/*
 * The site table (/sys/kernel/debug/fail_futex/sites, copied as sites.txt):
 * a "#" header naming the columns, then one site a line.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "report.h"
#include "util.h"

enum col { C_NAME, C_FILE, C_LINE, C_FUNCTION, C_ERRNO, C_HITS, C_INJECTED, C_NR };

static const char *const col_names[C_NR] = {
	"name", "file", "line", "function", "errno", "hits", "injected",
};

struct site *site_find(struct report *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nsites; i++)
		if (!strcmp(r->sites[i].name, name))
			return &r->sites[i];
	return NULL;
}

void site_count(struct kv **arr, size_t *n, size_t *cap, long key, unsigned long long inc)
{
	size_t i;

	for (i = 0; i < *n; i++) {
		if ((*arr)[i].key == key) {
			(*arr)[i].count += inc;
			return;
		}
	}
	grow(arr, cap, *n + 1, sizeof(**arr));
	(*arr)[*n].key = key;
	(*arr)[*n].count = inc;
	(*n)++;
}

static bool valid_name(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!islower((unsigned char)*s) && !isdigit((unsigned char)*s) && *s != '_')
			return false;
	return true;
}

/*
 * Load a run's table.  The first table loaded (the baseline's) defines the
 * sites; later ones only update the hits/injected of the sites their run
 * enables, and must not name unknown sites.
 */
int sites_load(struct report *r, const char *path)
{
	int col[C_NR], ncol = 0, lineno = 0, i;
	bool first = r->nsites == 0;
	char *text, *line, *save = NULL;

	text = read_file(path, NULL);
	if (!text)
		return ffr_error(path, "cannot read the site table: %s", strerror(errno));
	for (i = 0; i < C_NR; i++)
		col[i] = -1;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[32], *tok, *save2 = NULL;
		int nf = 0;

		lineno++;
		for (tok = strtok_r(line, " \t\r", &save2); tok && nf < 32;
		     tok = strtok_r(NULL, " \t\r", &save2))
			f[nf++] = tok;
		if (!nf)
			continue;
		if (f[0][0] == '#') {
			/* "# name file ..." or "#name file ..." */
			int k = f[0][1] ? 0 : 1;

			if (ncol)
				continue;
			if (f[0][1])
				f[0]++;
			for (; k < nf; k++, ncol++)
				for (i = 0; i < C_NR; i++)
					if (!strcmp(f[k], col_names[i]))
						col[i] = ncol;
			for (i = 0; i <= C_ERRNO; i++) {
				if (col[i] < 0) {
					free(text);
					return ffr_error(path, "line %d: the header lacks the column '%s'",
							 lineno, col_names[i]);
				}
			}
			continue;
		}
		if (!ncol) {
			free(text);
			return ffr_error(path, "line %d: expected a '# name file line ...' header first",
					 lineno);
		}
		if (nf < ncol) {
			free(text);
			return ffr_error(path, "line %d: %d columns, the header names %d", lineno, nf,
					 ncol);
		}
		if (!valid_name(f[col[C_NAME]])) {
			free(text);
			return ffr_error(path, "line %d: '%s' is not a site name", lineno,
					 f[col[C_NAME]]);
		}

		struct site *s = site_find(r, f[col[C_NAME]]);

		if (!s && !first) {
			free(text);
			return ffr_error(path, "line %d: site '%s' is not in the baseline's site table",
					 lineno, f[col[C_NAME]]);
		}
		if (!s) {
			grow(&r->sites, &r->capsites, r->nsites + 1, sizeof(*r->sites));
			s = &r->sites[r->nsites++];
			s->name = xstrdup(f[col[C_NAME]]);
			s->file = xstrdup(f[col[C_FILE]]);
			s->line = atoi(f[col[C_LINE]]);
			s->function = xstrdup(f[col[C_FUNCTION]]);
			s->errname = xstrdup(f[col[C_ERRNO]][0] == '-' ? f[col[C_ERRNO]] + 1 :
					     f[col[C_ERRNO]]);
			s->file_idx = -1;
			s->run = -1;
			s->table_hits = -1;
			s->table_injected = -1;
		}
		if (!first) {
			/* the kernel may learn a site's line only when it first runs */
			if (!s->line)
				s->line = atoi(f[col[C_LINE]]);
			/*
			 * Each run starts from zeroed counters and enables only
			 * its own sites: the campaign's count is the sum.
			 */
			if (col[C_HITS] >= 0)
				s->table_hits = (s->table_hits < 0 ? 0 : s->table_hits) +
						strtoll(f[col[C_HITS]], NULL, 10);
			if (col[C_INJECTED] >= 0)
				s->table_injected = (s->table_injected < 0 ? 0 : s->table_injected) +
						    strtoll(f[col[C_INJECTED]], NULL, 10);
		}
	}
	free(text);
	if (first && !r->nsites)
		return ffr_error(path, "no site in the table");
	return 0;
}

/* "wait_setup_get_value" -> "WAIT_SETUP_GET_VALUE" */
static void upper(char *dst, const char *src, size_t size)
{
	size_t i;

	for (i = 0; src[i] && i + 1 < size; i++)
		dst[i] = toupper((unsigned char)src[i]);
	dst[i] = '\0';
}

static bool word_at(const char *text, const char *p, const char *w)
{
	size_t n = strlen(w);

	if (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
		return false;
	return !isalnum((unsigned char)p[n]) && p[n] != '_';
}

/*
 * A site whose table line is 0: find its marker in its source file,
 * FUTEX_FAULT_<NAME>, or futex_fault(<name> in either case.
 */
int site_locate(struct report *r, struct site *s)
{
	char name[128], tok[160];
	struct srcfile *f;
	const char *p;
	int l;

	if (s->line > 0 || s->file_idx < 0)
		return 0;
	f = &r->files[s->file_idx];
	if (!f->text)
		return 0;
	upper(name, s->name, sizeof(name));
	snprintf(tok, sizeof(tok), "FUTEX_FAULT_%s", name);
	for (l = 1; l <= f->nlines; l++) {
		const char *t = f->line_text[l];

		for (p = strstr(t, tok); p; p = strstr(p + 1, tok)) {
			if (word_at(t, p, tok))
				goto found;
		}
		for (p = strstr(t, "futex_fault("); p; p = strstr(p + 1, "futex_fault(")) {
			const char *q = p + strlen("futex_fault(");

			while (*q == ' ')
				q++;
			if (!strncasecmp(q, name, strlen(name)) && word_at(t, q, name))
				goto found;
		}
	}
	return 0;
found:
	s->line = l;
	s->line_from_source = true;
	return 0;
}
