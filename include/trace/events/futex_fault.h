/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM futex_fault

#if !defined(_TRACE_FUTEX_FAULT_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_FUTEX_FAULT_H

#include <linux/futex.h>
#include <linux/tracepoint.h>

/*
 * The site list lives in kernel/futex/fault.h, the only user of this event.
 * Export the enum values so that user space can decode the site field, and
 * print the site by name.
 */
#ifndef FUTEX_FAULT_SITES
#error "include kernel/futex/fault.h before <trace/events/futex_fault.h>"
#endif

#define FUTEX_FAULT_TRACE_ENUM(name, file, func, err, flags)		\
	TRACE_DEFINE_ENUM(FUTEX_FAULT_##name);
FUTEX_FAULT_SITES(FUTEX_FAULT_TRACE_ENUM, FUTEX_FAULT_TRACE_ENUM)
#undef FUTEX_FAULT_TRACE_ENUM

#define FUTEX_FAULT_TRACE_SYMBOL(name, file, func, err, flags)		\
	{ FUTEX_FAULT_##name, #name },
#define FUTEX_FAULT_TRACE_SYMBOL_END(name, file, func, err, flags)	\
	{ FUTEX_FAULT_##name, #name }

#define show_futex_fault_site(site)					\
	__print_symbolic(site,						\
			 FUTEX_FAULT_SITES(FUTEX_FAULT_TRACE_SYMBOL,	\
					   FUTEX_FAULT_TRACE_SYMBOL_END))

#define show_futex_fault_errno(err)					\
	__print_symbolic(-(err),					\
			 { EFAULT, "EFAULT" },				\
			 { EAGAIN, "EAGAIN" },				\
			 { EDEADLK, "EDEADLK" },			\
			 { ENOMEM, "ENOMEM" })

#define show_futex_fault_op(op)						\
	__print_symbolic((op) < 0 ? -1 : (op) & FUTEX_CMD_MASK,		\
			 { -1, "none" },				\
			 { FUTEX_WAIT, "WAIT" },			\
			 { FUTEX_WAKE, "WAKE" },			\
			 { FUTEX_FD, "FD" },				\
			 { FUTEX_REQUEUE, "REQUEUE" },			\
			 { FUTEX_CMP_REQUEUE, "CMP_REQUEUE" },		\
			 { FUTEX_WAKE_OP, "WAKE_OP" },			\
			 { FUTEX_LOCK_PI, "LOCK_PI" },			\
			 { FUTEX_UNLOCK_PI, "UNLOCK_PI" },		\
			 { FUTEX_TRYLOCK_PI, "TRYLOCK_PI" },		\
			 { FUTEX_WAIT_BITSET, "WAIT_BITSET" },		\
			 { FUTEX_WAKE_BITSET, "WAKE_BITSET" },		\
			 { FUTEX_WAIT_REQUEUE_PI, "WAIT_REQUEUE_PI" },	\
			 { FUTEX_CMP_REQUEUE_PI, "CMP_REQUEUE_PI" },	\
			 { FUTEX_LOCK_PI2, "LOCK_PI2" })

/**
 * futex_fault_inject - a futex fault site failed on purpose
 * @site: the site, enum futex_fault_site
 * @err: the negative errno the site returned
 * @op: the futex() op argument, or -1 outside the futex() system call
 *      (futex_waitv(), the robust list walk at exit, compat tasks)
 * @uaddr: the user address the site was about to access
 * @caller: the code address of the site
 */
TRACE_EVENT(futex_fault_inject,

	TP_PROTO(unsigned int site, int err, int op, const void __user *uaddr,
		 unsigned long caller),

	TP_ARGS(site, err, op, uaddr, caller),

	TP_STRUCT__entry(
		__field(unsigned int,	site)
		__field(int,		err)
		__field(int,		op)
		__field(unsigned long,	uaddr)
		__field(unsigned long,	caller)
	),

	TP_fast_assign(
		__entry->site	= site;
		__entry->err	= err;
		__entry->op	= op;
		__entry->uaddr	= (unsigned long)uaddr;
		__entry->caller	= caller;
	),

	TP_printk("site=%s err=%s op=%s%s uaddr=0x%lx caller=%pS",
		  show_futex_fault_site(__entry->site),
		  show_futex_fault_errno(__entry->err),
		  show_futex_fault_op(__entry->op),
		  __entry->op >= 0 && (__entry->op & FUTEX_PRIVATE_FLAG) ?
		  "_PRIVATE" : "",
		  __entry->uaddr, (void *)__entry->caller)
);

#endif /* _TRACE_FUTEX_FAULT_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
