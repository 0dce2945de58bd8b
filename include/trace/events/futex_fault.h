/* SPDX-License-Identifier: GPL-2.0 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM futex_fault

#if !defined(_TRACE_FUTEX_FAULT_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_FUTEX_FAULT_H

#include <linux/futex.h>
#include <linux/tracepoint.h>

/*
 * The command of the futex() op, or FUTEX_FAULT_NO_CMD outside futex().
 * Tools cannot evaluate FUTEX_CMD_MASK or a sign test on the op, so the
 * event records the command and the private flag in fields of their own.
 */
#define FUTEX_FAULT_NO_CMD	0xff

#define show_futex_fault_cmd(cmd)					\
	__print_symbolic(cmd,						\
			 { FUTEX_FAULT_NO_CMD, "none" },		\
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
			     __field(u8, cmd)
			     __field(u8, private)
			     __field(unsigned long, uaddr)
			     __field(unsigned long, caller)
			     __string(name, name)),
	    TP_fast_assign(__entry->site = site;
			   __entry->err = -err;
			   __entry->op = op;
			   __entry->cmd = op < 0 ? FUTEX_FAULT_NO_CMD :
						   op & FUTEX_CMD_MASK;
			   __entry->private = op >= 0 &&
					      (op & FUTEX_PRIVATE_FLAG);
			   __entry->uaddr = (unsigned long)uaddr;
			   __entry->caller = caller;
			   __assign_str(name, name);),
	    TP_printk("site=%s err=%s op=%s%s uaddr=0x%lx caller=%pS",
		      __get_str(name), show_futex_fault_errno(__entry->err),
		      show_futex_fault_cmd(__entry->cmd),
		      __entry->private ? "_PRIVATE" : "",
		      __entry->uaddr, (void *)__entry->caller));

#endif /* _TRACE_FUTEX_FAULT_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
