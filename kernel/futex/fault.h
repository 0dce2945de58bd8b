/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _FUTEX_FAULT_H
#define _FUTEX_FAULT_H

#include <linux/compiler.h>
#include <linux/jump_label.h>

/*
 * Futex fault sites: every place in kernel/futex/ that touches user memory
 * or can otherwise fail, each behind its own static key.  This list is the
 * only place a site is named; the enum, the static keys, the debugfs files,
 * the site table and the trace event's symbol table are derived from it.
 *
 * S(name, file, function, errno, flags), E() for the last one
 *
 *   name:     stable identifier, also the debugfs file name.  Never a line
 *             number: sites keep their names when the code moves.
 *   file:     kernel/futex/<file>.c holding the site.
 *   function: the function holding the site.
 *   errno:    what the site fails with; the error the real access returns
 *             there, so the existing recovery code is what runs.
 *   flags:    FUTEX_FAULT_RETRY when the caller handles the failure by
 *             faulting the page in and retrying; see __futex_fault().
 */
#define FUTEX_FAULT_RETRY	1

#define FUTEX_FAULT_SITES(S, E)						\
	/* core.c: futex keys */					\
	S(get_key_access,	core, get_futex_key, EFAULT, 0)		\
	S(get_key_gup,		core, get_futex_key, EFAULT, 0)		\
	S(get_key_anon_ro,	core, get_futex_key, EFAULT, 0)		\
	/* core.c: robust futexes of an exiting task */			\
	S(death_get_value,	core, handle_futex_death, EFAULT, 0)	\
	S(death_cmpxchg,	core, handle_futex_death, EFAULT,	\
	  FUTEX_FAULT_RETRY)						\
	S(death_fault_in,	core, handle_futex_death, EFAULT, 0)	\
	S(robust_fetch_head,	core, exit_robust_list, EFAULT, 0)	\
	S(robust_get_offset,	core, exit_robust_list, EFAULT, 0)	\
	S(robust_fetch_pending,	core, exit_robust_list, EFAULT, 0)	\
	S(robust_fetch_next,	core, exit_robust_list, EFAULT, 0)	\
	S(compat_robust_fetch_head, core, compat_exit_robust_list,	\
	  EFAULT, 0)							\
	S(compat_robust_get_offset, core, compat_exit_robust_list,	\
	  EFAULT, 0)							\
	S(compat_robust_fetch_pending, core, compat_exit_robust_list,	\
	  EFAULT, 0)							\
	S(compat_robust_fetch_next, core, compat_exit_robust_list,	\
	  EFAULT, 0)							\
	/* syscalls.c */						\
	S(get_robust_list_len,	syscalls, get_robust_list, EFAULT, 0)	\
	S(get_robust_list_head,	syscalls, get_robust_list, EFAULT, 0)	\
	S(futex_get_timeout,	syscalls, futex, EFAULT, 0)		\
	S(waitv_copy,		syscalls, futex_parse_waitv, EFAULT, 0)	\
	S(waitv_get_timeout,	syscalls, futex_waitv, EFAULT, 0)	\
	S(waitv_alloc,		syscalls, futex_waitv, ENOMEM, 0)	\
	S(compat_get_robust_list_len, syscalls,				\
	  compat_get_robust_list, EFAULT, 0)				\
	S(compat_get_robust_list_head, syscalls,			\
	  compat_get_robust_list, EFAULT, 0)				\
	S(futex_time32_get_timeout, syscalls, futex_time32, EFAULT, 0)	\
	/* waitwake.c */						\
	S(wake_get_key,		waitwake, futex_wake, EFAULT, 0)	\
	S(wake_op_get_key1,	waitwake, futex_wake_op, EFAULT, 0)	\
	S(wake_op_get_key2,	waitwake, futex_wake_op, EFAULT, 0)	\
	S(wake_op_atomic,	waitwake, futex_wake_op, EFAULT,	\
	  FUTEX_FAULT_RETRY)						\
	S(wake_op_fault_in,	waitwake, futex_wake_op, EFAULT, 0)	\
	S(waitv_get_key,	waitwake, futex_wait_multiple_setup,	\
	  EFAULT, 0)							\
	S(waitv_get_value,	waitwake, futex_wait_multiple_setup,	\
	  EFAULT, FUTEX_FAULT_RETRY)					\
	S(waitv_get_user,	waitwake, futex_wait_multiple_setup,	\
	  EFAULT, 0)							\
	S(wait_get_key,		waitwake, futex_wait_setup, EFAULT, 0)	\
	S(wait_get_value,	waitwake, futex_wait_setup, EFAULT,	\
	  FUTEX_FAULT_RETRY)						\
	S(wait_get_user,	waitwake, futex_wait_setup, EFAULT, 0)	\
	/* pi.c */							\
	S(pi_state_alloc,	pi, refill_pi_state_cache, ENOMEM, 0)	\
	S(attach_get_value,	pi, attach_to_pi_state, EFAULT,		\
	  FUTEX_FAULT_RETRY)						\
	S(exit_race_get_value,	pi, handle_exit_race, EFAULT,		\
	  FUTEX_FAULT_RETRY)						\
	S(lock_pi_update_cmpxchg, pi, lock_pi_update_atomic, EFAULT,	\
	  FUTEX_FAULT_RETRY)						\
	S(lock_pi_atomic_get_value, pi, futex_lock_pi_atomic, EFAULT,	\
	  FUTEX_FAULT_RETRY)						\
	S(lock_pi_atomic_deadlock, pi, futex_lock_pi_atomic, EDEADLK, 0) \
	S(wake_pi_cmpxchg,	pi, wake_futex_pi, EFAULT,		\
	  FUTEX_FAULT_RETRY)						\
	S(fixup_owner_get_value, pi, __fixup_pi_state_owner, EFAULT,	\
	  FUTEX_FAULT_RETRY)						\
	S(fixup_owner_cmpxchg,	pi, __fixup_pi_state_owner, EFAULT,	\
	  FUTEX_FAULT_RETRY)						\
	S(fixup_owner_fault_in,	pi, __fixup_pi_state_owner, EFAULT, 0)	\
	S(lock_pi_get_key,	pi, futex_lock_pi, EFAULT, 0)		\
	S(lock_pi_fault_in,	pi, futex_lock_pi, EFAULT, 0)		\
	S(unlock_pi_get_user,	pi, futex_unlock_pi, EFAULT, 0)		\
	S(unlock_pi_get_key,	pi, futex_unlock_pi, EFAULT, 0)		\
	S(unlock_pi_cmpxchg,	pi, futex_unlock_pi, EFAULT,		\
	  FUTEX_FAULT_RETRY)						\
	S(unlock_pi_fault_in,	pi, futex_unlock_pi, EFAULT, 0)		\
	/* requeue.c */							\
	S(proxy_trylock_get_value, requeue, futex_proxy_trylock_atomic, \
	  EFAULT, FUTEX_FAULT_RETRY)					\
	S(requeue_get_key1,	requeue, futex_requeue, EFAULT, 0)	\
	S(requeue_get_key2,	requeue, futex_requeue, EFAULT, 0)	\
	S(requeue_get_value,	requeue, futex_requeue, EFAULT,		\
	  FUTEX_FAULT_RETRY)						\
	S(requeue_get_user,	requeue, futex_requeue, EFAULT, 0)	\
	S(requeue_fault_in,	requeue, futex_requeue, EFAULT, 0)	\
	E(wait_requeue_pi_get_key2, requeue, futex_wait_requeue_pi,	\
	  EFAULT, 0)

#define FUTEX_FAULT_ENUM(name, file, func, err, flags) FUTEX_FAULT_##name,
enum futex_fault_site {
	FUTEX_FAULT_SITES(FUTEX_FAULT_ENUM, FUTEX_FAULT_ENUM)
	FUTEX_FAULT_NR
};
#undef FUTEX_FAULT_ENUM

#ifdef CONFIG_FAIL_FUTEX

extern struct static_key_false futex_fault_keys[FUTEX_FAULT_NR];

int __futex_fault(enum futex_fault_site site, const void __user *uaddr,
		  unsigned int line);

/*
 * futex_fault - Fail a futex fault site when it is enabled and the policy says so
 * @site: the site, a name from FUTEX_FAULT_SITES
 * @uaddr: the user address the site accesses, for the trace event
 *
 * A disabled site is a single NOP patched into the code.  Use it in front of
 * the access it stands for, so that the caller's own error handling runs:
 *
 *	ret = futex_fault(wait_get_value, uaddr) ?:
 *	      futex_get_value_locked(&uval, uaddr);
 *
 * Return: 0, or the site's negative errno when the fault is injected.
 */
#define futex_fault(site, uaddr)					\
	(static_branch_unlikely(&futex_fault_keys[FUTEX_FAULT_##site]) ? \
	 __futex_fault(FUTEX_FAULT_##site, (uaddr), __LINE__) : 0)

#else /* !CONFIG_FAIL_FUTEX */

#define futex_fault(site, uaddr)	({ (void)(uaddr); 0; })

#endif /* !CONFIG_FAIL_FUTEX */

#endif /* _FUTEX_FAULT_H */
