/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _FUTEX_FAULT_H
#define _FUTEX_FAULT_H

#include <linux/compiler.h>
#include <linux/jump_label.h>
#include <linux/types.h>

/*
 * Futex fault sites: the places in kernel/futex/ that can be made to fail
 * on purpose, each behind a static key of its own.  fault_sites.h lists
 * them; the enum, the keys, the debugfs files and the trace event's site
 * names are all made from that list.
 */

/* Flags of a site, the third argument of its FUTEX_FAULT_SITE() */
#define FUTEX_FAULT_DEFAULT	0x01	/* enabled at boot */

#include "fault_sites.h"

#define FUTEX_FAULT_SITE(name, ...)	FUTEX_FAULT_##name,
#define FUTEX_FAULT_LAST(name, ...)	FUTEX_FAULT_##name,

enum futex_fault_site {
	FUTEX_FAULT_SITES
	FUTEX_FAULT_NR
};

#undef FUTEX_FAULT_SITE
#undef FUTEX_FAULT_LAST

#ifdef CONFIG_FAIL_FUTEX

extern struct static_key_false futex_fault_keys[FUTEX_FAULT_NR];

int __cold __futex_fault(enum futex_fault_site site, const void __user *uaddr,
			 bool shared);

/**
 * futex_fault - Fail a fault site if it is enabled and fail_futex says so
 * @site:	the site, a name from fault_sites.h
 * @uaddr:	the user address the site stands for
 * @shared:	false if the futex is known to be process private; the
 *		fail_futex/ignore-private knob exempts those
 *
 * Put it in front of the access or call it stands for, so that the
 * caller's own error handling runs when it fails:
 *
 *	ret = futex_fault(wait_get_value, uaddr, flags & FLAGS_SHARED) ?:
 *	      futex_get_value_locked(&uval, uaddr);
 *
 * While the site is disabled this is a no-op instruction that the static
 * key patches; the call to __futex_fault() is out of line.
 *
 * Return: 0, or the site's negative errno when the fault is injected.
 */
#define futex_fault(site, uaddr, shared)				\
	(static_branch_unlikely(&futex_fault_keys[FUTEX_FAULT_##site]) ?	\
	 __futex_fault(FUTEX_FAULT_##site, (uaddr), (shared)) : 0)

#else /* !CONFIG_FAIL_FUTEX */

#define futex_fault(site, uaddr, shared)				\
	({ (void)FUTEX_FAULT_##site; (void)(uaddr); (void)(shared); 0; })

#endif /* !CONFIG_FAIL_FUTEX */

#endif /* _FUTEX_FAULT_H */
