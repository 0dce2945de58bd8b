/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The futex fault sites, one line each (see fault.h):
 *
 * FUTEX_FAULT_SITE(name, file, function, errno, flags)
 *
 * No include guard: included once per use, with FUTEX_FAULT_SITE() defined
 * to what that use needs.
 */

/* core.c: futex keys */
FUTEX_FAULT_SITE(get_key_access, core, get_futex_key, EFAULT, 0)
FUTEX_FAULT_SITE(get_key_gup, core, get_futex_key, EFAULT, 0)
FUTEX_FAULT_SITE(get_key_anon_ro, core, get_futex_key, EFAULT, 0)

/* core.c: robust futexes of an exiting task */
FUTEX_FAULT_SITE(death_get_value, core, handle_futex_death, EFAULT, 0)
FUTEX_FAULT_SITE(death_cmpxchg, core, handle_futex_death,
		 EFAULT, FUTEX_FAULT_RETRY)
FUTEX_FAULT_SITE(death_fault_in, core, handle_futex_death, EFAULT, 0)
FUTEX_FAULT_SITE(robust_fetch_head, core, exit_robust_list, EFAULT, 0)
FUTEX_FAULT_SITE(robust_get_offset, core, exit_robust_list, EFAULT, 0)
FUTEX_FAULT_SITE(robust_fetch_pending, core, exit_robust_list, EFAULT, 0)
FUTEX_FAULT_SITE(robust_fetch_next, core, exit_robust_list, EFAULT, 0)
FUTEX_FAULT_SITE(compat_robust_fetch_head, core, compat_exit_robust_list,
		 EFAULT, 0)
FUTEX_FAULT_SITE(compat_robust_get_offset, core, compat_exit_robust_list,
		 EFAULT, 0)
FUTEX_FAULT_SITE(compat_robust_fetch_pending, core, compat_exit_robust_list,
		 EFAULT, 0)
FUTEX_FAULT_SITE(compat_robust_fetch_next, core, compat_exit_robust_list,
		 EFAULT, 0)

/* syscalls.c */
FUTEX_FAULT_SITE(get_robust_list_len, syscalls, get_robust_list, EFAULT, 0)
FUTEX_FAULT_SITE(get_robust_list_head, syscalls, get_robust_list, EFAULT, 0)
FUTEX_FAULT_SITE(futex_get_timeout, syscalls, futex, EFAULT, 0)
FUTEX_FAULT_SITE(waitv_copy, syscalls, futex_parse_waitv, EFAULT, 0)
FUTEX_FAULT_SITE(waitv_get_timeout, syscalls, futex_waitv, EFAULT, 0)
FUTEX_FAULT_SITE(waitv_alloc, syscalls, futex_waitv, ENOMEM, 0)
FUTEX_FAULT_SITE(compat_get_robust_list_len, syscalls, compat_get_robust_list,
		 EFAULT, 0)
FUTEX_FAULT_SITE(compat_get_robust_list_head, syscalls, compat_get_robust_list,
		 EFAULT, 0)
FUTEX_FAULT_SITE(futex_time32_get_timeout, syscalls, futex_time32, EFAULT, 0)

/* waitwake.c */
FUTEX_FAULT_SITE(wake_get_key, waitwake, futex_wake, EFAULT, 0)
FUTEX_FAULT_SITE(wake_op_get_key1, waitwake, futex_wake_op, EFAULT, 0)
FUTEX_FAULT_SITE(wake_op_get_key2, waitwake, futex_wake_op, EFAULT, 0)
FUTEX_FAULT_SITE(wake_op_atomic, waitwake, futex_wake_op,
		 EFAULT, FUTEX_FAULT_RETRY)
FUTEX_FAULT_SITE(wake_op_fault_in, waitwake, futex_wake_op, EFAULT, 0)
FUTEX_FAULT_SITE(waitv_get_key, waitwake, futex_wait_multiple_setup, EFAULT, 0)
FUTEX_FAULT_SITE(waitv_get_value, waitwake, futex_wait_multiple_setup,
		 EFAULT, FUTEX_FAULT_RETRY)
FUTEX_FAULT_SITE(waitv_get_user, waitwake, futex_wait_multiple_setup, EFAULT, 0)
FUTEX_FAULT_SITE(wait_get_key, waitwake, futex_wait_setup, EFAULT, 0)
FUTEX_FAULT_SITE(wait_get_value, waitwake, futex_wait_setup,
		 EFAULT, FUTEX_FAULT_RETRY)
FUTEX_FAULT_SITE(wait_get_user, waitwake, futex_wait_setup, EFAULT, 0)

/* pi.c */
FUTEX_FAULT_SITE(pi_state_alloc, pi, refill_pi_state_cache, ENOMEM, 0)
FUTEX_FAULT_SITE(attach_get_value, pi, attach_to_pi_state,
		 EFAULT, FUTEX_FAULT_RETRY)
FUTEX_FAULT_SITE(exit_race_get_value, pi, handle_exit_race,
		 EFAULT, FUTEX_FAULT_RETRY)
FUTEX_FAULT_SITE(lock_pi_update_cmpxchg, pi, lock_pi_update_atomic,
		 EFAULT, FUTEX_FAULT_RETRY)
FUTEX_FAULT_SITE(lock_pi_atomic_get_value, pi, futex_lock_pi_atomic,
		 EFAULT, FUTEX_FAULT_RETRY)
FUTEX_FAULT_SITE(lock_pi_atomic_deadlock, pi, futex_lock_pi_atomic, EDEADLK, 0)
FUTEX_FAULT_SITE(wake_pi_cmpxchg, pi, wake_futex_pi, EFAULT, FUTEX_FAULT_RETRY)
FUTEX_FAULT_SITE(fixup_owner_get_value, pi, __fixup_pi_state_owner,
		 EFAULT, FUTEX_FAULT_RETRY)
FUTEX_FAULT_SITE(fixup_owner_cmpxchg, pi, __fixup_pi_state_owner,
		 EFAULT, FUTEX_FAULT_RETRY)
FUTEX_FAULT_SITE(fixup_owner_fault_in, pi, __fixup_pi_state_owner, EFAULT, 0)
FUTEX_FAULT_SITE(lock_pi_get_key, pi, futex_lock_pi, EFAULT, 0)
FUTEX_FAULT_SITE(lock_pi_fault_in, pi, futex_lock_pi, EFAULT, 0)
FUTEX_FAULT_SITE(unlock_pi_get_user, pi, futex_unlock_pi, EFAULT, 0)
FUTEX_FAULT_SITE(unlock_pi_get_key, pi, futex_unlock_pi, EFAULT, 0)
FUTEX_FAULT_SITE(unlock_pi_cmpxchg, pi, futex_unlock_pi,
		 EFAULT, FUTEX_FAULT_RETRY)
FUTEX_FAULT_SITE(unlock_pi_fault_in, pi, futex_unlock_pi, EFAULT, 0)

/* requeue.c */
FUTEX_FAULT_SITE(proxy_trylock_get_value, requeue, futex_proxy_trylock_atomic,
		 EFAULT, FUTEX_FAULT_RETRY)
FUTEX_FAULT_SITE(requeue_get_key1, requeue, futex_requeue, EFAULT, 0)
FUTEX_FAULT_SITE(requeue_get_key2, requeue, futex_requeue, EFAULT, 0)
FUTEX_FAULT_SITE(requeue_get_value, requeue, futex_requeue,
		 EFAULT, FUTEX_FAULT_RETRY)
FUTEX_FAULT_SITE(requeue_get_user, requeue, futex_requeue, EFAULT, 0)
FUTEX_FAULT_SITE(requeue_fault_in, requeue, futex_requeue, EFAULT, 0)
FUTEX_FAULT_SITE(wait_requeue_pi_get_key2, requeue, futex_wait_requeue_pi,
		 EFAULT, 0)
