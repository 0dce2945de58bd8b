// SPDX-License-Identifier: GPL-2.0
/*
 * Per-site fault injection for futexes.
 *
 * Every place in kernel/futex/ that touches user memory or can otherwise
 * fail is a fault site (see fault.h), guarded by its own static key.  A
 * disabled site costs one NOP.  An enabled site asks the fail_futex policy
 * (probability, interval, times, task-filter, fail-nth, ...) whether to fail
 * and, when it does, returns the site's errno and emits the
 * futex_fault:futex_fault_inject trace event.
 *
 * See Documentation/fault-injection/futex-fault.rst.
 */

#include <linux/debugfs.h>
#include <linux/fault-inject.h>
#include <linux/futex.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/jump_label.h>
#include <linux/kernel.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>
#include <asm/syscall.h>

#include "futex.h"

#define CREATE_TRACE_POINTS
#include <trace/events/futex_fault.h>

/*
 * A site inside a fault-in-and-retry loop that failed on every pass would
 * never let the loop end, and one that is reached several times per pass
 * (futex_waitv() reads every futex of its array) can fail on every pass
 * even at a low probability.  So a task fails at such sites
 * (FUTEX_FAULT_RETRY) at most FUTEX_FAULT_MAX_STREAK times within
 * FUTEX_FAULT_WINDOW of its last failure there; until the window has
 * passed they let it through, and the loop ends.
 */
#define FUTEX_FAULT_MAX_STREAK	3
#define FUTEX_FAULT_WINDOW	(HZ / 10)

struct futex_fault_desc {
	const char	*name;
	const char	*file;
	const char	*func;
	const char	*errname;
	int		err;
	unsigned int	flags;
};

struct futex_fault_stat {
	atomic_long_t	hits;
	atomic_long_t	injected;
	unsigned int	line;
};

static const struct futex_fault_desc futex_fault_desc[] = {
#define FUTEX_FAULT_SITE(_name, _file, _func, _err, _flags)		\
	[FUTEX_FAULT_##_name] = {					\
		.name = #_name,						\
		.file = "kernel/futex/" #_file ".c",			\
		.func = #_func,						\
		.errname = #_err,					\
		.err = -(_err),						\
		.flags = (_flags),					\
	},
#include "fault_sites.h"
#undef FUTEX_FAULT_SITE
};

static_assert(ARRAY_SIZE(futex_fault_desc) == FUTEX_FAULT_NR);

DEFINE_STATIC_KEY_ARRAY_FALSE(futex_fault_keys, FUTEX_FAULT_NR);

static struct futex_fault_stat futex_fault_stat[FUTEX_FAULT_NR];

static struct {
	struct fault_attr attr;

	bool ignore_private;
} fail_futex = {
	.attr = FAULT_ATTR_INITIALIZER,
	.ignore_private = false,
};

static int __init setup_fail_futex(char *str)
{
	return setup_fault_attr(&fail_futex.attr, str);
}
__setup("fail_futex=", setup_fail_futex);

/*
 * The futex() op being executed, or -1 when the site is reached some other
 * way: futex_waitv(), the robust list walk of an exiting task, a compat
 * task (whose system call numbers differ).
 */
static int futex_fault_op(void)
{
	struct pt_regs *regs;
	unsigned long args[6];

	if (!in_task() || (current->flags & (PF_KTHREAD | PF_EXITING)) ||
	    in_compat_syscall())
		return -1;

	regs = task_pt_regs(current);
	if (syscall_get_nr(current, regs) != __NR_futex)
		return -1;

	syscall_get_arguments(current, regs, args);
	return (int)args[1];
}

/**
 * __futex_fault() - Decide whether an enabled futex fault site fails
 * @site: the site
 * @uaddr: the user address the site is about to access
 * @line: the source line of the site, for the site table
 *
 * Called through futex_fault() only while the site's static key is on.
 * Counts the hit, asks the fail_futex policy and, when it says fail, counts
 * the injection and emits the futex_fault_inject trace event.
 *
 * Return: 0 to go on normally, or the site's negative errno.
 */
int __futex_fault(enum futex_fault_site site, const void __user *uaddr,
		  unsigned int line)
{
	const struct futex_fault_desc *desc = &futex_fault_desc[site];
	struct futex_fault_stat *stat = &futex_fault_stat[site];
	bool retry = desc->flags & FUTEX_FAULT_RETRY;
	int op = futex_fault_op();

	WRITE_ONCE(stat->line, line);
	atomic_long_inc(&stat->hits);

	if (fail_futex.ignore_private && op >= 0 && (op & FUTEX_PRIVATE_FLAG))
		return 0;

	/*
	 * The count is per task, so other tasks hitting the same site can
	 * neither reset it nor use up the failures meant for this one.
	 */
	if (retry) {
		if (time_after(jiffies, current->futex_fault_stamp +
					FUTEX_FAULT_WINDOW))
			current->futex_fault_streak = 0;
		if (current->futex_fault_streak >= FUTEX_FAULT_MAX_STREAK)
			return 0;
	}

	if (!should_fail_ex(&fail_futex.attr, 1, 0))
		return 0;

	if (retry) {
		current->futex_fault_streak++;
		current->futex_fault_stamp = jiffies;
	}
	atomic_long_inc(&stat->injected);
	trace_futex_fault_inject(site, desc->name, desc->err, op, uaddr,
				 _RET_IP_);

	return desc->err;
}

#ifdef CONFIG_FAULT_INJECTION_DEBUG_FS

/* Serializes switching sites on and off. */
static DEFINE_MUTEX(futex_fault_mutex);

static void futex_fault_set(unsigned int site, bool on)
{
	lockdep_assert_held(&futex_fault_mutex);

	if (on == static_key_enabled(&futex_fault_keys[site]))
		return;
	if (on)
		static_branch_enable(&futex_fault_keys[site]);
	else
		static_branch_disable(&futex_fault_keys[site]);
}

/*
 * Parse "0" or "1", with an optional newline after it.  Anything else is
 * -EINVAL, an unreadable buffer -EFAULT; either way nothing changes.
 */
static int futex_fault_parse(const char __user *ubuf, size_t count,
			     loff_t *ppos, bool *on)
{
	char buf[2];

	if (*ppos || !count || count > sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	if (count == 2 && buf[1] != '\n')
		return -EINVAL;
	if (buf[0] != '0' && buf[0] != '1')
		return -EINVAL;

	*on = buf[0] == '1';
	return 0;
}

/*
 * One file per site, and "all" (FUTEX_FAULT_NR) for every site at once.  A
 * site file reads 0 or 1, "all" the number of enabled sites.  The value is
 * formatted once per open, so a reader taking it in small pieces cannot
 * join the halves of two different numbers.
 */
static int futex_fault_key_show(struct seq_file *m, void *v)
{
	unsigned int key = (uintptr_t)m->private, site, n = 0;

	if (key < FUTEX_FAULT_NR) {
		n = static_key_enabled(&futex_fault_keys[key]);
	} else {
		for (site = 0; site < FUTEX_FAULT_NR; site++)
			n += static_key_enabled(&futex_fault_keys[site]);
	}
	seq_printf(m, "%u\n", n);
	return 0;
}

static int futex_fault_key_open(struct inode *inode, struct file *file)
{
	return single_open(file, futex_fault_key_show, inode->i_private);
}

static ssize_t futex_fault_key_write(struct file *file, const char __user *ubuf,
				     size_t count, loff_t *ppos)
{
	struct seq_file *m = file->private_data;
	unsigned int key = (uintptr_t)m->private, site;
	bool on;
	int ret;

	ret = futex_fault_parse(ubuf, count, ppos, &on);
	if (ret)
		return ret;

	mutex_lock(&futex_fault_mutex);
	if (key < FUTEX_FAULT_NR) {
		futex_fault_set(key, on);
	} else {
		for (site = 0; site < FUTEX_FAULT_NR; site++)
			futex_fault_set(site, on);
	}
	mutex_unlock(&futex_fault_mutex);

	return count;
}

static const struct file_operations futex_fault_key_fops = {
	.open		= futex_fault_key_open,
	.read		= seq_read,
	.write		= futex_fault_key_write,
	.llseek		= seq_lseek,
	.release	= single_release,
};

/*
 * The site table, one line per site.  The line is the one of the site's
 * last hit, 0 before the first; tools can look it up in the source too.
 */
static int futex_fault_sites_show(struct seq_file *m, void *v)
{
	unsigned int site;

	seq_puts(m, "# name file line function errno enabled hits injected\n");
	for (site = 0; site < FUTEX_FAULT_NR; site++) {
		const struct futex_fault_desc *desc = &futex_fault_desc[site];
		struct futex_fault_stat *stat = &futex_fault_stat[site];

		seq_printf(m, "%s %s %u %s %s %d %ld %ld\n",
			   desc->name, desc->file, READ_ONCE(stat->line),
			   desc->func, desc->errname,
			   static_key_enabled(&futex_fault_keys[site]),
			   atomic_long_read(&stat->hits),
			   atomic_long_read(&stat->injected));
	}
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(futex_fault_sites);

/*
 * Writing 1 to "reset" zeroes the hits and injected counters.  They are
 * statistics: a hit counted just before the reset can still add its
 * injection just after it.
 */
static ssize_t futex_fault_reset_write(struct file *file, const char __user *ubuf,
				       size_t count, loff_t *ppos)
{
	unsigned int site;
	bool on;
	int ret;

	ret = futex_fault_parse(ubuf, count, ppos, &on);
	if (ret)
		return ret;
	if (!on)
		return -EINVAL;

	for (site = 0; site < FUTEX_FAULT_NR; site++) {
		atomic_long_set(&futex_fault_stat[site].hits, 0);
		atomic_long_set(&futex_fault_stat[site].injected, 0);
	}
	return count;
}

static const struct file_operations futex_fault_reset_fops = {
	.open	= simple_open,
	.write	= futex_fault_reset_write,
	.llseek	= noop_llseek,
};

static int __init futex_fault_debugfs(void)
{
	umode_t mode = S_IFREG | 0600;
	struct dentry *dir, *keys;
	unsigned int site;

	dir = fault_create_debugfs_attr("fail_futex", NULL, &fail_futex.attr);
	if (IS_ERR(dir))
		return PTR_ERR(dir);

	debugfs_create_bool("ignore-private", mode, dir,
			    &fail_futex.ignore_private);
	debugfs_create_file("sites", 0400, dir, NULL, &futex_fault_sites_fops);
	debugfs_create_file("reset", 0200, dir, NULL, &futex_fault_reset_fops);

	/* static_keys/ may be shared with other users: reuse it if it exists */
	keys = debugfs_lookup("static_keys", NULL);
	if (!keys)
		keys = debugfs_create_dir("static_keys", NULL);
	else
		dput(keys);
	keys = debugfs_create_dir("futex_fault", keys);

	for (site = 0; site < FUTEX_FAULT_NR; site++)
		debugfs_create_file(futex_fault_desc[site].name, mode, keys,
				    (void *)(uintptr_t)site,
				    &futex_fault_key_fops);
	debugfs_create_file("all", mode, keys, (void *)(uintptr_t)FUTEX_FAULT_NR,
			    &futex_fault_key_fops);

	return 0;
}
late_initcall(futex_fault_debugfs);

#endif /* CONFIG_FAULT_INJECTION_DEBUG_FS */
