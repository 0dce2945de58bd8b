/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The system call numbers the reporter reads in raw_syscalls events, as
 * arch/x86/entry/syscalls/syscall_64.tbl and syscall_32.tbl give them
 * (ABI: never renumbered).  The guests are x86_64; a compat task's
 * numbers are i386's, and sys_enter does not say which table a number is
 * from, so the i386 futex numbers count as futex too (240 and 422 are no
 * x86_64 system call a workload of ours makes).  On 6.1 the futex2
 * numbers are no system call at all (ENOSYS).
 */
#ifndef FFR_X86_SYSCALLS_H
#define FFR_X86_SYSCALLS_H

/*
 * The numbers marked "traced" are the futex system calls a campaign
 * records raw_syscalls events of, and io_uring_enter (426 on i386 too),
 * whose futex operations (6.7+) reach the same code.  scripts/guest/campaign
 * builds its trace-cmd filter from those lines, so this is their only list.
 */
#define X86_64_NR_EXIT			60
#define X86_64_NR_FUTEX			202	/* traced */
#define X86_64_NR_EXIT_GROUP		231
#define X86_64_NR_SET_ROBUST_LIST	273	/* traced */
#define X86_64_NR_GET_ROBUST_LIST	274	/* traced */
#define X86_64_NR_IO_URING_ENTER	426	/* traced */
#define X86_64_NR_FUTEX_WAITV		449	/* traced */
/* futex2 (6.7+); i386 has the same numbers, as it has for futex_waitv */
#define X86_64_NR_FUTEX_WAKE		454	/* traced */
#define X86_64_NR_FUTEX_WAIT		455	/* traced */
#define X86_64_NR_FUTEX_REQUEUE		456	/* traced */
#define I386_NR_FUTEX			240	/* traced */
#define I386_NR_SET_ROBUST_LIST		311	/* traced */
#define I386_NR_GET_ROBUST_LIST		312	/* traced */
#define I386_NR_FUTEX_TIME64		422	/* traced */

#endif /* FFR_X86_SYSCALLS_H */
