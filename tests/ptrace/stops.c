// SPDX-License-Identifier: GPL-2.0-only
/*
 * Stops and wait: signal-delivery-stops, syscall stops, group-stops,
 * PTRACE_GET_SYSCALL_INFO at each stop kind, exact waitpid()/waitid()
 * results, WNOWAIT, __WALL/__WCLONE, SIGCHLD to the tracer, and reaping of
 * traced zombies by the tracer and by the real parent.
 */
#include <pthread.h>
#include <linux/audit.h>
#include "ptrace_util.h"

#define SI_SIZE_NONE	24
#define SI_SIZE_ENTRY	80
#define SI_SIZE_EXIT	33

static long get_info(pid_t pid, struct ptrace_syscall_info *info)
{
	memset(info, 0xa5, sizeof(*info));
	return PTRE(PTRACE_GET_SYSCALL_INFO, pid, sizeof(*info), info);
}

static int body_getppid_args(void *arg)
{
	(void)arg;
	syscall(SYS_getppid, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66);
	syscall(SYS_close, -1);
	return 0;
}

static pid_t spawn_sysgood(child_fn fn)
{
	pid_t pid = spawn_traceme(fn, NULL);

	if (pid > 0 && PTRE(PTRACE_SETOPTIONS, pid, 0, PTRACE_O_TRACESYSGOOD)) {
		kill_reap(pid);
		return -1;
	}
	return pid;
}

TEST(syscall_info_signal_stop_is_none)
{
	struct ptrace_syscall_info info;
	struct user_regs_struct r;
	pid_t pid = spawn_sysgood(body_getppid_args);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(SI_SIZE_NONE, get_info(pid, &info));
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_NONE, info.op);
	EXPECT_EQ(AUDIT_ARCH_X86_64, info.arch);
	EXPECT_EQ(r.rip, info.instruction_pointer);
	EXPECT_EQ(r.rsp, info.stack_pointer);
	kill_reap(pid);
}

TEST(syscall_info_entry)
{
	struct ptrace_syscall_info info;
	struct user_regs_struct r;
	pid_t pid = spawn_sysgood(body_getppid_args);
	int i;

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
	ASSERT_EQ(ST_SYSCALL, wstat(pid, 0));
	ASSERT_EQ(SI_SIZE_ENTRY, get_info(pid, &info));
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_ENTRY, info.op);
	EXPECT_EQ(AUDIT_ARCH_X86_64, info.arch);
	EXPECT_EQ(r.rip, info.instruction_pointer);
	EXPECT_EQ(r.rsp, info.stack_pointer);
	EXPECT_EQ(SYS_getppid, (long)info.entry.nr);
	for (i = 0; i < 6; i++)
		EXPECT_EQ(0x11UL * (i + 1), info.entry.args[i]);
	kill_reap(pid);
}

TEST(syscall_info_exit_success)
{
	struct ptrace_syscall_info info;
	pid_t pid = spawn_sysgood(body_getppid_args);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
	ASSERT_EQ(ST_SYSCALL, wstat(pid, 0));
	ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
	ASSERT_EQ(ST_SYSCALL, wstat(pid, 0));
	ASSERT_EQ(SI_SIZE_EXIT, get_info(pid, &info));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_EXIT, info.op);
	EXPECT_EQ(getpid(), info.exit.rval);
	EXPECT_EQ(0, info.exit.is_error);
	kill_reap(pid);
}

TEST(syscall_info_exit_error)
{
	struct ptrace_syscall_info info;
	pid_t pid = spawn_sysgood(body_getppid_args);
	int i;

	ASSERT_GT(pid, 0);
	for (i = 0; i < 4; i++) {
		ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
		ASSERT_EQ(ST_SYSCALL, wstat(pid, 0));
	}
	ASSERT_EQ(SI_SIZE_EXIT, get_info(pid, &info));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_EXIT, info.op);
	EXPECT_EQ(-EBADF, info.exit.rval);
	EXPECT_EQ(1, info.exit.is_error);
	kill_reap(pid);
}

TEST(syscall_info_without_sysgood_is_none)
{
	struct ptrace_syscall_info info;
	pid_t pid = spawn_traceme(body_getppid_args, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
	ASSERT_EQ(ST_STOPPED(SIGTRAP), wstat(pid, 0));
	ASSERT_EQ(SI_SIZE_NONE, get_info(pid, &info));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_NONE, info.op);
	kill_reap(pid);
}

TEST(syscall_info_event_stop_is_none)
{
	struct ptrace_syscall_info info;
	pid_t pid = spawn(body_pause, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, PTRACE_O_TRACESYSGOOD));
	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, pid, 0, 0));
	ASSERT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(pid, 0));
	ASSERT_EQ(SI_SIZE_NONE, get_info(pid, &info));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_NONE, info.op);
	kill_reap(pid);
}

TEST(syscall_info_short_buffer)
{
	unsigned char buf[sizeof(struct ptrace_syscall_info)];
	struct ptrace_syscall_info *info = (void *)buf;
	unsigned int i;
	pid_t pid = spawn_sysgood(body_getppid_args);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
	ASSERT_EQ(ST_SYSCALL, wstat(pid, 0));
	memset(buf, 0xa5, sizeof(buf));
	/* Returns the full size, copies only what fits. */
	EXPECT_EQ(SI_SIZE_ENTRY, PTRE(PTRACE_GET_SYSCALL_INFO, pid, 8, buf));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_ENTRY, info->op);
	EXPECT_EQ(AUDIT_ARCH_X86_64, info->arch);
	for (i = 8; i < sizeof(buf); i++)
		if (buf[i] != 0xa5)
			break;
	EXPECT_EQ(sizeof(buf), i);
	memset(buf, 0xa5, sizeof(buf));
	EXPECT_EQ(SI_SIZE_ENTRY, PTRE(PTRACE_GET_SYSCALL_INFO, pid, 0, buf));
	EXPECT_EQ(0xa5, buf[0]);
	kill_reap(pid);
}

TEST(syscall_info_running_esrch)
{
	struct ptrace_syscall_info info;
	pid_t pid = spawn(body_pause, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	EXPECT_EQ(-ESRCH, get_info(pid, &info));
	kill_reap(pid);
}

TEST(waitid_signal_stop_cld_trapped)
{
	siginfo_t si = { 0 };
	pid_t pid = fork_child();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		child_traceme_stop();
		_exit(0);
	}
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WSTOPPED | WEXITED));
	EXPECT_EQ(SIGCHLD, si.si_signo);
	EXPECT_EQ(CLD_TRAPPED, si.si_code);
	EXPECT_EQ(SIGSTOP, si.si_status);
	EXPECT_EQ(pid, si.si_pid);
	EXPECT_EQ(0, (int)si.si_uid);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	memset(&si, 0, sizeof(si));
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WEXITED));
	EXPECT_EQ(CLD_EXITED, si.si_code);
	EXPECT_EQ(0, si.si_status);
}

TEST(waitid_syscall_stop_full_exit_code)
{
	siginfo_t si = { 0 };
	pid_t pid = spawn_sysgood(body_getppid_args);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WSTOPPED));
	EXPECT_EQ(CLD_TRAPPED, si.si_code);
	EXPECT_EQ(SIGTRAP | 0x80, si.si_status);
	kill_reap(pid);
}

TEST(waitid_event_stop_full_exit_code)
{
	siginfo_t si = { 0 };
	pid_t pid = spawn(body_pause, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, pid, 0, 0));
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WSTOPPED));
	EXPECT_EQ(CLD_TRAPPED, si.si_code);
	EXPECT_EQ(SIGTRAP | (PTRACE_EVENT_STOP << 8), si.si_status);
	kill_reap(pid);
}

TEST(waitid_killed_and_exited_codes)
{
	siginfo_t si = { 0 };
	pid_t pid = spawn_traceme(NULL, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, SIGTERM));
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WEXITED));
	EXPECT_EQ(CLD_KILLED, si.si_code);
	EXPECT_EQ(SIGTERM, si.si_status);
	EXPECT_EQ(pid, si.si_pid);
}

TEST(wnowait_leaves_stop_reportable)
{
	siginfo_t si = { 0 };
	pid_t pid = fork_child();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		child_traceme_stop();
		_exit(0);
	}
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WSTOPPED | WNOWAIT));
	EXPECT_EQ(CLD_TRAPPED, si.si_code);
	memset(&si, 0, sizeof(si));
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WSTOPPED | WNOWAIT));
	EXPECT_EQ(CLD_TRAPPED, si.si_code);
	EXPECT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, 0));
	/* Consumed now. */
	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	kill_reap(pid);
}

TEST(wnowait_exit_then_reap)
{
	siginfo_t si = { 0 };
	pid_t pid = spawn_traceme(NULL, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WEXITED | WNOWAIT));
	EXPECT_EQ(CLD_EXITED, si.si_code);
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
	EXPECT_EQ(-ECHILD, wait_st(pid, NULL, WNOHANG));
}

TEST(wnohang_running_tracee_returns_zero)
{
	pid_t pid = spawn(body_pause, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	EXPECT_EQ(0, wait_st(-1, NULL, WNOHANG | __WALL));
	kill_reap(pid);
}

TEST(untraced_group_stop_needs_wuntraced)
{
	pid_t pid = spawn(body_pause, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, kill(pid, SIGSTOP));
	ASSERT_TRUE(wait_task_state(pid, pid, 'T', 5000));
	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	EXPECT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, WUNTRACED));
	/* Traced now: stops are reported without WUNTRACED. */
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	EXPECT_EQ(ST_GROUPSTOP(SIGSTOP), wstat(pid, 0));
	kill_reap(pid);
}

TEST(sigchld_to_tracer_cld_trapped)
{
	sigset_t set;
	siginfo_t si;
	struct timespec ts = { 10, 0 };
	pid_t pid;

	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	ASSERT_EQ(0, sigprocmask(SIG_BLOCK, &set, NULL));
	pid = spawn_sysgood(body_getppid_args);
	ASSERT_GT(pid, 0);
	/* Drop the SIGCHLD of the initial stop. */
	ASSERT_EQ(SIGCHLD, sigtimedwait(&set, &si, &ts));
	EXPECT_EQ(CLD_TRAPPED, si.si_code);
	EXPECT_EQ(SIGSTOP, si.si_status);
	ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
	ASSERT_EQ(SIGCHLD, sigtimedwait(&set, &si, &ts));
	EXPECT_EQ(CLD_TRAPPED, si.si_code);
	EXPECT_EQ(pid, si.si_pid);
	/* SIGCHLD carries exit_code & 0x7f, not the 0x80 bit. */
	EXPECT_EQ(SIGTRAP, si.si_status);
	EXPECT_EQ(ST_SYSCALL, wstat(pid, 0));
	kill_reap(pid);
}

static int clone_child(void)
{
	/* fork-like clone whose exit signal is 0: a "clone" child. */
	pid_t pid = syscall(SYS_clone, 0, NULL, NULL, NULL, NULL);

	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		for (;;)
			pause();
	}
	return pid;
}

TEST(untraced_clone_child_needs_wclone)
{
	pid_t pid = clone_child();

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	EXPECT_EQ(-ECHILD, wait_st(pid, NULL, 0));
	EXPECT_EQ(ST_KILLED(SIGKILL), wstat(pid, __WCLONE));
}

TEST(traced_clone_child_no_wall_needed)
{
	pid_t pid = clone_child();

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, pid, 0, 0));
	EXPECT_EQ(ST_EVENT(PTRACE_EVENT_STOP), wstat(pid, 0));
	ASSERT_EQ(0, kill(pid, SIGKILL));
	EXPECT_EQ(ST_KILLED(SIGKILL), wstat(pid, 0));
}

TEST(wclone_excludes_normal_child)
{
	pid_t pid = spawn_traceme(NULL, NULL);

	ASSERT_GT(pid, 0);
	/* A traced child is eligible whatever __WCLONE says. */
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, __WCLONE));
}

static int body_wait_pipe(void *arg)
{
	return pipe_read_byte((int)(long)arg) < 0 ? 1 : 3;
}

/*
 * A non-parent tracer: fork a tracer that SEIZEs pid, tells us via 'ready'
 * and then follows the script:
 *   script 0: wait for pid's exit with WNOWAIT, signal, wait for go, reap
 *             and report the status as its exit code (status >> 8).
 *   script 1: wait for exit with WNOWAIT, signal, wait for go, exit
 *             without reaping.
 */
static pid_t nonparent_tracer(pid_t pid, int script, int ready, int go)
{
	pid_t t = fork_child();

	if (t != 0)
		return t;
	if (ptr(PTRACE_SEIZE, pid, 0, 0))
		_exit(101);
	pipe_write_byte(ready, 'r');
	{
		siginfo_t si = { 0 };

		if (waitid(P_PID, pid, &si, WEXITED | WNOWAIT))
			_exit(102);
		pipe_write_byte(ready, 'z');
		if (pipe_read_byte(go) < 0)
			_exit(103);
		if (script == 0)
			_exit(wstat(pid, 0) >> 8);
		_exit(0);
	}
}

TEST(zombie_tracee_hidden_from_real_parent_until_reaped)
{
	int p1[2], p2[2], p3[2];
	pid_t pid, t;

	ASSERT_EQ(0, pipe(p1));
	ASSERT_EQ(0, pipe(p2));
	ASSERT_EQ(0, pipe(p3));
	pid = spawn(body_wait_pipe, (void *)(long)p3[0]);
	ASSERT_GT(pid, 0);
	t = nonparent_tracer(pid, 0, p1[1], p2[0]);
	ASSERT_GT(t, 0);
	ASSERT_EQ('r', pipe_read_byte(p1[0]));
	ASSERT_EQ(0, pipe_write_byte(p3[1], 'x'));
	ASSERT_EQ('z', pipe_read_byte(p1[0]));
	/* Exited, but the zombie belongs to the tracer for now. */
	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	ASSERT_EQ(0, pipe_write_byte(p2[1], 'g'));
	EXPECT_EQ(ST_EXITED(3), wstat(t, 0));
	EXPECT_EQ(ST_EXITED(3), wstat(pid, 0));
}

TEST(tracer_exit_hands_zombie_to_real_parent)
{
	int p1[2], p2[2], p3[2];
	pid_t pid, t;

	ASSERT_EQ(0, pipe(p1));
	ASSERT_EQ(0, pipe(p2));
	ASSERT_EQ(0, pipe(p3));
	pid = spawn(body_wait_pipe, (void *)(long)p3[0]);
	ASSERT_GT(pid, 0);
	t = nonparent_tracer(pid, 1, p1[1], p2[0]);
	ASSERT_GT(t, 0);
	ASSERT_EQ('r', pipe_read_byte(p1[0]));
	ASSERT_EQ(0, pipe_write_byte(p3[1], 'x'));
	ASSERT_EQ('z', pipe_read_byte(p1[0]));
	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	ASSERT_EQ(0, pipe_write_byte(p2[1], 'g'));
	EXPECT_EQ(ST_EXITED(0), wstat(t, 0));
	EXPECT_EQ(ST_EXITED(3), wstat(pid, 0));
}

TEST(nonparent_tracer_waits_with_minus_one)
{
	int fds[2];
	pid_t pid, t;

	ASSERT_EQ(0, pipe(fds));
	pid = spawn(body_pause, NULL);
	ASSERT_GT(pid, 0);
	t = fork_child();
	if (t == 0) {
		int st;

		if (ptr(PTRACE_SEIZE, pid, 0, 0))
			_exit(1);
		if (ptr(PTRACE_INTERRUPT, pid, 0, 0))
			_exit(2);
		if (wait_st(-1, &st, 0) != pid)
			_exit(3);
		if (st != ST_EVENT(PTRACE_EVENT_STOP))
			_exit(4);
		if (ptr(PTRACE_DETACH, pid, 0, 0))
			_exit(5);
		/* After detach the tracer has no children at all. */
		_exit(wait_st(-1, &st, WNOHANG) == -ECHILD ? 0 : 6);
	}
	EXPECT_EQ(ST_EXITED(0), wstat(t, 0));
	kill_reap(pid);
}

TEST(traced_child_reaped_once)
{
	pid_t pid = spawn_traceme(NULL, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
	EXPECT_EQ(-ECHILD, wait_st(pid, NULL, 0));
}

TEST(sigkill_is_not_a_stop)
{
	pid_t pid = spawn_traceme(NULL, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, kill(pid, SIGKILL));
	EXPECT_EQ(ST_KILLED(SIGKILL), wstat(pid, 0));
}

static int body_self_signal(void *arg)
{
	kill(getpid(), (int)(long)arg);
	return 0;
}

TEST(signal_delivery_stop_siginfo_si_user)
{
	siginfo_t si;
	pid_t pid = spawn_traceme(body_self_signal, (void *)(long)SIGUSR1);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_STOPPED(SIGUSR1), wstat(pid, 0));
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SIGUSR1, si.si_signo);
	EXPECT_EQ(SI_USER, si.si_code);
	EXPECT_EQ(pid, si.si_pid);
	EXPECT_EQ(0, (int)si.si_uid);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
}

TEST(signal_delivery_stop_siginfo_sigqueue)
{
	union sigval v = { .sival_int = 0x5eed };
	siginfo_t si;
	pid_t pid = spawn_traceme(NULL, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, sigqueue(pid, SIGUSR2, v));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_STOPPED(SIGUSR2), wstat(pid, 0));
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SIGUSR2, si.si_signo);
	EXPECT_EQ(SI_QUEUE, si.si_code);
	EXPECT_EQ(getpid(), si.si_pid);
	EXPECT_EQ(0x5eed, si.si_value.sival_int);
	kill_reap(pid);
}

static int body_ignored_usr1(void *arg)
{
	(void)arg;
	signal(SIGUSR1, SIG_IGN);
	kill(getpid(), SIGUSR1);
	return 5;
}

TEST(ignored_signal_still_reported_when_traced)
{
	pid_t pid = spawn_traceme(body_ignored_usr1, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_STOPPED(SIGUSR1), wstat(pid, 0));
	/* Delivering it applies SIG_IGN. */
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, SIGUSR1));
	EXPECT_EQ(ST_EXITED(5), wstat(pid, 0));
}

static int body_blocked_pair(void *arg)
{
	sigset_t set;

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_BLOCK, &set, NULL);
	kill(getpid(), SIGUSR2);
	kill(getpid(), SIGUSR1);
	kill(getpid(), SIGUSR1);	/* merged with the pending one */
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	return 6;
}

TEST(blocked_signals_reported_on_unblock_in_order)
{
	pid_t pid = spawn_traceme(body_blocked_pair, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_STOPPED(SIGUSR1), wstat(pid, 0));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_STOPPED(SIGUSR2), wstat(pid, 0));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(6), wstat(pid, 0));
}

static int body_rt_twice(void *arg)
{
	sigset_t set;
	union sigval v = { 0 };

	(void)arg;
	sigemptyset(&set);
	sigaddset(&set, SIGRTMIN + 1);
	sigprocmask(SIG_BLOCK, &set, NULL);
	v.sival_int = 1;
	sigqueue(getpid(), SIGRTMIN + 1, v);
	v.sival_int = 2;
	sigqueue(getpid(), SIGRTMIN + 1, v);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	return 7;
}

TEST(rt_signal_each_instance_reported)
{
	siginfo_t si;
	pid_t pid = spawn_traceme(body_rt_twice, NULL);
	int i;

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	for (i = 1; i <= 2; i++) {
		ASSERT_EQ(ST_STOPPED(SIGRTMIN + 1), wstat(pid, 0));
		ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
		EXPECT_EQ(i, si.si_value.sival_int);
		ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	}
	EXPECT_EQ(ST_EXITED(7), wstat(pid, 0));
}

TEST(sigstop_to_traced_child_is_signal_stop_first)
{
	int fds[2];
	pid_t pid;

	ASSERT_EQ(0, pipe(fds));
	pid = spawn(body_wait_pipe, (void *)(long)fds[0]);
	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	ASSERT_EQ(0, kill(pid, SIGSTOP));
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, 0));
	/* Suppressing it means no group stop at all. */
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(0, pipe_write_byte(fds[1], 'x'));
	EXPECT_EQ(ST_EXITED(3), wstat(pid, 0));
}

TEST(seized_group_stop_siginfo)
{
	siginfo_t si;
	pid_t pid = spawn(body_pause, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	ASSERT_EQ(0, kill(pid, SIGTSTP));
	ASSERT_EQ(ST_STOPPED(SIGTSTP), wstat(pid, 0));
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, SIGTSTP));
	ASSERT_EQ(ST_GROUPSTOP(SIGTSTP), wstat(pid, 0));
	ASSERT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &si));
	EXPECT_EQ(SIGTSTP, si.si_signo);
	EXPECT_EQ(SIGTSTP | (PTRACE_EVENT_STOP << 8), si.si_code);
	EXPECT_EQ(pid, si.si_pid);
	kill_reap(pid);
}

TEST(exit_status_reported_to_tracer_parent)
{
	pid_t pid = spawn_traceme(body_self_signal, (void *)(long)SIGSEGV);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(ST_STOPPED(SIGSEGV), wstat(pid, 0));
	ASSERT_EQ(0, prctl(PR_SET_DUMPABLE, 1) ? -1 : 0);
	/* Kill it with SIGTERM instead of delivering SIGSEGV (no core). */
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, SIGTERM));
	EXPECT_EQ(ST_KILLED(SIGTERM), wstat(pid, 0));
}

/*
 * A non-parent tracer holds our child in a stop: mode 0 leaves it in
 * PTRACE_EVENT_STOP (INTERRUPT), mode 1 in a group-stop (SIGSTOP injected).
 * The tracer waits for a byte on 'go' and exits.
 */
static pid_t hold_in_stop(pid_t pid, int mode, int ready, int go)
{
	pid_t t = fork_child();

	if (t != 0)
		return t;
	if (ptr(PTRACE_SEIZE, pid, 0, 0))
		_exit(1);
	if (mode == 0) {
		if (ptr(PTRACE_INTERRUPT, pid, 0, 0) ||
		    wstat(pid, 0) != ST_EVENT(PTRACE_EVENT_STOP))
			_exit(2);
	} else {
		if (kill(pid, SIGSTOP) || wstat(pid, 0) != ST_STOPPED(SIGSTOP))
			_exit(3);
		if (ptr(PTRACE_CONT, pid, 0, SIGSTOP) ||
		    wstat(pid, 0) != ST_GROUPSTOP(SIGSTOP))
			_exit(4);
	}
	pipe_write_byte(ready, 'r');
	_exit(pipe_read_byte(go) < 0 ? 5 : 0);
}

TEST(real_parent_does_not_see_ptrace_stop)
{
	int p1[2], p2[2], p3[2];
	pid_t pid, t;

	ASSERT_EQ(0, pipe(p1));
	ASSERT_EQ(0, pipe(p2));
	ASSERT_EQ(0, pipe(p3));
	pid = spawn(body_wait_pipe, (void *)(long)p3[0]);
	ASSERT_GT(pid, 0);
	t = hold_in_stop(pid, 0, p1[1], p2[0]);
	ASSERT_GT(t, 0);
	ASSERT_EQ('r', pipe_read_byte(p1[0]));
	EXPECT_EQ('t', task_state(pid, pid));
	EXPECT_EQ(0, wait_st(pid, NULL, WUNTRACED | WNOHANG));
	ASSERT_EQ(0, pipe_write_byte(p2[1], 'g'));
	ASSERT_EQ(ST_EXITED(0), wstat(t, 0));
	ASSERT_EQ(0, pipe_write_byte(p3[1], 'x'));
	EXPECT_EQ(ST_EXITED(3), wstat(pid, WUNTRACED));
}

TEST(real_parent_sees_group_stop_of_traced_child)
{
	int p1[2], p2[2], p3[2];
	pid_t pid, t;

	ASSERT_EQ(0, pipe(p1));
	ASSERT_EQ(0, pipe(p2));
	ASSERT_EQ(0, pipe(p3));
	pid = spawn(body_wait_pipe, (void *)(long)p3[0]);
	ASSERT_GT(pid, 0);
	t = hold_in_stop(pid, 1, p1[1], p2[0]);
	ASSERT_GT(t, 0);
	ASSERT_EQ('r', pipe_read_byte(p1[0]));
	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	EXPECT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, WUNTRACED));
	/* Released by the tracer's exit, it stays group-stopped. */
	ASSERT_EQ(0, pipe_write_byte(p2[1], 'g'));
	ASSERT_EQ(ST_EXITED(0), wstat(t, 0));
	EXPECT_TRUE(wait_task_state(pid, pid, 'T', 5000));
	ASSERT_EQ(0, kill(pid, SIGCONT));
	EXPECT_EQ(ST_CONTINUED, wstat(pid, WCONTINUED));
	ASSERT_EQ(0, pipe_write_byte(p3[1], 'x'));
	EXPECT_EQ(ST_EXITED(3), wstat(pid, 0));
}

/* The tracer is a thread; its sibling threads share wait() but not ptrace. */
static pid_t other_thread_pid;
static volatile long other_thread_result[3];

static void *other_tracer_thread(void *arg)
{
	int st = 0;

	(void)arg;
	other_thread_result[0] = PTRE(PTRACE_GETSIGINFO, other_thread_pid, 0,
				      &(siginfo_t){});
	other_thread_result[1] = wait_st(other_thread_pid, &st, __WNOTHREAD |
					 WNOHANG);
	other_thread_result[2] = wait_st(other_thread_pid, &st, 0) ==
				 other_thread_pid ? st : -1;
	return NULL;
}

TEST(sibling_thread_of_tracer_can_wait_not_ptrace)
{
	pthread_t th;
	pid_t pid = spawn_traceme(NULL, NULL);

	ASSERT_GT(pid, 0);
	other_thread_pid = pid;
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, SIGUSR1));
	/* Let the stop happen before the thread looks at it. */
	ASSERT_EQ(0, waitid(P_PID, pid, &(siginfo_t){}, WEXITED | WNOWAIT));
	ASSERT_EQ(0, pthread_create(&th, NULL, other_tracer_thread, NULL));
	ASSERT_EQ(0, pthread_join(th, NULL));
	/* Exited: a sibling thread can reap it; __WNOTHREAD cannot. */
	EXPECT_EQ(-ESRCH, other_thread_result[0]);
	EXPECT_EQ(-ECHILD, other_thread_result[1]);
	EXPECT_EQ(ST_KILLED(SIGUSR1), other_thread_result[2]);
}

static void *thread_ptrace_request(void *arg)
{
	other_thread_result[0] = PTRE(PTRACE_GETSIGINFO, (pid_t)(long)arg, 0,
				      &(siginfo_t){});
	other_thread_result[1] = PTRE(PTRACE_CONT, (pid_t)(long)arg, 0, 0);
	return NULL;
}

TEST(ptrace_request_from_sibling_thread_esrch)
{
	pthread_t th;
	pid_t pid = spawn_traceme(NULL, NULL);

	ASSERT_GT(pid, 0);
	ASSERT_EQ(0, pthread_create(&th, NULL, thread_ptrace_request,
				    (void *)(long)pid));
	ASSERT_EQ(0, pthread_join(th, NULL));
	EXPECT_EQ(-ESRCH, other_thread_result[0]);
	EXPECT_EQ(-ESRCH, other_thread_result[1]);
	/* Still stopped for the real tracer thread. */
	EXPECT_EQ(0, PTRE(PTRACE_GETSIGINFO, pid, 0, &(siginfo_t){}));
	kill_reap(pid);
}

TEST_HARNESS_MAIN
