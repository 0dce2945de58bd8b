// SPDX-License-Identifier: GPL-2.0
/*
 * What happens when the reporter dies.
 *
 * libtraceevent 1.7 trusts the event formats stored in a trace.dat: some
 * corrupt formats make it dereference NULL inside tracecmd_open(), and
 * `trace-cmd report` crashes on the same files.  The reporter cannot check
 * the formats first without parsing trace.dat itself, so it contains the
 * crash instead:
 *
 * - each reader names the trace it is reading (ffr_guard_file()); a fatal
 *   signal prints that name, says the file is corrupt, and then lets the
 *   signal kill the process as before;
 *
 * - the report is made by a child process (ffr_supervise()).  When the
 *   child dies of a signal, a crash, Ctrl-C or a kill, the parent removes
 *   what the child left half-done (the scratch directory, <out>.tmp-PID),
 *   puts back a previous report the child had moved aside, says so, and
 *   exits 1 (or dies of the same interrupting signal, so shells see it).
 */
#include <errno.h>
#include <ftw.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "crash_guard.h"
#include "messages.h"
#include "util.h"

static __thread const char *guard_file;

static const int fatal_sigs[] = { SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT };
static const int stop_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT };

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

void ffr_rm_rf(const char *path)
{
	nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void ffr_guard_file(const char *path)
{
	guard_file = path;
}

static void put(const char *s)
{
	ssize_t n, len = strlen(s);

	while (len > 0) {
		n = write(STDERR_FILENO, s, len);
		if (n <= 0)
			return;
		s += n;
		len -= n;
	}
}

/* async-signal-safe: write(2) only, then the default action */
static void on_fatal(int sig)
{
	const char *name = sigabbrev_np(sig);
	int saved = errno;

	put("futex-fault-report: error: ");
	if (guard_file) {
		put(guard_file);
		put(": crashed reading this trace (SIG");
		put(name ? name : "?");
		put("): the file is corrupt; libtraceevent does not check the event formats it parses\n");
	} else {
		put("crashed (SIG");
		put(name ? name : "?");
		put(")\n");
	}
	errno = saved;
	/* SA_RESETHAND restored the default action: die of this signal */
	raise(sig);
}

void ffr_guard_install(void)
{
	struct sigaction sa;
	size_t i;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_fatal;
	sa.sa_flags = SA_RESETHAND | SA_NODEFER;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(fatal_sigs); i++)
		sigaction(fatal_sigs[i], &sa, NULL);
}

static volatile sig_atomic_t child_pid;

/* pass a kill of the parent on to the child, which cleans up by dying */
static void forward(int sig)
{
	if (child_pid > 0)
		kill(child_pid, sig);
}

static void restore_old(const char *outdir, pid_t pid)
{
	char *old = xasprintf("%s.old-%d", outdir, (int)pid);
	struct stat st;

	if (lstat(old, &st) == 0) {
		if (lstat(outdir, &st) == 0 || errno != ENOENT)
			ffr_rm_rf(old);
		else if (rename(old, outdir))
			ffr_error(old, "cannot put the previous report back at %s: %s", outdir,
				  strerror(errno));
	}
	free(old);
}

/*
 * Fork: the child returns 0 and makes the report; the parent waits, cleans
 * up after a child that did not exit, and returns the exit status for
 * main() (or dies of the child's interrupting signal).
 */
int ffr_supervise(const char *outdir, const char *tmpdir, bool *is_child)
{
	struct sigaction sa, old[ARRAY_SIZE(stop_sigs)];
	int status, sig;
	pid_t pid, w;
	char *p;
	size_t i;

	*is_child = false;
	fflush(NULL);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = forward;
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < ARRAY_SIZE(stop_sigs); i++)
		sigaction(stop_sigs[i], &sa, &old[i]);
	pid = fork();
	if (pid < 0) {
		ffr_error("fork", "%s", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		for (i = 0; i < ARRAY_SIZE(stop_sigs); i++)
			sigaction(stop_sigs[i], &old[i], NULL);
		*is_child = true;
		return 0;
	}
	child_pid = pid;
	do {
		w = waitpid(pid, &status, 0);
	} while (w < 0 && errno == EINTR);
	child_pid = 0;
	for (i = 0; i < ARRAY_SIZE(stop_sigs); i++)
		sigaction(stop_sigs[i], &old[i], NULL);
	if (w < 0) {
		ffr_error("waitpid", "%s", strerror(errno));
		return 1;
	}
	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return 0;

	/* nothing of a failed run may stay behind */
	ffr_rm_rf(tmpdir);
	p = xasprintf("%s.tmp-%d", outdir, (int)pid);
	ffr_rm_rf(p);
	free(p);
	restore_old(outdir, pid);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	sig = WTERMSIG(status);
	fprintf(stderr, "futex-fault-report: %s (SIG%s): no report written, %s left as it was\n",
		sig == SIGINT || sig == SIGTERM || sig == SIGHUP || sig == SIGQUIT ?
		"interrupted" : "error: the report was not made, the reporter died",
		sigabbrev_np(sig) ? sigabbrev_np(sig) : "?", outdir);
	if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP) {
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return 1;
}
