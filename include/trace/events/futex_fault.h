/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM futex_fault

#if !defined(_TRACE_FUTEX_FAULT_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_FUTEX_FAULT_H

#include <linux/futex.h>
#include <linux/tracepoint.h>

/*
 * An op of -1 (no futex() op) masks to FUTEX_CMD_MASK, which is no valid
 * command: print it as "none".
 */
#define show_futex_fault_cmd(cmd)					\
	__print_symbolic(cmd,						\
			 { FUTEX_CMD_MASK, "none" },			\
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

#define show_futex_fault_errno(err)					\
	__print_symbolic(err,						\
			 { EFAULT, "EFAULT" },				\
			 { EAGAIN, "EAGAIN" },				\
			 { EDEADLK, "EDEADLK" },			\
			 { ENOMEM, "ENOMEM" })

/**
 * futex_fault_inject - a futex fault site failed on purpose
 * @site:	the site's number, enum futex_fault_site in kernel/futex/fault.h
 * @name:	the site's name, as in /sys/kernel/debug/static_keys/futex_fault/
 * @err:	the negative errno the site returned; the event records it
 *		as a positive number, which tools decode reliably
 * @op:		the futex() op argument, or -1 outside the futex() system call
 *		(futex_waitv(), the robust list walk at exit, compat tasks)
 * @uaddr:	the user address the site was about to access
 * @caller:	the code address of the site
 *
 * This event occurs each time a futex fault site injects a failure.
 */
TRACE_EVENT(futex_fault_inject,
	    TP_PROTO(unsigned int site, const char *name, int err, int op,
		     const void __user *uaddr, unsigned long caller),
	    TP_ARGS(site, name, err, op, uaddr, caller),
	    TP_STRUCT__entry(__field(unsigned int, site)
			     __field(int, err)
			     __field(int, op)
			     __field(unsigned long, uaddr)
			     __field(unsigned long, caller)
			     __string(name, name)),
	    TP_fast_assign(__entry->site = site;
			   __entry->err = -err;
			   __entry->op = op;
			   __entry->uaddr = (unsigned long)uaddr;
			   __entry->caller = caller;
			   __assign_str(name, name);),
	    TP_printk("site=%s err=%s op=%s%s uaddr=0x%lx caller=%pS",
		      __get_str(name), show_futex_fault_errno(__entry->err),
		      show_futex_fault_cmd(__entry->op & FUTEX_CMD_MASK),
		      __entry->op >= 0 && (__entry->op & FUTEX_PRIVATE_FLAG) ?
		      "_PRIVATE" : "",
		      __entry->uaddr, (void *)__entry->caller));

#endif /* _TRACE_FUTEX_FAULT_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
