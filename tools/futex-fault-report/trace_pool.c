// SPDX-License-Identifier: GPL-2.0
/*
 * Read the runs' traces and merge what each adds to the report.
 *
 * Traces are read by -j worker processes (run_procs()), one trace per
 * process at a time, or by this process alone with -j 1.  What a trace adds
 * to the report is kept in its struct trace_job and merged into the report
 * in the order a single reader reads them (runs in order, a run's traces by
 * name), so the report does not depend on the number of workers or on
 * which finished first.
 */
#include <dirent.h>
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace.h"

static void run_job(struct report *r, struct trace_job *job)
{
	struct decoder t = { .r = r, .path = job->path };

	ffr_msg_capture(&job->msg);
	t.ps = xcalloc(r->nsites ? r->nsites : 1, sizeof(*t.ps));
	t.keep_faults = true;
	ffr_guard_file(job->path);
	job->ret = trace_read(&t);
	ffr_guard_file(NULL);
	ffr_msg_capture(NULL);
	job->sites = t.ps;
	job->faults = t.faults;
	job->nfaults = t.nfaults;
	job->records = t.records;
	job->injects = t.injects;
	job->lost = t.lost;
}

/* ------------------------------------------------------------ the pool */

struct pool {
	struct report		*r;
	struct trace_job	*jobs;
	size_t			*order;		/* the listed jobs, biggest first */
	size_t			nlisted;
	size_t			failed;		/* first failed job, njobs if none */
};

/* one process reads them all, biggest first */
static void worker(struct pool *p)
{
	size_t k, i;

	for (k = 0; k < p->nlisted; k++) {
		i = p->order[k];
		/* nothing after a failed trace is merged: do not read it */
		if (i > p->failed)
			continue;
		run_job(p->r, &p->jobs[i]);
		if (p->jobs[i].ret && i < p->failed)
			p->failed = i;
	}
}

static int cmp_size(const void *a, const void *b, void *arg)
{
	const struct trace_job *jobs = arg;
	const struct trace_job *ja = &jobs[*(const size_t *)a];
	const struct trace_job *jb = &jobs[*(const size_t *)b];

	if (ja->size != jb->size)
		return ja->size < jb->size ? 1 : -1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

static int run_procs(struct report *r, struct trace_job *jobs, size_t njobs,
		     const size_t *order, size_t nlisted, size_t nproc);

/* read every listed trace: in this process, or in r->workers processes */
static int run_pool(struct report *r, struct trace_job *jobs, size_t njobs)
{
	struct pool p = { .r = r, .jobs = jobs, .failed = njobs };
	size_t i, nlisted = 0, nproc = r->workers > 0 ? (size_t)r->workers : 1;
	int ret = 0;

	p.order = xcalloc(njobs ? njobs : 1, sizeof(*p.order));
	for (i = 0; i < njobs; i++) {
		if (jobs[i].listed)
			p.order[nlisted++] = i;
		else	/* a listing error stops there */
			p.failed = i < p.failed ? i : p.failed;
	}
	qsort_r(p.order, nlisted, sizeof(*p.order), cmp_size, jobs);
	if (nproc > nlisted)
		nproc = nlisted;
	p.nlisted = nlisted;
	if (nproc > 1)
		ret = run_procs(r, jobs, njobs, p.order, nlisted, nproc);
	else
		worker(&p);
	free(p.order);
	return ret;
}

/* ------------------------------------------------------------ merging */

void trace_job_merge(struct report *r, struct trace_job *job, size_t idx, size_t *caller_job)
{
	struct run *rn = &r->runs[job->run];
	size_t i, k;

	for (i = 0; i < r->nsites; i++) {
		struct trace_site *ps = &job->sites[i];
		struct site *s = &r->sites[i];

		site_counts_add(&s->counts, &ps->counts);
		for (k = 0; ps->tasks && k < ps->npids; k++) {
			grow(&s->tasks, &s->captasks, s->ntasks + 1, sizeof(*s->tasks));
			s->tasks[s->ntasks++] = ps->tasks[k];
			ps->tasks[k].comm = NULL;
		}
		if (!s->counts.caller && ps->counts.caller) {
			s->counts.caller = ps->counts.caller;
			s->counts.caller_sym = ps->counts.caller_sym;
			ps->counts.caller_sym = NULL;
			caller_job[i] = idx;
		}
	}
	/* the run's faults: its traces' in the order they are merged */
	if (job->nfaults && !rn->nfaults) {
		free(rn->faults);
		rn->faults = job->faults;
		rn->nfaults = rn->capfaults = job->nfaults;
		job->faults = NULL;
		job->nfaults = 0;
	} else if (job->nfaults) {
		grow(&rn->faults, &rn->capfaults, rn->nfaults + job->nfaults, sizeof(*rn->faults));
		memcpy(rn->faults + rn->nfaults, job->faults, job->nfaults * sizeof(*job->faults));
		rn->nfaults += job->nfaults;
	}
	rn->injects += job->injects;
	rn->records += job->records;
	rn->lost += job->lost;
	r->events += job->records;
}

void trace_job_free(struct report *r, struct trace_job *job)
{
	size_t i, k;

	for (i = 0; job->sites && i < r->nsites; i++) {
		struct trace_site *ps = &job->sites[i];

		for (k = 0; ps->tasks && k < ps->npids; k++)
			free(ps->tasks[k].comm);
		free(ps->counts.errors);
		free(ps->counts.ops);
		free(ps->pids);
		free(ps->tasks);
		free(ps->counts.caller_sym);
	}
	free(job->sites);
	free(job->faults);
	free(job->path);
	sb_free(&job->msg);
}

/* ------------------------------------------------------------ worker processes */

/*
 * libtraceevent parses event formats with global state, so threads would
 * have to take turns in tracecmd_open(), which also parses the trace's
 * copy of kallsyms: about 10 ms a trace, 0.6 s for a campaign's 58.  Each
 * process has its own copy of that state: with more than one worker the
 * traces are read by forked processes that take jobs from a shared counter
 * (biggest first) and send each job's results back through a pipe
 * (trace_wire.c); the parent merges them as before, in job order.
 */
static bool write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return false;
		p += w;
		n -= w;
	}
	return true;
}

/* a worker process: jobs from the shared counter until there are none */
static void __attribute__((noreturn))
proc_worker(struct report *r, struct trace_job *jobs, const size_t *order, size_t nlisted,
	    size_t *next, int fd)
{
	struct strbuf sb = { 0 };
	size_t k, i;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (;;) {
		k = __atomic_fetch_add(next, 1, __ATOMIC_RELAXED);
		if (k >= nlisted)
			break;
		i = order[k];
		run_job(r, &jobs[i]);
		sb.len = 0;
		wire_put_job(&sb, r, &jobs[i], i);
		if (!write_all(fd, sb.buf, sb.len))
			_exit(1);
		trace_job_free(r, &jobs[i]);
	}
	_exit(0);
}

/* read every worker's pipe to its end */
static void drain(int *fds, struct strbuf *bufs, size_t n)
{
	struct pollfd *pfd = xcalloc(n, sizeof(*pfd));
	size_t i, open = n;
	char buf[65536];
	ssize_t got;

	for (i = 0; i < n; i++) {
		pfd[i].fd = fds[i];
		pfd[i].events = POLLIN;
	}
	while (open) {
		if (poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < n; i++) {
			if (pfd[i].fd < 0 || !pfd[i].revents)
				continue;
			got = read(pfd[i].fd, buf, sizeof(buf));
			if (got < 0 && errno == EINTR)
				continue;
			if (got <= 0) {
				close(pfd[i].fd);
				pfd[i].fd = -1;
				open--;
				continue;
			}
			sb_add(&bufs[i], buf, got);
		}
	}
	free(pfd);
}

static int run_procs(struct report *r, struct trace_job *jobs, size_t njobs,
		     const size_t *order, size_t nlisted, size_t nproc)
{
	struct strbuf *bufs;
	pid_t *pids;
	int *fds;
	size_t *next, i, started = 0;
	int status, ret = 0, fd[2];

	next = mmap(NULL, sizeof(*next), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (next == MAP_FAILED)
		return ffr_error("mmap", "%s", strerror(errno));
	*next = 0;
	bufs = xcalloc(nproc, sizeof(*bufs));
	pids = xcalloc(nproc, sizeof(*pids));
	fds = xcalloc(nproc, sizeof(*fds));
	fflush(NULL);
	for (i = 0; i < nproc; i++) {
		if (pipe(fd)) {
			ret = ffr_error("pipe", "%s", strerror(errno));
			break;
		}
		pids[i] = fork();
		if (pids[i] < 0) {
			ret = ffr_error("fork", "%s", strerror(errno));
			close(fd[0]);
			close(fd[1]);
			break;
		}
		if (!pids[i]) {
			close(fd[0]);
			while (i--)
				close(fds[i]);
			proc_worker(r, jobs, order, nlisted, next, fd[1]);
		}
		close(fd[1]);
		fds[i] = fd[0];
		started++;
	}
	drain(fds, bufs, started);
	for (i = 0; i < started; i++) {
		struct wire w = { .p = bufs[i].buf, .end = bufs[i].buf + bufs[i].len };

		while (waitpid(pids[i], &status, 0) < 0 && errno == EINTR)
			;
		if (WIFSIGNALED(status))
			ret = ffr_error("futex-fault-report", "a trace-reading process died (SIG%s)",
					sigabbrev_np(WTERMSIG(status)) ?: "?");
		else if (!WIFEXITED(status) || WEXITSTATUS(status))
			ret = ffr_error("futex-fault-report", "a trace-reading process failed");
		while (!ret && w.p < w.end)
			if (wire_get_job(&w, r, jobs, njobs))
				ret = ffr_error("futex-fault-report",
						"a trace-reading process sent a bad result");
		sb_free(&bufs[i]);
	}
	/* every listed job must have come back */
	for (i = 0; !ret && i < nlisted; i++)
		if (!jobs[order[i]].sites)
			ret = ffr_error(jobs[order[i]].path, "not read: its reading process stopped");
	munmap(next, sizeof(*next));
	free(bufs);
	free(pids);
	free(fds);
	return ret;
}

/* the symbol for addr from the trace path's kallsyms, as read_trace() would */
static char *trace_symbol(const char *path, unsigned long long addr)
{
	struct tracecmd_input *h;
	char *sym = NULL;

	ffr_guard_file(path);
	h = trace_open(path);
	if (h) {
		sym = trace_symbol_name(tracecmd_get_tep(h), addr);
		tracecmd_close(h);
	}
	ffr_guard_file(NULL);
	return sym;
}

/*
 * A single thread reading the traces in order names a site's caller with
 * the kallsyms of the first trace, from the one that saw the caller on,
 * that has its symbol.  The thread that saw it tried its own; should that
 * fail (a trace without kallsyms), try the later ones.
 */
static void name_callers(struct report *r, struct trace_job *jobs, size_t njobs,
			 const size_t *caller_job)
{
	size_t i, k;

	for (i = 0; i < r->nsites; i++) {
		struct site *s = &r->sites[i];

		for (k = caller_job[i] + 1; s->counts.caller && !s->counts.caller_sym && k < njobs; k++)
			s->counts.caller_sym = trace_symbol(jobs[k].path, s->counts.caller);
	}
}

static void warn_run(struct report *r, int run)
{
	struct run *rn = &r->runs[run];

	if (run == 0 && rn->injects)
		ffr_warn(rn->dir, "the baseline has %llu injected faults: a site was enabled?",
			 rn->injects);
	if (rn->lost)
		ffr_warn(rn->dir, "%llu events lost: outcomes around them are 'unknown' (record with a bigger -b)",
			 rn->lost);
}

/* ------------------------------------------------------------ listing */

static int cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static struct trace_job *add_job(struct trace_job **jobs, size_t *n, size_t *cap, int run)
{
	struct trace_job *job;

	grow(jobs, cap, *n + 1, sizeof(**jobs));
	job = &(*jobs)[(*n)++];
	memset(job, 0, sizeof(*job));
	sb_init(&job->msg);
	job->run = run;
	return job;
}

/* trace.dat, or trace*.dat, of each run; a listing error becomes a failed job */
static void list_traces(struct report *r, struct trace_job **jobs, size_t *njobs)
{
	size_t cap = 0, run;

	*jobs = NULL;
	*njobs = 0;
	for (run = 0; run < r->nruns; run++) {
		struct run *rn = &r->runs[run];
		char **names = NULL;
		size_t n = 0, ncap = 0, i;
		struct trace_job *job;
		struct dirent *de;
		struct stat st;
		DIR *dir;

		dir = opendir(rn->dir);
		if (!dir) {
			job = add_job(jobs, njobs, &cap, run);
			ffr_msg_capture(&job->msg);
			job->ret = ffr_error(rn->dir, "%s", strerror(errno));
			ffr_msg_capture(NULL);
			return;
		}
		while ((de = readdir(dir))) {
			size_t l = strlen(de->d_name);

			if (strncmp(de->d_name, "trace", 5) || l < 9 ||
			    strcmp(de->d_name + l - 4, ".dat"))
				continue;
			grow(&names, &ncap, n + 1, sizeof(*names));
			names[n++] = xasprintf("%s/%s", rn->dir, de->d_name);
		}
		closedir(dir);
		if (!n && !strcmp(rn->status, "ok")) {
			char *p = xasprintf("%s/trace.dat", rn->dir);

			job = add_job(jobs, njobs, &cap, run);
			ffr_msg_capture(&job->msg);
			job->ret = ffr_error(p, "missing (run status ok)");
			ffr_msg_capture(NULL);
			free(p);
			return;
		}
		qsort(names, n, sizeof(*names), cmp_path);
		for (i = 0; i < n; i++) {
			job = add_job(jobs, njobs, &cap, run);
			job->path = names[i];
			job->listed = true;
			if (stat(job->path, &st) == 0)
				job->size = st.st_size;
		}
		free(names);
	}
}

int trace_read_runs(struct report *r)
{
	struct trace_job *jobs;
	size_t njobs, i, *caller_job;
	int ret = 0;

	list_traces(r, &jobs, &njobs);
	/* a reading process that died leaves nothing to merge */
	if (run_pool(r, jobs, njobs))
		ret = -1;

	caller_job = xcalloc(r->nsites ? r->nsites : 1, sizeof(*caller_job));
	for (i = 0; !ret && i < njobs; i++) {
		struct trace_job *job = &jobs[i];

		if (job->msg.len)
			fputs(job->msg.buf, stderr);
		if (job->listed)
			r->runs[job->run].ntraces++;
		if (job->ret) {
			ret = -1;
			break;
		}
		trace_job_merge(r, job, i, caller_job);
		/* a run's warnings after its last trace */
		if (i + 1 == njobs || jobs[i + 1].run != job->run)
			warn_run(r, job->run);
	}
	if (!ret)
		name_callers(r, jobs, njobs, caller_job);
	for (i = 0; i < njobs; i++)
		trace_job_free(r, &jobs[i]);
	free(jobs);
	free(caller_job);
	return ret;
}
