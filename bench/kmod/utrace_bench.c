// SPDX-License-Identifier: GPL-2.0
/*
 * utrace_bench: the cheapest utrace engines there can be, for make bench.
 *
 * The scale rows of make bench measure what the utrace core spends per
 * engine and event.  The test module's engines (lib/test_utrace.c) run a
 * script in every callback (a hash lookup, a spinlock, the decision,
 * statistics): with them, most of each engine's cost was the test
 * module's own (bench/README.md).  These engines count the system call
 * entry and exit reports of the thread that attached them, in their own
 * counters, and return UTRACE_RESUME: what a syscall counter needs, and
 * nothing else.
 *
 * Not part of the kernel series: a tool of the workbench, built against
 * the utrace-on kernel's build directory by bench/run.sh.
 */
#include <linux/fs.h>
#include <linux/miscdevice.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/sched/task.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <linux/utrace.h>

#include "utrace_bench.h"

/*
 * One per engine, its data: freed by the release op, when the core and
 * we have both dropped the engine, so no callback can still count.  The
 * counters are written by the traced thread in its callbacks and read by
 * UTRACE_BENCH_IOC_COUNTS, which only that same thread may call: no
 * lock, no atomics.
 */
struct ub_engine {
	u64 entries;
	u64 exits;
};

struct ub_session {
	struct mutex lock;		/* attach vs. counts */
	struct task_struct *task;	/* the traced thread, referenced */
	unsigned int n;
	struct utrace_engine *e[UTRACE_BENCH_MAX_ENGINES];
};

static u32 ub_syscall_entry(u32 action, struct utrace_engine *engine,
			    struct pt_regs *regs)
{
	struct ub_engine *ue = engine->data;

	ue->entries++;
	return utrace_syscall_action(action) | UTRACE_RESUME;
}

static u32 ub_syscall_exit(u32 action, struct utrace_engine *engine,
			   struct pt_regs *regs)
{
	struct ub_engine *ue = engine->data;

	ue->exits++;
	return UTRACE_RESUME;
}

static void ub_release_engine(void *data)
{
	kfree(data);
}

static const struct utrace_engine_ops ub_ops = {
	.report_syscall_entry = ub_syscall_entry,
	.report_syscall_exit = ub_syscall_exit,
	.release = ub_release_engine,
	.owner = THIS_MODULE,
};

/*
 * Detach the first @n engines of @s and drop our references.  Their
 * counters go with the last reference (ub_release_engine()), so there is
 * no need to wait for a callback in progress.
 */
static void ub_detach(struct ub_session *s, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		int ret = utrace_control(s->task, s->e[i], UTRACE_DETACH);

		/*
		 * -EINPROGRESS: a callback still runs, and the counters stay
		 * until it is over; -ESRCH, -EALREADY: the thread's death
		 * detached it already.
		 */
		WARN_ON_ONCE(ret && ret != -EINPROGRESS && ret != -ESRCH &&
			     ret != -EALREADY);
		utrace_engine_put(s->e[i]);
		s->e[i] = NULL;
	}
}

static long ub_attach(struct ub_session *s, unsigned long n)
{
	unsigned int i;
	long ret = 0;

	if (n < 1 || n > UTRACE_BENCH_MAX_ENGINES)
		return -EINVAL;
	if (s->task)
		return -EBUSY;
	s->task = get_task_struct(current);
	for (i = 0; i < n; i++) {
		struct ub_engine *ue = kzalloc(sizeof(*ue), GFP_KERNEL);
		struct utrace_engine *engine;

		if (!ue) {
			ret = -ENOMEM;
			break;
		}
		engine = utrace_attach_task(current, UTRACE_ATTACH_CREATE,
					    &ub_ops, ue);
		if (IS_ERR(engine)) {
			kfree(ue);
			ret = PTR_ERR(engine);
			break;
		}
		s->e[i] = engine;
		ret = utrace_set_events(current, engine,
					UTRACE_EVENT(SYSCALL_ENTRY) |
					UTRACE_EVENT(SYSCALL_EXIT));
		if (ret) {
			i++;
			break;
		}
	}
	if (ret) {
		ub_detach(s, i);
		put_task_struct(s->task);
		s->task = NULL;
		return ret;
	}
	s->n = n;
	return 0;
}

static long ub_counts(struct ub_session *s, void __user *arg)
{
	struct utrace_bench_counts c = { U64_MAX, U64_MAX };
	unsigned int i;

	if (!s->task)
		return -ENOENT;
	if (s->task != current)
		return -EPERM;
	for (i = 0; i < s->n; i++) {
		struct ub_engine *ue = s->e[i]->data;

		c.entries = min(c.entries, ue->entries);
		c.exits = min(c.exits, ue->exits);
	}
	return copy_to_user(arg, &c, sizeof(c)) ? -EFAULT : 0;
}

static long ub_ioctl(struct file *file, unsigned int cmd, unsigned long arg)
{
	struct ub_session *s = file->private_data;
	long ret;

	mutex_lock(&s->lock);
	switch (cmd) {
	case UTRACE_BENCH_IOC_ATTACH:
		ret = ub_attach(s, arg);
		break;
	case UTRACE_BENCH_IOC_COUNTS:
		ret = ub_counts(s, (void __user *)arg);
		break;
	default:
		ret = -ENOTTY;
		break;
	}
	mutex_unlock(&s->lock);
	return ret;
}

static int ub_open(struct inode *inode, struct file *file)
{
	struct ub_session *s = kzalloc(sizeof(*s), GFP_KERNEL);

	if (!s)
		return -ENOMEM;
	mutex_init(&s->lock);
	file->private_data = s;
	return 0;
}

static int ub_release(struct inode *inode, struct file *file)
{
	struct ub_session *s = file->private_data;

	if (s->task) {
		ub_detach(s, s->n);
		put_task_struct(s->task);
	}
	kfree(s);
	return 0;
}

static const struct file_operations ub_fops = {
	.owner = THIS_MODULE,
	.open = ub_open,
	.release = ub_release,
	.unlocked_ioctl = ub_ioctl,
};

static struct miscdevice ub_dev = {
	.minor = MISC_DYNAMIC_MINOR,
	.name = "utrace_bench",
	.fops = &ub_fops,
	.mode = 0600,
};
module_misc_device(ub_dev);

MODULE_DESCRIPTION("utrace engines that only count system calls, for make bench");
MODULE_LICENSE("GPL");
