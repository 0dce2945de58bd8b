// SPDX-License-Identifier: GPL-2.0
/*
 * The reporter and the plugin against the kernel's interface v2:
 *
 * - futex_fault_inject names the site's address call_site (v1: caller),
 *   has no name and no op field (names come from the __print_symbolic() of
 *   site in its print fmt, the op from raw_syscalls:sys_enter) and has a
 *   shared field.  Its format below is the v2 event as the kernel writes it
 *   to events/futex_fault/futex_fault_inject/format; sys_enter and sys_exit
 *   are 6.1's, as in the fixture's traces.  Records built on these formats
 *   go through the reporter's decoder and the plugin's print handler.
 *
 * - the site table has no file, line and function columns: the reporter
 *   finds each site's marker in the sources.  Given a source tree (the
 *   fixture's kernel/futex sources, extracted by run-tests.sh) and the
 *   fixture's baseline site table, every site is located there and
 *   compared with the kernel's own v1 table.
 *
 * usage: test_kernel_v2 [SRCTREE FIXTURE]
 * TAP output; exit status 1 if any test failed.
 */
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
#include "x86_syscalls.h"

#include "tap.h"

/* the plugin's handler and setup, static in the plugin */
#include "plugin_futex_fault.c"

#define COMMON_FIELDS								\
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"	\
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"	\
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

#define ID_INJECT	364
#define ID_EXIT		302
#define ID_ENTER	303

static const char inject_v2[] =
	"name: futex_fault_inject\nID: 364\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned int site;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:int err;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned long uaddr;\toffset:16;\tsize:8;\tsigned:0;\n"
	"\tfield:bool shared;\toffset:24;\tsize:1;\tsigned:0;\n"
	"\tfield:unsigned long call_site;\toffset:32;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"site=%s err=%s uaddr=0x%lx shared=%d call_site=%pS\", "
	"__print_symbolic(REC->site, { 0, \"get_key_access\" }, { 1, \"wait_get_value\" }, "
	"{ 2, \"wait_get_value_eagain\" }), "
	"__print_symbolic(REC->err, { 14, \"EFAULT\" }, { 11, \"EAGAIN\" }), "
	"REC->uaddr, REC->shared, (void *)REC->call_site\n";

/* the same with neither call_site nor caller */
static const char inject_no_caller[] =
	"name: futex_fault_inject\nID: 364\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned int site;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:int err;\toffset:12;\tsize:4;\tsigned:1;\n"
	"\tfield:unsigned long uaddr;\toffset:16;\tsize:8;\tsigned:0;\n\n"
	"print fmt: \"site=%s err=%d\", "
	"__print_symbolic(REC->site, { 0, \"get_key_access\" }, { 1, \"wait_get_value\" }), "
	"REC->err\n";

static const char sys_enter[] =
	"name: sys_enter\nID: 303\nformat:\n" COMMON_FIELDS
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:unsigned long args[6];\toffset:16;\tsize:48;\tsigned:0;\n\n"
	"print fmt: \"NR %ld (%lx, %lx, %lx, %lx, %lx, %lx)\", REC->id, REC->args[0], "
	"REC->args[1], REC->args[2], REC->args[3], REC->args[4], REC->args[5]\n";

static const char sys_exit[] =
	"name: sys_exit\nID: 302\nformat:\n" COMMON_FIELDS
	"\tfield:long id;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield:long ret;\toffset:16;\tsize:8;\tsigned:1;\n\n"
	"print fmt: \"NR %ld = %ld\", REC->id, REC->ret\n";

#define PID		42
#define FUNC_ADDR	0xffffffff81100000ull
#define CALL_SITE	(FUNC_ADDR + 0x5c)
#define UADDR		0x7ffd1000ull

static struct tep_handle *new_tep(const char *inject)
{
	struct tep_handle *tep = tep_alloc();

	if (!tep)
		abort();
	tep_set_long_size(tep, 8);
	tep_set_file_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, tep_is_bigendian() ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	if (tep_parse_event(tep, inject, strlen(inject), "futex_fault") ||
	    tep_parse_event(tep, sys_enter, sizeof(sys_enter) - 1, "raw_syscalls") ||
	    tep_parse_event(tep, sys_exit, sizeof(sys_exit) - 1, "raw_syscalls"))
		abort();
	tep_register_comm(tep, "ffdrive", PID);
	tep_register_function(tep, "futex_wait_setup", FUNC_ADDR, NULL);
	tep_register_function(tep, "futex_wait", FUNC_ADDR + 0x200, NULL);
	return tep;
}

static void put(unsigned char *rec, unsigned int off, unsigned long long v, unsigned int size)
{
	memcpy(rec + off, &v, size);	/* host byte order, as the tep says */
}

static unsigned int rec_enter(unsigned char *rec, long nr, unsigned long op)
{
	memset(rec, 0, 64);
	put(rec, 0, ID_ENTER, 2);
	put(rec, 4, PID, 4);
	put(rec, 8, nr, 8);
	put(rec, 16 + 8, op, 8);
	return 64;
}

static unsigned int rec_exit(unsigned char *rec, long nr, long ret)
{
	memset(rec, 0, 24);
	put(rec, 0, ID_EXIT, 2);
	put(rec, 4, PID, 4);
	put(rec, 8, nr, 8);
	put(rec, 16, ret, 8);
	return 24;
}

static unsigned int rec_inject(unsigned char *rec, unsigned int site, int err)
{
	memset(rec, 0, 40);
	put(rec, 0, ID_INJECT, 2);
	put(rec, 4, PID, 4);
	put(rec, 8, site, 4);
	put(rec, 12, err, 4);
	put(rec, 16, UADDR, 8);
	put(rec, 24, 1, 1);
	put(rec, 32, CALL_SITE, 8);
	return 40;
}

static const char *const site_names[] = {
	"get_key_access", "wait_get_value", "wait_get_value_eagain",
};

static void fake_report(struct report *r)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->nsites = ARRAY_SIZE(site_names);
	r->sites = xcalloc(r->nsites, sizeof(*r->sites));
	for (i = 0; i < r->nsites; i++)
		r->sites[i].name = (char *)site_names[i];
}

static void test_decoder(void)
{
	struct decoder t = { .path = "v2.dat" };
	struct tep_handle *tep = new_tep(inject_v2);
	struct trace_site *ps;
	unsigned char rec[64];
	struct strbuf msg;
	struct report r;
	int ret;

	fake_report(&r);
	t.r = &r;
	t.tep = tep;
	t.ps = xcalloc(r.nsites, sizeof(*t.ps));
	sb_init(&msg);
	ffr_msg_capture(&msg);
	ret = decoder_setup(&t);
	CHECK(ret == 0, "v2 futex_fault_inject (call_site, no name, no op): decoder set up%s%s",
	      msg.len ? ": " : "", msg.len ? msg.buf : "");
	if (ret) {
		ffr_msg_capture(NULL);
		return;
	}
	CHECK(!t.has_op && !t.has_name, "v2: the op comes from sys_enter, names from the print fmt");
	decoder_start(&t);
	/* futex(FUTEX_WAIT_PRIVATE) faulted by wait_get_value, returns -EFAULT */
	decode_record(&t, rec, rec_enter(rec, X86_64_NR_FUTEX, 128), 0);
	decode_record(&t, rec, rec_inject(rec, 1, 14), 0);
	decode_record(&t, rec, rec_exit(rec, X86_64_NR_FUTEX, -14), 0);
	/* the twin site injecting -EAGAIN, then the call succeeds */
	decode_record(&t, rec, rec_enter(rec, X86_64_NR_FUTEX, 128), 0);
	decode_record(&t, rec, rec_inject(rec, 2, 11), 0);
	decode_record(&t, rec, rec_exit(rec, X86_64_NR_FUTEX, 0), 0);
	decoder_end(&t);
	ret = decoder_check(&t, 0);
	CHECK(ret == 0, "v2 records decoded without error%s%s", msg.len ? ": " : "",
	      msg.len ? msg.buf : "");
	decoder_name_tasks(&t);
	ps = &t.ps[1];
	CHECK(t.records == 6 && t.injects == 2, "6 records, 2 injections (%llu, %llu)", t.records,
	      t.injects);
	CHECK(ps->counts.fired == 1 && ps->counts.oc[OC_ERROR] == 1 && ps->counts.nerrors == 1 &&
	      ps->counts.errors[0].key == 14, "wait_get_value (site value 1): fired once, error EFAULT");
	CHECK(ps->counts.nops == 1 && ps->counts.ops[0].key == 128,
	      "its op FUTEX_WAIT_PRIVATE (128) comes from sys_enter's args[1] (%ld)",
	      ps->counts.nops ? ps->counts.ops[0].key : -1);
	CHECK(ps->counts.caller == CALL_SITE && ps->counts.caller_sym &&
	      !strcmp(ps->counts.caller_sym, "futex_wait_setup+0x5c"),
	      "its caller is read from call_site: %s",
	      ps->counts.caller_sym ? ps->counts.caller_sym : "(none)");
	CHECK(ps->tasks && !strcmp(ps->tasks[0].comm, "ffdrive") && ps->tasks[0].pid == PID,
	      "its task is named from the trace's comms");
	ps = &t.ps[2];
	CHECK(ps->counts.fired == 1 && ps->counts.oc[OC_RECOVERED] == 1,
	      "wait_get_value_eagain (site value 2): fired once, recovered");
	CHECK(t.ps[0].counts.fired == 0, "get_key_access did not fire");
	decoder_free(&t);
	ffr_msg_capture(NULL);
	sb_free(&msg);
	tep_free(tep);

	/* neither call_site nor caller: a clear error naming the trace */
	memset(&t, 0, sizeof(t));
	t.path = "nocaller.dat";
	t.r = &r;
	t.tep = tep = new_tep(inject_no_caller);
	sb_init(&msg);
	ffr_msg_capture(&msg);
	ret = decoder_setup(&t);
	ffr_msg_capture(NULL);
	CHECK(ret < 0 && msg.buf && strstr(msg.buf, "nocaller.dat: event futex_fault:futex_fault_inject has neither a 'call_site' nor a 'caller' field"),
	      "no call_site nor caller field: %s", msg.buf ? msg.buf : "(no message)");
	decoder_free(&t);
	sb_free(&msg);
	tep_free(tep);
}

static void test_plugin(void)
{
	struct tep_handle *tep = new_tep(inject_v2);
	struct tep_event *event = tep_find_event(tep, ID_INJECT);
	struct tep_record rec = { 0 };
	unsigned char data[64];
	struct trace_seq s;

	rec.data = data;
	rec.size = rec_inject(data, 2, 11);
	trace_seq_init(&s);
	futex_fault_handler(&s, &rec, event, NULL);
	trace_seq_terminate(&s);
	CHECK(!strcmp(s.buffer, "site=wait_get_value_eagain err=EAGAIN uaddr=0x7ffd1000 call_site=futex_wait_setup+0x5c"),
	      "plugin prints the v2 event: %s", s.buffer);
	trace_seq_destroy(&s);
	symtab_free(&ev.sites);
	memset(&ev, 0, sizeof(ev));
	tep_free(tep);
}

/* ------------------------------------------------------------ the site locator */

static char *tmp;	/* scratch directory */

/* the v1 table at path as a v2 table, plus extra sites */
static char *v2_table(const char *path, const char *extra)
{
	char *out = xasprintf("%s/sites-v2.txt", tmp), *text = read_file(path, NULL), *line, *save;
	FILE *f = fopen(out, "w");
	char name[64], file[128], fn[128], err[32];
	int ln, en, hits, inj;

	if (!text || !f)
		abort();
	fputs("# name errno enabled hits injected call_site\n", f);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		if (line[0] != '#' &&
		    sscanf(line, "%63s %127s %d %127s %31s %d %d %d", name, file, &ln, fn, err, &en,
			   &hits, &inj) == 8)
			fprintf(f, "%s %s %d %d %d %s\n", name, err, en, hits, inj,
				hits ? "futex_wait_setup+0x5c/0x180" : "-");
	fputs(extra, f);
	if (fclose(f))
		abort();
	free(text);
	return out;
}

static void new_report(struct report *r, const char *srctree)
{
	memset(r, 0, sizeof(*r));
	r->srctree = (char *)srctree;
	r->gcov_dir = "kernel/futex";
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
	struct report truth, r;
	struct site *s, *t, *eagain;
	struct strbuf msg;
	char *path, *table, *dup, *line;
	size_t i, bad_file = 0, bad_line = 0, bad_marker = 0;
	int ret, wgv_line;
	glob_t g;

	/* the kernel's own v1 tables: file and function, and the line of each site that ran */
	new_report(&truth, srctree);
	path = xasprintf("%s/runs/baseline/sites.txt", fixture);
	if (sites_load(&truth, path))
		abort();
	table = v2_table(path, "");
	free(path);
	path = xasprintf("%s/runs/*/sites.txt", fixture);
	if (glob(path, 0, NULL, &g))
		abort();
	free(path);
	for (i = 0; i < g.gl_pathc; i++)
		if (!strstr(g.gl_pathv[i], "/baseline/") && sites_load(&truth, g.gl_pathv[i]))
			abort();

	ret = locate_in(&r, srctree, table, &msg);
	CHECK(ret == 0 && r.nsites == truth.nsites && r.nsites > 50,
	      "v2 table of %zu sites located in the fixture's sources%s%.300s", r.nsites,
	      ret ? ": " : "", ret && msg.buf ? msg.buf : "");
	for (i = 0; !ret && i < r.nsites; i++) {
		char *marker = xasprintf("futex_fault(%s,", r.sites[i].name);

		s = &r.sites[i];
		t = site_find(&truth, s->name);
		bad_file += !t || !s->file || strcmp(s->file, t->file);
		bad_line += !s->line_from_source || s->line <= 0 || (t && t->line && t->line != s->line);
		line = s->file ? source_line(srctree, s->file, s->line) : xstrdup("");
		bad_marker += !strstr(line, marker);
		free(line);
		free(marker);
	}
	CHECK(!ret && !bad_file, "every site's file is the one the kernel's v1 table names (%zu differ)",
	      bad_file);
	CHECK(!ret && !bad_line, "every line found, each that ran the kernel's own (%zu differ)",
	      bad_line);
	CHECK(!ret && !bad_marker, "each line holds the site's futex_fault(<name>, (%zu do not)",
	      bad_marker);
	s = site_find(&r, "wait_get_value");
	CHECK(s && !strcmp(s->file, "kernel/futex/waitwake.c") && s->line == 618,
	      "wait_get_value at kernel/futex/waitwake.c:618, as its run's table says (%s:%d)",
	      s ? s->file : "?", s ? s->line : 0);
	CHECK(s && s->function && !strcmp(s->function, "?") && msg.buf &&
	      strstr(msg.buf, "site 'wait_get_value' at line 618: no function of gcov's holds it"),
	      "without gcov data the function is '?', with a warning");
	wgv_line = s ? s->line : 0;
	sb_free(&msg);

	/* a twin _eagain site just before it, a second marker of it after */
	dup = copy_tree(srctree, "dup");
	copy_with(srctree, dup, "waitwake.c", wgv_line,
		  "\tif (futex_fault(wait_get_value_eagain, uaddr))\n");
	copy_with(dup, dup, "waitwake.c", 0, "/* futex_fault(wait_get_value, uaddr) again */\n");
	free(table);
	path = xasprintf("%s/runs/baseline/sites.txt", fixture);
	table = v2_table(path, "wait_get_value_eagain -EAGAIN 0 0 0 -\n");
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
	table = v2_table(path, "no_such_site EFAULT 0 0 0 -\n");
	ret = locate_in(&r, srctree, table, &msg);
	line = msg.buf ? strstr(msg.buf, "error: ") : NULL;
	CHECK(ret < 0 && line && !strncmp(line + 7, srctree, strlen(srctree)) &&
	      strstr(line, "site 'no_such_site' of the site table: no 'futex_fault(no_such_site,' in kernel/futex/*.c"),
	      "a site without a marker: %.*s", line ? (int)strcspn(line, "\n") : 0, line ? line : "");
	sb_free(&msg);
	free(table);
	free(path);
	free(dup);
	globfree(&g);
}

int main(int argc, char **argv)
{
	char dir[] = "/tmp/test_kernel_v2.XXXXXX";
	char *cmd;

	test_decoder();
	test_plugin();
	if (argc == 3) {
		tmp = mkdtemp(dir);
		if (!tmp)
			abort();
		test_locate(argv[1], argv[2]);
		cmd = xasprintf("rm -rf %s", tmp);
		if (system(cmd))
			fprintf(stderr, "test_kernel_v2: cannot remove %s\n", tmp);
		free(cmd);
	}
	return tap_done("test_kernel_v2");
}
