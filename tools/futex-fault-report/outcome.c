// SPDX-License-Identifier: GPL-2.0
/*
 * Outcome of injected faults, from the faulting task's own system-call
 * events.
 *
 * Per task the engine tracks whether it is inside a system call and which
 * injected faults are waiting for that call to return:
 *
 *  - a fault injected inside exit()/exit_group(), or while the task is not
 *    in a system call at all (the robust-list walk and clear_child_tid wake
 *    run from do_exit(), also after a fatal signal), is OC_EXIT at once;
 *  - otherwise it waits for the task's next sys_exit: a return value >= 0
 *    means the kernel recovered (retried, or fell back) and the call
 *    succeeded, a negative one that the error reached user space;
 *  - a -ERESTART* return is not seen by user space: the call is restarted
 *    and the faults keep waiting for the restarted call's return;
 *  - if the task exits first, or the trace ends, the call never returned.
 */
#include <stdlib.h>

#include "outcome.h"
#include "util.h"

const char *const oc_names[OC_NR] = {
	[OC_RECOVERED]	= "recovered",
	[OC_ERROR]	= "error",
	[OC_EXIT]	= "exit",
	[OC_NORETURN]	= "noreturn",
	[OC_UNKNOWN]	= "unknown",
};

enum task_state {
	TS_UNSEEN,		/* no system call event seen yet */
	TS_IN,			/* between sys_enter and sys_exit */
	TS_OUT,			/* after sys_exit, in user space */
	TS_RESTART,		/* returned -ERESTART*, will re-enter */
};

struct task {
	unsigned char		state;
	bool			listed;		/* in oc_engine.busy */
	long			nr;
	struct oc_inject	*pend;
	unsigned int		npend;
	size_t			cap;
};

struct oc_engine {
	struct task	*tasks;		/* indexed by pid */
	size_t		ntasks;
	int		*busy;		/* pids with pending faults */
	size_t		nbusy;
	size_t		busycap;
	const long	*exit_nrs;
	oc_report_fn	report;
	void		*ctx;
};

bool oc_is_restart(long ret)
{
	return ret == -512 || ret == -513 || ret == -514 || ret == -516;
}

struct oc_engine *oc_new(const long *exit_nrs, oc_report_fn report, void *ctx)
{
	struct oc_engine *e = xcalloc(1, sizeof(*e));

	e->exit_nrs = exit_nrs;
	e->report = report;
	e->ctx = ctx;
	return e;
}

static struct task *task(struct oc_engine *e, int pid)
{
	if (pid < 0)
		pid = 0;
	if ((size_t)pid >= e->ntasks)
		grow(&e->tasks, &e->ntasks, (size_t)pid + 1, sizeof(*e->tasks));
	return &e->tasks[pid];
}

static bool is_exit_nr(struct oc_engine *e, long nr)
{
	const long *p;

	for (p = e->exit_nrs; p && *p != -1; p++)
		if (*p == nr)
			return true;
	return false;
}

static void settle(struct oc_engine *e, struct task *t, enum oc_outcome oc, long ret)
{
	unsigned int i;

	for (i = 0; i < t->npend; i++)
		e->report(e->ctx, &t->pend[i], oc, ret);
	t->npend = 0;
}

void oc_sys_enter(struct oc_engine *e, int pid, long nr)
{
	struct task *t = task(e, pid);

	/* a new call while faults wait and no restart is due: events were lost */
	if (t->npend && t->state != TS_RESTART)
		settle(e, t, OC_UNKNOWN, 0);
	t->state = TS_IN;
	t->nr = nr;
}

void oc_sys_exit(struct oc_engine *e, int pid, long nr, long ret)
{
	struct task *t = task(e, pid);

	(void)nr;
	if (oc_is_restart(ret)) {
		t->state = TS_RESTART;
		return;
	}
	if (t->npend)
		settle(e, t, ret < 0 ? OC_ERROR : OC_RECOVERED, ret);
	t->state = TS_OUT;
}

void oc_inject(struct oc_engine *e, const struct oc_inject *inj)
{
	struct task *t = task(e, inj->pid);

	if (t->state == TS_OUT || (t->state == TS_IN && is_exit_nr(e, t->nr))) {
		e->report(e->ctx, inj, OC_EXIT, 0);
		return;
	}
	if (!t->listed) {
		grow(&e->busy, &e->busycap, e->nbusy + 1, sizeof(*e->busy));
		e->busy[e->nbusy++] = inj->pid < 0 ? 0 : inj->pid;
		t->listed = true;
	}
	grow(&t->pend, &t->cap, (size_t)t->npend + 1, sizeof(*t->pend));
	t->pend[t->npend++] = *inj;
}

void oc_task_exit(struct oc_engine *e, int pid)
{
	struct task *t = task(e, pid);

	settle(e, t, OC_NORETURN, 0);
	t->state = TS_UNSEEN;
}

static void settle_all(struct oc_engine *e, enum oc_outcome oc)
{
	size_t i;

	for (i = 0; i < e->nbusy; i++) {
		settle(e, &e->tasks[e->busy[i]], oc, 0);
		e->tasks[e->busy[i]].listed = false;
	}
	e->nbusy = 0;
}

void oc_lost(struct oc_engine *e)
{
	size_t i;

	settle_all(e, OC_UNKNOWN);
	for (i = 0; i < e->ntasks; i++)
		e->tasks[i].state = TS_UNSEEN;
}

void oc_finish(struct oc_engine *e)
{
	size_t i;

	settle_all(e, OC_NORETURN);
	for (i = 0; i < e->ntasks; i++)
		free(e->tasks[i].pend);
	free(e->tasks);
	free(e->busy);
	free(e);
}
