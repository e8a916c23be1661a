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

/*
 * Traced child past its filter install, stopped at its own SIGSTOP;
 * asserts that it got there (pid > 0).
 */
static pid_t spawn_filtered(struct __test_metadata *_metadata, long mode,
			    unsigned long opts)
{
	pid_t pid = spawn_traceme(body_filtered, (void *)mode);

	if (pid > 0 &&
	    ((opts && PTRE(PTRACE_SETOPTIONS, pid, 0, opts)) ||
	     PTRE(PTRACE_CONT, pid, 0, 0) ||
	     wstat(pid, 0) != ST_STOPPED(SIGSTOP))) {
		kill_reap(pid);
		pid = -1;
	}
	ASSERT_GT(pid, 0);
	return pid;
}

/*
 * spawn_filtered() with PTRACE_O_TRACESECCOMP, then asserts PTRACE_CONT to
 * the PTRACE_EVENT_SECCOMP stop of its getppid().
 */
static pid_t seccomp_stopped(struct __test_metadata *_metadata, long mode)
{
	pid_t pid = spawn_filtered(_metadata, mode, PTRACE_O_TRACESECCOMP);

	resume_assert(_metadata, pid, PTRACE_CONT, 0,
		      ST_EVENT(PTRACE_EVENT_SECCOMP));
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
	pid_t pid = spawn_filtered(_metadata, 0, 0);

	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(ret_trace_event_stop)
{
	struct user_regs_struct r;
	siginfo_t si;
	pid_t pid = seccomp_stopped(_metadata, 1);

	expect_eventmsg(_metadata, pid, 0x1234);
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SIGTRAP, si.si_signo);
	EXPECT_EQ(SIGTRAP | (PTRACE_EVENT_SECCOMP << 8), si.si_code);
	expect_syscall_regs(_metadata, pid, &r, SYS_getppid, -ENOSYS);
	/* Continuing runs the syscall. */
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
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
	pid_t pid = traceme_child_opts(_metadata, body_getgid_trace, NULL,
				       PTRACE_O_TRACESECCOMP);

	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_EVENT(PTRACE_EVENT_SECCOMP));
	expect_eventmsg(_metadata, pid, 7);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(seccomp_stop_syscall_info)
{
	struct ptrace_syscall_info info;
	pid_t pid = seccomp_stopped(_metadata, 1);

	memset(&info, 0xa5, sizeof(info));
	ASSERT_EQ(SI_SIZE_SECCOMP, PTRE(PTRACE_GET_SYSCALL_INFO, pid,
					sizeof(info), &info));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_SECCOMP, info.op);
	EXPECT_EQ(AUDIT_ARCH_X86_64, info.arch);
	EXPECT_EQ(SYS_getppid, (long)info.seccomp.nr);
	EXPECT_EQ(0x1234U, info.seccomp.ret_data);
	kill_reap(pid);
}

/*
 * seccomp_stopped(mode), asserts POKEUSER of orig_rax = nr, then expects
 * the tracee's exit code 0 (mode's check of getppid's result passed).
 */
static void change_syscall_at_seccomp_stop(struct __test_metadata *_metadata,
					   long mode, long nr)
{
	pid_t pid = seccomp_stopped(_metadata, mode);

	ASSERT_EQ(0, PTRE(PTRACE_POKEUSER, pid,
			  offsetof(struct user_regs_struct, orig_rax), nr));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(seccomp_stop_change_syscall)
{
	change_syscall_at_seccomp_stop(_metadata, 2, SYS_getpid);
}

TEST(seccomp_stop_skip_syscall)
{
	struct user_regs_struct r;
	pid_t pid = seccomp_stopped(_metadata, 3);

	ASSERT_EQ(0, get_regs(pid, &r));
	r.orig_rax = -1;
	r.rax = 99;
	cont_with_regs(_metadata, pid, &r, ST_EXITED(0));
}

TEST(seccomp_stop_changed_syscall_rechecked)
{
	/* getuid is ERRNO(EACCES) in the filter, which runs again. */
	change_syscall_at_seccomp_stop(_metadata, 4, SYS_getuid);
}

TEST(syscall_entry_stop_precedes_seccomp_stop)
{
	struct ptrace_syscall_info info;
	pid_t pid = spawn_filtered(_metadata, 1, PTRACE_O_TRACESECCOMP |
				   PTRACE_O_TRACESYSGOOD);

	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	ASSERT_EQ(80, PTRE(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), &info));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_ENTRY, info.op);
	EXPECT_EQ(SYS_getppid, (long)info.entry.nr);
	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_EVENT(PTRACE_EVENT_SECCOMP));
	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	ASSERT_EQ(33, PTRE(PTRACE_GET_SYSCALL_INFO, pid, sizeof(info), &info));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_EXIT, info.op);
	EXPECT_EQ(getpid(), info.exit.rval);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(kill_at_seccomp_stop)
{
	pid_t pid = seccomp_stopped(_metadata, 1);

	resume_expect(_metadata, pid, PTRACE_KILL, 0, ST_KILLED(SIGKILL));
}

TEST(suspend_seccomp_disables_filter)
{
	pid_t pid = spawn_filtered(_metadata, 5, 0);

	ASSERT_EQ(0, PTRE(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_SUSPEND_SECCOMP));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(suspend_seccomp_filter_active_without_it)
{
	pid_t pid = spawn_filtered(_metadata, 5, 0);

	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(1));
}

/*
 * In a child (asserts fork_child() >= 0) that becomes nobody: a TRACEME
 * child running fn, continued to its own SIGSTOP if cont, gets request
 * req (addr 0, data).  Returns the child's wait status: ST_EXITED(0) iff
 * the request failed with exactly -err.
 */
static int nobody_request(struct __test_metadata *_metadata, child_fn fn,
			  bool cont, long req, unsigned long data, long err)
{
	pid_t t = fork_child();

	ASSERT_GE(t, 0);
	if (t == 0) {
		pid_t pid;
		long r;

		if (become_nobody())
			_exit(90);
		pid = spawn_traceme(fn, NULL);
		if (pid <= 0)
			_exit(91);
		if (cont) {
			ptr(PTRACE_CONT, pid, 0, 0);
			if (wstat(pid, 0) != ST_STOPPED(SIGSTOP))
				_exit(92);
		}
		r = PTRE(req, pid, 0, data);
		kill_reap(pid);
		_exit(r == -err ? 0 : 1);
	}
	return wstat(t, 0);
}

TEST(suspend_seccomp_unprivileged_eperm)
{
	EXPECT_EQ(ST_EXITED(0), nobody_request(_metadata, body_pause, false,
						PTRACE_SETOPTIONS,
						PTRACE_O_SUSPEND_SECCOMP, EPERM));
}

TEST(get_filter_returns_program)
{
	struct sock_filter insns[FILTER_LEN];
	pid_t pid = spawn_filtered(_metadata, 1, 0);

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
	pid_t pid = traceme_child_ready(_metadata, body_two_filters, NULL);

	EXPECT_EQ((long)FILTER_LEN, PTRE(PTRACE_SECCOMP_GET_FILTER, pid, 0, 0));
	EXPECT_EQ(1, PTRE(PTRACE_SECCOMP_GET_FILTER, pid, 1, 0));
	EXPECT_EQ(-ENOENT, PTRE(PTRACE_SECCOMP_GET_FILTER, pid, 2, 0));
	kill_reap(pid);
}

TEST(get_metadata_flags)
{
	struct seccomp_metadata md;
	pid_t pid = traceme_child_ready(_metadata, body_two_filters, NULL);

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
	pid_t pid = traceme_child(_metadata, body_pause, NULL);

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
	pid_t pid = piped_child(_metadata, body_strict, fds);

	ASSERT_TRUE(wait_task_state(pid, pid, 'S', 5000));
	seize_interrupt(_metadata, pid, 0);
	EXPECT_EQ(-EINVAL, PTRE(PTRACE_SECCOMP_GET_FILTER, pid, 0, 0));
	/* The interrupted read() is restarted as read(): still allowed. */
	resume_release_expect(_metadata, pid, PTRACE_CONT, 0, fds, ST_EXITED(0));
}

TEST(get_filter_unprivileged_eacces)
{
	EXPECT_EQ(ST_EXITED(0), nobody_request(_metadata, body_two_filters,
						true, PTRACE_SECCOMP_GET_FILTER,
						0, EACCES));
}

TEST_HARNESS_MAIN
