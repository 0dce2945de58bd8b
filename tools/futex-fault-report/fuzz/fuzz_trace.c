// SPDX-License-Identifier: GPL-2.0
/*
 * Fuzz target: records through the reporter's per-record path (trace_decode.c),
 * as one run's trace: the cached field offsets, pid checks, site mapping
 * (by the print fmt's table and by the record's own name string), the
 * outcome engine, comm and caller naming, and the merge into the report.
 *
 * The trace file itself is read by libtracecmd, which is not ours to fix
 * (nor built with the sanitizers): the event formats, command lines and
 * kallsyms come from a fixture trace opened once, and the input is the
 * records, each a 2-byte little-endian header (bits 0-14 its size, bit 15
 * "events were lost before it") and that many bytes, the last one cut at
 * the input's end.  Each record is copied to a buffer of exactly its size,
 * so ASan sees a read past its end.
 *
 * With $FFR_FUZZ_DUMP set to a directory, it writes the records of each
 * fixture trace there in that form (the seeds) and exits.
 */
#include <glob.h>

#include "fuzz.h"

#include "../trace.h"

#define REC_LOST	0x8000
#define REC_SIZE	0x7fff

static struct report r;
static size_t caller_job[1024];
static struct tracecmd_input *handle;

static int dump_record(struct tracecmd_input *h, struct tep_record *rec, int cpu, void *ctx)
{
	unsigned char hdr[2];
	unsigned int v;

	(void)h;
	(void)cpu;
	if (rec->size <= 0 || rec->size > REC_SIZE)
		return 0;
	v = rec->size | (rec->missed_events ? REC_LOST : 0);
	hdr[0] = v & 0xff;
	hdr[1] = v >> 8;
	if (fwrite(hdr, 1, 2, ctx) != 2 || fwrite(rec->data, 1, rec->size, ctx) != (size_t)rec->size)
		abort();
	return 0;
}

/* each fixture trace's records, one seed per trace */
static void dump(const char *dir)
{
	glob_t g;
	size_t i;

	if (glob(fuzz_fixture("runs/*/trace.dat"), 0, NULL, &g))
		abort();
	for (i = 0; i < g.gl_pathc; i++) {
		struct tracecmd_input *h = tracecmd_open(g.gl_pathv[i], TRACECMD_FL_LOAD_NO_PLUGINS);
		char *run = xstrdup(g.gl_pathv[i]), *slash, *path;
		FILE *f;

		if (!h)
			abort();
		*strrchr(run, '/') = '\0';
		slash = strrchr(run, '/');
		path = xasprintf("%s/%s.rec", dir, slash ? slash + 1 : run);
		f = fopen(path, "w");
		if (!f || tracecmd_iterate_events(h, NULL, 0, dump_record, f) < 0 || fclose(f))
			abort();
		tracecmd_close(h);
		free(path);
		free(run);
	}
	printf("%zu traces' records in %s\n", g.gl_pathc, dir);
	globfree(&g);
	exit(0);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dump_dir = getenv("FFR_FUZZ_DUMP");

	(void)argc;
	(void)argv;
	tep_set_loglevel(TEP_LOG_NONE);
	if (dump_dir && *dump_dir)
		dump(dump_dir);
	r.runs = xcalloc(1, sizeof(*r.runs));
	r.runs[0].name = "baseline";
	r.runs[0].dir = "fuzz";
	r.runs[0].status = "ok";
	r.nruns = 1;
	if (sites_load(&r, fuzz_fixture("runs/baseline/sites.txt")) ||
	    r.nsites > ARRAY_SIZE(caller_job))
		abort();
	handle = tracecmd_open(fuzz_fixture("runs/wait_get_value/trace.dat"),
			       TRACECMD_FL_LOAD_NO_PLUGINS);
	if (!handle)
		abort();
	return 0;
}

/* back to the sites as loaded */
static void reset_sites(void)
{
	size_t i, k;

	for (i = 0; i < r.nsites; i++) {
		struct site *s = &r.sites[i];

		for (k = 0; k < s->ntasks; k++)
			free(s->tasks[k].comm);
		free(s->counts.errors);
		free(s->counts.ops);
		free(s->tasks);
		free(s->counts.caller_sym);
		s->counts.fired = 0;
		memset(s->counts.oc, 0, sizeof(s->counts.oc));
		s->counts.errors = NULL;
		s->counts.nerrors = s->counts.caperrors = 0;
		s->counts.ops = NULL;
		s->counts.nops = s->counts.capops = 0;
		s->tasks = NULL;
		s->ntasks = s->captasks = 0;
		s->counts.caller = 0;
		s->counts.caller_sym = NULL;
	}
	r.runs[0].injects = r.runs[0].records = r.runs[0].lost = 0;
	r.events = 0;
}

/* the records, as tracecmd_record() takes them: the rest skipped after a bad one */
static int feed(struct decoder *t, const uint8_t *data, size_t size)
{
	size_t off = 0;
	int ret = 0;

	while (!ret && off + 2 <= size) {
		unsigned int hdr = data[off] | data[off + 1] << 8;
		size_t len = hdr & REC_SIZE;
		unsigned char *rec;

		off += 2;
		if (len > size - off)
			len = size - off;
		rec = xmalloc(len ? len : 1);
		memcpy(rec, data + off, len);
		ret = decode_record(t, rec, len, hdr & REC_LOST ? 1 : 0);
		free(rec);
		off += len;
	}
	return ret;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct decoder t = { .r = &r, .path = "fuzz.dat" };
	struct trace_job job = { .run = 0 };
	struct strbuf msg;
	int ret;

	sb_init(&msg);
	ffr_msg_capture(&msg);
	t.tep = tracecmd_get_tep(handle);
	t.ps = xcalloc(r.nsites, sizeof(*t.ps));
	ret = decoder_setup(&t);
	if (!ret) {
		decoder_start(&t);
		ret = feed(&t, data, size);
		decoder_end(&t);
		ret = decoder_check(&t, ret);
		if (!ret)
			decoder_name_tasks(&t);
	}
	decoder_free(&t);
	job.sites = t.ps;
	job.records = t.records;
	job.injects = t.injects;
	job.lost = t.lost;
	if (ret == 0)
		trace_job_merge(&r, &job, 0, caller_job);
	sb_init(&job.msg);
	trace_job_free(&r, &job);
	reset_sites();
	ffr_msg_capture(NULL);
	sb_free(&msg);
	return 0;
}
