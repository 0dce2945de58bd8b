/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _FUTEX_FAULT_H
#define _FUTEX_FAULT_H

#include <linux/compiler.h>
#include <linux/jump_label.h>

/*
 * Futex fault sites: every place in kernel/futex/ that touches user memory
 * or can otherwise fail, each behind its own static key.  fault_sites.h is
 * the only place a site is named; the enum, the static keys, the debugfs
 * files and the site table are derived from it.  Each line is
 *
 * FUTEX_FAULT_SITE(name, file, function, errno, flags)
 *
 *   name:     stable identifier, also the debugfs file name.  Never a line
 *             number: sites keep their names when the code moves.
 *   file:     kernel/futex/<file>.c holding the site.
 *   function: the function holding the site.
 *   errno:    what the site fails with: the error the real access returns
 *             there, so the existing recovery code is what runs.
 *   flags:    FUTEX_FAULT_RETRY when the caller handles the failure by
 *             faulting the page in and retrying; see __futex_fault().
 */
#define FUTEX_FAULT_RETRY	1

enum futex_fault_site {
#define FUTEX_FAULT_SITE(name, file, func, err, flags) FUTEX_FAULT_##name,
#include "fault_sites.h"
#undef FUTEX_FAULT_SITE
	FUTEX_FAULT_NR
};

#ifdef CONFIG_FAIL_FUTEX

extern struct static_key_false futex_fault_keys[FUTEX_FAULT_NR];

int __futex_fault(enum futex_fault_site site, const void __user *uaddr,
		  unsigned int line);

/*
 * futex_fault - Fail a futex fault site when it is enabled and the policy says so
 * @site: the site, a name from fault_sites.h
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
