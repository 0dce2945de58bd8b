// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_futex_fault.so - a libtraceevent plugin for futex_fault_inject.
 *
 *   futex_fault_inject: site=wait_get_value err=EFAULT op=FUTEX_WAIT_PRIVATE
 *                       uaddr=0x7ffc... caller=futex_wait_setup+0xd8
 *
 * The site name comes from the event itself (its name string, or the
 * __print_symbolic() of its print fmt): no site list is compiled in.
 * With -O futex_fault:faults=<report>/faults/<run>.tsv each line also says
 * what became of that fault, as futex-fault-report found it:
 *
 *   ... call_site=futex_wait_setup+0xd8 outcome=error errno=EAGAIN
 *
 * and with -O futex_fault:report=<report.json> what it found for the site:
 * outcomes and recovery coverage.  Both files are read once, when the
 * plugin is loaded: libtraceevent sets the options given on the command
 * line in tep_plugin_add_options().
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "faults.h"
#include "json_number.h"
#include "outcome.h"
#include "print_symbolic.h"
#include "util.h"

#define EXPORT __attribute__((visibility("default")))

EXPORT struct tep_plugin_option TEP_PLUGIN_OPTIONS[] = {
	{
		.name = "report",
		.plugin_alias = "futex_fault",
		.description = "report.json of futex-fault-report: show each site's outcomes and recovery coverage",
		.value = "",
	},
	{
		.name = "faults",
		.plugin_alias = "futex_fault",
		.description = "faults/<run>.tsv of futex-fault-report: show what became of each fault",
		.value = "",
	},
	{ .name = NULL },
};

EXPORT const char *TEP_PLUGIN_ALIAS = "futex_fault";

static struct tep_plugin_option *opt_report = &TEP_PLUGIN_OPTIONS[0];
static struct tep_plugin_option *opt_faults = &TEP_PLUGIN_OPTIONS[1];

/* per-event lookups, done on the first record */
static struct {
	struct tep_event	*event;
	struct tep_format_field	*site, *err, *op, *uaddr, *caller, *name;
	int			need;	/* the record size the fields read need */
	struct symtab		sites;
} ev;

/* each site of the report, with the annotation printed after its events */
struct report_site {
	char	*name;
	char	*note;		/* " [fired=... error_lines=...]" */
};

static struct {
	bool			loaded;		/* the option named a report */
	struct report_site	*sites;
	size_t			nsites;
} rep;

/* libtraceevent reads a field wherever the format says: check the record's size first */
static void need(struct tep_format_field *f)
{
	if (ev.need < f->offset + f->size)
		ev.need = f->offset + f->size;
}

static int setup(struct tep_event *event)
{
	if (ev.event == event)
		return 0;
	symtab_free(&ev.sites);
	memset(&ev, 0, sizeof(ev));
	ev.site = tep_find_field(event, "site");
	ev.err = tep_find_field(event, "err");
	ev.op = tep_find_field(event, "op");
	ev.uaddr = tep_find_field(event, "uaddr");
	/* call_site since interface v2, caller before */
	ev.caller = tep_find_field(event, "call_site") ?: tep_find_field(event, "caller");
	ev.name = tep_find_field(event, "name");
	/* newer kernels leave the op to raw_syscalls:sys_enter */
	if (!ev.site || !ev.err || !ev.uaddr || !ev.caller)
		return -1;
	need(ev.site);
	need(ev.err);
	if (ev.op)
		need(ev.op);
	need(ev.uaddr);
	need(ev.caller);
	if (ev.name && (ev.name->flags & TEP_FIELD_IS_DYNAMIC))
		need(ev.name);
	symtab_from_event(event, "site", &ev.sites);
	ev.event = event;
	return 0;
}

static long long field_val(struct tep_format_field *f, struct tep_record *rec, bool is_signed)
{
	unsigned long long v = 0;

	tep_read_number_field(f, rec->data, &v);
	if (is_signed && f->size == 4)
		return (int)v;
	return v;
}

static const char *site_name(struct tep_record *rec, unsigned long long site)
{
	const char *name = symtab_name(&ev.sites, site);
	int loc, off, len;

	if (name || !ev.name || !(ev.name->flags & TEP_FIELD_IS_DYNAMIC))
		return name;
	loc = field_val(ev.name, rec, false);
	off = loc & 0xffff;
	len = (loc >> 16) & 0xffff;
	if (ev.name->flags & TEP_FIELD_IS_RELATIVE)
		off += ev.name->offset + ev.name->size;
	if (!len || off + len > rec->size || !memchr((char *)rec->data + off, '\0', len))
		return NULL;
	return (const char *)rec->data + off;
}

static void report_free(void)
{
	size_t i;

	for (i = 0; i < rep.nsites; i++) {
		free(rep.sites[i].name);
		free(rep.sites[i].note);
	}
	free(rep.sites);
	memset(&rep, 0, sizeof(rep));
}

/*
 * Read report.json once: each site's annotation, formatted now.  A report
 * that cannot be read is said once; its events are then printed without.
 */
static void report_load(const char *path)
{
	json_t *doc, *sites, *site;
	json_error_t err;
	size_t i, len;
	char *text;

	report_free();
	if (!path || !*path)
		return;
	text = read_file(path, &len);
	if (!text) {
		fprintf(stderr, "plugin_futex_fault: %s: %s\n", path, strerror(errno));
		return;
	}
	doc = json_loadb(text, len, JSON_DECODE_INT_AS_REAL, &err);
	free(text);
	if (!doc) {
		fprintf(stderr, "plugin_futex_fault: %s: not valid JSON: line %d column %d: %s\n",
			path, err.line, err.column, err.text);
		return;
	}
	sites = json_object_get(doc, "sites");
	if (!json_is_array(sites)) {
		fprintf(stderr, "plugin_futex_fault: %s: not a futex-fault-report report.json (no \"sites\" array)\n",
			path);
		json_decref(doc);
		return;
	}
	rep.sites = xcalloc(json_array_size(sites) + 1, sizeof(*rep.sites));
	json_array_foreach(sites, i, site) {
		const char *name = json_string_value(json_object_get(site, "name"));
		json_t *oc = json_object_get(site, "outcomes");
		json_t *rec = json_object_get(site, "recovery");

		if (!name)
			continue;
		rep.sites[rep.nsites].name = xstrdup(name);
		rep.sites[rep.nsites].note =
			xasprintf(" [fired=%.0f recovered=%.0f error=%.0f exit=%.0f noreturn=%.0f recovery_lines=%.0f error_lines=%.0f]",
				  member_num(site, "fired", 0), member_num(oc, "recovered", 0),
				  member_num(oc, "error", 0), member_num(oc, "exit", 0),
				  member_num(oc, "noreturn", 0), member_num(rec, "lines_total", 0),
				  member_num(rec, "error_lines", 0));
		rep.nsites++;
	}
	rep.loaded = true;
	json_decref(doc);
}

/*
 * A line of the faults file: one fault, found again by its event's time
 * stamp, CPU and pid.  Site and errno are indexes into flt.names.
 */
struct fault_row {
	unsigned long long	ts;
	int			cpu;
	int			pid;
	unsigned short		site;
	unsigned short		err;		/* 0: none, the outcome is not an error */
	unsigned char		oc;		/* enum oc_outcome */
	bool			shown;		/* printed on an event line already */
};

/* more site and errno names than any kernel has: the file is not ours */
#define MAX_NAMES	1024

static struct {
	bool			loaded;		/* the option named a file, and it was read */
	struct fault_row	*rows;		/* in time order, as the file has them */
	size_t			nrows;
	char			*names[MAX_NAMES];	/* names[0] is "-" */
	size_t			nnames;
} flt;

static void faults_free(void)
{
	size_t i;

	for (i = 0; i < flt.nnames; i++)
		free(flt.names[i]);
	free(flt.rows);
	memset(&flt, 0, sizeof(flt));
}

/* the index of name in flt.names, added if new; -1 when there are too many */
static int intern(const char *name)
{
	static size_t last;
	size_t i;

	/* mostly the name of the line before */
	if (last < flt.nnames && !strcmp(flt.names[last], name))
		return last;
	for (i = 0; i < flt.nnames; i++)
		if (!strcmp(flt.names[i], name))
			return last = i;
	if (flt.nnames == MAX_NAMES)
		return -1;
	flt.names[flt.nnames] = xstrdup(name);
	return last = flt.nnames++;
}

/* a decimal number in [0, max], the whole field */
static bool field_number(const char *f, unsigned long long max, unsigned long long *v)
{
	unsigned long long n = 0;

	if (!*f)
		return false;
	for (; *f; f++) {
		if (*f < '0' || *f > '9' || n > (max - (*f - '0')) / 10)
			return false;
		n = n * 10 + (*f - '0');
	}
	*v = n;
	return true;
}

static bool name_char(char c, bool is_errno)
{
	if (c >= '0' && c <= '9')
		return true;
	if (is_errno)
		return (c >= 'A' && c <= 'Z') || c == '_';
	return (c >= 'a' && c <= 'z') || c == '_';
}

/* a site name as the kernel names them, or an errno name as errno_name() gives it */
static bool field_name(const char *f, bool is_errno)
{
	const char *p;

	if (!*f || (is_errno && *f != 'E'))
		return false;
	for (p = f; *p; p++)
		if (!name_char(*p, is_errno))
			return false;
	return p - f < 64;
}

static int outcome_index(const char *name)
{
	int oc;

	for (oc = 0; oc < OC_NR; oc++)
		if (!strcmp(oc_names[oc], name))
			return oc;
	return -1;
}

/* one line of faults, split at its tabs in place; NULL or what is wrong with it */
static const char *parse_row(char *line, struct fault_row *row, const struct fault_row *prev)
{
	char *f[FAULTS_FIELDS], *p = line;
	unsigned long long ts, cpu, pid;
	int i, site, err = 0, oc;

	for (i = 0; i < FAULTS_FIELDS; i++) {
		f[i] = p;
		p = strchr(p, '\t');
		if (!p && i < FAULTS_FIELDS - 1)
			return "fewer than 6 fields";
		if (p)
			*p++ = '\0';
	}
	if (p)
		return "more than 6 fields";
	if (!field_number(f[0], ULLONG_MAX, &ts))
		return "ts is not a number";
	if (!field_number(f[1], INT_MAX, &cpu) || !field_number(f[2], INT_MAX, &pid))
		return "cpu or pid is not a number";
	if (!field_name(f[3], false))
		return "not a site name";
	oc = outcome_index(f[4]);
	if (oc < 0)
		return "not an outcome (recovered, error, exit, noreturn, unknown)";
	if (strcmp(f[5], "-") && !field_name(f[5], true))
		return "errno is neither '-' nor an errno name";
	if ((oc == OC_ERROR) != !!strcmp(f[5], "-"))
		return "an error needs an errno, another outcome has '-'";
	site = intern(f[3]);
	if (oc == OC_ERROR)
		err = intern(f[5]);
	if (site < 0 || err < 0)
		return "too many site and errno names (a file of another program?)";
	if (prev && (ts < prev->ts || (ts == prev->ts && (int)cpu < prev->cpu)))
		return "not in time order";
	row->ts = ts;
	row->cpu = cpu;
	row->pid = pid;
	row->site = site;
	row->err = err;
	row->oc = oc;
	row->shown = false;
	return NULL;
}

/*
 * Read the faults file once, a line at a time.  One that cannot be read, or
 * is not all well-formed, is said once, naming the file (and the line); its
 * events are then printed without what became of them.
 */
static void faults_load(const char *path)
{
	const char *what = NULL;
	char *line = NULL;
	size_t linecap = 0, cap = 0;
	ssize_t n;
	int lineno = 0, err;
	FILE *f;

	faults_free();
	if (!path || !*path)
		return;
	f = fopen(path, "re");
	if (!f) {
		fprintf(stderr, "plugin_futex_fault: %s: %s\n", path, strerror(errno));
		return;
	}
	intern("-");
	while (!what && (n = getline(&line, &linecap, f)) >= 0) {
		lineno++;
		if (!n || line[n - 1] != '\n') {
			what = "truncated: the last line has no newline";
			break;
		}
		line[--n] = '\0';
		if (strlen(line) != (size_t)n) {
			what = "a NUL byte: not a text file";
		} else if (lineno == 1 && strcmp(line, FAULTS_MAGIC)) {
			what = "not a futex-fault-report faults file (the first line is not '" FAULTS_MAGIC "')";
		} else if (lineno == 2 && strcmp(line, FAULTS_HEADER)) {
			what = "the second line is not the header '# ts cpu pid site outcome errno' (tabs)";
		} else if (lineno > 2) {
			grow(&flt.rows, &cap, flt.nrows + 1, sizeof(*flt.rows));
			what = parse_row(line, &flt.rows[flt.nrows],
					 flt.nrows ? &flt.rows[flt.nrows - 1] : NULL);
			flt.nrows++;
		}
	}
	err = ferror(f) ? errno : 0;
	free(line);
	fclose(f);
	if (!what && err)
		what = strerror(err);
	else if (!what && lineno < 2)
		what = "not a futex-fault-report faults file (empty or no header)";
	if (what) {
		fprintf(stderr, "plugin_futex_fault: %s:%d: %s\n", path, lineno, what);
		faults_free();
		return;
	}
	flt.loaded = true;
}

/*
 * What became of the fault of this event: its line found by binary search
 * on the time stamp, then by CPU, pid and site.  Two faults of one task at
 * the same time stamp on one CPU take their lines in turn.
 */
static void print_fault(struct trace_seq *s, struct tep_event *event, struct tep_record *rec,
			const char *name)
{
	size_t lo = 0, hi = flt.nrows, i;
	struct fault_row *hit = NULL, *first = NULL;
	int pid;

	if (!flt.loaded)
		return;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (flt.rows[mid].ts < rec->ts)
			lo = mid + 1;
		else
			hi = mid;
	}
	pid = tep_data_pid(event->tep, rec);
	for (i = lo; i < flt.nrows && flt.rows[i].ts == rec->ts; i++) {
		struct fault_row *row = &flt.rows[i];

		if (row->cpu != rec->cpu || row->pid != pid ||
		    (name && strcmp(flt.names[row->site], name)))
			continue;
		if (!first)
			first = row;
		if (!row->shown) {
			hit = row;
			break;
		}
	}
	if (!hit)
		hit = first;
	if (!hit) {
		trace_seq_puts(s, " [not in faults]");
		return;
	}
	hit->shown = true;
	trace_seq_printf(s, " outcome=%s", oc_names[hit->oc]);
	if (hit->err)
		trace_seq_printf(s, " errno=%s", flt.names[hit->err]);
}

static void print_report(struct trace_seq *s, const char *name)
{
	size_t i;

	if (!rep.loaded)
		return;
	for (i = 0; name && i < rep.nsites; i++) {
		if (!strcmp(rep.sites[i].name, name)) {
			trace_seq_puts(s, rep.sites[i].note);
			return;
		}
	}
	trace_seq_puts(s, " [not in report]");
}

static int futex_fault_handler(struct trace_seq *s, struct tep_record *rec,
			       struct tep_event *event, void *context)
{
	unsigned long long site, uaddr, caller, fn_addr;
	const char *name, *fn;
	char opname[64];
	int err, op;

	if (setup(event))
		return 1;	/* let libtraceevent print the raw format */
	if (rec->size < ev.need) {
		trace_seq_printf(s, "record of %d bytes, the format has %d (corrupt trace?)",
				 rec->size, ev.need);
		return 0;
	}
	site = field_val(ev.site, rec, false);
	err = field_val(ev.err, rec, true);
	uaddr = field_val(ev.uaddr, rec, false);
	caller = field_val(ev.caller, rec, false);
	name = site_name(rec, site);

	if (name)
		trace_seq_printf(s, "site=%s", name);
	else
		trace_seq_printf(s, "site=%llu", site);
	trace_seq_printf(s, " err=%s", errno_name(err));
	if (ev.op) {
		op = field_val(ev.op, rec, true);
		futex_op_name(op, opname, sizeof(opname));
		trace_seq_printf(s, " op=%s", opname);
	}
	trace_seq_printf(s, " uaddr=0x%llx %s=", uaddr, ev.caller->name);
	fn = tep_find_function(event->tep, caller);
	if (fn) {
		fn_addr = tep_find_function_address(event->tep, caller);
		trace_seq_printf(s, "%s+0x%llx", fn, caller - fn_addr);
	} else {
		trace_seq_printf(s, "0x%llx", caller);
	}
	print_fault(s, event, rec, name);
	print_report(s, name);
	return 0;
}

EXPORT int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	tep_register_event_handler(tep, -1, "futex_fault", "futex_fault_inject",
				   futex_fault_handler, NULL);
	/* sets the options given by the user, report= and faults= among them */
	tep_plugin_add_options("futex_fault", TEP_PLUGIN_OPTIONS);
	report_load(opt_report->value);
	faults_load(opt_faults->value);
	return 0;
}

EXPORT void TEP_PLUGIN_UNLOADER(struct tep_handle *tep)
{
	tep_unregister_event_handler(tep, -1, "futex_fault", "futex_fault_inject",
				     futex_fault_handler, NULL);
	tep_plugin_remove_options(TEP_PLUGIN_OPTIONS);
	symtab_free(&ev.sites);
	memset(&ev, 0, sizeof(ev));
	report_free();
	faults_free();
}
