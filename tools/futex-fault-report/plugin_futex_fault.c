// SPDX-License-Identifier: GPL-2.0
/*
 * plugin_futex_fault.so - a libtraceevent plugin for futex_fault_inject.
 *
 *   futex_fault_inject: site=wait_get_value err=EFAULT op=FUTEX_WAIT_PRIVATE
 *                       uaddr=0x7ffc... caller=futex_wait_setup+0xd8
 *
 * The site name comes from the event itself (its name string, or the
 * __print_symbolic() of its print fmt): no site list is compiled in.
 * With -O futex_fault:report=<report.json> each line also gets what
 * futex-fault-report found for the site: outcomes and recovery coverage.
 * The report is read once, when the plugin is loaded: libtraceevent sets
 * the options given on the command line in tep_plugin_add_options().
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "json_number.h"
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
	{ .name = NULL },
};

EXPORT const char *TEP_PLUGIN_ALIAS = "futex_fault";

static struct tep_plugin_option *opt_report = &TEP_PLUGIN_OPTIONS[0];

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
	print_report(s, name);
	return 0;
}

EXPORT int TEP_PLUGIN_LOADER(struct tep_handle *tep)
{
	tep_register_event_handler(tep, -1, "futex_fault", "futex_fault_inject",
				   futex_fault_handler, NULL);
	/* sets the options given by the user, report= among them */
	tep_plugin_add_options("futex_fault", TEP_PLUGIN_OPTIONS);
	report_load(opt_report->value);
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
}
