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

/* A body_getppid_args() TRACEME child with PTRACE_O_TRACESYSGOOD set. */
static pid_t spawn_sysgood(struct __test_metadata *_metadata)
{
	return traceme_child_opts(_metadata, body_getppid_args, NULL,
				  PTRACE_O_TRACESYSGOOD);
}

/*
 * Asserts get_info() == size and get_regs(), then expects op, the x86_64
 * arch and the instruction and stack pointers of the registers.
 */
static void expect_info_common(struct __test_metadata *_metadata, pid_t pid,
			       struct ptrace_syscall_info *info, long size,
			       int op)
{
	struct user_regs_struct r;

	ASSERT_EQ(size, get_info(pid, info));
	ASSERT_EQ(0, get_regs(pid, &r));
	EXPECT_EQ(op, info->op);
	EXPECT_EQ(AUDIT_ARCH_X86_64, info->arch);
	EXPECT_EQ(r.rip, info->instruction_pointer);
	EXPECT_EQ(r.rsp, info->stack_pointer);
}

TEST(syscall_info_signal_stop_is_none)
{
	struct ptrace_syscall_info info;
	pid_t pid = spawn_sysgood(_metadata);

	expect_info_common(_metadata, pid, &info, SI_SIZE_NONE,
			   PTRACE_SYSCALL_INFO_NONE);
	kill_reap(pid);
}

TEST(syscall_info_entry)
{
	struct ptrace_syscall_info info;
	pid_t pid = spawn_sysgood(_metadata);
	int i;

	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	expect_info_common(_metadata, pid, &info, SI_SIZE_ENTRY,
			   PTRACE_SYSCALL_INFO_ENTRY);
	EXPECT_EQ(SYS_getppid, (long)info.entry.nr);
	for (i = 0; i < 6; i++)
		EXPECT_EQ(0x11UL * (i + 1), info.entry.args[i]);
	kill_reap(pid);
}

TEST(syscall_info_exit_success)
{
	struct ptrace_syscall_info info;
	pid_t pid = spawn_sysgood(_metadata);

	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	ASSERT_EQ(SI_SIZE_EXIT, get_info(pid, &info));
	expect_info_exit(_metadata, &info, getpid(), 0);
	kill_reap(pid);
}

TEST(syscall_info_exit_error)
{
	struct ptrace_syscall_info info;
	pid_t pid = spawn_sysgood(_metadata);
	int i;

	for (i = 0; i < 4; i++)
		resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
	ASSERT_EQ(SI_SIZE_EXIT, get_info(pid, &info));
	expect_info_exit(_metadata, &info, -EBADF, 1);
	kill_reap(pid);
}

TEST(syscall_info_without_sysgood_is_none)
{
	struct ptrace_syscall_info info;
	pid_t pid = traceme_child(_metadata, body_getppid_args, NULL);

	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_STOPPED(SIGTRAP));
	ASSERT_EQ(SI_SIZE_NONE, get_info(pid, &info));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_NONE, info.op);
	kill_reap(pid);
}

TEST(syscall_info_event_stop_is_none)
{
	struct ptrace_syscall_info info;
	pid_t pid = interrupted_child(_metadata, body_pause, NULL, PTRACE_O_TRACESYSGOOD);

	ASSERT_EQ(SI_SIZE_NONE, get_info(pid, &info));
	EXPECT_EQ(PTRACE_SYSCALL_INFO_NONE, info.op);
	kill_reap(pid);
}

TEST(syscall_info_short_buffer)
{
	unsigned char buf[sizeof(struct ptrace_syscall_info)];
	struct ptrace_syscall_info *info = (void *)buf;
	unsigned int i;
	pid_t pid = spawn_sysgood(_metadata);

	resume_assert(_metadata, pid, PTRACE_SYSCALL, 0, ST_SYSCALL);
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
	pid_t pid = seized_child(_metadata, body_pause, NULL, 0);

	EXPECT_EQ(-ESRCH, get_info(pid, &info));
	kill_reap(pid);
}

/*
 * A child that does TRACEME and stops itself with SIGSTOP, like
 * traceme_child(), but the stop is not waited for; asserts pid >= 0.
 */
static pid_t traceme_child_unwaited(struct __test_metadata *_metadata)
{
	pid_t pid = fork_child();

	ASSERT_GE(pid, 0);
	if (pid == 0) {
		child_traceme_stop();
		_exit(0);
	}
	return pid;
}

TEST(waitid_signal_stop_cld_trapped)
{
	siginfo_t si = { 0 };
	pid_t pid = traceme_child_unwaited(_metadata);

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
	pid_t pid = spawn_sysgood(_metadata);

	ASSERT_EQ(0, PTRE(PTRACE_SYSCALL, pid, 0, 0));
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WSTOPPED));
	EXPECT_EQ(CLD_TRAPPED, si.si_code);
	EXPECT_EQ(SIGTRAP | 0x80, si.si_status);
	kill_reap(pid);
}

TEST(waitid_event_stop_full_exit_code)
{
	siginfo_t si = { 0 };
	pid_t pid = seized_child(_metadata, body_pause, NULL, 0);

	ASSERT_EQ(0, PTRE(PTRACE_INTERRUPT, pid, 0, 0));
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WSTOPPED));
	EXPECT_EQ(CLD_TRAPPED, si.si_code);
	EXPECT_EQ(SIGTRAP | (PTRACE_EVENT_STOP << 8), si.si_status);
	kill_reap(pid);
}

TEST(waitid_killed_and_exited_codes)
{
	siginfo_t si = { 0 };
	pid_t pid = traceme_child(_metadata, NULL, NULL);

	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, SIGTERM));
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WEXITED));
	EXPECT_EQ(CLD_KILLED, si.si_code);
	EXPECT_EQ(SIGTERM, si.si_status);
	EXPECT_EQ(pid, si.si_pid);
}

TEST(wnowait_leaves_stop_reportable)
{
	siginfo_t si = { 0 };
	pid_t pid = traceme_child_unwaited(_metadata);

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
	pid_t pid = traceme_child(_metadata, NULL, NULL);

	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	ASSERT_EQ(0, waitid(P_PID, pid, &si, WEXITED | WNOWAIT));
	EXPECT_EQ(CLD_EXITED, si.si_code);
	EXPECT_EQ(ST_EXITED(0), wstat(pid, 0));
	EXPECT_EQ(-ECHILD, wait_st(pid, NULL, WNOHANG));
}

TEST(wnohang_running_tracee_returns_zero)
{
	pid_t pid = seized_child(_metadata, body_pause, NULL, 0);

	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	EXPECT_EQ(0, wait_st(-1, NULL, WNOHANG | __WALL));
	kill_reap(pid);
}

TEST(untraced_group_stop_needs_wuntraced)
{
	pid_t pid = plain_child(_metadata, body_pause, NULL);

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
	pid = spawn_sysgood(_metadata);
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
	pid_t pid = traceme_child(_metadata, NULL, NULL);

	/* A traced child is eligible whatever __WCLONE says. */
	ASSERT_EQ(0, PTRE(PTRACE_CONT, pid, 0, 0));
	EXPECT_EQ(ST_EXITED(0), wstat(pid, __WCLONE));
}

/* Like body_wait_pipe(), but exits 3. */
static int body_wait_pipe_exit3(void *arg)
{
	return pipe_read_byte((int)(long)arg) < 0 ? 1 : 3;
}

/*
 * Pipes between a test, its child (body_wait_pipe_exit3 on child[0]) and a
 * non-parent tracer (ready: tracer -> test, go: test -> tracer).
 */
struct tracer_pipes {
	int ready[2], go[2], child[2];
};

typedef pid_t (*tracer_fn)(pid_t pid, int mode, int ready, int go);

/*
 * Fork a tracer: returns its pid to the caller, 0 in the tracer once it has
 * SEIZEd pid (it exits with fail if that fails).
 */
static pid_t fork_seizer(pid_t pid, int fail)
{
	pid_t t = fork_child();

	if (t == 0 && ptr(PTRACE_SEIZE, pid, 0, 0))
		_exit(fail);
	return t;
}

/*
 * Asserts the three pipes, spawns the child and then the tracer
 * tracer(pid, mode, ...), asserts both pids > 0 and the tracer's 'r'.
 */
static pid_t child_with_tracer(struct __test_metadata *_metadata,
			       struct tracer_pipes *p, tracer_fn tracer,
			       int mode, pid_t *t)
{
	pid_t pid;

	ASSERT_EQ(0, pipe(p->ready));
	ASSERT_EQ(0, pipe(p->go));
	ASSERT_EQ(0, pipe(p->child));
	pid = spawn(body_wait_pipe_exit3, (void *)(long)p->child[0]);
	ASSERT_GT(pid, 0);
	*t = tracer(pid, mode, p->ready[1], p->go[0]);
	ASSERT_GT(*t, 0);
	ASSERT_EQ('r', pipe_read_byte(p->ready[0]));
	return pid;
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
	pid_t t = fork_seizer(pid, 101);

	if (t != 0)
		return t;
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

/*
 * Our child exits while nonparent_tracer(script) traces it; expects the
 * tracer's exit status tracer_st and then the child's ST_EXITED(3).
 */
static void zombie_of_traced_child(struct __test_metadata *_metadata,
				   int script, int tracer_st)
{
	struct tracer_pipes p;
	pid_t t, pid = child_with_tracer(_metadata, &p, nonparent_tracer,
					 script, &t);

	ASSERT_EQ(0, pipe_write_byte(p.child[1], 'x'));
	ASSERT_EQ('z', pipe_read_byte(p.ready[0]));
	/* Exited, but the zombie belongs to the tracer for now. */
	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	ASSERT_EQ(0, pipe_write_byte(p.go[1], 'g'));
	EXPECT_EQ(tracer_st, wstat(t, 0));
	EXPECT_EQ(ST_EXITED(3), wstat(pid, 0));
}

TEST(zombie_tracee_hidden_from_real_parent_until_reaped)
{
	/* The tracer reaps the child and exits with the child's code. */
	zombie_of_traced_child(_metadata, 0, ST_EXITED(3));
}

TEST(tracer_exit_hands_zombie_to_real_parent)
{
	/* The tracer exits without reaping it. */
	zombie_of_traced_child(_metadata, 1, ST_EXITED(0));
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
	pid_t pid = traceme_child(_metadata, NULL, NULL);

	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
	EXPECT_EQ(-ECHILD, wait_st(pid, NULL, 0));
}

TEST(sigkill_is_not_a_stop)
{
	pid_t pid = traceme_child(_metadata, NULL, NULL);

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
	pid_t pid = traceme_child(_metadata, body_self_signal, (void *)(long)SIGUSR1);

	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGUSR1));
	expect_siginfo(_metadata, pid, &si, SIGUSR1, SI_USER, pid);
	EXPECT_EQ(0, (int)si.si_uid);
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(0));
}

TEST(signal_delivery_stop_siginfo_sigqueue)
{
	union sigval v = { .sival_int = 0x5eed };
	siginfo_t si;
	pid_t pid = traceme_child(_metadata, NULL, NULL);

	ASSERT_EQ(0, sigqueue(pid, SIGUSR2, v));
	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGUSR2));
	expect_siginfo(_metadata, pid, &si, SIGUSR2, SI_QUEUE, getpid());
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
	pid_t pid = traceme_child(_metadata, body_ignored_usr1, NULL);

	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGUSR1));
	/* Delivering it applies SIG_IGN. */
	resume_expect(_metadata, pid, PTRACE_CONT, SIGUSR1, ST_EXITED(5));
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
	pid_t pid = traceme_child(_metadata, body_blocked_pair, NULL);

	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGUSR1));
	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGUSR2));
	resume_expect(_metadata, pid, PTRACE_CONT, 0, ST_EXITED(6));
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
	pid_t pid = traceme_child(_metadata, body_rt_twice, NULL);
	int i;

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
	pid_t pid = piped_child(_metadata, body_wait_pipe_exit3, fds);

	ASSERT_EQ(0, PTRE(PTRACE_SEIZE, pid, 0, 0));
	ASSERT_EQ(0, kill(pid, SIGSTOP));
	ASSERT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, 0));
	/* Suppressing it means no group stop at all. */
	resume_release_expect(_metadata, pid, PTRACE_CONT, 0, fds, ST_EXITED(3));
}

TEST(seized_group_stop_siginfo)
{
	siginfo_t si;
	pid_t pid = seized_child(_metadata, body_pause, NULL, 0);

	ASSERT_EQ(0, kill(pid, SIGTSTP));
	ASSERT_EQ(ST_STOPPED(SIGTSTP), wstat(pid, 0));
	resume_assert(_metadata, pid, PTRACE_CONT, SIGTSTP, ST_GROUPSTOP(SIGTSTP));
	expect_siginfo(_metadata, pid, &si, SIGTSTP, SIGTSTP | (PTRACE_EVENT_STOP << 8), pid);
	kill_reap(pid);
}

TEST(exit_status_reported_to_tracer_parent)
{
	pid_t pid = traceme_child(_metadata, body_self_signal, (void *)(long)SIGSEGV);

	resume_assert(_metadata, pid, PTRACE_CONT, 0, ST_STOPPED(SIGSEGV));
	ASSERT_EQ(0, prctl(PR_SET_DUMPABLE, 1) ? -1 : 0);
	/* Kill it with SIGTERM instead of delivering SIGSEGV (no core). */
	resume_expect(_metadata, pid, PTRACE_CONT, SIGTERM, ST_KILLED(SIGTERM));
}

/*
 * A non-parent tracer holds our child in a stop: mode 0 leaves it in
 * PTRACE_EVENT_STOP (INTERRUPT), mode 1 in a group-stop (SIGSTOP injected).
 * The tracer waits for a byte on 'go' and exits.
 */
static pid_t hold_in_stop(pid_t pid, int mode, int ready, int go)
{
	pid_t t = fork_seizer(pid, 1);

	if (t != 0)
		return t;
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
	struct tracer_pipes p;
	pid_t t, pid = child_with_tracer(_metadata, &p, hold_in_stop, 0, &t);

	EXPECT_EQ('t', traced_state(pid, pid));
	EXPECT_EQ(0, wait_st(pid, NULL, WUNTRACED | WNOHANG));
	ASSERT_EQ(0, pipe_write_byte(p.go[1], 'g'));
	ASSERT_EQ(ST_EXITED(0), wstat(t, 0));
	release_expect(_metadata, pid, p.child, WUNTRACED, ST_EXITED(3));
}

TEST(real_parent_sees_group_stop_of_traced_child)
{
	struct tracer_pipes p;
	pid_t t, pid = child_with_tracer(_metadata, &p, hold_in_stop, 1, &t);

	EXPECT_EQ(0, wait_st(pid, NULL, WNOHANG));
	EXPECT_EQ(ST_STOPPED(SIGSTOP), wstat(pid, WUNTRACED));
	/* Released by the tracer's exit, it stays group-stopped. */
	ASSERT_EQ(0, pipe_write_byte(p.go[1], 'g'));
	ASSERT_EQ(ST_EXITED(0), wstat(t, 0));
	EXPECT_TRUE(wait_task_state(pid, pid, 'T', 5000));
	ASSERT_EQ(0, kill(pid, SIGCONT));
	EXPECT_EQ(ST_CONTINUED, wstat(pid, WCONTINUED));
	release_expect(_metadata, pid, p.child, 0, ST_EXITED(3));
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
	pid_t pid = traceme_child(_metadata, NULL, NULL);

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
	pid_t pid = traceme_child(_metadata, NULL, NULL);

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
