/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM futex_fault

#if !defined(_FUTEX_FAULT_TRACE_H) || defined(TRACE_HEADER_MULTI_READ)
#define _FUTEX_FAULT_TRACE_H

#include <linux/tracepoint.h>

#include "fault.h"

/* Site numbers differ between configurations: export the names */
#undef FUTEX_FAULT_SITE
#undef FUTEX_FAULT_LAST
#define FUTEX_FAULT_SITE(name, ...) \
	TRACE_DEFINE_ENUM(FUTEX_FAULT_##name);
#define FUTEX_FAULT_LAST FUTEX_FAULT_SITE

FUTEX_FAULT_SITES

#undef FUTEX_FAULT_SITE
#undef FUTEX_FAULT_LAST
#define FUTEX_FAULT_SITE(name, ...)	{ FUTEX_FAULT_##name, #name },
#define FUTEX_FAULT_LAST(name, ...)	{ FUTEX_FAULT_##name, #name }

/**
 * futex_fault_inject - a futex fault site failed on purpose
 * @site:	the site, printed by name
 * @err:	the negative errno the site returned; the event records it as
 *		a positive number
 * @shared:	false when the site knew the futex to be process private
 * @uaddr:	the user address the site stands for
 * @call_site:	the code address of the site
 *
 * Emitted each time an enabled futex fault site injects a failure.
 */
TRACE_EVENT(futex_fault_inject,
	    TP_PROTO(enum futex_fault_site site, int err, bool shared,
		     const void __user *uaddr, unsigned long call_site),
	    TP_ARGS(site, err, shared, uaddr, call_site),
	    TP_STRUCT__entry(__field(unsigned int, site)
			     __field(int, err)
			     __field(bool, shared)
			     __field(unsigned long, uaddr)
			     __field(unsigned long, call_site)),
	    TP_fast_assign(__entry->site = site;
			   __entry->err = -err;
			   __entry->shared = shared;
			   __entry->uaddr = (unsigned long)uaddr;
			   __entry->call_site = call_site;),
	    TP_printk("site=%s err=%s shared=%d uaddr=0x%lx call_site=%pS",
		      __print_symbolic(__entry->site, FUTEX_FAULT_SITES),
		      __print_symbolic(__entry->err,
				       { EFAULT, "EFAULT" },
				       { EAGAIN, "EAGAIN" },
				       { EDEADLK, "EDEADLK" },
				       { ENOMEM, "ENOMEM" }),
		      __entry->shared, __entry->uaddr,
		      (void *)__entry->call_site));

#undef FUTEX_FAULT_SITE
#undef FUTEX_FAULT_LAST

#endif /* _FUTEX_FAULT_TRACE_H */

/* This part must be outside protection */
#undef TRACE_INCLUDE_PATH
#define TRACE_INCLUDE_PATH .
#undef TRACE_INCLUDE_FILE
#define TRACE_INCLUDE_FILE fault_trace
#include <trace/define_trace.h>
