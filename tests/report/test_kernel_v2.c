// SPDX-License-Identifier: GPL-2.0
/*
 * The reporter and the plugin against the kernel's interface v2, on the
 * fixture recorded from it (record-fixture.sh):
 *
 * - futex_fault_inject names the site's address call_site (v1: caller),
 *   has no name and no op field (names come from the __print_symbolic() of
 *   site in its print fmt, the op from raw_syscalls:sys_enter) and has a
 *   shared field.  Each run's trace goes through the reporter's decoder:
 *   what it counts is checked against the kernel's site table of the run
 *   (injected, call_site) and, for the op, against the same workload's
 *   trace recorded from interface v1, whose event carries the op.  Each
 *   event goes through the plugin's print handler, checked against what
 *   the kernel's own print fmt says.
 *
 * - the site table has no file, line and function columns: the reporter
 *   finds each site's marker in the sources.  Its edge cases (a twin site,
 *   a second marker, too many, none) run on copies of the fixture's
 *   sources; run-tests.sh checks the located sites against call_site and
 *   gcov.
 *
 * usage: test_kernel_v2 SRCTREE FIXTURE FIXTURE_V1
 *   SRCTREE     the v2 fixture's sources (run-tests.sh extracts them)
 * TAP output; exit status 1 if any test failed.
 */
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "report.h"
#include "trace.h"
#include "util.h"

#include "tap.h"

/* the plugin's handler and setup, static in the plugin */
#include "plugin_futex_fault.c"

/* the runs of a fixture but the baseline, NULL-terminated */
static char **fixture_runs(const char *fixture, glob_t *g)
{
	char *pat = xasprintf("%s/runs/*/sites.txt", fixture);
	size_t i, n = 0;

	if (glob(pat, 0, NULL, g))
		abort();
	free(pat);
	for (i = 0; i < g->gl_pathc; i++) {
		char *d = g->gl_pathv[i];

		*strrchr(d, '/') = '\0';
		if (strcmp(strrchr(d, '/') + 1, "baseline"))
			g->gl_pathv[n++] = d;
	}
	g->gl_pathv[n] = NULL;
	return g->gl_pathv;
}

/* the column col (0: name) of site's row in a run's site table, or NULL */
static char *table_cell(const char *run_dir, const char *site, int col)
{
	char *path = xasprintf("%s/sites.txt", run_dir), *text = read_file(path, NULL);
	char *line, *save, *tok, *save2, *cell = NULL;
	int i;

	for (line = text ? strtok_r(text, "\n", &save) : NULL; line && !cell;
	     line = strtok_r(NULL, "\n", &save)) {
		tok = strtok_r(line, " ", &save2);
		if (!tok || strcmp(tok, site))
			continue;
		for (i = 0; tok && i < col; i++)
			tok = strtok_r(NULL, " ", &save2);
		cell = tok ? xstrdup(tok) : NULL;
	}
	free(text);
	free(path);
	return cell;
}

/*
 * Decode the run's trace as the reporter does, with the sites of the
 * fixture's baseline table; the run's site is in *site.  0 on success.
 */
static int decode_run(const char *run_dir, struct report *r, struct decoder *t,
		      struct trace_site **site)
{
	const char *name = strrchr(run_dir, '/') + 1;
	char *base = xasprintf("%s/../baseline/sites.txt", run_dir);
	struct site *s;
	int ret;

	memset(r, 0, sizeof(*r));
	memset(t, 0, sizeof(*t));
	if (sites_load(r, base))
		abort();
	free(base);
	s = site_find(r, name);
	if (!s)
		abort();
	t->r = r;
	t->path = xasprintf("%s/trace.dat", run_dir);
	t->ps = xcalloc(r->nsites, sizeof(*t->ps));
	ret = trace_read(t);
	*site = &t->ps[s - r->sites];
	return ret;
}

/* the same keys; the counts are the recordings', which differ */
static bool same_keys(const struct kv *a, size_t na, const struct kv *b, size_t nb)
{
	size_t i, j;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++) {
		for (j = 0; j < nb && b[j].key != a[i].key; j++)
			;
		if (j == nb)
			return false;
	}
	return true;
}

static void test_decoder(const char *fixture, const char *fixture_v1)
{
	struct trace_site *ps, *ps1;
	struct decoder t, t1;
	struct report r, r1;
	struct strbuf msg;
	char **run, *cell, *v1_dir;
	glob_t g;
	int ret;

	sb_init(&msg);
	ffr_msg_capture(&msg);
	for (run = fixture_runs(fixture, &g); *run; run++) {
		const char *name = strrchr(*run, '/') + 1;

		ret = decode_run(*run, &r, &t, &ps);
		CHECK(ret == 0 && !t.has_op && !t.has_name,
		      "%s: v2 trace decoded, no op nor name field in the event%s%.300s", name,
		      msg.len ? ": " : "", msg.len ? msg.buf : "");
		cell = table_cell(*run, name, 4);	/* injected */
		CHECK(cell && ps->counts.fired == strtoull(cell, NULL, 10) && ps->counts.fired > 0,
		      "%s: fired %llu = the kernel's injected count %s", name, ps->counts.fired,
		      cell ? cell : "?");
		free(cell);
		/* call_site is "futex_wait_setup+0xdf/0x1d1": function+offset/size */
		cell = table_cell(*run, name, 5);
		if (cell && strchr(cell, '/'))
			*strchr(cell, '/') = '\0';
		CHECK(cell && ps->counts.caller_sym && !strcmp(ps->counts.caller_sym, cell),
		      "%s: caller from the event's call_site %s = the table's call_site %s", name,
		      ps->counts.caller_sym ? ps->counts.caller_sym : "(none)", cell ? cell : "?");
		free(cell);
		CHECK(ps->tasks && !strcmp(ps->tasks[0].comm, "ffdrive"),
		      "%s: its task is named from the trace's comms (%s)", name,
		      ps->tasks ? ps->tasks[0].comm : "none");

		/* the same workload recorded from v1, whose event has the op */
		v1_dir = xasprintf("%s/runs/%s", fixture_v1, name);
		ret = decode_run(v1_dir, &r1, &t1, &ps1);
		CHECK(ret == 0 && t1.has_op && ps1->counts.nops > 0 &&
		      same_keys(ps->counts.ops, ps->counts.nops, ps1->counts.ops, ps1->counts.nops),
		      "%s: the ops from sys_enter (%zu, first %ld x%llu) are v1's (%zu, first %ld x%llu)",
		      name, ps->counts.nops, ps->counts.nops ? ps->counts.ops[0].key : -1,
		      ps->counts.nops ? ps->counts.ops[0].count : 0, ps1->counts.nops,
		      ps1->counts.nops ? ps1->counts.ops[0].key : -1,
		      ps1->counts.nops ? ps1->counts.ops[0].count : 0);
		free(v1_dir);
		free((char *)t.path);
		free((char *)t1.path);
		/* the report structures of the reporter are freed at exit */
	}
	globfree(&g);
	ffr_msg_capture(NULL);
	sb_free(&msg);
}

/* the kernel's print fmt output without its " shared=N", which the plugin leaves out (README) */
static char *without_shared(const char *kern)
{
	const char *p = strstr(kern, " shared=");

	if (!p)
		return xstrdup(kern);
	return xasprintf("%.*s%s", (int)(p - kern), kern, p + strcspn(p + 1, " ") + 1);
}

/* what the plugin printed for the events of the traces */
struct plugin_check {
	struct tep_event	*event;
	size_t			events, differ;
	char			*first;		/* the first difference, or the first line */
};

static int plugin_event(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct plugin_check *c = data;
	struct tep_handle *tep = c->event->tep;
	struct trace_seq kern, plug;
	char *want;

	if (tep_data_type(tep, rec) != c->event->id)
		return 0;
	c->events++;
	/* the trace is opened without plugins: this is the kernel's print fmt */
	trace_seq_init(&kern);
	tep_print_event(tep, &kern, rec, "%s", TEP_PRINT_INFO);
	trace_seq_terminate(&kern);
	trace_seq_init(&plug);
	futex_fault_handler(&plug, rec, c->event, NULL);
	trace_seq_terminate(&plug);
	want = without_shared(kern.buffer);
	if (!strstr(kern.buffer, " shared=") || strcmp(plug.buffer, want)) {
		if (!c->differ++) {
			free(c->first);
			c->first = xasprintf("'%s', the kernel's '%s'", plug.buffer, kern.buffer);
		}
	} else if (!c->first) {
		c->first = xstrdup(plug.buffer);
	}
	free(want);
	trace_seq_destroy(&kern);
	trace_seq_destroy(&plug);
	return 0;
}

static void test_plugin(const char *fixture)
{
	struct plugin_check c = { 0 };
	char **run;
	glob_t g;

	for (run = fixture_runs(fixture, &g); *run; run++) {
		char *path = xasprintf("%s/trace.dat", *run);
		struct tracecmd_input *h = trace_open(path);
		struct tep_handle *tep = h ? tracecmd_get_tep(h) : NULL;

		c.event = tep ? tep_find_event_by_name(tep, "futex_fault", "futex_fault_inject") : NULL;
		CHECK(c.event, "%s: futex_fault_inject in the trace", path);
		if (c.event)
			tracecmd_iterate_events(h, NULL, 0, plugin_event, &c);
		symtab_free(&ev.sites);
		memset(&ev, 0, sizeof(ev));
		if (h)
			tracecmd_close(h);
		free(path);
	}
	CHECK(c.events > 0 && !c.differ,
	      "plugin on %zu recorded v2 events: the kernel's print fmt but shared (%zu differ): %s",
	      c.events, c.differ, c.first ? c.first : "");
	free(c.first);
	globfree(&g);
}

/* ------------------------------------------------------------ per-fault lines */

static char *tmp;	/* scratch directory */

struct fault_check {
	struct tep_event	*event;
	const char		*path;		/* the faults file written for the first event */
	char			*out[3];	/* the first event printed three times */
	bool			done;
};

static char *print_inject(struct tep_record *rec, struct tep_event *event)
{
	struct trace_seq s;
	char *out;

	trace_seq_init(&s);
	futex_fault_handler(&s, rec, event, NULL);
	trace_seq_terminate(&s);
	out = xstrdup(s.buffer);
	trace_seq_destroy(&s);
	return out;
}

/*
 * The first event's time stamp, CPU and pid on three lines: another site's,
 * then two faults of its own (the same task on the same CPU in the same
 * nanosecond), and one line on another CPU at that time stamp
 */
static int fault_event(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *data)
{
	struct fault_check *c = data;
	int pid = tep_data_pid(c->event->tep, rec), i;
	FILE *f;

	if (c->done || tep_data_type(c->event->tep, rec) != c->event->id)
		return 0;
	c->done = true;
	f = fopen(c->path, "w");
	if (!f)
		abort();
	fprintf(f, "%s\n%s\n", FAULTS_MAGIC, FAULTS_HEADER);
	fprintf(f, "%llu\t%d\t%d\twait_get_key\texit\t-\n", rec->ts, rec->cpu, pid);
	fprintf(f, "%llu\t%d\t%d\twait_get_value\trecovered\t-\n", rec->ts, rec->cpu, pid);
	fprintf(f, "%llu\t%d\t%d\twait_get_value\terror\tEFAULT\n", rec->ts, rec->cpu, pid);
	fprintf(f, "%llu\t%d\t%d\twait_get_value\tnoreturn\t-\n", rec->ts, rec->cpu + 1, pid);
	fclose(f);
	faults_load(c->path);
	for (i = 0; i < 3; i++)
		c->out[i] = print_inject(rec, c->event);
	return 0;
}

/*
 * A faults file of one line after the header, loaded: how many rows it
 * gave; 0 when the plugin said, on stderr, what is wrong with line 3
 */
static size_t load_line(const char *line)
{
	char *path = xasprintf("%s/line.tsv", tmp);
	char *errs = xasprintf("%s/line.err", tmp), *said, *want;
	FILE *f = fopen(path, "w");
	int fd, saved;
	size_t rows;

	if (!f)
		abort();
	fprintf(f, "%s\n%s\n%s\n", FAULTS_MAGIC, FAULTS_HEADER, line);
	fclose(f);
	fflush(stderr);
	saved = dup(2);
	fd = open(errs, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (saved < 0 || fd < 0 || dup2(fd, 2) < 0)
		abort();
	close(fd);
	faults_load(path);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rows = flt.loaded ? flt.nrows : 0;
	said = read_file(errs, NULL);
	want = xasprintf("plugin_futex_fault: %s:3: ", path);
	if (!said || (rows ? *said != '\0' : strncmp(said, want, strlen(want))))
		rows = 99;	/* neither loaded quietly nor said naming the line */
	free(said);
	free(want);
	free(errs);
	free(path);
	return rows;
}

static void test_faults(const char *fixture)
{
	char *trace = xasprintf("%s/runs/wait_get_value/trace.dat", fixture);
	struct tracecmd_input *h = trace_open(trace);
	struct fault_check c = { 0 };
	int i;

	c.path = xasprintf("%s/faults.tsv", tmp);
	c.event = h ? tep_find_event_by_name(tracecmd_get_tep(h), "futex_fault",
					     "futex_fault_inject") : NULL;
	CHECK(c.event, "%s: futex_fault_inject in the trace", trace);
	if (c.event)
		tracecmd_iterate_events(h, NULL, 0, fault_event, &c);
	CHECK(c.done && flt.loaded && flt.nrows == 4, "faults: a file of 4 lines at one time stamp loads");
	CHECK(c.out[0] && strstr(c.out[0], " outcome=recovered") && !strstr(c.out[0], "errno=") &&
	      c.out[1] && strstr(c.out[1], " outcome=error errno=EFAULT") &&
	      c.out[2] && strstr(c.out[2], " outcome=recovered"),
	      "faults: two faults of one task at one time stamp take their lines in turn, another site's and CPU's skipped: '%s', '%s', '%s'",
	      c.out[0] ? c.out[0] : "", c.out[1] ? c.out[1] : "", c.out[2] ? c.out[2] : "");
	for (i = 0; i < 3; i++)
		free(c.out[i]);

	CHECK(load_line("1\t0\t1\twait_get_value\terror\tEFAULT") == 1, "faults: a well-formed line");
	CHECK(load_line("18446744073709551615\t0\t1\tw\texit\t-") == 1 &&
	      flt.rows[0].ts == 18446744073709551615ull, "faults: the largest time stamp");
	CHECK(!load_line("18446744073709551616\t0\t1\tw\texit\t-"), "faults: a time stamp past 64 bits");
	CHECK(!load_line("1\t2147483648\t1\tw\texit\t-"), "faults: a CPU past INT_MAX");
	CHECK(!load_line("1\t0\t-1\tw\texit\t-"), "faults: a negative pid");
	CHECK(!load_line("1\t0\t1\tw\texit\t-\tmore"), "faults: a seventh field");
	CHECK(!load_line("1\t0\t1\tw\texit"), "faults: five fields");
	CHECK(!load_line("1\t0\t1\tW-X\texit\t-"), "faults: a site that is no site name");
	CHECK(!load_line("1\t0\t1\tw\texit\tEFAULT"), "faults: an errno for an outcome that is not an error");
	CHECK(!load_line("1\t0\t1\tw\terror\tefault"), "faults: an errno that is not an errno name");
	CHECK(!load_line("1\t0\t1\tw\texit\t-\r"), "faults: a CRLF line end");
	faults_free();
	if (h)
		tracecmd_close(h);
	symtab_free(&ev.sites);
	memset(&ev, 0, sizeof(ev));
	free((char *)c.path);
	free(trace);
}

/* ------------------------------------------------------------ the site locator */

/* the fixture's table at path, with extra sites appended */
static char *table_with(const char *path, const char *extra)
{
	char *out = xasprintf("%s/sites-v2.txt", tmp), *text = read_file(path, NULL);
	FILE *f = fopen(out, "w");

	if (!text || !f)
		abort();
	fputs(text, f);
	fputs(extra, f);
	if (fclose(f))
		abort();
	free(text);
	return out;
}

static void new_report(struct report *r, const char *srctree)
{
	static char *dirs[] = { "kernel/futex" };

	memset(r, 0, sizeof(*r));
	r->srctree = (char *)srctree;
	r->gcov_dirs = dirs;
	r->ndirs = 1;
}

/* the source line file:line of srctree */
static char *source_line(const char *srctree, const char *file, int line)
{
	char *path = xasprintf("%s/%s", srctree, file), *text = read_file(path, NULL), *p, *e;
	char *copy = NULL;

	free(path);
	for (p = text; p && --line > 0; p = strchr(p, '\n'))
		if (*p == '\n' || p == text)
			p += *p == '\n';
	if (p && line == 0) {
		if (*p == '\n')
			p++;
		e = strchr(p, '\n');
		copy = e ? xstrndup(p, e - p) : xstrdup(p);
	}
	free(text);
	return copy ? copy : xstrdup("");
}

/* copy srctree/kernel/futex/name to dst, text inserted before line at (0: appended) */
static void copy_with(const char *srctree, const char *dst, const char *name, int at,
		      const char *insert)
{
	char *from = xasprintf("%s/kernel/futex/%s", srctree, name);
	char *to = xasprintf("%s/kernel/futex/%s", dst, name);
	char *text = read_file(from, NULL), *p = text;
	FILE *f = fopen(to, "w");
	int ln = 1;

	if (!text || !f)
		abort();
	for (; *p; p++) {
		if (ln == at && (p == text || p[-1] == '\n'))
			fputs(insert, f);
		fputc(*p, f);
		ln += *p == '\n';
	}
	if (!at)
		fputs(insert, f);
	fclose(f);
	free(text);
	free(from);
	free(to);
}

/* a copy of the fixture's kernel/futex sources, in tmp/name */
static char *copy_tree(const char *srctree, const char *name)
{
	static const char *const files[] = { "core.c", "pi.c", "requeue.c", "syscalls.c",
					     "waitwake.c", "fault.c" };
	char *dst = xasprintf("%s/%s", tmp, name), *cmd;
	size_t i;

	cmd = xasprintf("mkdir -p %s/kernel/futex", dst);
	if (system(cmd))
		abort();
	free(cmd);
	for (i = 0; i < ARRAY_SIZE(files); i++)
		copy_with(srctree, dst, files[i], -1, "");
	return dst;
}

static int locate_in(struct report *r, const char *srctree, const char *table,
		     struct strbuf *msg)
{
	int ret;

	new_report(r, srctree);
	sb_init(msg);
	ffr_msg_capture(msg);
	ret = sites_load(r, table);
	if (!ret)
		ret = sites_locate(r);
	ffr_msg_capture(NULL);
	return ret;
}

static void test_locate(const char *srctree, const char *fixture)
{
	struct site *s, *eagain;
	struct strbuf msg;
	char *path, *table, *dup, *line;
	size_t i, bad_marker = 0, bad_line = 0;
	struct report r;
	int ret, wgv_line;

	/* the fixture's baseline table, as the kernel wrote it */
	path = xasprintf("%s/runs/baseline/sites.txt", fixture);
	table = table_with(path, "");
	ret = locate_in(&r, srctree, table, &msg);
	CHECK(ret == 0 && r.nsites > 50,
	      "the v2 table's %zu sites located in the fixture's sources%s%.300s", r.nsites,
	      ret ? ": " : "", ret && msg.buf ? msg.buf : "");
	for (i = 0; !ret && i < r.nsites; i++) {
		char *marker = xasprintf("futex_fault(%s,", r.sites[i].name);

		s = &r.sites[i];
		bad_line += !s->file || !s->line_from_source || s->line <= 0;
		line = s->file ? source_line(srctree, s->file, s->line) : xstrdup("");
		bad_marker += !strstr(line, marker);
		free(line);
		free(marker);
	}
	CHECK(!ret && !bad_line, "every site has a file and a line from the sources (%zu lack one)",
	      bad_line);
	CHECK(!ret && !bad_marker, "each line holds the site's futex_fault(<name>, (%zu do not)",
	      bad_marker);
	s = site_find(&r, "wait_get_value");
	CHECK(s && s->function && !strcmp(s->function, "?") && msg.buf &&
	      strstr(msg.buf, "site 'wait_get_value' at line ") &&
	      strstr(msg.buf, ": neither gcov nor the source names its function"),
	      "without gcov data the function is '?', with a warning");
	wgv_line = s ? s->line : 0;
	sb_free(&msg);

	/* a twin _eagain site just before it, a second marker of it after */
	dup = copy_tree(srctree, "dup");
	copy_with(srctree, dup, "waitwake.c", wgv_line,
		  "\tif (futex_fault(wait_get_value_eagain, uaddr))\n");
	copy_with(dup, dup, "waitwake.c", 0, "/* futex_fault(wait_get_value, uaddr) again */\n");
	free(table);
	table = table_with(path, "wait_get_value_eagain -EAGAIN 0 0 0 -\n");
	ret = locate_in(&r, dup, table, &msg);
	s = site_find(&r, "wait_get_value");
	eagain = site_find(&r, "wait_get_value_eagain");
	CHECK(!ret && eagain && eagain->line == wgv_line && s && s->line == wgv_line + 1,
	      "futex_fault(wait_get_value_eagain, is not wait_get_value's: lines %d, %d",
	      eagain ? eagain->line : 0, s ? s->line : 0);
	CHECK(eagain && !strcmp(eagain->errname, "EAGAIN") && s && !strcmp(s->errname, "EFAULT"),
	      "errno column: -EAGAIN reads EAGAIN, EFAULT EFAULT (%s, %s)",
	      eagain ? eagain->errname : "?", s ? s->errname : "?");
	line = msg.buf ? strstr(msg.buf, "site 'wait_get_value' is marked 2 times; taking kernel/futex/waitwake.c:") : NULL;
	CHECK(line, "a second marker: the first taken, the other noted: %.*s",
	      line ? (int)strcspn(line, "\n") : 0, line ? line : "");
	sb_free(&msg);
	free(dup);

	/* more than a few markers, or none: errors naming the tree */
	dup = copy_tree(srctree, "many");
	copy_with(srctree, dup, "core.c", 0,
		  "futex_fault(get_key_gup, a); futex_fault(get_key_gup, b);\n"
		  "futex_fault(get_key_gup, c); futex_fault(get_key_gup, d);\n");
	ret = locate_in(&r, dup, table, &msg);
	line = msg.buf ? strstr(msg.buf, "error: ") : NULL;
	CHECK(ret < 0 && line && !strncmp(line + 7, dup, strlen(dup)) &&
	      strstr(line, "site 'get_key_gup': 5 markers 'futex_fault(get_key_gup,' in kernel/futex/*.c, at most 4 expected"),
	      "5 markers of one site: %.*s", line ? (int)strcspn(line, "\n") : 0, line ? line : "");
	sb_free(&msg);
	free(table);
	table = table_with(path, "no_such_site EFAULT 0 0 0 -\n");
	ret = locate_in(&r, srctree, table, &msg);
	line = msg.buf ? strstr(msg.buf, "error: ") : NULL;
	CHECK(ret < 0 && line && !strncmp(line + 7, srctree, strlen(srctree)) &&
	      strstr(line, "site 'no_such_site' of the site table: no 'futex_fault(no_such_site,' in kernel/futex/*.c"),
	      "a site without a marker: %.*s", line ? (int)strcspn(line, "\n") : 0, line ? line : "");
	sb_free(&msg);
	free(table);
	free(path);
	free(dup);
}

/* ------------------------------------------------------------ a site's function */

/* kernel-style source: a helper gcov has no function record of, two syscalls */
static const char fn_snippet[] =
	"static __always_inline int\n"				/* 1 */
	"cmpxchg_helper(u32 __user *uaddr, u32 *uval)\n"		/* 2 */
	"{\n"							/* 3 */
	"\tif (futex_fault(helper_site, uaddr))\n"		/* 4 */
	"\t\treturn -EFAULT;\n"					/* 5 */
	"\treturn 0;\n"						/* 6 */
	"}\n"							/* 7 */
	"\n"							/* 8 */
	"static int unused_between;\n"				/* 9 */
	"\n"							/* 10 */
	"SYSCALL_DEFINE3(get_robust_list, int, pid,\n"		/* 11 */
	"\t\tsize_t __user *, len_ptr)\n"			/* 12 */
	"{\n"							/* 13 */
	"\treturn 0;\n"						/* 14 */
	"}\n"							/* 15 */
	"/* a comment */\n"					/* 16 */
	"COMPAT_SYSCALL_DEFINE2(set_robust_list, void *, head, size_t, len)\n" /* 17 */
	"{\n"							/* 18 */
	"\tstruct x y = {\n"					/* 19 */
	"\t};\n"							/* 20 */
	"\treturn 0;\n"						/* 21 */
	"}\n";							/* 22 */

static void test_source_function(void)
{
	static const struct { int line; const char *want; } cases[] = {
		{ 4, "cmpxchg_helper" }, { 6, "cmpxchg_helper" }, { 9, NULL },
		{ 12, NULL }, { 14, "get_robust_list" }, { 20, "compat_set_robust_list" },
		{ 21, "compat_set_robust_list" },
	};
	struct func gcov_fn = { .name = (char *)"__do_sys_get_robust_list", .start = 11, .end = 15 };
	struct srcfile f = { 0 };
	char *text = xstrdup(fn_snippet), *p, *got;
	char *lines[32];
	size_t i;

	f.line_text = lines;
	for (p = text; *p; ) {
		char *e = strchr(p, '\n');

		f.line_text[++f.nlines] = p;
		*e = '\0';
		p = e + 1;
	}
	f.text = text;
	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		got = srcfile_function(&f, cases[i].line);
		CHECK(cases[i].want ? got && !strcmp(got, cases[i].want) : !got,
		      "line %d without gcov's record: function %s (want %s)", cases[i].line,
		      got ? got : "none", cases[i].want ? cases[i].want : "none");
		free(got);
	}
	f.funcs = &gcov_fn;
	f.nfuncs = 1;
	got = srcfile_function(&f, 12);
	CHECK(got && !strcmp(got, "get_robust_list"), "gcov's record wins: line 12 in %s",
	      got ? got : "none");
	free(got);
	free(text);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/test_kernel_v2.XXXXXX";
	char *cmd;

	if (argc != 4) {
		fprintf(stderr, "usage: test_kernel_v2 SRCTREE FIXTURE FIXTURE_V1\n");
		return 2;
	}
	test_decoder(argv[2], argv[3]);
	test_plugin(argv[2]);
	tmp = mkdtemp(dir);
	if (!tmp)
		abort();
	test_locate(argv[1], argv[2]);
	test_source_function();
	test_faults(argv[2]);
	cmd = xasprintf("rm -rf %s", tmp);
	if (system(cmd))
		fprintf(stderr, "test_kernel_v2: cannot remove %s\n", tmp);
	free(cmd);
	return tap_done("test_kernel_v2");
}
