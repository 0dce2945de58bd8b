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
 *  - if the task exits first, or the trace ends, the call never returned;
 *  - inside io_uring_enter() the error of an operation reaches user space
 *    in its completion, and the call itself returns how many it submitted:
 *    there a completion carrying the injected errno settles that fault as
 *    an error at once, and at the call's return a fault still waiting is
 *    an error if a completion failed since (the first such result), else
 *    recovered.
 */
#include <stdlib.h>
#include <string.h>

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
	int			op;		/* futex op of the call in progress, or -1 */
	long			cqe_res;	/* first failed completion since the faults */
	struct oc_inject	*pend;
	unsigned int		npend;
	size_t			cap;
};

/*
 * Tasks by pid in pages of TASK_PAGE, allocated as pids show up: the memory
 * follows the pids in use, not the largest one (pid_max may be 4194304).
 */
#define TASK_PAGE	1024

struct oc_engine {
	struct task	**pages;
	size_t		npages;
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
	size_t p;

	if (pid < 0)
		pid = 0;
	p = (size_t)pid / TASK_PAGE;
	if (p >= e->npages)
		grow(&e->pages, &e->npages, p + 1, sizeof(*e->pages));
	if (!e->pages[p])
		e->pages[p] = xcalloc(TASK_PAGE, sizeof(**e->pages));
	return &e->pages[p][pid % TASK_PAGE];
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

void oc_sys_enter_op(struct oc_engine *e, int pid, long nr, int op)
{
	struct task *t = task(e, pid);

	/* a new call while faults wait and no restart is due: events were lost */
	if (t->npend && t->state != TS_RESTART)
		settle(e, t, OC_UNKNOWN, 0);
	t->state = TS_IN;
	t->nr = nr;
	t->op = op;
	t->cqe_res = 0;
}

void oc_sys_enter(struct oc_engine *e, int pid, long nr)
{
	oc_sys_enter_op(e, pid, nr, -1);
}

int oc_task_op(struct oc_engine *e, int pid)
{
	struct task *t = task(e, pid);

	return t->state == TS_IN ? t->op : -1;
}

void oc_sys_exit(struct oc_engine *e, int pid, long nr, long ret)
{
	struct task *t = task(e, pid);

	(void)nr;
	if (oc_is_restart(ret)) {
		t->state = TS_RESTART;
		return;
	}
	if (t->npend && t->cqe_res && ret >= 0)
		settle(e, t, OC_ERROR, t->cqe_res);
	else if (t->npend)
		settle(e, t, ret < 0 ? OC_ERROR : OC_RECOVERED, ret);
	t->cqe_res = 0;
	t->state = TS_OUT;
}

void oc_completion(struct oc_engine *e, int pid, long nr, long res)
{
	struct task *t = task(e, pid);
	unsigned int i;

	if (!t->npend || t->state != TS_IN || t->nr != nr || res >= 0)
		return;
	for (i = 0; i < t->npend; i++) {
		if (t->pend[i].err != res)
			continue;
		e->report(e->ctx, &t->pend[i], OC_ERROR, res);
		memmove(&t->pend[i], &t->pend[i + 1], (--t->npend - i) * sizeof(*t->pend));
		return;
	}
	if (!t->cqe_res)
		t->cqe_res = res;
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
		struct task *t = task(e, e->busy[i]);

		settle(e, t, oc, 0);
		t->listed = false;
	}
	e->nbusy = 0;
}

void oc_lost(struct oc_engine *e)
{
	size_t p, i;

	settle_all(e, OC_UNKNOWN);
	for (p = 0; p < e->npages; p++)
		for (i = 0; e->pages[p] && i < TASK_PAGE; i++)
			e->pages[p][i].state = TS_UNSEEN;
}

void oc_finish(struct oc_engine *e)
{
	size_t p, i;

	settle_all(e, OC_NORETURN);
	for (p = 0; p < e->npages; p++) {
		for (i = 0; e->pages[p] && i < TASK_PAGE; i++)
			free(e->pages[p][i].pend);
		free(e->pages[p]);
	}
	free(e->pages);
	free(e->busy);
	free(e);
}
