// SPDX-License-Identifier: GPL-2.0-only
/*
 * seccomp and ptrace: SECCOMP_RET_TRACE with PTRACE_O_TRACESECCOMP
 * (event message, syscall info, changing/skipping the syscall, re-check by
 * the filter, ordering with syscall stops), PTRACE_O_SUSPEND_SECCOMP,
 * PTRACE_SECCOMP_GET_FILTER and PTRACE_SECCOMP_GET_METADATA.
 */
#include <stddef.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include "ptrace_util.h"

#define SI_SIZE_SECCOMP	84

/*
 * getppid -> TRACE(0x1234), getgid -> TRACE(7), getuid -> ERRNO(EACCES),
 * anything else allowed.
 */
static struct sock_filter filter_insns[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | 0x1234),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getgid, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRACE | 7),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getuid, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EACCES),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};
#define FILTER_LEN	(sizeof(filter_insns) / sizeof(filter_insns[0]))

static struct sock_filter allow_insns[] = {
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};

static int install(struct sock_filter *insns, unsigned short len,
		   unsigned int flags)
{
	struct sock_fprog prog = { .len = len, .filter = insns };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
}

/*
 * Child body: install the filter, stop, then getppid() and check the result
 * according to the mode:
 *  0: ENOSYS, 1: real ppid, 2: own pid, 3: 99, 4: EACCES, 5: getuid() == 0
 */
static int body_filtered(void *arg)
{
	long mode = (long)arg, r;
	pid_t ppid = getppid(), me = getpid();

	if (install(filter_insns, FILTER_LEN, 0))
		return 50;
	kill(getpid(), SIGSTOP);
	if (mode == 5)
		return syscall(SYS_getuid) == 0 ? 0 : 1;
	r = syscall(SYS_getppid);
	switch (mode) {
	case 0:
		return (r == -1 && errno == ENOSYS) ? 0 : 1;
	case 1:
		return r == ppid ? 0 : 1;
	case 2:
		return r == me ? 0 : 1;
	case 3:
		return r == 99 ? 0 : 1;
	case 4:
		return (r == -1 && errno == EACCES) ? 0 : 1;
	}
	return 2;
}

/* Traced child past its filter install, stopped at its own SIGSTOP. */
static pid_t spawn_filtered(long mode, unsigned long opts)
{
	pid_t pid = spawn_traceme(body_filtered, (void *)mode);

	if (pid <= 0)
		return -1;
	if ((opts && PTRE(PTRACE_SETOPTIONS, pid, 0, opts)) ||
	    PTRE(PTRACE_CONT, pid, 0, 0) ||
	    wstat(pid, 0) != ST_STOPPED(SIGSTOP)) {
		kill_reap(pid);
		return -1;
	}
	return pid;
}

TEST(ret_trace_untraced_enosys)
{
	pid_t pid = fork_child();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		long r;

		if (install(filter_insns, FILTER_LEN, 0))
			_exit(50);
		r = syscall(SYS_getppid);
		_exit((r == -1 && errno == ENOSYS) ? 0 : 1);
	}
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

TEST(ret_trace_without_option_enosys)
{
	pid_t pid = spawn_filtered(0, 0);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

TEST(ret_trace_event_stop)
{
	struct user_regs_struct r;
	unsigned long msg = 0;
	siginfo_t si;
	pid_t pid = spawn_filtered(1, PTRACE_O_TRACESECCOMP);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_SECCOMP), wstat(pid, 0));
	ASSERT_EQ(0, PTRE(PTRACE_GETEVENTMSG, pid, 0, &msg));
	EXPECT_EQ(0x1234UL, msg);
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SIGTRAP, si.si_signo);
	EXPECT_EQ(SIGTRAP | (PTRACE_EVENT_SECCOMP << 8), si.si_code);
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(SYS_getppid, (long)r.orig_rax);
	EXPECT_EQ(-ENOSYS, (long)r.rax);
	/* Continuing runs the syscall. */
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

static int body_getgid_trace(void *arg)
{
	(void)arg;
	if (install(filter_insns, FILTER_LEN, 0))
		return 50;
	return syscall(SYS_getgid) == 0 ? 0 : 1;
}

TEST(ret_trace_data_per_rule)
{
	unsigned long msg = 0;
	pid_t pid = spawn_traceme(body_getgid_trace, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESECCOMP));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_SECCOMP), wstat(pid, 0));
	ASSERT_EQ(0, PTRE(PTRACE_GETEVENTMSG, pid, 0, &msg));
	EXPECT_EQ(7UL, msg);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

TEST(seccomp_stop_syscall_info)
{
	struct ptrace_syscall_info info;
	pid_t pid = spawn_filtered(1, PTRACE_O_TRACESECCOMP);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_SECCOMP), wstat(pid, 0));
	memset(&info, 0xa5, sizeof(info));
	ASSERT_EQ(SI_SIZE_SECCOMP, PTRE(PTRACE_GET_SYSCALL_INFO, pid,
					sizeof(info), &info));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_SECCOMP, info.op);
	EXPECT_EQ(AUDIT_ARCH_X86_64, info.arch);
	EXPECT_EQ(SYS_getppid, (long)info.seccomp.nr);
	EXPECT_EQ(0x1234U, info.seccomp.ret_data);
	kill_reap(pid);
}

TEST(seccomp_stop_change_syscall)
{
	pid_t pid = spawn_filtered(2, PTRACE_O_TRACESECCOMP);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_SECCOMP), wstat(pid, 0));
	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid,
			  offsetof(struct user_regs_struct, orig_rax),
			  SYS_getpid));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

TEST(seccomp_stop_skip_syscall)
{
	struct user_regs_struct r;
	pid_t pid = spawn_filtered(3, PTRACE_O_TRACESECCOMP);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_SECCOMP), wstat(pid, 0));
	ASSERT_EQ(0, get_regs(pid, &r));
	r.orig_rax = -1;
	r.rax = 99;
	ASSERT_EQ(0, set_regs(pid, &r));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

TEST(seccomp_stop_changed_syscall_rechecked)
{
	pid_t pid = spawn_filtered(4, PTRACE_O_TRACESECCOMP);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_SECCOMP), wstat(pid, 0));
	/* getuid is ERRNO(EACCES) in the filter, which runs again. */
	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid,
			  offsetof(struct user_regs_struct, orig_rax),
			  SYS_getuid));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

TEST(syscall_entry_stop_precedes_seccomp_stop)
{
	struct ptrace_syscall_info info;
	pid_t pid = spawn_filtered(1, PTRACE_O_TRACESECCOMP |
				   PTRACE_O_TRACESYSGOOD);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
	ASSERT_EQ(ST_SYSCALL, wstat(pid, 0));
	ASSERT_EQ(80, PTRE(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), &info));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_ENTRY, info.op);
	EXPECT_EQ(SYS_getppid, (long)info.entry.nr);
	ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_SECCOMP), wstat(pid, 0));
	ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
	ASSERT_EQ(ST_SYSCALL, wstat(pid, 0));
	ASSERT_EQ(33, PTRE(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), &info));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_EXIT, info.op);
	EXPECT_EQ(getpid(), info.exit.rval);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

TEST(kill_at_seccomp_stop)
{
	pid_t pid = spawn_filtered(1, PTRACE_O_TRACESECCOMP);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_SECCOMP), wstat(pid, 0));
	ASSERT_EQ(0, PTRE(PTRACE_KILL, pid, 0, 0));
	EXPECT_EQ(ST_KILLED(SIGKILL), wstat(pid, 0));
}

TEST(suspend_seccomp_disables_filter)
{
	pid_t pid = spawn_filtered(5, 0);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_SUSPEND_SECCOMP));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

TEST(suspend_seccomp_filter_active_without_it)
{
	pid_t pid = spawn_filtered(5, 0);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(1), wstat(pid, 0));
}

TEST(suspend_seccomp_unprivileged_eperm)
{
	pid_t t = fork_child();

	ASSERT_GE(t, 0);
	if (t == 0) {
		pid_t pid;
		long r;

		if (become_nobody())
			_exit(90);
		pid = spawn_traceme(body_pause, NULL);
		if (pid <= 0)
			_exit(91);
		r = PTRE(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_SUSPEND_SECCOMP);
		kill_reap(pid);
		_exit(r == -EPERM ? 0 : 1);
	}
	EXPECT_EQ(ST_EXITED(0), wstat(t, 0));
}

TEST(get_filter_returns_program)
{
	struct sock_filter insns[FILTER_LEN];
	pid_t pid = spawn_filtered(1, 0);

	ASSERT_GT(pid, 0);
	EXPECT_EQ((long)FILTER_LEN, PTRE(PTRACE_SECCOMP_GET_FILTER, pid, 0, 0));
	memset(insns, 0, sizeof(insns));
	ASSERT_EQ((long)FILTER_LEN, PTRE(PTRACE_SECCOMP_GET_FILTER, pid, 0,
					 insns));
	EXPECT_EQ(0, memcmp(insns, filter_insns, sizeof(insns)));
	EXPECT_EQ(-ENOENT, PTRE(PTRACE_SECCOMP_GET_FILTER, pid, 1, insns));
	kill_reap(pid);
}

static int body_two_filters(void *arg)
{
	(void)arg;
	if (install(filter_insns, FILTER_LEN, 0))
		return 50;
	if (install(allow_insns, 1, SECCOMP_FILTER_FLAG_LOG))
		return 51;
	kill(getpid(), SIGSTOP);
	return 0;
}

/* Index 0 is the oldest filter (the root of the chain). */
TEST(get_filter_index_oldest_first)
{
	pid_t pid = spawn_traceme(body_two_filters, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, 0));
	EXPECT_EQ((long)FILTER_LEN, PTRE(PTRACE_SECCOMP_GET_FILTER, pid, 0, 0));
	EXPECT_EQ(1, PTRE(PTRACE_SECCOMP_GET_FILTER, pid, 1, 0));
	EXPECT_EQ(-ENOENT, PTRE(PTRACE_SECCOMP_GET_FILTER, pid, 2, 0));
	kill_reap(pid);
}

TEST(get_metadata_flags)
{
	struct seccomp_metadata md;
	pid_t pid = spawn_traceme(body_two_filters, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, 0));
	md.filter_off = 0;
	md.flags = 0xa5;
	ASSERT_EQ(sizeof(md), PTRE(PTRACE_SECCOMP_GET_METADATA, pid,
				   sizeof(md), &md));
	EXPECT_EQ(0ULL, md.filter_off);
	EXPECT_EQ(0ULL, md.flags);
	md.filter_off = 1;
	ASSERT_EQ(sizeof(md), PTRE(PTRACE_SECCOMP_GET_METADATA, pid,
				   sizeof(md), &md));
	EXPECT_EQ((uint64_t)SECCOMP_FILTER_FLAG_LOG, md.flags);
	md.filter_off = 2;
	EXPECT_EQ(-ENOENT, PTRE(PTRACE_SECCOMP_GET_METADATA, pid,
				sizeof(md), &md));
	/* Too small a size for filter_off. */
	EXPECT_EQ(-EINVAL, PTRE(PTRACE_SECCOMP_GET_METADATA, pid, 4, &md));
	kill_reap(pid);
}

TEST(get_filter_without_filter_einval)
{
	pid_t pid = spawn_traceme(body_pause, NULL);

	ASSERT_GT(pid, 0);
	EXPECT_EQ(-EINVAL, PTRE(PTRACE_SECCOMP_GET_FILTER, pid, 0, 0));
	kill_reap(pid);
}

static int body_strict(void *arg)
{
	int fd = (int)(long)arg;
	char c;

	if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_STRICT))
		return 50;
	/* Blocks: only read/write/exit/sigreturn are allowed. */
	if (read(fd, &c, 1) != 1)
		syscall(SYS_exit, 1);
	syscall(SYS_exit, 0);
	return 0;
}

TEST(get_filter_strict_mode_einval)
{
	int fds[2];
	pid_t pid;

	ASSERT_EQ(0, pipe(fds));
	pid = spawn(body_strict, (void *)(long)fds[0]);
	ASSERT_GT(pid, 0);
	ASSERT_TRUE(wait_task_state(pid, pid, 'S', 5000));
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(pid, 0));
	EXPECT_EQ(-EINVAL, PTRE(PTRACE_SECCOMP_GET_FILTER, pid, 0, 0));
	/* The interrupted read() is restarted as read(): still allowed. */
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(0, pipe_write_byte(fds[1], 'x'));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

TEST(get_filter_unprivileged_eacces)
{
	pid_t t = fork_child();

	ASSERT_GE(t, 0);
	if (t == 0) {
		pid_t pid;
		long r;

		if (become_nobody())
			_exit(90);
		pid = spawn_traceme(body_two_filters, NULL);
		if (pid <= 0)
			_exit(91);
		ptr(PTRACE_CONT, pid, 0, 0);
		if (wstat(pid, 0) != ST_STOPPED(SIGSTOP))
			_exit(92);
		r = PTRE(PTRACE_SECCOMP_GET_FILTER, pid, 0, 0);
		kill_reap(pid);
		_exit(r == -EACCES ? 0 : 1);
	}
	EXPECT_EQ(ST_EXITED(0), wstat(t, 0));
}

TEST_HARNESS_MAIN
