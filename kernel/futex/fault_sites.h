/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _FUTEX_FAULT_SITES_H
#define _FUTEX_FAULT_SITES_H

/*
 * The futex fault sites, one FUTEX_FAULT_SITE(name, errno, flags) each;
 * the last one is FUTEX_FAULT_LAST() so that a user can build a list
 * without a trailing comma.  Define both before using the list, as
 * include/trace/events/error_report.h does with its EM() and EMe().
 *
 *   name:  the site's name, used in the code as futex_fault(name, ...),
 *          and as the name of its debugfs file.  It stays the same when
 *          the code around the site moves.
 *   errno: what the site returns when it fails: the error the access it
 *          stands for returns there, so that the recovery that runs is
 *          the real one.
 *   flags: FUTEX_FAULT_DEFAULT for the sites enabled at boot: the nine
 *          injection points fail_futex had before the sites existed.
 *
 * Every site name appears in exactly one place in the code.
 */
#define FUTEX_FAULT_SITES						\
	/* core.c */							\
	FUTEX_FAULT_SITE(get_key_access, EFAULT, FUTEX_FAULT_DEFAULT)	\
	FUTEX_FAULT_SITE(get_key_gup, EFAULT, FUTEX_FAULT_DEFAULT)	\
	FUTEX_FAULT_SITE(get_key_anon_ro, EFAULT, FUTEX_FAULT_DEFAULT)	\
	/* syscalls.c */						\
	FUTEX_FAULT_SITE(futex_get_timeout, EFAULT, FUTEX_FAULT_DEFAULT) \
	/* pi.c */							\
	FUTEX_FAULT_SITE(lock_pi_update_cmpxchg, EFAULT,		\
			 FUTEX_FAULT_DEFAULT)				\
	FUTEX_FAULT_SITE(lock_pi_atomic_get_value, EFAULT,		\
			 FUTEX_FAULT_DEFAULT)				\
	FUTEX_FAULT_SITE(lock_pi_atomic_deadlock, EDEADLK,		\
			 FUTEX_FAULT_DEFAULT)				\
	FUTEX_FAULT_SITE(wake_pi_cmpxchg, EFAULT, FUTEX_FAULT_DEFAULT)	\
	/* requeue.c */							\
	FUTEX_FAULT_LAST(proxy_trylock_get_value, EFAULT,		\
			 FUTEX_FAULT_DEFAULT)

#endif /* _FUTEX_FAULT_SITES_H */
