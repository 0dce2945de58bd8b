/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cases of futex_fault.c: one FF_CASE(site, flags, driver, fields...)
 * for each futex fault site, in the order of kernel/futex/fault_sites.h.
 * This file has no include guard: futex_fault.c includes it once for the
 * enum of the cases and once for their table, as kernel/sched/features.h
 * is used.
 *
 *   site:   the site's name, as the kernel's site table prints it.
 *   flags:  those of the site in fault_sites.h (FF_DEFAULT: enabled at
 *           boot, FF_RETRY: the site's failure is recovered by a retry
 *           loop), and FF_IF_COMPAT, FF_IF_COMPAT_32BIT_TIME for the sites
 *           that only some configurations have.
 *   driver: the futex operation that reaches the site, see futex_fault.c.
 *
 * Then the fields of struct ff_case:
 *
 *   .first:    a site that must fail before the site under test is reached.
 *   .recovery: for a retry site, where the recovery shows: the fault-in or
 *              get_user site that follows the failed access, or the site
 *              itself for the -EAGAIN sites, whose operation is retried.
 *   .func:     the function the event's call_site names: the one holding
 *              the site, then the callers it may be inlined into.
 *   .shared:   the event's shared field: 0 when the site knows that the
 *              driver's futex is private.
 *   .faulted:  what the driver reports with the fault injected, and
 *   .normal:   without; a retry site recovers, so both are the same.
 */

/* core.c: futex keys */
FF_CASE(get_key_access, FF_DEFAULT, drive_wait,
	.func = "get_futex_key",
	.faulted = { -EFAULT }, .normal = { -EAGAIN })
/* A FUTEX_WRITE key has no read-only fallback */
FF_CASE(get_key_gup, FF_DEFAULT, drive_lock_pi_shared,
	.func = "get_futex_key", .shared = 1,
	.faulted = { -EFAULT }, .normal = { 0, 1 })
FF_CASE(get_key_anon_ro, FF_DEFAULT, drive_wait_shared,
	.func = "get_futex_key", .shared = 1,
	.faulted = { -EFAULT }, .normal = { -EAGAIN })
FF_CASE(get_key_gup_ro, 0, drive_wait_shmem,
	.first = "get_key_gup", .func = "get_futex_key", .shared = 1,
	.faulted = { -EFAULT }, .normal = { -EAGAIN })

/*
 * core.c: the robust list walks at exit.  A fault ends the walk: the futexes
 * it did not reach keep the owner's TID, without FUTEX_OWNER_DIED.  The
 * entry whose next pointer could not be read is still handled.
 */
FF_CASE(death_get_value, 0, drive_robust_exit,
	.func = "handle_futex_death exit_robust_list", .shared = 1,
	.faulted = { 0 }, .normal = { 0, 3 })
FF_CASE(death_cmpxchg, FF_RETRY, drive_robust_exit,
	.recovery = "death_fault_in",
	.func = "handle_futex_death exit_robust_list", .shared = 1,
	.faulted = { 0, 3 }, .normal = { 0, 3 })
FF_CASE(death_cmpxchg_eagain, FF_RETRY, drive_robust_exit,
	.recovery = "death_cmpxchg_eagain",
	.func = "handle_futex_death exit_robust_list", .shared = 1,
	.faulted = { 0, 3 }, .normal = { 0, 3 })
FF_CASE(death_fault_in, 0, drive_robust_exit,
	.first = "death_cmpxchg",
	.func = "handle_futex_death exit_robust_list", .shared = 1,
	.faulted = { 0 }, .normal = { 0, 3 })
FF_CASE(robust_fetch_head, 0, drive_robust_exit,
	.func = "exit_robust_list futex_cleanup", .shared = 1,
	.faulted = { 0 }, .normal = { 0, 3 })
FF_CASE(robust_get_offset, 0, drive_robust_exit,
	.func = "exit_robust_list futex_cleanup", .shared = 1,
	.faulted = { 0 }, .normal = { 0, 3 })
FF_CASE(robust_fetch_pending, 0, drive_robust_exit,
	.func = "exit_robust_list futex_cleanup", .shared = 1,
	.faulted = { 0 }, .normal = { 0, 3 })
FF_CASE(robust_fetch_next, 0, drive_robust_exit,
	.func = "exit_robust_list futex_cleanup", .shared = 1,
	.faulted = { 0, 1 }, .normal = { 0, 3 })
FF_CASE(compat_robust_fetch_head, FF_IF_COMPAT, drive_compat_robust_exit,
	.func = "compat_exit_robust_list futex_cleanup", .shared = 1,
	.faulted = { 0 }, .normal = { 0, 3 })
FF_CASE(compat_robust_get_offset, FF_IF_COMPAT, drive_compat_robust_exit,
	.func = "compat_exit_robust_list futex_cleanup", .shared = 1,
	.faulted = { 0 }, .normal = { 0, 3 })
FF_CASE(compat_robust_fetch_pending, FF_IF_COMPAT, drive_compat_robust_exit,
	.func = "compat_exit_robust_list futex_cleanup", .shared = 1,
	.faulted = { 0 }, .normal = { 0, 3 })
FF_CASE(compat_robust_fetch_next, FF_IF_COMPAT, drive_compat_robust_exit,
	.func = "compat_exit_robust_list futex_cleanup", .shared = 1,
	.faulted = { 0, 1 }, .normal = { 0, 3 })

/* syscalls.c */
FF_CASE(futex_get_timeout, FF_DEFAULT, drive_wait_timeout,
	.func = "*sys_futex",
	.faulted = { -EFAULT }, .normal = { -EAGAIN })
FF_CASE(get_robust_list_len, 0, drive_get_robust_list,
	.func = "*sys_get_robust_list", .shared = 1,
	.faulted = { -EFAULT }, .normal = { 0, 3 })
FF_CASE(get_robust_list_head, 0, drive_get_robust_list,
	.func = "*sys_get_robust_list", .shared = 1,
	.faulted = { -EFAULT, 1 }, .normal = { 0, 3 })
FF_CASE(waitv_copy, 0, drive_waitv,
	.func = "futex_parse_waitv *sys_futex_waitv", .shared = 1,
	.faulted = { -EFAULT }, .normal = { -EAGAIN })
FF_CASE(waitv_get_timeout, 0, drive_waitv,
	.func = "futex2_setup_timeout *sys_futex_waitv", .shared = 1,
	.faulted = { -EFAULT }, .normal = { -EAGAIN })
FF_CASE(waitv_alloc, 0, drive_waitv,
	.func = "*sys_futex_waitv", .shared = 1,
	.faulted = { -ENOMEM }, .normal = { -EAGAIN })
FF_CASE(compat_get_robust_list_len, FF_IF_COMPAT, drive_compat_get_robust_list,
	.func = "*compat_sys_get_robust_list", .shared = 1,
	.faulted = { -EFAULT }, .normal = { 0, 3 })
FF_CASE(compat_get_robust_list_head, FF_IF_COMPAT, drive_compat_get_robust_list,
	.func = "*compat_sys_get_robust_list", .shared = 1,
	.faulted = { -EFAULT, 1 }, .normal = { 0, 3 })
FF_CASE(futex_time32_get_timeout, FF_IF_COMPAT_32BIT_TIME, drive_compat_futex_time32,
	.func = "*sys_futex_time32",
	.faulted = { -EFAULT }, .normal = { -EAGAIN })

/* waitwake.c */
FF_CASE(wake_get_key, 0, drive_wake,
	.func = "futex_wake",
	.faulted = { -EFAULT }, .normal = { 0 })
FF_CASE(wake_op_get_key1, 0, drive_wake_op,
	.func = "futex_wake_op",
	.faulted = { -EFAULT }, .normal = { 0, 1 })
FF_CASE(wake_op_get_key2, 0, drive_wake_op,
	.func = "futex_wake_op",
	.faulted = { -EFAULT }, .normal = { 0, 1 })
FF_CASE(wake_op_atomic, FF_RETRY, drive_wake_op,
	.recovery = "wake_op_fault_in", .func = "futex_wake_op",
	.faulted = { 0, 1 }, .normal = { 0, 1 })
FF_CASE(wake_op_atomic_eagain, FF_RETRY, drive_wake_op,
	.recovery = "wake_op_atomic_eagain", .func = "futex_wake_op",
	.faulted = { 0, 1 }, .normal = { 0, 1 })
FF_CASE(wake_op_fault_in, 0, drive_wake_op,
	.first = "wake_op_atomic", .func = "futex_wake_op",
	.faulted = { -EFAULT }, .normal = { 0, 1 })
FF_CASE(waitv_get_key, 0, drive_waitv,
	.func = "futex_wait_multiple_setup futex_wait_multiple",
	.faulted = { -EFAULT }, .normal = { -EAGAIN })
FF_CASE(waitv_get_value, FF_RETRY, drive_waitv,
	.recovery = "waitv_get_user",
	.func = "futex_wait_multiple_setup futex_wait_multiple",
	.faulted = { -EAGAIN }, .normal = { -EAGAIN })
FF_CASE(waitv_get_user, 0, drive_waitv,
	.first = "waitv_get_value",
	.func = "futex_wait_multiple_setup futex_wait_multiple",
	.faulted = { -EFAULT }, .normal = { -EAGAIN })
FF_CASE(wait_get_key, 0, drive_wait,
	.func = "futex_wait_setup",
	.faulted = { -EFAULT }, .normal = { -EAGAIN })
FF_CASE(wait_get_value, FF_RETRY, drive_wait,
	.recovery = "wait_get_user", .func = "futex_wait_setup",
	.faulted = { -EAGAIN }, .normal = { -EAGAIN })
FF_CASE(wait_get_user, 0, drive_wait,
	.first = "wait_get_value", .func = "futex_wait_setup",
	.faulted = { -EFAULT }, .normal = { -EAGAIN })

/*
 * pi.c.  When the fixup of an owner-died futex gives up, the caller holds
 * the lock but the futex still names the dead owner.
 */
FF_CASE(lock_pi_update_cmpxchg, FF_DEFAULT | FF_RETRY, drive_lock_pi2,
	.recovery = "lock_pi_fault_in",
	.func = "lock_pi_update_atomic futex_lock_pi_atomic", .shared = 1,
	.faulted = { 0, 1 }, .normal = { 0, 1 })
FF_CASE(lock_pi_atomic_get_value, FF_DEFAULT | FF_RETRY, drive_lock_pi,
	.recovery = "lock_pi_fault_in", .func = "futex_lock_pi_atomic", .shared = 1,
	.faulted = { 0, 1 }, .normal = { 0, 1 })
FF_CASE(lock_pi_atomic_deadlock, FF_DEFAULT, drive_lock_pi,
	.func = "futex_lock_pi_atomic", .shared = 1,
	.faulted = { -EDEADLK }, .normal = { 0, 1 })
FF_CASE(wake_pi_cmpxchg, FF_DEFAULT | FF_RETRY, drive_unlock_pi_handoff,
	.recovery = "unlock_pi_fault_in", .func = "wake_futex_pi futex_unlock_pi",
	.shared = 1, .faulted = { 0, 1 }, .normal = { 0, 1 })
FF_CASE(pi_state_alloc, 0, drive_lock_pi,
	.func = "refill_pi_state_cache", .shared = 1,
	.faulted = { -ENOMEM }, .normal = { 0, 1 })
FF_CASE(attach_get_value, FF_RETRY, drive_trylock_pi_contended,
	.recovery = "lock_pi_fault_in",
	.func = "attach_to_pi_state futex_lock_pi_atomic", .shared = 1,
	.faulted = { -EAGAIN, 1 }, .normal = { -EAGAIN, 1 })
FF_CASE(exit_race_get_value, FF_RETRY, drive_lock_pi_dead_owner,
	.recovery = "lock_pi_fault_in",
	.func = "handle_exit_race attach_to_pi_owner futex_lock_pi_atomic", .shared = 1,
	.faulted = { -ESRCH }, .normal = { -ESRCH })
FF_CASE(lock_pi_update_cmpxchg_eagain, FF_RETRY, drive_lock_pi2,
	.recovery = "lock_pi_update_cmpxchg_eagain",
	.func = "lock_pi_update_atomic futex_lock_pi_atomic", .shared = 1,
	.faulted = { 0, 1 }, .normal = { 0, 1 })
FF_CASE(wake_pi_cmpxchg_eagain, FF_RETRY, drive_unlock_pi_handoff,
	.recovery = "wake_pi_cmpxchg_eagain", .func = "wake_futex_pi futex_unlock_pi",
	.shared = 1, .faulted = { 0, 1 }, .normal = { 0, 1 })
FF_CASE(fixup_owner_get_value, FF_RETRY, drive_lock_pi_owner_died,
	.recovery = "fixup_owner_fault_in",
	.func = "__fixup_pi_state_owner fixup_pi_state_owner fixup_pi_owner", .shared = 1,
	.faulted = { 0, 1 }, .normal = { 0, 1 })
FF_CASE(fixup_owner_cmpxchg, FF_RETRY, drive_lock_pi_owner_died,
	.recovery = "fixup_owner_fault_in",
	.func = "__fixup_pi_state_owner fixup_pi_state_owner fixup_pi_owner", .shared = 1,
	.faulted = { 0, 1 }, .normal = { 0, 1 })
FF_CASE(fixup_owner_cmpxchg_eagain, FF_RETRY, drive_lock_pi_owner_died,
	.recovery = "fixup_owner_cmpxchg_eagain",
	.func = "__fixup_pi_state_owner fixup_pi_state_owner fixup_pi_owner", .shared = 1,
	.faulted = { 0, 1 }, .normal = { 0, 1 })
FF_CASE(fixup_owner_fault_in, 0, drive_lock_pi_owner_died,
	.first = "fixup_owner_get_value",
	.func = "__fixup_pi_state_owner fixup_pi_state_owner fixup_pi_owner", .shared = 1,
	.faulted = { -EFAULT }, .normal = { 0, 1 })
FF_CASE(lock_pi_get_key, 0, drive_lock_pi,
	.func = "futex_lock_pi",
	.faulted = { -EFAULT }, .normal = { 0, 1 })
FF_CASE(lock_pi_fault_in, 0, drive_lock_pi,
	.first = "lock_pi_atomic_get_value", .func = "futex_lock_pi",
	.faulted = { -EFAULT }, .normal = { 0, 1 })
FF_CASE(unlock_pi_get_user, 0, drive_unlock_pi,
	.func = "futex_unlock_pi",
	.faulted = { -EFAULT, 1 }, .normal = { 0 })
FF_CASE(unlock_pi_get_key, 0, drive_unlock_pi,
	.func = "futex_unlock_pi",
	.faulted = { -EFAULT, 1 }, .normal = { 0 })
FF_CASE(unlock_pi_cmpxchg, FF_RETRY, drive_unlock_pi,
	.recovery = "unlock_pi_fault_in", .func = "futex_unlock_pi",
	.faulted = { 0 }, .normal = { 0 })
FF_CASE(unlock_pi_cmpxchg_eagain, FF_RETRY, drive_unlock_pi,
	.recovery = "unlock_pi_cmpxchg_eagain", .func = "futex_unlock_pi",
	.faulted = { 0 }, .normal = { 0 })
FF_CASE(unlock_pi_fault_in, 0, drive_unlock_pi,
	.first = "unlock_pi_cmpxchg", .func = "futex_unlock_pi",
	.faulted = { -EFAULT, 1 }, .normal = { 0 })

/* requeue.c */
FF_CASE(proxy_trylock_get_value, FF_DEFAULT | FF_RETRY, drive_cmp_requeue_pi,
	.recovery = "requeue_fault_in",
	.func = "futex_proxy_trylock_atomic futex_requeue", .shared = 1,
	.faulted = { 0 }, .normal = { 0 })
FF_CASE(requeue_get_key1, 0, drive_cmp_requeue,
	.func = "futex_requeue",
	.faulted = { -EFAULT }, .normal = { 0 })
FF_CASE(requeue_get_key2, 0, drive_cmp_requeue,
	.func = "futex_requeue",
	.faulted = { -EFAULT }, .normal = { 0 })
FF_CASE(requeue_get_value, FF_RETRY, drive_cmp_requeue,
	.recovery = "requeue_get_user", .func = "futex_requeue",
	.faulted = { 0 }, .normal = { 0 })
FF_CASE(requeue_get_user, 0, drive_cmp_requeue,
	.first = "requeue_get_value", .func = "futex_requeue",
	.faulted = { -EFAULT }, .normal = { 0 })
FF_CASE(requeue_fault_in, 0, drive_cmp_requeue_pi,
	.first = "proxy_trylock_get_value", .func = "futex_requeue",
	.faulted = { -EFAULT }, .normal = { 0 })
FF_CASE(wait_requeue_pi_get_key2, 0, drive_wait_requeue_pi,
	.func = "futex_wait_requeue_pi",
	.faulted = { -EFAULT }, .normal = { -EAGAIN })
