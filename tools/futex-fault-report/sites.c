// SPDX-License-Identifier: GPL-2.0
/*
 * The site table (/sys/kernel/debug/fail_futex/sites, copied as sites.txt):
 * a "#" header naming the columns, then one site a line.
 *
 *   v1: # name file line function errno enabled hits injected
 *   v2: # name errno enabled hits injected call_site
 *
 * Columns are found by name.  A v2 table has no file, line and function:
 * site_locate.c finds them in the sources.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"
#include "util.h"

enum col { C_NAME, C_ERRNO, C_FILE, C_LINE, C_FUNCTION, C_HITS, C_INJECTED, C_NR };

static const char *const col_names[C_NR] = {
	"name", "errno", "file", "line", "function", "hits", "injected",
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

void site_counts_add(struct site_counts *sum, const struct site_counts *c)
{
	size_t k;

	sum->fired += c->fired;
	for (k = 0; k < OC_NR; k++)
		sum->oc[k] += c->oc[k];
	for (k = 0; k < c->nerrors; k++)
		site_count(&sum->errors, &sum->nerrors, &sum->caperrors, c->errors[k].key,
			   c->errors[k].count);
	for (k = 0; k < c->nops; k++)
		site_count(&sum->ops, &sum->nops, &sum->capops, c->ops[k].key, c->ops[k].count);
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
			/* v1 has all three, v2 none */
			if ((col[C_FILE] < 0) != (col[C_LINE] < 0) ||
			    (col[C_FILE] < 0) != (col[C_FUNCTION] < 0)) {
				free(text);
				return ffr_error(path, "line %d: the header must name all of 'file', 'line' and 'function' (interface v1) or none (v2)",
						 lineno);
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
		/* "EFAULT" or "-EFAULT" */
		if (!errno_value(f[col[C_ERRNO]])) {
			free(text);
			return ffr_error(path, "line %d: site '%s': errno '%s' is not an errno name",
					 lineno, f[col[C_NAME]], f[col[C_ERRNO]]);
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
			/* v2: found in the sources by site_locate.c */
			if (col[C_FILE] >= 0) {
				s->file = xstrdup(f[col[C_FILE]]);
				s->line = atoi(f[col[C_LINE]]);
				s->function = xstrdup(f[col[C_FUNCTION]]);
			}
			s->errname = xstrdup(f[col[C_ERRNO]][0] == '-' ? f[col[C_ERRNO]] + 1 :
					     f[col[C_ERRNO]]);
			s->file_idx = -1;
			s->run = -1;
			s->table_hits = -1;
			s->table_injected = -1;
		}
		if (!first) {
			/* the kernel may learn a site's line only when it first runs */
			if (!s->line && col[C_LINE] >= 0)
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
