/* SPDX-License-Identifier: GPL-2.0 */
/*
 * When the reporter dies (see crash_guard.c): a fatal signal while a trace
 * is read names that trace, and the report is made by a child process
 * whose parent cleans up after it if it is killed.
 */
#ifndef FFR_CRASH_GUARD_H
#define FFR_CRASH_GUARD_H

#include <stdbool.h>

/* the trace being read now, named if a fatal signal comes (NULL: none) */
void ffr_guard_file(const char *path);
void ffr_guard_install(void);
/*
 * Fork: returns 0 with *is_child set in the child, which makes the report;
 * in the parent, the exit status for main() once the child is gone.
 */
int ffr_supervise(const char *outdir, const char *tmpdir, bool *is_child);
void ffr_rm_rf(const char *path);

#endif /* FFR_CRASH_GUARD_H */
