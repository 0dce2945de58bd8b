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

static struct run *add_run(struct report *r, const char *name)
{
	struct run *rn;

	grow(&r->runs, &r->capruns, r->nruns + 1, sizeof(*r->runs));
	rn = &r->runs[r->nruns++];
	memset(rn, 0, sizeof(*rn));
	rn->name = xstrdup(name);
	rn->dir = xasprintf("%s/runs/%s", r->results, name);
	return rn;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* runs/ in campaign.json order, else baseline first then by name */
static int list_runs(struct report *r, json_t *campaign)
{
	json_t *runs = json_object_get(campaign, "runs"), *rj;
	char *dir = xasprintf("%s/runs", r->results);
	char **names = NULL;
	size_t n = 0, cap = 0, i;
	struct dirent *de;
	bool baseline = false;
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
			free(dir);
			return -1;
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
	for (i = 0; i < n; i++)
		baseline |= !strcmp(names[i], "baseline");
	if (!baseline) {
		ffr_error(dir, "no baseline run (runs/baseline/)");
		goto err;
	}
	add_run(r, "baseline");
	for (i = 0; i < n; i++) {
		if (!strcmp(names[i], "baseline"))
			continue;
		if (!valid_run_name(names[i])) {
			ffr_error(dir, "'%s' is not a valid run name", names[i]);
			goto err;
		}
		add_run(r, names[i]);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(dir);
	return 0;
err:
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(dir);
	return -1;
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

static int load_campaign(struct report *r)
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
	if (list_runs(r, root))
		goto out;
	ret = 0;
out:
	json_decref(root);
out_path:
	free(path);
	return ret;
}

int results_load(struct report *r)
{
	char *p;
	size_t i, k;
	struct stat st;

	if (load_campaign(r))
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
	for (i = 0; i < r->ndirs; i++) {
		p = i ? xasprintf("%s/gcno/%s", r->results, r->gcov_dirs[i]) :
			xasprintf("%s/gcno", r->results);
		if (stat(p, &st) || !S_ISDIR(st.st_mode)) {
			free(p);
			p = xasprintf("%s/%s", r->objtree, r->gcov_dirs[i]);
		}
		if (p[0] != '/') {
			char *cwd = get_current_dir_name();
			char *abs = xasprintf("%s/%s", cwd, p);

			free(cwd);
			free(p);
			p = abs;
		}
		r->gcno_dirs[i] = p;
	}

	return 0;
}
