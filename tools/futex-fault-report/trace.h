/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading the runs' traces, inside the reporter: the decoder of one
 * trace's records (trace_decode.c), the reader that feeds it a trace's
 * records in time order, a compressed trace in segments (trace_reader.c),
 * the worker processes that read the traces and the merge of what each
 * trace adds (trace_pool.c), and the wire format in which a worker sends
 * that back (trace_wire.c).
 */
#ifndef FFR_TRACE_H
#define FFR_TRACE_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "report.h"
#include "util.h"

struct field {
	unsigned int	offset;
	unsigned int	size;
	bool		is_signed;
};

/* one site's share of one trace */
struct trace_site {
	struct site_counts	counts;
	struct kv		*pids;		/* pid -> injections */
	size_t			npids, cappids;
	struct task_count	*tasks;		/* the pids with their comm */
};

/* one trace to read: a run's trace*.dat, or an error found listing them */
struct trace_job {
	int			run;
	char			*path;
	off_t			size;		/* biggest files are read first */
	bool			listed;		/* a real trace, not a listing error */
	int			ret;
	struct strbuf		msg;		/* its errors, printed when merged */
	struct trace_site	*sites;		/* [report.nsites] */
	struct fault		*faults;	/* each injected fault, in time order */
	size_t			nfaults;
	unsigned long long	records, injects, lost;
};

/* the decoding of one trace: field offsets cached once, counts of the records */
struct decoder {
	struct report		*r;
	struct tep_handle	*tep;
	const char		*path;
	bool			swap;		/* the file's byte order is not ours */
	int			id_inject, id_enter, id_exit, id_pexit, id_cqe;
	struct field		f_type, f_pid;
	/* f_caller: the event's call_site (interface v2) or caller (v1) */
	struct field		f_site, f_err, f_op, f_caller, f_enter_id, f_exit_id, f_ret;
	struct field		f_pexit_pid;
	struct field		f_cqe_res;	/* io_uring_complete's res */
	struct field		f_enter_op;	/* sys_enter's args[1] */
	bool			has_op;		/* the inject event records the op */
	/*
	 * A trace of pristine fail_futex (scripts/anchor): no futex_fault
	 * event, but the kretprobe fail_futex:inject on should_fail(), whose
	 * non-zero returns are the injections of the one site "fail_futex"
	 */
	bool			anchor;
	int			anchor_site;	/* its report site index, 0 for --parse */
	int			anchor_err;	/* its table's errno, negative */
	/* the record sizes the fields read need */
	unsigned int		need_common, need_inject, need_enter, need_exit, need_pexit, need_cqe;
	struct field		f_name;		/* __string(name), newer kernels */
	bool			has_name;
	bool			name_relative;	/* __rel_loc */
	int			*site_map;	/* site enum value -> report site index */
	size_t			nsite_map;
	struct oc_engine	*oc;
	struct trace_site	*ps;		/* [report.nsites], NULL for --parse */
	/* the record being decoded: its time stamp and CPU, set by the reader */
	unsigned long long	ts;
	int			cpu;
	/* each injected fault, when keep_faults: tag is its index */
	bool			keep_faults;
	struct fault		*faults;
	size_t			nfaults, capfaults;
	unsigned long long	records, injects, lost;
	int			bad_site;	/* first unknown enum value seen, or -1 */
	char			*bad_name;	/* its name, if the event carries one */
	bool			short_record;	/* a record smaller than its format */
	long long		bad_pid;	/* a pid out of range, 0 if none */
};

/* trace_decode.c */
/* the trace's event ids and fields, once its tep handle is set; -1 after an error message */
int decoder_setup(struct decoder *t);
/* the outcome engine, for the records to come */
void decoder_start(struct decoder *t);
/* one record, in time order; -1 stops (the reason is kept for decoder_check()) */
int decode_record(struct decoder *t, const unsigned char *data, unsigned int size,
		  long long missed);
/* after the last record: pending faults never returned */
void decoder_end(struct decoder *t);
/* after the records: an error message for a bad site, short record, bad pid, or ret < 0 */
int decoder_check(struct decoder *t, int ret);
/* name the faulting tasks and callers with the trace's own comms and kallsyms */
void decoder_name_tasks(struct decoder *t);
void decoder_free(struct decoder *t);
/* "function+0xoffset" from the trace's kallsyms, or NULL */
char *trace_symbol_name(struct tep_handle *tep, unsigned long long addr);

/* trace_reader.c */
struct tracecmd_input *trace_open(const char *path);
/* read the trace t->path into t; -1 after an error message */
int trace_read(struct decoder *t);

/* trace_wire.c: a worker's results, as it sends them through its pipe */
struct wire {
	const char	*p, *end;
	bool		bad;
};

void wire_put_job(struct strbuf *sb, struct report *r, const struct trace_job *job, size_t idx);
/* the next job of w into jobs[]; -1 if it is malformed */
int wire_get_job(struct wire *w, struct report *r, struct trace_job *jobs, size_t njobs);

/* trace_pool.c */
void trace_job_merge(struct report *r, struct trace_job *job, size_t idx, size_t *caller_job);
void trace_job_free(struct report *r, struct trace_job *job);

#endif /* FFR_TRACE_H */
