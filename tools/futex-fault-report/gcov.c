// SPDX-License-Identifier: GPL-2.0
/*
 * Coverage through gcc's own gcov: for each run and profiled directory
 * (kernel/futex, and io_uring on 6.12), a scratch directory holds links to
 * the build's .gcno and the run's .gcda, and "gcov -t -j -b" prints one
 * JSON document per object.  The gcov processes run in parallel.  The baseline's output defines the structure (lines, branch
 * arcs, functions); every other run must have the same, since all come from
 * the same .gcno.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "report.h"
#include "json_number.h"
#include "util.h"

/*
 * gcov's numbers are JSON doubles (read with JSON_DECODE_INT_AS_REAL, so 5
 * and 5.0 are the same): a line number past MAX_LINE (no kernel source is
 * that long) or a count that is not an integer from 0 to 2^63 is an error,
 * not a conversion with undefined behaviour.
 */
#define MAX_LINE	(1 << 20)
#define MAX_COUNT	LLONG_MAX

struct job {
	size_t	run;
	size_t	gdir;		/* r->gcov_dirs[gdir] */
	char	**objs;		/* its objects (their .gcno, without it) */
	size_t	nobj;
	char	*dir;		/* scratch directory */
	pid_t	pid;
	int	status;
};

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* sorted names in dir ending with suffix, without it */
static char **list_dir(const char *dir, const char *suffix, size_t *n)
{
	size_t cap = 0, sl = strlen(suffix);
	char **names = NULL;
	struct dirent *de;
	DIR *d;

	*n = 0;
	d = opendir(dir);
	if (!d)
		return NULL;
	while ((de = readdir(d))) {
		size_t l = strlen(de->d_name);

		if (l <= sl || strcmp(de->d_name + l - sl, suffix))
			continue;
		grow(&names, &cap, *n + 1, sizeof(*names));
		names[(*n)++] = xstrndup(de->d_name, l - sl);
	}
	closedir(d);
	qsort(names, *n, sizeof(*names), cmp_str);
	if (!names)
		names = xcalloc(1, sizeof(*names));
	return names;
}

static void free_list(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static bool excluded(struct report *r, const char *rel)
{
	const char *base = strrchr(rel, '/');
	size_t i;

	base = base ? base + 1 : rel;
	for (i = 0; i < r->nexclude; i++)
		if (!strcmp(base, r->exclude[i]))
			return true;
	return false;
}

static int srcfile_find(struct report *r, const char *rel)
{
	size_t i;

	for (i = 0; i < r->nfiles; i++)
		if (!strcmp(r->files[i].rel, rel))
			return i;
	return -1;
}

int srcfile_index(struct report *r, const char *rel)
{
	struct srcfile *f;
	const char *base;
	int i = srcfile_find(r, rel);

	if (i >= 0)
		return i;
	grow(&r->files, &r->capfiles, r->nfiles + 1, sizeof(*r->files));
	f = &r->files[r->nfiles];
	memset(f, 0, sizeof(*f));
	f->rel = xstrdup(rel);
	f->abs = xasprintf("%s/%s", r->srctree, rel);
	base = strrchr(rel, '/');
	f->page = xasprintf("files/%s.html", base ? base + 1 : rel);
	f->cov = xcalloc(r->nruns, sizeof(*f->cov));
	return r->nfiles++;
}

/* the source-relative path of a file gcov names in dir, NULL if not there */
static const char *rel_in(struct report *r, const char *dir, const char *path)
{
	size_t sl = strlen(r->srctree), gl = strlen(dir);
	const char *rel = NULL, *p;

	if (!strncmp(path, r->srctree, sl) && path[sl] == '/')
		rel = path + sl + 1;
	else {
		/*
		 * Named relative to the tree (-fprofile-prefix-map), or built
		 * elsewhere: anchor on "<dir>/" at the start or after a '/'
		 */
		for (p = strstr(path, dir); p; p = strstr(p + 1, dir))
			if ((p == path || p[-1] == '/') && p[gl] == '/')
				rel = p;
	}
	if (!rel || strncmp(rel, dir, gl) || rel[gl] != '/' || strchr(rel + gl + 1, '/'))
		return NULL;
	return rel;
}

/*
 * The source-relative path of a file gcov names, NULL if not ours: a file
 * of kernel/futex (its .c files and futex.h), or a .c file of another
 * profiled directory (io_uring/futex.c, not the io_uring headers it inlines)
 */
static const char *rel_path(struct report *r, const char *path, char *buf, size_t size)
{
	const char *rel = NULL;
	size_t i, l;

	for (i = 0; !rel && i < r->ndirs; i++)
		rel = rel_in(r, r->gcov_dirs[i], path);
	if (!rel)
		return NULL;
	l = strlen(rel);
	if (i > 1 && (l < 2 || strcmp(rel + l - 2, ".c")))
		return NULL;
	snprintf(buf, size, "%s", rel);
	if (excluded(r, buf))
		return NULL;
	return buf;
}

/* where a run's .gcda of r->gcov_dirs[k] are: gcov/, or gcov/<dir>/ after the first */
static char *gcda_dir(const struct report *r, const struct run *rn, size_t k)
{
	return k ? xasprintf("%s/gcov/%s", rn->dir, r->gcov_dirs[k]) :
		   xasprintf("%s/gcov", rn->dir);
}

static int prepare(struct report *r, struct job *job)
{
	struct run *rn = &r->runs[job->run];
	char *gdir = gcda_dir(r, rn, job->gdir);
	const char *gcno = r->gcno_dirs[job->gdir];
	bool ok = !strcmp(rn->status, "ok");
	char **gcda, **objs = job->objs;
	size_t nobj = job->nobj;
	size_t ngcda, i, k;
	int ret = -1;

	job->dir = xasprintf("%s/run-%zu-%zu", r->tmpdir, job->run, job->gdir);
	if (mkdir(job->dir, 0700)) {
		ffr_error(job->dir, "%s", strerror(errno));
		goto out_free;
	}
	gcda = list_dir(gdir, ".gcda", &ngcda);
	if (!gcda) {
		if (ok) {
			ffr_error(gdir, "missing: a run with status ok must have its gcov data");
			goto out_free;
		}
		gcda = xcalloc(1, sizeof(*gcda));
		ngcda = 0;
	}
	rn->has_cov |= ngcda > 0;
	for (k = 0; k < ngcda; k++) {
		for (i = 0; i < nobj && strcmp(objs[i], gcda[k]); i++)
			;
		if (i == nobj) {
			ffr_error(gdir, "%s.gcda has no %s.gcno in %s: gcov data from another build?",
				  gcda[k], gcda[k], gcno);
			goto out;
		}
	}
	for (i = 0; i < nobj; i++) {
		char *src, *dst;
		bool have = false;

		src = xasprintf("%s/%s.gcno", gcno, objs[i]);
		dst = xasprintf("%s/%s.gcno", job->dir, objs[i]);
		if (symlink(src, dst))
			ffr_error(dst, "%s", strerror(errno));
		free(src);
		free(dst);
		for (k = 0; k < ngcda; k++)
			have |= !strcmp(gcda[k], objs[i]);
		if (!have) {
			if (ok) {
				ffr_error(gdir, "%s.gcda is missing (run status ok)", objs[i]);
				goto out;
			}
			continue;
		}
		src = xasprintf("%s/%s.gcda", gdir, objs[i]);
		dst = xasprintf("%s/%s.gcda", job->dir, objs[i]);
		if (src[0] != '/') {
			char *cwd = get_current_dir_name();
			char *abs = xasprintf("%s/%s", cwd, src);

			free(cwd);
			free(src);
			src = abs;
		}
		if (symlink(src, dst))
			ffr_error(dst, "%s", strerror(errno));
		free(src);
		free(dst);
	}
	ret = 0;
out:
	free_list(gcda, ngcda);
out_free:
	free(gdir);
	return ret;
}

static pid_t spawn(struct report *r, struct job *job)
{
	char **objs = job->objs;
	size_t nobj = job->nobj;
	char **argv = xcalloc(nobj + 8, sizeof(*argv));
	size_t i, n = 0;
	pid_t pid;

	argv[n++] = (char *)r->gcov;
	argv[n++] = "-t";
	argv[n++] = "-j";
	argv[n++] = "-b";
	argv[n++] = "-o";
	argv[n++] = ".";
	for (i = 0; i < nobj; i++)
		argv[n++] = xasprintf("%s.c", objs[i]);
	argv[n] = NULL;

	pid = fork();
	if (pid == 0) {
		int out, err;

		if (chdir(job->dir))
			_exit(126);
		out = open("gcov.json", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		err = open("gcov.err", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
			_exit(126);
		execvp(argv[0], argv);
		dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	for (i = 6; i < n; i++)
		free(argv[i]);
	free(argv);
	return pid;
}

/*
 * gcov's complaints: a stamp or version mismatch means the data is from
 * another build or compiler.  "cannot open data file" is expected for the
 * objects a crashed run has no data for.
 */
static int check_stderr(struct report *r, struct job *job)
{
	size_t run = job->run;
	char *path = xasprintf("%s/gcov.err", job->dir);
	char *text = read_file(path, NULL), *line, *save = NULL, *gdir;
	int ret = 0;

	free(path);
	if (!text)
		return 0;
	gdir = gcda_dir(r, &r->runs[run], job->gdir);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *what;

		if (strstr(line, "cannot open data file"))
			continue;
		/* the annotated pages check the sources against the line counts */
		if (strstr(line, "cannot open source file") || strstr(line, "source file is newer") ||
		    strstr(line, "message is displayed only once"))
			continue;
		/* gcov says "./core.gcda:stamp mismatch...": name the run's file */
		if (!strncmp(line, "./", 2) && strchr(line, ':'))
			what = xasprintf("%s/%.*s", gdir, (int)(strchr(line, ':') - line - 2),
					 line + 2);
		else
			what = xstrdup(gdir);
		if (strstr(line, "stamp mismatch") || strstr(line, "version"))
			ffr_error(what, "gcov data from another build or compiler (gcov: %s)", line);
		else if (strstr(line, "cannot open notes file"))
			ffr_error(r->gcno_dirs[job->gdir], "missing .gcno (gcov: %s)", line);
		else
			ffr_error(what, "gcov: %s", line);
		free(what);
		ret = -1;
	}
	free(gdir);
	free(text);
	if (!ret && WIFEXITED(job->status) && WEXITSTATUS(job->status) >= 126)
		ret = ffr_error(r->gcov, "cannot run it");
	else if (!ret && !(WIFEXITED(job->status) && WEXITSTATUS(job->status) == 0))
		ret = ffr_error(r->runs[run].dir, "gcov failed (status %d)", job->status);
	return ret;
}

/* per-file scratch state while reading one run */
struct fill {
	int	*arc;		/* [line] arcs filled so far */
};

static int bad_number(const char *path, const char *rel)
{
	return ffr_error(path, "%s: gcov JSON with a line number past %d or a count that is not an integer from 0 to 2^63",
			 rel, MAX_LINE);
}

static int define_structure(struct report *r, json_t *files, const char *path)
{
	json_t *fj, *lines, *funcs, *lj, *fnj;
	char relbuf[4096];
	size_t i, k;
	bool bad = false;

	json_array_foreach(files, i, fj) {
		const char *name = json_string_value(json_object_get(fj, "file")), *rel;
		struct srcfile *f;
		int fi;

		if (!name)
			return ffr_error(path, "gcov JSON: a file without a name");
		rel = rel_path(r, name, relbuf, sizeof(relbuf));
		if (!rel)
			continue;
		fi = srcfile_index(r, rel);	/* may move r->files */
		f = &r->files[fi];
		lines = json_object_get(fj, "lines");
		funcs = json_object_get(fj, "functions");
		json_array_foreach(lines, k, lj) {
			int ln = member_int(lj, "line_number", 0, INT_MIN, MAX_LINE, &bad);
			size_t old = f->maxline + 1, cap;

			if (bad)
				return bad_number(path, rel);
			if (ln <= 0)
				continue;
			if (ln > f->maxline) {
				cap = old;
				grow(&f->has, &cap, ln + 1, sizeof(*f->has));
				cap = old;
				grow(&f->nbr, &cap, ln + 1, sizeof(*f->nbr));
				f->maxline = ln;
			}
			f->has[ln] = 1;
			f->nbr[ln] += json_array_size(json_object_get(lj, "branches"));
		}
		json_array_foreach(funcs, k, fnj) {
			const char *fn = json_string_value(json_object_get(fnj, "name"));
			size_t j;

			if (!fn)
				continue;
			for (j = 0; j < f->nfuncs && strcmp(f->funcs[j].name, fn); j++)
				;
			if (j < f->nfuncs)
				continue;
			grow(&f->funcs, &f->capfuncs, f->nfuncs + 1, sizeof(*f->funcs));
			f->funcs[f->nfuncs].name = xstrdup(fn);
			f->funcs[f->nfuncs].start = member_int(fnj, "start_line", 0, INT_MIN,
							       MAX_LINE, &bad);
			f->funcs[f->nfuncs].end = member_int(fnj, "end_line", 0, INT_MIN, MAX_LINE,
							     &bad);
			f->nfuncs++;
			if (bad)
				return bad_number(path, rel);
		}
	}
	return 0;
}

static void alloc_cov(struct srcfile *f, struct covdata *cd)
{
	int ln;

	cd->lines = xcalloc(f->maxline + 1, sizeof(*cd->lines));
	cd->br = xcalloc(f->maxline + 1, sizeof(*cd->br));
	for (ln = 1; ln <= f->maxline; ln++)
		if (f->nbr[ln])
			cd->br[ln] = xcalloc(f->nbr[ln], sizeof(**cd->br));
	cd->fn = xcalloc(f->nfuncs + 1, sizeof(*cd->fn));
}

static int fill_counts(struct report *r, int run, json_t *files, struct fill *fills,
		       const char *path)
{
	json_t *fj, *lines, *funcs, *lj, *br, *aj, *fnj;
	char relbuf[4096];
	size_t i, k, a;
	bool bad = false;

	json_array_foreach(files, i, fj) {
		const char *rel = rel_path(r, json_string_value(json_object_get(fj, "file")), relbuf,
					   sizeof(relbuf));
		struct srcfile *f;
		struct covdata *cd;
		int fi;

		if (!rel)
			continue;
		fi = srcfile_find(r, rel);
		if (fi < 0)
			return ffr_error(path, "%s: not in the baseline's coverage: data from another build?",
					 rel);
		f = &r->files[fi];
		cd = &f->cov[run];
		lines = json_object_get(fj, "lines");
		funcs = json_object_get(fj, "functions");
		json_array_foreach(lines, k, lj) {
			int ln = member_int(lj, "line_number", 0, INT_MIN, MAX_LINE, &bad);

			if (bad)
				return bad_number(path, rel);
			if (ln <= 0)
				continue;
			if (ln > f->maxline || !f->has[ln])
				return ffr_error(path, "%s:%d: line not in the baseline's coverage: data from another build?",
						 rel, ln);
			cd->lines[ln] += member_int(lj, "count", 0, 0, MAX_COUNT, &bad);
			br = json_object_get(lj, "branches");
			json_array_foreach(br, a, aj) {
				if (fills[fi].arc[ln] >= f->nbr[ln])
					return ffr_error(path, "%s:%d: more branches than in the baseline: data from another build?",
							 rel, ln);
				cd->br[ln][fills[fi].arc[ln]++] = member_int(aj, "count", 0, 0,
									     MAX_COUNT, &bad);
			}
			if (bad)
				return bad_number(path, rel);
		}
		json_array_foreach(funcs, k, fnj) {
			const char *fn = json_string_value(json_object_get(fnj, "name"));
			size_t j;

			for (j = 0; fn && j < f->nfuncs; j++)
				if (!strcmp(f->funcs[j].name, fn))
					cd->fn[j] += member_int(fnj, "execution_count", 0, 0,
								MAX_COUNT, &bad);
			if (bad)
				return bad_number(path, rel);
		}
	}
	return 0;
}

/*
 * gcov -t -j prints one JSON document a line, one per object file.  Any
 * value is read (JSON_DECODE_ANY) so that a document that is not an object
 * is reported as one without "files", as before.
 */
#define GCOV_JSON_FLAGS	(JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL | JSON_REJECT_DUPLICATES)

/* the documents of one job's gcov.json, appended to docs */
static int read_docs(struct report *r, struct job *job, json_t ***docs, size_t *ndocs,
		     size_t *cap)
{
	char *path = xasprintf("%s/gcov.json", job->dir);
	char *text, *line, *next;
	json_error_t err;
	int ret = -1, lineno = 0;

	text = read_file(path, NULL);
	if (!text) {
		ffr_error(path, "%s", strerror(errno));
		goto out;
	}
	for (line = text; *line; line = next) {
		size_t len = strcspn(line, "\n");
		json_t *doc;

		next = line[len] ? line + len + 1 : line + len;
		lineno++;
		if (!len)
			continue;
		/* without its newline, so that jansson's column is on this line */
		doc = json_loadb(line, len, GCOV_JSON_FLAGS, &err);
		if (!doc) {
			ffr_error(r->runs[job->run].dir, "cannot parse gcov's JSON output: %s:%d:%d: %s",
				  path, lineno, err.column, err.text);
			goto out;
		}
		if (!json_object_get(doc, "files")) {
			json_decref(doc);
			ffr_error(r->runs[job->run].dir, "gcov's JSON output has no \"files\"");
			goto out;
		}
		grow(docs, cap, *ndocs + 1, sizeof(**docs));
		(*docs)[(*ndocs)++] = doc;
	}
	ret = 0;
out:
	free(text);
	free(path);
	return ret;
}

/* the run's coverage from its jobs, one a profiled directory */
static int parse_run(struct report *r, int run, struct job *jobs)
{
	json_t **docs = NULL;
	size_t ndocs = 0, cap = 0, i, k, *first = xcalloc(r->ndirs + 1, sizeof(*first));
	struct fill *fills = NULL;
	char **paths = xcalloc(r->ndirs, sizeof(*paths));
	int ret = -1;

	/* docs[first[k]] to docs[first[k + 1] - 1] come from jobs[k] */
	for (i = 0; i < r->ndirs; i++) {
		paths[i] = xasprintf("%s/gcov.json", jobs[i].dir);
		first[i] = ndocs;
		if (read_docs(r, &jobs[i], &docs, &ndocs, &cap))
			goto out;
	}
	first[r->ndirs] = ndocs;
	if (!ndocs) {
		ffr_error(r->runs[run].dir, "gcov printed nothing");
		goto out;
	}
	if (run == 0) {
		for (k = 0; k < r->ndirs; k++)
			for (i = first[k]; i < first[k + 1]; i++)
				if (define_structure(r, json_object_get(docs[i], "files"), paths[k]))
					goto out;
		for (i = 0; i < r->nfiles; i++) {
			for (k = 0; k < r->nruns; k++)
				alloc_cov(&r->files[i], &r->files[i].cov[k]);
			alloc_cov(&r->files[i], &r->files[i].campaign);
		}
	}
	fills = xcalloc(r->nfiles, sizeof(*fills));
	for (i = 0; i < r->nfiles; i++)
		fills[i].arc = xcalloc(r->files[i].maxline + 1, sizeof(int));
	for (k = 0; k < r->ndirs; k++)
		for (i = first[k]; i < first[k + 1]; i++)
			if (fill_counts(r, run, json_object_get(docs[i], "files"), fills,
					paths[k]))
				goto out;
	for (i = 0; i < r->nfiles; i++) {
		int ln;

		for (ln = 1; ln <= r->files[i].maxline; ln++)
			if (fills[i].arc[ln] != r->files[i].nbr[ln]) {
				ffr_error(r->runs[run].dir, "%s:%d: branches differ from the baseline's: data from another build?",
					  r->files[i].rel, ln);
				goto out;
			}
	}
	ret = 0;
out:
	if (fills)
		for (i = 0; i < r->nfiles; i++)
			free(fills[i].arc);
	free(fills);
	for (i = 0; i < ndocs; i++)
		json_decref(docs[i]);
	free(docs);
	for (i = 0; i < r->ndirs; i++)
		free(paths[i]);
	free(paths);
	free(first);
	return ret;
}

/* the jobs of one profiled directory: its objects, one job a run */
static int dir_jobs(struct report *r, size_t k, struct job *jobs)
{
	const char *gcno = r->gcno_dirs[k];
	size_t nobj, i;
	char **objs;

	objs = list_dir(gcno, ".gcno", &nobj);
	if (!objs)
		return ffr_error(gcno, "cannot list the .gcno: %s", strerror(errno));
	if (!nobj) {
		free(objs);
		return ffr_error(gcno, "no .gcno here (kernel built without GCOV_PROFILE?)");
	}
	for (i = 0; i < r->nruns; i++) {
		struct job *job = &jobs[i * r->ndirs + k];

		job->run = i;
		job->gdir = k;
		job->objs = objs;
		job->nobj = nobj;
		if (prepare(r, job))
			return -1;
	}
	return 0;
}

int cov_load(struct report *r)
{
	struct timespec t0, t1;
	struct job *jobs;
	size_t njobs = r->nruns * r->ndirs, i, k, started = 0, done = 0;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int ret = -1, running = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* jobs[run * ndirs + k]: run's coverage of r->gcov_dirs[k] */
	jobs = xcalloc(njobs, sizeof(*jobs));
	for (k = 0; k < r->ndirs; k++)
		if (dir_jobs(r, k, jobs))
			goto out;

	/* up to ncpu gcov at a time */
	while (done < njobs) {
		while (started < njobs && running < (ncpu > 0 ? ncpu : 1)) {
			jobs[started].pid = spawn(r, &jobs[started]);
			if (jobs[started].pid < 0) {
				ffr_error(r->gcov, "fork: %s", strerror(errno));
				goto out;
			}
			started++;
			running++;
		}
		int status;
		pid_t pid = wait(&status);

		if (pid < 0) {
			ffr_error(r->gcov, "wait: %s", strerror(errno));
			goto out;
		}
		for (i = 0; i < started; i++)
			if (jobs[i].pid == pid) {
				jobs[i].status = status;
				jobs[i].pid = 0;
				running--;
				done++;
			}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	r->gcov_seconds = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;

	for (i = 0; i < njobs; i++)
		if (check_stderr(r, &jobs[i]))
			goto out;
	for (i = 0; i < r->nruns; i++)
		if (parse_run(r, i, &jobs[i * r->ndirs]))
			goto out;
	if (!r->nfiles) {
		ffr_error(r->gcno_dirs[0], "gcov reported no file under %s/%s", r->srctree,
			  r->gcov_dirs[0]);
		goto out;
	}
	ret = 0;
out:
	/* on error, reap what is still running */
	for (i = 0; i < started; i++)
		if (jobs[i].pid > 0)
			waitpid(jobs[i].pid, NULL, 0);
	for (i = 0; i < njobs; i++)
		free(jobs[i].dir);
	for (k = 0; k < r->ndirs; k++)
		free_list(jobs[k].objs, jobs[k].nobj);
	free(jobs);
	return ret;
}
