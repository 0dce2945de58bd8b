// SPDX-License-Identifier: GPL-2.0
/*
 * nth.tsv of an --nth campaign (docs/results-layout.md): a header, then
 * "scenario <TAB> call <TAB> nth <TAB> status <TAB> result" lines, result
 * as futex_drive says it ("K OP nth N: injected, returned -1 EFAULT",
 * "...: not reached, returned 0", or why call K was not made).
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "messages.h"
#include "nth.h"
#include "util.h"

#define NTH_HEADER	"scenario\tcall\tnth\tstatus\tresult"

static struct nth_scenario *scenario(struct nth *nt, const char *name, size_t len)
{
	size_t i;

	for (i = 0; i < nt->n; i++)
		if (strlen(nt->s[i].name) == len && !strncmp(nt->s[i].name, name, len))
			return &nt->s[i];
	nt->s = xrealloc(nt->s, (nt->n + 1) * sizeof(*nt->s));
	memset(&nt->s[nt->n], 0, sizeof(*nt->s));
	nt->s[nt->n].name = xstrndup(name, len);
	return &nt->s[nt->n++];
}

static bool number(const char *p, const char *end, unsigned long *v)
{
	char *e;

	if (p == end || *p < '0' || *p > '9')
		return false;
	errno = 0;
	*v = strtoul(p, &e, 10);
	return !errno && e == end;
}

int nth_read(const char *results, struct nth **out)
{
	char *path = xasprintf("%s/nth.tsv", results), *text, *line, *next;
	struct nth *nt;
	size_t len, lineno = 0;

	*out = NULL;
	text = read_file(path, &len);
	if (!text) {
		int missing = errno == ENOENT;

		if (!missing)
			ffr_error(path, "cannot read it: %s", strerror(errno));
		free(path);
		return missing ? 0 : -1;
	}
	nt = xcalloc(1, sizeof(*nt));
	for (line = text; line && *line; line = next) {
		char *f[5], *end;
		unsigned long k, n, st;
		struct nth_scenario *s;
		int i;

		next = strchr(line, '\n');
		if (next)
			*next++ = 0;
		lineno++;
		if (lineno == 1) {
			if (strcmp(line, NTH_HEADER))
				goto bad;
			continue;
		}
		f[0] = line;
		for (i = 1; i < 5; i++) {
			f[i] = strchr(f[i - 1], '\t');
			if (!f[i])
				goto bad;
			*f[i]++ = 0;
		}
		end = f[4] + strlen(f[4]);
		if (!*f[0] || !number(f[1], f[1] + strlen(f[1]), &k) || !k ||
		    !number(f[2], f[2] + strlen(f[2]), &n) || !n ||
		    !number(f[3], f[3] + strlen(f[3]), &st) || end == f[4])
			goto bad;
		s = scenario(nt, f[0], strlen(f[0]));
		if (k > s->calls)
			s->calls = k;
		s->runs++;
		if (strstr(f[4], ": injected,")) {
			s->injected++;
			s->errors += strstr(f[4], "returned -1") != NULL;
		}
		s->failed += st != 0;
	}
	if (lineno < 1) {
		lineno = 1;
		goto bad;
	}
	for (len = 0; len < nt->n; len++) {
		nt->all.calls += nt->s[len].calls;
		nt->all.runs += nt->s[len].runs;
		nt->all.injected += nt->s[len].injected;
		nt->all.errors += nt->s[len].errors;
		nt->all.failed += nt->s[len].failed;
	}
	free(text);
	free(path);
	*out = nt;
	return 0;
bad:
	ffr_error(path, "line %zu: not a line of nth.tsv (expected \"%s\", tab-separated, call and nth from 1)",
		  lineno, lineno == 1 ? "the header " NTH_HEADER : "scenario, call, nth, status, result");
	free(text);
	free(path);
	nth_free(nt);
	return -1;
}

void nth_free(struct nth *nt)
{
	size_t i;

	if (!nt)
		return;
	for (i = 0; i < nt->n; i++)
		free(nt->s[i].name);
	free(nt->s);
	free(nt);
}
