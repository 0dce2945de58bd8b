// SPDX-License-Identifier: GPL-2.0
/*
 * Kernel reports in the runs' logs (README.md "Findings").
 *
 * A report starts at a line matching one of report_starts[] and ends at
 * "---[ end trace", after the "</TASK>" closing its Call Trace, at the last
 * frame of a kmemleak backtrace, before the next report once this one has
 * a body (a "CPU:" or stack line: a "BUG: kernel NULL pointer dereference"
 * is followed by its own "Oops:" line), after a gap of more than 2 s in
 * the dmesg timestamps, or after MAX_REPORT_LINES lines.
 */
#include <errno.h>
#include <regex.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "report.h"
#include "findings.h"
#include "util.h"

#define MAX_REPORT_LINES	60
#define MAX_RUN_REPORTS		64
#define TAIL_LINES		20

/*
 * What starts a report: scripts/kernel-reports.txt, the classifier the
 * scripts use too, embedded at build time (kernel-reports.h, made by
 * scripts/kernel-report --c-header).  The first pattern that matches names
 * the line; single: the report is that line (and its trailer).
 */
struct report_start {
	const char	*kind;
	bool		single;
	const char	*re;
};

#define KR(kind, single, re)	{ kind, single, re },
static const struct report_start report_starts[] = {
#include "kernel-reports.h"
};
#undef KR

static regex_t start_re[ARRAY_SIZE(report_starts)];
static bool start_re_done;

static int compile_starts(void)
{
	size_t i;

	if (start_re_done)
		return 0;
	for (i = 0; i < ARRAY_SIZE(report_starts); i++)
		if (regcomp(&start_re[i], report_starts[i].re, REG_EXTENDED | REG_NOSUB))
			return ffr_error("scripts/kernel-reports.txt", "kind %s: bad pattern '%s'",
					 report_starts[i].kind, report_starts[i].re);
	start_re_done = true;
	return 0;
}

/* index into report_starts[] of the pattern line matches, -1 if none */
static int report_start(const char *line)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(report_starts); i++)
		if (!regexec(&start_re[i], line, 0, NULL, 0))
			return i;
	return -1;
}

/*
 * A log line made printable: escape sequences of the console (the guest's
 * screen resets) and other control characters dropped, the dmesg
 * timestamp "[   28.434306] " (and a "[    T1] " caller id) removed and
 * returned in *ts (-1 when absent).
 */
static char *clean_line(const char *s, size_t len, double *ts)
{
	char *out = xmalloc(len + 1), *o = out, *end;
	const char *e = s + len;

	while (s < e) {
		if (*s == '\033') {
			s++;
			if (s < e && *s == '[') {
				for (s++; s < e && !(*s >= '@' && *s <= '~'); s++)
					;
			}
			if (s < e)
				s++;
			continue;
		}
		if ((unsigned char)*s < ' ' && *s != '\t') {
			s++;
			continue;
		}
		*o++ = *s++;
	}
	*o = '\0';
	*ts = -1;
	if (out[0] == '[') {
		double t = strtod(out + 1, &end);

		if (end != out + 1 && *end == ']') {
			*ts = t;
			end++;
			if (end[0] == '[' && strchr(end, ']'))
				end = strchr(end, ']') + 1;
			if (*end == ' ')
				end++;
			memmove(out, end, strlen(end) + 1);
		}
	}
	return out;
}

/* the title with its numbers (CPU, PID, seconds, addresses) masked */
static char *title_key(const char *t)
{
	char *k = xmalloc(strlen(t) + 1), *o = k;

	while (*t) {
		if (t[0] == '0' && t[1] == 'x') {
			*o++ = '#';
			for (t += 2; (*t >= '0' && *t <= '9') || (*t >= 'a' && *t <= 'f'); t++)
				;
		} else if (*t >= '0' && *t <= '9') {
			*o++ = '#';
			while (*t >= '0' && *t <= '9')
				t++;
		} else {
			*o++ = *t++;
		}
	}
	*o = '\0';
	return k;
}

struct log {
	char	**line;
	double	*ts;
	size_t	n;
};

static int log_read(const char *path, struct log *lg)
{
	size_t len, cap = 0;
	char *text = read_file(path, &len), *p, *e;

	lg->line = NULL;
	lg->ts = NULL;
	lg->n = 0;
	if (!text)
		return -1;
	for (p = text; p < text + len; p = e + 1) {
		e = memchr(p, '\n', text + len - p);
		if (!e)
			e = text + len;
		if (lg->n == cap) {
			cap = cap ? 2 * cap : 256;
			lg->line = xrealloc(lg->line, cap * sizeof(*lg->line));
			lg->ts = xrealloc(lg->ts, cap * sizeof(*lg->ts));
		}
		lg->line[lg->n] = clean_line(p, e - p, &lg->ts[lg->n]);
		lg->n++;
	}
	free(text);
	return 0;
}

static void log_free(struct log *lg)
{
	size_t i;

	for (i = 0; i < lg->n; i++)
		free(lg->line[i]);
	free(lg->line);
	free(lg->ts);
}

static bool is_body(const char *l)
{
	return !strncmp(l, "CPU: ", 5) || strstr(l, "Call Trace:") || strstr(l, "backtrace:") ||
	       strstr(l, "<TASK>");
}

static bool is_trailer(const char *l)
{
	return strstr(l, "irq event stamp:") || strstr(l, "hardirqs last") ||
	       strstr(l, "softirqs last") || strstr(l, "---[ end trace");
}

/* a kmemleak frame: "    [<ffffffff81234567>] func+0x1/0x2" */
static bool is_leak_frame(const char *l)
{
	while (*l == ' ')
		l++;
	return !strncmp(l, "[<", 2);
}

/* the end (exclusive) of the report starting at line s */
static size_t report_end(struct log *lg, size_t s, int kind)
{
	bool body = false, stack = false, leak = false;
	size_t i;

	if (report_starts[kind].single) {
		for (i = s + 1; i < lg->n && i < s + 3; i++)
			if (!strstr(lg->line[i], "---[ end Kernel panic") &&
			    strncmp(lg->line[i], "Kernel Offset:", 14))
				break;
		return i;
	}
	for (i = s + 1; i < lg->n && i < s + MAX_REPORT_LINES; i++) {
		const char *l = lg->line[i];

		if (lg->ts[i] >= 0 && lg->ts[i - 1] >= 0 && lg->ts[i] - lg->ts[i - 1] > 2)
			return i;
		if (body && report_start(l) >= 0)
			return i;
		if (strstr(l, "---[ end trace"))
			return i + 1;
		if (leak && !is_leak_frame(l))
			return i;
		if (strstr(l, "Call Trace:"))
			stack = true;
		if (strstr(l, "backtrace:") && !strstr(l, "stack backtrace:"))
			leak = true;
		body |= is_body(l);
		if (stack && strstr(l, "</TASK>")) {
			for (i++; i < lg->n && i < s + MAX_REPORT_LINES && is_trailer(lg->line[i]);
			     i++)
				if (strstr(lg->line[i], "---[ end trace"))
					return i + 1;
			return i;
		}
	}
	return i;
}

static void kreport_init(struct kreport *kr, char **lines, size_t n)
{
	size_t i;

	kr->title = xstrdup(lines[0]);
	kr->key = title_key(kr->title);
	kr->lines = xcalloc(n, sizeof(*kr->lines));
	for (i = 0; i < n; i++)
		kr->lines[i] = xstrdup(lines[i]);
	kr->nlines = n;
}

static void kreport_free(struct kreport *kr)
{
	size_t i;

	for (i = 0; i < kr->nlines; i++)
		free(kr->lines[i]);
	free(kr->lines);
	free(kr->title);
	free(kr->key);
}

/*
 * Append the reports of one log to *reps, one per distinct title.
 * Returns how many it found, -1 if the file is absent.
 */
static int scan_log(const char *path, struct kreport **reps, size_t *n, size_t *cap)
{
	struct log lg;
	size_t i, e, k, found = 0;
	int kind;

	if (log_read(path, &lg))
		return -1;
	for (i = 0; i < lg.n && *n < MAX_RUN_REPORTS; i = e) {
		kind = report_start(lg.line[i]);
		if (kind < 0) {
			e = i + 1;
			continue;
		}
		e = report_end(&lg, i, kind);
		found++;
		{
			char *key = title_key(lg.line[i]);

			for (k = 0; k < *n; k++)
				if (!strcmp((*reps)[k].key, key))
					break;
			free(key);
		}
		if (k < *n)
			continue;
		grow(reps, cap, *n + 1, sizeof(**reps));
		kreport_init(&(*reps)[(*n)++], lg.line + i, e - i);
	}
	log_free(&lg);
	return found;
}

/* the last lines of a log, as the "stack" of a crash without a report */
static bool log_tail(const char *path, struct kreport *kr, const char *title)
{
	struct log lg;
	size_t s, n, i;

	if (log_read(path, &lg))
		return false;
	s = lg.n > TAIL_LINES ? lg.n - TAIL_LINES : 0;
	n = lg.n - s;
	kr->title = xstrdup(title);
	kr->key = title_key(title);
	kr->lines = xcalloc(n + 1, sizeof(*kr->lines));
	kr->lines[0] = xstrdup(title);
	for (i = 0; i < n; i++)
		kr->lines[i + 1] = xstrdup(lg.line[s + i]);
	kr->nlines = n + 1;
	log_free(&lg);
	return true;
}

/* a word for a shell: as it is when it is safe, else in single quotes */
static char *shell_word(const char *w)
{
	size_t n = 0, i;
	char *q, *o;

	if (*w && strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_./,:=+@%-") ==
	    strlen(w))
		return xstrdup(w);
	for (i = 0; w[i]; i++)
		n += w[i] == '\'' ? 4 : 1;
	q = o = xmalloc(n + 3);
	*o++ = '\'';
	for (i = 0; w[i]; i++) {
		if (w[i] == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else {
			*o++ = w[i];
		}
	}
	*o++ = '\'';
	*o = 0;
	return q;
}

char *finding_repro(const struct report *r, const struct finding *fd)
{
	const struct run *rn = &r->runs[fd->run];
	char *res, *slash, *dir, *name, *cmd;
	size_t k;

	/* (of the runs with no site on, scripts/repro runs the races again) */
	if (fd->run == 0 || (!rn->nenabled && strcmp(rn->name, "races")))
		return NULL;
	for (k = 0; k < rn->nenabled; k++)
		if (!strcmp(rn->enabled[k], ANCHOR_SITE))
			return NULL;
	/* the results directory: the run's, less "/runs/NAME" */
	res = xstrdup(rn->dir);
	slash = strrchr(res, '/');
	if (slash && slash > res) {
		*slash = 0;
		slash = strrchr(res, '/');
	}
	if (slash)
		*slash = 0;
	else
		strcpy(res, ".");
	dir = shell_word(*res ? res : "/");
	name = shell_word(rn->name);
	cmd = xasprintf("scripts/repro %s %s", dir, name);
	free(res);
	free(dir);
	free(name);
	return cmd;
}

/*
 * A hung run whose guest the campaign looked into before it stopped it:
 * the stacks its vCPUs had (stack.txt), after the last faults the guest's
 * trace buffer still held (the ftrace dump on its console)
 */
static bool hang_stack(const char *dir, struct kreport *kr, const char *title)
{
	struct log st, con;
	size_t i, nf = 0, first, n = 0;
	char *path = xasprintf("%s/stack.txt", dir);
	int rc = log_read(path, &st);

	free(path);
	if (rc)
		return false;
	path = xasprintf("%s/console.txt", dir);
	if (log_read(path, &con))
		con.n = 0;
	free(path);
	for (i = 0; i < con.n; i++)
		nf += strstr(con.line[i], "futex_fault_inject:") != NULL;
	first = nf > 5 ? nf - 5 : 0;
	kr->title = xstrdup(title);
	kr->key = title_key(title);
	kr->lines = xcalloc(st.n + 7 + 1, sizeof(*kr->lines));
	kr->lines[n++] = xstrdup(title);
	if (nf)
		kr->lines[n++] = xstrdup("the last faults the guest's trace buffer held:");
	for (i = 0, nf = 0; i < con.n; i++) {
		if (!strstr(con.line[i], "futex_fault_inject:"))
			continue;
		if (nf++ >= first)
			kr->lines[n++] = xstrdup(con.line[i]);
	}
	for (i = 0; i < st.n; i++)
		kr->lines[n++] = xstrdup(st.line[i]);
	kr->nlines = n;
	log_free(&st);
	if (con.n)
		log_free(&con);
	return true;
}

/* the vCPUs of a hung run (stack.txt) after the kernel's own report of it */
static void add_vcpus(const char *dir, struct kreport *kr)
{
	char *path = xasprintf("%s/stack.txt", dir);
	struct log st;
	size_t i;

	if (log_read(path, &st)) {
		free(path);
		return;
	}
	free(path);
	kr->lines = xrealloc(kr->lines, (kr->nlines + st.n + 1) * sizeof(*kr->lines));
	kr->lines[kr->nlines++] = xstrdup("where the vCPUs were when the campaign stopped the guest (stack.txt):");
	for (i = 0; i < st.n; i++)
		kr->lines[kr->nlines++] = xstrdup(st.line[i]);
	log_free(&st);
}

static char *run_health(struct run *rn)
{
	char *path = xasprintf("%s/run.json", rn->dir), *text, *h = NULL;
	json_t *doc;
	const char *s;
	size_t len;

	text = read_file(path, &len);
	free(path);
	if (!text)
		return NULL;
	/* load_run_json() has reported a bad run.json already */
	doc = json_loadb(text, len, JSON_DECODE_ANY, NULL);
	if (doc) {
		s = json_string_value(json_object_get(doc, "health"));
		if (s && *s)
			h = xstrdup(s);
		json_decref(doc);
	}
	free(text);
	return h;
}

static const char *const run_logs[] = { "dmesg.txt", "console.txt", "kmemleak.txt" };

/* the reports of one run's logs; console.txt only when dmesg.txt has none */
static const char *scan_run(struct run *rn, bool crashed, struct kreport **reps, size_t *n,
			    size_t *cap)
{
	const char *source = NULL;
	size_t i;
	int found;

	for (i = 0; i < ARRAY_SIZE(run_logs); i++) {
		char *path;

		if (i == 1 && *n && !crashed)
			continue;
		path = xasprintf("%s/%s", rn->dir, run_logs[i]);
		found = scan_log(path, reps, n, cap);
		free(path);
		if (found > 0 && !source)
			source = run_logs[i];
	}
	return source;
}

int findings_scan(struct report *r)
{
	struct findings *fs = xcalloc(1, sizeof(*fs));
	size_t i, k;

	r->findings = fs;
	if (compile_starts())
		return -1;
	fs->health = xcalloc(r->nruns, sizeof(*fs->health));
	fs->nhealth = r->nruns;
	for (i = 0; i < r->nruns; i++)
		fs->health[i] = run_health(&r->runs[i]);
	scan_run(&r->runs[0], true, &fs->base, &fs->nbase, &fs->capbase);

	for (i = 0; i < r->nruns; i++) {
		struct run *rn = &r->runs[i];
		bool crashed = strcmp(rn->status, "ok");
		struct finding fd = { .run = i, .health = fs->health[i] };
		size_t cap = 0;

		fd.source = scan_run(rn, crashed, &fd.reps, &fd.nreps, &cap);
		if (!fd.nreps && !crashed && !fd.health)
			continue;
		if (fd.nreps)
			add_vcpus(rn->dir, &fd.reps[0]);
		if (!fd.nreps) {
			char *title = xasprintf("%s%s%s", rn->status, fd.health ? ": " : "",
						fd.health ? fd.health : ", no kernel report in its logs");
			char *path;

			fd.reps = xcalloc(1, sizeof(*fd.reps));
			fd.nreps = 1;
			fd.source = "run.json";
			if (hang_stack(rn->dir, fd.reps, title))
				fd.source = "stack.txt";
			for (k = 1; k < 3 && !fd.reps->lines; k++) {
				path = xasprintf("%s/%s", rn->dir, run_logs[k % 2]);
				if (log_tail(path, fd.reps, title))
					fd.source = run_logs[k % 2];
				free(path);
				if (fd.reps->lines)
					break;
			}
			if (!fd.reps->lines)
				kreport_init(fd.reps, &title, 1);
			free(title);
		}
		fd.baseline_clean = !fs->nbase && !strcmp(r->runs[0].status, "ok");
		for (k = 0; k < fs->nbase; k++)
			if (!strcmp(fs->base[k].key, fd.reps[0].key))
				fd.baseline_same = true;
		grow(&fs->f, &fs->cap, fs->n + 1, sizeof(*fs->f));
		fs->f[fs->n++] = fd;
	}
	return 0;
}

void findings_free(struct findings *fs)
{
	size_t i, k;

	if (!fs)
		return;
	for (i = 0; i < fs->n; i++) {
		for (k = 0; k < fs->f[i].nreps; k++)
			kreport_free(&fs->f[i].reps[k]);
		free(fs->f[i].reps);
	}
	for (i = 0; i < fs->nbase; i++)
		kreport_free(&fs->base[i]);
	for (i = 0; i < fs->nhealth; i++)
		free(fs->health[i]);
	free(fs->health);
	free(fs->f);
	free(fs->base);
	free(fs);
}
