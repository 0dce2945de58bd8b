// SPDX-License-Identifier: GPL-2.0
/*
 * The results directory (docs/results-layout.md): campaign.json, each
 * run's run.json, the site tables, where the .gcno and the sources are.  The traces are
 * read by trace_pool.c, the coverage by gcov.c.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "json_number.h"
#include "report.h"
#include "util.h"

/* run.json and campaign.json: objects, numbers as doubles (see json_number.h) */
#define RESULTS_JSON_FLAGS	(JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL)

static json_t *load_json(const char *path, bool required)
{
	json_error_t err;
	json_t *doc;
	char *text;
	size_t len;

	text = read_file(path, &len);
	if (!text) {
		if (required || errno != ENOENT)
			ffr_error(path, "%s", strerror(errno));
		return NULL;
	}
	doc = json_loadb(text, len, RESULTS_JSON_FLAGS, &err);
	free(text);
	if (!doc) {
		ffr_error(path, "not valid JSON: line %d column %d: %s", err.line, err.column,
			  err.text);
		return NULL;
	}
	if (!json_is_object(doc)) {
		json_decref(doc);
		ffr_error(path, "expected a JSON object");
		return NULL;
	}
	return doc;
}

static int check_layout(const char *path, json_t *root)
{
	double v = member_num(root, "layout_version", -1);

	if (v < 0)
		return ffr_error(path, "no \"layout_version\"");
	if (v != FFR_LAYOUT_VERSION)
		return ffr_error(path, "layout_version %g, this reporter reads version %d", v,
				 FFR_LAYOUT_VERSION);
	return 0;
}

/*
 * path (run.json, campaign.json) in dir, once dir is a directory (else the
 * error not_dir): a JSON object of this reporter's layout version
 */
static json_t *load_layout_json(const char *dir, const char *not_dir, const char *path)
{
	struct stat st;
	json_t *root;

	if (stat(dir, &st) || !S_ISDIR(st.st_mode)) {
		ffr_error(dir, "%s", not_dir);
		return NULL;
	}
	root = load_json(path, true);
	if (root && check_layout(path, root)) {
		json_decref(root);
		return NULL;
	}
	return root;
}

static bool valid_run_name(const char *s)
{
	const char *p;

	if (!*s || *s == '.' || *s == '-' || *s == '+')
		return false;
	for (p = s; *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' ||
		      *p == '.' || *p == '+' || *p == '-'))
			return false;
	return true;
}

/* a run, the directory runs/<name> of results, after the others */
static struct run *add_run(struct report *r, const char *results, const char *name)
{
	struct run *rn;

	grow(&r->runs, &r->capruns, r->nruns + 1, sizeof(*r->runs));
	rn = &r->runs[r->nruns++];
	memset(rn, 0, sizeof(*rn));
	rn->name = xstrdup(name);
	rn->dir = xasprintf("%s/runs/%s", results, name);
	return rn;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void free_names(char **names, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/*
 * The runs of the results directory results: "baseline" first, then the
 * others in campaign.json's order, else by name in runs/; NULL after an
 * error naming the directory
 */
static char **run_names(const char *results, json_t *campaign, size_t *nnames)
{
	json_t *runs = json_object_get(campaign, "runs"), *rj;
	char *dir = xasprintf("%s/runs", results);
	char **names = NULL, **out = NULL;
	size_t n = 0, cap = 0, nout = 0, i;
	struct dirent *de;
	DIR *d;

	if (json_is_array(runs)) {
		json_array_foreach(runs, i, rj) {
			if (!json_is_string(rj))
				continue;
			grow(&names, &cap, n + 1, sizeof(*names));
			names[n++] = xstrdup(json_string_value(rj));
		}
	} else {
		d = opendir(dir);
		if (!d) {
			ffr_error(dir, "%s", strerror(errno));
			goto out;
		}
		while ((de = readdir(d))) {
			if (de->d_name[0] == '.')
				continue;
			grow(&names, &cap, n + 1, sizeof(*names));
			names[n++] = xstrdup(de->d_name);
		}
		closedir(d);
		qsort(names, n, sizeof(*names), cmp_name);
	}
	for (i = 0; i < n && strcmp(names[i], "baseline"); i++)
		;
	if (i == n) {
		ffr_error(dir, "no baseline run (runs/baseline/)");
		goto out;
	}
	out = xcalloc(n, sizeof(*out));
	out[nout++] = xstrdup("baseline");
	for (i = 0; i < n; i++) {
		if (!strcmp(names[i], "baseline"))
			continue;
		if (!valid_run_name(names[i])) {
			ffr_error(dir, "'%s' is not a valid run name", names[i]);
			free_names(out, nout);
			out = NULL;
			goto out;
		}
		out[nout++] = xstrdup(names[i]);
	}
	*nnames = nout;
out:
	free_names(names, n);
	free(dir);
	return out;
}

/* runs/ in campaign.json order, else baseline first then by name */
static int list_runs(struct report *r, json_t *campaign)
{
	char **names;
	size_t n, i;

	names = run_names(r->results, campaign, &n);
	if (!names)
		return -1;
	for (i = 0; i < n; i++)
		add_run(r, r->results, names[i]);
	free_names(names, n);
	return 0;
}

static int load_run_json(struct report *r, struct run *rn)
{
	char *path = xasprintf("%s/run.json", rn->dir);
	json_t *root, *sites, *wl, *sj, *w;
	const char *status, *name;
	size_t i;
	int ret = -1;

	root = load_layout_json(rn->dir, "missing run directory", path);
	if (!root)
		goto out_path;
	name = json_string_value(json_object_get(root, "run"));
	if (!name || strcmp(name, rn->name)) {
		ffr_error(path, "\"run\" is '%s', the directory is '%s'", name ? name : "(none)",
			  rn->name);
		goto out;
	}
	status = json_string_value(json_object_get(root, "status"));
	if (!status || (strcmp(status, "ok") && strcmp(status, "crash") && strcmp(status, "hang"))) {
		ffr_error(path, "\"status\" must be ok, crash or hang");
		goto out;
	}
	rn->status = xstrdup(status);
	sites = json_object_get(root, "sites_enabled");
	if (!json_is_array(sites)) {
		ffr_error(path, "no \"sites_enabled\" array");
		goto out;
	}
	rn->enabled = xcalloc(json_array_size(sites), sizeof(*rn->enabled));
	json_array_foreach(sites, i, sj) {
		if (!json_is_string(sj)) {
			ffr_error(path, "\"sites_enabled\" holds a non-string");
			goto out;
		}
		rn->enabled[rn->nenabled++] = xstrdup(json_string_value(sj));
	}
	if (rn == r->runs && rn->nenabled) {
		ffr_error(path, "the baseline must enable no site");
		goto out;
	}
	wl = json_object_get(root, "workloads");
	if (json_is_array(wl)) {
		rn->wl = xcalloc(json_array_size(wl), sizeof(*rn->wl));
		json_array_foreach(wl, i, w) {
			const char *wn = json_string_value(json_object_get(w, "name"));
			bool bad = false;

			rn->wl[i].name = xstrdup(wn ? wn : "?");
			rn->wl[i].exit_status = member_int(w, "exit_status", 0, INT_MIN, INT_MAX,
							   &bad);
			rn->wl[i].has_status = json_is_number(json_object_get(w, "exit_status")) &&
					       !bad;
			rn->wl[i].checks = json_is_true(json_object_get(w, "checks"));
		}
		rn->nwl = json_array_size(wl);
	}
	ret = 0;
out:
	json_decref(root);
out_path:
	free(path);
	return ret;
}

/* RESULTS/src/<first gcov dir> holds a .c file: the campaign copied the sources */
static bool results_have_sources(const struct report *r)
{
	char *dir = xasprintf("%s/src/%s", r->results, r->gcov_dirs[0]);
	struct dirent *de;
	bool found = false;
	size_t l;
	DIR *d;

	d = opendir(dir);
	free(dir);
	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		l = strlen(de->d_name);
		found = l > 2 && !strcmp(de->d_name + l - 2, ".c");
	}
	closedir(d);
	return found;
}

/* a directory relative to the trees: not empty, not absolute, no "." or ".." part */
static bool good_rel_dir(const char *s)
{
	const char *p = s;
	size_t l;

	if (!*s || *s == '/' || s[strlen(s) - 1] == '/')
		return false;
	while (*p) {
		l = strcspn(p, "/");
		if (!l || (l == 1 && p[0] == '.') || (l == 2 && p[0] == '.' && p[1] == '.'))
			return false;
		p += l + (p[l] == '/');
	}
	return true;
}

static void add_gcov_dir(struct report *r, const char *dir)
{
	r->gcov_dirs = xrealloc(r->gcov_dirs, (r->ndirs + 1) * sizeof(*r->gcov_dirs));
	r->gcov_dirs[r->ndirs++] = xstrdup(dir);
}

/*
 * "kernel"."gcov_dirs" (campaigns since 6.12 support), else "gcov_dir",
 * else kernel/futex: the first is kernel/futex's, the others come after
 */
static int load_gcov_dirs(struct report *r, json_t *kernel, const char *path)
{
	json_t *dirs = json_object_get(kernel, "gcov_dirs"), *d;
	const char *s;
	size_t i, k;

	if (!dirs) {
		s = json_string_value(json_object_get(kernel, "gcov_dir"));
		s = s ? s : "kernel/futex";
		if (!good_rel_dir(s))
			return ffr_error(path, "\"kernel\".\"gcov_dir\" '%s' is not a directory relative to the tree",
					 s);
		add_gcov_dir(r, s);
		return 0;
	}
	if (!json_is_array(dirs) || !json_array_size(dirs))
		return ffr_error(path, "\"kernel\".\"gcov_dirs\" is not a list of directories");
	json_array_foreach(dirs, i, d) {
		s = json_string_value(d);
		if (!s || !good_rel_dir(s))
			return ffr_error(path, "\"kernel\".\"gcov_dirs\"[%zu] is not a directory relative to the tree",
					 i);
		for (k = 0; k < r->ndirs; k++)
			if (!strcmp(r->gcov_dirs[k], s))
				return ffr_error(path, "\"kernel\".\"gcov_dirs\" names '%s' twice",
						 s);
		add_gcov_dir(r, s);
	}
	return 0;
}

/* campaign.json's "kernel"."key", a copy; NULL after an error naming path */
static char *kernel_path(json_t *kernel, const char *key, const char *path, const char *hint)
{
	const char *s = json_string_value(json_object_get(kernel, key));

	if (!s) {
		ffr_error(path, "no \"kernel\".\"%s\" (%s)", key, hint);
		return NULL;
	}
	return xstrdup(s);
}

/* campaign.json's "shard" of a results directory reported alone: say what it lacks */
static void lone_shard(json_t *root, const char *path)
{
	json_t *sh = json_object_get(root, "shard");
	long long i, n;
	bool bad = false;

	n = member_int(sh, "count", 0, 1, INT_MAX, &bad);
	i = member_int(sh, "index", 0, 1, INT_MAX, &bad);
	if (n > 1 && !bad)
		ffr_warn(path, "shard %lld/%lld of a campaign: this report has that shard's site runs only; the campaign's is made of all %lld shards: futex-fault-report -o OUTDIR SHARD...",
			 i, n, n);
}

/*
 * campaign.json of r->results: the kernel's trees, the profiled
 * directories, where the sources are; with list, the runs too
 */
static int load_campaign(struct report *r, bool list)
{
	char *path = xasprintf("%s/campaign.json", r->results);
	json_t *root, *kernel;
	const char *s;
	int ret = -1;

	root = load_layout_json(r->results, "not a results directory", path);
	if (!root)
		goto out_path;
	kernel = json_object_get(root, "kernel");
	if (!r->objtree) {
		r->objtree = kernel_path(kernel, "objtree", path, "or give --objtree");
		if (!r->objtree)
			goto out;
	}
	if (load_gcov_dirs(r, kernel, path))
		goto out;
	/* the results' own copy of the sources, else --srctree, else the campaign's */
	if (results_have_sources(r)) {
		char *src = xasprintf("%s/src", r->results);

		if (r->srctree)
			ffr_warn(src, "the results hold the sources: using them, not --srctree %s",
				 r->srctree);
		free(r->srctree);
		r->srctree = src;
	} else if (!r->srctree) {
		r->srctree = kernel_path(kernel, "srctree", path, "and no src/: or give --srctree");
		if (!r->srctree)
			goto out;
	}
	s = json_string_value(json_object_get(kernel, "version"));
	r->kversion = xstrdup(s ? s : "unknown");
	if (list) {
		lone_shard(root, path);
		if (list_runs(r, root))
			goto out;
	}
	ret = 0;
out:
	json_decref(root);
out_path:
	free(path);
	return ret;
}

/*
 * Where the .gcno of the profiled directory dir (first: the first of
 * gcov_dirs) are: the results' own copy (the first directory's in gcno/,
 * any other's in gcno/<dir>/), else the build's.  An absolute path; NULL
 * when the results have no copy and objtree is NULL.
 */
static char *gcno_dir(const char *results, const char *objtree, const char *dir, bool first)
{
	struct stat st;
	char *p, *abs, *cwd;

	p = first ? xasprintf("%s/gcno", results) : xasprintf("%s/gcno/%s", results, dir);
	if (stat(p, &st) || !S_ISDIR(st.st_mode)) {
		free(p);
		if (!objtree)
			return NULL;
		p = xasprintf("%s/%s", objtree, dir);
	}
	if (p[0] == '/')
		return p;
	cwd = get_current_dir_name();
	abs = xasprintf("%s/%s", cwd, p);
	free(cwd);
	free(p);
	return abs;
}

/*
 * Several results directories as one campaign: the shards of
 * scripts/campaign --shard i/N.  Each shard ran its own baseline and
 * workload map, then the site runs of every N-th site of the list its
 * campaign.json's "shard"."sites" holds (the same list in every shard),
 * starting at the i-th.  They are read as the campaign run whole would be:
 * shard 1's baseline, then the site runs of every shard in the order of that
 * list, which is the order the whole campaign runs them in.  Shard 1's
 * baseline, because every merge has a shard 1 whatever the order of the
 * command line; the others' baselines are not read.
 *
 * The shards must come from one kernel build: the coverage of runs of
 * another build cannot be added up (gcov refuses their data, or worse, the
 * line tables differ), nor its faults be counted as this kernel's.  The
 * .gcno files decide, byte for byte (their stamp changes with every
 * compilation), and campaign.json's "kernel"."build_id" (vmlinux's) where
 * both have it.
 */
struct shard {
	const char	*dir;
	char		*path;		/* its campaign.json */
	json_t		*campaign;
	int		index;		/* i of i/N */
	int		count;		/* N */
	json_t		*sites;		/* the sites the shards split */
	char		**runs;		/* its runs, "baseline" first */
	size_t		nruns;
	bool		*taken;		/* runs[k] is in the campaign's list */
};

static void shards_free(struct shard *sh, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(sh[i].path);
		json_decref(sh[i].campaign);
		free_names(sh[i].runs, sh[i].nruns);
		free(sh[i].taken);
	}
	free(sh);
}

/* campaign.json's "shard": { "index": i, "count": N, "sites": [ ... ] } */
static int shard_read(struct shard *s)
{
	json_t *sh = json_object_get(s->campaign, "shard"), *j;
	bool bad = false;
	size_t i;

	if (!sh)
		return ffr_error(s->path, "no \"shard\": not a shard of a campaign (scripts/campaign --shard i/N); a results directory of its own is reported alone");
	s->count = member_int(sh, "count", 0, 1, INT_MAX, &bad);
	s->index = member_int(sh, "index", 0, 1, INT_MAX, &bad);
	if (bad || !s->count || !s->index || s->index > s->count)
		return ffr_error(s->path, "\"shard\": \"index\" and \"count\" must be integers, 1 <= index <= count");
	s->sites = json_object_get(sh, "sites");
	if (!json_is_array(s->sites))
		return ffr_error(s->path, "\"shard\".\"sites\" is not a list of site names");
	json_array_foreach(s->sites, i, j)
		if (!json_is_string(j))
			return ffr_error(s->path, "\"shard\".\"sites\" is not a list of site names");
	return 0;
}

static int cmp_shard(const void *a, const void *b)
{
	const struct shard *x = a, *y = b;

	return (x->index > y->index) - (x->index < y->index);
}

/* the shards are 1/N to N/N of one split, each once */
static int shards_check_split(const struct shard *sh, size_t n)
{
	size_t i;

	for (i = 1; i < n; i++) {
		if (sh[i].count != sh[0].count)
			return ffr_error(sh[i].path, "shard %d/%d, but %s is shard %d/%d: shards of different splits cannot be merged",
					 sh[i].index, sh[i].count, sh[0].dir, sh[0].index,
					 sh[0].count);
		if (sh[i].index == sh[i - 1].index)
			return ffr_error(sh[i].path, "shard %d/%d, and so is %s: give each shard once",
					 sh[i].index, sh[i].count, sh[i - 1].dir);
		if (!json_equal(sh[i].sites, sh[0].sites))
			return ffr_error(sh[i].path, "\"shard\".\"sites\" differs from %s's: shards of different campaigns (another -s?) cannot be merged",
					 sh[0].dir);
	}
	/* sorted, each index once, each in 1..N: the first gap is the one missing */
	for (i = 0; i < n && sh[i].index == (int)i + 1; i++)
		;
	if (i < (size_t)sh[0].count)
		return ffr_error(sh[0].dir, "shard %zu/%d is missing: the report of a campaign needs all its %d shards",
				 i + 1, sh[0].count, sh[0].count);
	return 0;
}

/* the shards' campaign.json and run lists, in shard order (r->shards too) */
static struct shard *shards_open(struct report *r)
{
	struct shard *sh = xcalloc(r->nshards, sizeof(*sh));
	size_t i;

	for (i = 0; i < r->nshards; i++) {
		struct shard *s = &sh[i];

		s->dir = r->shards[i];
		s->path = xasprintf("%s/campaign.json", s->dir);
		s->campaign = load_layout_json(s->dir, "not a results directory", s->path);
		if (!s->campaign || shard_read(s))
			goto err;
		s->runs = run_names(s->dir, s->campaign, &s->nruns);
		if (!s->runs)
			goto err;
		s->taken = xcalloc(s->nruns, sizeof(*s->taken));
	}
	qsort(sh, r->nshards, sizeof(*sh), cmp_shard);
	if (shards_check_split(sh, r->nshards))
		goto err;
	for (i = 0; i < r->nshards; i++)
		r->shards[i] = (char *)sh[i].dir;
	return sh;
err:
	shards_free(sh, r->nshards);
	return NULL;
}

/* both absent, or equal */
static bool same_json(const json_t *a, const json_t *b)
{
	return (!a && !b) || json_equal((json_t *)a, (json_t *)b);
}

/* the names of the .gcno files of dir, sorted; NULL after an error naming dir */
static char **gcno_names(const char *dir, size_t *n)
{
	char **names = NULL;
	size_t cap = 0, l;
	struct dirent *de;
	DIR *d;

	*n = 0;
	d = opendir(dir);
	if (!d) {
		ffr_error(dir, "%s", strerror(errno));
		return NULL;
	}
	grow(&names, &cap, 1, sizeof(*names));
	while ((de = readdir(d))) {
		l = strlen(de->d_name);
		if (l <= 5 || strcmp(de->d_name + l - 5, ".gcno"))
			continue;
		grow(&names, &cap, *n + 1, sizeof(*names));
		names[(*n)++] = xstrdup(de->d_name);
	}
	closedir(d);
	qsort(names, *n, sizeof(*names), cmp_name);
	return names;
}

/* the file pa of shard a and the file pb of shard b are the same bytes */
static int same_file(const char *pa, const char *pb, const struct shard *a,
		     const struct shard *b)
{
	char *ta, *tb = NULL;
	size_t la, lb;
	int ret = -1;

	ta = read_file(pa, &la);
	if (!ta) {
		ffr_error(pa, "%s", strerror(errno));
		goto out;
	}
	tb = read_file(pb, &lb);
	if (!tb) {
		ffr_error(pb, "%s", strerror(errno));
		goto out;
	}
	if (la != lb || memcmp(ta, tb, la)) {
		ffr_error(pb, "differs from %s: %s and %s are not of the same kernel build", pa,
			  a->dir, b->dir);
		goto out;
	}
	ret = 0;
out:
	free(ta);
	free(tb);
	return ret;
}

/* the .gcno files of da (shard a's) and db (shard b's) are the same files */
static int same_gcno(const char *da, const char *db, const struct shard *a,
		     const struct shard *b)
{
	char **na, **nb = NULL, *pa, *pb;
	size_t ca = 0, cb = 0, i;
	int differ, ret = -1;

	na = gcno_names(da, &ca);
	if (na)
		nb = gcno_names(db, &cb);
	if (!nb)
		goto out;
	for (i = 0; i < ca || i < cb; i++) {
		/* the first name in one only, if the lists differ */
		if (i == cb || (i < ca && strcmp(na[i], nb[i]) < 0)) {
			ffr_error(da, "has %s, %s has not: %s and %s are not of the same kernel build",
				  na[i], db, a->dir, b->dir);
			goto out;
		}
		if (i == ca || strcmp(na[i], nb[i]) > 0) {
			ffr_error(db, "has %s, %s has not: %s and %s are not of the same kernel build",
				  nb[i], da, a->dir, b->dir);
			goto out;
		}
		pa = xasprintf("%s/%s", da, na[i]);
		pb = xasprintf("%s/%s", db, nb[i]);
		differ = same_file(pa, pb, a, b);
		free(pa);
		free(pb);
		if (differ)
			goto out;
	}
	ret = 0;
out:
	if (na)
		free_names(na, ca);
	if (nb)
		free_names(nb, cb);
	return ret;
}

/* the workloads' names, in order, of two campaign.json */
static bool same_workloads(json_t *a, json_t *b)
{
	json_t *wa = json_object_get(a, "workloads"), *wb = json_object_get(b, "workloads");
	size_t i;

	if (json_array_size(wa) != json_array_size(wb))
		return false;
	for (i = 0; i < json_array_size(wa); i++)
		if (!same_json(json_object_get(json_array_get(wa, i), "name"),
			       json_object_get(json_array_get(wb, i), "name")))
			return false;
	return true;
}

/*
 * Every shard of the kernel build of shard 1 (r, read from it), with the
 * same workloads; objtree is --objtree, else each shard's own
 */
static int shards_same_build(const struct report *r, const struct shard *sh, size_t n,
			     const char *objtree)
{
	json_t *k0 = json_object_get(sh[0].campaign, "kernel"), *k;
	const char *a, *b, *ot;
	char *d0, *d;
	size_t i, j;
	int ret;

	for (i = 1; i < n; i++) {
		k = json_object_get(sh[i].campaign, "kernel");
		a = json_string_value(json_object_get(k0, "version"));
		b = json_string_value(json_object_get(k, "version"));
		if (!a != !b || (a && strcmp(a, b)))
			return ffr_error(sh[i].path, "kernel %s, %s's is %s: %s and %s are not of the same kernel build",
					 b ? b : "(none)", sh[0].dir, a ? a : "(none)",
					 sh[0].dir, sh[i].dir);
		a = json_string_value(json_object_get(k0, "build_id"));
		b = json_string_value(json_object_get(k, "build_id"));
		if (a && b && strcmp(a, b))
			return ffr_error(sh[i].path, "kernel build_id %s, %s's is %s: %s and %s are not of the same kernel build",
					 b, sh[0].dir, a, sh[0].dir, sh[i].dir);
		if (!same_json(json_object_get(k0, "gcov_dirs"), json_object_get(k, "gcov_dirs")) ||
		    !same_json(json_object_get(k0, "gcov_dir"), json_object_get(k, "gcov_dir")))
			return ffr_error(sh[i].path, "other profiled directories (\"kernel\".\"gcov_dirs\") than %s's: %s and %s are not of the same kernel build",
					 sh[0].dir, sh[0].dir, sh[i].dir);
		if (!same_workloads(sh[0].campaign, sh[i].campaign))
			return ffr_error(sh[i].path, "other workloads than %s's: %s and %s are not shards of one campaign",
					 sh[0].dir, sh[0].dir, sh[i].dir);
		ot = objtree ? objtree : json_string_value(json_object_get(k, "objtree"));
		for (j = 0; j < r->ndirs; j++) {
			d0 = gcno_dir(sh[0].dir, r->objtree, r->gcov_dirs[j], !j);
			d = gcno_dir(sh[i].dir, ot, r->gcov_dirs[j], !j);
			if (!d)
				ret = ffr_error(sh[i].path, "no gcno/ and no \"kernel\".\"objtree\": no .gcno to tell its kernel build by");
			else
				ret = same_gcno(d0, d, &sh[0], &sh[i]);
			free(d0);
			free(d);
			if (ret)
				return -1;
		}
	}
	return 0;
}

/*
 * The runs of the campaign: shard 1's baseline, then each site's run, in
 * the order of the list the shards split, from the shard that has it
 */
static int shards_runs(struct report *r, struct shard *sh, size_t n)
{
	struct shard *from;
	const char *site;
	json_t *sj;
	size_t i, k, j;
	char *p;

	add_run(r, sh[0].dir, "baseline");
	json_array_foreach(sh[0].sites, i, sj) {
		site = json_string_value(sj);
		from = NULL;
		for (k = 0; k < n; k++) {
			for (j = 1; j < sh[k].nruns; j++) {
				if (sh[k].taken[j] || strcmp(sh[k].runs[j], site))
					continue;
				if (from == &sh[k])
					return ffr_error(sh[k].path, "lists run '%s' twice", site);
				if (from) {
					p = xasprintf("%s/runs/%s", sh[k].dir, site);
					ffr_error(p, "also in %s: a site run belongs to one shard, %s and %s both have it",
						  from->dir, from->dir, sh[k].dir);
					free(p);
					return -1;
				}
				from = &sh[k];
				sh[k].taken[j] = true;
			}
		}
		if (from)
			add_run(r, from->dir, site);
	}
	for (k = 0; k < n; k++)
		for (j = 1; j < sh[k].nruns; j++)
			if (!sh[k].taken[j])
				return ffr_error(sh[k].dir, "has the run %s, which is not a site of the list the shards split (campaign.json \"shard\".\"sites\")",
						 sh[k].runs[j]);
	return 0;
}

/* the shards as one campaign into r: shard 1's campaign.json, every shard's runs */
static int shards_load(struct report *r)
{
	/* --objtree, before shard 1's campaign.json fills r->objtree */
	char *objtree = r->objtree ? xstrdup(r->objtree) : NULL;
	struct shard *sh;
	int ret = -1;

	sh = shards_open(r);
	if (sh) {
		r->results = sh[0].dir;
		if (!load_campaign(r, false) && !shards_same_build(r, sh, r->nshards, objtree) &&
		    !shards_runs(r, sh, r->nshards))
			ret = 0;
		shards_free(sh, r->nshards);
	}
	free(objtree);
	return ret;
}

int results_load(struct report *r)
{
	char *p;
	size_t i, k;
	struct stat st;

	if (r->nshards ? shards_load(r) : load_campaign(r, true))
		return -1;
	for (i = 0; i < r->nruns; i++)
		if (load_run_json(r, &r->runs[i]))
			return -1;

	/* the baseline's table lists the kernel's sites */
	p = xasprintf("%s/sites.txt", r->runs[0].dir);
	if (sites_load(r, p)) {
		free(p);
		return -1;
	}
	free(p);
	for (i = 1; i < r->nruns; i++) {
		struct run *rn = &r->runs[i];

		for (k = 0; k < rn->nenabled; k++) {
			if (!site_find(r, rn->enabled[k])) {
				p = xasprintf("%s/run.json", rn->dir);
				ffr_error(p, "enables site '%s', which is not in the baseline's sites.txt",
					  rn->enabled[k]);
				free(p);
				return -1;
			}
		}
		p = xasprintf("%s/sites.txt", rn->dir);
		if (stat(p, &st) == 0) {
			if (sites_load(r, p)) {
				free(p);
				return -1;
			}
		} else if (!strcmp(rn->status, "ok")) {
			ffr_error(p, "missing (run status ok)");
			free(p);
			return -1;
		}
		free(p);
	}

	/*
	 * .gcno: the results' own copy (the first directory's in gcno/, any
	 * other's in gcno/<dir>/), else the build's
	 */
	r->gcno_dirs = xcalloc(r->ndirs, sizeof(*r->gcno_dirs));
	for (i = 0; i < r->ndirs; i++)
		r->gcno_dirs[i] = gcno_dir(r->results, r->objtree, r->gcov_dirs[i], !i);

	/* what the report names: the shards, in order */
	if (r->nshards) {
		struct strbuf sb;

		sb_init(&sb);
		for (i = 0; i < r->nshards; i++)
			sb_printf(&sb, "%s%s", i ? ", " : "", r->shards[i]);
		r->results = sb.buf;
	}
	return 0;
}
