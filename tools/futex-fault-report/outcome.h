/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What became of each injected fault.  The engine is fed, in time order,
 * the events of a trace that matter (system call entry and exit, task exit,
 * injected fault) and calls back once per injected fault with its outcome.
 * It knows nothing of libtraceevent, so the unit tests drive it directly.
 */
#ifndef FFR_OUTCOME_H
#define FFR_OUTCOME_H

#include <stdbool.h>
#include <stddef.h>

enum oc_outcome {
	OC_RECOVERED,	/* the system call then succeeded (return value >= 0) */
	OC_ERROR,	/* the system call returned an error to user space */
	OC_EXIT,	/* raised outside a system call, or in exit(): robust-list walk */
	OC_NORETURN,	/* no return: the task died in the call, or the trace ended */
	OC_UNKNOWN,	/* events were lost around it */
	OC_NR
};

extern const char *const oc_names[OC_NR];

struct oc_inject {
	unsigned int	site;	/* the reporter's site index */
	int		err;	/* injected error, negative */
	int		op;	/* futex op argument, -1 outside sys_futex */
	int		pid;
	size_t		tag;	/* the caller's (which fault this is), passed back as it is */
};

/*
 * Called once per injected fault, with a copy of what oc_inject() was given
 * (tag included); ret is the return value for OC_ERROR/OC_RECOVERED.  Faults
 * are settled in the order their calls end, not in the order they were
 * injected: a caller that wants each fault's outcome in injection order
 * numbers them in tag.
 */
typedef void (*oc_report_fn)(void *ctx, const struct oc_inject *inj, enum oc_outcome oc, long ret);

struct oc_engine;

/*
 * exit_nrs: system call numbers after which a task never returns to user
 * space (exit, exit_group), terminated by -1.
 */
struct oc_engine *oc_new(const long *exit_nrs, oc_report_fn report, void *ctx);
void oc_sys_enter(struct oc_engine *e, int pid, long nr);
/* the same, for a futex system call: @op is its futex op argument */
void oc_sys_enter_op(struct oc_engine *e, int pid, long nr, int op);
/* the futex op of @pid's system call in progress, -1 if none is known */
int oc_task_op(struct oc_engine *e, int pid);
void oc_sys_exit(struct oc_engine *e, int pid, long nr, long ret);
void oc_inject(struct oc_engine *e, const struct oc_inject *inj);
void oc_task_exit(struct oc_engine *e, int pid);
/*
 * io_uring posted a completion with result @res while @pid was in system
 * call @nr (io_uring_enter): an operation's error reaches user space there,
 * not in the call's return value.
 */
void oc_completion(struct oc_engine *e, int pid, long nr, long res);
/* events were lost on some CPU: whatever is pending becomes OC_UNKNOWN */
void oc_lost(struct oc_engine *e);
/* end of trace: whatever is pending never returned; frees the engine */
void oc_finish(struct oc_engine *e);

/* 512..516: -ERESTART* codes, the call is restarted, user space never sees them */
bool oc_is_restart(long ret);

#endif /* FFR_OUTCOME_H */
